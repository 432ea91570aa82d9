// Tests of the HTTP/1.1 engine with raw loopback clients (plain TCP and TLS) that control the bytes.
#include "server/http/httpengine.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <memory>
#include <stdexcept>

namespace {

struct RawResponse
{
    int status = 0;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;

    QByteArray header(const QByteArray &name) const
    {
        for (const auto &h : headers) {
            if (h.first.compare(name, Qt::CaseInsensitive) == 0)
                return h.second;
        }
        return QByteArray();
    }
    bool hasHeader(const QByteArray &name) const
    {
        for (const auto &h : headers) {
            if (h.first.compare(name, Qt::CaseInsensitive) == 0)
                return true;
        }
        return false;
    }
};

// A raw HTTP client over QTcpSocket or QSslSocket; waits by running the event loop (the engine lives
// in the same thread).
class Client
{
public:
    // from: the local address to connect from (127.0.0.2 is another client on the same machine).
    Client(quint16 port, const QSslCertificate *ca, const QHostAddress &from = QHostAddress())
    {
        if (!from.isNull()) {
            m_socket = std::make_unique<QTcpSocket>();
            m_socket->bind(from, 0);
            m_socket->connectToHost(QHostAddress::LocalHost, port);
            (void)QTest::qWaitFor(
                [this] {
                    return m_socket->state() == QAbstractSocket::ConnectedState ||
                           m_socket->state() == QAbstractSocket::UnconnectedState;
                },
                5000);
            m_ok = m_socket->state() == QAbstractSocket::ConnectedState;
        } else if (ca) {
            auto *ssl = new QSslSocket;
            QSslConfiguration config = ssl->sslConfiguration();
            config.addCaCertificate(*ca);
            ssl->setSslConfiguration(config);
            m_socket.reset(ssl);
            ssl->connectToHostEncrypted(QStringLiteral("127.0.0.1"), port, QStringLiteral("localhost"));
            (void)QTest::qWaitFor(
                [ssl] { return ssl->isEncrypted() || ssl->state() == QAbstractSocket::UnconnectedState; }, 5000);
            m_ok = ssl->isEncrypted();
        } else {
            m_socket = std::make_unique<QTcpSocket>();
            m_socket->connectToHost(QHostAddress::LocalHost, port);
            (void)QTest::qWaitFor(
                [this] {
                    return m_socket->state() == QAbstractSocket::ConnectedState ||
                           m_socket->state() == QAbstractSocket::UnconnectedState;
                },
                5000);
            m_ok = m_socket->state() == QAbstractSocket::ConnectedState;
        }
    }

    bool ok() const { return m_ok; }
    QTcpSocket *socket() const { return m_socket.get(); }
    QByteArray &buffer() { return m_buffer; }

    void send(const QByteArray &bytes)
    {
        m_socket->write(bytes);
        m_socket->flush();
    }

    void pump() { m_buffer += m_socket->readAll(); }

    bool isClosed() const { return m_socket->state() == QAbstractSocket::UnconnectedState; }

    // Reads one response (an interim 1xx too). `head`: the response to a HEAD request has no body.
    bool readResponse(RawResponse &r, bool head = false, int timeoutMs = 5000)
    {
        bool done = false;
        (void)QTest::qWaitFor(
            [&] {
                pump();
                done = parse(r, head);
                return done || isClosed();
            },
            timeoutMs);
        if (!done) {
            pump();
            done = parse(r, head);
        }
        return done;
    }

    bool waitClosed(int timeoutMs = 5000)
    {
        (void)QTest::qWaitFor(
            [&] {
                pump();
                return isClosed();
            },
            timeoutMs);
        return isClosed();
    }

private:
    bool parse(RawResponse &r, bool head)
    {
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return false;
        const QList<QByteArray> lines = m_buffer.left(end).split('\n');
        RawResponse out;
        const QByteArray statusLine = lines.value(0).trimmed();
        if (!statusLine.startsWith("HTTP/1.1 "))
            return false;
        out.status = statusLine.mid(9, 3).toInt();
        for (int i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon > 0)
                out.headers.append(qMakePair(line.left(colon), line.mid(colon + 1).trimmed()));
        }
        qsizetype length = 0;
        if (!head && out.hasHeader("Content-Length"))
            length = out.header("Content-Length").toLongLong();
        if (m_buffer.size() < end + 4 + length)
            return false;
        out.body = m_buffer.mid(end + 4, length);
        m_buffer.remove(0, end + 4 + length);
        r = out;
        return true;
    }

    std::unique_ptr<QTcpSocket> m_socket;
    QByteArray m_buffer;
    bool m_ok = false;
};

void echo(const HttpRequest &request, const HttpResponder &responder)
{
    HttpResponse r;
    r.setHeader("Content-Type", "text/plain");
    r.setHeader("X-Echo", request.header("x-test"));
    r.body = request.method + ' ' + request.path + ' ' + request.query + ' ' + request.body;
    responder.respond(r);
}

QByteArray get(const QByteArray &path, const QByteArray &extra = QByteArray())
{
    return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n" + extra + "\r\n";
}

} // namespace

