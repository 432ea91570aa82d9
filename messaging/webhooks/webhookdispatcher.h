#pragma once

#include "messaging/webhooks/webhookconfig.h"
#include "model/webhooks/webhookrepository.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <functional>

class WebhookSender;

// The outgoing-webhook dispatcher of the delivery thread. It fans committed outbox events out to
// the active subscriptions that match (one delivery row per subscription and event, in the same
// transaction that moves its outbox cursor), then sends due deliveries: per subscription in event
// order with at most concurrencyPerSubscription in flight (a delivery waiting for its retry holds
// the later ones of its subscription), different subscriptions concurrently up to maxConcurrent.
// Every attempt is logged. Failures are retried after config.retryDelays; the last failure, or a
// 410, disables the subscription. It wakes on EventBus changes and polls every pollIntervalMs.
// At start, deliveries left in flight by a stopped process are sent again (at-least-once). Finished
// deliveries and incoming calls older than config.logRetentionDays are deleted a minute after start
// and then every hour.
class WebhookDispatcher : public QObject
{
    Q_OBJECT
public:
    WebhookDispatcher(WebhookConfig config, const Store &store, QObject *parent = nullptr);
    // Requests in flight are abandoned, not recorded: they are sent again at the next start.
    ~WebhookDispatcher() override;

    // A factory for DeliveryThread::addService: the dispatcher is created inside the delivery thread.
    static std::function<QObject *(QObject *)> factory(const WebhookConfig &config, const Store &store);

    int inFlight() const { return m_total; }

public Q_SLOTS:
    // Runs a dispatch round soon (coalesced).
    void wake();
    // Deletes the log older than the retention now; returns the rows deleted.
    int pruneLogs();

Q_SIGNALS:
    // After each attempt has been recorded.
    void attemptFinished(const QString &webhookId, const QString &deliveryId, bool success);

private:
    void tick();
    void send(const WebhookClaim &claim);
    void flushResults();

    WebhookConfig m_config;
    Store m_store;
    WebhookRepository m_repository; // its news of a batch of results goes once, after the batch commits
    WebhookSender *m_sender;
    QTimer m_poll;
    QTimer m_soon;
    QTimer m_retry;
    QTimer m_flush;
    QTimer m_prune;
    // Results waiting to be recorded: written together in one transaction (one fsync for many).
    QList<QPair<WebhookClaim, WebhookAttemptResult>> m_results;
    QHash<QString, int> m_inFlight;
    int m_total = 0;
};
