// `liaison serve` as a process ($LIAISON_BINARY): writes that got their 201 survive kill -9, SIGTERM and
// SIGINT stop it cleanly (exit 0, "Liaison stopped.", database closed) while in-flight requests still
// get their answer, server/tls=false serves plain HTTP with a warning, and stderr has one log line per
// request without any credential.
#include "tests/support/serveprocess.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <csignal>
#include <sys/resource.h>
#include <sys/types.h>

using namespace ServeTest;
using Run = ProgramRun;

namespace {
struct RawResponse
{
    int status = 0;
    QByteArray head;
    QByteArray body;
    bool complete = false;
};

// A bare HTTP/1.1 client on one TLS connection, to control exactly when bytes leave (QNAM does not
// say when a request has reached the kernel).
class RawClient
{
public:
    RawClient(quint16 port, const QSslCertificate &ca)
    {
        QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
        conf.addCaCertificate(ca);
        m_socket.setSslConfiguration(conf);
        m_socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), port);
    }

    bool waitForEncrypted() { return m_socket.waitForEncrypted(10000); }

    // Writes and waits until every byte has been handed to the kernel (so the server can read it).
    bool writeAll(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        QElapsedTimer t;
        t.start();
        while (m_socket.bytesToWrite() > 0 || m_socket.encryptedBytesToWrite() > 0) {
            if (t.elapsed() > 10000 || m_socket.state() != QAbstractSocket::ConnectedState)
                return false;
            m_socket.waitForBytesWritten(1000);
        }
        return true;
    }

    // Reads until `marker` has arrived (bounded); consumes through it.
    bool readUntil(const QByteArray &marker, int timeoutMs = 10000)
    {
        QElapsedTimer t;
        t.start();
        while (!m_in.contains(marker)) {
            m_in += m_socket.readAll();
            if (m_in.contains(marker))
                break;
            if (t.elapsed() > timeoutMs || m_socket.state() != QAbstractSocket::ConnectedState)
                return false;
            m_socket.waitForReadyRead(500);
        }
        m_in.remove(0, m_in.indexOf(marker) + marker.size());
        return true;
    }

    // Reads one response (Content-Length framed), bounded.
    RawResponse readResponse(int timeoutMs = 10000)
    {
        RawResponse r;
        QElapsedTimer t;
        t.start();
        qint64 length = -1;
        for (;;) {
            m_in += m_socket.readAll();
            const qsizetype end = m_in.indexOf("\r\n\r\n");
            if (end >= 0 && length < 0) {
                r.head = m_in.left(end);
                r.status = r.head.mid(9, 3).toInt();
                static const QRegularExpression cl(QStringLiteral("(?im)^content-length:\\s*(\\d+)"));
                const QRegularExpressionMatch m = cl.match(QString::fromLatin1(r.head));
                length = m.hasMatch() ? m.captured(1).toLongLong() : 0;
                m_in.remove(0, end + 4);
            }
            if (length >= 0 && m_in.size() >= length) {
                r.body = m_in.left(length);
                m_in.remove(0, length);
                r.complete = true;
                return r;
            }
            if (t.elapsed() > timeoutMs)
                return r;
            if (m_socket.state() != QAbstractSocket::ConnectedState && m_socket.bytesAvailable() == 0)
                return r;
            m_socket.waitForReadyRead(500);
        }
    }

    QSslSocket &socket() { return m_socket; }

private:
    QSslSocket m_socket;
    QByteArray m_in;
};

QByteArray requestBytes(const QByteArray &method, const QByteArray &path, const QString &key,
                        const QByteArray &body = {}, const QByteArray &extraHeaders = {})
{
    QByteArray r = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key.toLatin1() +
                   "\r\n" + extraHeaders;
    if (!body.isEmpty() || method == "POST")
        r += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    return r + "\r\n";
}

QByteArray contactBody(const QString &name)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("firstName"), name},
                                     {QStringLiteral("email"), name.toLower() + QStringLiteral("@example.com")}})
        .toJson(QJsonDocument::Compact);
}
} // namespace

