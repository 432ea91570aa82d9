// The Telegram channel against a local fake Bot API (tests/support/faketelegram): each send
// type's request shape, API send -> pending -> dispatcher -> connector -> fake -> sent, 429
// retry_after honoured for the whole bot, a blocked bot failing the message, long polling
// (contact + conversation + message.received, offset confirmed, a re-delivered update recorded
// once, 409 logged once), the webhook mode (secret ok / 403, setWebhook at start) and 503 when
// the channel is not configured.
#include "messaging/channels/telegramconnector.h"
#include "messaging/channels/telegrampoller.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/inbox/conversationrepository.h"
#include "tests/support/channeltestrig.h"
#include "tests/support/faketelegram.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QtTest>

namespace {
const QString kSecret = QStringLiteral("s3cret-Token_1");

using ChannelTest::count;

Message messageOf(const QString &type)
{
    Message m;
    m.id = QStringLiteral("msg_test");
    m.channel = QStringLiteral("telegram");
    m.direction = QStringLiteral("outgoing");
    m.type = type;
    return m;
}

// Sends through the connector and waits for its one answer.
SendOutcome sendAndWait(TelegramConnector &connector, const Message &m, const QString &to)
{
    SendOutcome result;
    int answers = 0;
    connector.send(m, to, [&](const SendOutcome &o) {
        result = o;
        ++answers;
    });
    if (!QTest::qWaitFor([&] { return answers > 0; }, 10000))
        qWarning("no answer from the connector");
    return result;
}
} // namespace

Q_DECLARE_METATYPE(Message)

