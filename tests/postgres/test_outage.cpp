// Team mode when PostgreSQL goes away: copies of `liaison serve` ($LIAISON_BINARY) whose sessions
// the server ends (pg_terminate_backend), and one copy on a cluster of its own that is stopped for
// a while and started again. No request is answered 500; during an outage reads and writes get 503
// SERVICE_UNAVAILABLE with Retry-After and commit nothing; afterwards every copy answers again by
// itself, its webhook deliveries resume, and GET /api/v1/health tells the two states apart.
#include "tests/support/serveprocess.h"
#include "tests/support/testsupport.h"
#include "tests/support/webhookreceiver.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace ServeTest;

namespace {
constexpr char kSecret[] = "outage-secret-0123456789abcdef";

QSslCertificate certificate(const QString &dataDir)
{
    QFile f(dataDir + QStringLiteral("/tls/cert.pem"));
    return f.open(QIODevice::ReadOnly) ? QSslCertificate(f.readAll(), QSsl::Pem) : QSslCertificate();
}

// What a 503 of an outage must carry: the spec's envelope, its code and a Retry-After.
QByteArray unavailableProblem(const HttpResult &r)
{
    if (r.status != 503)
        return "status " + QByteArray::number(r.status) + ": " + r.body;
    if (r.json.value(QLatin1String("success")).toBool(true) || r.errorCode() != QLatin1String("SERVICE_UNAVAILABLE"))
        return "envelope: " + r.body;
    if (r.header("retry-after").toInt() < 1)
        return "no Retry-After";
    return {};
}
} // namespace

class TestOutage : public QObject
{
    Q_OBJECT

    QString m_binary;
    QString m_script;
    std::unique_ptr<QTemporaryDir> m_dirs;
    std::unique_ptr<WebhookReceiver> m_receiver;

    QStringList settings(const QString &databaseUrl) const
    {
        const QStringList pairs{
            QStringLiteral("database/url=") + databaseUrl,
            QStringLiteral("webhooks/caFile=") + m_dirs->filePath(QStringLiteral("receiver.pem")),
            QStringLiteral("webhooks/allowedTargets=local"),
            QStringLiteral("webhooks/timeoutSeconds=3"),
            QStringLiteral("webhooks/pollIntervalMs=100"),
            QStringLiteral("server/rateLimitPerMinute=0"),
        };
        QStringList args;
        for (const QString &p : pairs)
            args << QStringLiteral("--set") << p;
        return args;
    }

    // An API key made by the CLI on the database (the first program also migrates it).
    QString createKey(const QString &databaseUrl)
    {
        const ProgramRun key =
            runProgram(m_binary, QStringList{QStringLiteral("--data-dir"), m_dirs->filePath(QStringLiteral("cli")),
                                             QStringLiteral("apikey"), QStringLiteral("create"),
                                             QStringLiteral("--name"), QStringLiteral("outage")} +
                                     settings(databaseUrl));
        if (key.exitCode != 0)
            qWarning().noquote() << key.describe();
        return key.out.trimmed().split(QLatin1Char('\n')).constLast().trimmed();
    }

    std::unique_ptr<ServeProcess> copy(const QString &name, const QString &databaseUrl)
    {
        const QString dir = m_dirs->filePath(name);
        QDir().mkpath(dir);
        return std::make_unique<ServeProcess>(m_binary, dir, freePort(), settings(databaseUrl));
    }

    std::unique_ptr<ApiClient> client(const ServeProcess &server, const QString &name, const QString &key)
    {
        auto c = std::make_unique<ApiClient>(server.baseUrl(), certificate(m_dirs->filePath(name)));
        c->setToken(key);
        return c;
    }

    bool subscribe(ApiClient &c)
    {
        const HttpResult hook = c.post(QStringLiteral("/api/v1/webhooks"), {{"url", m_receiver->url()},
                                                                            {"events", QJsonArray{"contact.created"}},
                                                                            {"secret", QString::fromLatin1(kSecret)}});
        if (hook.status != 201)
            qWarning() << "subscription:" << hook.status << hook.body;
        return hook.status == 201;
    }