class TestServe : public QObject
{
    Q_OBJECT

private:
    QString m_binary;
    std::unique_ptr<QTemporaryDir> m_dataDir;
    QString m_key;

    // Runs a CLI command on the data directory (bounded); returns stdout, or a null string on failure.
    QString cli(QStringList args, const QByteArray &stdinData = {})
    {
        QProcess p;
        p.start(m_binary, args << QStringLiteral("--data-dir") << m_dataDir->path());
        if (!p.waitForStarted(10000))
            return {};
        if (!stdinData.isEmpty())
            p.write(stdinData);
        p.closeWriteChannel();
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished(5000);
            return {};
        }
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            qWarning().noquote() << "liaison" << args.join(' ') << "failed:" << p.readAllStandardError();
            return {};
        }
        return QString::fromUtf8(p.readAllStandardOutput());
    }

    QSslCertificate certificate() const
    {
        QFile f(m_dataDir->filePath(QStringLiteral("tls/cert.pem")));
        if (!f.open(QIODevice::ReadOnly))
            return QSslCertificate();
        return QSslCertificate(f.readAll(), QSsl::Pem);
    }

    std::unique_ptr<ApiClient> client(const ServeProcess &server)
    {
        auto c = std::make_unique<ApiClient>(server.baseUrl(), certificate());
        c->setToken(m_key);
        return c;
    }

    std::unique_ptr<ServeProcess> serve(quint16 port = 0, const QStringList &extra = {})
    {
        return std::make_unique<ServeProcess>(m_binary, m_dataDir->path(), port ? port : freePort(), extra);
    }

    bool walIsCheckpointed() const
    {
        const QFileInfo wal(m_dataDir->filePath(QStringLiteral("liaison.db-wal")));
        return !wal.exists() || wal.size() == 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_binary = qEnvironmentVariable("LIAISON_BINARY");
        QVERIFY2(!m_binary.isEmpty(), "LIAISON_BINARY is not set (CTest sets it)");
        QVERIFY2(QFileInfo(m_binary).isExecutable(), qPrintable(m_binary));
    }

    void init()
    {
        m_dataDir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dataDir->isValid());
        const QString out = cli({QStringLiteral("apikey"), QStringLiteral("create"), QStringLiteral("--name"),
                                 QStringLiteral("e2e"), QStringLiteral("--scope"), QStringLiteral("contacts:write")});
        m_key = out.trimmed().split(QLatin1Char('\n')).constLast().trimmed();
        QVERIFY2(m_key.startsWith(QLatin1String("lk_")), qPrintable(out));
    }

    void cleanup() { m_dataDir.reset(); }

    // ----- durability -----

    void answeredWritesSurviveKill9()
    {
        auto server = serve();
        QVERIFY2(server->start(), server->describe());
        QVERIFY(server->baseUrl().startsWith(QLatin1String("https://127.0.0.1:")));
        auto api = client(*server);

        QHash<QString, QString> created; // id -> first name
        for (int i = 0; i < 20; ++i) {
            const QString name = QStringLiteral("Durable%1").arg(i);
            const HttpResult r = api->call("POST", QStringLiteral("/api/v1/contacts"), contactBody(name));
            QVERIFY2(r.status == 201, r.body.constData());
            const QString id = r.data().value(QLatin1String("id")).toString();
            QVERIFY(!id.isEmpty());
            created.insert(id, name);
        }

        server->process().kill(); // SIGKILL: no chance to flush or close anything
        QVERIFY(server->process().waitForFinished(kStopTimeoutMs));
        QCOMPARE(server->process().exitStatus(), QProcess::CrashExit);
        QVERIFY2(!server->out().contains(QLatin1String("Liaison stopped.")), server->describe());

        auto again = serve(server->port());
        QVERIFY2(again->start(), again->describe());
        api = client(*again);
        for (auto it = created.cbegin(); it != created.cend(); ++it) {
            const HttpResult r = api->get(QStringLiteral("/api/v1/contacts/") + it.key());
            QVERIFY2(r.status == 200, qPrintable(it.key() + QLatin1Char(' ') + QString::fromUtf8(r.body)));
            QCOMPARE(r.data().value(QLatin1String("firstName")).toString(), it.value());
            QCOMPARE(r.data().value(QLatin1String("email")).toString(), it.value().toLower() + "@example.com");
        }
        const HttpResult list = api->get(QStringLiteral("/api/v1/contacts?limit=100"));
        QCOMPARE(list.json.value(QLatin1String("pagination")).toObject().value(QLatin1String("total")).toInt(), 20);
    }

    // ----- backups (README, "Backups") -----

    // `liaison backup` runs as a second process while this test writes contacts over the API one
    // after another. The restored copy holds every contact answered 201 before the backup started,
    // and is one moment of the database: the first k answered, none missing between. A restore
    // into the data directory the server uses is refused.
    void backupUnderWriteLoadHoldsEveryAnsweredWrite()
    {
        auto server = serve(0, {QStringLiteral("--set"), QStringLiteral("server/rateLimitPerMinute=0")});
        QVERIFY2(server->start(), server->describe());
        auto api = client(*server);
        QStringList answered;
        auto write = [&](int i) {
            const HttpResult r =
                api->call("POST", QStringLiteral("/api/v1/contacts"), contactBody(QStringLiteral("Load%1").arg(i)));
            if (r.status != 201) {
                qWarning("POST /contacts answered %d: %s", r.status, r.body.constData());
                return false;
            }
            answered << r.data().value(QLatin1String("id")).toString();
            return true;
        };
        int i = 0;
        for (; i < 100; ++i)
            QVERIFY(write(i));
        QTemporaryDir backups;
        const QString file = backups.filePath(QStringLiteral("live.tar.gz"));
        QProcess backup;
        backup.start(m_binary, {QStringLiteral("backup"), file, QStringLiteral("--data-dir"), m_dataDir->path()});
        QVERIFY(backup.waitForStarted(10000));
        const qsizetype beforeBackup = answered.size();
        // Writes go on while the backup process runs (bounded), and a few after it.
        for (int n = 0; n < 3000 && backup.state() != QProcess::NotRunning; ++n, ++i)
            QVERIFY(write(i));
        const qsizetype duringBackup = answered.size() - beforeBackup;
        QVERIFY(backup.state() == QProcess::NotRunning || backup.waitForFinished(60000));
        QVERIFY2(backup.exitCode() == 0, backup.readAllStandardError().constData());
        for (int n = 0; n < 5; ++n, ++i)
            QVERIFY(write(i));
        QVERIFY2(duringBackup > 0, "no write was answered while the backup ran");

        // The server holds the data directory: a restore into it is refused.
        Run busy = runProgram(m_binary, {QStringLiteral("restore"), file, QStringLiteral("--force"),
                                         QStringLiteral("--data-dir"), m_dataDir->path()});
        QVERIFY2(busy.finished && busy.exitCode == 1 && busy.err.contains(QLatin1String("is running")),
                 busy.describe());

        QTemporaryDir restoredDir;
        Run restore =
            runProgram(m_binary, {QStringLiteral("restore"), file, QStringLiteral("--data-dir"), restoredDir.path()});
        QVERIFY2(restore.finished && restore.exitCode == 0, restore.describe());
        QSet<QString> inCopy;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("restored"));
            db.setDatabaseName(QDir(restoredDir.path()).filePath(QStringLiteral("liaison.db")));
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("SELECT id FROM contacts")));
            while (q.next())
                inCopy.insert(q.value(0).toString());
        }
        QSqlDatabase::removeDatabase(QStringLiteral("restored"));
        for (qsizetype n = 0; n < beforeBackup; ++n)
            QVERIFY2(inCopy.contains(answered.at(n)),
                     qPrintable(QStringLiteral("answered write %1 is missing").arg(n)));
        const qsizetype k = inCopy.size();
        QVERIFY(k >= beforeBackup && k < answered.size());
        for (qsizetype n = 0; n < answered.size(); ++n)
            QCOMPARE(inCopy.contains(answered.at(n)), n < k);
        qInfo("%lld contacts answered before the backup, %lld while it ran; the copy holds the first %lld",
              qint64(beforeBackup), qint64(duringBackup), qint64(k));
    }

    // ----- clean stop -----

    void stopsCleanlyOnSignal_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
    }
    void stopsCleanlyOnSignal()
    {
        QFETCH(int, signal);
        auto server = serve();
        QVERIFY2(server->start(), server->describe());
        auto api = client(*server);
        // a write, and an idle keep-alive connection (QNAM keeps it open) that must not hold the stop up
        QCOMPARE(api->call("POST", QStringLiteral("/api/v1/contacts"), contactBody(QStringLiteral("Stopper"))).status,
                 201);
        // a connection that never starts its TLS handshake must not hold it up either
        QTcpSocket silent;
        silent.connectToHost(QHostAddress::LocalHost, server->port());
        QVERIFY(silent.waitForConnected(5000));

        QElapsedTimer timer;
        timer.start();
        if (signal == SIGTERM)
            server->process().terminate();
        else
            server->sendSignal(SIGINT);
        QVERIFY2(server->waitForExit(kStopTimeoutMs), server->describe());
        QVERIFY2(timer.elapsed() < kStopTimeoutMs, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(server->process().exitCode(), 0);
        QVERIFY2(server->out().contains(QLatin1String("Liaison stopped.")), server->describe());
        // the database was closed: the WAL was checkpointed and removed
        QVERIFY2(walIsCheckpointed(), server->describe());
        // and the port is free again
        QTcpServer rebind;
        QVERIFY(rebind.listen(QHostAddress::LocalHost, server->port()));
    }

    // ----- in-flight requests during SIGTERM -----

    // The request was written completely (handed to the kernel) before SIGTERM was sent: the
    // server must answer it, and the answered write must be stored.
    void answersRequestWrittenBeforeSigterm()
    {
        auto server = serve();
        QVERIFY2(server->start(), server->describe());
        RawClient raw(server->port(), certificate());
        QVERIFY2(raw.waitForEncrypted(), qPrintable(raw.socket().errorString()));
        // one answered request first: the connection is now an idle keep-alive one
        QVERIFY(raw.writeAll(requestBytes("GET", "/api/v1/contacts", m_key)));
        const RawResponse warm = raw.readResponse();
        QVERIFY2(warm.complete && warm.status == 200, warm.head.constData());

        QVERIFY(raw.writeAll(requestBytes("POST", "/api/v1/contacts", m_key, contactBody(QStringLiteral("Inflight"))) +
                             contactBody(QStringLiteral("Inflight"))));
        server->process().terminate();
        const RawResponse r = raw.readResponse();
        QVERIFY2(
            r.complete,
            qPrintable(QStringLiteral("no complete answer: %1 %2\n").arg(r.status).arg(QString::fromLatin1(r.head)) +
                       server->describe()));
        QCOMPARE(r.status, 201);
        const QString id = QJsonDocument::fromJson(r.body).object().value("data").toObject().value("id").toString();
        QVERIFY(!id.isEmpty());
        QVERIFY2(server->waitForExit(), server->describe());
        QCOMPARE(server->process().exitCode(), 0);

        auto again = serve(server->port());
        QVERIFY2(again->start(), again->describe());
        QCOMPARE(client(*again)->get(QStringLiteral("/api/v1/contacts/") + id).status, 200);
    }

    // The server has read the headers (it answered 100 Continue) when SIGTERM arrives; the body
    // follows once the server has begun to stop (it no longer accepts connections). The request
    // was in flight, so it must still be answered.
    void answersRequestWhoseBodyArrivesDuringShutdown()
    {
        auto server = serve();
        QVERIFY2(server->start(), server->describe());
        RawClient raw(server->port(), certificate());
        QVERIFY2(raw.waitForEncrypted(), qPrintable(raw.socket().errorString()));
        const QByteArray body = contactBody(QStringLiteral("Latebody"));
        QVERIFY(raw.writeAll(requestBytes("POST", "/api/v1/contacts", m_key, body, "Expect: 100-continue\r\n")));
        QVERIFY2(raw.readUntil("HTTP/1.1 100 Continue\r\n\r\n"), server->describe());

        server->process().terminate();
        // Wait (bounded, not asserted) until the shutdown has begun: the server says so on stderr,
        // then closes its listener. The port is probed only briefly: once closed it may be taken at
        // once by another test's listener on this machine (ctest -j), which would answer the probe
        // and hold the body back past the server's patience.
        (void)QTest::qWaitFor(
            [&]() {
                return server->err().contains(QLatin1String("stopping")) ||
                       server->process().state() == QProcess::NotRunning;
            },
            3000);
        (void)QTest::qWaitFor(
            [&]() {
                QTcpSocket probe;
                probe.connectToHost(QHostAddress::LocalHost, server->port());
                return !probe.waitForConnected(200) && probe.error() == QAbstractSocket::ConnectionRefusedError;
            },
            500);
        const bool bodyWritten = raw.writeAll(body);
        const RawResponse r = raw.readResponse();
        QVERIFY2(r.complete && r.status == 201,
                 qPrintable(QStringLiteral("body written: %1, answer: %2 %3 %4\n")
                                .arg(bodyWritten)
                                .arg(r.status)
                                .arg(QString::fromLatin1(r.head), QString::fromUtf8(r.body)) +
                            server->describe()));
        QVERIFY2(server->waitForExit(), server->describe());
        QCOMPARE(server->process().exitCode(), 0);
    }

    // Many requests at once, SIGTERM as soon as the first answer is back: every reply that got any
    // byte of an answer is complete and 2xx (the others never reached the server: connection refused).
    void concurrentRequestsDuringSigtermAreAnsweredOrRefused()
    {
        auto server = serve();
        QVERIFY2(server->start(), server->describe());
        // declared before the manager: its replies (and their handlers) go first
        QHash<QNetworkReply *, bool> gotBytes;
        bool terminated = false;
        QNetworkAccessManager nam;
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.addCaCertificate(certificate());
        QList<QNetworkReply *> replies;
        for (int i = 0; i < 20; ++i) {
            QNetworkRequest request(QUrl(server->baseUrl() + QStringLiteral("/api/v1/contacts")));
            request.setSslConfiguration(ssl);
            request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
            request.setRawHeader("Authorization", "Bearer " + m_key.toLatin1());
            QNetworkReply *reply = nam.post(request, contactBody(QStringLiteral("Crowd%1").arg(i)));
            QObject::connect(reply, &QNetworkReply::metaDataChanged, reply, [&gotBytes, reply]() {
                if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid())
                    gotBytes[reply] = true;
            });
            QObject::connect(reply, &QNetworkReply::finished, reply, [&terminated, &server]() {
                if (!terminated) {
                    terminated = true;
                    server->process().terminate();
                }
            });
            replies << reply;
        }
        QVERIFY2(QTest::qWaitFor(
                     [&]() {
                         return std::all_of(replies.cbegin(), replies.cend(),
                                            [](QNetworkReply *r) { return r->isFinished(); });
                     },
                     30000),
                 server->describe());
        QVERIFY(terminated);
        QVERIFY2(server->waitForExit(), server->describe());
        QCOMPARE(server->process().exitCode(), 0);

        QStringList ids;
        int answered = 0;
        for (QNetworkReply *reply : std::as_const(replies)) {
            const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
            const QByteArray body = reply->readAll();
            if (gotBytes.value(reply) || status.isValid()) {
                ++answered;
                QVERIFY2(reply->error() == QNetworkReply::NoError, qPrintable(reply->errorString()));
                QCOMPARE(status.toInt(), 201);
                const QString id =
                    QJsonDocument::fromJson(body).object().value("data").toObject().value("id").toString();
                QVERIFY2(!id.isEmpty(), body.constData());
                ids << id;
            } else {
                // never answered: it must have failed as a connection error, not as a broken answer
                QVERIFY2(reply->error() != QNetworkReply::NoError, body.constData());
            }
        }
        QVERIFY(answered >= 1);

        // every answered write is stored
        auto again = serve(server->port());
        QVERIFY2(again->start(), again->describe());
        auto api = client(*again);
        for (const QString &id : std::as_const(ids))
            QCOMPARE(api->get(QStringLiteral("/api/v1/contacts/") + id).status, 200);
    }

    // ----- plain HTTP -----

    void plainHttpWhenTlsIsOff()
    {
        auto server = serve(0, {QStringLiteral("--set"), QStringLiteral("server/tls=false")});
        QVERIFY2(server->start(), server->describe());
        QVERIFY2(server->baseUrl().startsWith(QLatin1String("http://127.0.0.1:")), server->describe());
        QVERIFY2(server->err().contains(QLatin1String("plain HTTP"), Qt::CaseInsensitive) ||
                     server->err().contains(QLatin1String("tls=false")),
                 server->describe());
        ApiClient plain(server->baseUrl(), QSslCertificate());
        plain.setToken(m_key);
        const HttpResult r = plain.get(QStringLiteral("/api/v1/contacts"));
        QCOMPARE(r.status, 200);
        QVERIFY(!r.header("x-request-id").isEmpty());
        // no TLS on that port
        ApiClient tls(QString(server->baseUrl()).replace(QLatin1String("http://"), QLatin1String("https://")),
                      QSslCertificate());
        QCOMPARE(tls.call("GET", QStringLiteral("/api/v1/openapi.json"), {}, {}, 5000).status, 0);
        server->process().terminate();
        QVERIFY2(server->waitForExit(), server->describe());
    }

    // ----- connection limits -----

    // The soft limit of open files is raised to the hard one at start, and thousands of idle
    // connections (more than every thread's cap together) do not lock a new client out: the
    // longest-idle ones are closed to admit it.
    void idleConnectionsDoNotLockOutANewClient()
    {
        rlimit original{};
        QCOMPARE(getrlimit(RLIMIT_NOFILE, &original), 0);
        if (original.rlim_max != RLIM_INFINITY && original.rlim_max < 4096)
            QSKIP("the hard limit of open files is below 4096");
        rlimit low = original;
        low.rlim_cur = 1024; // the usual default, inherited by the server
        QCOMPARE(setrlimit(RLIMIT_NOFILE, &low), 0);
        auto server = serve(0, {QStringLiteral("--set"), QStringLiteral("server/threads=2")});
        const bool started = server->start();
        rlimit mine = original;
        mine.rlim_cur = original.rlim_max;
        QCOMPARE(setrlimit(RLIMIT_NOFILE, &mine), 0);
        QVERIFY2(started, server->describe());

        QFile limits(QStringLiteral("/proc/%1/limits").arg(server->process().processId()));
        QVERIFY(limits.open(QIODevice::ReadOnly));
        const QString line = QString::fromLatin1(limits.readAll())
                                 .split(QLatin1Char('\n'))
                                 .filter(QLatin1String("Max open files"))
                                 .value(0);
        const QStringList fields = line.mid(int(qstrlen("Max open files"))).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        QVERIFY2(fields.size() >= 2, qPrintable(line));
        QCOMPARE(fields.at(0), fields.at(1));

        std::vector<std::unique_ptr<RawClient>> used;
        for (int i = 0; i < 50; ++i) {
            auto c = std::make_unique<RawClient>(server->port(), certificate());
            QVERIFY(c->waitForEncrypted());
            QVERIFY(c->writeAll(requestBytes("GET", "/api/v1/contacts?limit=1", m_key)));
            QCOMPARE(c->readResponse().status, 200);
            used.push_back(std::move(c));
        }
        constexpr int kIdle = 2300; // two threads hold 2 x 1024
        std::vector<std::unique_ptr<QTcpSocket>> idle;
        for (int i = 0; i < kIdle; ++i) {
            auto s = std::make_unique<QTcpSocket>();
            s->connectToHost(QHostAddress::LocalHost, server->port());
            idle.push_back(std::move(s));
        }
        QVERIFY(QTest::qWaitFor(
            [&] {
                return std::all_of(idle.begin(), idle.end(), [](const auto &s) {
                    return s->state() != QAbstractSocket::ConnectingState &&
                           s->state() != QAbstractSocket::HostLookupState;
                });
            },
            30000));
        auto api = client(*server);
        for (int i = 0; i < 3; ++i) {
            const HttpResult r = api->get(QStringLiteral("/api/v1/contacts?limit=1"));
            QVERIFY2(r.status == 200, r.body.constData());
        }
        RawClient fresh(server->port(), certificate());
        QVERIFY(fresh.waitForEncrypted());
        QVERIFY(fresh.writeAll(requestBytes("GET", "/api/v1/contacts?limit=1", m_key)));
        QCOMPARE(fresh.readResponse().status, 200);
        idle.clear();
        used.clear();
        server->process().terminate();
        QVERIFY2(server->waitForExit(), server->describe());
    }

    // ----- failed logins -----

    // 40 wrong passwords at once over two server threads: exactly 10 are checked (401), the rest
    // are refused (429) before any password check.
    void parallelFailedLoginsStopAtTheLimit()
    {
        QVERIFY(!cli({QStringLiteral("user"), QStringLiteral("add"), QStringLiteral("--email"),
                      QStringLiteral("guess@example.com"), QStringLiteral("--name"), QStringLiteral("Guess")},
                     "right-password-123\n")
                     .isNull());
        auto server = serve(0, {QStringLiteral("--set"), QStringLiteral("server/threads=2")});
        QVERIFY2(server->start(), server->describe());
        std::vector<std::unique_ptr<RawClient>> clients;
        for (int i = 0; i < 40; ++i) {
            auto c = std::make_unique<RawClient>(server->port(), certificate());
            QVERIFY(c->waitForEncrypted());
            clients.push_back(std::move(c));
        }
        const QByteArray body = "{\"email\":\"guess@example.com\",\"password\":\"wrong\"}";
        for (auto &c : clients)
            QVERIFY(c->writeAll("POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                "application/json\r\nContent-Length: " +
                                QByteArray::number(body.size()) + "\r\n\r\n" + body));
        QMap<int, int> statuses;
        for (auto &c : clients)
            ++statuses[c->readResponse(60000).status];
        QCOMPARE(statuses.value(401), 10);
        QCOMPARE(statuses.value(429), 30);
        server->process().terminate();
        QVERIFY2(server->waitForExit(), server->describe());
    }

    // 8 identical POSTs with one Idempotency-Key at once, on 4 server threads: one contact per
    // key, every answer the first one's or 409 IDEMPOTENCY_IN_PROGRESS (5 rounds).
    void oneIdempotencyKeyActsOnceUnderSimultaneousRequests()
    {
        auto server = serve(0, {QStringLiteral("--set"), QStringLiteral("server/threads=4")});
        QVERIFY2(server->start(), server->describe());
        std::vector<std::unique_ptr<ApiClient>> clients;
        QList<ApiClient *> raw;
        for (int i = 0; i < 4; ++i) {
            clients.push_back(client(*server));
            raw << clients.back().get();
        }
        QSet<QString> ids;
        const QString failed = raceOneKey(
            raw, QStringLiteral("/api/v1/contacts"),
            [](int round) {
                return QJsonObject{{"firstName", QStringLiteral("Yarış")},
                                   {"email", QStringLiteral("yaris%1@example.com").arg(round)}};
            },
            5, 8, &ids);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QCOMPARE(ids.size(), 5);
        const HttpResult list = raw.first()->get(QStringLiteral("/api/v1/contacts?search=Yarış&limit=100"));
        QCOMPARE(list.json.value(QLatin1String("pagination")).toObject().value(QLatin1String("total")).toInt(), 5);
        server->process().terminate();
        QVERIFY2(server->waitForExit(), server->describe());
    }

    // ----- request log -----

    void logsOneLinePerRequestWithoutCredentials()
    {
        const QByteArray password = "log-test-password-123";
        QVERIFY(!cli({QStringLiteral("user"), QStringLiteral("add"), QStringLiteral("--email"),
                      QStringLiteral("log@example.com"), QStringLiteral("--name"), QStringLiteral("Log")},
                     password + '\n')
                     .isNull());
        auto server = serve();
        QVERIFY2(server->start(), server->describe());
        auto api = client(*server);
        ApiClient anonymous(server->baseUrl(), certificate());

        struct Expect
        {
            QByteArray method;
            QString path;
            int status;
            QByteArray requestId;
        };
        QList<Expect> expected;
        auto call = [&](ApiClient &c, const QByteArray &method, const QString &path, const QByteArray &body,
                        const QByteArray &requestId) {
            const HttpResult r = c.call(method, path, body, {{"X-Request-Id", requestId}});
            expected.append({method, QString(path).section(QLatin1Char('?'), 0, 0), r.status, requestId});
            return r;
        };
        call(*api, "GET", QStringLiteral("/api/v1/contacts?search=secretterm"), {}, "log-list-1");
        const HttpResult created = call(*api, "POST", QStringLiteral("/api/v1/contacts"),
                                        contactBody(QStringLiteral("Logged")), "log-create-2");
        QCOMPARE(created.status, 201);
        call(*api, "GET", QStringLiteral("/api/v1/contacts/contact_missing"), {}, "log-missing-3");
        call(anonymous, "GET", QStringLiteral("/api/v1/contacts"), {}, "log-anon-4");
        const HttpResult login =
            call(anonymous, "POST", QStringLiteral("/api/v1/auth/login"),
                 QJsonDocument(QJsonObject{{"email", "log@example.com"}, {"password", QString::fromLatin1(password)}})
                     .toJson(QJsonDocument::Compact),
                 "log-login-5");
        QCOMPARE(login.status, 200);
        const QString access = login.data().value("accessToken").toString();
        const QString refresh = login.data().value("refreshToken").toString();
        ApiClient user(server->baseUrl(), certificate());
        user.setToken(access);
        call(user, "GET", QStringLiteral("/api/v1/contacts"), {}, "log-jwt-6");
        call(*api, "PATCH", QStringLiteral("/api/v1/contacts"), "{}", "log-405-7");
        // one without a client id: the server makes one up, and logs that one
        const HttpResult own = api->get(QStringLiteral("/api/v1/contacts"));
        expected.append({"GET", QStringLiteral("/api/v1/contacts"), own.status, own.header("x-request-id")});
        for (const Expect &e : std::as_const(expected))
            QVERIFY(e.status >= 200);

        server->process().terminate();
        QVERIFY2(server->waitForExit(), server->describe());
        const QString log = server->err();
        const QStringList lines = log.split(QLatin1Char('\n'));
        static const QRegularExpression duration(QStringLiteral("\\b\\d+(\\.\\d+)?\\s?(ms|µs|us|s)\\b"));
        for (const Expect &e : std::as_const(expected)) {
            const QStringList mine = lines.filter(QString::fromLatin1(e.requestId));
            QVERIFY2(mine.size() == 1, qPrintable(QString::fromLatin1(e.requestId) + QLatin1Char('\n') + log));
            const QString &line = mine.constFirst();
            QVERIFY2(line.startsWith(QLatin1String("liaison.http: ")), qPrintable(line)); // "category: message"
            QVERIFY2(line.contains(QString::fromLatin1(e.method)), qPrintable(line));
            QVERIFY2(line.contains(e.path), qPrintable(line));
            QVERIFY2(line.contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(e.status))), qPrintable(line));
            QVERIFY2(line.contains(duration), qPrintable(line));
        }
        // no credential of any kind, ever
        for (const QString &secret :
             {m_key, m_key.mid(3), access, access.section(QLatin1Char('.'), 2), refresh, QString::fromLatin1(password)})
            QVERIFY2(!log.contains(secret), qPrintable(log));
        QVERIFY2(!log.contains(QLatin1String("Bearer"), Qt::CaseInsensitive), qPrintable(log));
        QVERIFY2(!log.contains(QLatin1String("Authorization"), Qt::CaseInsensitive), qPrintable(log));
        QVERIFY2(!server->out().contains(m_key), server->describe());
    }
};

QTEST_GUILESS_MAIN(TestServe)
#include "test_serve.moc"
