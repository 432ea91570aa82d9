// The Inbox over real HTTPS on loopback: every Conversations and Messages endpoint of this
// increment, their errors (400 Invalid phone, 404 Contact not found, 503 Channel unavailable,
// 401/403), and the public widget API with its per-visitor token scoping.
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/inbox/conversationrepository.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QtTest>

namespace {
int count(const QString &sql)
{
    QSqlQuery q = Database::exec(sql);
    q.next();
    return q.value(0).toInt();
}

QJsonObject lastEvent(const QString &event)
{
    QSqlQuery q = Database::exec("SELECT payload FROM outbox WHERE event = ? ORDER BY seq DESC LIMIT 1", {event});
    if (!q.next())
        return {};
    return QJsonDocument::fromJson(q.value(0).toByteArray()).object().value("data").toObject();
}
} // namespace

class TestConversationsApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ApiFixture> m_api;

    std::unique_ptr<ApiClient> client(const QString &token = {})
    {
        auto c = std::make_unique<ApiClient>(m_api->server.baseUrl(), m_api->server.certificate());
        if (!token.isEmpty())
            c->setToken(token);
        return c;
    }

    // A visitor: {visitorId, token, conversationId}.
    QJsonObject visitor(const QJsonObject &body = {})
    {
        const HttpResult r = client()->post("/widget/v1/visitors", body);
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data();
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_api = std::make_unique<ApiFixture>(ApiFixture::Client::None);
        m_api->client = client(m_api->server.createApiKey());
    }

    void cleanup() { m_api.reset(); }

    void widgetVisitorTalksWithAgent()
    {
        const QJsonObject v = visitor({{"name", "Zeynep"}, {"email", "zeynep@example.com"}});
        QVERIFY(v.value("visitorId").toString().startsWith("visitor_"));
        const QString token = v.value("token").toString();
        const QString conv = v.value("conversationId").toString();
        auto visitorClient = client(token);
        HttpResult r = visitorClient->post("/widget/v1/messages", {{"text", "Merhaba, fiyat nedir?"}});
        QCOMPARE(r.status, 201);
        const QString incomingId = r.data().value("id").toString();
        QCOMPARE(r.data().value("direction").toString(), QString("incoming"));
        // The agent's API tells each incoming message's tone: a question is neutral.
        r = m_api->client->get("/api/v1/conversations/" + conv);
        QCOMPARE(r.data().value("messages").toArray().last().toObject().value("sentiment").toString(),
                 QString("neutral"));

        // The agent sees it in the list with an unread badge and the contact.
        r = m_api->client->get("/api/v1/conversations?channel=widget&status=open");
        QCOMPARE(r.status, 200);
        const QJsonArray items = r.json.value("data").toArray();
        QCOMPARE(items.size(), 1);
        const QJsonObject item = items.at(0).toObject();
        QCOMPARE(item.value("id").toString(), conv);
        QCOMPARE(item.value("unreadCount").toInt(), 1);
        QCOMPARE(item.value("contact").toObject().value("name").toString(), QString("Zeynep"));
        QVERIFY(item.value("contact").toObject().contains("avatar"));
        QCOMPARE(item.value("lastMessage").toObject().value("text").toString(), QString("Merhaba, fiyat nedir?"));
        QCOMPARE(item.value("lastMessage").toObject().value("direction").toString(), QString("incoming"));
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 1);

        // The agent answers; a widget reply is sent at once.
        r = m_api->client->post("/api/v1/conversations/" + conv + "/messages", {{"type", "text"}, {"text", "100 TL"}});
        QCOMPARE(r.status, 201);
        const QString replyId = r.data().value("id").toString();
        QCOMPARE(r.data().value("status").toString(), QString("sent"));
        QCOMPARE(r.data().value("direction").toString(), QString("outgoing"));
        QCOMPARE(r.data().value("sender").toObject().value("type").toString(), QString("api"));

        // The visitor fetches what came after its message: the reply, now delivered.
        r = visitorClient->get("/widget/v1/messages?after=" + incomingId);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("data").toArray().size(), 1);
        QCOMPARE(r.json.value("data").toArray().at(0).toObject().value("text").toString(), QString("100 TL"));
        r = m_api->client->get("/api/v1/messages/" + replyId + "/status");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("delivered"));
        QVERIFY(!r.data().value("sentAt").toString().isEmpty());
        QVERIFY(!r.data().value("deliveredAt").toString().isEmpty());
        QVERIFY(r.data().value("readAt").isNull());
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.delivered'"), 1);
        // Fetching again delivers nothing twice.
        visitorClient->get("/widget/v1/messages");
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.delivered'"), 1);

        // Detail: contact, channelId, tags, messages, metadata.
        r = m_api->client->get("/api/v1/conversations/" + conv);
        QCOMPARE(r.status, 200);
        const QJsonObject d = r.data();
        QCOMPARE(d.value("contact").toObject().value("firstName").toString(), QString("Zeynep"));
        QCOMPARE(d.value("channelId").toString(), QString("widget"));
        QCOMPARE(d.value("messages").toArray().size(), 2);
        QCOMPARE(d.value("metadata").toObject().value("totalMessages").toInt(), 2);
        QCOMPARE(d.value("metadata").toObject().value("source").toString(), QString("widget"));
        QVERIFY(d.value("metadata").toObject().value("firstResponseTime").isDouble());
        QVERIFY(d.value("tags").isArray());

        // The contact detail lists the conversation.
        r = m_api->client->get("/api/v1/contacts/" + d.value("contact").toObject().value("id").toString());
        QCOMPARE(r.data().value("conversations").toArray().size(), 1);
        QCOMPARE(r.data().value("conversations").toArray().at(0).toObject().value("channel").toString(),
                 QString("widget"));
        QVERIFY(!r.data().value("conversations").toArray().at(0).toObject().value("lastMessage").toString().isEmpty());
        QCOMPARE(r.data().value("totalMessages").toInt(), 2);
    }

    void anAnonymousVisitorIsNoContactUntilTheySayWhoTheyAre()
    {
        const int contacts = count("SELECT count(*) FROM contacts");
        const QJsonObject v = visitor();
        const QString visitorId = v.value("visitorId").toString();
        const QString conv = v.value("conversationId").toString();
        const QString label = "Website visitor " + visitorId.right(6).toUpper();
        auto visitorClient = client(v.value("token").toString());
        QCOMPARE(visitorClient->post("/widget/v1/messages", {{"text", "Merhaba, stokta var mı?"}}).status, 201);
        QCOMPARE(count("SELECT count(*) FROM contacts"), contacts);
        QCOMPARE(m_api->client->get("/api/v1/contacts").json.value("pagination").toObject().value("total").toInt(),
                 contacts);
        QVERIFY(lastEvent("conversation.created").value("contactId").isNull());
        QCOMPARE(lastEvent("conversation.created").value("visitor").toObject().value("id").toString(), visitorId);
        QVERIFY(lastEvent("message.received").value("contactId").isNull());
        QCOMPARE(lastEvent("message.received").value("sender").toObject().value("name").toString(), label);

        // Listed with contactId null and the visitor; the filters answer as for any conversation.
        HttpResult r = m_api->client->get("/api/v1/conversations");
        QCOMPARE(r.status, 200);
        QJsonObject item = r.json.value("data").toArray().at(0).toObject();
        QCOMPARE(item.value("id").toString(), conv);
        QVERIFY(item.value("contactId").isNull());
        QVERIFY(item.value("contact").isNull());
        QCOMPARE(item.value("visitor").toObject().value("id").toString(), visitorId);
        QCOMPARE(item.value("visitor").toObject().value("name").toString(), label);
        for (const char *query : {"?assignedTo=none", "?unread=true", "?channel=widget&status=open"})
            QCOMPARE(m_api->client->get(QString("/api/v1/conversations") + query).json.value("data").toArray().size(),
                     1);
        r = m_api->client->get("/api/v1/conversations?contactId=contact_nobody");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("data").toArray().size(), 0);
        r = m_api->client->get("/api/v1/conversations/" + conv);
        QCOMPARE(r.status, 200);
        QVERIFY(r.data().value("contactId").isNull());
        QVERIFY(r.data().value("contact").isNull());
        QCOMPARE(r.data().value("visitor").toObject().value("name").toString(), label);
        const QJsonObject first = r.data().value("messages").toArray().at(0).toObject();
        QVERIFY(first.value("contactId").isNull());
        QCOMPARE(first.value("sender").toObject().value("type").toString(), QString("contact"));
        QCOMPARE(first.value("sender").toObject().value("name").toString(), label);
        QCOMPARE(m_api->client->get("/api/v1/messages?conversationId=" + conv).status, 200);
        QCOMPARE(m_api->client->get("/api/v1/conversations/" + conv + "/messages").status, 200);
        // The team answers, closes and reopens as with anyone.
        QCOMPARE(m_api->client->post("/api/v1/conversations/" + conv + "/messages", {{"type", "text"}, {"text", "Var"}})
                     .status,
                 201);
        QCOMPARE(m_api->client->post("/api/v1/messages/send", {{"conversationId", conv}, {"content", "Başka?"}}).status,
                 201);
        QCOMPARE(m_api->client->post("/api/v1/conversations/" + conv + "/close", {}).status, 200);
        QVERIFY(lastEvent("conversation.closed").value("contactId").isNull());
        QCOMPARE(m_api->client->post("/api/v1/conversations/" + conv + "/tags", {{"tags", QJsonArray{"web"}}}).status,
                 200);

        // Bad input in the spec's envelope, and nothing is made.
        r = visitorClient->patch("/widget/v1/visitors/me", {{"email", "not-an-email"}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QCOMPARE(r.json.value("error").toObject().value("code").toString(), QString("VALIDATION_ERROR"));
        QVERIFY(r.json.value("error").toObject().value("details").toObject().contains("email"));
        QCOMPARE(visitorClient->patch("/widget/v1/visitors/me", {{"name", 5}}).status, 400);
        QCOMPARE(visitorClient->patch("/widget/v1/visitors/me", {{"phone", "12"}}).status, 400);
        QCOMPARE(visitorClient->patch("/widget/v1/visitors/me", {{"name", QString(201, 'x')}}).status, 400);
        r = visitorClient->patch("/widget/v1/visitors/me", {{"name", " "}});
        QCOMPARE(r.status, 422);
        QCOMPARE(r.json.value("error").toObject().value("code").toString(), QString("VALIDATION_ERROR"));
        QCOMPARE(client()->patch("/widget/v1/visitors/me", {{"name", "X"}}).status, 401);
        QCOMPARE(client("wvt_forged")->patch("/widget/v1/visitors/me", {{"name", "X"}}).status, 401);
        QCOMPARE(count("SELECT count(*) FROM contacts"), contacts);

        // They say who they are: a contact is made and the conversation becomes theirs.
        const int created = count("SELECT count(*) FROM outbox WHERE event = 'contact.created'");
        r = visitorClient->patch("/widget/v1/visitors/me", {{"name", "Deniz Kaya"}, {"email", "deniz@example.com"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("identified").toBool(), true);
        QCOMPARE(r.data().value("conversationId").toString(), conv);
        QVERIFY(!r.body.contains("contact_")); // the page learns no contact id
        QCOMPARE(count("SELECT count(*) FROM contacts"), contacts + 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'contact.created'"), created + 1);
        const QJsonObject updated = lastEvent("conversation.updated");
        QCOMPARE(updated.value("conversationId").toString(), conv);
        QCOMPARE(updated.value("changedFields").toArray(), QJsonArray{"contactId"});
        const QString contactId = updated.value("contactId").toString();
        QVERIFY(contactId.startsWith("contact_"));
        r = m_api->client->get("/api/v1/conversations/" + conv);
        QCOMPARE(r.data().value("contactId").toString(), contactId);
        QCOMPARE(r.data().value("contact").toObject().value("firstName").toString(), QString("Deniz Kaya"));
        QVERIFY(!r.data().contains("visitor"));
        for (const QJsonValue &m : r.data().value("messages").toArray())
            QCOMPARE(m.toObject().value("contactId").toString(), contactId);
        r = m_api->client->get("/api/v1/contacts/" + contactId);
        QCOMPARE(r.data().value("source").toString(), QString("widget"));
        QCOMPARE(r.data().value("conversations").toArray().size(), 1);
        QCOMPARE(r.data().value("totalMessages").toInt(), 3);

        // A second identify with another e-mail does not move the conversation.
        r = visitorClient->patch("/widget/v1/visitors/me", {{"email", "baska@example.com"}});
        QCOMPARE(r.status, 409);
        QCOMPARE(r.json.value("error").toObject().value("code").toString(), QString("CONFLICT"));
        QVERIFY(!r.body.contains(contactId.toUtf8()));
        QCOMPARE(m_api->client->get("/api/v1/conversations/" + conv).data().value("contactId").toString(), contactId);

        // Another visitor with the same e-mail joins that contact; no contact is made.
        const QJsonObject w = visitor();
        r = client(w.value("token").toString())->patch("/widget/v1/visitors/me", {{"email", "DENIZ@example.com"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(count("SELECT count(*) FROM contacts"), contacts + 1);
        r = m_api->client->get("/api/v1/conversations?contactId=" + contactId);
        QCOMPARE(r.json.value("data").toArray().size(), 2);
        // Named at creation: a contact at once, as before.
        const QJsonObject named = visitor({{"name", "Selin"}});
        r = m_api->client->get("/api/v1/conversations/" + named.value("conversationId").toString());
        QCOMPARE(r.data().value("contact").toObject().value("firstName").toString(), QString("Selin"));
        QCOMPARE(client(named.value("token").toString())->patch("/widget/v1/visitors/me", {{"name", "Selin"}}).status,
                 409);
    }

    void visitorTokenReachesOnlyItsConversation()
    {
        const QJsonObject a = visitor({{"name", "A"}});
        const QJsonObject b = visitor({{"name", "B"}});
        const HttpResult posted =
            client(a.value("token").toString())->post("/widget/v1/messages", {{"text", "secret of A"}});
        QCOMPARE(posted.status, 201);
        auto bClient = client(b.value("token").toString());
        HttpResult r = bClient->get("/widget/v1/messages");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("data").toArray().size(), 0);
        // A's message id as a cursor is unknown in B's conversation.
        r = bClient->get("/widget/v1/messages?after=" + posted.data().value("id").toString());
        QCOMPARE(r.status, 404);
        QVERIFY(!r.body.contains("secret of A"));
        // No token, a wrong token, an API key: 401.
        QCOMPARE(client()->get("/widget/v1/messages").status, 401);
        QCOMPARE(client("wvt_forged")->post("/widget/v1/messages", {{"text", "x"}}).status, 401);
        QCOMPARE(client(m_api->server.createApiKey())->get("/widget/v1/messages").status, 401);
        // A visitor token is no API credential.
        QCOMPARE(client(a.value("token").toString())->get("/api/v1/conversations").status, 401);
        // Bad bodies.
        QCOMPARE(bClient->post("/widget/v1/messages", {{"text", ""}}).status, 422);
        QCOMPARE(bClient->post("/widget/v1/messages", {{"text", 5}}).status, 400);
        QCOMPARE(client()->post("/widget/v1/visitors", {{"email", "nope"}}).status, 400);
        QCOMPARE(client()->post("/widget/v1/visitors", {{"name", 3}}).status, 400);
    }

    void updatesAssignsClosesReopensAndTags()
    {
        m_api->server.createUser("ali@example.com", "correct horse battery");
        const QString userId = UserRepository(testStore()).list().first().id;
        const QString conv = visitor().value("conversationId").toString();
        const QString base = "/api/v1/conversations/" + conv;

        HttpResult r = m_api->client->patch(base, {{"status", "pending"}, {"assignedTo", userId}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("pending"));
        QCOMPARE(r.data().value("assignedTo").toObject().value("id").toString(), userId);
        QCOMPARE(m_api->client->get("/api/v1/conversations?assignedTo=" + userId).json.value("data").toArray().size(),
                 1);
        QCOMPARE(m_api->client->get("/api/v1/conversations?status=open").json.value("data").toArray().size(), 0);
        QCOMPARE(m_api->client->patch(base, {{"status", "archived"}}).status, 400);
        QCOMPARE(m_api->client->patch(base, {}).status, 422);
        QCOMPARE(m_api->client->patch(base, {{"assignedTo", 5}}).status, 400);

        r = m_api->client->call("PATCH", base + "/assign",
                                QJsonDocument(QJsonObject{{"userId", QJsonValue()}}).toJson());
        QCOMPARE(r.status, 200);
        QVERIFY(r.data().value("assignedTo").isNull());
        r = m_api->client->post(base + "/assign", {{"userId", userId}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("assignedTo").toObject().value("id").toString(), userId);
        QCOMPARE(m_api->client->post(base + "/assign", {{"userId", "user_nope"}}).status, 404);
        QCOMPARE(m_api->client->post(base + "/assign", {}).status, 422);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'conversation.assigned'"), 3);

        r = m_api->client->post(base + "/close", {});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("closed"));
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'conversation.closed'"), 1);
        r = m_api->client->post(base + "/reopen", {});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("open"));

        r = m_api->client->post(base + "/tags", {{"tags", QJsonArray{"vip", "billing"}}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("tags").toArray().size(), 2);
        QCOMPARE(m_api->client->post(base + "/tags", {{"tags", QJsonArray{}}}).status, 422);
        QCOMPARE(m_api->client->post(base + "/tags", {{"tags", "vip"}}).status, 400);
        r = m_api->client->del(base + "/tags/vip");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("tags").toArray(), QJsonArray{"billing"});
        QCOMPARE(m_api->client->del(base + "/tags/vip").status, 404);

        QCOMPARE(m_api->client->get("/api/v1/conversations/conv_nope").status, 404);
        QCOMPARE(m_api->client->post("/api/v1/conversations/conv_nope/close", {}).status, 404);
        QCOMPARE(m_api->client->get("/api/v1/conversations?status=bogus").status, 400);
        QCOMPARE(m_api->client->get("/api/v1/conversations?limit=0").status, 400);
    }

    void messageListsAndCursors()
    {
        const QJsonObject v = visitor();
        const QString conv = v.value("conversationId").toString();
        auto visitorClient = client(v.value("token").toString());
        QStringList ids;
        for (int i = 0; i < 5; ++i)
            ids << visitorClient->post("/widget/v1/messages", {{"text", QString("m%1").arg(i)}})
                       .data()
                       .value("id")
                       .toString();
        HttpResult r = m_api->client->get("/api/v1/conversations/" + conv + "/messages");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("data").toArray().size(), 5);
        QCOMPARE(r.json.value("pagination").toObject().value("limit").toInt(), 50);
        r = m_api->client->get("/api/v1/conversations/" + conv + "/messages?after=" + ids.at(2));
        QCOMPARE(r.json.value("data").toArray().size(), 2);
        r = m_api->client->get("/api/v1/conversations/" + conv + "/messages?before=" + ids.at(2) + "&limit=1");
        QCOMPARE(r.json.value("data").toArray().at(0).toObject().value("id").toString(), ids.at(1));
        QCOMPARE(m_api->client->get("/api/v1/conversations/" + conv + "/messages?after=msg_nope").status, 404);

        r = m_api->client->get("/api/v1/messages?direction=incoming&channel=widget&conversationId=" + conv);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 5);
        QCOMPARE(r.json.value("data").toArray().at(0).toObject().value("id").toString(), ids.at(4)); // newest first
        QCOMPARE(m_api->client->get("/api/v1/messages?since=2000-01-01&status=delivered")
                     .json.value("data")
                     .toArray()
                     .size(),
                 5);
        QCOMPARE(m_api->client->get("/api/v1/messages?since=2999-01-01").json.value("data").toArray().size(), 0);
        QCOMPARE(m_api->client->get("/api/v1/messages?direction=sideways").status, 400);
        QCOMPARE(m_api->client->get("/api/v1/messages?since=yesterday").status, 400);
        r = m_api->client->get("/api/v1/messages/" + ids.at(0));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("text").toString(), QString("m0"));
        QCOMPARE(m_api->client->get("/api/v1/messages/msg_nope").status, 404);
        QCOMPARE(m_api->client->get("/api/v1/messages/msg_nope/status").status, 404);
    }

    void sendsThroughMessagesEndpoints()
    {
        const QJsonObject v = visitor({{"name", "Deniz"}});
        const QString conv = v.value("conversationId").toString();
        HttpResult r = m_api->client->post("/api/v1/messages/send",
                                           {{"conversationId", conv}, {"content", "Hi"}, {"type", "text"}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("text").toString(), QString("Hi"));
        QCOMPARE(r.data().value("status").toString(), QString("sent"));
        r = m_api->client->post("/api/v1/conversations/" + conv + "/messages",
                                {{"type", "image"}, {"mediaUrl", "https://example.com/a.png"}, {"caption", "Look"}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("mediaUrl").toString(), QString("https://example.com/a.png"));
        r = m_api->client->post(
            "/api/v1/conversations/" + conv + "/messages",
            {{"type", "document"}, {"mediaUrl", "https://example.com/price.pdf"}, {"filename", "price.pdf"}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("filename").toString(), QString("price.pdf"));
        // Direct send to the visitor on the widget channel.
        r = m_api->client->post(
            "/api/v1/messages",
            {{"to", v.value("visitorId")}, {"channel", "widget"}, {"type", "text"}, {"text", "Direct"}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("conversationId").toString(), conv);
        r = m_api->client->post("/api/v1/messages", {{"contactId", r.data().value("contactId")},
                                                     {"channel", "widget"},
                                                     {"type", "text"},
                                                     {"text", "By contact"}});
        QCOMPARE(r.status, 201);
        QCOMPARE(count("SELECT count(*) FROM messages WHERE direction = 'outgoing'"), 5);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.sent'"), 5);

        // Validation.
        QCOMPARE(m_api->client->post("/api/v1/messages/send", {{"content", "Hi"}}).status, 422);
        QCOMPARE(m_api->client->post("/api/v1/messages/send", {{"conversationId", conv}}).status, 422);
        QCOMPARE(
            m_api->client->post("/api/v1/messages/send", {{"conversationId", "conv_nope"}, {"content", "x"}}).status,
            404);
        QCOMPARE(m_api->client->post("/api/v1/conversations/" + conv + "/messages", {{"type", "sticker"}}).status, 400);
        QCOMPARE(m_api->client
                     ->post("/api/v1/conversations/" + conv + "/messages",
                            {{"type", "image"}, {"mediaUrl", "javascript:alert(1)"}})
                     .status,
                 400);
        QCOMPARE(m_api->client->post("/api/v1/conversations/" + conv + "/messages", {{"type", "image"}}).status, 422);
        QCOMPARE(
            m_api->client->post("/api/v1/conversations/" + conv + "/messages", {{"text", QString(5000, 'x')}}).status,
            400);
        QCOMPARE(m_api->client->call("POST", "/api/v1/conversations/" + conv + "/messages", "{not json").status, 400);
    }

    void directSendErrors_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        QTest::newRow("invalid phone") << QJsonObject{{"to", "0532 123"},
                                                      {"channel", "whatsapp"},
                                                      {"type", "text"},
                                                      {"text", "x"}}
                                       << 400 << "Invalid phone";
        QTest::newRow("letters in phone")
            << QJsonObject{{"to", "+90abc"}, {"channel", "sms"}, {"type", "text"}, {"text", "x"}} << 400
            << "Invalid phone";
        QTest::newRow("unknown contact") << QJsonObject{{"contactId", "contact_nope"},
                                                        {"channel", "whatsapp"},
                                                        {"type", "text"},
                                                        {"text", "x"}}
                                         << 404 << "Contact not found";
        QTest::newRow("unknown visitor") << QJsonObject{{"to", "visitor_nope"},
                                                        {"channel", "widget"},
                                                        {"type", "text"},
                                                        {"text", "x"}}
                                         << 404 << "Contact not found";
        QTest::newRow("whatsapp not configured")
            << QJsonObject{{"to", "+905321234567"}, {"channel", "whatsapp"}, {"type", "text"}, {"text", "x"}} << 503
            << "Channel unavailable";
        QTest::newRow("telegram not configured")
            << QJsonObject{{"to", "12345"}, {"channel", "telegram"}, {"type", "text"}, {"text", "x"}} << 503
            << "Channel unavailable";
        QTest::newRow("no recipient") << QJsonObject{{"channel", "whatsapp"}, {"type", "text"}, {"text", "x"}} << 422
                                      << "Required field missing: to (or contactId)";
        QTest::newRow("unknown channel")
            << QJsonObject{{"to", "+905321234567"}, {"channel", "fax"}, {"type", "text"}, {"text", "x"}} << 400 << "";
        QTest::newRow("bad location") << QJsonObject{{"to", "+905321234567"},
                                                     {"channel", "whatsapp"},
                                                     {"type", "location"},
                                                     {"latitude", 200},
                                                     {"longitude", 0}}
                                      << 400 << "";
    }

    void directSendErrors()
    {
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QFETCH(QString, message);
        const HttpResult r = m_api->client->post("/api/v1/messages", body);
        QCOMPARE(r.status, status);
        QCOMPARE(r.json.value("success").toBool(true), false);
        if (!message.isEmpty())
            QCOMPARE(r.json.value("error").toObject().value("message").toString(), message);
        // Nothing half-written.
        QCOMPARE(count("SELECT count(*) FROM messages"), 0);
        QCOMPARE(count("SELECT count(*) FROM conversations"), 0);
        QCOMPARE(count("SELECT count(*) FROM contacts"), 0);
    }

    void unavailableChannelStoresNothingInConversation()
    {
        const QString contactId = ContactRepository(testStore())
                                      .create(ContactRules::parse({{"firstName", "Can"}, {"phone", "+905551112233"}}))
                                      .id;
        const QString conv =
            ConversationRepository(testStore()).findOrCreate(contactId, "whatsapp", "+905551112233").id;
        HttpResult r = m_api->client->post("/api/v1/conversations/" + conv + "/messages", {{"text", "Hello"}});
        QCOMPARE(r.status, 503);
        QCOMPARE(r.errorCode(), QString("CHANNEL_UNAVAILABLE"));
        QCOMPARE(r.json.value("error").toObject().value("message").toString(), QString("Channel unavailable"));
        r = m_api->client->post("/api/v1/messages",
                                {{"contactId", contactId}, {"channel", "whatsapp"}, {"text", "Hello"}});
        QCOMPARE(r.status, 503);
        QCOMPARE(count("SELECT count(*) FROM messages"), 0);
    }

    void scopesAndCredentials()
    {
        const QString conv = visitor().value("conversationId").toString();
        QCOMPARE(client()->get("/api/v1/conversations").status, 401);
        QCOMPARE(client("lk_wrong")->get("/api/v1/messages").status, 401);
        auto reader = client(m_api->server.createApiKey({"conversations:read", "messages:read"}));
        QCOMPARE(reader->get("/api/v1/conversations").status, 200);
        QCOMPARE(reader->get("/api/v1/messages").status, 200);
        QCOMPARE(reader->post("/api/v1/conversations/" + conv + "/close", {}).status, 403);
        QCOMPARE(reader->post("/api/v1/conversations/" + conv + "/messages", {{"text", "x"}}).status, 403);
        QCOMPARE(reader->post("/api/v1/messages/send", {{"conversationId", conv}, {"content", "x"}}).status, 403);
        auto contactsOnly = client(m_api->server.createApiKey({"contacts:read"}));
        QCOMPARE(contactsOnly->get("/api/v1/conversations").status, 403);
        QCOMPARE(contactsOnly->get("/api/v1/messages").status, 403);
    }

    void idempotentSendSendsOnce()
    {
        const QString conv = visitor().value("conversationId").toString();
        const QByteArray body = QJsonDocument(QJsonObject{{"conversationId", conv}, {"content", "once"}}).toJson();
        const HttpResult a = m_api->client->call("POST", "/api/v1/messages/send", body, {{"Idempotency-Key", "k-1"}});
        const HttpResult b = m_api->client->call("POST", "/api/v1/messages/send", body, {{"Idempotency-Key", "k-1"}});
        QCOMPARE(a.status, 201);
        QCOMPARE(b.status, 201);
        QCOMPARE(a.data().value("id"), b.data().value("id"));
        QCOMPARE(count("SELECT count(*) FROM messages"), 1);
    }

    void openApiDocumentsInboxRoutes()
    {
        const QJsonObject paths = m_api->client->get("/api/v1/openapi.json").json.value("paths").toObject();
        for (const char *p :
             {"/api/v1/conversations", "/api/v1/conversations/{id}/messages", "/api/v1/messages",
              "/api/v1/messages/{id}/status", "/widget/v1/visitors", "/widget/v1/messages", "/widget/v1/visitors/me"})
            QVERIFY2(paths.contains(QLatin1String(p)), p);
    }
};

QTEST_GUILESS_MAIN(TestConversationsApi)
#include "test_conversationsapi.moc"
