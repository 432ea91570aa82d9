// Templates, the template sender, bulk sends and the channel's per-second limit over real HTTPS:
// /api/v1/templates CRUD and its errors; POST /messages/template (approved templates only, body
// parameters filled, 400/422/503); POST /messages (429 "Rate limited" with Retry-After once the
// channel's one-second window is full; Idempotency-Key sends once); POST /messages/bulk (202,
// recipients or a segment, queued and sent by the delivery-thread services, never 429) and
// GET /messages/bulk/:bulkId.
#include "messaging/channels/bulkexpander.h"
#include "messaging/channels/channeldispatcher.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "tests/support/channeltestrig.h"
#include "tests/support/scriptedconnector.h"

#include <QJsonArray>
#include <QtTest>

namespace {
using ChannelTest::count;

QJsonArray bodyParameters(const QStringList &texts)
{
    QJsonArray parameters;
    for (const QString &t : texts)
        parameters.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), t}});
    return QJsonArray{
        QJsonObject{{QStringLiteral("type"), QStringLiteral("body")}, {QStringLiteral("parameters"), parameters}}};
}
} // namespace

class TestTemplatesBulkApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ChannelTestRig> m_rig;

    void createOrderTemplate()
    {
        const HttpResult r = m_rig->client().post(
            "/api/v1/templates", {{"name", "order_update"},
                                  {"language", "en_US"},
                                  {"body", "Hello {{1}}, your order {{2}} has shipped."},
                                  {"buttons", QJsonArray{QJsonObject{{"type", "quick_reply"}, {"text", "Thanks"}}}}});
        QCOMPARE(r.status, 201);
    }

