// Streaming responses of the HTTP engine (HttpResponder::stream / HttpStream), with raw loopback
// clients: chunked framing, keep-alives past the idle timeout, the end by the server, by shutdown and
// by the client leaving, HTTP/1.0 and HEAD, and ordering behind pipelined answers.
#include "server/http/httpengine.h"

#include <QTcpSocket>
#include <QtTest>

#include <memory>

namespace {

struct Parsed
{
    bool headDone = false;
    int status = 0;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;    // decoded chunks (or raw bytes without chunking)
    bool ended = false; // the last chunk arrived

    QByteArray header(const QByteArray &name) const
    {
        for (const auto &h : headers) {
            if (h.first.compare(name, Qt::CaseInsensitive) == 0)
                return h.second;
        }
        return {};
    }
};

// A raw client of one streaming response.
class StreamClient
{
public:
    explicit StreamClient(quint16 port)
    {
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        m_ok = m_socket.waitForConnected(5000);
    }
    bool ok() const { return m_ok; }
    void send(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
    }
    QTcpSocket &socket() { return m_socket; }
    // Every byte received, undecoded.
    const QByteArray &everything() const { return m_everything; }
    bool closed() const { return m_socket.state() == QAbstractSocket::UnconnectedState; }

    // Reads what arrived and decodes it.
    const Parsed &poll()
    {
        const QByteArray bytes = m_socket.readAll();
        m_everything += bytes;
        m_raw += bytes;
        decode();
        return m_parsed;
    }
    bool waitFor(const std::function<bool(const Parsed &)> &condition, int timeoutMs = 5000)
    {
        (void)QTest::qWaitFor([&] { return condition(poll()) || closed(); }, timeoutMs);
        return condition(poll());
    }
    bool waitClosed(int timeoutMs = 5000)
    {
        (void)QTest::qWaitFor(
            [&] {
                poll();
                return closed();
            },
            timeoutMs);
        poll();
        return closed();
    }

private:
    void decode()
    {
        if (!m_parsed.headDone) {
            const qsizetype end = m_raw.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QList<QByteArray> lines = m_raw.left(end).split('\n');
            m_parsed.status = lines.value(0).mid(9, 3).toInt();
            for (int i = 1; i < lines.size(); ++i) {
                const QByteArray line = lines.at(i).trimmed();
                const qsizetype colon = line.indexOf(':');
                if (colon > 0)
                    m_parsed.headers.append({line.left(colon), line.mid(colon + 1).trimmed()});
            }
            m_parsed.headDone = true;
            m_chunked = m_parsed.header("Transfer-Encoding") == "chunked";
            m_raw.remove(0, end + 4);
        }
        if (!m_chunked) {
            m_parsed.body += m_raw;
            m_raw.clear();
            return;
        }
        while (!m_parsed.ended) {
            const qsizetype nl = m_raw.indexOf("\r\n");
            if (nl < 0)
                return;
            bool ok = false;
            const qsizetype size = m_raw.left(nl).toLongLong(&ok, 16);
            if (!ok)
                return;
            if (size == 0) {
                if (m_raw.size() < nl + 4)
                    return;
                m_parsed.ended = true;
                m_raw.remove(0, nl + 4);
                return;
            }
            if (m_raw.size() < nl + 2 + size + 2)
                return;
            m_parsed.body += m_raw.mid(nl + 2, size);
            m_raw.remove(0, nl + 2 + size + 2);
        }
    }

    QTcpSocket m_socket;
    bool m_ok = false;
    QByteArray m_raw;
    QByteArray m_everything;
    Parsed m_parsed;
    bool m_chunked = false;
};

} // namespace

class TestHttpStream final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void streamSendsHeadersThenChunks();
    void keepAlivesKeepAStreamOpenPastTheIdleTimeout();
    void aSilentStreamIsEndedByTheIdleTimeout();
    void endByTheServerEndsTheBodyAndCloses();
    void shutdownEndsOpenStreams();
    void clientLeavingCleansUp();
    void http10StreamIsFramedByClosing();
    void headGetsTheHeadersOnly();
    void writesBeforeTheHeadWaitBehindEarlierAnswers();
    void nonStreamingRequestsStillWork();

private:
    bool listen(const HttpLimits &limits = {});
    quint16 port() const { return m_engine->serverPort(); }

    std::unique_ptr<HttpEngine> m_engine;
    QList<HttpStream> m_streams;
    QList<HttpResponder> m_held; // /slow requests, answered by the test
    int m_closed = 0;
};

