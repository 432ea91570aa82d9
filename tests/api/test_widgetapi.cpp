// The web widget over real HTTPS on loopback: its files (types, caching, CSP, nosniff, ETag) and the
// live push GET /widget/v1/events (server-sent events): token in the query or the header, agent
// replies and conversation status live, Last-Event-ID resume, keep-alives past the idle timeout,
// the per-visitor stream limit, and the end of streams when the server stops.
#include "server/controllers/widgetevents.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslConfiguration>
#include <QtTest>

#include <memory>

namespace {

struct SseEvent
{
    QString id;
    QString event;
    QJsonObject data;
};

// An EventSource-like client on QNetworkAccessManager: collects events and comments as they come.
class SseClient
{
public:
    SseClient(QNetworkAccessManager &nam, const QUrl &url, const QSslCertificate &ca,
              const QList<QPair<QByteArray, QByteArray>> &headers = {})
    {
        QNetworkRequest request(url);
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.addCaCertificate(ca);
        request.setSslConfiguration(ssl);
        request.setRawHeader("Accept", "text/event-stream");
        for (const auto &h : headers)
            request.setRawHeader(h.first, h.second);
        m_reply.reset(nam.get(request));
        QObject::connect(m_reply.get(), &QIODevice::readyRead, [this] { read(); });
    }
    ~SseClient()
    {
        if (m_reply && !m_reply->isFinished())
            m_reply->abort();
    }

    QNetworkReply *reply() const { return m_reply.get(); }
    int status() const { return m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(); }
    bool connected() const { return m_comments.contains(QStringLiteral("connected")); }
    const QList<SseEvent> &events() const { return m_events; }
    const QStringList &comments() const { return m_comments; }
    QByteArray rest() { return m_buffer + m_reply->readAll(); }

    // The first event of this type whose data has this id; nullopt after timeoutMs.
    std::optional<SseEvent> waitFor(const QString &type, const QString &messageId, int timeoutMs = 5000)
    {
        std::optional<SseEvent> found;
        auto look = [&] {
            for (const SseEvent &e : m_events) {
                if (e.event == type &&
                    (messageId.isEmpty() || e.data.value(QLatin1String("id")).toString() == messageId)) {
                    found = e;
                    return true;
                }
            }
            return false;
        };
        (void)QTest::qWaitFor(look, timeoutMs);
        return found;
    }

private:
    void read()
    {
        m_buffer += m_reply->readAll();
        qsizetype end;
        while ((end = m_buffer.indexOf("\n\n")) >= 0) {
            const QByteArray block = m_buffer.left(end);
            m_buffer.remove(0, end + 2);
            SseEvent e;
            bool any = false;
            for (const QByteArray &line : block.split('\n')) {
                if (line.startsWith(':')) {
                    m_comments.append(QString::fromUtf8(line.mid(1).trimmed()));
                } else if (line.startsWith("id: ")) {
                    e.id = QString::fromUtf8(line.mid(4));
                } else if (line.startsWith("event: ")) {
                    e.event = QString::fromUtf8(line.mid(7));
                    any = true;
                } else if (line.startsWith("data: ")) {
                    e.data = QJsonDocument::fromJson(line.mid(6)).object();
                }
            }
            if (any)
                m_events.append(e);
        }
    }

    std::unique_ptr<QNetworkReply> m_reply;
    QByteArray m_buffer;
    QList<SseEvent> m_events;
    QStringList m_comments;
};

} // namespace

class TestWidgetApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ApiFixture> m_api;
    std::unique_ptr<ApiClient> m_agent;
    QNetworkAccessManager m_nam;

    std::unique_ptr<ApiClient> client(const QString &token = {})
    {
        auto c = std::make_unique<ApiClient>(m_api->server.baseUrl(), m_api->server.certificate());
        if (!token.isEmpty())
            c->setToken(token);
        return c;
    }

    QJsonObject visitor()
    {
        const HttpResult r = client()->post("/widget/v1/visitors", {{"name", "Ayşe"}});
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data();
    }

    std::unique_ptr<SseClient> events(const QString &token, const QList<QPair<QByteArray, QByteArray>> &headers = {})
    {
        QUrl url(m_api->server.baseUrl() + "/widget/v1/events");
        if (!token.isEmpty())
            url.setQuery("token=" + QUrl::toPercentEncoding(token));
        return std::make_unique<SseClient>(m_nam, url, m_api->server.certificate(), headers);
    }

    QString reply(const QString &conversationId, const QString &text)
    {
        const HttpResult r =
            m_agent->post("/api/v1/conversations/" + conversationId + "/messages", {{"type", "text"}, {"text", text}});
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value("id").toString();
    }

    WidgetStreams &streams() { return m_api->server.server().shared().widget.streams; }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_api = std::make_unique<ApiFixture>(ApiFixture::Client::None);
        m_agent = client(m_api->server.createApiKey());
        m_nam.clearConnectionCache();
    }

    void cleanup()
    {
        m_agent.reset();
        m_api.reset();
    }

    void servesWidgetFiles_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("cache");
        QTest::addColumn<bool>("page");
        QTest::newRow("page") << "/widget"
                              << "text/html; charset=utf-8"
                              << "no-cache" << true;
        QTest::newRow("embed") << "/widget/embed.js"
                               << "text/javascript; charset=utf-8"
                               << "public, max-age=300" << false;
        QTest::newRow("script") << "/widget/widget.js"
                                << "text/javascript; charset=utf-8"
                                << "public, max-age=300" << false;
        QTest::newRow("style") << "/widget/widget.css"
                               << "text/css; charset=utf-8"
                               << "public, max-age=300" << false;
    }

    void servesWidgetFiles()
    {
        QFETCH(QString, path);
        QFETCH(QString, type);
        QFETCH(QString, cache);
        QFETCH(bool, page);
        HttpResult r = client()->get(path);
        QCOMPARE(r.status, 200);
        QCOMPARE(QString::fromLatin1(r.header("Content-Type")), type);
        QCOMPARE(QString::fromLatin1(r.header("Cache-Control")), cache);
        QCOMPARE(r.header("X-Content-Type-Options"), QByteArray("nosniff"));
        QVERIFY(!r.body.isEmpty());
        const QByteArray csp = r.header("Content-Security-Policy");
        if (page) {
            QVERIFY(csp.contains("default-src 'none'"));
            QVERIFY(csp.contains("script-src 'self'"));
            QVERIFY(csp.contains("connect-src 'self'"));
            QVERIFY(csp.contains("frame-ancestors *"));
            QVERIFY(!csp.contains("unsafe-inline"));
        } else {
            QVERIFY(csp.isEmpty());
        }
        // self-contained: no CDN, no other origin
        if (page)
            QVERIFY(!r.body.contains("http://") && !r.body.contains("https://"));

        const QByteArray etag = r.header("ETag");
        QVERIFY(etag.startsWith('"') && etag.endsWith('"'));
        r = client()->call("GET", path, {}, {{"If-None-Match", etag}});
        QCOMPARE(r.status, 304);
        QVERIFY(r.body.isEmpty());
        QCOMPARE(r.header("ETag"), etag);
    }

    void widgetScriptNeverSetsHtmlFromText()
    {
        const HttpResult r = client()->get("/widget/widget.js");
        QCOMPARE(r.status, 200);
        QVERIFY(!r.body.contains("innerHTML"));
        QVERIFY(!r.body.contains("insertAdjacentHTML"));
        QVERIFY(!r.body.contains("document.write"));
        QVERIFY(r.body.contains("textContent"));
        const HttpResult page = client()->get("/widget");
        QVERIFY(!page.body.contains("<script>")); // no inline script (the CSP would block it)
        QVERIFY(!page.body.contains(" on"
                                    "click="));
    }

    void eventsNeedAVisitorToken()
    {
        const QString apiKey = m_api->server.createApiKey();
        for (const QString &token : {QString(), QStringLiteral("wvt_forged"), apiKey}) {
            auto sse = events(token);
            QVERIFY(QTest::qWaitFor([&] { return sse->reply()->isFinished(); }, 5000));
            QCOMPARE(sse->status(), 401);
            const QJsonObject body = QJsonDocument::fromJson(sse->rest()).object();
            QCOMPARE(body.value("success").toBool(true), false);
            QCOMPARE(body.value("error").toObject().value("code").toString(), QString("UNAUTHORIZED"));
        }
    }

    void streamsRepliesAndStatusLive()
    {
        const QJsonObject v = visitor();
        const QString token = v.value("token").toString();
        const QString conv = v.value("conversationId").toString();
        auto sse = events(token);
        QVERIFY(QTest::qWaitFor([&] { return sse->connected(); }, 5000));
        QCOMPARE(sse->status(), 200);
        QVERIFY(sse->reply()->rawHeader("Content-Type").startsWith("text/event-stream"));
        QCOMPARE(sse->reply()->rawHeader("Cache-Control"), QByteArray("no-store"));

        // the visitor's own message (another tab would show it too)
        const HttpResult posted = client(token)->post("/widget/v1/messages", {{"text", "Fiyat nedir?"}});
        QCOMPARE(posted.status, 201);
        const QString incomingId = posted.data().value("id").toString();
        std::optional<SseEvent> e = sse->waitFor("message", incomingId);
        QVERIFY(e);
        QCOMPARE(e->id, incomingId);
        QCOMPARE(e->data.value("direction").toString(), QString("incoming"));

        // the agent answers over the API: the visitor sees it at once, and it counts as delivered
        const QString replyId = reply(conv, "100 TL <b>only</b>");
        QVERIFY(!replyId.isEmpty());
        e = sse->waitFor("message", replyId);
        QVERIFY(e);
        QCOMPARE(e->id, replyId);
        QCOMPARE(e->data.value("text").toString(), QString("100 TL <b>only</b>"));
        QCOMPARE(e->data.value("direction").toString(), QString("outgoing"));
        QCOMPARE(e->data.value("status").toString(), QString("delivered"));
        QVERIFY(!e->data.contains("contactId"));
        const HttpResult status = m_agent->get("/api/v1/messages/" + replyId + "/status");
        QCOMPARE(status.status, 200);
        QCOMPARE(status.data().value("status").toString(), QString("delivered"));

        // the conversation closes: the page learns it
        QCOMPARE(m_agent->post("/api/v1/conversations/" + conv + "/close", {}).status, 200);
        e = sse->waitFor("conversation", {});
        QVERIFY(e);
        QCOMPARE(e->data.value("status").toString(), QString("closed"));

        // another visitor's stream hears nothing of this conversation
        const QJsonObject other = visitor();
        auto otherSse = events(other.value("token").toString());
        QVERIFY(QTest::qWaitFor([&] { return otherSse->connected(); }, 5000));
        const QString second = reply(conv, "still there?");
        QVERIFY(sse->waitFor("message", second));
        QTest::qWait(200); // negative check: nothing comes on the other stream
        QVERIFY(otherSse->events().isEmpty());
    }

    void bearerHeaderWorksToo()
    {
        const QJsonObject v = visitor();
        auto sse = events({}, {{"Authorization", "Bearer " + v.value("token").toString().toUtf8()}});
        QVERIFY(QTest::qWaitFor([&] { return sse->connected(); }, 5000));
        const QString id = reply(v.value("conversationId").toString(), "hello");
        QVERIFY(sse->waitFor("message", id));
    }

    void lastEventIdResumesAfterThatMessage()
    {
        const QJsonObject v = visitor();
        const QString conv = v.value("conversationId").toString();
        const QString first = reply(conv, "one");
        const QString second = reply(conv, "two");
        const QString third = reply(conv, "three");
        auto sse = events(v.value("token").toString(), {{"Last-Event-ID", first.toUtf8()}});
        QVERIFY(sse->waitFor("message", third));
        QCOMPARE(sse->events().size(), 2);
        QCOMPARE(sse->events().at(0).id, second);
        QCOMPARE(sse->events().at(1).id, third);
        QCOMPARE(sse->events().at(1).data.value("text").toString(), QString("three"));

        // an unknown id replays nothing and still streams
        auto fresh = events(v.value("token").toString(), {{"Last-Event-ID", "msg_unknown"}});
        QVERIFY(QTest::qWaitFor([&] { return fresh->connected(); }, 5000));
        QVERIFY(fresh->events().isEmpty());
        const QString fourth = reply(conv, "four");
        QVERIFY(fresh->waitFor("message", fourth));
    }

    void keepAlivesHoldTheStreamPastTheIdleTimeout()
    {
        streams().setKeepAliveMs(100);
        HttpLimits limits = m_api->server.server().engine().limits();
        limits.idleTimeoutMs = 400;
        m_api->server.server().engine().setLimits(limits);
        const QJsonObject v = visitor();
        auto sse = events(v.value("token").toString());
        QVERIFY(QTest::qWaitFor([&] { return sse->connected(); }, 5000));
        // Twelve keep-alives 100 ms apart: the stream lived three idle timeouts (400 ms) and more.
        QVERIFY(QTest::qWaitFor(
            [&] { return sse->comments().count(QStringLiteral("keep-alive")) >= 12 || sse->reply()->isFinished(); },
            10000));
        QVERIFY(!sse->reply()->isFinished());
        const QString id = reply(v.value("conversationId").toString(), "after a while");
        QVERIFY(sse->waitFor("message", id));
    }

    void streamsPerVisitorAreLimited()
    {
        const QJsonObject v = visitor();
        const QString token = v.value("token").toString();
        std::vector<std::unique_ptr<SseClient>> open;
        for (int i = 0; i < WidgetStreams::kMaxPerVisitor; ++i) {
            open.push_back(events(token));
            QVERIFY(QTest::qWaitFor([&] { return open.back()->connected(); }, 5000));
        }
        QCOMPARE(streams().open(), WidgetStreams::kMaxPerVisitor);
        auto refused = events(token);
        QVERIFY(QTest::qWaitFor([&] { return refused->reply()->isFinished(); }, 5000));
        QCOMPARE(refused->status(), 429);
        QCOMPARE(QJsonDocument::fromJson(refused->rest()).object().value("error").toObject().value("code").toString(),
                 QString("TOO_MANY_REQUESTS"));
        // another visitor is not affected
        auto other = events(visitor().value("token").toString());
        QVERIFY(QTest::qWaitFor([&] { return other->connected(); }, 5000));
        // a tab closes: its place is free again
        open.front().reset();
        QTRY_COMPARE_WITH_TIMEOUT(streams().open(), WidgetStreams::kMaxPerVisitor, 5000);
        auto again = events(token);
        QVERIFY(QTest::qWaitFor([&] { return again->connected(); }, 5000));
    }

    void stopEndsOpenStreams()
    {
        const QJsonObject v = visitor();
        auto sse = events(v.value("token").toString());
        QVERIFY(QTest::qWaitFor([&] { return sse->connected(); }, 5000));
        QCOMPARE(streams().open(), 1);
        m_api->server.server().stop(3000);
        QVERIFY(QTest::qWaitFor([&] { return sse->reply()->isFinished(); }, 5000));
        QCOMPARE(sse->reply()->error(), QNetworkReply::NoError); // a clean end of the body
        QTRY_COMPARE_WITH_TIMEOUT(streams().open(), 0, 5000);
    }

    void openApiDocumentsTheWidgetRoutes()
    {
        const HttpResult r = client()->get("/api/v1/openapi.json");
        QCOMPARE(r.status, 200);
        const QJsonObject paths = r.json.value("paths").toObject();
        const QJsonObject events = paths.value("/widget/v1/events").toObject().value("get").toObject();
        QVERIFY(events.value("responses")
                    .toObject()
                    .value("200")
                    .toObject()
                    .value("content")
                    .toObject()
                    .contains("text/event-stream"));
        QStringList params;
        for (const QJsonValue &p : events.value("parameters").toArray())
            params << p.toObject().value("name").toString();
        QVERIFY(params.contains("token"));
        QVERIFY(params.contains("lastEventId"));
        for (const char *path : {"/widget", "/widget/embed.js", "/widget/widget.js", "/widget/widget.css"})
            QVERIFY2(paths.contains(QLatin1String(path)), path);
    }
};

QTEST_GUILESS_MAIN(TestWidgetApi)
#include "test_widgetapi.moc"
