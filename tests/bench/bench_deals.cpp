// The pipeline summary over many deals: seeds N deals (default 100,000) in a throwaway data
// directory, prints the time of the summary query in the model, then the throughput of
// GET /api/v1/deals/pipeline through the real HTTPS server (its own thread) with 8 requests in flight.
//   bench_deals [--deals N] [--requests N]
#include "app/serverthread.h"
#include "model/accounts/apikeyrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "tests/support/testsupport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace {
double percentile(QVector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v.at(qMin<qsizetype>(v.size() - 1, qsizetype(p * double(v.size()))));
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addOption(
        {QStringLiteral("deals"), QStringLiteral("How many deals."), QStringLiteral("N"), QStringLiteral("100000")});
    p.addOption({QStringLiteral("requests"), QStringLiteral("How many HTTP requests."), QStringLiteral("N"),
                 QStringLiteral("2000")});
    p.addOption({QStringLiteral("keep"), QStringLiteral("Keep the seeded data directory (printed).")});
    p.addHelpOption();
    p.process(app);
    const int n = p.value(QStringLiteral("deals")).toInt();
    const int requests = p.value(QStringLiteral("requests")).toInt();
    if (n <= 0 || requests <= 0) {
        fprintf(stderr, "bench_deals: --deals and --requests must be positive\n");
        return 2;
    }
    QTemporaryDir dir;
    if (p.isSet(QStringLiteral("keep"))) {
        dir.setAutoRemove(false);
        printf("data directory: %s\n", qPrintable(dir.path()));
    }
    Database::setPath(dir.filePath(QStringLiteral("liaison.db")));
    Database::migrate();

    // Seed: stages weighted towards the start of the pipeline, mostly TRY, some USD and EUR.
    const QStringList stages = {"lead",     "lead",     "lead",        "contact", "contact",
                                "proposal", "proposal", "negotiation", "won",     "lost"};
    const QStringList currencies = {"TRY", "TRY", "TRY", "TRY", "TRY", "TRY", "TRY", "TRY", "USD", "EUR"};
    QRandomGenerator rng(7);
    QElapsedTimer timer;
    timer.start();
    DealRepository deals(testStore());
    QVector<QJsonObject> batch;
    for (int i = 0; i < n; ++i) {
        batch.append({{"name", QStringLiteral("Deal %1").arg(i)},
                      {"value", double(rng.bounded(100, 500000))},
                      {"currency", currencies.at(int(rng.bounded(currencies.size())))},
                      {"stage", stages.at(int(rng.bounded(stages.size())))},
                      {"probability", int(rng.bounded(0, 101))}});
        if (batch.size() == 10000 || i == n - 1) {
            deals.insertBulk(batch);
            batch.clear();
        }
    }
    Database::exec(QStringLiteral("ANALYZE"));
    printf("seeded %d deals in %.1f s\n", n, double(timer.elapsed()) / 1000.0);

    // The summary query in the model (what GET /deals/pipeline and the board's headers run).
    deals.summary();
    QVector<double> times;
    for (int i = 0; i < 30; ++i) {
        QElapsedTimer t;
        t.start();
        const PipelineSummary s = deals.summary();
        times << double(t.nsecsElapsed()) / 1e6;
        if (i == 0)
            printf("summary: %lld open deals in %s, %lld currencies, weighted %.0f\n", s.reporting.totalDeals,
                   qPrintable(s.currency), qint64(s.byCurrency.size()), s.reporting.weightedValue);
    }
    printf("summary query over %d deals: median %.2f ms, p90 %.2f ms, min %.2f ms (30 runs)\n", n,
           percentile(times, 0.5), percentile(times, 0.9), percentile(times, 0.0));
    times.clear();
    for (int i = 0; i < 30; ++i) {
        QElapsedTimer t;
        t.start();
        DealQuery q;
        q.pipelineId = QStringLiteral("pipeline_default");
        q.stages = {"lead"};
        q.boardOrder = true;
        q.limit = 100;
        deals.list(q);
        times << double(t.nsecsElapsed()) / 1e6;
    }
    printf("board column page (100 cards of stage lead, with its count): median %.2f ms\n", percentile(times, 0.5));

    // The HTTP endpoint through the real server in its own thread.
    ServerConfig config;
    config.port = 0;
    config.dataDir = dir.path();
    config.rateLimitPerMinute = 0;
    config.jwtKey = QByteArray("bench-signing-key-0123456789abcdef");
    EventBus bus;
    ServerThread server(config, Store(bus));
    if (!server.startAndWait()) {
        fprintf(stderr, "server: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    const QString key =
        ApiKeyRepository(testStore()).create(QStringLiteral("bench"), {QStringLiteral("deals:read")}).secret;
    QFile certFile(dir.filePath(QStringLiteral("tls/cert.pem")));
    certFile.open(QIODevice::ReadOnly);
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    for (const QSslCertificate &c : QSslCertificate::fromData(certFile.readAll()))
        ssl.addCaCertificate(c);
    // A QNetworkAccessManager opens at most 6 connections per host: two managers carry 4 each.
    QNetworkAccessManager nams[2];
    const QUrl url(server.baseUrl() + QStringLiteral("/api/v1/deals/pipeline"));
    int started = 0, finished = 0, failed = 0;
    QVector<double> latencies;
    QElapsedTimer wall;
    std::function<void(int)> send = [&](int slot) {
        if (started >= requests)
            return;
        ++started;
        QNetworkRequest request(url);
        request.setSslConfiguration(ssl);
        request.setRawHeader("Authorization", "Bearer " + key.toLatin1());
        request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
        auto *t = new QElapsedTimer;
        t->start();
        QNetworkReply *reply = nams[slot % 2].get(request);
        QObject::connect(reply, &QNetworkReply::finished, &app, [&, reply, t, slot] {
            latencies << double(t->nsecsElapsed()) / 1e6;
            delete t;
            if (reply->error() != QNetworkReply::NoError ||
                reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
                ++failed;
            reply->deleteLater();
            if (++finished == requests)
                app.quit();
            else
                send(slot);
        });
    };
    // Warm up the connections, then measure.
    wall.start();
    for (int slot = 0; slot < 8; ++slot)
        send(slot);
    QTimer::singleShot(600000, &app, &QCoreApplication::quit);
    app.exec();
    const double seconds = double(wall.elapsed()) / 1000.0;
    printf("GET /api/v1/deals/pipeline over %d deals, 8 concurrent (HTTPS keep-alive): %d requests in %.2f s = "
           "%.0f req/s; latency median %.1f ms, p90 %.1f ms; %d failed\n",
           n, finished, seconds, double(finished) / seconds, percentile(latencies, 0.5), percentile(latencies, 0.9),
           failed);
    server.stop();
    Database::closeThreadConnection();
    return failed == 0 ? 0 : 1;
}