void TestHttpStream::init()
{
    m_engine = std::make_unique<HttpEngine>();
    m_streams.clear();
    m_held.clear();
    m_closed = 0;
    m_engine->setHandler([this](const HttpRequest &request, const HttpResponder &responder) {
        if (request.path == "/slow") {
            m_held.append(responder);
            return;
        }
        if (request.path != "/stream") {
            HttpResponse r;
            r.body = "plain";
            responder.respond(r);
            return;
        }
        HttpResponse head;
        head.setHeader("Content-Type", "text/event-stream");
        head.body = ": hello\n\n";
        m_streams.append(responder.stream(head, [this] { ++m_closed; }));
    });
}

void TestHttpStream::cleanup()
{
    m_streams.clear();
    m_held.clear();
    m_engine.reset();
}

bool TestHttpStream::listen(const HttpLimits &limits)
{
    m_engine->setLimits(limits);
    return m_engine->listen(QHostAddress::LocalHost, 0, std::nullopt);
}

void TestHttpStream::streamSendsHeadersThenChunks()
{
    QVERIFY(listen());
    StreamClient c(port());
    QVERIFY(c.ok());
    c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    QVERIFY(c.waitFor([](const Parsed &p) { return p.body == ": hello\n\n"; }));
    const Parsed &p = c.poll();
    QCOMPARE(p.status, 200);
    QCOMPARE(p.header("Transfer-Encoding"), QByteArray("chunked"));
    QCOMPARE(p.header("Content-Type"), QByteArray("text/event-stream"));
    QVERIFY(p.header("Content-Length").isEmpty());
    QCOMPARE(m_streams.size(), 1);
    QVERIFY(m_streams.first().isOpen());
    QVERIFY(m_streams.first().write("data: one\n\n"));
    QVERIFY(m_streams.first().write("data: two\n\n"));
    QVERIFY(c.waitFor([](const Parsed &p) { return p.body.endsWith("data: two\n\n"); }));
    QCOMPARE(c.poll().body, QByteArray(": hello\n\ndata: one\n\ndata: two\n\n"));
    QVERIFY(!c.poll().ended);
    QVERIFY(!c.closed());
}

void TestHttpStream::keepAlivesKeepAStreamOpenPastTheIdleTimeout()
{
    HttpLimits limits;
    limits.idleTimeoutMs = 300;
    QVERIFY(listen(limits));
    StreamClient c(port());
    QVERIFY(c.ok());
    c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_streams.size(), 1, 5000);
    QTimer keepAlive;
    int sent = 0;
    QObject::connect(&keepAlive, &QTimer::timeout, [&] {
        if (m_streams.first().write(": keep-alive\n\n"))
            ++sent;
    });
    keepAlive.start(80);
    QTest::qWait(1200); // four idle timeouts
    keepAlive.stop();
    QVERIFY(sent >= 8);
    QVERIFY(m_streams.first().isOpen());
    QVERIFY(!c.waitClosed(50));
    QCOMPARE(m_closed, 0);
    QVERIFY(m_streams.first().write("data: still here\n\n"));
    QVERIFY(c.waitFor([](const Parsed &p) { return p.body.endsWith("data: still here\n\n"); }));
}

void TestHttpStream::aSilentStreamIsEndedByTheIdleTimeout()
{
    HttpLimits limits;
    limits.idleTimeoutMs = 200;
    QVERIFY(listen(limits));
    StreamClient c(port());
    QVERIFY(c.ok());
    c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_streams.size(), 1, 5000);
    QVERIFY(c.waitClosed(3000));
    QVERIFY(c.poll().ended); // a clean end of the body, not a reset
    QTRY_COMPARE_WITH_TIMEOUT(m_closed, 1, 3000);
    QVERIFY(!m_streams.first().isOpen());
    QVERIFY(!m_streams.first().write("data: late\n\n"));
}

void TestHttpStream::endByTheServerEndsTheBodyAndCloses()
{
    QVERIFY(listen());
    StreamClient c(port());
    QVERIFY(c.ok());
    c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_streams.size(), 1, 5000);
    QVERIFY(m_streams.first().write("data: bye\n\n"));
    m_streams.first().end();
    QVERIFY(c.waitClosed());
    QVERIFY(c.poll().ended);
    QCOMPARE(c.poll().body, QByteArray(": hello\n\ndata: bye\n\n"));
    QTRY_COMPARE_WITH_TIMEOUT(m_closed, 1, 3000);
    QTRY_COMPARE_WITH_TIMEOUT(m_engine->connectionCount(), 0, 3000);
}

