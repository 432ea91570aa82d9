// SMS campaigns against a fake Twilio Messages API on loopback (tests/support/faketwilio.h): a
// Turkish broadcast reaches each number exactly once, its body the campaign's HTML as text with the
// merge fields filled, with HTTP Basic credentials, From and the status callback URL; a number the
// provider calls invalid (21211) is not tried again and is suppressed; a 500 is tried again; the
// pace holds (no one-second window with more requests than messagesPerSecond); delivery reports
// make recipients delivered or failed and the statistics follow; SMS that is not set up pauses the
// campaign with the reason; the outcome of each kind of answer; Twilio's signature.
#include "messaging/campaigns/campaignsender.h"
#include "messaging/campaigns/smsclient.h"
#include "messaging/channels/providerclient.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "tests/support/faketwilio.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QtTest>

namespace {
const QStringList kSmsFirstNames = {QStringLiteral("Ayşe"), QStringLiteral("Çağrı"),  QStringLiteral("İsmail"),
                                    QStringLiteral("Şule"), QStringLiteral("Gülşen"), QStringLiteral("Ömer")};

QString mobile(int i)
{
    return QStringLiteral("+90532100%1").arg(i, 4, 10, QLatin1Char('0'));
}
} // namespace

class TestSmsCampaign : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;

    CampaignsConfig configFor(const FakeTwilio &twilio) const
    {
        CampaignsConfig c;
        c.publicBaseUrl = QStringLiteral("https://crm.ornek.com.tr:8443");
        c.smsApi.apiBaseUrl = twilio.baseUrl();
        c.smsApi.accountSid = twilio.accountSid;
        c.smsApi.authToken = twilio.authToken;
        c.smsApi.from = QStringLiteral("+908501234567");
        c.smsApi.timeoutSeconds = 10;
        c.sms = {0, 2, 0};
        c.retryDelays = {0};
        c.pollIntervalMs = 50;
        return c;
    }

    // count contacts tagged "kasim" with Turkish mobile numbers (written as people type them), plus
    // the extra numbers.
    QString audience(int count, const QStringList &extra = {})
    {
        ContactRepository contacts(testStore());
        for (int i = 0; i < count; ++i) {
            const QString e164 = mobile(i);
            // "+90 532 100 00 07"
            const QString typed = QStringLiteral("%1 %2 %3 %4 %5")
                                      .arg(e164.left(3), e164.mid(3, 3), e164.mid(6, 3), e164.mid(9, 2), e164.mid(11));
            contacts.create(ContactRules::parse({{"firstName", kSmsFirstNames.at(i % kSmsFirstNames.size())},
                                                 {"lastName", QStringLiteral("Yılmaz %1").arg(i)},
                                                 {"phone", typed},
                                                 {"company", QStringLiteral("Doğa & Gıda")},
                                                 {"tags", QJsonArray{"kasim"}}}));
        }
        for (const QString &number : extra)
            contacts.create(
                ContactRules::parse({{"firstName", "Test"}, {"phone", number}, {"tags", QJsonArray{"kasim"}}}));
        const Segment s =
            SegmentRepository(testStore())
                .create(SegmentRules::parse(
                    {{"name", "Kasım SMS"},
                     {"filters",
                      QJsonObject{{"logic", "AND"},
                                  {"rules", QJsonArray{QJsonObject{
                                                {"field", "tags"}, {"operator", "equals"}, {"value", "kasim"}}}}}}}));
        return s.id;
    }

    Campaign smsCampaign(const QString &segmentId)
    {
        return CampaignRepository(testStore())
            .create(CampaignRules::parse({{"name", "Kasım SMS"},
                                          {"type", "BROADCAST"},
                                          {"channel", "sms"},
                                          {"htmlContent", "<p>Merhaba {{firstName}} ({{company|firma}}),</p>"
                                                          "<p>Kasım'a özel %20 indirim &amp; ücretsiz kargo.</p>"},
                                          {"broadcastListId", segmentId}}));
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
    }
    void cleanup() { m_db.reset(); }

    void broadcastSendsEachNumberOnceAsText()
    {
        FakeTwilio twilio;
        const QString bad = QStringLiteral("+905559990001");
        const QString flaky = QStringLiteral("+905559990002");
        twilio.badNumbers.insert(bad);
        twilio.failOnceFor.insert(flaky);
        CampaignRepository repo(testStore());
        const Campaign c = smsCampaign(audience(10, {bad, flaky}));
        repo.send(c.id);
        CampaignsConfig config = configFor(twilio);
        config.sms = {4, 2, 0};
        CampaignSender sender(config, testStore());
        QTRY_VERIFY_WITH_TIMEOUT(repo.get(c.id).status != QLatin1String("SENDING"), 30000);
        QCOMPARE(repo.get(c.id).status, QString("SENT"));
        QVERIFY2(twilio.problems().isEmpty(), qPrintable(twilio.problems().join('\n')));

        // Each number once; the bad one once (not tried again); the flaky one twice (500, then 201).
        QHash<QString, int> tries;
        QList<double> at;
        for (const FakeTwilio::Request &r : std::as_const(twilio.requests)) {
            ++tries[r.to];
            at << r.receivedAt;
            QCOMPARE(r.from, QString("+908501234567"));
            QCOMPARE(r.statusCallback, QString("https://crm.ornek.com.tr:8443/webhooks/sms/status"));
            QVERIFY2(!r.body.contains('<') && !r.body.contains("&amp;"), qPrintable(r.body));
            QVERIFY2(r.body.contains(QStringLiteral("Kasım'a özel %20 indirim & ücretsiz kargo.")), qPrintable(r.body));
        }
        QCOMPARE(tries.size(), 12);
        for (int i = 0; i < 10; ++i)
            QCOMPARE(tries.value(mobile(i)), 1);
        QCOMPARE(tries.value(bad), 1);
        QCOMPARE(tries.value(flaky), 2);
        const auto first = std::find_if(twilio.requests.cbegin(), twilio.requests.cend(),
                                        [](const FakeTwilio::Request &r) { return r.to == mobile(1); });
        QVERIFY(first != twilio.requests.cend());
        QVERIFY2(first->body.startsWith(QStringLiteral("Merhaba Çağrı (Doğa & Gıda),")), qPrintable(first->body));

        // The pace: 13 requests at 4 a second; no second holds more than 4.
        std::sort(at.begin(), at.end());
        QCOMPARE(at.size(), 13);
        QVERIFY2(at.last() - at.first() >= 2.0, qPrintable(QString::number(at.last() - at.first())));
        for (int i = 0; i + 4 < at.size(); ++i)
            QVERIFY2(at.at(i + 4) - at.at(i) >= 1.0 - 0.005, qPrintable(QStringLiteral("at %1").arg(i)));

        // Sent is not delivered for SMS: the provider's report says so.
        CampaignStats s = repo.stats(c.id);
        QCOMPARE(s.sent, 11);
        QCOMPARE(s.delivered, 0);
        QCOMPARE(s.bounced, 1);
        QVERIFY(SuppressionRepository(testStore()).isSuppressed("sms", bad));
        RecipientQuery bounced;
        bounced.statuses = {QStringLiteral("bounced")};
        const RecipientPage b = repo.recipients(c.id, bounced);
        QCOMPARE(b.items.size(), 1);
        QCOMPARE(b.items.first().attempts, 1);
        QVERIFY2(b.items.first().error.contains("21211"), qPrintable(b.items.first().error));

        // Delivery reports (POST /webhooks/sms/status records them so; tests/api/test_smsstatusapi.cpp).
        QStringList sids;
        for (const FakeTwilio::Request &r : std::as_const(twilio.requests)) {
            if (!r.sid.isEmpty())
                sids << r.sid;
        }
        QCOMPARE(sids.size(), 11);
        for (int i = 0; i < 8; ++i)
            QVERIFY(repo.recordDelivery(QStringLiteral("sms"), sids.at(i), true, {}));
        QVERIFY(repo.recordDelivery(QStringLiteral("sms"), sids.at(8), false,
                                    QStringLiteral("SMS undelivered (error 30003)")));
        QVERIFY(!repo.recordDelivery(QStringLiteral("sms"), QStringLiteral("SM_unknown"), true, {}));
        s = repo.stats(c.id);
        QCOMPARE(s.delivered, 8);
        QCOMPARE(s.failed, 1);
        RecipientQuery failed;
        failed.statuses = {QStringLiteral("failed")};
        QCOMPARE(repo.recipients(c.id, failed).items.first().error, QString("SMS undelivered (error 30003)"));
    }

    void unconfiguredSmsPausesWithTheReason()
    {
        CampaignRepository repo(testStore());
        const Campaign c = smsCampaign(audience(2));
        repo.send(c.id);
        CampaignsConfig config; // no account
        config.pollIntervalMs = 50;
        CampaignSender sender(config, testStore());
        QTRY_VERIFY_WITH_TIMEOUT(repo.get(c.id).status == QLatin1String("PAUSED"), 10000);
        QVERIFY2(repo.get(c.id).statusReason.contains("SMS sending is not set up"),
                 qPrintable(repo.get(c.id).statusReason));
    }

    void aPlainHttpProviderIsRefused()
    {
        FakeTwilio twilio;
        CampaignsConfig config = configFor(twilio);
        config.smsApi.apiBaseUrl = QStringLiteral("http://sms.ornek.com.tr");
        SmsClient client(config.smsApi, {});
        QVERIFY(!client.isValid());
        CampaignRepository repo(testStore());
        const Campaign c = smsCampaign(audience(1));
        repo.send(c.id);
        CampaignSender sender(config, testStore());
        QTRY_VERIFY_WITH_TIMEOUT(repo.get(c.id).status == QLatin1String("PAUSED"), 10000);
        QVERIFY(twilio.requests.isEmpty());
    }

    void outcomes_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("kind");
        QTest::newRow("201 sid") << 201 << QByteArray(R"({"sid":"SM1","status":"queued"})")
                                 << int(CampaignSendResult::Sent);
        QTest::newRow("invalid number") << 400 << QByteArray(R"({"code":21211,"message":"invalid"})")
                                        << int(CampaignSendResult::HardBounce);
        QTest::newRow("not a mobile") << 400 << QByteArray(R"({"code":21614})") << int(CampaignSendResult::HardBounce);
        QTest::newRow("answered STOP") << 400 << QByteArray(R"({"code":21610})") << int(CampaignSendResult::HardBounce);
        QTest::newRow("bad credentials") << 401 << QByteArray(R"({"code":20003})") << int(CampaignSendResult::Failed);
        QTest::newRow("bad From") << 400 << QByteArray(R"({"code":21606})") << int(CampaignSendResult::Failed);
        QTest::newRow("too many requests")
            << 429 << QByteArray(R"({"code":20429})") << int(CampaignSendResult::SoftFailure);
        QTest::newRow("server error") << 503 << QByteArray("<html>") << int(CampaignSendResult::SoftFailure);
        QTest::newRow("no answer") << 0 << QByteArray() << int(CampaignSendResult::SoftFailure);
    }
    void outcomes()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(int, kind);
        ProviderReply reply;
        reply.status = status;
        reply.body = body;
        reply.json = QJsonDocument::fromJson(body).object();
        if (!status)
            reply.networkError = QStringLiteral("Connection refused");
        const CampaignSendResult r = SmsClient::outcome(QStringLiteral("rcp_1"), reply);
        QCOMPARE(int(r.kind), kind);
        QCOMPARE(r.recipientId, QString("rcp_1"));
        if (kind == CampaignSendResult::Sent)
            QCOMPARE(r.providerId, QString("SM1"));
        else
            QVERIFY(!r.detail.isEmpty());
    }

    void twilioSignature()
    {
        // The example of Twilio's security documentation.
        const QList<QPair<QString, QString>> params = TwilioSignature::formParams(
            "CallSid=CA1234567890ABCDE&Caller=%2B12349013030&Digits=1234&From=%2B12349013030&To=%2B18005551212");
        QCOMPARE(params.size(), 5);
        QCOMPARE(params.at(1).second, QString("+12349013030"));
        QCOMPARE(TwilioSignature::sign(QStringLiteral("12345"),
                                       QStringLiteral("https://mycompany.com/myapp.php?foo=1&bar=2"), params),
                 QByteArray("0/KCTR6DLpKmkAf8muzZqo1nDgQ="));
        QCOMPARE(TwilioSignature::formParams("Body=Merhaba+d%C3%BCnya").first().second, QString("Merhaba dünya"));
    }
};

QTEST_MAIN(TestSmsCampaign)
#include "test_smscampaign.moc"
