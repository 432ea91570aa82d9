// Instagram messaging against the local fake of the Send API (FakeGraphApi): request shapes
// (text, attachments by URL, the caption as a following text, 1000-character limit), incoming
// messages and attachments (contact + conversation, once per mid), echoes and deletions dropped,
// read receipts, the signature and the handshake, error codes, a provider that is down, and an
// unconfigured channel.
#include "messaging/channels/instagramconnector.h"
#include "model/core/database.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/inboundrecorder.h"
#include "tests/support/channeltestrig.h"
#include "tests/support/fakegraphapi.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QtTest>

namespace {
const QString kSecret = QStringLiteral("ig-app-secret");
const QString kVerify = QStringLiteral("ig-verify");
const QString kIgsid = QStringLiteral("6543210987654321");

using ChannelTest::count;
using ChannelTest::message;
using ChannelTest::sendWith;
using ChannelTest::waitUntil;

QJsonObject textMessage(const QString &mid, const QString &text)
{
    return {{"mid", mid}, {"text", text}};
}
} // namespace

class TestInstagramChannel : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ChannelTestRig> m_rig;
    std::unique_ptr<FakeGraphApi> m_fake;

    ChannelsConfig channels() const
    {
        ChannelsConfig c;
        c.instagram.apiBaseUrl = m_fake->baseUrl();
        c.instagram.accountId = m_fake->instagramAccountId;
        c.instagram.accessToken = m_fake->token;
        c.instagram.appSecret = kSecret;
        c.instagram.verifyToken = kVerify;
        c.retryDelays = {1, 1, 1};
        c.timeoutSeconds = 5;
        c.pollIntervalMs = 100;
        c.probeIntervalSeconds = 3600;
        return c;
    }

    HttpResult webhook(const QJsonObject &body, const QString &secret = kSecret)
    {
        return MetaWebhook::post(m_rig->server().baseUrl(), m_rig->server().certificate(),
                                 QStringLiteral("/webhooks/instagram"), MetaWebhook::bytes(body), secret);
    }

    HttpResult incoming(const QJsonObject &msg)
    {
        return webhook(MetaWebhook::instagram({MetaWebhook::instagramMessage(kIgsid, msg)}));
    }

    HttpResult sendText(const QString &text)
    {
        return m_rig->client().post("/api/v1/messages",
                                    {{"channel", "instagram"}, {"to", kIgsid}, {"type", "text"}, {"text", text}});
    }

    bool waitStatus(const QString &id, const QString &status)
    {
        const bool ok = waitUntil([&] { return message(id).delivery.status == status; });
        if (!ok)
            qWarning() << "status of" << id << "is" << message(id).delivery.status << message(id).delivery.failedReason;
        return ok;
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

    void sendsInSendApiShape_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("caption");
        QTest::addColumn<QJsonObject>("expected");
        QTest::addColumn<int>("requests");
        const QString url = "https://crm.example.com/media/m_2?token=t";
        auto attachment = [&](const QString &kind) {
            return QJsonObject{{"attachment", QJsonObject{{"type", kind}, {"payload", QJsonObject{{"url", url}}}}}};
        };
        QTest::newRow("text") << "text"
                              << "Merhaba"
                              << "" << QJsonObject{{"text", "Merhaba"}} << 1;
        QTest::newRow("image") << "image"
                               << ""
                               << "" << attachment("image") << 1;
        QTest::newRow("video") << "video"
                               << ""
                               << "" << attachment("video") << 1;
        QTest::newRow("audio") << "audio"
                               << ""
                               << "" << attachment("audio") << 1;
        QTest::newRow("document as file") << "document"
                                          << ""
                                          << "" << attachment("file") << 1;
        QTest::newRow("image with caption") << "image"
                                            << ""
                                            << "New season" << attachment("image") << 2;
    }

    void sendsInSendApiShape()
    {
        QFETCH(QString, type);
        QFETCH(QString, text);
        QFETCH(QString, caption);
        QFETCH(QJsonObject, expected);
        QFETCH(int, requests);
        InstagramConnector connector(channels().instagram, 5);
        Message m;
        m.type = type;
        m.text = text;
        m.caption = caption;
        if (type != "text")
            m.mediaUrl = "https://crm.example.com/media/m_2?token=t";
        const std::optional<SendOutcome> outcome = sendWith(connector, m, kIgsid);
        QVERIFY(outcome);
        QCOMPARE(outcome->kind, SendOutcome::Sent);
        QCOMPARE(outcome->providerMessageId, QString("mid.FAKE1"));
        QCOMPARE(m_fake->sends().size(), requests);
        const FakeGraphApi::Request r = m_fake->sends().at(0);
        QCOMPARE(r.path, "/" + m_fake->instagramAccountId + "/messages");
        QCOMPARE(r.authorization, "Bearer " + m_fake->token.toUtf8());
        QCOMPARE(r.json.value("recipient").toObject().value("id").toString(), kIgsid);
        QCOMPARE(r.json.value("message").toObject(), expected);
        if (requests == 2)
            QCOMPARE(m_fake->sends().at(1).json.value("message").toObject(), QJsonObject({{"text", caption}}));
    }

    void refusesWhatInstagramCannotTake_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("why");
        QTest::newRow("over 1000 characters") << "text" << QString(1001, 'a') << "1000 characters";
        QTest::newRow("location") << "location"
                                  << ""
                                  << "cannot send a location";
        QTest::newRow("template") << "template"
                                  << ""
                                  << "cannot send a template";
    }

    void refusesWhatInstagramCannotTake()
    {
        QFETCH(QString, type);
        QFETCH(QString, text);
        QFETCH(QString, why);
        InstagramConnector connector(channels().instagram, 5);
        Message m;
        m.type = type;
        m.text = text;
        m.payload = {{"latitude", 1.0}, {"longitude", 2.0}};
        const std::optional<SendOutcome> outcome = sendWith(connector, m, kIgsid);
        QVERIFY(outcome);
        QCOMPARE(outcome->kind, SendOutcome::Failed);
        QVERIFY2(outcome->error.contains(why), qPrintable(outcome->error));
        QCOMPARE(m_fake->requests.size(), 0);
    }

    void exactly1000CharactersAreSent()
    {
        InstagramConnector connector(channels().instagram, 5);
        Message m;
        m.type = "text";
        m.text = QString(1000, QChar(0x00e7)); // ç: characters, not bytes
        const std::optional<SendOutcome> outcome = sendWith(connector, m, kIgsid);
        QCOMPARE(outcome->kind, SendOutcome::Sent);
    }

    void incomingCreatesContactThenReplyIsSentAndRead()
    {
        HttpResult r = incoming(textMessage("aWdfMID1", "Fiyat nedir?"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("received").toInt(), 1);
        const std::optional<Contact> contact = InboundRecorder(testStore()).findContact("instagram", kIgsid);
        QVERIFY(contact);
        QCOMPARE(contact->firstName, kIgsid); // Instagram webhooks carry no profile name
        QCOMPARE(count("SELECT count(*) FROM outbox WHERE event = 'message.received'"), 1);
        QCOMPARE(count("SELECT count(*) FROM conversations WHERE channel = 'instagram'"), 1);

        // The same mid again: recorded once.
        r = incoming(textMessage("aWdfMID1", "Fiyat nedir?"));
        QCOMPARE(r.data().value("duplicates").toInt(), 1);
        QCOMPARE(count("SELECT count(*) FROM messages"), 1);

        // A direct send by IGSID goes to that conversation and is sent with the mid.
        r = sendText("100 TL");
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("status").toString(), QString("pending"));
        const QString id = r.data().value("id").toString();
        QVERIFY(waitStatus(id, "sent"));
        QCOMPARE(message(id).providerId, QString("mid.FAKE1"));
        QCOMPARE(m_fake->sends().at(0).json.value("recipient").toObject().value("id").toString(), kIgsid);

        // A read receipt; a second one changes nothing.
        const QJsonObject read{{"sender", QJsonObject{{"id", kIgsid}}},
                               {"recipient", QJsonObject{{"id", m_fake->instagramAccountId}}},
                               {"timestamp", 1715346001000.0},
                               {"read", QJsonObject{{"mid", "mid.FAKE1"}}}};
        r = webhook(MetaWebhook::instagram({read}));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("statuses").toInt(), 1);
        QCOMPARE(message(id).delivery.status, QString("read"));
        const int events = count("SELECT count(*) FROM outbox");
        r = webhook(MetaWebhook::instagram({read}));
        QCOMPARE(r.status, 200);
        QCOMPARE(count("SELECT count(*) FROM outbox"), events);
    }

    void unknownRecipientIsNotFound()
    {
        const HttpResult r = sendText("hello stranger");
        QCOMPARE(r.status, 404);
        QCOMPARE(m_fake->requests.size(), 0);
    }

    void echoesAndDeletionsAreDropped()
    {
        QJsonObject echo = textMessage("aWdfECHO", "our own send");
        echo.insert("is_echo", true);
        QJsonObject deleted{{"mid", "aWdfDEL"}, {"is_deleted", true}};
        const HttpResult r = webhook(MetaWebhook::instagram(
            {MetaWebhook::instagramMessage(kIgsid, echo), MetaWebhook::instagramMessage(kIgsid, deleted)}));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("received").toInt(), 0);
        QCOMPARE(r.data().value("ignored").toInt(), 2);
        QCOMPARE(count("SELECT count(*) FROM messages"), 0);
        QCOMPARE(count("SELECT count(*) FROM contacts"), 0);
    }

    void incomingAttachmentsAndQuickReplies()
    {
        const QJsonObject withImage{
            {"mid", "aWdfIMG"},
            {"text", "this one?"},
            {"attachments",
             QJsonArray{
                 QJsonObject{{"type", "image"}, {"payload", QJsonObject{{"url", "https://cdn.example/i.jpg"}}}},
                 QJsonObject{{"type", "file"}, {"payload", QJsonObject{{"url", "https://cdn.example/f.pdf"}}}}}}};
        const QJsonObject quick{{"mid", "aWdfQR"}, {"text", "Yes"}, {"quick_reply", QJsonObject{{"payload", "YES_1"}}}};
        const HttpResult r = webhook(MetaWebhook::instagram(
            {MetaWebhook::instagramMessage(kIgsid, withImage), MetaWebhook::instagramMessage(kIgsid, quick)}));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("received").toInt(), 3);
        ConversationRepository repo(testStore());
        const std::optional<Message> image = repo.findByProviderId("instagram", "aWdfIMG");
        QVERIFY(image);
        QCOMPARE(image->type, QString("image"));
        QCOMPARE(image->mediaUrl, QString("https://cdn.example/i.jpg"));
        QCOMPARE(image->caption, QString("this one?"));
        const std::optional<Message> file = repo.findByProviderId("instagram", "aWdfIMG#1");
        QVERIFY(file);
        QCOMPARE(file->type, QString("document"));
        const std::optional<Message> reply = repo.findByProviderId("instagram", "aWdfQR");
        QVERIFY(reply);
        QCOMPARE(reply->text, QString("Yes"));
        QCOMPARE(reply->payload.value("quickReplyPayload").toString(), QString("YES_1"));
    }

    void refusesBadSignaturesAndShapes()
    {
        const QJsonObject body =
            MetaWebhook::instagram({MetaWebhook::instagramMessage(kIgsid, textMessage("m1", "hi"))});
        HttpResult r = webhook(body, "whatsapp-secret");
        QCOMPARE(r.status, 401);
        QCOMPARE(r.errorCode(), QString("INVALID_SIGNATURE"));
        r = MetaWebhook::postWithSignature(m_rig->server().baseUrl(), m_rig->server().certificate(),
                                           "/webhooks/instagram", MetaWebhook::bytes(body), {});
        QCOMPARE(r.status, 401);
        QCOMPARE(count("SELECT count(*) FROM messages"), 0);
        r = webhook({{"object", "whatsapp_business_account"}, {"entry", QJsonArray()}});
        QCOMPARE(r.status, 400);
        r = webhook({{"object", "instagram"}});
        QCOMPARE(r.status, 400);
    }

    void verifiesTheHubHandshake()
    {
        ApiClient client(m_rig->server().baseUrl(), m_rig->server().certificate());
        HttpResult r =
            client.get("/webhooks/instagram?hub.mode=subscribe&hub.challenge=42&hub.verify_token=" + kVerify);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("42"));
        QVERIFY(r.header("content-type").startsWith("text/plain"));
        r = client.get("/webhooks/instagram?hub.mode=subscribe&hub.challenge=42&hub.verify_token=wrong");
        QCOMPARE(r.status, 403);
    }

    void providerErrorsFailOrRetry_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<int>("providerStatus");
        QTest::addColumn<bool>("final");
        QTest::newRow("190 token") << 190 << 401 << true;
        QTest::newRow("10 outside window") << 10 << 403 << true;
        QTest::newRow("100 parameter") << 100 << 400 << true;
        QTest::newRow("613 rate") << 613 << 400 << false;
        QTest::newRow("2 temporary") << 2 << 500 << false;
    }

    void providerErrorsFailOrRetry()
    {
        QFETCH(int, code);
        QFETCH(int, providerStatus);
        QFETCH(bool, final);
        QCOMPARE(incoming(textMessage("aWdfFIRST", "hi")).status, 200);
        m_fake->failNext(code, providerStatus);
        QSignalSpy finished(&m_rig->dispatcher(), &ChannelDispatcher::sendFinished);
        const HttpResult r = sendText("hello");
        QCOMPARE(r.status, 201);
        const QString id = r.data().value("id").toString();
        // The send may have finished while the API call was still answering: count, not wait.
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() > 0, 10000);
        if (final) {
            QCOMPARE(message(id).delivery.status, QString("failed"));
            QVERIFY2(message(id).delivery.failedReason.startsWith(QString::number(code) + ": "),
                     qPrintable(message(id).delivery.failedReason));
        } else {
            QCOMPARE(finished.at(0).at(1).toInt(), int(SendOutcome::Retry));
            QVERIFY(waitStatus(id, "sent"));
            QCOMPARE(m_fake->sends().size(), 2);
        }
    }

    void downProviderAnswers503UntilProbed()
    {
        QCOMPARE(incoming(textMessage("aWdfFIRST", "hi")).status, 200);
        m_fake->setDown(true);
        HttpResult r = sendText("first");
        QCOMPARE(r.status, 201);
        const QString first = r.data().value("id").toString();
        QVERIFY(waitUntil([&] { return !m_rig->registry()->isAvailable("instagram"); }));
        r = sendText("second");
        QCOMPARE(r.status, 503);
        QCOMPARE(r.errorCode(), QString("CHANNEL_UNAVAILABLE"));
        m_fake->setDown(false);
        QSignalSpy probed(&m_rig->dispatcher(), &ChannelDispatcher::probed);
        m_rig->dispatcher().probe("instagram");
        QVERIFY(probed.wait(10000));
        QCOMPARE(probed.at(0).at(1).toBool(), true);
        QCOMPARE(probed.at(0).at(2).toString(), QString("@liaison_test"));
        QCOMPARE(sendText("third").status, 201);
        QVERIFY(waitStatus(first, "sent"));
    }

    void unconfiguredChannelAnswers503()
    {
        m_rig->start(ChannelsConfig());
        const HttpResult r =
            webhook(MetaWebhook::instagram({MetaWebhook::instagramMessage(kIgsid, textMessage("m", "hi"))}));
        QCOMPARE(r.status, 503);
        QCOMPARE(r.errorCode(), QString("CHANNEL_UNAVAILABLE"));
        const HttpResult send = sendText("hello");
        QCOMPARE(send.status, 503);
    }
};

QTEST_MAIN(TestInstagramChannel)
#include "test_instagramchannel.moc"
