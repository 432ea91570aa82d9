// Seeds N contacts (default 100,000), one in 50 a second spelling of an earlier one (capitals,
// no Turkish letters, the company in upper case), and prints the time of finding every duplicate
// group (DuplicateFinder::groups, what GET /contacts/duplicates and the window's Find duplicates
// run), of loading a page of 20 groups, of a merge's preview, of a merge and of its undo.
//   bench_duplicates [--contacts N] [--data-dir DIR] [--postgres URL]   (URL: a database of its own,
//   e.g. a cluster of scripts/pg-cluster.sh; its contacts are reused when there are N)
#include "model/contacts/contactmerge.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/duplicatefinder.h"
#include "model/core/database.h"
#include "model/core/databaseurl.h"
#include "tests/bench/benchtiming.h"
#include "tests/support/testsupport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <algorithm>

namespace {
QString plain(QString s)
{
    const QString from = QStringLiteral("ıİşŞğĞçÇöÖüÜ");
    const QString to = QStringLiteral("iIsSgGcCoOuU");
    for (int i = 0; i < from.size(); ++i)
        s.replace(from.at(i), to.at(i));
    return s.toUpper();
}

void seed(int n)
{
    const QStringList first = {"Ahmet", "Mehmet", "Ayşe", "Fatma", "Mustafa", "Emine", "Ali",   "Zeynep",
                               "Elif",  "Murat",  "Işık", "Çağla", "Şükrü",   "Gül",   "Peter", "Laura"};
    const QStringList last = {"Yılmaz", "Kaya",  "Demir",   "Şahin",  "Çelik", "Yıldız", "Öztürk", "Aydın",
                              "Smith",  "Brown", "Johnson", "Müller", "Rossi", "Weber",  "Clark",  "Taylor"};
    const QStringList kinds = {"Yazılım", "Tekstil", "Lojistik", "Gıda", "İnşaat", "Danışmanlık"};
    QRandomGenerator rng(7);
    QVector<QJsonObject> batch;
    QJsonObject previous;
    for (int i = 0; i < n; ++i) {
        QJsonObject c{{QStringLiteral("firstName"), first.at(int(rng.bounded(first.size())))},
                      {QStringLiteral("lastName"), last.at(int(rng.bounded(last.size())))},
                      {QStringLiteral("company"),
                       QStringLiteral("Firma %1 %2 A.Ş.").arg(i / 3).arg(kinds.at(int(rng.bounded(kinds.size()))))},
                      {QStringLiteral("email"), QStringLiteral("kisi%1@example.com").arg(i)}};
        if (i % 50 == 49) {
            c.insert(QStringLiteral("firstName"), plain(previous.value(QLatin1String("firstName")).toString()));
            c.insert(QStringLiteral("lastName"), plain(previous.value(QLatin1String("lastName")).toString()));
            c.insert(QStringLiteral("company"), plain(previous.value(QLatin1String("company")).toString()));
        }
        previous = c;
        batch.append(c);
        if (batch.size() == 10000 || i == n - 1) {
            ContactRepository(testStore()).insertBulk(batch);
            batch.clear();
            fprintf(stderr, "\rseeded %d/%d", i + 1, n);
        }
    }
    fprintf(stderr, "\n");
}

double median(QVector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.at(v.size() / 2);
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("contacts"), QStringLiteral("contacts to seed"), QStringLiteral("N"),
                      QStringLiteral("100000")});
    parser.addOption({QStringLiteral("data-dir"), QStringLiteral("directory of the database"), QStringLiteral("DIR")});
    parser.addOption(
        {QStringLiteral("postgres"), QStringLiteral("a PostgreSQL database instead of SQLite"), QStringLiteral("URL")});
    parser.process(app);
    const int n = parser.value(QStringLiteral("contacts")).toInt();
    QTemporaryDir temp;
    const QString dir =
        parser.isSet(QStringLiteral("data-dir")) ? parser.value(QStringLiteral("data-dir")) : temp.path();
    QDir().mkpath(dir);
    if (parser.isSet(QStringLiteral("postgres"))) {
        QString error;
        const std::optional<DatabaseUrl> url = DatabaseUrl::parse(parser.value(QStringLiteral("postgres")), &error);
        if (!url) {
            fprintf(stderr, "%s\n", qPrintable(error));
            return 2;
        }
        Database::setPostgres(*url, QString());
    } else {
        Database::setPath(dir + QStringLiteral("/liaison.db"));
    }
    Database::migrate();
    if (Database::rowCount(QStringLiteral("contacts")) != n) {
        Database::exec(QStringLiteral("DELETE FROM contacts"));
        seed(n);
    }
    const Store store = testStore();
    const DuplicateFinder finder(store);
    QVector<double> scans;
    QVector<DuplicateGroup> groups;
    for (int run = 0; run < 5; ++run) {
        QElapsedTimer t;
        t.start();
        groups = finder.groups();
        scans.append(ms(t));
    }
    printf("%s\n", Database::dialect() == Database::Dialect::PostgreSQL ? "PostgreSQL" : "SQLite");
    printf("contacts: %d, groups found: %lld (expected %d)\n", n, qint64(groups.size()), n / 50);
    printf("find every group (median of 5): %.1f ms\n", median(scans));
    QVector<DuplicateGroup> page = groups.mid(0, 20);
    printf("load a page of 20 groups: %.2f ms\n", averageMs(20, [&] {
               QVector<DuplicateGroup> p = page;
               finder.load(p);
           }));
    finder.load(page);
    ContactMerge merge(store);
    const DuplicateGroup &g = page.first();
    for (int i = 0; i < 5; ++i)
        ContactRepository(store).addNote(g.contactIds.at(1), QStringLiteral("not %1").arg(i));
    printf("preview of a merge: %.2f ms\n",
           averageMs(20, [&] { merge.preview(g.contactIds.at(0), {g.contactIds.at(1)}); }));
    QElapsedTimer t;
    t.start();
    const MergeResult r = merge.merge(g.contactIds.at(0), {g.contactIds.at(1)});
    printf("merge (5 notes): %.2f ms\n", ms(t));
    t.restart();
    merge.undo(r.mergeId);
    printf("undo: %.2f ms\n", ms(t));
    t.restart();
    QVector<DuplicateGroup> again = finder.groups();
    printf("find again after the undo: %.1f ms, groups %lld\n", ms(t), qint64(again.size()));
    Database::closeThreadConnection();
    return 0;
}