    // The e-mails of the contact.created events the receiver got.
    QSet<QString> deliveredEmails() const
    {
        QSet<QString> out;
        for (const WebhookReceiver::Request &r : std::as_const(m_receiver->requests)) {
            const QJsonObject event = QJsonDocument::fromJson(r.body).object();
            if (event.value("event").toString() == QLatin1String("contact.created"))
                out.insert(event.value("data").toObject().value("email").toString());
        }
        return out;
    }

    ProgramRun cluster(const QStringList &args) { return runProgram(m_script, args, {}, 120000); }

private Q_SLOTS:
    void initTestCase()
    {
        m_binary = qEnvironmentVariable("LIAISON_BINARY");
        QVERIFY2(!m_binary.isEmpty(), "LIAISON_BINARY is not set (CTest sets it)");
        m_script = qEnvironmentVariable("LIAISON_SOURCE_DIR") + QStringLiteral("/scripts/pg-cluster.sh");
        QVERIFY2(QFile::exists(m_script), qPrintable(m_script));
    }

    void init()
    {
        m_dirs = std::make_unique<QTemporaryDir>();
        m_receiver = std::make_unique<WebhookReceiver>(QString::fromLatin1(kSecret));
        QFile pem(m_dirs->filePath(QStringLiteral("receiver.pem")));
        QVERIFY(pem.open(QIODevice::WriteOnly));
        pem.write(m_receiver->certificate().toPem());
    }

    void cleanup()
    {
        m_receiver.reset();
        m_dirs.reset();
    }

