// Two copies of Liaison on one PostgreSQL database sending one campaign: two `liaison serve`
// processes ($LIAISON_BINARY) share a database of the test run's cluster and a 2,000-recipient
// e-mail broadcast, both sending into the local SMTP sink at once. Every recipient gets exactly one
// message (the claims' FOR UPDATE SKIP LOCKED and leases), and both copies took part.
#include "model/campaigns/campaignrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/databaseurl.h"
#include "tests/support/modelsupport.h"
#include "tests/support/serveprocess.h"
#include "tests/support/smtpsink.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace ServeTest;

namespace {
constexpr int kRecipients = 2000;
} // namespace

class TestCampaignTwoCopies : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void everyRecipientExactlyOnce()
    {
        const QString binary = qEnvironmentVariable("LIAISON_BINARY");
        QVERIFY2(QFile::exists(binary), "LIAISON_BINARY must name the built liaison");
        TempPostgresDatabase database(QStringLiteral("campaigns"));
        if (!database.available())
            QSKIP(qPrintable(database.why()));
        SmtpSink sink;
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));

        const std::optional<DatabaseUrl> url = DatabaseUrl::parse(database.url(), nullptr);
        QVERIFY(url);
        Database::setPostgres(*url, QString());
        QVERIFY(Database::migrate() >= 0);
        const Store store = testStore();
        {
            Transaction tx;
            ContactRepository contacts(store);
            for (int i = 0; i < kRecipients; ++i)
                contacts.create(ContactRules::parse({{"firstName", QStringLiteral("Müşteri")},
                                                     {"lastName", QString::number(i)},
                                                     {"email", QStringLiteral("m%1@ornek.com.tr").arg(i)},
                                                     {"tags", QJsonArray{"kasim"}}}));
            tx.commit();
        }
        const Segment segment = SegmentRepository(store).create(SegmentRules::parse(
            {{"name", "Kasım"},
             {"filters",
              QJsonObject{{"logic", "AND"},
                          {"rules",
                           QJsonArray{QJsonObject{{"field", "tags"}, {"operator", "equals"}, {"value", "kasim"}}}}}}}));
        CampaignRepository campaigns(store);
        const Campaign c = campaigns.create(CampaignRules::parse({{"name", "Kasım indirimi"},
                                                                  {"type", "BROADCAST"},
                                                                  {"channel", "email"},
                                                                  {"subject", "Merhaba {{lastName}}"},
                                                                  {"htmlContent", "<p>Kasım'a özel indirim</p>"},
                                                                  {"broadcastListId", segment.id}}));

        QStringList settings;
        for (const QString &pair :
             {QStringLiteral("database/url=") + database.url(), QStringLiteral("mail/smtpHost=127.0.0.1"),
              QStringLiteral("mail/smtpPort=%1").arg(sink.port()), QStringLiteral("mail/verifyTls=false"),
              QStringLiteral("mail/from=Örnek Mağaza <kampanya@ornek.com.tr>"),
              QStringLiteral("campaigns/email/messagesPerSecond=0"), QStringLiteral("campaigns/email/concurrency=3"),
              QStringLiteral("campaigns/pollIntervalMs=50")})
            settings << QStringLiteral("--set") << pair;
        QTemporaryDir dirs;
        QDir().mkpath(dirs.filePath(QStringLiteral("a")));
        QDir().mkpath(dirs.filePath(QStringLiteral("b")));
        ServeProcess a(binary, dirs.filePath(QStringLiteral("a")), freePort(), settings);
        ServeProcess b(binary, dirs.filePath(QStringLiteral("b")), freePort(), settings);
        QVERIFY2(a.start(), a.describe());
        QVERIFY2(b.start(), b.describe());
        campaigns.send(c.id);
        QVERIFY2(QTest::qWaitFor([&] { return campaigns.get(c.id).status != QLatin1String("SENDING"); }, 180000),
                 qPrintable(QStringLiteral("%1 messages").arg(sink.messageCount())));
        QCOMPARE(campaigns.get(c.id).status, QString("SENT"));

        QHash<QString, int> received;
        QSet<QString> connections;
        for (const QJsonObject &m : sink.messages()) {
            ++received[m.value("recipients").toArray().first().toString()];
            connections.insert(m.value("connection").toVariant().toString());
        }
        for (int i = 0; i < kRecipients; ++i) {
            const int n = received.value(QStringLiteral("m%1@ornek.com.tr").arg(i));
            QVERIFY2(n == 1, qPrintable(QStringLiteral("m%1 got %2").arg(i).arg(n)));
        }
        QCOMPARE(received.size(), kRecipients);
        // Both copies sent (3 connections each at most).
        QVERIFY2(connections.size() > 3, qPrintable(QString::number(connections.size())));
        QCOMPARE(campaigns.stats(c.id).sent, kRecipients);
        a.sendSignal(SIGTERM);
        b.sendSignal(SIGTERM);
        QVERIFY(a.waitForExit());
        QVERIFY(b.waitForExit());
    }
};

QTEST_MAIN(TestCampaignTwoCopies)
#include "test_campaigntwocopies.moc"