private Q_SLOTS:
    void init()
    {
        m_rig = std::make_unique<ChannelTestRig>();
        ChannelsConfig channels;
        channels.whatsapp.phoneNumberId = QStringLiteral("1065");
        channels.whatsapp.accessToken = QStringLiteral("token");
        channels.whatsapp.sendPerSecond = 80;
        channels.retryDelays = {0};
        channels.pollIntervalMs = 50;
        m_rig->start(channels, false);
    }

    void cleanup() { m_rig.reset(); }

    void templatesCrud()
    {
        createOrderTemplate();
        HttpResult r = m_rig->client().get("/api/v1/templates");
        QCOMPARE(r.status, 200);
        const QJsonArray list = r.json.value("data").toArray();
        QCOMPARE(list.size(), 1);
        const QJsonObject tpl = list.first().toObject();
        QCOMPARE(tpl.value("parameterCount").toInt(), 2);
        QCOMPARE(tpl.value("status").toString(), QStringLiteral("approved"));
        const QString id = tpl.value("id").toString();
        QVERIFY(id.startsWith(QLatin1String("tpl_")));

        // The same name and language again: 409.
        r = m_rig->client().post("/api/v1/templates", {{"name", "order_update"}, {"language", "en_US"}, {"body", "x"}});
        QCOMPARE(r.status, 409);
        // Missing body: 422; bad name, gap in placeholders, unknown category: 400.
        r = m_rig->client().post("/api/v1/templates", {{"name", "a"}, {"language", "tr"}});
        QCOMPARE(r.status, 422);
        QVERIFY(r.json.value("error").toObject().value("details").toObject().contains("body"));
        r = m_rig->client().post("/api/v1/templates", {{"name", "Order Update"}, {"language", "tr"}, {"body", "x"}});
        QCOMPARE(r.status, 400);
        r = m_rig->client().post("/api/v1/templates", {{"name", "gap"}, {"language", "tr"}, {"body", "{{1}} {{3}}"}});
        QCOMPARE(r.status, 400);
        r = m_rig->client().post("/api/v1/templates",
                                 {{"name", "c"}, {"language", "tr"}, {"body", "x"}, {"category", "spam"}});
        QCOMPARE(r.status, 400);

        r = m_rig->client().patch("/api/v1/templates/" + id, {{"status", "pending"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QStringLiteral("pending"));
        QCOMPARE(m_rig->client().get("/api/v1/templates?status=approved").json.value("data").toArray().size(), 0);
        QCOMPARE(m_rig->client().get("/api/v1/templates?status=nope").status, 400);
        QCOMPARE(m_rig->client().get("/api/v1/templates/tpl_unknown").status, 404);
        QCOMPARE(m_rig->client().del("/api/v1/templates/" + id).status, 200);
        QCOMPARE(m_rig->client().get("/api/v1/templates/" + id).status, 404);
    }

    void templateSend()
    {
        createOrderTemplate();
        QJsonArray components = bodyParameters({"Ayşe", "ORD-9271"});
        components.append(
            QJsonObject{{"type", "button"},
                        {"sub_type", "quick_reply"},
                        {"index", 0},
                        {"parameters", QJsonArray{QJsonObject{{"type", "payload"}, {"payload", "OK_1"}}}}});
        // No channel (whatsapp by default) and no language (the template's only one).
        HttpResult r = m_rig->client().post(
            "/api/v1/messages/template",
            {{"to", "+90 532 111 22 33"}, {"templateName", "order_update"}, {"components", components}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("type").toString(), QStringLiteral("template"));
        QCOMPARE(r.data().value("channel").toString(), QStringLiteral("whatsapp"));
        QCOMPARE(r.data().value("status").toString(), QStringLiteral("pending"));
        QCOMPARE(r.data().value("text").toString(), QStringLiteral("Hello Ayşe, your order ORD-9271 has shipped."));
        // The contact was made from the phone, the conversation on whatsapp.
        QCOMPARE(count("SELECT count(*) FROM contacts WHERE phone_e164 = '+905321112233'"), 1);

        // The dispatcher hands the template to the connector with its name, language and components.
        ChannelDispatcher dispatcher(m_rig->registry(), m_rig->server().store());
        auto *connector = new ScriptedConnector;
        dispatcher.setConnector(connector);
        QTRY_COMPARE_WITH_TIMEOUT(connector->messages.size(), 1, 5000);
        const Message sent = connector->messages.first();
        QCOMPARE(sent.payload.value("templateName").toString(), QStringLiteral("order_update"));
        QCOMPARE(sent.payload.value("templateLanguage").toString(), QStringLiteral("en_US"));
        QCOMPARE(sent.payload.value("components").toArray(), components);
        QCOMPARE(connector->sends.first().to, QStringLiteral("+905321112233"));

        // Errors: unknown template 422, wrong parameter count 400, bad button index 400, bad phone
        // 400, an unconfigured channel 503.
        r = m_rig->client().post("/api/v1/messages/template", {{"to", "+905321112233"}, {"templateName", "nope"}});
        QCOMPARE(r.status, 422);
        r = m_rig->client().post("/api/v1/messages/template", {{"to", "+905321112233"},
                                                               {"templateName", "order_update"},
                                                               {"templateLanguage", "en_US"},
                                                               {"components", bodyParameters({"only one"})}});
        QCOMPARE(r.status, 400);
        QVERIFY(r.json.value("error").toObject().value("message").toString().contains("needs 2 body parameters"));
        QJsonArray badButton = bodyParameters({"a", "b"});
        badButton.append(
            QJsonObject{{"type", "button"}, {"sub_type", "quick_reply"}, {"index", 5}, {"parameters", QJsonArray{}}});
        r = m_rig->client().post(
            "/api/v1/messages/template",
            {{"to", "+905321112233"}, {"templateName", "order_update"}, {"components", badButton}});
        QCOMPARE(r.status, 400);
        r = m_rig->client().post(
            "/api/v1/messages/template",
            {{"to", "12"}, {"templateName", "order_update"}, {"components", bodyParameters({"a", "b"})}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json.value("error").toObject().value("message").toString(), QStringLiteral("Invalid phone"));
        r = m_rig->client().post("/api/v1/messages/template", {{"to", "12345"},
                                                               {"channel", "telegram"},
                                                               {"templateName", "order_update"},
                                                               {"components", bodyParameters({"a", "b"})}});
        QCOMPARE(r.status, 503);
        QCOMPARE(r.json.value("error").toObject().value("message").toString(), QStringLiteral("Channel unavailable"));
    }

    void directSendRateLimited()
    {
        // Fill WhatsApp's one-second window (80 sends, stamped in the future so that the window is
        // still full whatever the machine's speed).
        const qint64 later = QDateTime::currentMSecsSinceEpoch() + 20000;
        for (int i = 0; i < 80; ++i)
            QVERIFY(m_rig->registry()->tryAcquireSend(QStringLiteral("whatsapp"), later));
        const HttpResult r = m_rig->client().post(
            "/api/v1/messages", {{"to", "+905321112233"}, {"channel", "whatsapp"}, {"type", "text"}, {"text", "hi"}});
        QCOMPARE(r.status, 429);
        QCOMPARE(r.json.value("error").toObject().value("message").toString(), QStringLiteral("Rate limited"));
        QVERIFY(r.header("Retry-After").toInt() >= 1);
        QCOMPARE(count("SELECT count(*) FROM messages"), 0);
        // Nothing was created for the refused send: no contact, no conversation.
        QCOMPARE(count("SELECT count(*) FROM contacts"), 0);
        QCOMPARE(count("SELECT count(*) FROM conversations"), 0);
        // A 429 is not kept for its Idempotency-Key: a retry with the key is tried again.
        const HttpResult keyed = m_rig->client().call(
            "POST", "/api/v1/messages",
            QJsonDocument(
                QJsonObject{{"to", "+905321112233"}, {"channel", "whatsapp"}, {"type", "text"}, {"text", "hi"}})
                .toJson(),
            {{"Idempotency-Key", "retry-me"}});
        QCOMPARE(keyed.status, 429);
        QCOMPARE(count("SELECT count(*) FROM idempotency_keys"), 0);
    }

    void directSendNeedsAnAddress()
    {
        // Telegram can only answer people who wrote first: a contact without a telegram
        // conversation gets 422, an unknown chat id 404; WhatsApp needs the contact's phone.
        ChannelsConfig channels = m_rig->registry()->config();
        channels.telegram.botToken = QStringLiteral("123:abc");
        m_rig->start(channels, false);
        const QString contactId =
            ContactRepository(testStore())
                .create(ContactRules::parse({{"firstName", "Mail only"}, {"email", "m@example.com"}}))
                .id;
        HttpResult r = m_rig->client().post(
            "/api/v1/messages", {{"contactId", contactId}, {"channel", "telegram"}, {"type", "text"}, {"text", "hi"}});
        QCOMPARE(r.status, 422);
        r = m_rig->client().post("/api/v1/messages",
                                 {{"to", "555"}, {"channel", "telegram"}, {"type", "text"}, {"text", "hi"}});
        QCOMPARE(r.status, 404);
        QCOMPARE(r.json.value("error").toObject().value("message").toString(), QStringLiteral("Contact not found"));
        r = m_rig->client().post("/api/v1/messages",
                                 {{"contactId", contactId}, {"channel", "whatsapp"}, {"type", "text"}, {"text", "hi"}});
        QCOMPARE(r.status, 422);
        QCOMPARE(count("SELECT count(*) FROM conversations"), 0);
        QCOMPARE(count("SELECT count(*) FROM messages"), 0);
    }

    void directSendIdempotent()
    {
        const QByteArray body =
            QJsonDocument(
                QJsonObject{{"to", "+905321112233"}, {"channel", "whatsapp"}, {"type", "text"}, {"text", "once"}})
                .toJson();
        const HttpResult first =
            m_rig->client().call("POST", "/api/v1/messages", body, {{"Idempotency-Key", "send-1"}});
        const HttpResult second =
            m_rig->client().call("POST", "/api/v1/messages", body, {{"Idempotency-Key", "send-1"}});
        QCOMPARE(first.status, 201);
        QCOMPARE(second.status, 201);
        QCOMPARE(second.header("Idempotent-Replayed"), QByteArray("true"));
        QCOMPARE(second.data().value("id"), first.data().value("id"));
        QCOMPARE(count("SELECT count(*) FROM messages"), 1);
    }

    void bulkToSegment()
    {
        createOrderTemplate();
        ContactRepository contacts(testStore());
        for (int i = 0; i < 5; ++i)
            contacts.create(ContactRules::parse({{"firstName", QStringLiteral("Bulk %1").arg(i)},
                                                 {"phone", QStringLiteral("+90532000000%1").arg(i)},
                                                 {"tags", QJsonArray{"vip"}}}));
        contacts.create(ContactRules::parse(
            {{"firstName", "No phone"}, {"email", "nophone@example.com"}, {"tags", QJsonArray{"vip"}}}));
        const Segment segment =
            SegmentRepository(testStore())
                .create(SegmentRules::parse(
                    {{"name", "VIP"},
                     {"filters",
                      QJsonObject{{"logic", "AND"},
                                  {"rules", QJsonArray{QJsonObject{
                                                {"field", "tags"}, {"operator", "contains"}, {"value", "vip"}}}}}}}));
        // Bulk sends are queued, never refused by the per-second window.
        const qint64 later = QDateTime::currentMSecsSinceEpoch() + 20000;
        for (int i = 0; i < 80; ++i)
            m_rig->registry()->tryAcquireSend(QStringLiteral("whatsapp"), later);
        HttpResult r =
            m_rig->client().post("/api/v1/messages/bulk", {{"segmentId", segment.id},
                                                           {"templateName", "order_update"},
                                                           {"templateLanguage", "en_US"},
                                                           {"components", bodyParameters({"friend", "ORD-1"})}});
        QCOMPARE(r.status, 202);
        const QString bulkId = r.data().value("bulkId").toString();
        QVERIFY(bulkId.startsWith(QLatin1String("bulk_")));
        QCOMPARE(r.data().value("total").toInt(), 6);

        r = m_rig->client().get("/api/v1/messages/bulk/" + bulkId);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QStringLiteral("in_progress"));
        QCOMPARE(r.data().value("progress").toObject().value("queued").toInt(), 6);

        BulkExpander expander(m_rig->server().store());
        ChannelDispatcher dispatcher(m_rig->registry(), m_rig->server().store());
        auto *connector = new ScriptedConnector;
        dispatcher.setConnector(connector);
        QTRY_COMPARE_WITH_TIMEOUT(connector->sends.size(), 5, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(
            m_rig->client().get("/api/v1/messages/bulk/" + bulkId).data().value("status").toString(),
            QStringLiteral("completed"), 10000);
        r = m_rig->client().get("/api/v1/messages/bulk/" + bulkId);
        const QJsonObject progress = r.data().value("progress").toObject();
        QCOMPARE(progress.value("sent").toInt(), 5);
        QCOMPARE(progress.value("failed").toInt(), 1);
        QCOMPARE(progress.value("percent").toInt(), 100);
        const QJsonArray recipients = r.data().value("recipients").toArray();
        QCOMPARE(recipients.size(), 6);
        int withError = 0;
        for (const QJsonValue &v : recipients) {
            const QJsonObject o = v.toObject();
            if (o.value("status").toString() == QLatin1String("failed")) {
                ++withError;
                QCOMPARE(o.value("error").toString(), QStringLiteral("The contact has no phone number"));
                QVERIFY(o.value("messageId").isNull());
            } else {
                QCOMPARE(o.value("status").toString(), QStringLiteral("sent"));
                QVERIFY(o.value("messageId").toString().startsWith(QLatin1String("msg_")));
            }
        }
        QCOMPARE(withError, 1);
        QCOMPARE(m_rig->client()
                     .get("/api/v1/messages/bulk/" + bulkId + "?limit=2")
                     .data()
                     .value("recipients")
                     .toArray()
                     .size(),
                 2);
    }

    void bulkToRecipients()
    {
        createOrderTemplate();
        HttpResult r = m_rig->client().post(
            "/api/v1/messages/bulk",
            {{"recipients", QJsonArray{"+905320000001", "not a phone", "+905320000001", "+44 7700 900123"}},
             {"channel", "whatsapp"},
             {"templateName", "order_update"},
             {"components", bodyParameters({"a", "b"})}});
        QCOMPARE(r.status, 202);
        QCOMPARE(r.data().value("total").toInt(), 3); // the repeated phone is sent once
        const QString bulkId = r.data().value("bulkId").toString();
        BulkExpander expander(m_rig->server().store());
        QTRY_COMPARE_WITH_TIMEOUT(count("SELECT count(*) FROM messages WHERE type = 'template'"), 2, 5000);
        r = m_rig->client().get("/api/v1/messages/bulk/" + bulkId);
        QCOMPARE(r.data().value("progress").toObject().value("queued").toInt(), 2); // pending: no dispatcher here
        const QJsonArray recipients = r.data().value("recipients").toArray();
        QCOMPARE(recipients.at(1).toObject().value("error").toString(), QStringLiteral("Invalid phone"));
        QCOMPARE(recipients.at(2).toObject().value("recipient").toString(), QStringLiteral("+447700900123"));
        // Unknown contacts were created from their phones.
        QCOMPARE(count("SELECT count(*) FROM contacts WHERE source = 'whatsapp'"), 2);
    }

    void bulkErrors()
    {
        createOrderTemplate();
        const QJsonArray components = bodyParameters({"a", "b"});
        // Neither or both of recipients and segmentId: 422.
        QCOMPARE(m_rig->client()
                     .post("/api/v1/messages/bulk", {{"templateName", "order_update"}, {"components", components}})
                     .status,
                 422);
        QCOMPARE(m_rig->client()
                     .post("/api/v1/messages/bulk", {{"recipients", QJsonArray{"+905320000001"}},
                                                     {"segmentId", "seg_x"},
                                                     {"templateName", "order_update"},
                                                     {"components", components}})
                     .status,
                 422);
        QCOMPARE(m_rig->client()
                     .post("/api/v1/messages/bulk",
                           {{"recipients", QJsonArray{}}, {"templateName", "order_update"}, {"components", components}})
                     .status,
                 400);
        QCOMPARE(
            m_rig->client()
                .post("/api/v1/messages/bulk",
                      {{"recipients", QJsonArray{1, 2}}, {"templateName", "order_update"}, {"components", components}})
                .status,
            400);
        QCOMPARE(m_rig->client()
                     .post("/api/v1/messages/bulk",
                           {{"segmentId", "seg_unknown"}, {"templateName", "order_update"}, {"components", components}})
                     .status,
                 404);
        QCOMPARE(m_rig->client()
                     .post("/api/v1/messages/bulk", {{"recipients", QJsonArray{"+905320000001"}},
                                                     {"templateName", "nope"},
                                                     {"components", components}})
                     .status,
                 422);
        QCOMPARE(m_rig->client()
                     .post("/api/v1/messages/bulk", {{"recipients", QJsonArray{"1"}},
                                                     {"channel", "instagram"},
                                                     {"templateName", "order_update"},
                                                     {"components", components}})
                     .status,
                 503);
        QCOMPARE(m_rig->client()
                     .post("/api/v1/messages/bulk", {{"recipients", QJsonArray{"v"}},
                                                     {"channel", "widget"},
                                                     {"templateName", "order_update"},
                                                     {"components", components}})
                     .status,
                 400);
        QCOMPARE(m_rig->client().get("/api/v1/messages/bulk/bulk_unknown").status, 404);
        QCOMPARE(count("SELECT count(*) FROM bulk_sends"), 0);
    }
};

QTEST_GUILESS_MAIN(TestTemplatesBulkApi)
#include "test_templatesbulkapi.moc"
