// Two copies of Liaison on one PostgreSQL database sending one campaign: two `liaison serve`
// processes ($LIAISON_BINARY) share a database of the test run's cluster and a 2,000-recipient
// e-mail broadcast, both sending into the local SMTP sink at once. Every recipient gets exactly one
// message (the claims' FOR UPDATE SKIP LOCKED and leases), and both copies took part. Paced, the two
// copies together hold campaigns/email/messagesPerSecond: no second of the sink holds more.
#include "model/campaigns/campaignrepository.h"
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
        const QList<double> at = sendWithTwoCopies(kRecipients, 0);
        QCOMPARE(at.size(), kRecipients);
    }

    void theCopiesHoldOnePaceTogether()
    {
        constexpr int kPaced = 240;
        constexpr int kPerSecond = 60;
        QList<double> at = sendWithTwoCopies(kPaced, kPerSecond);
        QCOMPARE(at.size(), kPaced);
        std::sort(at.begin(), at.end());
        // 240 at 60 a second take more than three seconds together; no second of the sink holds more
        // than 60 (the clocks of the sink and of Qt round differently: 5 ms).
        QVERIFY2(at.last() - at.first() >= 3.0, qPrintable(QString::number(at.last() - at.first())));
        for (int i = 0; i + kPerSecond < at.size(); ++i)
            QVERIFY2(at.at(i + kPerSecond) - at.at(i) >= 1.0 - 0.005, qPrintable(QStringLiteral("at %1").arg(i)));
    }

private:
    // Two copies send a campaign of `recipients` at `perSecond` (0: unpaced) each; every recipient
    // must get exactly one message and both copies must take part. Returns when the sink received
    // each message (seconds).
    QList<double> sendWithTwoCopies(int recipients, int perSecond)
    {
        const QString binary = qEnvironmentVariable("LIAISON_BINARY");
        if (!QFile::exists(binary))
            qFatal("LIAISON_BINARY must name the built liaison");
        TempPostgresDatabase database(QStringLiteral("campaigns"));
        if (!database.available()) {
            qWarning("%s", qPrintable(database.why()));
            return {};
        }
        SmtpSink sink;
        if (!sink.isReady())
            qFatal("%s", qPrintable(sink.errorText()));
        const std::optional<DatabaseUrl> url = DatabaseUrl::parse(database.url(), nullptr);
        if (!url)
            qFatal("bad database URL");
        Database::setPostgres(*url, QString());
        if (Database::migrate() < 0)
            qFatal("migration failed");
        const Store store = testStore();
        CampaignRepository campaigns(store);
        const Campaign c =
            campaigns.create(CampaignRules::parse({{"name", "Kasım indirimi"},
                                                   {"type", "BROADCAST"},
                                                   {"channel", "email"},
                                                   {"subject", "Merhaba {{lastName}}"},
                                                   {"htmlContent", "<p>Kasım'a özel indirim</p>"},
                                                   {"broadcastListId", campaignAudience(store, recipients)}}));
        QStringList settings;
        for (const QString &pair :
             {QStringLiteral("database/url=") + database.url(), QStringLiteral("mail/smtpHost=127.0.0.1"),
              QStringLiteral("mail/smtpPort=%1").arg(sink.port()), QStringLiteral("mail/verifyTls=false"),
              QStringLiteral("mail/from=Örnek Mağaza <kampanya@ornek.com.tr>"),
              QStringLiteral("campaigns/email/messagesPerSecond=%1").arg(perSecond),
              QStringLiteral("campaigns/email/concurrency=3"), QStringLiteral("campaigns/pollIntervalMs=50")})
            settings << QStringLiteral("--set") << pair;
        QTemporaryDir dirs;
        QDir().mkpath(dirs.filePath(QStringLiteral("a")));
        QDir().mkpath(dirs.filePath(QStringLiteral("b")));
        ServeProcess a(binary, dirs.filePath(QStringLiteral("a")), freePort(), settings);
        ServeProcess b(binary, dirs.filePath(QStringLiteral("b")), freePort(), settings);
        QList<double> at;
        auto check = [&]() -> bool {
            if (!a.start() || !b.start()) {
                qWarning("%s\n%s", a.describe().constData(), b.describe().constData());
                return false;
            }
            campaigns.send(c.id);
            if (!QTest::qWaitFor([&] { return campaigns.get(c.id).status != QLatin1String("SENDING"); }, 180000)) {
                qWarning("still sending after %d messages", sink.messageCount());
                return false;
            }
            if (campaigns.get(c.id).status != QLatin1String("SENT"))
                return false;
            QHash<QString, int> received;
            QSet<QString> connections;
            for (const QJsonObject &m : sink.messages()) {
                ++received[m.value("recipients").toArray().first().toString()];
                connections.insert(m.value("connection").toVariant().toString());
                at << m.value("receivedAt").toDouble();
            }
            for (int i = 0; i < recipients; ++i) {
                const int n = received.value(QStringLiteral("m%1@ornek.com.tr").arg(i));
                if (n != 1) {
                    qWarning("m%d got %d", i, n);
                    return false;
                }
            }
            // Both copies sent (3 connections each at most).
            if (received.size() != recipients || connections.size() <= 3 || campaigns.stats(c.id).sent != recipients) {
                qWarning("%lld received, %lld connections", qint64(received.size()), qint64(connections.size()));
                return false;
            }
            return true;
        };
        const bool ok = check();
        a.sendSignal(SIGTERM);
        b.sendSignal(SIGTERM);
        a.waitForExit();
        b.waitForExit();
        Database::closeThreadConnection();
        return ok ? at : QList<double>{};
    }
};

QTEST_MAIN(TestCampaignTwoCopies)
#include "test_campaigntwocopies.moc"
