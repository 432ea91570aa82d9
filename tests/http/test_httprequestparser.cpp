// HttpRequestParser on its own: bytes in, requests and refusals out, with no socket. The engine's
// tests (test_httpengine.cpp) cover the same framing through a real connection.
#include "server/http/httprequestparser.h"

#include <QtTest>

namespace {

using Event = HttpRequestParser::Event;

// What a whole input turns into, written as text so that rows compare in one QCOMPARE:
// "GET /a q= h=2 b=0 ka" per request, "100" for a 100-continue, "E431" for a refusal, "more" when
// the parser waits for more at the end.
QStringList run(HttpRequestParser &parser, const QByteArray &input, qsizetype piece)
{
    QStringList events;
    for (qsizetype at = 0; at < input.size(); at += piece) {
        parser.append(input.mid(at, piece));
        for (int guard = 0; guard < 1000; ++guard) {
            const Event e = parser.next();
            if (e == Event::NeedMore)
                break;
            if (e == Event::Error) {
                events << QStringLiteral("E%1").arg(parser.errorStatus());
                return events;
            }
            if (e == Event::ContinueExpected) {
                events << QStringLiteral("100");
                continue;
            }
            const HttpRequest r = parser.takeRequest();
            events << QStringLiteral("%1 %2 q=%3 h=%4 b=%5 %6")
                          .arg(QString::fromLatin1(r.method), QString::fromLatin1(r.path), QString::fromLatin1(r.query))
                          .arg(r.headers.size())
                          .arg(QString::fromLatin1(r.body))
                          .arg(parser.keepAlive() ? QStringLiteral("ka") : QStringLiteral("close"));
        }
    }
    if (parser.inRequest())
        events << QStringLiteral("more");
    return events;
}

HttpLimits smallLimits()
{
    HttpLimits l;
    l.maxHeaderBytes = 256;
    l.maxHeaderCount = 4;
    l.maxBodyBytes = 16;
    return l;
}

} // namespace

