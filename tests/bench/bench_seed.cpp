// Seeds a data directory with N synthetic contacts for the benchmarks (scripts/bench.sh).
// Prints, as its last line, "ids=<file> terms=<file>": a sample of contact ids and of search terms.
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "tests/support/testsupport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTextStream>
#include <QUrl>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addOption({QStringLiteral("data-dir"), QStringLiteral("Data directory."), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("contacts"), QStringLiteral("How many contacts."), QStringLiteral("N"),
                 QStringLiteral("100000")});
    p.addHelpOption();
    p.process(app);
    const QString dir = p.value(QStringLiteral("data-dir"));
    const int n = p.value(QStringLiteral("contacts")).toInt();
    if (dir.isEmpty() || n <= 0) {
        fprintf(stderr, "bench_seed: needs --data-dir DIR and --contacts N > 0\n");
        return 2;
    }
    QDir().mkpath(dir);
    Database::setPath(QDir(dir).filePath(QStringLiteral("liaison.db")));
    Database::migrate();

    const QStringList first = {"Ahmet",   "Mehmet", "Ayşe",    "Fatma", "Mustafa", "Emine", "Ali",   "Hatice",
                               "Hüseyin", "Zeynep", "İbrahim", "Elif",  "Murat",   "Şule",  "Ömer",  "Özlem",
                               "Can",     "Deniz",  "Ece",     "Burak", "John",    "Mary",  "James", "Anna",
                               "Peter",   "Laura",  "David",   "Sofia", "Lukas",   "Emma",  "Noah",  "Olivia",
                               "Liam",    "Mia",    "Yusuf",   "Selin", "Kerem",   "Aslı",  "Tolga", "Gül"};
    const QStringList last = {"Yılmaz", "Kaya",    "Demir",  "Şahin",  "Çelik",  "Yıldız",  "Yıldırım",  "Öztürk",
                              "Aydın",  "Özdemir", "Arslan", "Doğan",  "Kılıç",  "Aslan",   "Çetin",     "Kara",
                              "Koç",    "Kurt",    "Özkan",  "Şimşek", "Smith",  "Johnson", "Brown",     "Taylor",
                              "Miller", "Wilson",  "Moore",  "Clark",  "Müller", "Schmidt", "Schneider", "Fischer",
                              "Weber",  "Meyer",   "Wagner", "Becker", "Rossi",  "Russo",   "Ferrari",   "Esposito"};
    const QStringList companies = {"Anadolu Tekstil", "Boğaziçi Lojistik", "Ege Gıda", "Marmara Yazılım", "Acme",
                                   "Globex",          "Initech",           "Umbrella", "Stark",           "Wayne"};
    const QStringList sources = {"web", "whatsapp", "instagram", "telegram", "referral", "fair"};
    const QStringList tags = {"vip", "lead", "customer", "newsletter", "istanbul", "ankara", "izmir", "b2b"};
    QRandomGenerator rng(42);
    const QDateTime start = QDateTime::currentDateTimeUtc().addDays(-730);

    QElapsedTimer timer;
    timer.start();
    QVector<QJsonObject> batch;
    batch.reserve(10000);
    for (int i = 0; i < n; ++i) {
        const QString f = first.at(int(rng.bounded(first.size())));
        const QString l = last.at(int(rng.bounded(last.size())));
        QJsonArray t;
        for (int k = 0, m = int(rng.bounded(3)); k < m; ++k)
            t.append(tags.at(int(rng.bounded(tags.size()))));
        batch.append(QJsonObject{
            {QStringLiteral("firstName"), f},
            {QStringLiteral("lastName"), l},
            {QStringLiteral("email"), QStringLiteral("user%1@example%2.com").arg(i).arg(i % 97)},
            {QStringLiteral("phone"), QStringLiteral("+90 5%1").arg(300000000 + i, 9, 10, QLatin1Char('0'))},
            {QStringLiteral("company"), companies.at(int(rng.bounded(companies.size())))},
            {QStringLiteral("source"), sources.at(int(rng.bounded(sources.size())))},
            {QStringLiteral("tags"), t},
            {QStringLiteral("leadScore"), int(rng.bounded(101))},
            {QStringLiteral("createdAt"), start.addSecs(qint64(i) * 730 * 86400 / n).toString(Qt::ISODate)},
        });
        if (batch.size() == 10000 || i == n - 1) {
            ContactRepository(testStore()).insertBulk(batch);
            batch.clear();
            fprintf(stderr, "\rseeded %d/%d", i + 1, n);
        }
    }
    fprintf(stderr, "\nseeded %d contacts in %.1f s\n", n, timer.elapsed() / 1000.0);
    Database::exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    Database::exec(QStringLiteral("ANALYZE"));

    const QString idsPath = QDir(dir).filePath(QStringLiteral("bench-ids.txt"));
    const QString termsPath = QDir(dir).filePath(QStringLiteral("bench-terms.txt"));
    QFile ids(idsPath);
    ids.open(QIODevice::WriteOnly);
    QSqlQuery q = Database::exec(QStringLiteral("SELECT id FROM contacts ORDER BY random() LIMIT 10000"));
    while (q.next())
        ids.write(q.value(0).toString().toUtf8() + '\n');
    QFile terms(termsPath);
    terms.open(QIODevice::WriteOnly);
    // Realistic look-ups: a full name, a surname prefix, an e-mail, a phone fragment.
    for (int i = 0; i < 1000; ++i) {
        const int k = int(rng.bounded(n));
        QString term;
        switch (i % 4) {
        case 0:
            term = QStringLiteral("user%1").arg(k);
            break;
        case 1:
            term = QStringLiteral("5%1").arg(300000000 + k, 9, 10, QLatin1Char('0')).left(10);
            break;
        case 2:
            term = QStringLiteral("%1 %2 user%3").arg(first.at(k % first.size()), last.at(k % last.size())).arg(k);
            break;
        default:
            term = QStringLiteral("user%1@example%2.com").arg(k).arg(k % 97);
            break;
        }
        terms.write(QUrl::toPercentEncoding(term) + '\n');
    }
    Database::closeThreadConnection();
    printf("ids=%s terms=%s\n", qPrintable(idsPath), qPrintable(termsPath));
    return 0;
}
