// The e-mail campaigns' sender against a real SMTP server on loopback (tests/support/smtpsink.py):
// a Turkish broadcast reaches each recipient exactly once, rendered (merge fields, tracked links, the
// open pixel, List-Unsubscribe and one-click headers, a VERP envelope sender) and DKIM-signed; a 550
// is a hard bounce that suppresses the address; a 451 is tried again and then a soft bounce; the
// campaign ends SENT with its statistics; the pace holds (no one-second window with more sends
// started than messagesPerSecond); errors in a row pause the campaign with its reason; e-mail that
// is not set up pauses campaigns rather than leaving them waiting; a scheduled campaign starts at its
// time.
#include "messaging/campaigns/campaignmail.h"
#include "messaging/campaigns/campaignsender.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/timeutil.h"
#include "tests/support/modelsupport.h"
#include "tests/support/smtpsink.h"

#include <QJsonArray>
#include <QProcess>
#include <QSet>
#include <QTcpServer>
#include <QtTest>

namespace {
const QStringList kFirstNames = {QStringLiteral("Ayşe"), QStringLiteral("Çağrı"),  QStringLiteral("İsmail"),
                                 QStringLiteral("Şule"), QStringLiteral("Gülşen"), QStringLiteral("Ömer")};

} // namespace

class TestCampaignSender : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;

    CampaignsConfig configFor(const SmtpSink &sink) const
    {
        CampaignsConfig c;
        c.publicBaseUrl = QStringLiteral("https://crm.ornek.com.tr:8443");
        c.mail.smtpHost = QStringLiteral("127.0.0.1");
        c.mail.smtpPort = sink.port();
        c.mail.user = QStringLiteral("kampanya");
        c.mail.password = QStringLiteral("gizli-parola-123");
        c.mail.from = QStringLiteral("Örnek Mağaza <kampanya@ornek.com.tr>");
        c.mail.verifyTls = false; // the sink's certificate is self-signed
        c.mail.timeoutSeconds = 15;
        c.email = {0, 2, 0};
        c.retryDelays = {0};
        c.pollIntervalMs = 50;
        return c;
    }

    // count contacts tagged "kasim" with e-mail addresses, plus the given extra addresses.
    QString audience(int count, const QStringList &extra = {})
    {
        ContactRepository contacts(testStore());
        for (int i = 0; i < count; ++i)
            contacts.create(ContactRules::parse({{"firstName", kFirstNames.at(i % kFirstNames.size())},
                                                 {"lastName", QStringLiteral("Yılmaz %1").arg(i)},
                                                 {"email", QStringLiteral("musteri%1@ornek.com.tr").arg(i)},
                                                 {"company", QStringLiteral("Doğa Gıda")},
                                                 {"tags", QJsonArray{"kasim"}}}));
        for (const QString &address : extra)
            contacts.create(
                ContactRules::parse({{"firstName", "Test"}, {"email", address}, {"tags", QJsonArray{"kasim"}}}));
        const Segment s =
            SegmentRepository(testStore())
                .create(SegmentRules::parse(
                    {{"name", "Kasım"},
                     {"filters",
                      QJsonObject{{"logic", "AND"},
                                  {"rules", QJsonArray{QJsonObject{
                                                {"field", "tags"}, {"operator", "equals"}, {"value", "kasim"}}}}}}}));
        return s.id;
    }

    Campaign campaign(const QString &segmentId, const QString &scheduledAt = {})
    {
        CampaignChanges ch = CampaignRules::parse(
            {{"name", "Kasım indirimi"},
             {"type", "BROADCAST"},
             {"channel", "email"},
             {"subject", "Merhaba {{firstName}}, Kasım'a özel %20 indirim"},
             {"htmlContent", "<html><body><p>Sevgili {{firstName}} ({{company|firma}}),</p>"
                             "<p><a href=\"https://ornek.com.tr/kampanya?k=kasim&amp;s=1\">İndirimi gör</a></p>"
                             "<p><a href=\"{{unsubscribeUrl}}\">Abonelikten çık</a></p></body></html>"},
             {"broadcastListId", segmentId}});
        if (!scheduledAt.isEmpty())
            ch.scheduledAt = scheduledAt;
        return CampaignRepository(testStore()).create(ch);
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
    }
    void cleanup() { m_db.reset(); }

    void sendsEachRecipientOnceRenderedAndSigned()
    {
        QTemporaryDir keys;
        const auto [privateKey, publicKey] = SmtpSink::makeRsaKey(keys.path(), QStringLiteral("dkim"));
        QVERIFY(!privateKey.isEmpty());
        SmtpSink::Options options;
        options.user = QStringLiteral("kampanya");
        options.password = QStringLiteral("gizli-parola-123");
        options.dkimPublicKeyPem = publicKey;
        options.dkimSelector = QStringLiteral("liaison");
        options.dkimDomain = QStringLiteral("ornek.com.tr");
        SmtpSink sink(options);
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));

        const QString segment =
            audience(30, {QStringLiteral("hard-bounce@ornek.com.tr"), QStringLiteral("soft-bounce@ornek.com.tr")});
        CampaignRepository repo(testStore());
        const Campaign c = campaign(segment);
        repo.send(c.id);

        CampaignsConfig config = configFor(sink);
        config.mail.dkimDomain = options.dkimDomain;
        config.mail.dkimSelector = options.dkimSelector;
        config.mail.dkimKeyPem = privateKey;
        CampaignSender sender(config, testStore());
        QTRY_VERIFY_WITH_TIMEOUT(repo.get(c.id).status != QLatin1String("SENDING"), 60000);
        QCOMPARE(repo.get(c.id).status, QString("SENT"));

        const QList<QJsonObject> messages = sink.messages();
        QCOMPARE(messages.size(), 30);
        QSet<QString> to;
        for (const QJsonObject &m : messages) {
            const QString rcpt = m.value("recipients").toArray().first().toString();
            QVERIFY2(!to.contains(rcpt), qPrintable(rcpt));
            to.insert(rcpt);
            QVERIFY(m.value("tls").toBool());
            QVERIFY(m.value("auth").toBool());
            QCOMPARE(m.value("dkim").toBool(), true);
            QVERIFY(m.value("mailFrom").toString().startsWith("kampanya+rcp_"));
            QCOMPARE(CampaignMail::recipientOfEnvelope(m.value("mailFrom").toString()).isEmpty(), false);
            const QJsonObject h = m.value("headers").toObject();
            QVERIFY2(h.value("Subject").toString().contains("Kasım'a özel %20 indirim"),
                     qPrintable(h.value("Subject").toString()));
            QVERIFY(h.value("List-Unsubscribe").toString().contains("https://crm.ornek.com.tr:8443/u/rcp_"));
            QCOMPARE(h.value("List-Unsubscribe-Post").toString(), QString("List-Unsubscribe=One-Click"));
            const QString html = m.value("html").toString();
            QVERIFY(html.contains("Doğa Gıda"));
            QVERIFY(html.contains("https://crm.ornek.com.tr:8443/t/c/rcp_"));
            QVERIFY(html.contains("https://crm.ornek.com.tr:8443/t/o/rcp_"));
            QVERIFY(!html.contains("href=\"https://ornek.com.tr/kampanya"));
            QVERIFY(m.value("text").toString().contains("Sevgili"));
        }
        QVERIFY(to.contains("musteri0@ornek.com.tr"));
        const CampaignStats s = repo.stats(c.id);
        QCOMPARE(s.sent, 30);
        QCOMPARE(s.delivered, 30);
        QCOMPARE(s.bounced, 2);
        SuppressionRepository suppressions(testStore());
        QVERIFY(suppressions.isSuppressed("email", "hard-bounce@ornek.com.tr"));
        QVERIFY(!suppressions.isSuppressed("email", "soft-bounce@ornek.com.tr"));
        RecipientQuery q;
        q.statuses = {QStringLiteral("bounced")};
        for (const CampaignRecipient &r : repo.recipients(c.id, q).items) {
            const bool hard = r.address.startsWith("hard");
            QCOMPARE(r.bounceType, hard ? QString("hard") : QString("soft"));
            QCOMPARE(r.attempts, hard ? 1 : 2); // the 451 was tried again once (retryDelays {0})
        }
    }

    void holdsThePace()
    {
        SmtpSink sink;
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        CampaignRepository repo(testStore());
        const Campaign c = campaign(audience(24));
        repo.send(c.id);
        CampaignsConfig config = configFor(sink);
        config.mail.user.clear();
        config.email = {8, 2, 0};
        CampaignSender sender(config, testStore());
        QTRY_VERIFY_WITH_TIMEOUT(repo.get(c.id).status == QLatin1String("SENT"), 60000);
        QList<double> at;
        for (const QJsonObject &m : sink.messages())
            at << m.value("receivedAt").toDouble();
        QCOMPARE(at.size(), 24);
        std::sort(at.begin(), at.end());
        // 24 messages at 8 a second take more than two seconds; no second holds more than 8 received
        // (the clocks of the sink and of Qt round differently: 5 ms).
        QVERIFY2(at.last() - at.first() >= 2.0, qPrintable(QString::number(at.last() - at.first())));
        for (int i = 0; i + 8 < at.size(); ++i)
            QVERIFY2(at.at(i + 8) - at.at(i) >= 1.0 - 0.005, qPrintable(QStringLiteral("at %1").arg(i)));
    }

    void holdsTheHourlyCapAndLeavesTrackingOutWhenOff()
    {
        SmtpSink sink;
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        CampaignRepository repo(testStore());
        const Campaign c = campaign(audience(8));
        repo.send(c.id);
        CampaignsConfig config = configFor(sink);
        config.mail.user.clear();
        config.email = {0, 2, 5};
        config.tracking = false;
        CampaignSender sender(config, testStore());
        QTRY_VERIFY_WITH_TIMEOUT(sink.messageCount() >= 5, 20000);
        // Five in the hour, and no more while the hour lasts: the rest wait, the campaign sends on.
        QTRY_COMPARE_WITH_TIMEOUT(repo.stats(c.id).sent, 5, 10000);
        QTest::qWait(1000);
        QCOMPARE(sink.messageCount(), 5);
        QCOMPARE(repo.stats(c.id).pending, 3);
        QCOMPARE(repo.get(c.id).status, QString("SENDING"));
        for (const QJsonObject &m : sink.messages()) {
            const QString html = m.value("html").toString();
            QVERIFY(!html.contains("/t/c/"));
            QVERIFY(!html.contains("/t/o/"));
            QVERIFY(html.contains("href=\"https://ornek.com.tr/kampanya?k=kasim&amp;s=1\""));
            QVERIFY(html.contains("/u/rcp_")); // the unsubscribe link stays
        }
    }

    void errorsInARowPauseTheCampaign()
    {
        // Nothing listens on this port: every send fails softly.
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close();
        SmtpSink sink;
        CampaignsConfig config = configFor(sink);
        config.mail.smtpPort = port;
        config.maxSendErrors = 3;
        config.retryDelays = {3600};
        CampaignRepository repo(testStore());
        const Campaign c = campaign(audience(10));
        repo.send(c.id);
        CampaignSender sender(config, testStore());
        QTRY_VERIFY_WITH_TIMEOUT(repo.get(c.id).status == QLatin1String("PAUSED"), 30000);
        QVERIFY2(repo.get(c.id).statusReason.contains("3 send errors in a row"),
                 qPrintable(repo.get(c.id).statusReason));
        // Resumed, the recipients wait for their next try; nobody was lost.
        const CampaignStats s = repo.stats(c.id);
        QCOMPARE(s.pending, 10);
    }

    void unconfiguredMailPausesWithTheReason()
    {
        CampaignRepository repo(testStore());
        const Campaign c = campaign(audience(2));
        repo.send(c.id);
        CampaignsConfig config; // no host
        CampaignSender sender(config, testStore());
        QTRY_VERIFY_WITH_TIMEOUT(repo.get(c.id).status == QLatin1String("PAUSED"), 10000);
        QVERIFY(repo.get(c.id).statusReason.contains("not set up"));
    }

    void aScheduledCampaignStartsAtItsTime()
    {
        SmtpSink sink;
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        CampaignRepository repo(testStore());
        const Campaign c = campaign(audience(3), TimeUtil::iso(QDateTime::currentDateTimeUtc().addSecs(2)));
        QCOMPARE(c.status, QString("SCHEDULED"));
        CampaignsConfig config = configFor(sink);
        config.mail.user.clear();
        CampaignSender sender(config, testStore());
        QTest::qWait(300);
        QCOMPARE(repo.get(c.id).status, QString("SCHEDULED"));
        QTRY_VERIFY_WITH_TIMEOUT(repo.get(c.id).status == QLatin1String("SENT"), 20000);
        QCOMPARE(sink.messageCount(), 3);
    }

    // A drip campaign's first step goes to its segment's members as they are and as they join; a
    // triggered one's to a contact tagged after it started; each message is its step's own.
    void sendsDripAndTriggeredSteps()
    {
        SmtpSink sink;
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));
        CampaignRepository repo(testStore());
        const QString segmentId = audience(2);
        const QJsonArray steps{QJsonObject{{"delayMinutes", 0},
                                           {"subject", "Hoş geldin {{firstName}}"},
                                           {"htmlContent", "<p>İlk adım</p>"}},
                               QJsonObject{{"delayDays", 3}, {"subject", "Üç gün sonra"}, {"htmlContent", "<p>x</p>"}}};
        const Campaign drip = repo.create(CampaignRules::parse({{"name", "Hoş geldin serisi"},
                                                                {"type", "DRIP"},
                                                                {"channel", "email"},
                                                                {"broadcastListId", segmentId},
                                                                {"steps", steps}}));
        repo.send(drip.id);
        const Campaign triggered = repo.create(
            CampaignRules::parse({{"name", "VIP karşılama"},
                                  {"type", "TRIGGERED"},
                                  {"channel", "email"},
                                  {"trigger", QJsonObject{{"event", "contact.tagged"}, {"tag", "vip"}}},
                                  {"steps", QJsonArray{QJsonObject{{"delayMinutes", 0},
                                                                   {"subject", "VIP {{firstName}}"},
                                                                   {"htmlContent", "<p>Ayrıcalıklar</p>"}}}}}));
        repo.send(triggered.id);
        CampaignsConfig config = configFor(sink);
        config.mail.user.clear();
        config.audienceCheckMs = 200;
        CampaignSender sender(config, testStore());
        QTRY_COMPARE_WITH_TIMEOUT(sink.messageCount(), 2, 20000);
        // A member joins the segment, and a contact is tagged vip: both get their first step.
        ContactRepository contacts(testStore());
        contacts.create(ContactRules::parse(
            {{"firstName", "Yeni"}, {"email", "yeni@ornek.com.tr"}, {"tags", QJsonArray{"kasim"}}}));
        contacts.create(
            ContactRules::parse({{"firstName", "Vip"}, {"email", "vip@ornek.com.tr"}, {"tags", QJsonArray{"VIP"}}}));
        QTRY_COMPARE_WITH_TIMEOUT(sink.messageCount(), 4, 20000);
        QTest::qWait(500); // nothing more: the second steps are three days away
        QCOMPARE(sink.messageCount(), 4);
        QStringList subjects;
        for (const QJsonObject &m : sink.messages())
            subjects << m.value("headers").toObject().value("Subject").toString();
        subjects.sort();
        QCOMPARE(subjects, (QStringList{"Hoş geldin Ayşe", "Hoş geldin Yeni", "Hoş geldin Çağrı", "VIP Vip"}));
        QCOMPARE(repo.get(drip.id).status, QString("SENDING"));
        QTRY_COMPARE_WITH_TIMEOUT(repo.stats(drip.id).sent, 3, 10000);
        QCOMPARE(repo.stats(triggered.id).sent, 1);
    }
};

QTEST_MAIN(TestCampaignSender)
#include "test_campaignsender.moc"
