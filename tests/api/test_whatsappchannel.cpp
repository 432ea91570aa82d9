// The WhatsApp Cloud API channel against a local fake of the Graph API (FakeGraphApi): the request
// shape of every message type, API send -> pending -> dispatcher -> connector -> sent with the
// wamid, status webhooks in any order, incoming messages (contact, conversation, message.received,
// once per wamid), the signature and the hub handshake, error codes, a provider that is down, and
// an unconfigured channel.
#include "messaging/channels/whatsappconnector.h"
#include "model/core/database.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/inboundrecorder.h"
#include "tests/support/channeltestrig.h"
#include "tests/support/fakegraphapi.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QtTest>

namespace {
const QString kSecret = QStringLiteral("app-secret-123");
const QString kVerify = QStringLiteral("verify-me-please");
const QString kPhone = QStringLiteral("+905321234567");

using ChannelTest::count;
using ChannelTest::message;
using ChannelTest::sendWith;
using ChannelTest::waitUntil;
} // namespace

class TestWhatsAppChannel : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ChannelTestRig> m_rig;
    std::unique_ptr<FakeGraphApi> m_fake;

    ChannelsConfig channels() const
    {
        ChannelsConfig c;
        c.whatsapp.apiBaseUrl = m_fake->baseUrl();
        c.whatsapp.phoneNumberId = m_fake->phoneNumberId;
        c.whatsapp.accessToken = m_fake->token;
        c.whatsapp.appSecret = kSecret;
        c.whatsapp.verifyToken = kVerify;
        c.retryDelays = {1, 1, 1};
        c.timeoutSeconds = 5;
        c.pollIntervalMs = 100;
        c.probeIntervalSeconds = 3600; // tests probe themselves
        return c;
    }

    HttpResult webhook(const QJsonObject &body, const QString &secret = kSecret)
    {
        return MetaWebhook::post(m_rig->server().baseUrl(), m_rig->server().certificate(),
                                 QStringLiteral("/webhooks/whatsapp"), MetaWebhook::bytes(body), secret);
    }

    HttpResult sendText(const QString &text, const QString &to = kPhone)
    {
        return m_rig->client().post("/api/v1/messages",
                                    {{"channel", "whatsapp"}, {"to", to}, {"type", "text"}, {"text", text}});
    }

    bool waitStatus(const QString &id, const QString &status, int ms = 10000)
    {
        const bool ok = waitUntil([&] { return message(id).delivery.status == status; }, ms);
        if (!ok)
            qWarning() << "status of" << id << "is" << message(id).delivery.status << message(id).delivery.failedReason;
        return ok;
    }

    // A direct send (the fake answers wamid.FAKE1 to the first): its id, without waiting.
    QString sentMessageId(const QString &text = QStringLiteral("Merhaba"))
    {
        const HttpResult r = sendText(text);
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value("id").toString();
    }

    // A direct send that reached the fake and is sent: its id.
    QString sentMessage(const QString &text = QStringLiteral("Merhaba"))
    {
        const HttpResult r = sendText(text);
        if (r.status != 201)
            qWarning() << r.status << r.body;
        const QString id = r.data().value("id").toString();
        waitStatus(id, "sent");
        return id;
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_rig = std::make_unique<ChannelTestRig>();
        m_fake = std::make_unique<FakeGraphApi>();
        m_rig->start(channels());
    }

    void cleanup()
    {
        QVERIFY2(m_fake->problems().isEmpty(), qPrintable(m_fake->problems().join('\n')));
        m_rig->stop();
        m_fake.reset();
        m_rig.reset();
    }

    void sendsEachTypeInGraphShape_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mediaUrl");
        QTest::addColumn<QString>("caption");
        QTest::addColumn<QString>("filename");
        QTest::addColumn<QJsonObject>("payload");
        QTest::addColumn<QJsonObject>("expected");
        const QString url = "https://crm.example.com/media/m_1?token=abc";
        QTest::newRow("text") << "text"
                              << "Merhaba Ayşe"
                              << ""
                              << ""
                              << "" << QJsonObject() << QJsonObject{{"body", "Merhaba Ayşe"}, {"preview_url", false}};
        QTest::newRow("image") << "image"
                               << "" << url << "Our catalogue"
                               << "" << QJsonObject() << QJsonObject{{"link", url}, {"caption", "Our catalogue"}};
        QTest::newRow("video") << "video"
                               << "" << url << "Demo"
                               << "" << QJsonObject() << QJsonObject{{"link", url}, {"caption", "Demo"}};
        QTest::newRow("document") << "document"
                                  << "" << url << "Offer"
                                  << "offer.pdf" << QJsonObject()
                                  << QJsonObject{{"link", url}, {"caption", "Offer"}, {"filename", "offer.pdf"}};
        QTest::newRow("audio: link only") << "audio"
                                          << "" << url << "ignored caption"
                                          << "" << QJsonObject() << QJsonObject{{"link", url}};
        QTest::newRow("location") << "location"
                                  << ""
                                  << ""
                                  << ""
                                  << ""
                                  << QJsonObject{{"latitude", 41.0082},
                                                 {"longitude", 28.9784},
                                                 {"name", "Office"},
                                                 {"address", "Istiklal Cd. 1"}}
                                  << QJsonObject{{"latitude", 41.0082},
                                                 {"longitude", 28.9784},
                                                 {"name", "Office"},
                                                 {"address", "Istiklal Cd. 1"}};
        const QJsonArray components{
            QJsonObject{{"type", "body"},
                        {"parameters", QJsonArray{QJsonObject{{"type", "text"}, {"text", "Asha"}},
                                                  QJsonObject{{"type", "text"}, {"text", "ORD-9271"}}}}},
            QJsonObject{{"type", "button"},
                        {"sub_type", "quick_reply"},
                        {"index", 0},
                        {"parameters", QJsonArray{QJsonObject{{"type", "payload"}, {"payload", "CONFIRM_123"}}}}}};
        QJsonArray graphComponents = components;
        QJsonObject button = graphComponents.at(1).toObject();
        button.insert("index", "0"); // a string in the Graph API
        graphComponents.replace(1, button);
        QTest::newRow("template") << "template"
                                  << ""
                                  << ""
                                  << ""
                                  << ""
                                  << QJsonObject{{"templateName", "order_update"},
                                                 {"templateLanguage", "en_US"},
                                                 {"components", components}}
                                  << QJsonObject{{"name", "order_update"},
                                                 {"language", QJsonObject{{"code", "en_US"}}},
                                                 {"components", graphComponents}};
    }

    void sendsEachTypeInGraphShape()
    {
        QFETCH(QString, type);
        QFETCH(QString, text);
        QFETCH(QString, mediaUrl);
        QFETCH(QString, caption);
        QFETCH(QString, filename);
        QFETCH(QJsonObject, payload);
        QFETCH(QJsonObject, expected);
        WhatsAppConnector connector(channels().whatsapp, 5);
        Message m;
        m.id = "msg_test";
        m.channel = "whatsapp";
        m.type = type;
        m.text = text;
        m.mediaUrl = mediaUrl;
        m.caption = caption;
        m.filename = filename;
        m.payload = payload;
        const std::optional<SendOutcome> outcome = sendWith(connector, m, kPhone);
        QVERIFY(outcome);
        QCOMPARE(outcome->kind, SendOutcome::Sent);
        QCOMPARE(outcome->providerMessageId, QString("wamid.FAKE1"));
        QCOMPARE(m_fake->sends().size(), 1);
        const FakeGraphApi::Request r = m_fake->sends().at(0);
        QCOMPARE(r.path, "/" + m_fake->phoneNumberId + "/messages");
        QCOMPARE(r.authorization, "Bearer " + m_fake->token.toUtf8());
        QCOMPARE(r.json.value("messaging_product").toString(), QString("whatsapp"));
        QCOMPARE(r.json.value("recipient_type").toString(), QString("individual"));
        QCOMPARE(r.json.value("to").toString(), QString("905321234567"));
        QCOMPARE(r.json.value("type").toString(), type);
        QCOMPARE(r.json.value(type).toObject(), expected);
    }

    void refusesWhatItCannotSendWithoutCalling()
    {
        WhatsAppConnector connector(channels().whatsapp, 5);
        Message m;
        m.type = "image"; // no mediaUrl
        std::optional<SendOutcome> outcome = sendWith(connector, m, kPhone);
        QVERIFY(outcome);
        QCOMPARE(outcome->kind, SendOutcome::Failed);
        QVERIFY(outcome->error.contains("mediaUrl"));
        m.type = "template"; // no templateName
        outcome = sendWith(connector, m, kPhone);
        QCOMPARE(outcome->kind, SendOutcome::Failed);
        QVERIFY(outcome->error.contains("templateName"));
        QCOMPARE(m_fake->requests.size(), 0);
    }

    void relativeMediaLinksAreRefused()
    {
        WhatsAppConnector connector(channels().whatsapp, 5);
        Message m;
        m.type = "document";
        m.mediaUrl = "/media/media_1/token";
        const std::optional<SendOutcome> outcome = sendWith(connector, m, kPhone);
        QVERIFY(outcome);
        QCOMPARE(outcome->kind, SendOutcome::Failed);
        QVERIFY2(outcome->error.contains("absolute"), qPrintable(outcome->error));
        QCOMPARE(m_fake->requests.size(), 0);
    }

    void throughputLimitPausesTheChannelWithGrowingWaits()
    {
        WhatsAppConnector connector(channels().whatsapp, 5);
        Message m;
        m.type = "text";
        m.text = "hi";
        m_fake->throttle(3);
        QList<int> waits;
        for (int i = 0; i < 3; ++i) {
            const std::optional<SendOutcome> outcome = sendWith(connector, m, kPhone);
            QVERIFY(outcome);
            QCOMPARE(outcome->kind, SendOutcome::Retry);
            QVERIFY(outcome->channelThrottled);
            QVERIFY2(outcome->error.startsWith("130429: "), qPrintable(outcome->error));
            waits << outcome->retryAfterSeconds;
        }
        QCOMPARE(waits, QList<int>({1, 2, 4}));
        // A success resets the wait.
        QCOMPARE(sendWith(connector, m, kPhone)->kind, SendOutcome::Sent);
        m_fake->throttle(1);
        QCOMPARE(sendWith(connector, m, kPhone)->retryAfterSeconds, 1);
        // The pair rate limit holds back only this recipient.
        m_fake->failNext(131056);
        const std::optional<SendOutcome> pair = sendWith(connector, m, kPhone);
        QCOMPARE(pair->kind, SendOutcome::Retry);
        QVERIFY(!pair->channelThrottled);
        QCOMPARE(pair->retryAfterSeconds, 0);
    }

    void directSendIsSentWithTheWamid()
    {
        const HttpResult r = sendText("Merhaba, teklifiniz hazır");
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("status").toString(), QString("pending"));
        const QString id = r.data().value("id").toString();
        QVERIFY(waitStatus(id, "sent"));
        QCOMPARE(message(id).providerId, QString("wamid.FAKE1"));
        QCOMPARE(m_fake->sends().size(), 1);
        QCOMPARE(m_fake->sends().at(0).json.value("to").toString(), QString("905321234567"));
        QCOMPARE(m_fake->sends().at(0).json.value("text").toObject().value("body").toString(),
                 QString("Merhaba, teklifiniz hazır"));
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.sent'"), 1);
        const HttpResult status = m_rig->client().get("/api/v1/messages/" + id + "/status");
        QCOMPARE(status.data().value("status").toString(), QString("sent"));
        QVERIFY(!status.data().value("sentAt").toString().isEmpty());
    }

    void statusesApplyInAnyOrder()
    {
        const QString id = sentMessage();
        QVERIFY(!id.isEmpty());
        // read before delivered: both reached, each event once.
        HttpResult r = webhook(MetaWebhook::whatsappStatus("wamid.FAKE1", "read", "905321234567"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("statuses").toInt(), 1);
        Message m = message(id);
        QCOMPARE(m.delivery.status, QString("read"));
        QVERIFY(!m.delivery.deliveredAt.isEmpty());
        QVERIFY(!m.delivery.readAt.isEmpty());
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.read'"), 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.delivered'"), 1);
        const int events = count("SELECT count(*) FROM outbox");

        // A late delivered (and a late sent) change nothing and emit nothing.
        QSignalSpy bus(&m_rig->server().bus(), &EventBus::changed);
        r = webhook(MetaWebhook::whatsappStatus("wamid.FAKE1", "delivered", "905321234567"));
        QCOMPARE(r.status, 200);
        r = webhook(MetaWebhook::whatsappStatus("wamid.FAKE1", "sent", "905321234567"));
        QCOMPARE(r.status, 200);
        QCOMPARE(message(id).delivery.status, QString("read"));
        QCOMPARE(message(id).delivery.readAt, m.delivery.readAt);
        QCOMPARE(count("SELECT count(*) FROM outbox"), events);
        for (const QList<QVariant> &args : std::as_const(bus))
            QVERIFY2(args.at(0).value<EventBus::Entity>() != EventBus::Entity::Message,
                     qPrintable(EventBus::name(args.at(2).value<EventBus::Change>())));
    }

    void failedStatusKeepsCodeAndTitle()
    {
        const QString id = sentMessage();
        const QJsonArray errors{QJsonObject{{"code", 131026},
                                            {"title", "Message undeliverable"},
                                            {"message", "Message undeliverable"},
                                            {"error_data", QJsonObject{{"details", "not on WhatsApp"}}}}};
        const HttpResult r = webhook(MetaWebhook::whatsappStatus("wamid.FAKE1", "failed", "905321234567", errors));
        QCOMPARE(r.status, 200);
        QCOMPARE(message(id).delivery.status, QString("failed"));
        QCOMPARE(message(id).delivery.failedReason, QString("131026: Message undeliverable"));
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.failed'"), 1);
    }

    void unknownStatusIdsAreKeptNotApplied()
    {
        const HttpResult r = webhook(MetaWebhook::whatsappStatus("wamid.SOMEONE_ELSE", "read", "905321234567"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("statuses").toInt(), 0);
        QCOMPARE(r.data().value("kept").toInt(), 1);
        QCOMPARE(count("SELECT count(*) FROM early_statuses"), 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event LIKE 'message.%'"), 0);
        // an unknown state is ignored, not kept
        const HttpResult odd = webhook(MetaWebhook::whatsappStatus("wamid.SOMEONE_ELSE", "warning", "905321234567"));
        QCOMPARE(odd.data().value("ignored").toInt(), 1);
        QCOMPARE(count("SELECT count(*) FROM early_statuses"), 1);
    }

    // The provider's failed report overtakes the answer of the send: it is kept and applied when
    // the send records the wamid, and the message ends failed, not sent.
    void aStatusBeforeTheSendIsRecordedIsApplied()
    {
        const QJsonArray errors{QJsonObject{{"code", 131026}, {"title", "Message undeliverable"}}};
        HttpResult r = webhook(MetaWebhook::whatsappStatus("wamid.FAKE1", "failed", "905321234567", errors));
        QCOMPARE(r.data().value("kept").toInt(), 1);
        r = webhook(MetaWebhook::whatsappStatus("wamid.FAKE1", "delivered", "905321234567"));
        QCOMPARE(r.data().value("kept").toInt(), 1);
        const QString id = sentMessageId();
        QVERIFY(waitStatus(id, "failed"));
        const Message m = message(id);
        QCOMPARE(m.delivery.failedReason, QString("131026: Message undeliverable"));
        QVERIFY(!m.delivery.sentAt.isEmpty());
        QVERIFY(m.delivery.deliveredAt.isEmpty()); // failed is final: the later delivered changes nothing
        QCOMPARE(count("SELECT count(*) FROM early_statuses"), 0);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.failed'"), 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.delivered'"), 0);
    }

    void earlyStatusesMoveForwardOnly()
    {
        // read, then delivered, before the send: the message ends read with both times, each event once
        webhook(MetaWebhook::whatsappStatus("wamid.FAKE1", "read", "905321234567"));
        webhook(MetaWebhook::whatsappStatus("wamid.FAKE1", "delivered", "905321234567"));
        const QString id = sentMessageId();
        QVERIFY(waitStatus(id, "read"));
        QVERIFY(!message(id).delivery.deliveredAt.isEmpty());
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.read'"), 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.delivered'"), 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.sent'"), 1);
    }

    void incomingMessageCreatesContactAndConversationOnce()
    {
        QSignalSpy bus(&m_rig->server().bus(), &EventBus::changed);
        const QJsonObject body =
            MetaWebhook::whatsappText("16505551234", "Sheena Nelson", "wamid.IN1", "Other colors?");
        HttpResult r = webhook(body);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("success").toBool(), true);
        QCOMPARE(r.data().value("received").toInt(), 1);

        const std::optional<Contact> contact =
            InboundRecorder(testStore()).findContact("whatsapp", "+16505551234", "+16505551234");
        QVERIFY(contact);
        QCOMPARE(contact->firstName, QString("Sheena"));
        QCOMPARE(contact->lastName, QString("Nelson"));
        QCOMPARE(contact->phone, QString("+16505551234"));
        r = m_rig->client().get("/api/v1/conversations?channel=whatsapp");
        QCOMPARE(r.json.value("data").toArray().size(), 1);
        const QJsonObject conversation = r.json.value("data").toArray().at(0).toObject();
        QCOMPARE(conversation.value("lastMessage").toObject().value("text").toString(), QString("Other colors?"));
        QCOMPARE(conversation.value("unreadCount").toInt(), 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.received'"), 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'conversation.created'"), 1);
        QVERIFY(std::any_of(bus.cbegin(), bus.cend(), [](const QList<QVariant> &a) {
            return a.at(0).value<EventBus::Entity>() == EventBus::Entity::Message &&
                   a.at(2).value<EventBus::Change>() == EventBus::Change::Created;
        }));

        // Meta retrying the same webhook: recorded once.
        r = webhook(body);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("received").toInt(), 0);
        QCOMPARE(r.data().value("duplicates").toInt(), 1);
        QCOMPARE(count("SELECT count(*) FROM messages"), 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.received'"), 1);

        // The answer goes into the same conversation, to the same number.
        r = m_rig->client().post(
            "/api/v1/messages",
            {{"channel", "whatsapp"}, {"contactId", contact->id}, {"type", "text"}, {"text", "Blue and red"}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("conversationId").toString(), conversation.value("id").toString());
        QVERIFY(waitStatus(r.data().value("id").toString(), "sent"));
        QCOMPARE(m_fake->sends().at(0).json.value("to").toString(), QString("16505551234"));
    }

    void incomingTypesAreMapped_data()
    {
        QTest::addColumn<QJsonObject>("item");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("caption");
        QTest::addColumn<QString>("filename");
        QTest::addColumn<QString>("payloadKey");
        QTest::addColumn<QJsonValue>("payloadValue");
        QTest::newRow("image") << QJsonObject{{"type", "image"},
                                              {"image", QJsonObject{{"id", "1479537139650973"},
                                                                    {"mime_type", "image/jpeg"},
                                                                    {"sha256", "abc"},
                                                                    {"caption", "this one"}}}}
                               << "image"
                               << ""
                               << "this one"
                               << ""
                               << "providerMediaId" << QJsonValue("1479537139650973");
        QTest::newRow("document") << QJsonObject{{"type", "document"},
                                                 {"document", QJsonObject{{"id", "77"},
                                                                          {"mime_type", "application/pdf"},
                                                                          {"filename", "po.pdf"}}}}
                                  << "document"
                                  << ""
                                  << ""
                                  << "po.pdf"
                                  << "mimeType" << QJsonValue("application/pdf");
        QTest::newRow("audio") << QJsonObject{{"type", "audio"},
                                              {"audio", QJsonObject{{"id", "88"}, {"mime_type", "audio/ogg"}}}}
                               << "audio"
                               << ""
                               << ""
                               << ""
                               << "providerMediaId" << QJsonValue("88");
        QTest::newRow("location") << QJsonObject{{"type", "location"},
                                                 {"location", QJsonObject{{"latitude", 38.4237},
                                                                          {"longitude", 27.1428},
                                                                          {"name", "Izmir office"}}}}
                                  << "location"
                                  << "Izmir office"
                                  << ""
                                  << ""
                                  << "latitude" << QJsonValue(38.4237);
        QTest::newRow("quick-reply tap")
            << QJsonObject{{"type", "button"},
                           {"button", QJsonObject{{"payload", "CONFIRM_123"}, {"text", "Confirm"}}},
                           {"context", QJsonObject{{"from", "15550783881"}, {"id", "wamid.T1"}}}}
            << "text"
            << "Confirm"
            << ""
            << ""
            << "quickReplyPayload" << QJsonValue("CONFIRM_123");
        QTest::newRow("interactive reply")
            << QJsonObject{{"type", "interactive"},
                           {"interactive",
                            QJsonObject{{"type", "button_reply"},
                                        {"button_reply", QJsonObject{{"id", "yes-1"}, {"title", "Yes"}}}}}}
            << "text"
            << "Yes"
            << ""
            << ""
            << "replyId" << QJsonValue("yes-1");
        QTest::newRow("unsupported") << QJsonObject{{"type", "unsupported"}} << "text"
                                     << "(unsupported WhatsApp message: unsupported)"
                                     << ""
                                     << ""
                                     << "unsupportedType" << QJsonValue("unsupported");
    }

    void incomingTypesAreMapped()
    {
        QFETCH(QJsonObject, item);
        QFETCH(QString, type);
        QFETCH(QString, text);
        QFETCH(QString, caption);
        QFETCH(QString, filename);
        QFETCH(QString, payloadKey);
        QFETCH(QJsonValue, payloadValue);
        item.insert("id", "wamid.TYPED");
        const HttpResult r = webhook(MetaWebhook::whatsappMessages("905551112233", "Ali Veli", {item}));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("received").toInt(), 1);
        const std::optional<Message> m =
            ConversationRepository(testStore()).findByProviderId("whatsapp", "wamid.TYPED");
        QVERIFY(m);
        QCOMPARE(m->direction, QString("incoming"));
        QCOMPARE(m->type, type);
        QCOMPARE(m->text, text);
        QCOMPARE(m->caption, caption);
        QCOMPARE(m->filename, filename);
        QCOMPARE(m->payload.value(payloadKey), payloadValue);
    }

    void severalEntriesInOneBody()
    {
        const QString sent = sentMessage();
        QJsonObject body = MetaWebhook::whatsappText("16505550001", "Ann", "wamid.A", "first");
        QJsonArray entry = body.value("entry").toArray();
        entry.append(
            MetaWebhook::whatsappText("16505550002", "Bob", "wamid.B", "second").value("entry").toArray().at(0));
        entry.append(
            MetaWebhook::whatsappStatus("wamid.FAKE1", "delivered", "905321234567").value("entry").toArray().at(0));
        body.insert("entry", entry);
        const HttpResult r = webhook(body);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("received").toInt(), 2);
        QCOMPARE(r.data().value("statuses").toInt(), 1);
        QCOMPARE(message(sent).delivery.status, QString("delivered"));
        QCOMPARE(count("SELECT count(*) FROM conversations WHERE channel = 'whatsapp'"), 3);
    }

    void refusesBadSignatures_data()
    {
        QTest::addColumn<QByteArray>("signature");
        const QByteArray body = MetaWebhook::bytes(MetaWebhook::whatsappText("16505551234", "X", "wamid.S", "hi"));
        QTest::newRow("missing") << QByteArray();
        QTest::newRow("other secret") << MetaWebhook::sign(body, "not-the-secret");
        QTest::newRow("no prefix") << MetaWebhook::sign(body, kSecret).mid(7);
        QTest::newRow("garbage") << QByteArray("sha256=zzz");
        QTest::newRow("other body") << MetaWebhook::sign(body + " ", kSecret);
    }

    void refusesBadSignatures()
    {
        QFETCH(QByteArray, signature);
        const QByteArray body = MetaWebhook::bytes(MetaWebhook::whatsappText("16505551234", "X", "wamid.S", "hi"));
        const HttpResult r = MetaWebhook::postWithSignature(m_rig->server().baseUrl(), m_rig->server().certificate(),
                                                            "/webhooks/whatsapp", body, signature);
        QCOMPARE(r.status, 401);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QCOMPARE(r.errorCode(), QString("INVALID_SIGNATURE"));
        QCOMPARE(count("SELECT count(*) FROM messages"), 0);
    }

    void refusesBodiesNotInMetaShape_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("other object") << QByteArray(R"({"object":"page","entry":[]})");
        QTest::newRow("no entry") << QByteArray(R"({"object":"whatsapp_business_account"})");
        QTest::newRow("entry not array") << QByteArray(R"({"object":"whatsapp_business_account","entry":{}})");
        QTest::newRow("entry of strings") << QByteArray(R"({"object":"whatsapp_business_account","entry":["x"]})");
        QTest::newRow("malformed JSON") << QByteArray(R"({"object":"whatsapp_business_account",)");
        QTest::newRow("array") << QByteArray(R"([1,2])");
    }

    void refusesBodiesNotInMetaShape()
    {
        QFETCH(QByteArray, body);
        const HttpResult r = MetaWebhook::post(m_rig->server().baseUrl(), m_rig->server().certificate(),
                                               "/webhooks/whatsapp", body, kSecret);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QVERIFY(!r.errorCode().isEmpty());
    }

    void oddItemsNeverAnswer500_data()
    {
        QTest::addColumn<QByteArray>("body");
        auto wrap = [](const QByteArray &value) {
            return R"({"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"messages","value":)" +
                   value + "}]}]}";
        };
        QTest::newRow("changes not array")
            << QByteArray(R"({"object":"whatsapp_business_account","entry":[{"changes":"x"}]})");
        QTest::newRow("value not object") << wrap("5");
        QTest::newRow("messages not array") << wrap(R"({"messages":{"a":1}})");
        QTest::newRow("message items of odd types") << wrap(R"({"messages":[5,null,{},{"id":"w1"},{"from":"12"}]})");
        QTest::newRow("from not digits") << wrap(R"({"messages":[{"from":"abc","id":"w2","type":"text"}]})");
        QTest::newRow("from too long") << wrap(R"({"messages":[{"from":"1234567890123456","id":"w3","type":"text"}]})");
        QTest::newRow("numeric fields") << wrap(R"({"messages":[{"from":16505551234,"id":7,"type":"text","text":5}]})");
        QTest::newRow("statuses odd") << wrap(R"({"statuses":[5,{"id":5},{"id":"x","status":"exploded"}]})");
        QTest::newRow("media without object")
            << wrap(R"({"messages":[{"from":"16505551234","id":"w4","type":"image"}]})");
        QTest::newRow("other field") << QByteArray(
            R"({"object":"whatsapp_business_account","entry":[{"changes":[{"field":"account_update","value":{}}]}]})");
    }

    void oddItemsNeverAnswer500()
    {
        QFETCH(QByteArray, body);
        const HttpResult r = MetaWebhook::post(m_rig->server().baseUrl(), m_rig->server().certificate(),
                                               "/webhooks/whatsapp", body, kSecret);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("success").toBool(), true);
    }

    void verifiesTheHubHandshake_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<int>("status");
        QTest::newRow("ok") << "hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=" + kVerify << 200;
        QTest::newRow("wrong token") << "hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=nope" << 403;
        QTest::newRow("wrong mode") << "hub.mode=unsubscribe&hub.challenge=1&hub.verify_token=" + kVerify << 403;
        QTest::newRow("no token") << "hub.mode=subscribe&hub.challenge=1" << 403;
        QTest::newRow("nothing") << "" << 403;
    }

    void verifiesTheHubHandshake()
    {
        QFETCH(QString, query);
        QFETCH(int, status);
        ApiClient client(m_rig->server().baseUrl(), m_rig->server().certificate());
        const HttpResult r = client.get("/webhooks/whatsapp?" + query);
        QCOMPARE(r.status, status);
        if (status == 200) {
            QCOMPARE(r.body, QByteArray("1158201444"));
            QVERIFY(r.header("content-type").startsWith("text/plain"));
        } else {
            QCOMPARE(r.errorCode(), QString("FORBIDDEN"));
        }
    }

    void providerErrorsFailOrRetry_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<int>("providerStatus");
        QTest::addColumn<bool>("final");
        QTest::addColumn<QString>("reason");
        QTest::newRow("131047 outside 24 h")
            << 131047 << 400 << true << "131047: more than 24 hours since the customer last wrote: send a template";
        QTest::newRow("131026 undeliverable") << 131026 << 400 << true << "131026: message undeliverable";
        QTest::newRow("131048 spam limit") << 131048 << 400 << true << "131048: spam rate limit";
        QTest::newRow("131049 not delivered") << 131049 << 400 << true << "131049: Meta chose not to deliver";
        QTest::newRow("132001 template") << 132001 << 404 << true << "132001: template does not exist";
        QTest::newRow("100 parameter") << 100 << 400 << true << "100: invalid parameter";
        QTest::newRow("190 token") << 190 << 401 << true << "190: access token expired";
        QTest::newRow("other 4xx") << 368 << 400 << true << "368: (#368) Fake error";
        QTest::newRow("130429 throughput") << 130429 << 400 << false << "";
        QTest::newRow("131056 pair rate") << 131056 << 400 << false << "";
        QTest::newRow("131000 went wrong") << 131000 << 500 << false << "";
        QTest::newRow("5xx") << 0 << 503 << false << "";
    }

    void providerErrorsFailOrRetry()
    {
        QFETCH(int, code);
        QFETCH(int, providerStatus);
        QFETCH(bool, final);
        QFETCH(QString, reason);
        m_fake->failNext(code, providerStatus);
        QSignalSpy finished(&m_rig->dispatcher(), &ChannelDispatcher::sendFinished);
        const HttpResult r = sendText("hello");
        QCOMPARE(r.status, 201);
        const QString id = r.data().value("id").toString();
        // The send may have finished while the API call was still answering: count, not wait.
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() > 0, 10000);
        if (final) {
            QCOMPARE(finished.at(0).at(1).toInt(), int(SendOutcome::Failed));
            QCOMPARE(message(id).delivery.status, QString("failed"));
            QVERIFY2(message(id).delivery.failedReason.startsWith(reason),
                     qPrintable(message(id).delivery.failedReason));
            QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.failed'"), 1);
            QCOMPARE(m_fake->sends().size(), 1);
        } else {
            QCOMPARE(finished.at(0).at(1).toInt(), int(SendOutcome::Retry));
            QCOMPARE(message(id).delivery.status, QString("pending"));
            // Tried again after the back-off, and sent.
            QVERIFY(waitStatus(id, "sent"));
            QCOMPARE(m_fake->sends().size(), 2);
            QCOMPARE(message(id).providerId, QString("wamid.FAKE1"));
        }
        QVERIFY(m_rig->registry()->isAvailable("whatsapp"));
    }

    void downProviderAnswers503UntilProbed()
    {
        m_fake->setDown(true);
        HttpResult r = sendText("first");
        QCOMPARE(r.status, 201);
        const QString first = r.data().value("id").toString();
        QVERIFY(waitUntil([&] { return !m_rig->registry()->isAvailable("whatsapp"); }));
        QCOMPARE(message(first).delivery.status, QString("pending"));

        r = sendText("second");
        QCOMPARE(r.status, 503);
        QCOMPARE(r.errorCode(), QString("CHANNEL_UNAVAILABLE"));
        QCOMPARE(r.json.value("error").toObject().value("message").toString(), QString("Channel unavailable"));

        m_fake->setDown(false);
        QSignalSpy probed(&m_rig->dispatcher(), &ChannelDispatcher::probed);
        m_rig->dispatcher().probe("whatsapp");
        QVERIFY(probed.wait(10000));
        QCOMPARE(probed.at(0).at(1).toBool(), true);
        QVERIFY(probed.at(0).at(2).toString().contains("Liaison Test"));
        QVERIFY(m_rig->registry()->isAvailable("whatsapp"));
        r = sendText("third");
        QCOMPARE(r.status, 201);
        QVERIFY(waitStatus(first, "sent"));
        QVERIFY(waitStatus(r.data().value("id").toString(), "sent"));
    }

    void probeReportsABadToken()
    {
        WhatsAppConfig config = channels().whatsapp;
        config.accessToken = "expired";
        WhatsAppConnector connector(config, 5);
        std::optional<std::pair<bool, QString>> result;
        connector.probe([&](bool ok, const QString &detail) { result = std::make_pair(ok, detail); });
        QVERIFY(waitUntil([&] { return result.has_value(); }));
        QCOMPARE(result->first, false);
        QVERIFY2(result->second.startsWith("190:"), qPrintable(result->second));
        m_fake->requests.clear(); // the wrong token was on purpose
    }

    void unconfiguredChannelAnswers503()
    {
        ChannelsConfig none;
        none.whatsapp.verifyToken = kVerify;
        m_rig->start(none);
        HttpResult r = sendText("hello");
        QCOMPARE(r.status, 503);
        QCOMPARE(r.errorCode(), QString("CHANNEL_UNAVAILABLE"));
        r = webhook(MetaWebhook::whatsappText("16505551234", "X", "wamid.U", "hi"));
        QCOMPARE(r.status, 503);
        QCOMPARE(r.json.value("error").toObject().value("message").toString(), QString("Channel unavailable"));
        QCOMPARE(count("SELECT count(*) FROM messages"), 0);
    }

    void webhookRoutesAreDocumented()
    {
        const QJsonObject paths = m_rig->server().server().openApi().value("paths").toObject();
        QVERIFY(paths.value("/webhooks/whatsapp").toObject().contains("get"));
        QVERIFY(paths.value("/webhooks/whatsapp").toObject().contains("post"));
        QVERIFY(paths.value("/webhooks/instagram").toObject().contains("post"));
    }
};

QTEST_MAIN(TestWhatsAppChannel)
#include "test_whatsappchannel.moc"
