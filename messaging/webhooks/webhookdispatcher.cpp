#include "messaging/webhooks/webhookdispatcher.h"

#include "messaging/webhooks/webhooksender.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"

#include <QLoggingCategory>
#include <QSet>

#include <utility>

Q_LOGGING_CATEGORY(lcWebhooks, "liaison.webhooks")

namespace {
// How soon attempts that could not be recorded are tried again.
constexpr int kRecordRetryMs = 1000;
} // namespace

WebhookDispatcher::WebhookDispatcher(WebhookConfig config, const Store &store, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_store(store)
    , m_repository(store, m_config.policy())
    , m_sender(new WebhookSender(m_config, store.clock(), this))
{
    if (!m_config.verifyTls)
        qCWarning(lcWebhooks) << "webhooks/verifyTls=false: receiver certificates are NOT verified (testing only)";
    if (m_config.retryDelays.isEmpty())
        m_config.retryDelays = WebhookConfig().retryDelays;
    m_config.concurrencyPerSubscription = qMax(1, m_config.concurrencyPerSubscription);
    m_config.maxConcurrent = qMax(1, m_config.maxConcurrent);
    try {
        if (const int n = m_repository.recoverInterrupted())
            qCInfo(lcWebhooks) << n << "webhook deliveries were in flight when the process stopped: sending again";
    } catch (const std::exception &e) {
        qCWarning(lcWebhooks) << "cannot recover interrupted deliveries:" << e.what();
    }
    m_soon.setSingleShot(true);
    m_soon.setInterval(0);
    connect(&m_soon, &QTimer::timeout, this, &WebhookDispatcher::tick);
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &WebhookDispatcher::tick);
    m_flush.setSingleShot(true);
    m_flush.setInterval(0);
    connect(&m_flush, &QTimer::timeout, this, &WebhookDispatcher::flushResults);
    m_poll.setInterval(qMax(10, m_config.pollIntervalMs));
    connect(&m_poll, &QTimer::timeout, this, &WebhookDispatcher::tick);
    m_poll.start();
    m_prune.setInterval(60 * 1000); // first a minute after start, then hourly
    connect(&m_prune, &QTimer::timeout, this, [this] {
        pruneLogs();
        m_prune.setInterval(60 * 60 * 1000);
    });
    m_prune.start();
    connect(&m_store.bus(), &EventBus::changed, this, &WebhookDispatcher::wake);
    wake();
}

WebhookDispatcher::~WebhookDispatcher()
{
    flushResults(); // answers already received are recorded; requests still out are sent again next start
    m_sender->abandonAll();
}

std::function<QObject *(QObject *)> WebhookDispatcher::factory(const WebhookConfig &config, const Store &store)
{
    return [config, store](QObject *parent) { return new WebhookDispatcher(config, store, parent); };
}

int WebhookDispatcher::pruneLogs()
{
    try {
        const int n = m_repository.pruneLogs(m_store.now().addDays(-m_config.logRetentionDays));
        if (n > 0)
            qCInfo(lcWebhooks) << "deleted" << n << "webhook log rows older than" << m_config.logRetentionDays
                               << "days";
        return n;
    } catch (const std::exception &e) {
        qCWarning(lcWebhooks) << "cannot prune the webhook log:" << e.what();
        return 0;
    }
}

void WebhookDispatcher::wake()
{
    if (!m_soon.isActive())
        m_soon.start();
}

void WebhookDispatcher::tick()
{
    try {
        while (m_repository.fanOut(500) == 500) {
        }
        const QDateTime now = m_store.now();
        const int free = m_config.maxConcurrent - m_total;
        // Nothing due: no write transaction (this round runs after every change the bus tells of,
        // and an empty one would still take SQLite's write lock from the API's writers).
        if (free > 0 &&
            !m_repository.dueDeliveries(now, m_config.concurrencyPerSubscription, m_inFlight, 1).isEmpty()) {
            // All claims of a round in one transaction, with the reading of what is due (which, on
            // PostgreSQL, keeps other copies out of these subscriptions until the commit); nothing
            // is sent before it committed. A lease outlives the request's timeout by leaseMarginSeconds.
            QList<WebhookClaim> claims;
            Transaction tx;
            const QList<qint64> due =
                m_repository.dueDeliveries(now, m_config.concurrencyPerSubscription, m_inFlight, free);
            for (qint64 seq : due) {
                if (std::optional<WebhookClaim> c =
                        m_repository.claim(seq, now, m_config.timeoutSeconds + m_config.leaseMarginSeconds))
                    claims << *c;
            }
            tx.commit();
            for (const WebhookClaim &c : std::as_const(claims))
                send(c);
        }
        // Wake exactly when the next retry is due when that is sooner than the next poll.
        if (const std::optional<QDateTime> next = m_repository.nextRetryDue(now)) {
            const qint64 ms = qMax<qint64>(0, now.msecsTo(*next)) + 5;
            if (ms < m_poll.remainingTime() && (!m_retry.isActive() || ms < m_retry.remainingTime()))
                m_retry.start(int(ms));
        }
    } catch (const std::exception &e) {
        // A busy or failing database: the next poll tries again (an unreachable one is logged by
        // the model, once a minute).
        if (!dynamic_cast<const DatabaseUnavailable *>(&e))
            qCWarning(lcWebhooks) << "webhook dispatch round failed:" << e.what();
    }
}

void WebhookDispatcher::send(const WebhookClaim &c)
{
    ++m_inFlight[c.webhookId];
    ++m_total;
    m_sender->send(c.url, c.body, c.secret, c.event, c.deliveryId, [this, c](const WebhookAttemptResult &result) {
        // Still counted in flight until recorded, so that a later event of the subscription cannot
        // overtake a failure that is about to be scheduled for retry.
        m_results.append({c, result});
        if (!m_flush.isActive())
            m_flush.start(0);
    });
}

void WebhookDispatcher::flushResults()
{
    if (m_results.isEmpty())
        return;
    try {
        Transaction tx;
        const QDateTime now = m_store.now();
        for (const auto &r : std::as_const(m_results)) {
            const WebhookFinish f = m_repository.finish(r.first, r.second, m_config.retryDelays, now);
            if (f.webhookDisabled)
                qCWarning(lcWebhooks).noquote() << "webhook" << r.first.webhookId << "disabled after delivery"
                                                << r.first.deliveryId << "failed:" << r.second.error;
        }
        tx.commit();
    } catch (const std::exception &e) {
        // Kept, and still counted in flight, until they are recorded: the database may be away
        // for a while (a restart); once it answers, the next try records them, so that no
        // answered delivery waits for its lease to end and is sent again. The model logs an
        // unreachable database itself, once a minute.
        if (!dynamic_cast<const DatabaseUnavailable *>(&e))
            qCWarning(lcWebhooks) << "cannot record" << m_results.size() << "webhook attempts yet:" << e.what();
        m_flush.start(kRecordRetryMs);
        return;
    }
    const auto results = std::exchange(m_results, {});
    for (const auto &r : results) {
        if (--m_inFlight[r.first.webhookId] <= 0)
            m_inFlight.remove(r.first.webhookId);
        --m_total;
    }
    for (const auto &r : results)
        Q_EMIT attemptFinished(r.first.webhookId, r.first.deliveryId, r.second.success);
    wake();
}
