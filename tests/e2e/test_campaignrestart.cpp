// A campaign killed mid-send and started again: `liaison serve` ($LIAISON_BINARY) sends a
// 5,000-recipient e-mail broadcast into the local SMTP sink, is killed with SIGKILL part-way, and is
// started again on the same data directory. Every recipient gets the message; at most the
// documented in-flight window (CampaignSender: kQueuePerWorker × concurrency + kRecordBatch) gets it
// twice; no one is skipped; the campaign ends SENT with statistics that match the sink.
#include "messaging/campaigns/campaignsender.h"
#include "model/campaigns/campaignrepository.h"
#include "model/core/database.h"
#include "tests/support/modelsupport.h"
#include "tests/support/serveprocess.h"
#include "tests/support/smtpsink.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace ServeTest;

namespace {
constexpr int kRecipients = 5000;
constexpr int kConcurrency = 4;
} // namespace

class TestCampaignRestart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void killedMidSendResumesWithoutLosingAnyone()
    {
        const QString binary = qEnvironmentVariable("LIAISON_BINARY");
        QVERIFY2(QFile::exists(binary), "LIAISON_BINARY must name the built liaison");
        SmtpSink::Options options;
        options.envelopeOnly = true; // each message's recipient is all this test reads
        SmtpSink sink(options);
        QVERIFY2(sink.isReady(), qPrintable(sink.errorText()));

        QTemporaryDir data;
        QVERIFY(data.isValid());
        // This thread's connection is closed before the directory goes, on every way out.
        const struct CloseConnection
        {
            ~CloseConnection() { Database::closeThreadConnection(); }
        } closeConnection;
        Database::setPath(data.filePath(QStringLiteral("liaison.db")));
        QVERIFY(Database::migrate() >= 0);
        const Store store = testStore();
        QString campaignId;
        const QString segmentId = campaignAudience(store, kRecipients);
        CampaignRepository campaigns(store);
        const Campaign c = campaigns.create(CampaignRules::parse({{"name", "Kasım indirimi"},
                                                                  {"type", "BROADCAST"},
                                                                  {"channel", "email"},
                                                                  {"subject", "Merhaba {{firstName}} {{lastName}}"},
                                                                  {"htmlContent", "<p>Kasım'a özel indirim</p>"},
                                                                  {"broadcastListId", segmentId}}));
        campaignId = campaigns.send(c.id).id;
        QCOMPARE(campaigns.stats(campaignId).pending, kRecipients);

        const QStringList settings{
            QStringLiteral("--set"), QStringLiteral("mail/smtpHost=127.0.0.1"),
            QStringLiteral("--set"), QStringLiteral("mail/smtpPort=%1").arg(sink.port()),
            QStringLiteral("--set"), QStringLiteral("mail/verifyTls=false"),
            QStringLiteral("--set"), QStringLiteral("mail/from=Örnek Mağaza <kampanya@ornek.com.tr>"),
            QStringLiteral("--set"), QStringLiteral("campaigns/email/messagesPerSecond=0"),
            QStringLiteral("--set"), QStringLiteral("campaigns/email/concurrency=%1").arg(kConcurrency),
            QStringLiteral("--set"), QStringLiteral("campaigns/pollIntervalMs=100"),
            QStringLiteral("--set"), QStringLiteral("server/rateLimitPerMinute=0")};
        {
            ServeProcess serve(binary, data.path(), freePort(), settings);
            QVERIFY2(serve.start(), serve.describe());
            // Killed once a good part was sent, in the middle of the run.
            QVERIFY2(sink.waitForMessages(1500, 120000), qPrintable(QString::number(sink.messageCount())));
            serve.sendSignal(SIGKILL);
            QVERIFY(serve.waitForExit() || serve.process().state() == QProcess::NotRunning);
        }
        const int before = sink.messageCount();
        QVERIFY2(before < kRecipients, "the run ended before the kill: nothing was tested");
        {
            ServeProcess serve(binary, data.path(), freePort(), settings);
            QVERIFY2(serve.start(), serve.describe());
            QVERIFY2(
                QTest::qWaitFor([&] { return campaigns.get(campaignId).status != QLatin1String("SENDING"); }, 180000),
                qPrintable(QStringLiteral("%1 messages").arg(sink.messageCount())));
            serve.sendSignal(SIGTERM);
            QVERIFY(serve.waitForExit());
        }
        QCOMPARE(campaigns.get(campaignId).status, QString("SENT"));

        QHash<QString, int> received;
        for (const QString &rcpt : sink.recipients())
            ++received[rcpt];
        int twice = 0;
        for (int i = 0; i < kRecipients; ++i) {
            const int n = received.value(QStringLiteral("m%1@ornek.com.tr").arg(i));
            QVERIFY2(n >= 1, qPrintable(QStringLiteral("m%1 got nothing").arg(i)));
            QVERIFY2(n <= 2, qPrintable(QStringLiteral("m%1 got %2").arg(i).arg(n)));
            if (n == 2)
                ++twice;
        }
        const int window = CampaignSender::kQueuePerWorker * kConcurrency + CampaignSender::kRecordBatch;
        qInfo("killed after %d messages; %d recipients got the message twice (the window is %d)", before, twice,
              window);
        QVERIFY2(twice <= window, qPrintable(QString::number(twice)));
        const CampaignStats s = campaigns.stats(campaignId);
        QCOMPARE(s.sent, kRecipients);
        QCOMPARE(s.pending, 0);
    }
};

QTEST_MAIN(TestCampaignRestart)
#include "test_campaignrestart.moc"