class TestHttpRequestParser : public QObject
{
    Q_OBJECT

private slots:
    void framing_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QStringList>("expected");
        auto row = [](const char *name, const QByteArray &input, const QStringList &expected) {
            QTest::newRow(name) << input << expected;
        };
        row("get", "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", {"GET /a q= h=1 b= ka"});
        row("query", "GET /a?b=1&c HTTP/1.1\r\n\r\n", {"GET /a q=b=1&c h=0 b= ka"});
        row("absolute form", "GET http://h:1/p?x HTTP/1.1\r\n\r\n", {"GET /p q=x h=0 b= ka"});
        row("absolute form, no path", "GET http://h:1 HTTP/1.1\r\n\r\n", {"GET / q= h=0 b= ka"});
        row("bare LF", "GET / HTTP/1.1\nA: b\n\n", {"GET / q= h=1 b= ka"});
        row("leading empty lines", "\r\n\r\nGET / HTTP/1.1\r\n\r\n", {"GET / q= h=0 b= ka"});
        row("only empty lines", "\r\n\r\n", {});
        row("content-length body", "POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", {"POST /p q= h=1 b=hello ka"});
        row("chunked body",
            "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: v\r\n\r\n",
            {"POST /p q= h=1 b=abcde ka"});
        row("pipelined", "GET /1 HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\nConnection: close\r\n\r\n",
            {"GET /1 q= h=0 b= ka", "GET /2 q= h=1 b= close"});
        row("http/1.0 closes", "GET / HTTP/1.0\r\n\r\n", {"GET / q= h=0 b= close"});
        row("http/1.0 keep-alive", "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", {"GET / q= h=1 b= ka"});
        row("connection list", "GET / HTTP/1.1\r\nConnection: upgrade, close\r\n\r\n", {"GET / q= h=1 b= close"});
        row("expect continue", "PUT /u HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok",
            {"100", "PUT /u q= h=2 b=ok ka"});
        row("expect continue, no body", "PUT /u HTTP/1.1\r\nExpect: 100-continue\r\n\r\n", {"PUT /u q= h=1 b= ka"});
        row("partial head", "GET /a HTTP/1.1\r\nHo", {"more"});
        row("partial body", "POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nabc", {"more"});
        row("no method", " / HTTP/1.1\r\n\r\n", {"E400"});
        row("no target", "GET  HTTP/1.1\r\n\r\n", {"E400"});
        row("control char in target", "GET /a\x01 HTTP/1.1\r\n\r\n", {"E400"});
        row("http/2", "GET / HTTP/2.0\r\n\r\n", {"E505"});
        row("bad version", "GET / HTTX/1.1\r\n\r\n", {"E400"});
        row("obs-fold", "GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n", {"E400"});
        row("no colon", "GET / HTTP/1.1\r\nAb\r\n\r\n", {"E400"});
        row("bad field name", "GET / HTTP/1.1\r\nA b: c\r\n\r\n", {"E400"});
        row("control char in value", QByteArray("GET / HTTP/1.1\r\nA: b\x00c\r\n\r\n", 26), {"E400"});
        row("bad content-length", "POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", {"E400"});
        row("two content-lengths", "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", {"E400"});
        row("same content-length twice", "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx",
            {"POST / q= h=2 b=x ka"});
        row("smuggling guard", "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", {"E400"});
        row("gzip coding", "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", {"E501"});
        row("bad chunk size", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", {"E400"});
        row("chunk without CRLF", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\naX", {"E400"});
        row("bad trailer", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nnot a field\r\n\r\n", {"E400"});
        row("error after a request", "GET /1 HTTP/1.1\r\n\r\nBROKEN\r\n\r\nGET /2 HTTP/1.1\r\n\r\n",
            {"GET /1 q= h=0 b= ka", "E400"});
    }
    // The same bytes give the same requests however they are cut: whole, in pieces of 7, byte by byte.
    void framing()
    {
        QFETCH(QByteArray, input);
        QFETCH(QStringList, expected);
        const HttpLimits limits;
        for (qsizetype piece : {input.size() + 1, qsizetype(7), qsizetype(1)}) {
            HttpRequestParser parser(limits);
            QCOMPARE(run(parser, input, std::max<qsizetype>(piece, 1)), expected);
        }
    }

    void limits_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<qint64>("stillComing");
        QTest::newRow("body at the limit")
            << QByteArray("POST / HTTP/1.1\r\nContent-Length: 16\r\n\r\n0123456789abcdef")
            << QStringList{"POST / q= h=1 b=0123456789abcdef ka"} << qint64(0);
        QTest::newRow("content-length over")
            << QByteArray("POST / HTTP/1.1\r\nContent-Length: 17\r\n\r\nabc") << QStringList{"E413"} << qint64(14);
        QTest::newRow("content-length over, expect continue")
            << QByteArray("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 17\r\n\r\n")
            << QStringList{"E413"} << qint64(0);
        QTest::newRow("huge content-length")
            << QByteArray("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n") << QStringList{"E413"}
            << (qint64(1) << 60);
        QTest::newRow("chunks over")
            << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n0123456789abcdef\r\n1\r\n")
            << QStringList{"E413"} << qint64(0);
        QTest::newRow("huge chunk")
            << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n")
            << QStringList{"E413"} << qint64(0);
        QTest::newRow("fields at the limit") << QByteArray("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n")
                                             << QStringList{"GET / q= h=4 b= ka"} << qint64(0);
        QTest::newRow("too many fields") << QByteArray("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\n")
                                         << QStringList{"E431"} << qint64(0);
        QTest::newRow("head too large") << (QByteArray("GET / HTTP/1.1\r\nA: ") + QByteArray(300, 'a') + "\r\n\r\n")
                                        << QStringList{"E431"} << qint64(0);
        QTest::newRow("head too large, unfinished")
            << (QByteArray("GET / HTTP/1.1\r\nA: ") + QByteArray(300, 'a')) << QStringList{"E431"} << qint64(0);
    }
    void limits()
    {
        QFETCH(QByteArray, input);
        QFETCH(QStringList, expected);
        QFETCH(qint64, stillComing);
        const HttpLimits limits = smallLimits();
        for (qsizetype piece : {input.size() + 1, qsizetype(1)}) {
            HttpRequestParser parser(limits);
            QCOMPARE(run(parser, input, piece), expected);
            if (piece > input.size())
                QCOMPARE(parser.bodyStillComing(), stillComing);
        }
    }

    void limitsAreReadAtEachCheck()
    {
        // The engine may change its limits while connections are open: the parser reads them live.
        HttpLimits limits = smallLimits();
        HttpRequestParser parser(limits);
        QCOMPARE(run(parser, "POST / HTTP/1.1\r\nContent-Length: 20\r\n\r\n", 1000), QStringList{"E413"});
        limits.maxBodyBytes = 20;
        QCOMPARE(run(parser, "POST / HTTP/1.1\r\nContent-Length: 20\r\n\r\n01234567890123456789", 1000),
                 QStringList{"POST / q= h=1 b=01234567890123456789 ka"});
    }

    void resetDropsEverything()
    {
        const HttpLimits limits;
        HttpRequestParser parser(limits);
        parser.append(QByteArray("POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nabc"));
        QCOMPARE(parser.next(), Event::NeedMore);
        QVERIFY(parser.inRequest());
        parser.reset();
        QVERIFY(!parser.inRequest());
        QVERIFY(!parser.hasInput());
        QCOMPARE(run(parser, "GET /x HTTP/1.1\r\n\r\n", 1000), QStringList{"GET /x q= h=0 b= ka"});
    }

    void reserveAndCommit()
    {
        // How the connection reads from its socket: into the parser's own buffer, keeping what is unread.
        const HttpLimits limits;
        HttpRequestParser parser(limits);
        const QByteArray first = "GET /a HTTP/1.1\r\n\r\nGET /b HT";
        char *at = parser.reserve(1024);
        std::memcpy(at, first.constData(), size_t(first.size()));
        parser.commit(first.size());
        QCOMPARE(parser.next(), Event::Request);
        QCOMPARE(parser.takeRequest().path, QByteArray("/a"));
        QCOMPARE(parser.next(), Event::NeedMore);
        const QByteArray second = "TP/1.1\r\n\r\n";
        at = parser.reserve(64);
        std::memcpy(at, second.constData(), size_t(second.size()));
        parser.commit(second.size());
        QCOMPARE(parser.next(), Event::Request);
        QCOMPARE(parser.takeRequest().path, QByteArray("/b"));
        parser.reserve(64);
        parser.commit(-1); // a failed read adds nothing
        QVERIFY(!parser.hasInput());
    }
};

QTEST_GUILESS_MAIN(TestHttpRequestParser)
#include "test_httprequestparser.moc"
