// ProviderClient, the channel connectors' HTTP client, against a provider faked on loopback (the
// project's own HttpEngine): which base URLs it takes, the requests it builds (path, query, bearer,
// JSON and form bodies), what it reads from an answer, and that every request calls back exactly
// once (refused URL, no listener, a provider that never answers) or never after the client is gone.
#include "messaging/channels/providerclient.h"
#include "server/http/httpengine.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QtTest>

#include <optional>

namespace {
// A provider on 127.0.0.1: keeps every request and answers with `answer` (none when it returns
// nullopt: the request hangs until the client gives up).
class FakeProvider
{
public:
    FakeProvider()
    {
        m_engine.setHandler([this](const HttpRequest &request, const HttpResponder &responder) {
            requests.append(request);
            if (const std::optional<HttpResponse> r = answer(request))
                responder.respond(*r);
        });
        if (!m_engine.listen(QHostAddress::LocalHost, 0, std::nullopt))
            qFatal("fake provider cannot listen");
    }
    QString baseUrl() const { return QStringLiteral("http://127.0.0.1:%1/v1/").arg(m_engine.serverPort()); }

    std::function<std::optional<HttpResponse>(const HttpRequest &)> answer = [](const HttpRequest &) {
        HttpResponse r;
        r.setHeader("Content-Type", "application/json");
        r.setHeader("X-Request-Id", "req-1");
        r.body = R"({"ok":true,"result":{"id":7}})";
        return std::optional<HttpResponse>(r);
    };
    QList<HttpRequest> requests;

private:
    HttpEngine m_engine;
};

// Waits for the one callback of a request (bounded), and fails on a second.
class Waiter
{
public:
    ProviderClient::Callback callback()
    {
        return [this](const ProviderReply &r) {
            ++calls;
            reply = r;
        };
    }
    bool wait(int timeoutMs = 10000)
    {
        return QTest::qWaitFor([this] { return calls > 0; }, timeoutMs);
    }
    int calls = 0;
    ProviderReply reply;
};
} // namespace

class TestProviderClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void takesHttpsOrLoopbackHttp_data()
    {
        QTest::addColumn<QString>("base");
        QTest::addColumn<bool>("valid");
        QTest::newRow("https") << "https://graph.facebook.com/v19.0" << true;
        QTest::newRow("loopback http") << "http://127.0.0.1:8080" << true;
        QTest::newRow("loopback http, another address") << "http://127.0.0.2:8080" << true;
        QTest::newRow("localhost http") << "http://localhost:8080" << true;
        QTest::newRow("ipv6 loopback http") << "http://[::1]:8080" << true;
        QTest::newRow("plain http elsewhere") << "http://api.telegram.org" << false;
        QTest::newRow("a private address is not loopback") << "http://192.168.1.10" << false;
        QTest::newRow("another scheme") << "ftp://api.telegram.org" << false;
        QTest::newRow("no host") << "https://" << false;
        QTest::newRow("empty") << "" << false;
    }
    void takesHttpsOrLoopbackHttp()
    {
        QFETCH(QString, base);
        QFETCH(bool, valid);
        ProviderClient client(base, 5);
        QString why;
        QCOMPARE(client.isValid(&why), valid);
        QCOMPARE(why.isEmpty(), valid);
        if (valid)
            return;
        // Every kind of request then fails at once, without a network.
        Waiter get, json, form;
        client.get(client.request(QStringLiteral("/x")), get.callback());
        client.postJson(client.request(QStringLiteral("/x")), {}, json.callback());
        client.postForm(client.request(QStringLiteral("/x")), {}, form.callback());
        for (Waiter *w : {&get, &json, &form}) {
            QCOMPARE(w->calls, 1);
            QCOMPARE(w->reply.status, 0);
            QVERIFY(!w->reply.reached());
            QVERIFY2(w->reply.networkError.contains(QLatin1String("refused")), qPrintable(w->reply.networkError));
        }
    }

    void buildsRequestsUnderItsBaseUrl()
    {
        ProviderClient client(QStringLiteral("https://api.telegram.org/bot123:abc/"), 7);
        QCOMPARE(client.baseUrl(), QStringLiteral("https://api.telegram.org/bot123:abc"));
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("offset"), QStringLiteral("42"));
        QNetworkRequest r = client.request(QStringLiteral("/getUpdates"), query);
        QCOMPARE(r.url().toString(), QStringLiteral("https://api.telegram.org/bot123:abc/getUpdates?offset=42"));
        QCOMPARE(r.transferTimeout(), 7000);
        QCOMPARE(r.header(QNetworkRequest::UserAgentHeader).toString(), QStringLiteral("Liaison"));
        ProviderClient::setBearer(r, QStringLiteral("t0ken"));
        QCOMPARE(r.rawHeader("Authorization"), QByteArray("Bearer t0ken"));
        QCOMPARE(ProviderClient(QStringLiteral("https://x"), 0).request(QStringLiteral("/")).transferTimeout(), 1000);
    }

    void readsTheAnswer()
    {
        FakeProvider provider;
        ProviderClient client(provider.baseUrl(), 5);
        Waiter w;
        QNetworkRequest request = client.request(QStringLiteral("/messages"));
        ProviderClient::setBearer(request, QStringLiteral("secret-token"));
        client.postJson(request, {{"to", "905321112233"}, {"text", "Merhaba"}}, w.callback());
        QVERIFY(w.wait());
        QCOMPARE(w.reply.status, 200);
        QVERIFY(w.reply.reached());
        QCOMPARE(w.reply.networkError, QString());
        QCOMPARE(w.reply.json.value("result").toObject().value("id").toInt(), 7);
        QCOMPARE(w.reply.header("x-request-id"), QByteArray("req-1")); // any case
        QCOMPARE(w.reply.header("X-None"), QByteArray());

        QCOMPARE(provider.requests.size(), 1);
        const HttpRequest &sent = provider.requests.constFirst();
        QCOMPARE(sent.method, QByteArray("POST"));
        QCOMPARE(sent.path, QByteArray("/v1/messages"));
        QCOMPARE(sent.header("Authorization"), QByteArray("Bearer secret-token"));
        QCOMPARE(sent.header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(sent.body, QByteArray(R"({"text":"Merhaba","to":"905321112233"})"));
        QCOMPARE(sent.header("User-Agent"), QByteArray("Liaison"));
        QCOMPARE(w.calls, 1);
    }

    void sendsFormsAndQueries()
    {
        FakeProvider provider;
        ProviderClient client(provider.baseUrl(), 5);
        Waiter form, get;
        QUrlQuery fields;
        fields.addQueryItem(QStringLiteral("chat_id"), QStringLiteral("7001"));
        fields.addQueryItem(QStringLiteral("text"), QStringLiteral("Ayşe & Ali"));
        client.postForm(client.request(QStringLiteral("/sendMessage")), fields, form.callback());
        QVERIFY(form.wait());
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("fields"), QStringLiteral("name,id"));
        client.get(client.request(QStringLiteral("/me"), query), get.callback());
        QVERIFY(get.wait());
        QCOMPARE(provider.requests.size(), 2);
        QCOMPARE(provider.requests.at(0).header("Content-Type"), QByteArray("application/x-www-form-urlencoded"));
        QCOMPARE(QUrlQuery(QString::fromUtf8(provider.requests.at(0).body))
                     .queryItemValue(QStringLiteral("text"), QUrl::FullyDecoded),
                 QStringLiteral("Ayşe & Ali"));
        QCOMPARE(provider.requests.at(1).method, QByteArray("GET"));
        QCOMPARE(provider.requests.at(1).target, QByteArray("/v1/me?fields=name,id"));
    }

    void anErrorAnswerIsReadToo_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("json");
        QTest::newRow("a provider's refusal") << 400 << QByteArray(R"({"error":{"code":100}})") << true;
        QTest::newRow("rate limited") << 429 << QByteArray(R"({"ok":false,"parameters":{"retry_after":3}})") << true;
        QTest::newRow("a proxy's page") << 502 << QByteArray("<html>Bad Gateway</html>") << false;
        QTest::newRow("a JSON array is no object") << 200 << QByteArray("[1,2]") << false;
        QTest::newRow("a redirect is not followed") << 302 << QByteArray() << false;
    }
    void anErrorAnswerIsReadToo()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(bool, json);
        FakeProvider provider;
        provider.answer = [&](const HttpRequest &) {
            HttpResponse r;
            r.status = status;
            r.body = body;
            if (status == 302)
                r.setHeader("Location", "http://127.0.0.1:1/elsewhere");
            return std::optional<HttpResponse>(r);
        };
        ProviderClient client(provider.baseUrl(), 5);
        Waiter w;
        client.get(client.request(QStringLiteral("/x")), w.callback());
        QVERIFY(w.wait());
        QCOMPARE(w.reply.status, status);
        QCOMPARE(w.reply.body, body);
        QCOMPARE(!w.reply.json.isEmpty(), json);
        QCOMPARE(w.reply.networkError, QString());
        QCOMPARE(provider.requests.size(), 1); // nothing followed
    }

    void noListenerIsANetworkError()
    {
        QTcpServer probe; // a port that was free a moment ago, and is closed again
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();
        ProviderClient client(QStringLiteral("http://127.0.0.1:%1").arg(port), 5);
        Waiter w;
        client.get(client.request(QStringLiteral("/x")), w.callback());
        QVERIFY(w.wait());
        QCOMPARE(w.reply.status, 0);
        QVERIFY(!w.reply.reached());
        QVERIFY(!w.reply.networkError.isEmpty());
        QVERIFY(w.reply.networkError != QLatin1String("timed out"));
    }

    void aProviderThatNeverAnswersTimesOut()
    {
        FakeProvider provider;
        provider.answer = [](const HttpRequest &) { return std::optional<HttpResponse>(); };
        ProviderClient client(provider.baseUrl(), 1);
        Waiter w;
        client.get(client.request(QStringLiteral("/slow")), w.callback());
        QVERIFY(w.wait(15000));
        QCOMPARE(w.reply.status, 0);
        QCOMPARE(w.reply.networkError, QStringLiteral("timed out"));
        QCOMPARE(w.calls, 1);
    }

    void aClientGoneCallsNothingBack()
    {
        FakeProvider provider;
        provider.answer = [](const HttpRequest &) { return std::optional<HttpResponse>(); };
        auto client = std::make_unique<ProviderClient>(provider.baseUrl(), 30);
        Waiter w;
        client->get(client->request(QStringLiteral("/slow")), w.callback());
        QTRY_COMPARE(provider.requests.size(), 1); // the request is out
        client.reset();
        // Abandoned: its aborted reply reaches nobody (it would have, by now, as the event loop ran).
        QTest::qWait(200);
        QCOMPARE(w.calls, 0);
    }
};

QTEST_GUILESS_MAIN(TestProviderClient)
#include "test_providerclient.moc"
