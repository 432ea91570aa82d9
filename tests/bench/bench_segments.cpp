// Seeds N contacts (default 1,000,000) and prints, for three representative dynamic segments (and one
// full-scan worst case), the
// time of the count and of the first page (20 contacts, newest first) as the API answers them.
//   bench_segments [--contacts N] [--data-dir DIR]   (DIR is reused when it already holds N contacts)
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/timeutil.h"
#include "tests/support/testsupport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <algorithm>

namespace {
QJsonObject rule(const QString &field, const QString &op, const QJsonValue &value = QJsonValue::Undefined)
{
    QJsonObject r{{QStringLiteral("field"), field}, {QStringLiteral("operator"), op}};
    if (!value.isUndefined())
        r.insert(QStringLiteral("value"), value);
    return r;
}

QJsonObject group(const QString &logic, const QJsonArray &rules)
{
    return {{QStringLiteral("logic"), logic}, {QStringLiteral("rules"), rules}};
}

void seed(int n)
{
    const QStringList first = {"Ahmet", "Mehmet", "Ayşe", "Fatma", "Mustafa", "Emine", "Ali",   "Zeynep",
                               "Elif",  "Murat",  "John", "Mary",  "James",   "Anna",  "Peter", "Laura"};
    const QStringList last = {"Yılmaz", "Kaya",  "Demir",   "Şahin",  "Çelik", "Yıldız", "Öztürk", "Aydın",
                              "Smith",  "Brown", "Johnson", "Müller", "Rossi", "Weber",  "Clark",  "Taylor"};
    const QStringList sources = {"web", "whatsapp", "instagram", "telegram", "referral", "fair"};
    const QStringList tags = {"vip", "lead", "customer", "newsletter", "istanbul", "ankara", "izmir", "b2b"};
    const QStringList plans = {"free", "basic", "pro", "enterprise"};
    QRandomGenerator rng(42);
    const QDateTime start = QDateTime::currentDateTimeUtc().addDays(-730);
    QElapsedTimer timer;
    timer.start();
    QVector<QJsonObject> batch;
    batch.reserve(10000);
    for (int i = 0; i < n; ++i) {
        QJsonArray t;
        for (int k = 0, m = int(rng.bounded(3)); k < m; ++k)
            t.append(tags.at(int(rng.bounded(tags.size()))));
        batch.append(QJsonObject{
            {QStringLiteral("firstName"), first.at(int(rng.bounded(first.size())))},
            {QStringLiteral("lastName"), last.at(int(rng.bounded(last.size())))},
            {QStringLiteral("email"), QStringLiteral("user%1@example%2.com").arg(i).arg(i % 97)},
            {QStringLiteral("phone"), QStringLiteral("+90 5%1").arg(300000000 + i, 9, 10, QLatin1Char('0'))},
            {QStringLiteral("source"), sources.at(int(rng.bounded(sources.size())))},
            {QStringLiteral("tags"), t},
            {QStringLiteral("leadScore"), int(rng.bounded(101))},
            {QStringLiteral("customFields"),
             QJsonObject{{QStringLiteral("plan"), plans.at(int(rng.bounded(plans.size())))},
                         {QStringLiteral("seats"), int(rng.bounded(200))}}},
            {QStringLiteral("createdAt"), start.addSecs(qint64(i) * 730 * 86400 / n).toString(Qt::ISODate)},
        });
        if (batch.size() == 10000 || i == n - 1) {
            ContactRepository(testStore()).insertBulk(batch);
            batch.clear();
            fprintf(stderr, "\rseeded %d/%d", i + 1, n);
        }
    }
    // The messaging layer keeps these; vary them directly: a third never wrote, the rest within a year.
    Database::exec(QStringLiteral(
        "UPDATE contacts SET total_messages = (seq * 7919) % 60, sentiment = CASE seq % 4 WHEN 0 THEN NULL "
        "WHEN 1 THEN 'positive' WHEN 2 THEN 'negative' ELSE 'neutral' END, last_message_at = CASE WHEN seq % 3 = 0 "
        "THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || ((seq * 104729) % 365) || ' days') END"));
    fprintf(stderr, "\nseeded %d contacts in %.1f s\n", n, timer.elapsed() / 1000.0);
}

struct Figures
{
    qint64 count = 0;
    double countMs = 0;
    double pageMs = 0;
};

Figures measure(const QJsonObject &filters)
{
    SegmentRepository segments(testStore());
    Segment s;
    s.filters = filters;
    Figures f;
    QVector<double> counts, pages;
    for (int run = 0; run < 3; ++run) {
        const SegmentRules::Sql sql = segments.membership(s);
        ContactQuery q;
        q.page = 1;
        q.limit = 20;
        q.extraWhere = sql.where;
        q.extraValues = sql.values;
        QElapsedTimer t;
        t.start();
        f.count = ContactRepository(testStore()).count(q);
        counts << t.nsecsElapsed() / 1e6;
        // GET /segments/:id/contacts: the first page and its pagination total (list() counts too).
        t.restart();
        const ContactPage page = ContactRepository(testStore()).list(q);
        pages << t.nsecsElapsed() / 1e6;
        Q_UNUSED(page);
    }
    std::sort(counts.begin(), counts.end());
    std::sort(pages.begin(), pages.end());
    f.countMs = counts.at(1); // median of three
    f.pageMs = pages.at(1);
    return f;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addOption({QStringLiteral("contacts"), QStringLiteral("How many contacts."), QStringLiteral("N"),
                 QStringLiteral("1000000")});
    p.addOption({QStringLiteral("data-dir"), QStringLiteral("Data directory (kept; reused)."), QStringLiteral("DIR")});
    p.addHelpOption();
    p.process(app);
    const int n = p.value(QStringLiteral("contacts")).toInt();
    if (n <= 0) {
        fprintf(stderr, "bench_segments: --contacts must be > 0\n");
        return 2;
    }
    QTemporaryDir temp;
    const QString dir = p.isSet(QStringLiteral("data-dir")) ? p.value(QStringLiteral("data-dir")) : temp.path();
    QDir().mkpath(dir);
    Database::setPath(QDir(dir).filePath(QStringLiteral("liaison.db")));
    QElapsedTimer migration;
    migration.start();
    const int version = Database::migrate();
    fprintf(stderr, "schema version %d (migrate: %lld ms)\n", version, migration.elapsed());
    QSqlQuery existing = Database::exec(QStringLiteral("SELECT count(*) FROM contacts"));
    const qint64 have = existing.next() ? existing.value(0).toLongLong() : 0;
    existing.finish();
    if (have == 0) {
        seed(n);
    } else {
        fprintf(stderr, "reusing %lld contacts in %s\n", have, qPrintable(dir));
        // A previous run left the statistics of its ANALYZE: drop them, so that the first report
        // really is without planner statistics.
        Database::exec(QStringLiteral("DROP TABLE IF EXISTS sqlite_stat1"));
    }

    const QVector<QPair<QString, QJsonObject>> cases = {
        {QStringLiteral("hot web leads: source = web AND leadScore > 70"),
         group(QStringLiteral("AND"), {rule(QStringLiteral("source"), QStringLiteral("equals"), QStringLiteral("web")),
                                       rule(QStringLiteral("leadScore"), QStringLiteral("greaterThan"), 70)})},
        {QStringLiteral("engaged VIPs: tag vip AND (lastMessageAt within 30d OR totalMessages > 50)"),
         group(QStringLiteral("AND"),
               {rule(QStringLiteral("tags"), QStringLiteral("equals"), QStringLiteral("vip")),
                group(QStringLiteral("OR"),
                      {rule(QStringLiteral("lastMessageAt"), QStringLiteral("greaterThan"), QStringLiteral("30d")),
                       rule(QStringLiteral("totalMessages"), QStringLiteral("greaterThan"), 50)})})},
        {QStringLiteral("new high scorers: createdAt within 30d AND leadScore >= 50"),
         group(QStringLiteral("AND"),
               {rule(QStringLiteral("createdAt"), QStringLiteral("greaterThan"), QStringLiteral("30d")),
                rule(QStringLiteral("leadScore"), QStringLiteral("greaterThan"), 49)})},
        // A full scan with json_extract on every row until migration 6; now driven from
        // contact_custom_fields (key, value_text).
        {QStringLiteral("custom field: customField.plan = pro AND sentiment != negative"),
         group(QStringLiteral("AND"),
               {rule(QStringLiteral("customField.plan"), QStringLiteral("equals"), QStringLiteral("pro")),
                rule(QStringLiteral("sentiment"), QStringLiteral("notEquals"), QStringLiteral("negative"))})},
    };

    auto report = [&](const char *title) {
        printf("%s\n", title);
        for (const auto &c : cases) {
            const Figures f = measure(c.second);
            printf("  %-96s count=%7lld  count() %7.1f ms  first page with total %7.1f ms\n", qPrintable(c.first),
                   f.count, f.countMs, f.pageMs);
            // How SQLite answers the count: which index drives it.
            Segment s;
            s.filters = c.second;
            const SegmentRules::Sql sql = SegmentRepository(testStore()).membership(s);
            QSqlQuery plan = Database::exec(
                QStringLiteral("EXPLAIN QUERY PLAN SELECT count(*) FROM contacts c WHERE ") + sql.where, sql.values);
            QStringList steps;
            while (plan.next())
                steps << plan.value(3).toString();
            printf("      count plan: %s\n", qPrintable(steps.join(QStringLiteral("; "))));
        }
        fflush(stdout);
    };
    QSqlQuery total = Database::exec(QStringLiteral("SELECT count(*) FROM contacts"));
    printf("bench_segments: %lld contacts (median of 3 runs, warm cache)\n",
           total.next() ? total.value(0).toLongLong() : 0);
    total.finish();
    report("without planner statistics (a fresh database):");
    Database::exec(QStringLiteral("ANALYZE"));
    report("after ANALYZE (what PRAGMA optimize gathers over time):");
    Database::closeThreadConnection();
    return 0;
}
