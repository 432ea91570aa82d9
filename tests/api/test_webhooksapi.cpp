// Outgoing and incoming webhooks over real HTTPS on loopback: the API server, the dispatcher and a
// receiver that checks signatures, all in this thread.
#include "messaging/webhooks/webhookdispatcher.h"
#include "model/accounts/apikeyrepository.h"
#include "model/core/database.h"
#include "model/core/timeutil.h"
#include "model/webhooks/webhook.h"
#include "tests/support/testsupport.h"
#include "tests/support/webhookreceiver.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QtTest>

namespace {
const QString kSecret = QStringLiteral("test-secret-0123456789");

QJsonObject json(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object();
}
} // namespace

class TestWebhooksApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<WebhookReceiver> m_receiver;
    std::unique_ptr<WebhookDispatcher> m_dispatcher;
    std::unique_ptr<ApiClient> m_client;
    WebhookConfig m_config;

    void startServer()
    {
        m_server = std::make_unique<TestServer>(m_db->dir(), [this](ServerConfig &c) { c.webhooks = m_config; });
        m_client = std::make_unique<ApiClient>(m_server->baseUrl(), m_server->certificate());
        m_client->setToken(m_server->createApiKey());
    }

    void startDispatcher() { m_dispatcher = std::make_unique<WebhookDispatcher>(m_config, m_server->store()); }

    QString createWebhook(const QJsonArray &events, const QString &url = {})
    {
        const HttpResult r =
            m_client->post("/api/v1/webhooks",
                           {{"url", url.isEmpty() ? m_receiver->url() : url}, {"events", events}, {"secret", kSecret}});
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value("id").toString();
    }

    QString createContact(const QString &email)
    {
        const HttpResult r = m_client->post("/api/v1/contacts", {{"firstName", "Ada"}, {"email", email}});
        return r.data().value("id").toString();
    }

    QJsonArray logs(const QString &webhookId)
    {
        return m_client->get("/api/v1/webhooks/" + webhookId + "/logs?limit=100").json.value("data").toArray();
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
        m_receiver = std::make_unique<WebhookReceiver>(kSecret);
        m_config = WebhookConfig();
        // The receiver's certificate is trusted as a CA: TLS stays verified in the tests.
        m_config.caCertificates = {m_receiver->certificate()};
        m_config.allowedTargets = WebhookTargets::Local; // the receiver is on this machine
        m_config.pollIntervalMs = 50;
        m_config.retryDelays = {1, 1, 1, 1, 1};
        m_config.timeoutSeconds = 5;
        startServer();
    }

    void cleanup()
    {
        m_dispatcher.reset();
        m_client.reset();
        m_server.reset();
        m_receiver.reset();
        m_db.reset();
    }

    void rejectsBadSubscriptions_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("field");
        const QJsonArray events{"contact.created"};
        QTest::newRow("no url") << QJsonObject{{"events", events}} << 422 << "url";
        QTest::newRow("no events") << QJsonObject{{"url", "https://example.com/h"}} << 422 << "events";
        QTest::newRow("plain http") << QJsonObject{{"url", "http://example.com/h"}, {"events", events}} << 400 << "url";
        QTest::newRow("http loopback without setting")
            << QJsonObject{{"url", "http://127.0.0.1:9/h"}, {"events", events}} << 400 << "url";
        QTest::newRow("ftp") << QJsonObject{{"url", "ftp://example.com/h"}, {"events", events}} << 400 << "url";
        QTest::newRow("metadata address")
            << QJsonObject{{"url", "https://169.254.169.254/latest"}, {"events", events}} << 400 << "url";
        QTest::newRow("not a url") << QJsonObject{{"url", "hooks"}, {"events", events}} << 400 << "url";
        QTest::newRow("unknown event") << QJsonObject{{"url", "https://example.com/h"}, {"events", QJsonArray{"x.y"}}}
                                       << 400 << "events";
        QTest::newRow("events not array")
            << QJsonObject{{"url", "https://example.com/h"}, {"events", "contact.created"}} << 400 << "events";
        QTest::newRow("short secret") << QJsonObject{{"url", "https://example.com/h"},
                                                     {"events", events},
                                                     {"secret", "short"}}
                                      << 400 << "secret";
    }

    void rejectsBadSubscriptions()
    {
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QFETCH(QString, field);
        const HttpResult r = m_client->post("/api/v1/webhooks", body);
        QCOMPARE(r.status, status);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QVERIFY2(r.json.value("error").toObject().value("details").toObject().contains(field), r.body);
    }

    void generatesSecretOnceAndListsOnlyAHint()
    {
        const HttpResult r =
            m_client->post("/api/v1/webhooks", {{"url", "https://example.com/h"}, {"events", QJsonArray{"*"}}});
        QCOMPARE(r.status, 201);
        const QString secret = r.data().value("secret").toString();
        QVERIFY(secret.startsWith("whsec_"));
        QVERIFY(secret.size() >= 40);
        QCOMPARE(r.data().value("status").toString(), QString("active"));
        const HttpResult list = m_client->get("/api/v1/webhooks");
        QCOMPARE(list.status, 200);
        const QJsonObject item = list.json.value("data").toArray().at(0).toObject();
        QVERIFY(!item.contains("secret"));
        QCOMPARE(item.value("secretHint").toString(), QString("…") + secret.right(4));
        QCOMPARE(list.json.value("pagination").toObject().value("total").toInt(), 1);
        QVERIFY(!list.body.contains(secret.toUtf8()));
    }

    void updatesRotatesAndDeletes()
    {
        const QString id = createWebhook({"contact.created"});
        HttpResult r = m_client->put("/api/v1/webhooks/" + id,
                                     {{"events", QJsonArray{"deal.won", "deal.lost"}}, {"rotateSecret", true}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("events").toArray().size(), 2);
        QVERIFY(r.data().value("secret").toString().startsWith("whsec_"));
        r = m_client->put("/api/v1/webhooks/" + id, {{"active", false}});
        QCOMPARE(r.data().value("status").toString(), QString("disabled"));
        r = m_client->put("/api/v1/webhooks/" + id, {{"url", "http://example.com"}});
        QCOMPARE(r.status, 400);
        QCOMPARE(m_client->del("/api/v1/webhooks/" + id).status, 200);
        QCOMPARE(m_client->get("/api/v1/webhooks/" + id).status, 404);
        QCOMPARE(m_client->del("/api/v1/webhooks/" + id).status, 404);
    }

    void enforcesScopes()
    {
        m_client->setToken(ApiKeyRepository(testStore()).create("reader", {"webhooks:read"}).secret);
        QCOMPARE(m_client->get("/api/v1/webhooks").status, 200);
        QCOMPARE(
            m_client->post("/api/v1/webhooks", {{"url", "https://example.com"}, {"events", QJsonArray{"*"}}}).status,
            403);
        m_client->setToken(ApiKeyRepository(testStore()).create("contacts", {"contacts:*"}).secret);
        QCOMPARE(m_client->get("/api/v1/webhooks").status, 403);
        m_client->setToken({});
        QCOMPARE(m_client->get("/api/v1/webhooks").status, 401);
    }

    void contactEventsReachTheReceiverSigned()
    {
        const QString id = createWebhook({"contact.created", "contact.updated", "contact.deleted"});
        startDispatcher();
        const QString contactId = createContact("ada@example.com");
        QCOMPARE(m_client->put("/api/v1/contacts/" + contactId, {{"company", "Analytical"}}).status, 200);
        QCOMPARE(m_client->del("/api/v1/contacts/" + contactId).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 3, 10000);
        const QStringList expected{"contact.created", "contact.updated", "contact.deleted"};
        QSet<QString> eventIds;
        for (int i = 0; i < 3; ++i) {
            const WebhookReceiver::Request &r = m_receiver->requests.at(i);
            QCOMPARE(r.method, QByteArray("POST"));
            QVERIFY2(r.signatureOk, r.header("x-service-signature"));
            QCOMPARE(r.header("content-type"), QByteArray("application/json"));
            QCOMPARE(r.header("x-service-event"), expected.at(i).toUtf8());
            QVERIFY(r.header("x-service-delivery").startsWith("whd_"));
            QVERIFY(r.header("x-service-timestamp").endsWith("Z"));
            const QJsonObject envelope = json(r.body);
            QVERIFY(envelope.value("id").toString().startsWith("evt_"));
            eventIds.insert(envelope.value("id").toString());
            QCOMPARE(envelope.value("event").toString(), expected.at(i));
            QVERIFY(TimeUtil::parse(envelope.value("timestamp").toString()).has_value());
            QCOMPARE(envelope.value("data").toObject().value("contactId").toString(), contactId);
        }
        QCOMPARE(eventIds.size(), 3);
        QCOMPARE(json(m_receiver->requests.at(1).body).value("data").toObject().value("changedFields").toArray(),
                 QJsonArray{"company"});
        // The signature covers the exact bytes: one byte changed, and it no longer matches.
        QByteArray tampered = m_receiver->requests.at(0).body;
        tampered.replace("Ada", "Adb");
        QVERIFY(!WebhookRules::verifySignature(kSecret, tampered,
                                               m_receiver->requests.at(0).header("x-service-signature")));
        QTRY_COMPARE(logs(id).size(), 3);
        const QJsonObject log = logs(id).at(0).toObject();
        QCOMPARE(log.value("statusCode").toInt(), 200);
        QCOMPARE(log.value("success").toBool(), true);
        QCOMPARE(log.value("attempt").toInt(), 1);
        QCOMPARE(log.value("event").toString(), QString("contact.deleted"));
        QCOMPARE(log.value("deliveryId").toString().toUtf8(), m_receiver->requests.at(2).header("x-service-delivery"));
        QVERIFY(log.value("latencyMs").toInt() >= 0);
        QVERIFY(log.value("responseExcerpt").toString().contains("ok"));
    }

    void deliversOnlySubscribedEvents()
    {
        const QString only = createWebhook({"contact.deleted"});
        WebhookReceiver all(kSecret);
        m_config.caCertificates << all.certificate();
        const QString every = createWebhook({"*"}, all.url());
        startDispatcher();
        const QString contactId = createContact("b@example.com");
        m_client->del("/api/v1/contacts/" + contactId);
        QTRY_COMPARE_WITH_TIMEOUT(all.requests.size(), 2, 10000);
        QTRY_COMPARE(m_receiver->requests.size(), 1);
        QCOMPARE(m_receiver->requests.at(0).header("x-service-event"), QByteArray("contact.deleted"));
        QCOMPARE(logs(only).size(), 1);
        QCOMPARE(logs(every).size(), 2);
    }

    void retriesOnScheduleThenDisables()
    {
        m_config.retryDelays = {1, 2, 1, 1, 1};
        for (int i = 0; i < 10; ++i)
            m_receiver->statuses() << 500;
        const QString id = createWebhook({"contact.created"});
        startDispatcher();
        createContact("c@example.com");
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 1, 5000);
        createContact("d@example.com"); // queued behind the failing one: order per subscription
        QTRY_COMPARE_WITH_TIMEOUT(m_client->get("/api/v1/webhooks/" + id).data().value("status").toString(),
                                  QString("disabled"), 20000);
        // Six requests in all, all of the first event; the second never went out.
        QCOMPARE(m_receiver->requests.size(), 6);
        const QByteArray first = json(m_receiver->requests.at(0).body).value("id").toString().toUtf8();
        for (const WebhookReceiver::Request &r : std::as_const(m_receiver->requests))
            QCOMPARE(json(r.body).value("id").toString().toUtf8(), first);
        // No retry comes before its time (1 s, then 2 s); how late one comes depends on the machine's
        // load, so the schedule itself is checked on the logged attempts below.
        const qint64 gap1 = m_receiver->requests.at(1).receivedMs - m_receiver->requests.at(0).receivedMs;
        const qint64 gap2 = m_receiver->requests.at(2).receivedMs - m_receiver->requests.at(1).receivedMs;
        QVERIFY2(gap1 >= 900, qPrintable(QString::number(gap1)));
        QVERIFY2(gap2 >= 1900, qPrintable(QString::number(gap2)));
        const QJsonObject webhook = m_client->get("/api/v1/webhooks/" + id).data();
        QCOMPARE(webhook.value("failureCount").toInt(), 6);
        QVERIFY(!webhook.value("disabledReason").toString().isEmpty());
        const QJsonArray entries = logs(id);
        QCOMPARE(entries.size(), 6);
        for (int i = 0; i < 6; ++i) {
            const QJsonObject e = entries.at(5 - i).toObject();
            QCOMPARE(e.value("attempt").toInt(), i + 1);
            QCOMPARE(e.value("statusCode").toInt(), 500);
            QCOMPARE(e.value("nextRetryAt").isNull(), i == 5);
            if (i < 5) { // each retry scheduled its configured delay after the attempt ended
                const QDateTime finished = QDateTime::fromString(e.value("finishedAt").toString(), Qt::ISODateWithMs);
                const QDateTime next = QDateTime::fromString(e.value("nextRetryAt").toString(), Qt::ISODateWithMs);
                QVERIFY(finished.isValid() && next.isValid());
                QCOMPARE(finished.msecsTo(next), qint64(m_config.retryDelays.at(i)) * 1000);
            }
        }
        // The queued second event stays logged as failed.
        QSqlQuery q =
            Database::exec("SELECT state, attempts FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq", {id});
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QString("failed"));
        QCOMPARE(q.value(1).toInt(), 6);
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QString("failed"));
        QCOMPARE(q.value(1).toInt(), 0);
    }

    void goneDisablesAtOnce()
    {
        m_receiver->statuses() << 410;
        const QString id = createWebhook({"contact.created"});
        startDispatcher();
        createContact("gone@example.com");
        QTRY_COMPARE_WITH_TIMEOUT(m_client->get("/api/v1/webhooks/" + id).data().value("status").toString(),
                                  QString("disabled"), 10000);
        QCOMPARE(m_receiver->requests.size(), 1);
        QVERIFY(m_client->get("/api/v1/webhooks/" + id).data().value("disabledReason").toString().contains("410"));
    }

    void recoversAfterAFailure()
    {
        m_receiver->statuses() << 503;
        const QString id = createWebhook({"contact.created"});
        startDispatcher();
        createContact("e@example.com");
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 2, 10000);
        QTRY_COMPARE(logs(id).size(), 2);
        // The second attempt is logged when it is sent and marked a success when its answer is
        // recorded, a moment later (on a busy machine the log was read in between).
        QTRY_COMPARE(logs(id).at(0).toObject().value("success").toBool(), true);
        QCOMPARE(logs(id).at(1).toObject().value("statusCode").toInt(), 503);
        QCOMPARE(m_client->get("/api/v1/webhooks/" + id).data().value("failureCount").toInt(), 0);
    }

    void resumesPendingDeliveriesAfterRestart()
    {
        const QString id = createWebhook({"contact.created"});
        m_receiver->hang = true;
        // On PostgreSQL another copy might be sending the interrupted one: it goes again once its
        // lease (the timeout, 5 s, and this margin) has ended; on SQLite at the start.
        m_config.leaseMarginSeconds = 1;
        startDispatcher();
        createContact("f@example.com");
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 1, 10000);
        // The process "dies" with that request in flight, and an event is written meanwhile.
        m_dispatcher.reset();
        createContact("g@example.com");
        m_receiver->hang = false;
        startDispatcher();
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 3, 20000);
        const QString e1 = json(m_receiver->requests.at(0).body).value("id").toString();
        // At-least-once: the interrupted one again, then the new one, in event order; nothing else.
        QCOMPARE(json(m_receiver->requests.at(1).body).value("id").toString(), e1);
        QVERIFY(json(m_receiver->requests.at(2).body).value("id").toString() != e1);
        QCOMPARE(json(m_receiver->requests.at(2).body).value("data").toObject().value("email").toString(),
                 QString("g@example.com"));
        QTRY_COMPARE(logs(id).size(), 3);
        QVERIFY(logs(id).at(2).toObject().value("error").toString().startsWith("interrupted"));
        // Nothing more is sent.
        QSignalSpy more(m_receiver.get(), &WebhookReceiver::received);
        QVERIFY(!more.wait(500));
    }

    void slowReceiverDoesNotHoldUpOthers()
    {
        WebhookReceiver fast(kSecret);
        m_config.caCertificates << fast.certificate();
        m_receiver->delayMs = 3000;
        createWebhook({"contact.created"});
        createWebhook({"contact.created"}, fast.url());
        startDispatcher();
        createContact("h@example.com");
        createContact("i@example.com");
        QTRY_COMPARE_WITH_TIMEOUT(fast.requests.size(), 2, 2500);
        QVERIFY(m_dispatcher->inFlight() >= 1);   // the slow one is still waiting for its answer
        QCOMPARE(m_receiver->requests.size(), 1); // and its second event waits behind it (order)
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 2, 10000);
    }

    void disableAndEnable()
    {
        const QString off = createWebhook({"contact.created"});
        WebhookReceiver other(kSecret);
        m_config.caCertificates << other.certificate();
        createWebhook({"contact.created"}, other.url());
        HttpResult r = m_client->post("/api/v1/webhooks/" + off + "/disable", {});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("active").toBool(), false);
        startDispatcher();
        createContact("j@example.com");
        QTRY_COMPARE_WITH_TIMEOUT(other.requests.size(), 1, 10000);
        QCOMPARE(m_receiver->requests.size(), 0);
        QCOMPARE(logs(off).size(), 0);
        r = m_client->post("/api/v1/webhooks/" + off + "/enable", {});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("active"));
        QCOMPARE(r.data().value("failureCount").toInt(), 0);
        createContact("k@example.com");
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 1, 10000);
        QCOMPARE(json(m_receiver->requests.at(0).body).value("data").toObject().value("email").toString(),
                 QString("k@example.com"));
        QCOMPARE(m_client->post("/api/v1/webhooks/wh_unknown/enable", {}).status, 404);
    }

    void sendsTestPayloads_data()
    {
        QTest::addColumn<QString>("event");
        for (const QString &e : WebhookEvents::all())
            QTest::newRow(qPrintable(e)) << e;
    }

    void sendsTestPayloads()
    {
        QFETCH(QString, event);
        const QString id = createWebhook({"contact.created"});
        const HttpResult r = m_client->post("/api/v1/webhooks/" + id + "/test", {{"event", event}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("success").toBool(), true);
        QCOMPARE(r.data().value("statusCode").toInt(), 200);
        QVERIFY(r.data().value("latencyMs").toInt() >= 0);
        QCOMPARE(m_receiver->requests.size(), 1);
        const WebhookReceiver::Request &got = m_receiver->requests.at(0);
        QVERIFY(got.signatureOk);
        QCOMPARE(got.header("x-service-delivery"), r.data().value("deliveryId").toString().toUtf8());
        const QJsonObject envelope = json(got.body);
        QCOMPARE(envelope.value("event").toString(), event);
        QCOMPARE(envelope.value("test").toBool(), true);
        QVERIFY(!envelope.value("data").toObject().isEmpty());
        const QJsonArray entries = logs(id);
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.at(0).toObject().value("kind").toString(), QString("test"));
    }

    void testReportsReceiverFailureAndRefusesBadInput()
    {
        const QString id = createWebhook({"contact.created"});
        m_receiver->statuses() << 503;
        HttpResult r = m_client->post("/api/v1/webhooks/" + id + "/test", {{"event", "deal.won"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("success").toBool(), false);
        QCOMPARE(r.data().value("statusCode").toInt(), 503);
        QCOMPARE(m_client->post("/api/v1/webhooks/" + id + "/test", {{"event", "nope"}}).status, 400);
        QCOMPARE(m_client->post("/api/v1/webhooks/" + id + "/test", {}).status, 422);
        QCOMPARE(m_client->post("/api/v1/webhooks/wh_nope/test", {{"event", "deal.won"}}).status, 404);
        // A test never changes the subscription's state.
        QCOMPARE(m_client->get("/api/v1/webhooks/" + id).data().value("failureCount").toInt(), 0);
    }

    void redeliversTheSameEvent()
    {
        const QString id = createWebhook({"contact.created"});
        startDispatcher();
        createContact("l@example.com");
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 1, 10000);
        QTRY_COMPARE(logs(id).size(), 1);
        const QString deliveryId = logs(id).at(0).toObject().value("deliveryId").toString();
        const HttpResult r = m_client->post("/api/v1/webhooks/" + id + "/logs/" + deliveryId + "/redeliver", {});
        QCOMPARE(r.status, 202);
        QCOMPARE(r.data().value("kind").toString(), QString("redelivery"));
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 2, 10000);
        QCOMPARE(m_receiver->requests.at(1).body, m_receiver->requests.at(0).body);
        QVERIFY(m_receiver->requests.at(1).signatureOk);
        QVERIFY(m_receiver->requests.at(1).header("x-service-delivery") !=
                m_receiver->requests.at(0).header("x-service-delivery"));
        QCOMPARE(m_client->post("/api/v1/webhooks/" + id + "/logs/whd_nope/redeliver", {}).status, 404);
        QTRY_COMPARE(logs(id).size(), 2);
        // Paged.
        const HttpResult page = m_client->get("/api/v1/webhooks/" + id + "/logs?limit=1&page=2");
        QCOMPARE(page.json.value("data").toArray().size(), 1);
        QCOMPARE(page.json.value("pagination").toObject().value("total").toInt(), 2);
    }

    void refusesLinkLocalAtSendTime()
    {
        // Stored before the rule existed: the sender refuses it without a request.
        const QString id = createWebhook({"contact.created"});
        Database::exec("UPDATE webhooks SET url = 'https://169.254.169.254/x' WHERE id = ?", {id});
        const HttpResult r = m_client->post("/api/v1/webhooks/" + id + "/test", {{"event", "contact.created"}});
        QCOMPARE(r.data().value("success").toBool(), false);
        QCOMPARE(r.data().value("error").toString(), WebhookRules::refusedTargetMessage());
    }

    void refusesThisMachineByDefault_data()
    {
        QTest::addColumn<QString>("host");
        for (const char *host : {"127.0.0.1", "[::1]", "0.0.0.0", "0", "2130706433", "017700000001", "0x7f000001",
                                 "127.1", "[::ffff:127.0.0.1]", "localhost", "10.0.0.1", "[fd00::1]"})
            QTest::newRow(host) << QString::fromLatin1(host);
    }

    void refusesThisMachineByDefault()
    {
        QFETCH(QString, host);
        m_server.reset();
        m_config.allowedTargets = WebhookTargets::Public; // the default
        startServer();
        const HttpResult r = m_client->post(
            "/api/v1/webhooks", {{"url", "https://" + host + ":8443/h"}, {"events", QJsonArray{"contact.created"}}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json.value("error").toObject().value("details").toObject().value("url").toString(),
                 WebhookRules::refusedTargetMessage());
    }

    void privateTargetsReachTheLanButNotThisMachine()
    {
        m_server.reset();
        m_config.allowedTargets = WebhookTargets::Private;
        startServer();
        const QJsonArray events{"contact.created"};
        QCOMPARE(m_client->post("/api/v1/webhooks", {{"url", "https://192.168.1.20/h"}, {"events", events}}).status,
                 201);
        QCOMPARE(m_client->post("/api/v1/webhooks", {{"url", "https://[fd00::20]/h"}, {"events", events}}).status, 201);
        QCOMPARE(m_client->post("/api/v1/webhooks", {{"url", m_receiver->url()}, {"events", events}}).status, 400);
    }

    void theTestEndpointIsNoPortScanner()
    {
        // Subscriptions to this machine stored before the rule (or by a name that resolves here):
        // an open port, a closed port and a name all get the same refusal, and no request is made.
        const QString open = createWebhook({"contact.created"});
        const QString closed = createWebhook({"contact.created"});
        const QString named = createWebhook({"contact.created"});
        Database::exec("UPDATE webhooks SET url = ? WHERE id = ?",
                       {QString("https://127.0.0.1:%1/h").arg(m_receiver->serverPort()), open});
        Database::exec("UPDATE webhooks SET url = 'https://127.0.0.1:1/h' WHERE id = ?", {closed});
        Database::exec("UPDATE webhooks SET url = ? WHERE id = ?",
                       {QString("https://localhost:%1/h").arg(m_receiver->serverPort()), named});
        m_server.reset();
        m_config.allowedTargets = WebhookTargets::Public;
        startServer();
        for (const QString &id : {open, closed, named}) {
            const HttpResult r = m_client->post("/api/v1/webhooks/" + id + "/test", {{"event", "contact.created"}});
            QCOMPARE(r.status, 200);
            QCOMPARE(r.data().value("success").toBool(), false);
            QCOMPARE(r.data().value("statusCode").toInt(), 0);
            QCOMPARE(r.data().value("error").toString(), WebhookRules::refusedTargetMessage());
        }
        // and the dispatcher refuses them too
        startDispatcher();
        createContact("scan@example.com");
        QTRY_VERIFY_WITH_TIMEOUT(!logs(named).isEmpty() && !logs(open).isEmpty(), 10000);
        QCOMPARE(logs(open).at(0).toObject().value("error").toString(), WebhookRules::refusedTargetMessage());
        QCOMPARE(logs(named).at(0).toObject().value("error").toString(), WebhookRules::refusedTargetMessage());
        QCOMPARE(m_receiver->requests.size(), 0);
    }

    void aNameIsSentToTheAddressItWasCheckedOn()
    {
        // With loopback allowed, https://localhost:PORT reaches the receiver: the connection goes
        // to the resolved address, and the name stays in Host and in the certificate check.
        const HttpResult created = m_client->post(
            "/api/v1/webhooks", {{"url", QString("https://localhost:%1/named").arg(m_receiver->serverPort())},
                                 {"events", QJsonArray{"contact.created"}},
                                 {"secret", kSecret}});
        QCOMPARE(created.status, 201);
        const QString id = created.data().value("id").toString();
        const HttpResult r = m_client->post("/api/v1/webhooks/" + id + "/test", {{"event", "contact.created"}});
        QVERIFY2(r.data().value("success").toBool(), r.body.constData());
        QCOMPARE(m_receiver->requests.size(), 1);
        QCOMPARE(m_receiver->requests.at(0).header("host"),
                 "localhost:" + QByteArray::number(m_receiver->serverPort()));
        QCOMPARE(m_receiver->requests.at(0).path, QByteArray("/named"));
    }

    void subscriptionsAreCapped()
    {
        m_server.reset();
        m_config.maxSubscriptions = 3;
        startServer();
        QStringList ids;
        for (int i = 0; i < 3; ++i)
            ids << createWebhook({"contact.created"});
        HttpResult r = m_client->post("/api/v1/webhooks", {{"url", m_receiver->url()}, {"events", QJsonArray{"*"}}});
        QCOMPARE(r.status, 409);
        QCOMPARE(r.json.value("error").toObject().value("code").toString(), QString("LIMIT_REACHED"));
        QCOMPARE(r.json.value("error").toObject().value("details").toObject().value("limit").toInt(), 3);
        QCOMPARE(m_client->get("/api/v1/webhooks").json.value("data").toArray().size(), 3);
        QCOMPARE(m_client->del("/api/v1/webhooks/" + ids.first()).status, 200);
        r = m_client->post("/api/v1/webhooks", {{"url", m_receiver->url()}, {"events", QJsonArray{"*"}}});
        QCOMPARE(r.status, 201);
    }

    void oldLogsArePruned()
    {
        const QString id = createWebhook({"contact.created"});
        startDispatcher();
        createContact("old@example.com");
        QTRY_COMPARE_WITH_TIMEOUT(logs(id).size(), 1, 10000);
        // The log lists a delivery from the moment it is queued, and the dispatcher records answers in
        // batches: wait until it has finished, since only a finished delivery is pruned.
        const auto finished = [] {
            int n = -1;
            Database::select("SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'succeeded'", {},
                             [&n](const SqlRow &row) { n = int(row.integer(0)); });
            return n;
        };
        QTRY_COMPARE_WITH_TIMEOUT(finished(), 1, 10000);
        HttpResult r = m_client->post("/api/v1/webhooks/incoming", {{"name", "Form"}, {"action", "contact.upsert"}});
        const QString incoming = r.data().value("id").toString();
        ApiClient anonymous(m_server->baseUrl(), m_server->certificate());
        QCOMPARE(anonymous.post("/webhooks/incoming/" + incoming, {{"event", "x"}, {"data", QJsonObject{}}}).status,
                 422);
        // Nothing is old yet.
        QCOMPARE(m_dispatcher->pruneLogs(), 0);
        // 31 days later the delivery, its attempts and the call go; a delivery still waiting stays.
        Database::exec("UPDATE webhook_deliveries SET updated_at = '2020-01-01T00:00:00.000Z'");
        Database::exec("UPDATE incoming_webhook_calls SET received_at = '2020-01-01T00:00:00.000Z'");
        Database::exec("INSERT INTO webhook_deliveries (id, webhook_id, event_id, event, body, state, "
                       "next_attempt_at, created_at, updated_at) VALUES ('whd_waiting', ?, 'evt_w', "
                       "'contact.created', '{}', 'pending', '2999-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z', "
                       "'2020-01-01T00:00:00.000Z')",
                       {id});
        QCOMPARE(m_dispatcher->pruneLogs(), 2); // the delivery (its attempt goes with it) and the call
        QVERIFY(logs(id).isEmpty());
        int attempts = -1, deliveries = -1;
        Database::select("SELECT (SELECT COUNT(*) FROM webhook_attempts), (SELECT COUNT(*) FROM webhook_deliveries)",
                         {}, [&](const SqlRow &row) {
                             attempts = int(row.integer(0));
                             deliveries = int(row.integer(1));
                         });
        QCOMPARE(attempts, 0);
        QCOMPARE(deliveries, 1);
        QVERIFY(
            m_client->get("/api/v1/webhooks/incoming/" + incoming + "/calls").json.value("data").toArray().isEmpty());
    }

    void listsEventCatalog()
    {
        const HttpResult r = m_client->get("/api/v1/webhooks/events");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("data").toArray().size(), WebhookEvents::all().size());
    }

    void incomingContactUpsertWithoutSecret()
    {
        HttpResult r =
            m_client->post("/api/v1/webhooks/incoming", {{"name", "Web form"}, {"action", "contact.upsert"}});
        QCOMPARE(r.status, 201);
        const QString id = r.data().value("id").toString();
        QVERIFY(id.startsWith("iwh_"));
        QVERIFY(r.data().value("url").toString().endsWith("/webhooks/incoming/" + id));
        const QString path = "/webhooks/incoming/" + id;
        ApiClient anonymous(m_server->baseUrl(), m_server->certificate());
        r = anonymous.post(path, {{"event", "form.submitted"},
                                  {"data", QJsonObject{{"firstName", "Zeynep"}, {"email", "zeynep@example.com"}}}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("result").toString(), QString("created"));
        const QString contactId = r.data().value("contactId").toString();
        r = anonymous.post(path, {{"event", "form.submitted"},
                                  {"data", QJsonObject{{"email", "ZEYNEP@example.com"}, {"company", "Kale"}}}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("result").toString(), QString("updated"));
        QCOMPARE(r.data().value("contactId").toString(), contactId);
        QCOMPARE(m_client->get("/api/v1/contacts/" + contactId).data().value("company").toString(), QString("Kale"));
        // Malformed bodies: 400 in the error envelope.
        r = anonymous.call("POST", path, "{not json", {{"Content-Type", "application/json"}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QCOMPARE(anonymous.post(path, {{"event", "x"}}).status, 400);
        QCOMPARE(anonymous.post(path, {{"data", QJsonObject{}}}).status, 400);
        // Data the contact rules refuse: the model's status.
        QCOMPARE(anonymous.post(path, {{"event", "x"}, {"data", QJsonObject{{"firstName", "No contact info"}}}}).status,
                 422);
        QCOMPARE(anonymous.post("/webhooks/incoming/iwh_unknown", {{"event", "x"}, {"data", QJsonObject{}}}).status,
                 404);
        // Every call to the endpoint is logged.
        r = m_client->get("/api/v1/webhooks/incoming/" + id + "/calls");
        QCOMPARE(r.status, 200);
        const QJsonArray calls = r.json.value("data").toArray();
        QCOMPARE(calls.size(), 5);
        QCOMPARE(calls.at(0).toObject().value("outcome").toString(), QString("failed"));
        QCOMPARE(calls.at(0).toObject().value("statusCode").toInt(), 422);
        QCOMPARE(calls.at(4).toObject().value("outcome").toString(), QString("processed"));
        QCOMPARE(calls.at(4).toObject().value("resultId").toString(), contactId);
        QCOMPARE(calls.at(4).toObject().value("event").toString(), QString("form.submitted"));
        // Literal "incoming" wins over :id in the management routes.
        r = m_client->get("/api/v1/webhooks/incoming");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("data").toArray().at(0).toObject().value("callCount").toInt(), 5);
        QCOMPARE(m_client->del("/api/v1/webhooks/incoming/" + id).status, 200);
        QCOMPARE(anonymous.post(path, {{"event", "x"}, {"data", QJsonObject{}}}).status, 404);
    }

    void incomingWithSecretNeedsTheSignature()
    {
        HttpResult r = m_client->post("/api/v1/webhooks/incoming",
                                      {{"name", "Shop"}, {"action", "message.received"}, {"secret", true}});
        QCOMPARE(r.status, 201);
        const QString secret = r.data().value("secret").toString();
        QVERIFY(secret.size() >= 16);
        const QString path = "/webhooks/incoming/" + r.data().value("id").toString();
        ApiClient anonymous(m_server->baseUrl(), m_server->certificate());
        const QByteArray body =
            R"({"event":"message","data":{"channel":"whatsapp","text":"Merhaba","from":"+905551112233"}})";
        const QPair<QByteArray, QByteArray> type{"Content-Type", "application/json"};
        QCOMPARE(anonymous.call("POST", path, body, {type}).status, 401);
        QCOMPARE(anonymous.call("POST", path, body, {type, {"X-Service-Signature", "sha256=00"}}).status, 401);
        QCOMPARE(
            anonymous
                .call("POST", path, body + " ", {type, {"X-Service-Signature", WebhookRules::signature(secret, body)}})
                .status,
            401);
        r = anonymous.call("POST", path, body, {type, {"X-Service-Signature", WebhookRules::signature(secret, body)}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("result").toString(), QString("created"));
        const QJsonArray calls =
            m_client->get("/api/v1/webhooks/incoming/" + path.section('/', -1) + "/calls").json.value("data").toArray();
        QCOMPARE(calls.size(), 4);
        QCOMPARE(calls.at(0).toObject().value("outcome").toString(), QString("processed"));
        QCOMPARE(calls.at(1).toObject().value("outcome").toString(), QString("rejected"));
        QCOMPARE(calls.at(1).toObject().value("statusCode").toInt(), 401);
    }

    void incomingMessageReceivedRecordsTheMessage()
    {
        const QString id =
            m_client->post("/api/v1/webhooks/incoming", {{"name", "Relay"}, {"action", "message.received"}})
                .data()
                .value("id")
                .toString();
        const QString path = "/webhooks/incoming/" + id;
        ApiClient anonymous(m_server->baseUrl(), m_server->certificate());
        const QJsonObject wa{{"channel", "whatsapp"},
                             {"from", "90 555 444 33 22"},
                             {"name", "Ayşe Demir"},
                             {"messageId", "relay-1"},
                             {"text", "Fiyat nedir?"}};
        HttpResult r = anonymous.post(path, {{"event", "message.received"}, {"data", wa}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("result").toString(), QString("created"));
        const QString messageId = r.data().value("messageId").toString();
        const QString conversationId = r.data().value("conversationId").toString();
        const QString contactId = r.data().value("contactId").toString();
        QVERIFY(messageId.startsWith("msg_"));

        const QJsonObject contact = m_client->get("/api/v1/contacts/" + contactId).data();
        QCOMPARE(contact.value("firstName").toString(), QString("Ayşe"));
        QCOMPARE(contact.value("phone").toString(), QString("+905554443322"));
        const QJsonArray messages =
            m_client->get("/api/v1/conversations/" + conversationId + "/messages").json.value("data").toArray();
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.at(0).toObject().value("direction").toString(), QString("incoming"));
        QCOMPARE(messages.at(0).toObject().value("text").toString(), QString("Fiyat nedir?"));

        // The relay's repeat of the same message id is recorded once.
        r = anonymous.post(path, {{"event", "message.received"}, {"data", wa}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("result").toString(), QString("duplicate"));
        QCOMPARE(r.data().value("messageId").toString(), messageId);

        // A second message from the same number lands in the same conversation.
        QJsonObject next = wa;
        next.insert("messageId", "relay-2");
        next.insert("text", "Bir de kargo?");
        r = anonymous.post(path, {{"event", "message.received"}, {"data", next}});
        QCOMPARE(r.data().value("conversationId").toString(), conversationId);

        // Telegram: the address is the chat id; a phone, when given, must be international.
        r = anonymous.post(path, {{"event", "message.received"},
                                  {"data", QJsonObject{{"channel", "telegram"}, {"from", "4711"}, {"text", "hi"}}}});
        QCOMPARE(r.status, 200);
        QVERIFY(r.data().value("contactId").toString() != contactId);
    }

    void incomingMessageReceivedRefusesBadData_data()
    {
        QTest::addColumn<QJsonObject>("data");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("field");
        QTest::newRow("no channel") << QJsonObject{{"from", "+905551112233"}, {"text", "x"}} << 400 << "channel";
        QTest::newRow("sms") << QJsonObject{{"channel", "sms"}, {"from", "+905551112233"}, {"text", "x"}} << 400
                             << "channel";
        QTest::newRow("no from") << QJsonObject{{"channel", "telegram"}, {"text", "x"}} << 400 << "from";
        QTest::newRow("from not a phone")
            << QJsonObject{{"channel", "whatsapp"}, {"from", "abc"}, {"text", "x"}} << 400 << "from";
        QTest::newRow("bad phone")
            << QJsonObject{{"channel", "telegram"}, {"from", "1"}, {"phone", "05"}, {"text", "x"}} << 400 << "phone";
        QTest::newRow("name not text")
            << QJsonObject{{"channel", "telegram"}, {"from", "1"}, {"name", 5}, {"text", "x"}} << 400 << "name";
        QTest::newRow("no text") << QJsonObject{{"channel", "telegram"}, {"from", "1"}} << 422 << "";
        QTest::newRow("image without url")
            << QJsonObject{{"channel", "telegram"}, {"from", "1"}, {"type", "image"}} << 422 << "";
        QTest::newRow("template") << QJsonObject{{"channel", "telegram"}, {"from", "1"}, {"type", "template"}} << 400
                                  << "";
    }

    void incomingMessageReceivedRefusesBadData()
    {
        QFETCH(QJsonObject, data);
        QFETCH(int, status);
        QFETCH(QString, field);
        const QString id =
            m_client->post("/api/v1/webhooks/incoming", {{"name", "Relay"}, {"action", "message.received"}})
                .data()
                .value("id")
                .toString();
        ApiClient anonymous(m_server->baseUrl(), m_server->certificate());
        const HttpResult r =
            anonymous.post("/webhooks/incoming/" + id, {{"event", "message.received"}, {"data", data}});
        QCOMPARE(r.status, status);
        QCOMPARE(r.json.value("success").toBool(true), false);
        if (!field.isEmpty())
            QVERIFY2(r.json.value("error").toObject().value("details").toObject().contains(field), r.body.constData());
        const QJsonArray calls =
            m_client->get("/api/v1/webhooks/incoming/" + id + "/calls").json.value("data").toArray();
        QCOMPARE(calls.at(0).toObject().value("outcome").toString(), QString("failed"));
        QCOMPARE(m_client->get("/api/v1/conversations").json.value("data").toArray().size(), 0);
    }

    void incomingDealUpsertAndTaskCreate()
    {
        ApiClient anonymous(m_server->baseUrl(), m_server->certificate());
        const QString deals = m_client->post("/api/v1/webhooks/incoming", {{"name", "Shop"}, {"action", "deal.upsert"}})
                                  .data()
                                  .value("id")
                                  .toString();
        const QString tasks = m_client->post("/api/v1/webhooks/incoming", {{"name", "Cal"}, {"action", "task.create"}})
                                  .data()
                                  .value("id")
                                  .toString();
        HttpResult r =
            anonymous.post("/webhooks/incoming/" + deals,
                           {{"event", "order"}, {"data", QJsonObject{{"name", "Order 42"}, {"value", 1200}}}});
        QCOMPARE(r.status, 200);
        const QString dealId = r.data().value("dealId").toString();
        QVERIFY(dealId.startsWith("deal_"));
        r = anonymous.post("/webhooks/incoming/" + deals,
                           {{"event", "order"}, {"data", QJsonObject{{"id", dealId}, {"value", 1500}}}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("result").toString(), QString("updated"));
        QCOMPARE(m_client->get("/api/v1/deals/" + dealId).data().value("value").toDouble(), 1500.0);
        r = anonymous.post("/webhooks/incoming/" + tasks,
                           {{"event", "meeting"}, {"data", QJsonObject{{"title", "Call the shop"}}}});
        QCOMPARE(r.status, 200);
        QVERIFY(r.data().value("taskId").toString().startsWith("task_"));
        QCOMPARE(anonymous.post("/webhooks/incoming/" + tasks, {{"event", "x"}, {"data", QJsonObject{}}}).status, 422);
    }

    void incomingRefusesBadEndpoints_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::newRow("no name") << QJsonObject{{"action", "contact.upsert"}} << 422;
        QTest::newRow("no action") << QJsonObject{{"name", "x"}} << 422;
        QTest::newRow("unknown action") << QJsonObject{{"name", "x"}, {"action", "contact.delete"}} << 400;
        QTest::newRow("short secret") << QJsonObject{{"name", "x"}, {"action", "task.create"}, {"secret", "abc"}}
                                      << 400;
    }

    void incomingRefusesBadEndpoints()
    {
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QCOMPARE(m_client->post("/api/v1/webhooks/incoming", body).status, status);
    }

    void documentsEveryRoute()
    {
        const QJsonObject paths = m_server->server().openApi().value("paths").toObject();
        for (const char *p :
             {"/api/v1/webhooks", "/api/v1/webhooks/{id}", "/api/v1/webhooks/{id}/test", "/api/v1/webhooks/{id}/logs",
              "/api/v1/webhooks/{id}/logs/{deliveryId}/redeliver", "/api/v1/webhooks/incoming",
              "/api/v1/webhooks/incoming/{id}", "/webhooks/incoming/{webhookId}"})
            QVERIFY2(paths.contains(QLatin1String(p)), p);
    }
};

QTEST_MAIN(TestWebhooksApi)
#include "test_webhooksapi.moc"
