#pragma once

#include "model/core/store.h"
#include "model/webhooks/webhook.h"
#include "model/webhooks/webhookchanges.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>

#include <optional>

#include "model/core/eventbus.h"

// What one HTTP request of a delivery gave.
struct WebhookAttemptResult
{
    int statusCode = 0; // 0: no HTTP answer
    QString error;      // network error, timeout, refused address, redirect not followed, non-2xx
    int latencyMs = 0;
    QString responseExcerpt; // at most 1 KiB of the answer
    bool success = false;    // a 2xx within the timeout
};

// A delivery taken for one attempt: everything the sender needs, read in the claiming transaction.
struct WebhookClaim
{
    qint64 deliverySeq = 0;
    qint64 attemptSeq = 0;
    int attempt = 0;
    QString deliveryId;
    QString webhookId;
    QString eventId;
    QString event;
    QString kind;
    QString url;
    QString secret;
    QByteArray body;
};

struct WebhookFinish
{
    bool webhookDisabled = false; // the attempt disabled the subscription (410, or the last retry failed)
    QString nextRetryAt;          // set when a retry was scheduled
};

// Webhook subscriptions and their deliveries. Writes are single transactions and tell the event bus
// ("webhook", id, "created"/"updated"/"deleted") after the commit, so that the window and the
// dispatcher learn of them. Bad input throws DomainError: BadRequest wrong type/format (the field named
// in details), Unprocessable missing url or events, NotFound unknown id. Usable from any thread.
class WebhookRepository
{
public:
    explicit WebhookRepository(const Store &store, WebhookPolicy policy = {});
    const WebhookPolicy &policy() const { return m_policy; }

    struct Saved
    {
        WebhookSubscription webhook;
        QString secret; // set when this call generated or changed the secret: shown once
    };

    // url, events, secret?, description?, active?; without a secret one is generated. Checked here
    // (WebhookRules::check) however the changes were filled in.
    Saved create(WebhookChanges changes, const QString &actor = {});
    // Partial: url, events, secret (a new one), rotateSecret (true: generate), description, active.
    Saved update(const QString &id, WebhookChanges changes);
    void remove(const QString &id);
    std::optional<WebhookSubscription> find(const QString &id) const;
    WebhookSubscription get(const QString &id) const; // throws NotFound
    // Newest first.
    QVector<WebhookSubscription> list(int page = 1, int limit = 1000, qint64 *total = nullptr) const;
    // Disable: pending deliveries are marked failed ("webhook disabled"), nothing more is queued.
    // Enable: the failure count is reset; events from now on are delivered.
    WebhookSubscription setActive(const QString &id, bool active, const QString &reason = {});

    // Attempts of one subscription, newest first.
    QVector<WebhookAttempt> attempts(const QString &webhookId, int page, int limit, qint64 *total = nullptr) const;
    std::optional<WebhookDelivery> findDelivery(const QString &deliveryId) const;
    // Queues the same event (same id and bytes) again as a new delivery of kind "redelivery":
    // one attempt, sent by the dispatcher at once, not retried. NotFound when the delivery is not this webhook's.
    WebhookDelivery redeliver(const QString &webhookId, const QString &deliveryId);
    // Queues a sample event (kind "test", one attempt) for the dispatcher: "Send test" of the window.
    WebhookDelivery queueTest(const QString &webhookId, const QString &event);
    // Logs a test the API sent itself (POST /webhooks/:id/test) as a finished delivery.
    // deliveryId: the X-Service-Delivery that was sent (Ids::make(u"whd")).
    WebhookDelivery recordTest(const QString &webhookId, const QString &deliveryId, const QString &event,
                               const QByteArray &body, const WebhookAttemptResult &result, const QDateTime &startedAt);

    // --- for the dispatcher (one per database) ---
    // Creates the deliveries of outbox events after the cursor for the active subscriptions that
    // match, and moves the cursor, in one transaction. Returns the number of events read.
    int fanOut(int batch = 500);
    // Deliveries left in flight by a process that stopped become pending again, due now
    // (at-least-once); their attempt is logged as interrupted. Returns how many. On SQLite (one
    // process per file) every delivery in flight; on PostgreSQL, where other copies may be sending
    // theirs, those whose lease has ended.
    int recoverInterrupted();
    // Seqs of the deliveries to start now: for each active subscription, in event order, up to
    // perSubscription in flight (in any copy), stopping at a delivery that waits for its retry (so
    // order holds); then test and redelivery ones. A delivery in flight whose lease has ended (its
    // copy stopped) is due again. inFlight: this dispatcher's running requests per subscription.
    // Call it in the claiming Transaction: on PostgreSQL it takes the subscriptions it reads
    // (FOR UPDATE SKIP LOCKED), so that two copies never claim within one subscription at once.
    // The plans (Database::queryPlan) of the reads dueDeliveries makes for one subscription, one
    // line per step ("queue: …", "manual: …", "lease: …"): tests hold them to their indexes.
    QStringList dueQueryPlan(const QString &webhookId, const QDateTime &now) const;
    QList<qint64> dueDeliveries(const QDateTime &now, int perSubscription, const QHash<QString, int> &inFlight,
                                int maxCount) const;
    // Marks a delivery in flight until now + leaseSeconds and logs the attempt's start; nullopt
    // when another copy or call took it first (it is no longer pending, nor in flight past its
    // lease). An attempt left open by a copy whose lease ended is logged as interrupted.
    std::optional<WebhookClaim> claim(qint64 deliverySeq, const QDateTime &now, int leaseSeconds = 90);
    // Records the attempt's result; schedules the retry (retryDelays: seconds before retries 1..n)
    // or, after the last one or on 410, disables the subscription and fails its other open deliveries.
    WebhookFinish finish(const WebhookClaim &claim, const WebhookAttemptResult &result, const QList<int> &retryDelays,
                         const QDateTime &now);
    // The earliest retry time after `after`, if any.
    std::optional<QDateTime> nextRetryDue(const QDateTime &after) const;
    // Deletes finished deliveries (succeeded or failed, with their attempts) and incoming calls last
    // changed before `before`, `batch` rows per transaction; returns how many rows went.
    int pruneLogs(const QDateTime &before, int batch = 2000);

private:
    void notify(const QString &id, EventBus::Change change) const;

    Store m_store;
    WebhookPolicy m_policy;
};
