#include "tests/support/modelsupport.h"

#include "model/contacts/contact.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/jsonwriter.h"

#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QtTest>

#include <algorithm>
#include <atomic>

QPair<QString, int> refusalOf(const std::function<void()> &call)
{
    try {
        call();
    } catch (const DomainError &e) {
        return qMakePair(e.details().keys().join(QLatin1Char(',')), int(e.kind()));
    }
    return qMakePair(QString(), -1);
}

QByteArray written(const Contact &c)
{
    JsonWriter w;
    w.beginObject();
    c.writeFields(w);
    w.endObject();
    return w.take();
}

WebhookChanges webhookChanges(const QJsonObject &body)
{
    WebhookPolicy everyAddress;
    everyAddress.targets = WebhookTargets::Local;
    everyAddress.allowInsecureLocal = true;
    return WebhookRules::parse(body, everyAddress);
}

Store testStore()
{
    static EventBus bus;
    return Store(bus);
}

QByteArray ProgramRun::describe() const
{
    return QStringLiteral("exit %1 finished %2\n--- stdout\n%3--- stderr\n%4")
        .arg(exitCode)
        .arg(finished)
        .arg(out, err)
        .toUtf8();
}

ProgramRun runProgram(const QString &program, const QStringList &args, const QByteArray &stdinData, int timeoutMs)
{
    QProcess p;
    p.setProgram(program);
    p.setArguments(args);
    p.start();
    ProgramRun r;
    if (!p.waitForStarted(10000)) {
        r.err = QStringLiteral("did not start: ") + p.errorString();
        return r;
    }
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

namespace {
std::optional<DatabaseUrl> testPostgresUrl(QString *why);
bool adminExec(const DatabaseUrl &url, const QStringList &statements, QString *why);
QStringList adminColumn(const DatabaseUrl &url, const QString &sql, QString *why);

// Migrating a new schema costs PostgreSQL about half a second, and a test process makes one per
// test function and data row. A process's TempDatabases therefore take turns on one schema,
// migrated once and brought back to its just-migrated state for the next one: every table
// emptied, the rows the migrations wrote copied back from a snapshot, and every sequence set to
// where the migrations left it (about 30 ms). A TempDatabase made while another is alive gets a
// schema of its own, as before.
class ReusedPostgresSchema
{
public:
    static bool acquire()
    {
        if (s_inUse)
            return false;
        QString why;
        const std::optional<DatabaseUrl> url = testPostgresUrl(&why);
        if (!url)
            qFatal("%s", qPrintable(why));
        if (s_name.isEmpty())
            create(*url);
        else if (!adminExec(*url, s_reset, &why))
            qFatal("could not empty the test schema %s: %s", qPrintable(s_name), qPrintable(why));
        Database::setPostgres(*url, QString(), s_name);
        s_inUse = true;
        return true;
    }
    static void release() { s_inUse = false; }

private:
    static void create(const DatabaseUrl &url)
    {
        QString why;
        const QString name = QStringLiteral("test_%1_reused").arg(QCoreApplication::applicationPid());
        const QString seed = name + QStringLiteral("_seed");
        if (!adminExec(url,
                       {QStringLiteral("CREATE SCHEMA %1").arg(name), QStringLiteral("CREATE SCHEMA %1").arg(seed)},
                       &why))
            qFatal("could not create the test schema %s: %s", qPrintable(name), qPrintable(why));
        Database::setPostgres(url, QString(), name);
        Database::migrate();
        Database::closeThreadConnection();

        const QStringList tables =
            adminColumn(url,
                        QStringLiteral("SELECT table_name FROM information_schema.tables WHERE table_schema = '%1' AND "
                                       "table_type = 'BASE TABLE' ORDER BY table_name")
                            .arg(name),
                        &why);
        if (tables.isEmpty())
            qFatal("the migrated test schema %s has no tables: %s", qPrintable(name), qPrintable(why));
        QStringList snapshot;
        for (const QString &t : tables) {
            snapshot << QStringLiteral("CREATE TABLE %1.%2 AS SELECT * FROM %3.%2").arg(seed, t, name);
        }
        if (!adminExec(url, snapshot, &why))
            qFatal("could not snapshot the test schema %s: %s", qPrintable(name), qPrintable(why));

        // Parents before the tables that refer to them: rows are deleted children first and the
        // migrations' rows copied back parents first.
        const QStringList references = adminColumn(
            url,
            QStringLiteral("SELECT c.relname || ' ' || p.relname FROM pg_constraint k JOIN pg_class c ON c.oid = "
                           "k.conrelid JOIN pg_class p ON p.oid = k.confrelid WHERE k.contype = 'f' AND "
                           "k.connamespace = '%1'::regnamespace AND c.oid <> p.oid")
                .arg(name),
            &why);
        QStringList parentsFirst;
        for (int round = 0; round <= tables.size() && parentsFirst.size() < tables.size(); ++round) {
            for (const QString &t : tables) {
                const bool ready = std::none_of(references.begin(), references.end(), [&](const QString &r) {
                    const QStringList pair = r.split(QLatin1Char(' '));
                    return pair.first() == t && !parentsFirst.contains(pair.last());
                });
                if (ready && !parentsFirst.contains(t))
                    parentsFirst << t;
            }
        }
        if (parentsFirst.size() < tables.size())
            qFatal("the test schema's tables refer to each other in a circle");
        // One DO block: one round trip, and a failure anywhere fails (and undoes) all of it.
        QStringList reset;
        for (auto t = parentsFirst.crbegin(); t != parentsFirst.crend(); ++t)
            reset << QStringLiteral("DELETE FROM %1.%2").arg(name, *t);
        // Which tables the migrations left rows in: one query (a connection per table cost seconds).
        QStringList probes;
        for (const QString &t : parentsFirst)
            probes << QStringLiteral("SELECT '%2' WHERE EXISTS (SELECT 1 FROM %1.%2)").arg(seed, t);
        const QStringList filled = adminColumn(url, probes.join(QStringLiteral(" UNION ALL ")), &why);
        if (!why.isEmpty())
            qFatal("could not read the test schema's seed %s: %s", qPrintable(seed), qPrintable(why));
        for (const QString &t : parentsFirst) {
            if (filled.contains(t))
                reset << QStringLiteral("INSERT INTO %1.%2 SELECT * FROM %3.%2").arg(name, t, seed);
        }
        reset << adminColumn(url,
                             QStringLiteral("SELECT format('PERFORM setval(%L, %s, %s)', schemaname || '.' || "
                                            "sequencename, coalesce(last_value, start_value), (last_value IS NOT "
                                            "NULL)::text) FROM pg_sequences WHERE schemaname = '%1'")
                                 .arg(name),
                             &why);
        reset = QStringList{QStringLiteral("SET lock_timeout = '30s'"),
                            QStringLiteral("DO $$BEGIN %1; END$$").arg(reset.join(QStringLiteral("; ")))};
        s_reset = reset;
        s_name = name;
        qAddPostRoutine([] {
            QString why;
            const std::optional<DatabaseUrl> url = testPostgresUrl(&why);
            if (url && !adminExec(*url,
                                  {QStringLiteral("DROP SCHEMA %1 CASCADE").arg(s_name),
                                   QStringLiteral("DROP SCHEMA %1_seed CASCADE").arg(s_name)},
                                  &why))
                qWarning().noquote() << "could not drop the test schema" << s_name << why;
        });
    }

    static inline QString s_name;
    static inline QStringList s_reset;
    static inline bool s_inUse = false;
};
} // namespace

TempDatabase::TempDatabase()
{
    if (qEnvironmentVariable("LIAISON_TEST_DATABASE") == QLatin1String("postgresql")) {
        m_reusedPg = ReusedPostgresSchema::acquire();
        if (!m_reusedPg) {
            m_pg = std::make_unique<TempPostgresSchema>();
            if (!m_pg->available())
                qFatal("%s", qPrintable(m_pg->why()));
        }
    } else {
        Database::setPath(file());
    }
    Database::migrate();
}

TempDatabase::~TempDatabase()
{
    Database::closeThreadConnection();
    m_pg.reset();
    if (m_reusedPg)
        ReusedPostgresSchema::release();
}

QString TempDatabase::file() const
{
    return m_dir.filePath(QStringLiteral("liaison.db"));
}

namespace {
// The database URL of the test run's cluster, or nullopt with why.
std::optional<DatabaseUrl> testPostgresUrl(QString *why)
{
    const QString text = qEnvironmentVariable("LIAISON_TEST_POSTGRES_URL");
    if (text.isEmpty()) {
        *why = QStringLiteral("LIAISON_TEST_POSTGRES_URL is not set: run this test through ctest (its "
                              "\"postgres\" fixture starts a cluster), or start one with scripts/pg-cluster.sh");
        return std::nullopt;
    }
    return DatabaseUrl::parse(text, why);
}

// Runs statements in order on a connection of its own, stopping at the first that fails, and keeps
// the first column of the last one's rows in values (schemas are made and dropped outside the
// tested one).
bool adminQuery(const DatabaseUrl &url, const QStringList &statements, QString *why, QStringList *values = nullptr)
{
    const QString name = QStringLiteral("liaison-test-admin");
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        db.setHostName(url.host);
        db.setPort(url.port);
        db.setDatabaseName(url.dbname);
        db.setUserName(url.user);
        db.setConnectOptions(QStringLiteral("options='-cclient_min_messages=warning'"));
        if (db.open()) {
            QSqlQuery q(db);
            ok = true;
            for (const QString &sql : statements) {
                if (!q.exec(sql)) {
                    *why = sql.left(120) + QStringLiteral(": ") + q.lastError().text();
                    ok = false;
                    break;
                }
            }
            while (ok && values && q.next())
                *values << q.value(0).toString();
            db.close();
        } else {
            *why = db.lastError().text();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

bool adminExec(const DatabaseUrl &url, const QStringList &statements, QString *why)
{
    return adminQuery(url, statements, why);
}

QStringList adminColumn(const DatabaseUrl &url, const QString &sql, QString *why)
{
    QStringList values;
    adminQuery(url, {sql}, why, &values);
    return values;
}
} // namespace

bool allowPostgresConnections(const QString &database, bool allow)
{
    QString why;
    const std::optional<DatabaseUrl> url = testPostgresUrl(&why);
    const QString sql = QStringLiteral("ALTER DATABASE \"%1\" ALLOW_CONNECTIONS %2")
                            .arg(database, allow ? QStringLiteral("true") : QStringLiteral("false"));
    if (!url || !adminExec(*url, {sql}, &why)) {
        qWarning().noquote() << sql << why;
        return false;
    }
    return true;
}

bool endPostgresSession(qint64 pid)
{
    QString why;
    const std::optional<DatabaseUrl> url = testPostgresUrl(&why);
    const QStringList ended =
        url ? adminColumn(*url, QStringLiteral("SELECT pg_terminate_backend(%1)").arg(pid), &why) : QStringList();
    if (ended.value(0) != QLatin1String("true")) {
        qWarning().noquote() << "could not end PostgreSQL session" << pid << ended << why;
        return false;
    }
    // pg_terminate_backend only asks: the session is over once the server no longer lists it.
    const bool gone = QTest::qWaitFor(
        [&] {
            return adminColumn(*url, QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE pid = %1").arg(pid),
                               &why)
                       .value(0) == QLatin1String("0");
        },
        10000);
    if (!gone)
        qWarning().noquote() << "PostgreSQL session" << pid << "was still there 10 s after it was ended" << why;
    return gone;
}

TempPostgresSchema::TempPostgresSchema()
{
    const std::optional<DatabaseUrl> url = testPostgresUrl(&m_why);
    if (!url)
        return;
    static std::atomic<int> counter{0};
    const QString name = QStringLiteral("test_%1_%2").arg(QCoreApplication::applicationPid()).arg(++counter);
    if (!adminExec(*url, {QStringLiteral("CREATE SCHEMA %1").arg(name)}, &m_why))
        return;
    m_name = name;
    Database::setPostgres(*url, QString(), m_name);
}

TempPostgresSchema::~TempPostgresSchema()
{
    Database::closeThreadConnection();
    QString why;
    const std::optional<DatabaseUrl> url = testPostgresUrl(&why);
    if (url && !m_name.isEmpty() && !adminExec(*url, {QStringLiteral("DROP SCHEMA %1 CASCADE").arg(m_name)}, &why))
        qWarning().noquote() << "could not drop the test schema" << m_name << why;
}

TempPostgresDatabase::TempPostgresDatabase(const QString &prefix)
{
    if (const std::optional<DatabaseUrl> url = testPostgresUrl(&m_why))
        create(prefix, *url);
}

TempPostgresDatabase::TempPostgresDatabase(const QString &prefix, const DatabaseUrl &cluster)
{
    create(prefix, cluster);
}

void TempPostgresDatabase::create(const QString &prefix, const DatabaseUrl &cluster)
{
    m_cluster = cluster;
    const QString name = QStringLiteral("%1_%2").arg(prefix).arg(QCoreApplication::applicationPid());
    if (!adminExec(m_cluster, {QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(name)}, &m_why) ||
        !adminExec(m_cluster, {QStringLiteral("CREATE DATABASE %1").arg(name)}, &m_why))
        return;
    m_name = name;
}

int TempPostgresDatabase::endSessions()
{
    QString why;
    const QStringList ended =
        adminColumn(m_cluster,
                    QStringLiteral("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = "
                                   "'%1' AND pid <> pg_backend_pid()")
                        .arg(m_name),
                    &why);
    if (ended.isEmpty()) {
        qWarning().noquote() << "could not end the sessions on" << m_name << why;
        return -1;
    }
    return ended.constFirst().toInt();
}

TempPostgresDatabase::~TempPostgresDatabase()
{
    QString why;
    if (!m_name.isEmpty() &&
        !adminExec(m_cluster, {QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_name)}, &why))
        qWarning().noquote() << "could not drop the test database" << m_name << why;
}

QString TempPostgresDatabase::url() const
{
    DatabaseUrl u = m_cluster;
    u.dbname = m_name;
    return u.toString();
}

QString campaignAudience(const Store &store, int count, const QString &tag, int offset)
{
    {
        Transaction tx;
        ContactRepository contacts(store);
        for (int i = 0; i < count; ++i)
            contacts.create(ContactRules::parse({{"firstName", QStringLiteral("Müşteri")},
                                                 {"lastName", QString::number(offset + i)},
                                                 {"email", QStringLiteral("m%1@ornek.com.tr").arg(offset + i)},
                                                 {"company", QStringLiteral("Doğa Gıda")},
                                                 {"tags", QJsonArray{tag}}}));
        tx.commit();
    }
    const QJsonObject rule{{"field", "tags"}, {"operator", "equals"}, {"value", tag}};
    return SegmentRepository(store)
        .create(SegmentRules::parse(
            {{"name", tag}, {"filters", QJsonObject{{"logic", "AND"}, {"rules", QJsonArray{rule}}}}}))
        .id;
}