class TestHttpEngine : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QSslCertificate m_cert;
    QSslKey m_key;

    std::optional<QSslConfiguration> tlsConfig(bool tls) const
    {
        if (!tls)
            return std::nullopt;
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.setLocalCertificate(m_cert);
        config.setPrivateKey(m_key);
        config.setPeerVerifyMode(QSslSocket::VerifyNone);
        return config;
    }

    std::unique_ptr<HttpEngine> startEngine(bool tls, HttpEngine::Handler handler, const HttpLimits &limits = {})
    {
        auto engine = std::make_unique<HttpEngine>();
        engine->setLimits(limits);
        engine->setHandler(std::move(handler));
        if (!engine->listen(QHostAddress::LocalHost, 0, tlsConfig(tls))) {
            qWarning() << "listen failed:" << engine->errorString();
            return nullptr;
        }
        return engine;
    }

    std::unique_ptr<Client> connectTo(const HttpEngine &engine, bool tls)
    {
        return std::make_unique<Client>(engine.serverPort(), tls ? &m_cert : nullptr);
    }

    static void addTlsRows()
    {
        QTest::addColumn<bool>("tls");
        QTest::newRow("http") << false;
        QTest::newRow("https") << true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QSslSocket::supportsSsl(), "no TLS backend");
        const QString keyPath = m_dir.filePath(QStringLiteral("key.pem"));
        const QString certPath = m_dir.filePath(QStringLiteral("cert.pem"));
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                       QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-subj"),
                       QStringLiteral("/CN=localhost"), QStringLiteral("-addext"),
                       QStringLiteral("subjectAltName=DNS:localhost,IP:127.0.0.1"), QStringLiteral("-days"),
                       QStringLiteral("1"), QStringLiteral("-keyout"), keyPath, QStringLiteral("-out"), certPath});
        QVERIFY2(openssl.waitForFinished(60000), "openssl did not finish");
        QVERIFY2(openssl.exitStatus() == QProcess::NormalExit && openssl.exitCode() == 0,
                 openssl.readAllStandardError().constData());
        QFile certFile(certPath);
        QFile keyFile(keyPath);
        QVERIFY(certFile.open(QIODevice::ReadOnly));
        QVERIFY(keyFile.open(QIODevice::ReadOnly));
        m_cert = QSslCertificate(certFile.readAll(), QSsl::Pem);
        m_key = QSslKey(keyFile.readAll(), QSsl::Rsa, QSsl::Pem);
        QVERIFY(!m_cert.isNull());
        QVERIFY(!m_key.isNull());
    }

    void typesHelpers()
    {
        HttpRequest request;
        request.headers = {{"Content-Type", "application/json"}, {"X-A", "1"}, {"x-a", "2"}};
        QCOMPARE(request.header("content-TYPE"), QByteArray("application/json"));
        QCOMPARE(request.header("X-a"), QByteArray("1"));
        QVERIFY(request.hasHeader("CONTENT-type"));
        QVERIFY(!request.hasHeader("Accept"));
        QVERIFY(request.header("Accept").isEmpty());

        HttpResponse response;
        response.setHeader("Content-Type", "text/plain");
        response.setHeader("content-type", "application/json");
        QCOMPARE(response.headers.size(), 1);
        QCOMPARE(response.header("CONTENT-TYPE"), QByteArray("application/json"));
        response.headers.append(qMakePair(QByteArray("X-B"), QByteArray("1")));
        response.headers.append(qMakePair(QByteArray("x-b"), QByteArray("2")));
        response.setHeader("X-B", "3");
        QCOMPARE(response.headers.size(), 2);
        QCOMPARE(response.header("x-b"), QByteArray("3"));

        QCOMPARE(QByteArray(httpReasonPhrase(200)), QByteArray("OK"));
        QCOMPARE(QByteArray(httpReasonPhrase(404)), QByteArray("Not Found"));
        QCOMPARE(QByteArray(httpReasonPhrase(431)), QByteArray("Request Header Fields Too Large"));
        QVERIFY(httpReasonPhrase(599) != nullptr);
    }

    void listenErrors()
    {
        HttpEngine engine;
        QSslConfiguration incomplete = QSslConfiguration::defaultConfiguration();
        QVERIFY(!engine.listen(QHostAddress::LocalHost, 0, incomplete));
        QVERIFY(!engine.errorString().isEmpty());
        QVERIFY(engine.listen(QHostAddress::LocalHost, 0, std::nullopt));
        QVERIFY(engine.isListening());
        HttpEngine other;
        QVERIFY(!other.listen(QHostAddress::LocalHost, engine.serverPort(), std::nullopt));
        QVERIFY(!other.errorString().isEmpty());
    }

    void simpleGet_data() { addTlsRows(); }
    void simpleGet()
    {
        QFETCH(bool, tls);
        HttpRequest seen;
        auto engine = startEngine(tls, [&](const HttpRequest &request, const HttpResponder &responder) {
            seen = request;
            echo(request, responder);
        });
        QVERIFY(engine);
        auto client = connectTo(*engine, tls);
        QVERIFY(client->ok());
        client->send(get("/api/v1/hello?page=2&x=%20", "X-Test:   some value  \r\n"));
        RawResponse r;
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("GET /api/v1/hello page=2&x=%20 "));
        QCOMPARE(r.header("Content-Length"), QByteArray::number(r.body.size()));
        QCOMPARE(r.header("X-Echo"), QByteArray("some value"));
        QCOMPARE(r.header("Content-Type"), QByteArray("text/plain"));
        QVERIFY(!r.hasHeader("Connection"));
        static const QRegularExpression date(
            QStringLiteral("^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d\\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
                           "\\d{4} \\d\\d:\\d\\d:\\d\\d GMT$"));
        QVERIFY2(date.match(QString::fromLatin1(r.header("Date"))).hasMatch(), r.header("Date").constData());

        QCOMPARE(seen.method, QByteArray("GET"));
        QCOMPARE(seen.target, QByteArray("/api/v1/hello?page=2&x=%20"));
        QCOMPARE(seen.path, QByteArray("/api/v1/hello"));
        QCOMPARE(seen.query, QByteArray("page=2&x=%20"));
        QCOMPARE(seen.header("host"), QByteArray("localhost"));
        QCOMPARE(seen.encrypted, tls);
        QVERIFY(seen.peerAddress.isLoopback());
        QCOMPARE(seen.peerPort, client->socket()->localPort());
        QVERIFY(!client->isClosed());
    }

    void absoluteFormTarget()
    {
        HttpRequest seen;
        auto engine = startEngine(false, [&](const HttpRequest &request, const HttpResponder &responder) {
            seen = request;
            echo(request, responder);
        });
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send("GET http://localhost:8080/a/b?c=d HTTP/1.1\r\nHost: localhost\r\n\r\n");
        RawResponse r;
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.status, 200);
        QCOMPARE(seen.path, QByteArray("/a/b"));
        QCOMPARE(seen.query, QByteArray("c=d"));
    }

    void postBody_data() { addTlsRows(); }
    void postBody()
    {
        QFETCH(bool, tls);
        auto engine = startEngine(tls, echo);
        QVERIFY(engine);
        auto client = connectTo(*engine, tls);
        QVERIFY(client->ok());
        client->send(
            "POST /contacts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n"
            "{\"name\":\"A\"}\n");
        RawResponse r;
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("POST /contacts  {\"name\":\"A\"}\n"));

        // the body split over several writes
        client->send("PUT /p HTTP/1.1\r\nContent-Length: 10\r\n\r\n01234");
        QVERIFY(!client->readResponse(r, false, 100));
        client->send("56789");
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.body, QByteArray("PUT /p  0123456789"));
    }

    void largeBodies_data() { addTlsRows(); }
    void largeBodies()
    {
        QFETCH(bool, tls);
        auto engine = startEngine(tls, [](const HttpRequest &request, const HttpResponder &responder) {
            HttpResponse r;
            if (request.method == "POST") {
                r.body = QCryptographicHash::hash(request.body, QCryptographicHash::Sha256).toHex();
            } else {
                r.body = QByteArray(3 * 1024 * 1024, 'z');
            }
            responder.respond(r);
        });
        QVERIFY(engine);
        auto client = connectTo(*engine, tls);
        QVERIFY(client->ok());
        QByteArray upload(2 * 1024 * 1024 + 17, '\0');
        for (int i = 0; i < upload.size(); ++i)
            upload[i] = char(i * 31 + 7);
        client->send("POST /upload HTTP/1.1\r\nContent-Length: " + QByteArray::number(upload.size()) + "\r\n\r\n" +
                     upload);
        RawResponse r;
        QVERIFY(client->readResponse(r, false, 20000));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QCryptographicHash::hash(upload, QCryptographicHash::Sha256).toHex());
        client->send(get("/download"));
        QVERIFY(client->readResponse(r, false, 20000));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body.size(), 3 * 1024 * 1024);
        QCOMPARE(r.body.count('z'), r.body.size());
    }

    void keepAlive_data() { addTlsRows(); }
    void keepAlive()
    {
        QFETCH(bool, tls);
        auto engine = startEngine(tls, echo);
        QVERIFY(engine);
        QSignalSpy countSpy(engine.get(), &HttpEngine::connectionCountChanged);
        auto client = connectTo(*engine, tls);
        QVERIFY(client->ok());
        RawResponse r;
        client->send(get("/one"));
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.body, QByteArray("GET /one  "));
        client->send(get("/two"));
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.body, QByteArray("GET /two  "));
        QVERIFY(!client->isClosed());
        QCOMPARE(engine->connectionCount(), 1);
        QVERIFY(!countSpy.isEmpty());
        QCOMPARE(countSpy.last().at(0).toInt(), 1);
        client->socket()->abort();
        QTRY_COMPARE(engine->connectionCount(), 0);
        QCOMPARE(countSpy.last().at(0).toInt(), 0);
    }

    void pipelinedOutOfOrder_data() { addTlsRows(); }
    void pipelinedOutOfOrder()
    {
        QFETCH(bool, tls);
        QByteArrayList calls;
        auto engine = startEngine(tls, [&](const HttpRequest &request, const HttpResponder &responder) {
            calls.append(request.path);
            // the first request is answered last
            const int delay = request.path == "/a" ? 150 : request.path == "/b" ? 75 : 0;
            const HttpRequest copy = request;
            QTimer::singleShot(delay, [copy, responder] { echo(copy, responder); });
        });
        QVERIFY(engine);
        auto client = connectTo(*engine, tls);
        QVERIFY(client->ok());
        client->send(get("/a") + "POST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nxyz" + get("/c"));
        RawResponse r;
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.body, QByteArray("GET /a  "));
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.body, QByteArray("POST /b  xyz"));
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.body, QByteArray("GET /c  "));
        QCOMPARE(calls, QByteArrayList({"/a", "/b", "/c"}));
        QVERIFY(!client->isClosed());
    }

    void outstandingCap()
    {
        QList<HttpResponder> pending;
        QByteArrayList paths;
        auto engine = startEngine(false, [&](const HttpRequest &request, const HttpResponder &responder) {
            pending.append(responder);
            paths.append(request.path);
        });
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        QByteArray all;
        for (int i = 0; i < 20; ++i)
            all += get("/r" + QByteArray::number(i));
        client.send(all);
        QTRY_COMPARE(pending.size(), 16);
        QTest::qWait(50); // negative check: nothing further is parsed while 16 are unanswered
        QCOMPARE(pending.size(), 16);
        int answered = 0;
        while (answered < 20) {
            QTRY_VERIFY(answered < pending.size());
            HttpResponse r;
            r.body = paths.at(answered);
            pending.at(answered).respond(r);
            ++answered;
        }
        for (int i = 0; i < 20; ++i) {
            RawResponse r;
            QVERIFY(client.readResponse(r));
            QCOMPARE(r.body, "/r" + QByteArray::number(i));
        }
    }

    void head_data() { addTlsRows(); }
    void head()
    {
        QFETCH(bool, tls);
        QByteArray seenMethod;
        auto engine = startEngine(tls, [&](const HttpRequest &request, const HttpResponder &responder) {
            seenMethod = request.method;
            HttpResponse r;
            r.body = "hello";
            responder.respond(r);
        });
        QVERIFY(engine);
        auto client = connectTo(*engine, tls);
        QVERIFY(client->ok());
        client->send("HEAD /x HTTP/1.1\r\nHost: a\r\n\r\n");
        RawResponse r;
        QVERIFY(client->readResponse(r, true));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Length"), QByteArray("5"));
        QCOMPARE(seenMethod, QByteArray("HEAD"));
        QVERIFY(client->buffer().isEmpty());
        // the next response starts right away: no body bytes were sent for HEAD
        client->send(get("/y"));
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("hello"));
        QVERIFY(client->buffer().isEmpty());
    }

    void noContent()
    {
        auto engine = startEngine(false, [](const HttpRequest &, const HttpResponder &responder) {
            HttpResponse r;
            r.status = 204;
            r.setHeader("Content-Length", "99"); // replaced by the engine
            r.setHeader("X-Bad", "a\r\nInjected: yes");
            responder.respond(r);
        });
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send(get("/"));
        RawResponse r;
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.status, 204);
        QVERIFY(!r.hasHeader("Content-Length"));
        QVERIFY(!r.hasHeader("Injected"));
        QVERIFY(!r.hasHeader("X-Bad"));
        QVERIFY(r.hasHeader("Date"));
    }

    void connectionClose_data() { addTlsRows(); }
    void connectionClose()
    {
        QFETCH(bool, tls);
        int calls = 0;
        auto engine = startEngine(tls, [&](const HttpRequest &request, const HttpResponder &responder) {
            ++calls;
            echo(request, responder);
        });
        QVERIFY(engine);
        auto client = connectTo(*engine, tls);
        QVERIFY(client->ok());
        client->send(get("/bye", "Connection: close\r\n") + get("/ignored"));
        RawResponse r;
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Connection"), QByteArray("close"));
        QVERIFY(client->waitClosed());
        QCOMPARE(calls, 1);
        QTRY_COMPARE(engine->connectionCount(), 0);
    }

    void handlerAsksToClose()
    {
        auto engine = startEngine(false, [](const HttpRequest &, const HttpResponder &responder) {
            HttpResponse r;
            r.setHeader("Connection", "close");
            responder.respond(r);
        });
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send(get("/"));
        RawResponse r;
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.header("Connection"), QByteArray("close"));
        QVERIFY(client.waitClosed());
    }

    void http10()
    {
        auto engine = startEngine(false, echo);
        QVERIFY(engine);
        {
            Client client(engine->serverPort(), nullptr);
            QVERIFY(client.ok());
            client.send("GET /old HTTP/1.0\r\n\r\n");
            RawResponse r;
            QVERIFY(client.readResponse(r));
            QCOMPARE(r.status, 200);
            QCOMPARE(r.body, QByteArray("GET /old  "));
            QCOMPARE(r.header("Connection"), QByteArray("close"));
            QVERIFY(client.waitClosed());
        }
        {
            Client client(engine->serverPort(), nullptr);
            QVERIFY(client.ok());
            client.send("GET /ka HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n");
            RawResponse r;
            QVERIFY(client.readResponse(r));
            QCOMPARE(r.status, 200);
            QCOMPARE(r.header("Connection"), QByteArray("keep-alive"));
            client.send("GET /ka2 HTTP/1.0\r\n\r\n");
            QVERIFY(client.readResponse(r));
            QCOMPARE(r.body, QByteArray("GET /ka2  "));
            QVERIFY(client.waitClosed());
        }
    }

    void expectContinue_data() { addTlsRows(); }
    void expectContinue()
    {
        QFETCH(bool, tls);
        auto engine = startEngine(tls, echo);
        QVERIFY(engine);
        auto client = connectTo(*engine, tls);
        QVERIFY(client->ok());
        client->send("POST /up HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
        RawResponse r;
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.status, 100);
        client->send("hello");
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("POST /up  hello"));
    }

    void expectContinueTooLarge()
    {
        HttpLimits limits;
        limits.maxBodyBytes = 1000;
        int calls = 0;
        auto engine = startEngine(
            false,
            [&](const HttpRequest &request, const HttpResponder &responder) {
                ++calls;
                echo(request, responder);
            },
            limits);
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send("POST /up HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 1001\r\n\r\n");
        RawResponse r;
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.status, 413);
        QCOMPARE(r.header("Connection"), QByteArray("close"));
        QVERIFY(client.waitClosed());
        QCOMPARE(calls, 0);
    }

    void contentLengthTooLarge()
    {
        HttpLimits limits;
        limits.maxBodyBytes = 1000;
        limits.lingerTimeoutMs = 300; // the body never comes: stop waiting for it soon
        int calls = 0;
        auto engine = startEngine(
            false,
            [&](const HttpRequest &request, const HttpResponder &responder) {
                ++calls;
                echo(request, responder);
            },
            limits);
        QVERIFY(engine);
        {
            Client client(engine->serverPort(), nullptr);
            QVERIFY(client.ok());
            client.send("POST /up HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n");
            RawResponse r;
            QVERIFY(client.readResponse(r));
            QCOMPARE(r.status, 413);
            QCOMPARE(r.body, QByteArray("413 Content Too Large\n"));
            QVERIFY(client.waitClosed());
        }
        {
            // exactly at the limit is fine
            Client client(engine->serverPort(), nullptr);
            QVERIFY(client.ok());
            client.send("POST /up HTTP/1.1\r\nContent-Length: 1000\r\n\r\n" + QByteArray(1000, 'b'));
            RawResponse r;
            QVERIFY(client.readResponse(r));
            QCOMPARE(r.status, 200);
        }
        QCOMPARE(calls, 1);
    }

    void headerTooLarge()
    {
        HttpLimits limits;
        limits.maxHeaderBytes = 1024;
        auto engine = startEngine(false, echo, limits);
        QVERIFY(engine);
        {
            Client client(engine->serverPort(), nullptr);
            QVERIFY(client.ok());
            client.send(get("/", "X-Big: " + QByteArray(2000, 'a') + "\r\n"));
            RawResponse r;
            QVERIFY(client.readResponse(r));
            QCOMPARE(r.status, 431);
            QVERIFY(client.waitClosed());
        }
        {
            // no line end at all: rejected once the limit is passed, not buffered forever
            Client client(engine->serverPort(), nullptr);
            QVERIFY(client.ok());
            client.send("GET /" + QByteArray(4000, 'a'));
            RawResponse r;
            QVERIFY(client.readResponse(r));
            QCOMPARE(r.status, 431);
            QVERIFY(client.waitClosed());
        }
    }

    void tooManyHeaders()
    {
        HttpLimits limits;
        limits.maxHeaderCount = 10;
        auto engine = startEngine(false, echo, limits);
        QVERIFY(engine);
        {
            Client client(engine->serverPort(), nullptr);
            QVERIFY(client.ok());
            QByteArray extra;
            for (int i = 0; i < 9; ++i) // + Host = 10
                extra += "X-H" + QByteArray::number(i) + ": v\r\n";
            client.send(get("/", extra));
            RawResponse r;
            QVERIFY(client.readResponse(r));
            QCOMPARE(r.status, 200);
        }
        {
            Client client(engine->serverPort(), nullptr);
            QVERIFY(client.ok());
            QByteArray extra;
            for (int i = 0; i < 10; ++i)
                extra += "X-H" + QByteArray::number(i) + ": v\r\n";
            client.send(get("/", extra));
            RawResponse r;
            QVERIFY(client.readResponse(r));
            QCOMPARE(r.status, 431);
            QCOMPARE(r.header("Connection"), QByteArray("close"));
            QVERIFY(client.waitClosed());
        }
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        QTest::newRow("garbage") << QByteArray("GARBAGE\r\n\r\n") << 400;
        QTest::newRow("no version") << QByteArray("GET /\r\n\r\n") << 400;
        QTest::newRow("extra field") << QByteArray("GET / HTTP/1.1 x\r\n\r\n") << 400;
        QTest::newRow("double space") << QByteArray("GET  / HTTP/1.1\r\n\r\n") << 400;
        QTest::newRow("bad method") << QByteArray("G(T / HTTP/1.1\r\n\r\n") << 400;
        QTest::newRow("lower version") << QByteArray("GET / http/1.1\r\n\r\n") << 400;
        QTest::newRow("control in target") << QByteArray("GET /\x01 HTTP/1.1\r\n\r\n") << 400;
        QTest::newRow("http2") << QByteArray("GET / HTTP/2.0\r\n\r\n") << 505;
        QTest::newRow("no colon") << QByteArray("GET / HTTP/1.1\r\nHost\r\n\r\n") << 400;
        QTest::newRow("space before colon") << QByteArray("GET / HTTP/1.1\r\nHost : a\r\n\r\n") << 400;
        QTest::newRow("obs-fold") << QByteArray("GET / HTTP/1.1\r\nX-A: a\r\n  b\r\n\r\n") << 400;
        static const char withNul[] = "GET / HTTP/1.1\r\nX-A: a\0b\r\n\r\n";
        QTest::newRow("nul in value") << QByteArray(withNul, sizeof withNul - 1) << 400;
        QTest::newRow("bad content-length") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n") << 400;
        QTest::newRow("two content-lengths")
            << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab") << 400;
        QTest::newRow("chunked and content-length")
            << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n") << 400;
        QTest::newRow("unknown transfer-encoding")
            << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n") << 501;
        QTest::newRow("bad chunk size") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n")
                                        << 400;
        QTest::newRow("bad chunk end")
            << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n0\r\n\r\n") << 400;
    }
    void malformed()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        int calls = 0;
        auto engine = startEngine(false, [&](const HttpRequest &request, const HttpResponder &responder) {
            ++calls;
            echo(request, responder);
        });
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send(request);
        RawResponse r;
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.status, status);
        QCOMPARE(r.header("Connection"), QByteArray("close"));
        QCOMPARE(r.header("Content-Type"), QByteArray("text/plain; charset=utf-8"));
        QCOMPARE(r.body, QByteArray::number(status) + ' ' + httpReasonPhrase(status) + '\n');
        QVERIFY(client.waitClosed());
        QCOMPARE(calls, 0);
    }

    void errorAfterPipelinedRequest()
    {
        // a good request, then garbage: the answer to the first one comes first, then 400
        auto engine = startEngine(false, [](const HttpRequest &request, const HttpResponder &responder) {
            QTimer::singleShot(50, [request, responder] { echo(request, responder); });
        });
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send(get("/ok") + "BROKEN\r\n\r\n");
        RawResponse r;
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("GET /ok  "));
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.status, 400);
        QVERIFY(client.waitClosed());
    }

    void chunkedBody_data() { addTlsRows(); }
    void chunkedBody()
    {
        QFETCH(bool, tls);
        HttpLimits limits;
        limits.maxBodyBytes = 64;
        auto engine = startEngine(tls, echo, limits);
        QVERIFY(engine);
        auto client = connectTo(*engine, tls);
        QVERIFY(client->ok());
        client->send("POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n wor");
        RawResponse r;
        QVERIFY(!client->readResponse(r, false, 100));
        client->send("ld\r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n");
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("POST /c  hello world0123456789"));

        // over the body limit
        client->send("POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n" + QByteArray(32, 'a') +
                     "\r\n21\r\n");
        QVERIFY(client->readResponse(r));
        QCOMPARE(r.status, 413);
        QVERIFY(client->waitClosed());

        // a huge chunk size does not overflow
        auto again = connectTo(*engine, tls);
        QVERIFY(again->ok());
        again->send("POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffffffff\r\n");
        QVERIFY(again->readResponse(r));
        QCOMPARE(r.status, 413);
        QVERIFY(again->waitClosed());
    }

    void idleTimeout()
    {
        HttpLimits limits;
        limits.idleTimeoutMs = 200;
        auto engine = startEngine(false, echo, limits);
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send(get("/") + "\r\n"); // a stray CRLF after a request is not a request in progress
        RawResponse r;
        QVERIFY(client.readResponse(r));
        QElapsedTimer timer;
        timer.start();
        QVERIFY(client.waitClosed(5000));
        QVERIFY2(timer.elapsed() >= 100, QByteArray::number(timer.elapsed()).constData());
        QVERIFY(client.buffer().isEmpty()); // closed quietly, no 408
        // a connection that never sends anything is closed too
        Client silent(engine->serverPort(), nullptr);
        QVERIFY(silent.ok());
        QVERIFY(silent.waitClosed(5000));
        QVERIFY(silent.buffer().isEmpty());
        QTRY_COMPARE(engine->connectionCount(), 0);
    }

    void idleTimeoutNotWhileHandlerWorks()
    {
        HttpLimits limits;
        limits.idleTimeoutMs = 100;
        auto engine = startEngine(
            false,
            [](const HttpRequest &request, const HttpResponder &responder) {
                QTimer::singleShot(400, [request, responder] { echo(request, responder); });
            },
            limits);
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send(get("/slow"));
        RawResponse r;
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("GET /slow  "));
    }

    void requestTimeout_data() { addTlsRows(); }
    void requestTimeout()
    {
        QFETCH(bool, tls);
        HttpLimits limits;
        limits.requestTimeoutMs = 300;
        limits.idleTimeoutMs = 10000;
        limits.lingerTimeoutMs = 500; // what still drips in after the 408 is read and dropped this long
        int calls = 0;
        auto engine = startEngine(
            tls,
            [&](const HttpRequest &request, const HttpResponder &responder) {
                ++calls;
                echo(request, responder);
            },
            limits);
        QVERIFY(engine);
        auto client = connectTo(*engine, tls);
        QVERIFY(client->ok());
        // slowloris: one header byte every 30 ms, never finishing
        client->send("GET / HTTP/1.1\r\nX-Slow: ");
        QTimer drip;
        QObject::connect(&drip, &QTimer::timeout, [&] {
            if (!client->isClosed())
                client->send("a");
        });
        drip.start(30);
        QElapsedTimer timer;
        timer.start();
        RawResponse r;
        QVERIFY(client->readResponse(r, false, 5000));
        QCOMPARE(r.status, 408);
        QCOMPARE(r.header("Connection"), QByteArray("close"));
        QVERIFY(timer.elapsed() >= 250);
        // What still drips in is read and dropped (lingerTimeoutMs) rather than answered with a
        // reset at once, which could destroy the 408 before the client reads it.
        QElapsedTimer afterAnswer;
        afterAnswer.start();
        QVERIFY(client->waitClosed());
        QVERIFY2(afterAnswer.elapsed() >= 350, qPrintable(QString::number(afterAnswer.elapsed())));
        drip.stop();
        QCOMPARE(calls, 0);

        // the same for a body that does not arrive
        auto other = connectTo(*engine, tls);
        QVERIFY(other->ok());
        other->send("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n12345");
        QVERIFY(other->readResponse(r, false, 5000));
        QCOMPARE(r.status, 408);
        QVERIFY(other->waitClosed());
    }

    void headerTimeout()
    {
        // A head that trickles in is refused after headerTimeoutMs, well before requestTimeoutMs.
        HttpLimits limits;
        limits.requestTimeoutMs = 60000;
        limits.headerTimeoutMs = 300;
        limits.lingerTimeoutMs = 100;
        int calls = 0;
        auto engine = startEngine(
            false,
            [&](const HttpRequest &request, const HttpResponder &responder) {
                ++calls;
                echo(request, responder);
            },
            limits);
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send("GET / HTTP/1.1\r\nX-Slow: ");
        QTimer drip;
        QObject::connect(&drip, &QTimer::timeout, [&] {
            if (!client.isClosed())
                client.send("a");
        });
        drip.start(30);
        RawResponse r;
        QVERIFY(client.readResponse(r, false, 10000));
        QCOMPARE(r.status, 408);
        QVERIFY(client.waitClosed());
        drip.stop();
        QCOMPARE(calls, 0);

        // a head sent at once is not held to it while its body comes at a good pace
        Client fine(engine->serverPort(), nullptr);
        QVERIFY(fine.ok());
        fine.send("POST /up HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd");
        QVERIFY(fine.readResponse(r));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("POST /up  abcd"));
    }

    void slowBody()
    {
        // A body far below bodyMinBytesPerSecond is refused once its allowance (headerTimeoutMs
        // plus 1 s per bodyMinBytesPerSecond bytes received) is spent, not after requestTimeoutMs.
        HttpLimits limits;
        limits.requestTimeoutMs = 60000;
        limits.headerTimeoutMs = 300;
        limits.bodyMinBytesPerSecond = 1000;
        limits.lingerTimeoutMs = 100;
        int calls = 0;
        auto engine = startEngine(
            false,
            [&](const HttpRequest &request, const HttpResponder &responder) {
                ++calls;
                echo(request, responder);
            },
            limits);
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send("POST /up HTTP/1.1\r\nContent-Length: 100000\r\n\r\n0123456789");
        QTimer drip; // 20 bytes a second
        QObject::connect(&drip, &QTimer::timeout, [&] {
            if (!client.isClosed())
                client.send("x");
        });
        drip.start(50);
        RawResponse r;
        QVERIFY(client.readResponse(r, false, 10000));
        QCOMPARE(r.status, 408);
        QVERIFY(client.waitClosed());
        drip.stop();
        QCOMPARE(calls, 0);

        // chunked the same
        Client chunked(engine->serverPort(), nullptr);
        QVERIFY(chunked.ok());
        chunked.send("POST /up HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n");
        QVERIFY(chunked.readResponse(r, false, 10000));
        QCOMPARE(r.status, 408);
        QCOMPARE(calls, 0);
    }

    void perClientCap()
    {
        // One address holding half-sent requests gets at most maxConnectionsPerClient connections:
        // each new one from it closes its oldest half-sent one; another address is served meanwhile,
        // and so is a request from the same address that arrives whole.
        HttpLimits limits;
        limits.maxConnections = 100;
        limits.maxConnectionsPerClient = 3;
        auto engine = startEngine(false, echo, limits);
        QVERIFY(engine);
        std::vector<std::unique_ptr<Client>> slow;
        for (int i = 0; i < 6; ++i) {
            auto c = std::make_unique<Client>(engine->serverPort(), nullptr, QHostAddress("127.0.0.1"));
            QVERIFY(c->ok());
            c->send("GET /never HTTP/1.1\r\nX-Half: ");
            slow.push_back(std::move(c));
            QTRY_COMPARE(engine->evictedConnections(), quint64(std::max(0, i - 2)));
            QTRY_COMPARE(engine->connectionCount(), std::min(i + 1, 3));
            // the connection has its first bytes before the next arrives: it is receiving (the time
            // itself: the connections' ages, in milliseconds, must differ)
            QTest::qWait(20);
        }
        QCOMPARE(engine->evictedConnections(), quint64(3));
        // the three oldest were closed
        for (int i = 0; i < 3; ++i)
            QVERIFY(slow[size_t(i)]->waitClosed());
        for (int i = 3; i < 6; ++i)
            QVERIFY(!slow[size_t(i)]->isClosed());

        Client other(engine->serverPort(), nullptr, QHostAddress("127.0.0.2"));
        QVERIFY(other.ok());
        other.send(get("/other"));
        RawResponse r;
        QVERIFY(other.readResponse(r));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("GET /other  "));

        Client same(engine->serverPort(), nullptr, QHostAddress("127.0.0.1"));
        QVERIFY(same.ok());
        same.send(get("/same"));
        QVERIFY(same.readResponse(r));
        QCOMPARE(r.status, 200);
        QVERIFY(slow[3]->waitClosed()); // the oldest half-sent one made room
        QCOMPARE(engine->evictedConnections(), quint64(4));
        QVERIFY(!slow[4]->isClosed());
    }

    void unfinishedRequestsDoNotLockOutANewClient()
    {
        // The engine is full of half-sent requests: a new client is still served, in the place of the
        // oldest half-sent request of the address holding the most connections.
        HttpLimits limits;
        limits.maxConnections = 4;
        limits.maxConnectionsPerClient = 0;
        auto engine = startEngine(false, echo, limits);
        QVERIFY(engine);
        Client lone(engine->serverPort(), nullptr, QHostAddress("127.0.0.3"));
        QVERIFY(lone.ok());
        lone.send("GET /lone HTTP/1.1\r\nX-Half: ");
        QTRY_COMPARE(engine->connectionCount(), 1);
        QTest::qWait(20);
        std::vector<std::unique_ptr<Client>> slow;
        for (int i = 0; i < 3; ++i) {
            auto c = std::make_unique<Client>(engine->serverPort(), nullptr, QHostAddress("127.0.0.1"));
            QVERIFY(c->ok());
            c->send("POST /never HTTP/1.1\r\nContent-Length: 1000\r\n\r\nabc");
            slow.push_back(std::move(c));
            QTRY_COMPARE(engine->connectionCount(), i + 2);
            QTest::qWait(20);
        }
        for (int round = 0; round < 3; ++round) {
            Client fresh(engine->serverPort(), nullptr, QHostAddress("127.0.0.2"));
            QVERIFY(fresh.ok());
            fresh.send(get("/fresh"));
            RawResponse r;
            QVERIFY2(fresh.readResponse(r), qPrintable(QString::number(round)));
            QCOMPARE(r.status, 200);
        }
        QVERIFY(slow[0]->waitClosed());
        QVERIFY(!lone.isClosed()); // the address with one connection kept it
        QVERIFY(engine->evictedConnections() >= 1);
        lone.send("1\r\nHost: localhost\r\n\r\n");
        RawResponse r;
        QVERIFY(lone.readResponse(r));
        QCOMPARE(r.body, QByteArray("GET /lone  "));
    }

    void clientKeys()
    {
        QCOMPARE(httpClientKey(QHostAddress("192.0.2.7")), QByteArray("192.0.2.7"));
        QCOMPARE(httpClientKey(QHostAddress("::ffff:192.0.2.7")), QByteArray("192.0.2.7"));
        QCOMPARE(httpClientKey(QHostAddress("2001:db8:1:2:aaaa::1")), httpClientKey(QHostAddress("2001:db8:1:2::9")));
        QVERIFY(httpClientKey(QHostAddress("2001:db8:1:2::1")) != httpClientKey(QHostAddress("2001:db8:1:3::1")));
        QVERIFY(httpClientKey(QHostAddress("127.0.0.1")) != httpClientKey(QHostAddress("127.0.0.2")));
        QCOMPARE(httpClientKey(QHostAddress("127.0.0.1"), true), httpClientKey(QHostAddress("127.8.9.10"), true));
        QCOMPARE(httpClientKey(QHostAddress("::1"), true), httpClientKey(QHostAddress("127.0.0.1"), true));
        QCOMPARE(httpClientKey(QHostAddress("::ffff:127.0.0.5"), true), httpClientKey(QHostAddress("::1"), true));
        QVERIFY(httpClientKey(QHostAddress("10.0.0.1"), true) != httpClientKey(QHostAddress("127.0.0.1"), true));
    }

    void handshakeTimeout()
    {
        HttpLimits limits;
        limits.handshakeTimeoutMs = 200;
        auto engine = startEngine(true, echo, limits);
        QVERIFY(engine);
        Client raw(engine->serverPort(), nullptr); // plain TCP that never starts TLS
        QVERIFY(raw.ok());
        QTRY_COMPARE(engine->connectionCount(), 1);
        QVERIFY(raw.waitClosed(5000));
        QTRY_COMPARE(engine->connectionCount(), 0);
    }

    void maxConnections()
    {
        // At capacity the longest-idle connection makes room for a new client.
        HttpLimits limits;
        limits.maxConnections = 2;
        auto engine = startEngine(false, echo, limits);
        QVERIFY(engine);
        Client a(engine->serverPort(), nullptr);
        QVERIFY(a.ok());
        QTRY_COMPARE(engine->connectionCount(), 1);
        QTest::qWait(20);
        Client b(engine->serverPort(), nullptr);
        QVERIFY(b.ok());
        QTRY_COMPARE(engine->connectionCount(), 2);
        RawResponse r;
        b.send(get("/b")); // b was used last: a has waited longest
        QVERIFY(b.readResponse(r));
        Client c(engine->serverPort(), nullptr);
        QVERIFY(c.ok());
        QVERIFY(a.waitClosed());
        QCOMPARE(engine->evictedConnections(), quint64(1));
        QCOMPARE(engine->connectionCount(), 2);
        c.send(get("/c"));
        QVERIFY(c.readResponse(r));
        QCOMPARE(r.body, QByteArray("GET /c  "));
        b.send(get("/b2"));
        QVERIFY(b.readResponse(r));
        QCOMPARE(r.body, QByteArray("GET /b2  "));
    }

    void maxConnectionsAllBusy()
    {
        // Connections waiting for their answer are never closed to make room: the new one is.
        HttpLimits limits;
        limits.maxConnections = 2;
        std::vector<HttpResponder> held;
        auto engine = startEngine(
            false, [&](const HttpRequest &, const HttpResponder &responder) { held.push_back(responder); }, limits);
        QVERIFY(engine);
        Client a(engine->serverPort(), nullptr);
        Client b(engine->serverPort(), nullptr);
        QVERIFY(a.ok());
        QVERIFY(b.ok());
        a.send(get("/a"));
        b.send(get("/b"));
        QTRY_COMPARE(held.size(), size_t(2));
        Client c(engine->serverPort(), nullptr);
        QVERIFY(c.waitClosed());
        QCOMPARE(engine->evictedConnections(), quint64(0));
        for (const HttpResponder &responder : held)
            responder.respond(HttpResponse());
        RawResponse r;
        QVERIFY(a.readResponse(r));
        QCOMPARE(r.status, 200);
        QVERIFY(b.readResponse(r));
        QCOMPARE(r.status, 200);
    }

    void manyIdleConnectionsDoNotLockOutANewClient()
    {
        // 150 keep-alive connections idle after a request and 150 that never start TLS, against a
        // cap of 100: every new client is still answered.
        HttpLimits limits;
        limits.maxConnections = 100;
        auto engine = startEngine(true, echo, limits);
        QVERIFY(engine);
        std::vector<std::unique_ptr<Client>> used;
        for (int i = 0; i < 150; ++i) {
            auto client = std::make_unique<Client>(engine->serverPort(), &m_cert);
            QVERIFY(client->ok());
            client->send(get("/used"));
            RawResponse r;
            QVERIFY(client->readResponse(r));
            used.push_back(std::move(client));
        }
        std::vector<std::unique_ptr<QTcpSocket>> silent;
        for (int i = 0; i < 150; ++i) {
            auto s = std::make_unique<QTcpSocket>();
            s->connectToHost(QHostAddress::LocalHost, engine->serverPort());
            silent.push_back(std::move(s));
            // The engine is in this thread: let it accept these before the listen backlog (50) fills.
            // Every connection accepted is open or was evicted.
            if (i % 25 == 24)
                QVERIFY(QTest::qWaitFor(
                    [&] {
                        return engine->evictedConnections() + quint64(engine->connectionCount()) >=
                               quint64(used.size() + i + 1);
                    },
                    10000));
        }
        QTRY_VERIFY2_WITH_TIMEOUT(
            engine->evictedConnections() >= 200,
            qPrintable(
                QStringLiteral("%1 evicted, %2 open").arg(engine->evictedConnections()).arg(engine->connectionCount())),
            20000);
        QVERIFY(engine->connectionCount() <= 100);
        for (int i = 0; i < 3; ++i) {
            Client fresh(engine->serverPort(), &m_cert);
            QVERIFY(fresh.ok());
            fresh.send(get("/fresh"));
            RawResponse r;
            QVERIFY(fresh.readResponse(r));
            QCOMPARE(r.status, 200);
        }
    }

    void heapIsGivenBackAfterManyConnectionsClose()
    {
        auto engine = startEngine(true, echo);
        QVERIFY(engine);
        std::vector<std::unique_ptr<Client>> clients;
        for (int i = 0; i < 300; ++i) {
            auto client = std::make_unique<Client>(engine->serverPort(), &m_cert);
            QVERIFY(client->ok());
            clients.push_back(std::move(client));
        }
        QCOMPARE(engine->heapTrims(), quint64(0));
        clients.clear();
        QTRY_COMPARE_WITH_TIMEOUT(engine->connectionCount(), 0, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(engine->heapTrims(), quint64(1), 10000);
        // a few more closing do not trim again
        Client one(engine->serverPort(), &m_cert);
        QVERIFY(one.ok());
        one.socket()->abort();
        QTRY_COMPARE(engine->connectionCount(), 0);
        QTest::qWait(2500); // negative check: past the trim delay (kTrimDelayMs), still one trim
        QCOMPARE(engine->heapTrims(), quint64(1));
    }

    void writeBacklog()
    {
        // big answers to pipelined requests: parsing pauses while the output is backed up
        const QByteArray big(3 * 1024 * 1024 / 2, 'x');
        auto engine = startEngine(false, [&](const HttpRequest &request, const HttpResponder &responder) {
            HttpResponse r;
            r.setHeader("X-Path", request.path);
            r.body = big;
            responder.respond(r);
        });
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send(get("/1") + get("/2") + get("/3") + get("/4"));
        for (int i = 1; i <= 4; ++i) {
            RawResponse r;
            QVERIFY(client.readResponse(r, false, 20000));
            QCOMPARE(r.header("X-Path"), "/" + QByteArray::number(i));
            QCOMPARE(r.body.size(), big.size());
        }
    }

    void peerStopsReading()
    {
        HttpLimits limits;
        limits.requestTimeoutMs = 300;
        limits.idleTimeoutMs = 300;
        auto engine = startEngine(
            false,
            [](const HttpRequest &, const HttpResponder &responder) {
                HttpResponse r;
                r.body = QByteArray(32 * 1024 * 1024, 'y');
                responder.respond(r);
            },
            limits);
        QVERIFY(engine);
        QTcpSocket client;
        client.setReadBufferSize(64 * 1024); // and never read
        client.connectToHost(QHostAddress::LocalHost, engine->serverPort());
        QTRY_COMPARE(client.state(), QAbstractSocket::ConnectedState);
        client.write(get("/huge"));
        QTRY_COMPARE(engine->connectionCount(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(engine->connectionCount(), 0, 10000);
    }

    void lateRespondAfterDisconnect()
    {
        HttpResponder stored;
        int calls = 0;
        auto engine = startEngine(false, [&](const HttpRequest &, const HttpResponder &responder) {
            stored = responder;
            ++calls;
        });
        QVERIFY(engine);
        {
            Client client(engine->serverPort(), nullptr);
            QVERIFY(client.ok());
            client.send(get("/wait"));
            QTRY_COMPARE(calls, 1);
            QVERIFY(stored.isConnected());
            client.socket()->disconnectFromHost();
            QTRY_COMPARE(engine->connectionCount(), 0);
        }
        QVERIFY(!stored.isConnected());
        HttpResponse r;
        r.body = "too late";
        stored.respond(r); // must do nothing
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        stored.respond(r); // the connection object is deleted by now
        QVERIFY(!stored.isConnected());
        HttpResponder empty;
        empty.respond(r);
        QVERIFY(!empty.isConnected());

        // after the engine is gone too
        engine.reset();
        stored.respond(r);
    }

    void respondTwice()
    {
        HttpResponder stored;
        auto engine = startEngine(false, [&](const HttpRequest &request, const HttpResponder &responder) {
            HttpResponse r;
            r.body = request.path + "-first";
            responder.respond(r);
            r.body = request.path + "-second";
            responder.respond(r);
            stored = responder;
        });
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send(get("/1"));
        RawResponse r;
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.body, QByteArray("/1-first"));
        HttpResponse late;
        late.body = "late";
        stored.respond(late); // already answered
        client.send(get("/2"));
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.body, QByteArray("/2-first"));
        QVERIFY(!client.readResponse(r, false, 100));
        QVERIFY(client.buffer().isEmpty());
    }

    void errorWriterAnswersRefusals()
    {
        // The owner's error writer shapes every answer the engine gives itself; the engine keeps the
        // status and the framing (and closes after a refusal).
        QList<int> asked;
        auto engine = startEngine(false, [](const HttpRequest &, const HttpResponder &) { throw 1; });
        QVERIFY(engine);
        engine->setErrorWriter([&asked](int status) {
            asked.append(status);
            HttpResponse r;
            r.status = 299; // ignored: the engine sets the status
            r.headers.append(qMakePair(QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json")));
            r.body = "{\"status\":" + QByteArray::number(status) + "}";
            return r;
        });
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send(get("/throws") + "BROKEN\r\n\r\n");
        RawResponse r;
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.status, 500);
        QCOMPARE(r.body, QByteArray(R"({"status":500})"));
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.body, QByteArray(R"({"status":400})"));
        QCOMPARE(r.header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(r.header("Connection"), QByteArray("close"));
        QVERIFY(client.waitClosed());
        QCOMPARE(asked, (QList<int>{500, 400}));
    }

    void handlerThrows()
    {
        auto engine = startEngine(false, [](const HttpRequest &request, const HttpResponder &) {
            if (request.path == "/std")
                throw std::runtime_error("boom");
            throw 42;
        });
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send(get("/std") + get("/other"));
        RawResponse r;
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.status, 500);
        QCOMPARE(r.body, QByteArray("500 Internal Server Error\n"));
        QCOMPARE(r.header("Content-Type"), QByteArray("text/plain; charset=utf-8"));
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.status, 500);
        QVERIFY(!client.isClosed());
    }

    void shutdownFinishesInFlight_data() { addTlsRows(); }
    void shutdownFinishesInFlight()
    {
        QFETCH(bool, tls);
        int calls = 0;
        auto engine = startEngine(tls, [&](const HttpRequest &request, const HttpResponder &responder) {
            ++calls;
            QTimer::singleShot(200, [request, responder] { echo(request, responder); });
        });
        QVERIFY(engine);
        auto busy = connectTo(*engine, tls);
        auto idle = connectTo(*engine, tls);
        QVERIFY(busy->ok());
        QVERIFY(idle->ok());
        busy->send(get("/slow"));
        QTRY_COMPARE(calls, 1);
        QTRY_COMPARE(engine->connectionCount(), 2);
        QElapsedTimer timer;
        timer.start();
        QVERIFY(engine->shutdown(5000));
        QVERIFY(timer.elapsed() < 5000);
        QVERIFY(!engine->isListening());
        QCOMPARE(engine->connectionCount(), 0);
        RawResponse r;
        QVERIFY(busy->readResponse(r));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("GET /slow  "));
        QCOMPARE(r.header("Connection"), QByteArray("close"));
        QVERIFY(busy->waitClosed());
        QVERIFY(idle->waitClosed());
        QVERIFY(idle->buffer().isEmpty());
        // nothing accepted any more
        auto late = connectTo(*engine, tls);
        QVERIFY(!late->ok() || late->waitClosed());
    }

    void shutdownTimesOut()
    {
        HttpResponder stored;
        auto engine = startEngine(false, [&](const HttpRequest &, const HttpResponder &responder) {
            stored = responder; // never answered in time
        });
        QVERIFY(engine);
        Client client(engine->serverPort(), nullptr);
        QVERIFY(client.ok());
        client.send(get("/never"));
        QTRY_VERIFY(stored.isConnected());
        QElapsedTimer timer;
        timer.start();
        QVERIFY(!engine->shutdown(200));
        QVERIFY(timer.elapsed() >= 150);
        QCOMPARE(engine->connectionCount(), 1);
        // still answered and then closed
        HttpResponse late;
        late.body = "late";
        stored.respond(late);
        RawResponse r;
        QVERIFY(client.readResponse(r));
        QCOMPARE(r.body, QByteArray("late"));
        QCOMPARE(r.header("Connection"), QByteArray("close"));
        QVERIFY(client.waitClosed());
        QTRY_COMPARE(engine->connectionCount(), 0);
    }

    void engineDestroyedWithOpenConnections()
    {
        HttpResponder stored;
        auto engine =
            startEngine(true, [&](const HttpRequest &, const HttpResponder &responder) { stored = responder; });
        QVERIFY(engine);
        auto client = connectTo(*engine, true);
        QVERIFY(client->ok());
        client->send(get("/x"));
        QTRY_VERIFY(stored.isConnected());
        engine.reset();
        QVERIFY(!stored.isConnected());
        stored.respond(HttpResponse());
        QVERIFY(client->waitClosed());
    }

    void networkAccessManagerHttps()
    {
        auto engine = startEngine(true, echo);
        QVERIFY(engine);
        QNetworkAccessManager nam;
        QNetworkRequest request(QUrl(QStringLiteral("https://127.0.0.1:%1/nam?q=1").arg(engine->serverPort())));
        request.setPeerVerifyName(QStringLiteral("localhost"));
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.addCaCertificate(m_cert);
        request.setSslConfiguration(config);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("text/plain"));
        request.setRawHeader("X-Test", "nam");
        std::unique_ptr<QNetworkReply> reply(nam.post(request, QByteArray("payload")));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        QVERIFY(finished.wait(10000));
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QCOMPARE(reply->readAll(), QByteArray("POST /nam q=1 payload"));
        QCOMPARE(reply->rawHeader("X-Echo"), QByteArray("nam"));

        // a second request reuses the kept-alive connection
        std::unique_ptr<QNetworkReply> second(nam.get(request));
        QSignalSpy secondFinished(second.get(), &QNetworkReply::finished);
        QVERIFY(secondFinished.wait(10000));
        QCOMPARE(second->error(), QNetworkReply::NoError);
        QCOMPARE(second->readAll(), QByteArray("GET /nam q=1 "));
        QCOMPARE(engine->connectionCount(), 1);
        nam.clearConnectionCache();
    }
};

QTEST_GUILESS_MAIN(TestHttpEngine)
#include "test_httpengine.moc"