void TestHttpStream::shutdownEndsOpenStreams()
{
    QVERIFY(listen());
    StreamClient a(port());
    StreamClient b(port());
    QVERIFY(a.ok() && b.ok());
    a.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    b.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_streams.size(), 2, 5000);
    QVERIFY(m_engine->shutdown(3000));
    QCOMPARE(m_engine->connectionCount(), 0);
    QVERIFY(a.waitClosed());
    QVERIFY(b.waitClosed());
    QVERIFY(a.poll().ended);
    QVERIFY(b.poll().ended);
    QTRY_COMPARE_WITH_TIMEOUT(m_closed, 2, 3000);
}

void TestHttpStream::clientLeavingCleansUp()
{
    QVERIFY(listen());
    {
        StreamClient c(port());
        QVERIFY(c.ok());
        c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
        QVERIFY(c.waitFor([](const Parsed &p) { return p.headDone; }));
        QCOMPARE(m_engine->connectionCount(), 1);
        c.socket().abort();
    }
    QTRY_COMPARE_WITH_TIMEOUT(m_closed, 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(m_engine->connectionCount(), 0, 5000);
    QVERIFY(!m_streams.first().isOpen());
    QVERIFY(!m_streams.first().write("data: nobody\n\n")); // never a write to a gone socket
    m_streams.first().end();                               // harmless
}

void TestHttpStream::http10StreamIsFramedByClosing()
{
    QVERIFY(listen());
    StreamClient c(port());
    QVERIFY(c.ok());
    c.send("GET /stream HTTP/1.0\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_streams.size(), 1, 5000);
    QVERIFY(m_streams.first().write("data: x\n\n"));
    m_streams.first().end();
    QVERIFY(c.waitClosed());
    const Parsed &p = c.poll();
    QVERIFY(p.header("Transfer-Encoding").isEmpty());
    QCOMPARE(p.header("Connection"), QByteArray("close"));
    QCOMPARE(p.body, QByteArray(": hello\n\ndata: x\n\n"));
}

void TestHttpStream::headGetsTheHeadersOnly()
{
    QVERIFY(listen());
    StreamClient c(port());
    QVERIFY(c.ok());
    c.send("HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    QVERIFY(c.waitClosed());
    const Parsed &p = c.poll();
    QVERIFY(p.headDone);
    QCOMPARE(p.status, 200);
    QVERIFY(p.body.isEmpty());
    // not a byte after the head: no chunked end marker either (a HEAD answer has no body at all)
    QVERIFY2(c.everything().endsWith("\r\n\r\n"), c.everything().right(20).toHex().constData());
    QVERIFY(!c.everything().contains("0\r\n\r\n"));
    QTRY_COMPARE_WITH_TIMEOUT(m_closed, 1, 3000);
}

void TestHttpStream::writesBeforeTheHeadWaitBehindEarlierAnswers()
{
    QVERIFY(listen());
    StreamClient c(port());
    QVERIFY(c.ok());
    // pipelined: the stream's head may go out only after the slow answer
    c.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_streams.size(), 1, 5000);
    QCOMPARE(m_held.size(), 1);
    QVERIFY(m_streams.first().isOpen());
    QVERIFY(m_streams.first().write("data: early\n\n"));
    QTest::qWait(100); // negative check: nothing of the stream overtakes the slow answer
    QVERIFY(c.poll().body.isEmpty() && !c.poll().headDone);
    HttpResponse slow;
    slow.body = "slow";
    m_held.first().respond(slow);
    // the first response ("slow", Content-Length 4) arrives first; the stream behind it
    QVERIFY(c.waitFor([](const Parsed &p) { return p.body.contains("data: early"); }));
    const Parsed &p = c.poll();
    QCOMPARE(p.status, 200);
    QVERIFY(p.body.startsWith("slow")); // decoded without chunking: the first head had a length
    QVERIFY(p.body.contains("Transfer-Encoding: chunked"));
}

void TestHttpStream::nonStreamingRequestsStillWork()
{
    QVERIFY(listen());
    StreamClient c(port());
    QVERIFY(c.ok());
    c.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n");
    QVERIFY(c.waitFor([](const Parsed &p) { return p.body == "plain"; }));
    QCOMPARE(c.poll().header("Content-Length"), QByteArray("5"));
    QVERIFY(!c.closed());
}

QTEST_GUILESS_MAIN(TestHttpStream)
#include "test_httpstream.moc"
