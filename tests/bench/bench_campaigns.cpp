// An e-mail campaign broadcast through the whole sending path: N contacts (default 10,000) in a
// segment, the audience frozen by send(), and the CampaignSender (claims with a lease, MIME, DKIM
// rsa-sha256 signatures, SMTP over STARTTLS with AUTH through libcurl, outcomes recorded in
// batches) sending into the local SMTP sink (tests/support/smtpsink.py) on loopback. Prints the time
// to freeze the audience and the messages per second with pacing off (the sink counting only), then
// a paced run (default 1,600 recipients at 80/s, the sink parsing each message and noting when it
// came) with the most messages the sink received in any one-second window.
// Usage: bench_campaigns [recipients] [concurrency] [pacedRecipients] [perSecond]
//        (default 10000 4 1600 80)
#include "messaging/campaigns/campaignsender.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "tests/support/smtpsink.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

namespace {
const QString kUser = QStringLiteral("kampanya");
const QString kPassword = QStringLiteral("gizli-parola-123");

// Seeds `count` contacts tagged `tag` and returns a campaign of them, sent (audience frozen).
Campaign prepare(int count, const QString &tag, int offset)
{
    const QString segmentId = campaignAudience(testStore(), count, tag, offset);
    CampaignRepository campaigns(testStore());
    const Campaign c = campaigns.create(CampaignRules::parse(
        {{"name", "Kasım indirimi " + tag},
         {"type", "BROADCAST"},
         {"channel", "email"},
         {"subject", "Merhaba {{firstName}} {{lastName}}, Kasım'a özel %20 indirim"},
         {"htmlContent", "<html><body><h1>Sevgili {{firstName}},</h1><p>{{company|Firmanız}} için İstanbul ve İzmir "
                         "mağazalarımızda tüm ürünlerde %20 indirim.</p><p><a href=\"https://ornek.com.tr/kampanya\">"
                         "İndirimi gör</a> · <a href=\"https://ornek.com.tr/magazalar\">Mağazalar</a></p>"
                         "<p><a href=\"{{unsubscribeUrl}}\">Abonelikten çık</a></p></body></html>"},
         {"broadcastListId", segmentId}}));
    QElapsedTimer t;
    t.start();
    campaigns.send(c.id);
    std::printf("%s: %d recipients frozen in %.2f s\n", qPrintable(tag), count, t.elapsed() / 1000.0);
    return c;
}

CampaignsConfig configFor(const SmtpSink &sink, const QByteArray &key, int concurrency, int perSecond)
{
    CampaignsConfig c;
    c.publicBaseUrl = QStringLiteral("https://crm.ornek.com.tr:8443");
    c.mail.smtpHost = QStringLiteral("127.0.0.1");
    c.mail.smtpPort = sink.port();
    c.mail.user = kUser;
    c.mail.password = kPassword;
    c.mail.from = QStringLiteral("Örnek Mağaza <kampanya@ornek.com.tr>");
    c.mail.verifyTls = false;
    c.mail.dkimDomain = QStringLiteral("ornek.com.tr");
    c.mail.dkimSelector = QStringLiteral("liaison");
    c.mail.dkimKeyPem = key;
    c.email = {perSecond, concurrency, 0};
    c.pollIntervalMs = 100;
    return c;
}

double run(const CampaignsConfig &config, const Campaign &c)
{
    CampaignRepository campaigns(testStore());
    QElapsedTimer t;
    t.start();
    CampaignSender sender(config, testStore());
    // Bounded: an hour at most.
    while (campaigns.get(c.id).status == QLatin1String("SENDING") && t.elapsed() < 3600 * 1000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    return t.elapsed() / 1000.0;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int recipients = argc > 1 ? qMax(10, atoi(argv[1])) : 10000;
    const int concurrency = argc > 2 ? qBound(1, atoi(argv[2]), 32) : 4;
    const int paced = argc > 3 ? qMax(10, atoi(argv[3])) : 1600;
    const int perSecond = argc > 4 ? qMax(1, atoi(argv[4])) : 80;
    TempDatabase db;
    QTemporaryDir keys;
    const auto [privateKey, publicKey] = SmtpSink::makeRsaKey(keys.path(), QStringLiteral("dkim"));
    std::printf("database: %s\n", Database::dialect() == Database::Dialect::PostgreSQL ? "PostgreSQL" : "SQLite");

    {
        SmtpSink::Options options;
        options.user = kUser;
        options.password = kPassword;
        options.countOnly = true;
        SmtpSink sink(options);
        if (!sink.isReady()) {
            std::printf("sink: %s\n", qPrintable(sink.errorText()));
            return 1;
        }
        const Campaign c = prepare(recipients, QStringLiteral("unpaced"), 0);
        const double s = run(configFor(sink, privateKey, concurrency, 0), c);
        const CampaignStats stats = CampaignRepository(testStore()).stats(c.id);
        std::printf("unpaced: %lld of %d sent in %.2f s with %d connections: %.0f messages/s (status %s)\n",
                    static_cast<long long>(stats.sent), recipients, s, concurrency, stats.sent / s,
                    qPrintable(CampaignRepository(testStore()).get(c.id).status));
    }
    {
        SmtpSink::Options options;
        options.user = kUser;
        options.password = kPassword;
        SmtpSink sink(options);
        const Campaign c = prepare(paced, QStringLiteral("paced"), recipients);
        const double s = run(configFor(sink, privateKey, concurrency, perSecond), c);
        QList<double> at;
        for (const QJsonObject &m : sink.messages())
            at << m.value(QStringLiteral("receivedAt")).toDouble();
        std::sort(at.begin(), at.end());
        int most = 0;
        for (int i = 0, j = 0; i < at.size(); ++i) {
            while (at.at(i) - at.at(j) >= 1.0)
                ++j;
            most = qMax(most, i - j + 1);
        }
        std::printf("paced at %d/s: %lld messages in %.2f s (%.1f/s); most received in any one second: %d\n", perSecond,
                    static_cast<long long>(at.size()), s, at.size() / s, most);
    }
    return 0;
}