    // Every session of both copies is ended by the server while they are idle: the next requests
    // are answered as if nothing happened (each thread finds its connection gone and makes a new
    // one before its statement, its transaction not yet begun), and deliveries go on.
    void sessionsEndedByTheServer()
    {
        TempPostgresDatabase database(QStringLiteral("outage"));
        QVERIFY2(database.available(), qPrintable(database.why()));
        const QString key = createKey(database.url());
        QVERIFY2(key.startsWith(QLatin1String("lk_")), qPrintable(key));
        auto a = copy(QStringLiteral("a"), database.url());
        auto b = copy(QStringLiteral("b"), database.url());
        QVERIFY2(a->start() && b->start(), (a->describe() + b->describe()).constData());
        auto ca = client(*a, QStringLiteral("a"), key);
        auto cb = client(*b, QStringLiteral("b"), key);
        QVERIFY(subscribe(*ca));

        QStringList ids;
        auto createAndRead = [&](int from, int to) {
            for (int i = from; i < to; ++i) {
                ApiClient &c = i % 2 ? *cb : *ca;
                const HttpResult created = c.post(QStringLiteral("/api/v1/contacts"),
                                                  {{"firstName", QStringLiteral("Işık %1").arg(i)},
                                                   {"email", QStringLiteral("k%1@outage.example").arg(i)}});
                if (created.status != 201)
                    return QStringLiteral("create %1: %2 %3").arg(i).arg(created.status).arg(created.body);
                const QString id = created.data().value("id").toString();
                ids << id;
                ApiClient &other = i % 2 ? *ca : *cb;
                const HttpResult read = other.get(QStringLiteral("/api/v1/contacts/") + id);
                if (read.status != 200)
                    return QStringLiteral("read %1: %2 %3").arg(i).arg(read.status).arg(read.body);
            }
            return QString();
        };
        const QString before = createAndRead(0, 10);
        QVERIFY2(before.isEmpty(), qPrintable(before));

        const int ended = database.endSessions();
        qInfo() << "sessions ended by the server:" << ended;
        QVERIFY2(ended >= 4, qPrintable(QString::number(ended))); // each copy: its threads and its listener

        const QString after = createAndRead(10, 30);
        QVERIFY2(after.isEmpty(), qPrintable(after));
        for (ApiClient *c : {ca.get(), cb.get()})
            QCOMPARE(c->get(QStringLiteral("/api/v1/health")).status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(deliveredEmails().size() == 30, 60000);
        QVERIFY2(!a->err().contains(QLatin1String("500 for request")) &&
                     !b->err().contains(QLatin1String("500 for request")),
                 (a->describe() + b->describe()).constData());
    }

    // The cluster of a copy is stopped and started again: meanwhile the health route, reads and
    // writes answer 503 with Retry-After (never 500) and nothing answered 503 is stored; once the
    // server is back the copy answers again without a restart and its deliveries resume.
    void theServerStopsAndStarts()
    {
        const QString dir = qEnvironmentVariable("LIAISON_TEST_PG_SCRATCH");
        QVERIFY2(!dir.isEmpty(), "LIAISON_TEST_PG_SCRATCH is not set (CTest sets it)");
        const quint16 port = freePort();
        const QStringList start{QStringLiteral("start"), dir, QString::number(port)};
        const ProgramRun started = cluster(start);
        QVERIFY2(started.exitCode == 0, started.describe().constData());
        struct Stop
        {
            TestOutage *test;
            QString dir;
            ~Stop() { test->cluster({QStringLiteral("stop"), dir}); }
        } stopAtTheEnd{this, dir};
        QString why;
        const std::optional<DatabaseUrl> clusterUrl =
            DatabaseUrl::parse(started.out.trimmed().split(QLatin1Char('\n')).constLast(), &why);
        QVERIFY2(clusterUrl, qPrintable(started.out + why));
        TempPostgresDatabase database(QStringLiteral("restart"), *clusterUrl);
        QVERIFY2(database.available(), qPrintable(database.why()));

        const QString key = createKey(database.url());
        QVERIFY2(key.startsWith(QLatin1String("lk_")), qPrintable(key));
        auto a = copy(QStringLiteral("a"), database.url());
        QVERIFY2(a->start(), a->describe().constData());
        auto ca = client(*a, QStringLiteral("a"), key);
        QVERIFY(subscribe(*ca));
        QCOMPARE(ca->post(QStringLiteral("/api/v1/contacts"), {{"firstName", "Önce"}, {"email", "once@outage.example"}})
                     .status,
                 201);
        QCOMPARE(ca->get(QStringLiteral("/api/v1/health")).status, 200);

        const ProgramRun stopped = cluster({QStringLiteral("stop"), dir});
        QVERIFY2(stopped.exitCode == 0, stopped.describe().constData());
        for (int i = 0; i < 3; ++i) {
            const HttpResult health = ca->get(QStringLiteral("/api/v1/health"));
            QVERIFY2(unavailableProblem(health).isEmpty(), unavailableProblem(health).constData());
            const HttpResult write = ca->post(QStringLiteral("/api/v1/contacts"),
                                              {{"firstName", QStringLiteral("Sırasında %1").arg(i)},
                                               {"email", QStringLiteral("sirasinda%1@outage.example").arg(i)}});
            QVERIFY2(unavailableProblem(write).isEmpty(), unavailableProblem(write).constData());
            const HttpResult read = ca->get(QStringLiteral("/api/v1/contacts"));
            QVERIFY2(unavailableProblem(read).isEmpty(), unavailableProblem(read).constData());
        }

        const ProgramRun restarted = cluster(start);
        QVERIFY2(restarted.exitCode == 0, restarted.describe().constData());
        QTRY_COMPARE_WITH_TIMEOUT(ca->get(QStringLiteral("/api/v1/health")).status, 200, 30000);
        QCOMPARE(
            ca->post(QStringLiteral("/api/v1/contacts"), {{"firstName", "Sonra"}, {"email", "sonra@outage.example"}})
                .status,
            201);
        const HttpResult all = ca->get(QStringLiteral("/api/v1/contacts?limit=100"));
        QCOMPARE(all.status, 200);
        QCOMPARE(all.json.value("pagination").toObject().value("total").toInt(), 2);
        const QSet<QString> expected{QStringLiteral("once@outage.example"), QStringLiteral("sonra@outage.example")};
        // Both once: the first delivery's answer, which came just before the stop, is recorded
        // when the database is back, so it is not sent again when its lease ends.
        const bool delivered = QTest::qWaitFor([&] { return deliveredEmails() == expected; }, 20000);
        QVERIFY2(delivered, a->describe().constData());
        QVERIFY2(!a->err().contains(QLatin1String("500 for request")), a->describe().constData());
    }
};

QTEST_MAIN(TestOutage)
#include "test_outage.moc"