class TestTelegramChannel : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ChannelTestRig> m_rig;
    std::unique_ptr<FakeTelegram> m_fake;

    TelegramConfig telegramConfig() const
    {
        TelegramConfig t;
        t.botToken = m_fake->token();
        t.apiBaseUrl = m_fake->baseUrl();
        t.secretToken = kSecret;
        t.pollTimeoutSeconds = 2;
        return t;
    }

    void startServer(bool configured)
    {
        ChannelsConfig c;
        if (configured)
            c.telegram = telegramConfig();
        c.retryDelays = {1, 1, 1};
        c.pollIntervalMs = 50;
        c.probeIntervalSeconds = 1;
        m_rig->start(c, false);
    }

    // A contact with a Telegram conversation on chat `chatId`.
    QString telegramConversation(const QString &chatId)
    {
        const QString contactId =
            ContactRepository(testStore())
                .create(ContactRules::parse({{"firstName", "Ann"}, {"email", chatId + "@example.com"}}))
                .id;
        return ConversationRepository(testStore()).findOrCreate(contactId, "telegram", chatId, "telegram").id;
    }

    Message waitForStatus(const QString &messageId, const QString &status, int timeoutMs = 15000)
    {
        Message m;
        (void)QTest::qWaitFor(
            [&] {
                m = ConversationRepository(testStore()).getMessage(messageId);
                return m.delivery.status == status;
            },
            timeoutMs);
        return m;
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_rig = std::make_unique<ChannelTestRig>();
        m_fake = std::make_unique<FakeTelegram>();
        startServer(true);
    }

    void cleanup()
    {
        m_rig->stop();
        m_fake.reset();
        m_rig.reset();
    }

    void sendsEachTypeWithItsRequestShape_data()
    {
        QTest::addColumn<Message>("message");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QJsonObject>("expected"); // fields the request must carry (besides chat_id)

        Message text = messageOf("text");
        text.text = "Hello Ann";
        QTest::newRow("text") << text << "sendMessage" << QJsonObject{{"text", "Hello Ann"}};

        Message image = messageOf("image");
        image.mediaUrl = "https://crm.example.com/media/a.png";
        image.caption = "Our catalogue";
        QTest::newRow("image") << image << "sendPhoto"
                               << QJsonObject{{"photo", image.mediaUrl}, {"caption", "Our catalogue"}};

        Message longCaption = image;
        longCaption.caption = QString(1500, 'c');
        QTest::newRow("caption cut to 1024")
            << longCaption << "sendPhoto" << QJsonObject{{"caption", QString(1023, 'c') + QChar(0x2026)}};

        Message document = messageOf("document");
        document.mediaUrl = "https://crm.example.com/media/price.pdf";
        document.caption = "Prices";
        QTest::newRow("document") << document << "sendDocument"
                                  << QJsonObject{{"document", document.mediaUrl}, {"caption", "Prices"}};

        Message video = messageOf("video");
        video.mediaUrl = "https://crm.example.com/media/v.mp4";
        QTest::newRow("video") << video << "sendVideo" << QJsonObject{{"video", video.mediaUrl}};

        Message audio = messageOf("audio");
        audio.mediaUrl = "https://crm.example.com/media/a.mp3";
        QTest::newRow("audio") << audio << "sendAudio" << QJsonObject{{"audio", audio.mediaUrl}};

        Message location = messageOf("location");
        location.payload = {{"latitude", 41.0082}, {"longitude", 28.9784}, {"name", "Office"}};
        QTest::newRow("location") << location << "sendLocation"
                                  << QJsonObject{{"latitude", 41.0082}, {"longitude", 28.9784}};

        const QJsonArray components{
            QJsonObject{{"type", "body"},
                        {"parameters", QJsonArray{QJsonObject{{"type", "text"}, {"text", "Asha"}},
                                                  QJsonObject{{"type", "text"}, {"text", "ORD-9271"}}}}},
            QJsonObject{{"type", "button"},
                        {"sub_type", "quick_reply"},
                        {"index", 0},
                        {"parameters", QJsonArray{QJsonObject{{"type", "payload"}, {"payload", "CONFIRM_123"}}}}}};
        Message rendered = messageOf("template");
        rendered.text = "Hi {{1}}, order {{2}} is ready. {{3}}";
        rendered.payload = {
            {"templateName", "order_update"}, {"templateLanguage", "en_US"}, {"components", components}};
        const QJsonObject keyboard{
            {"inline_keyboard",
             QJsonArray{QJsonArray{QJsonObject{{"text", "CONFIRM_123"}, {"callback_data", "CONFIRM_123"}}}}}};
        QTest::newRow("template with text")
            << rendered << "sendMessage"
            << QJsonObject{{"text", "Hi Asha, order ORD-9271 is ready. {{3}}"}, {"reply_markup", keyboard}};

        Message bare = messageOf("template");
        bare.payload = {{"templateName", "order_update"}, {"components", components}};
        QTest::newRow("template without text")
            << bare << "sendMessage"
            << QJsonObject{{"text", "order_update\nAsha\nORD-9271"}, {"reply_markup", keyboard}};
    }

    void sendsEachTypeWithItsRequestShape()
    {
        QFETCH(Message, message);
        QFETCH(QString, method);
        QFETCH(QJsonObject, expected);
        TelegramConnector connector(telegramConfig(), 10);
        const SendOutcome o = sendAndWait(connector, message, "4242");
        QCOMPARE(o.kind, SendOutcome::Sent);
        QVERIFY2(o.providerMessageId.startsWith("4242:"), qPrintable(o.providerMessageId));
        QCOMPARE(m_fake->problems(), QStringList());
        QCOMPARE(m_fake->sends().size(), 1);
        const FakeTelegram::Call call = m_fake->sends().first();
        QCOMPARE(call.method, method);
        QCOMPARE(call.params.value("chat_id").toDouble(), 4242.0);
        for (auto it = expected.begin(); it != expected.end(); ++it)
            QVERIFY2(call.params.value(it.key()) == it.value(),
                     qPrintable(it.key() + ": " + QJsonDocument(call.params).toJson(QJsonDocument::Compact)));
        QCOMPARE(o.providerMessageId, QString("4242:%1").arg(m_fake->sends().size()));
    }

    void refusesWhatTelegramCannotSend()
    {
        TelegramConnector connector(telegramConfig(), 10);
        Message image = messageOf("image");
        SendOutcome o = sendAndWait(connector, image, "4242");
        QCOMPARE(o.kind, SendOutcome::Failed);
        QVERIFY(o.error.contains("mediaUrl"));
        o = sendAndWait(connector, messageOf("template"), "4242");
        QCOMPARE(o.kind, SendOutcome::Failed);
        QCOMPARE(m_fake->calls().size(), 0);
    }

    void mapsProviderAnswers()
    {
        TelegramConnector connector(telegramConfig(), 10);
        Message text = messageOf("text");
        text.text = "x";
        m_fake->unknownChat("9");
        SendOutcome o = sendAndWait(connector, text, "9");
        QCOMPARE(o.kind, SendOutcome::Failed);
        QCOMPARE(o.error, QString("Telegram: Bad Request: chat not found"));
        m_fake->failNext(1, 502);
        o = sendAndWait(connector, text, "10");
        QCOMPARE(o.kind, SendOutcome::Retry);
        QVERIFY(!o.providerDown);
        m_fake->throttleSends(1, 7);
        o = sendAndWait(connector, text, "10");
        QCOMPARE(o.kind, SendOutcome::Retry);
        QCOMPARE(o.retryAfterSeconds, 7);
        QVERIFY(o.channelThrottled);

        TelegramConfig wrongToken = telegramConfig();
        wrongToken.botToken = "999:wrong";
        TelegramConnector refused(wrongToken, 10);
        o = sendAndWait(refused, text, "10");
        QCOMPARE(o.kind, SendOutcome::Failed);
        QVERIFY2(o.error.contains("bot token"), qPrintable(o.error));

        TelegramConfig nowhere = telegramConfig();
        nowhere.apiBaseUrl = "http://127.0.0.1:1";
        TelegramConnector down(nowhere, 5);
        o = sendAndWait(down, text, "10");
        QCOMPARE(o.kind, SendOutcome::Retry);
        QVERIFY(o.providerDown);
    }

    void probeAsksGetMe()
    {
        TelegramConnector connector(telegramConfig(), 10);
        bool ok = false;
        QString detail;
        int answers = 0;
        connector.probe([&](bool o, const QString &d) {
            ok = o;
            detail = d;
            ++answers;
        });
        QTRY_COMPARE(answers, 1);
        QVERIFY(ok);
        QCOMPARE(detail, QString("connected as @liaison_test_bot (Liaison Test)"));
        TelegramConfig wrong = telegramConfig();
        wrong.botToken = "1:nope";
        TelegramConnector refused(wrong, 10);
        refused.probe([&](bool o, const QString &d) {
            ok = o;
            detail = d;
            ++answers;
        });
        QTRY_COMPARE(answers, 2);
        QVERIFY(!ok);
        QVERIFY2(detail.contains("refused"), qPrintable(detail));
    }

    void apiSendFlowsThroughDispatcherToSent()
    {
        ChannelDispatcher dispatcher(m_rig->registry(), m_rig->server().store());
        const QString conv = telegramConversation("777");
        HttpResult r =
            m_rig->client().post("/api/v1/conversations/" + conv + "/messages", {{"text", "Hello from Liaison"}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("status").toString(), QString("pending"));
        const QString id = r.data().value("id").toString();
        const Message m = waitForStatus(id, "sent");
        QCOMPARE(m.delivery.status, QString("sent"));
        QCOMPARE(m_fake->sends().size(), 1);
        QCOMPARE(m_fake->sends().first().params.value("text").toString(), QString("Hello from Liaison"));
        QCOMPARE(m_fake->sends().first().params.value("chat_id").toDouble(), 777.0);
        QVERIFY2(m.providerId.startsWith("777:"), qPrintable(m.providerId));
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.sent'"), 1);
        QCOMPARE(m_fake->problems(), QStringList());

        // A location through the direct send of an existing conversation's chat.
        r = m_rig->client().post(
            "/api/v1/messages",
            {{"to", "777"}, {"channel", "telegram"}, {"type", "location"}, {"latitude", 41.0}, {"longitude", 29.0}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("conversationId").toString(), conv);
        QCOMPARE(waitForStatus(r.data().value("id").toString(), "sent").delivery.status, QString("sent"));
        QCOMPARE(m_fake->sends().last().method, QString("sendLocation"));
    }

    void throttledBotWaitsRetryAfter()
    {
        ChannelDispatcher dispatcher(m_rig->registry(), m_rig->server().store());
        QSignalSpy finished(&dispatcher, &ChannelDispatcher::sendFinished);
        m_fake->throttleSends(1, 2);
        const QString first = telegramConversation("100");
        const QString second = telegramConversation("200");
        HttpResult r = m_rig->client().post("/api/v1/conversations/" + first + "/messages", {{"text", "one"}});
        QCOMPARE(r.status, 201);
        const QString firstId = r.data().value("id").toString();
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() >= 1, 10000);
        QCOMPARE(finished.first().at(1).toInt(), int(SendOutcome::Retry));
        const qint64 throttledAt = m_fake->calls().last().atMs;
        QCOMPARE(m_fake->calls().last().status, 429);
        // Another chat: the whole bot waits too.
        r = m_rig->client().post("/api/v1/conversations/" + second + "/messages", {{"text", "two"}});
        QCOMPARE(r.status, 201);
        const QString secondId = r.data().value("id").toString();
        QCOMPARE(waitForStatus(firstId, "sent").delivery.status, QString("sent"));
        QCOMPARE(waitForStatus(secondId, "sent").delivery.status, QString("sent"));
        const QList<FakeTelegram::Call> sends = m_fake->sends();
        QCOMPARE(sends.size(), 2);
        for (const FakeTelegram::Call &c : sends)
            QVERIFY2(c.atMs >= throttledAt + 2000 - 20, qPrintable(QString::number(c.atMs - throttledAt)));
    }

    void blockedBotFailsWithReason()
    {
        ChannelDispatcher dispatcher(m_rig->registry(), m_rig->server().store());
        m_fake->blockChat("555");
        const QString conv = telegramConversation("555");
        const HttpResult r = m_rig->client().post("/api/v1/conversations/" + conv + "/messages", {{"text", "Hi"}});
        QCOMPARE(r.status, 201);
        const Message m = waitForStatus(r.data().value("id").toString(), "failed");
        QCOMPARE(m.delivery.status, QString("failed"));
        QCOMPARE(m.delivery.failedReason, QString("Telegram: Forbidden: bot was blocked by the user"));
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.failed'"), 1);
        const HttpResult status = m_rig->client().get("/api/v1/messages/" + m.id + "/status");
        QCOMPARE(status.status, 200);
        QCOMPARE(status.data().value("status").toString(), QString("failed"));
    }

    void pollingRecordsUpdatesOnce()
    {
        m_fake->redeliverConfirmed = true; // as if we stopped before confirming
        auto poller = std::make_unique<TelegramPoller>(telegramConfig(), 5, m_rig->server().store());
        QSignalSpy handled(poller.get(), &TelegramPoller::updateHandled);
        const qint64 id = m_fake->queueText(4242, "hello there", "Ann", "Smith", "ann_s");
        QTRY_VERIFY_WITH_TIMEOUT(handled.size() >= 1, 10000);
        QCOMPARE(handled.first().at(0).toLongLong(), id);
        QCOMPARE(handled.first().at(1).toBool(), true);

        QSqlQuery q = Database::exec(
            "SELECT c.first_name, c.last_name, c.source, v.channel, v.external_id, m.text, m.provider_id, m.direction, "
            "m.payload FROM messages m JOIN conversations v ON v.id = m.conversation_id JOIN contacts c ON c.id = "
            "v.contact_id");
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QString("Ann"));
        QCOMPARE(q.value(1).toString(), QString("Smith"));
        QCOMPARE(q.value(2).toString(), QString("telegram"));
        QCOMPARE(q.value(3).toString(), QString("telegram"));
        QCOMPARE(q.value(4).toString(), QString("4242"));
        QCOMPARE(q.value(5).toString(), QString("hello there"));
        QVERIFY2(q.value(6).toString().startsWith("4242:"), qPrintable(q.value(6).toString()));
        QCOMPARE(q.value(7).toString(), QString("incoming"));
        QVERIFY2(q.value(8).toString().contains("ann_s"), qPrintable(q.value(8).toString()));
        QVERIFY(!q.next());
        q.finish();
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.received'"), 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'conversation.created'"), 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'contact.created'"), 1);
        // The next long poll confirms it.
        QTRY_COMPARE_WITH_TIMEOUT(m_fake->confirmedOffset(), id + 1, 10000);
        QCOMPARE(poller->offset(), id + 1);

        // Stopping aborts the poll in flight at once.
        QElapsedTimer stop;
        stop.start();
        poller.reset();
        QVERIFY(stop.elapsed() < 1000);

        // A new poller (offset 0) gets the unconfirmed update again: recorded once.
        poller = std::make_unique<TelegramPoller>(telegramConfig(), 5, m_rig->server().store());
        QSignalSpy again(poller.get(), &TelegramPoller::updateHandled);
        QTRY_VERIFY_WITH_TIMEOUT(again.size() >= 1, 10000);
        QCOMPARE(again.first().at(0).toLongLong(), id);
        QCOMPARE(again.first().at(1).toBool(), false);
        QCOMPARE(count("SELECT count(*) FROM messages"), 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.received'"), 1);
        QCOMPARE(m_fake->problems(), QStringList());
    }

    void pollingRecordsPhotosLocationsAndButtonTaps()
    {
        TelegramPoller poller(telegramConfig(), 5, m_rig->server().store());
        QSignalSpy handled(&poller, &TelegramPoller::updateHandled);
        const QJsonObject from{{"id", 31}, {"is_bot", false}, {"first_name", "Bora"}, {"username", "bora"}};
        const QJsonObject chat{{"id", 31}, {"type", "private"}, {"first_name", "Bora"}};
        m_fake->queueUpdate(
            {{"message",
              QJsonObject{{"message_id", 5},
                          {"from", from},
                          {"chat", chat},
                          {"date", 1715346000},
                          {"caption", "this one"},
                          {"photo", QJsonArray{QJsonObject{{"file_id", "small"}, {"width", 90}, {"height", 90}},
                                               QJsonObject{{"file_id", "large"}, {"width", 1280}, {"height", 960}},
                                               QJsonObject{{"file_id", "mid"}, {"width", 320}, {"height", 240}}}}}}});
        m_fake->queueUpdate(
            {{"message", QJsonObject{{"message_id", 6},
                                     {"from", from},
                                     {"chat", chat},
                                     {"date", 1715346001},
                                     {"location", QJsonObject{{"latitude", 41.1}, {"longitude", 29.2}}}}}});
        m_fake->queueUpdate({{"callback_query", QJsonObject{{"id", "cbq1"},
                                                            {"from", from},
                                                            {"message", QJsonObject{{"message_id", 1}, {"chat", chat}}},
                                                            {"data", "CONFIRM_123"}}}});
        m_fake->queueUpdate({{"edited_message", QJsonObject{{"message_id", 5}, {"chat", chat}, {"text", "edit"}}}});
        QTRY_VERIFY_WITH_TIMEOUT(handled.size() >= 4, 10000);
        const QVector<Message> messages =
            ConversationRepository(testStore())
                .latestMessages(ConversationRepository(testStore()).list({}).items.first().id, 10);
        QCOMPARE(messages.size(), 3);
        QCOMPARE(messages.at(0).type, QString("image"));
        QCOMPARE(messages.at(0).caption, QString("this one"));
        QCOMPARE(messages.at(0).payload.value("fileId").toString(), QString("large"));
        QCOMPARE(messages.at(0).providerId, QString("31:5"));
        QCOMPARE(messages.at(1).type, QString("location"));
        QCOMPARE(messages.at(1).payload.value("latitude").toDouble(), 41.1);
        QCOMPARE(messages.at(2).text, QString("CONFIRM_123"));
        QCOMPARE(messages.at(2).providerId, QString("31:cbcbq1"));
        QTRY_COMPARE(m_fake->callsOf("answerCallbackQuery").size(), 1);
        QCOMPARE(m_fake->callsOf("answerCallbackQuery").first().params.value("callback_query_id").toString(),
                 QString("cbq1"));
        QCOMPARE(count("SELECT count(*) FROM contacts"), 1);
    }

    void pollingLogsWebhookConflictOnceAndRecovers()
    {
        m_fake->setWebhookUrl("https://elsewhere.example.com/hook");
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression("a webhook is set for this bot"));
        QTest::failOnWarning(QRegularExpression("a webhook is set for this bot"));
        TelegramPoller poller(telegramConfig(), 5, m_rig->server().store());
        poller.setBackoffUnitMs(5); // 60 "seconds" of backoff: 300 ms
        QSignalSpy polled(&poller, &TelegramPoller::polled);
        QTRY_VERIFY_WITH_TIMEOUT(polled.size() >= 3, 10000);
        QCOMPARE(polled.at(0).at(0).toInt(), 409);
        QCOMPARE(polled.at(2).at(0).toInt(), 409);
        m_fake->setWebhookUrl({});
        QSignalSpy handled(&poller, &TelegramPoller::updateHandled);
        m_fake->queueText(51, "back");
        QTRY_VERIFY_WITH_TIMEOUT(handled.size() >= 1, 10000);
        QCOMPARE(count("SELECT count(*) FROM messages WHERE text = 'back'"), 1);
    }

    void pollingBacksOffOnErrors()
    {
        m_fake->failNext(2, 502);
        TelegramPoller poller(telegramConfig(), 5, m_rig->server().store());
        poller.setBackoffUnitMs(50);
        QSignalSpy polled(&poller, &TelegramPoller::polled);
        QTRY_VERIFY_WITH_TIMEOUT(polled.size() >= 2, 10000);
        const QList<FakeTelegram::Call> calls = m_fake->callsOf("getUpdates");
        QVERIFY(calls.size() >= 2);
        // Backoff 1 then 2 units (50 ms, 100 ms).
        QVERIFY2(calls.at(1).atMs - calls.at(0).atMs >= 45,
                 qPrintable(QString::number(calls.at(1).atMs - calls.at(0).atMs)));
        QSignalSpy handled(&poller, &TelegramPoller::updateHandled);
        m_fake->queueText(52, "after errors");
        QTRY_VERIFY_WITH_TIMEOUT(handled.size() >= 1, 10000);
    }

    void webhookModeChecksSecret()
    {
        const QJsonObject update{
            {"update_id", 9001},
            {"message", QJsonObject{{"message_id", 42},
                                    {"from", QJsonObject{{"id", 111}, {"is_bot", false}, {"first_name", "Ann"}}},
                                    {"chat", QJsonObject{{"id", 111}, {"type", "private"}, {"first_name", "Ann"}}},
                                    {"date", 1715346000},
                                    {"text", "hello"}}}};
        const QByteArray body = QJsonDocument(update).toJson(QJsonDocument::Compact);
        const QList<QPair<QByteArray, QByteArray>> good{{"Content-Type", "application/json"},
                                                        {"X-Telegram-Bot-Api-Secret-Token", kSecret.toUtf8()}};
        HttpResult r =
            m_rig->client().call("POST", "/webhooks/telegram", body,
                                 {{"Content-Type", "application/json"}, {"X-Telegram-Bot-Api-Secret-Token", "x"}});
        QCOMPARE(r.status, 403);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QCOMPARE(r.errorCode(), QString("FORBIDDEN"));
        r = m_rig->client().call("POST", "/webhooks/telegram", body, {{"Content-Type", "application/json"}});
        QCOMPARE(r.status, 403);
        QCOMPARE(count("SELECT count(*) FROM messages"), 0);

        r = m_rig->client().call("POST", "/webhooks/telegram", body, good);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("recorded").toBool(), true);
        QCOMPARE(count("SELECT count(*) FROM messages WHERE provider_id = '111:42' AND direction = 'incoming'"), 1);
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.received'"), 1);
        // Telegram retrying the same update: recorded once.
        r = m_rig->client().call("POST", "/webhooks/telegram", body, good);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("recorded").toBool(), false);
        QCOMPARE(count("SELECT count(*) FROM messages"), 1);

        // A button tap is answered in the reply.
        const QJsonObject tap{
            {"update_id", 9002},
            {"callback_query",
             QJsonObject{{"id", "77"}, {"from", QJsonObject{{"id", 111}, {"first_name", "Ann"}}}, {"data", "YES"}}}};
        r = m_rig->client().call("POST", "/webhooks/telegram", QJsonDocument(tap).toJson(), good);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("method").toString(), QString("answerCallbackQuery"));
        QCOMPARE(r.json.value("callback_query_id").toString(), QString("77"));
        QCOMPARE(count("SELECT count(*) FROM messages WHERE text = 'YES'"), 1);

        // Not an Update, not JSON: 400, nothing recorded.
        r = m_rig->client().call("POST", "/webhooks/telegram", "{\"message\":{}}", good);
        QCOMPARE(r.status, 400);
        r = m_rig->client().call("POST", "/webhooks/telegram", "{\"update_id\":5,\"message\":{\"text\":\"x\"}}", good);
        QCOMPARE(r.status, 400);
        r = m_rig->client().call("POST", "/webhooks/telegram", "not json", good);
        QCOMPARE(r.status, 400);
        r = m_rig->client().call("POST", "/webhooks/telegram", "[1,2]", good);
        QCOMPARE(r.status, 400);
        QCOMPARE(count("SELECT count(*) FROM messages"), 2);
    }

    void webhookModeSetsWebhookAtStart()
    {
        TelegramConfig config = telegramConfig();
        config.mode = "webhook";
        config.webhookUrl = "https://crm.example.com/webhooks/telegram";
        TelegramPoller poller(config, 5, m_rig->server().store());
        QSignalSpy set(&poller, &TelegramPoller::webhookSet);
        QVERIFY(set.wait(10000));
        QCOMPARE(set.first().at(0).toBool(), true);
        QCOMPARE(m_fake->webhookUrl(), config.webhookUrl);
        QCOMPARE(m_fake->webhookSecret(), kSecret);
        QCOMPARE(m_fake->callsOf("setWebhook").first().params.value("allowed_updates").toArray().size(), 2);
        QCOMPARE(m_fake->callsOf("getUpdates").size(), 0);
    }

    void unconfiguredChannelAnswers503()
    {
        startServer(false);
        const QString conv = telegramConversation("888");
        HttpResult r = m_rig->client().post("/api/v1/conversations/" + conv + "/messages", {{"text", "Hi"}});
        QCOMPARE(r.status, 503);
        QCOMPARE(r.errorCode(), QString("CHANNEL_UNAVAILABLE"));
        QCOMPARE(r.json.value("error").toObject().value("message").toString(), QString("Channel unavailable"));
        r = m_rig->client().post("/api/v1/messages", {{"to", "888"}, {"channel", "telegram"}, {"text", "Hi"}});
        QCOMPARE(r.status, 503);
        r = m_rig->client().call(
            "POST", "/webhooks/telegram", "{\"update_id\":1}",
            {{"Content-Type", "application/json"}, {"X-Telegram-Bot-Api-Secret-Token", kSecret.toUtf8()}});
        QCOMPARE(r.status, 503);
        QCOMPARE(count("SELECT count(*) FROM messages"), 0);
        QCOMPARE(m_fake->calls().size(), 0);
    }

    void openApiDocumentsTheWebhook()
    {
        const HttpResult r = m_rig->client().get("/api/v1/openapi.json");
        QCOMPARE(r.status, 200);
        QVERIFY(r.json.value("paths").toObject().contains("/webhooks/telegram"));
    }
};

QTEST_MAIN(TestTelegramChannel)
#include "test_telegramchannel.moc"
