// Webhook dispatch throughput: N contact events fanned out to S subscriptions and delivered over
// HTTPS to a loopback receiver that checks every signature. Prints fan-out cost, end-to-end
// deliveries per second and attempt latency percentiles.
//   bench_webhooks [events=1000] [subscriptions=4] [concurrencyPerSubscription=1]
#include "messaging/webhooks/webhookdispatcher.h"
#include "model/core/database.h"
#include "model/core/outbox.h"
#include "tests/support/testsupport.h"
#include "tests/support/webhookreceiver.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QSqlQuery>
#include <QStandardPaths>

#include <algorithm>
#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const QStringList args = app.arguments();
    const int events = args.value(1, QStringLiteral("1000")).toInt();
    const int subscriptions = args.value(2, QStringLiteral("4")).toInt();
    const int perSubscription = args.value(3, QStringLiteral("1")).toInt();
    TempDatabase db;
    const QString secret = QStringLiteral("bench-secret-0123456789");
    WebhookReceiver receiver(secret);

    WebhookPolicy policy;
    policy.targets = WebhookTargets::Local; // the receiver is on this machine
    WebhookRepository repo(testStore(), policy);
    for (int i = 0; i < subscriptions; ++i)
        repo.create(webhookChanges({{QStringLiteral("url"), receiver.url(QStringLiteral("/hook%1").arg(i))},
                                    {QStringLiteral("events"), QJsonArray{QStringLiteral("*")}},
                                    {QStringLiteral("secret"), secret}}));
    {
        Transaction tx;
        for (int i = 0; i < events; ++i)
            Outbox::append(QStringLiteral("contact.created"),
                           {{QStringLiteral("contactId"), QStringLiteral("contact_%1").arg(i)},
                            {QStringLiteral("firstName"), QStringLiteral("Bench")}},
                           TimeUtil::iso(QDateTime::currentDateTimeUtc()));
        tx.commit();
    }

    QElapsedTimer fan;
    fan.start();
    int read = 0;
    while (int n = repo.fanOut(500))
        read += n;
    const double fanMs = fan.nsecsElapsed() / 1e6;
    // The fan-out is undone so that the dispatcher's own run below is measured end to end.
    Database::exec(QStringLiteral("DELETE FROM webhook_deliveries"));
    Database::exec(QStringLiteral("DELETE FROM webhook_cursor"));

    WebhookConfig config;
    config.caCertificates = {receiver.certificate()};
    config.allowedTargets = WebhookTargets::Local; // the receiver is on this machine
    config.concurrencyPerSubscription = perSubscription;
    config.maxConcurrent = 64;
    config.pollIntervalMs = 50;
    const int expected = events * subscriptions;
    QElapsedTimer timer;
    timer.start();
    WebhookDispatcher dispatcher(config, testStore());
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &app, &QCoreApplication::quit);
    deadline.start(300000);
    int done = 0;
    QObject::connect(&dispatcher, &WebhookDispatcher::attemptFinished, &app, [&](auto, auto, bool) {
        if (++done >= expected)
            app.quit();
    });
    app.exec();
    const double seconds = timer.nsecsElapsed() / 1e9;

    QVector<int> latencies;
    QSqlQuery q = Database::exec(QStringLiteral("SELECT latency_ms FROM webhook_attempts WHERE success = 1"));
    while (q.next())
        latencies << q.value(0).toInt();
    std::sort(latencies.begin(), latencies.end());
    auto pct = [&](double p) { return latencies.isEmpty() ? -1 : latencies.at(int((latencies.size() - 1) * p)); };
    int badSignatures = 0;
    for (const auto &r : std::as_const(receiver.requests))
        badSignatures += r.signatureOk ? 0 : 1;

    printf("webhooks: %d events x %d subscriptions, concurrency %d per subscription\n", events, subscriptions,
           perSubscription);
    printf("  fan-out: %d events -> %d deliveries in %.1f ms (%.0f events/s)\n", read, expected, fanMs,
           read / (fanMs / 1000.0));
    printf("  delivered: %d of %d in %.2f s = %.0f deliveries/s (bad signatures at receiver: %d)\n", done, expected,
           seconds, done / seconds, badSignatures);
    printf("  attempt latency ms: p50 %d, p95 %d, p99 %d, max %d\n", pct(0.5), pct(0.95), pct(0.99), pct(1.0));
    return done >= expected && badSignatures == 0 ? 0 : 1;
}
