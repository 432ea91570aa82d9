#include "model/webhooks/webhookrepository.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/ids.h"
#include "model/core/sqldialect.h"
#include "model/core/timeutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSqlQuery>

#include <algorithm>

namespace {
using SqlValue::text;
using SqlValue::textOrNull;
const QString kWebhookColumns =
    QStringLiteral("seq, id, url, events, secret, description, active, failure_count, disabled_reason, disabled_at, "
                   "created_at, updated_at");
const QString kDeliveryColumns =
    QStringLiteral("d.seq, d.id, d.webhook_id, d.event_id, d.event, d.body, d.kind, d.state, d.attempts, d.failures, "
                   "d.next_attempt_at, d.last_status, d.last_error, d.created_at");

WebhookSubscription webhookFromRow(SqlRowReader r)
{
    WebhookSubscription w;
    w.seq = r.integer();
    w.id = r.text();
    w.url = r.text();
    w.events = r.jsonStrings();
    w.secret = r.text();
    w.description = r.text();
    w.active = r.flag();
    w.failureCount = int(r.integer());
    w.disabledReason = r.text();
    w.disabledAt = r.text();
    w.createdAt = r.text();
    w.updatedAt = r.text();
    return w;
}

WebhookDelivery deliveryFromRow(SqlRowReader r)
{
    WebhookDelivery d;
    d.seq = r.integer();
    d.id = r.text();
    d.webhookId = r.text();
    d.eventId = r.text();
    d.event = r.text();
    d.body = r.bytes();
    d.kind = r.text();
    d.state = r.text();
    d.attempts = int(r.integer());
    d.failures = int(r.integer());
    d.nextAttemptAt = r.text();
    d.lastStatus = int(r.integer());
    d.lastError = r.text();
    d.createdAt = r.text();
    return d;
}

QString compactList(const QStringList &list)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(list)).toJson(QJsonDocument::Compact));
}

qint64 maxOutboxSeq()
{
    CachedQuery q = Database::execCached(QStringLiteral("SELECT COALESCE(MAX(seq), 0) FROM outbox"));
    const qint64 v = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return v;
}

// Open deliveries of a subscription that is disabled are not sent: they stay in the log as failed.
void failOpenDeliveries(const QString &webhookId, const QString &reason, const QString &now)
{
    Database::execCached(QStringLiteral("UPDATE webhook_deliveries SET state = 'failed', last_error = ?, "
                                        "next_attempt_at = NULL, updated_at = ? "
                                        "WHERE webhook_id = ? AND state = 'pending' AND kind = 'event'"),
                         {reason, now, webhookId});
}
void applyActive(const WebhookSubscription &w, bool active, const QString &reason, const QString &now)
{
    if (active) {
        // Enabling resets the failure count; events from now on are queued (not those missed while disabled).
        Database::execCached(
            QStringLiteral("UPDATE webhooks SET active = 1, failure_count = 0, disabled_reason = NULL, "
                           "disabled_at = NULL, after_outbox_seq = CASE WHEN active = 1 THEN "
                           "after_outbox_seq ELSE ? END, updated_at = ? WHERE seq = ?"),
            {maxOutboxSeq(), now, w.seq});
    } else if (w.active) {
        const QString why = reason.isEmpty() ? QStringLiteral("disabled by a user") : reason;
        Database::execCached(QStringLiteral("UPDATE webhooks SET active = 0, disabled_reason = ?, disabled_at = ?, "
                                            "updated_at = ? WHERE seq = ?"),
                             {why, now, now, w.seq});
        failOpenDeliveries(w.id, QStringLiteral("webhook disabled"), now);
    }
}
} // namespace

WebhookRepository::WebhookRepository(const Store &store, WebhookPolicy policy)
    : m_store(store)
    , m_policy(policy)
{
}

void WebhookRepository::notify(const QString &id, EventBus::Change change) const
{
    m_store.notify(EventBus::Entity::Webhook, id, change);
}

WebhookRepository::Saved WebhookRepository::create(WebhookChanges c, const QString &actorGiven)
{
    const QString actor = m_store.actorOr(actorGiven);
    WebhookRules::check(c, m_policy, true);
    Saved out;
    WebhookSubscription &w = out.webhook;
    w.id = Ids::make(u"wh");
    w.url = *c.url;
    w.events = *c.events;
    w.secret = c.secret ? *c.secret : WebhookRules::generateSecret();
    w.description = c.description.value_or(QString());
    w.active = c.active.value_or(true);
    w.createdAt = w.updatedAt = m_store.nowIso();
    out.secret = w.secret;
    {
        Transaction tx;
        qint64 existing = 0;
        {
            CachedQuery count = Database::execCached(QStringLiteral("SELECT COUNT(*) FROM webhooks"));
            existing = count.next() ? count.value(0).toLongLong() : 0;
        }
        if (existing >= m_policy.maxSubscriptions)
            throw DomainError(
                DomainError::Conflict, QStringLiteral("LIMIT_REACHED"),
                ModelText(
                    QT_TRANSLATE_NOOP("ModelError",
                                      "At most %1 webhook subscriptions; delete one first (webhooks/maxSubscriptions)"),
                    {m_policy.maxSubscriptions}),
                QJsonObject{{QStringLiteral("limit"), m_policy.maxSubscriptions}});
        w.seq = Database::insert(
            QStringLiteral("INSERT INTO webhooks (id, url, events, secret, description, active, after_outbox_seq, "
                           "created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
            {w.id, w.url, compactList(w.events), w.secret, text(w.description), w.active ? 1 : 0, maxOutboxSeq(),
             textOrNull(actor), w.createdAt, w.updatedAt});
        tx.commit();
    }
    notify(w.id, EventBus::Change::Created);
    return out;
}

WebhookRepository::Saved WebhookRepository::update(const QString &id, WebhookChanges c)
{
    WebhookRules::check(c, m_policy, false);
    Saved out;
    const QString now = m_store.nowIso();
    {
        Transaction tx;
        WebhookSubscription w = get(id);
        if (c.url)
            w.url = *c.url;
        if (c.events)
            w.events = *c.events;
        if (c.description)
            w.description = *c.description;
        if (c.secret)
            w.secret = out.secret = *c.secret;
        else if (c.rotateSecret)
            w.secret = out.secret = WebhookRules::generateSecret();
        w.updatedAt = now;
        Database::execCached(QStringLiteral("UPDATE webhooks SET url = ?, events = ?, secret = ?, description = ?, "
                                            "updated_at = ? WHERE seq = ?"),
                             {w.url, compactList(w.events), w.secret, text(w.description), w.updatedAt, w.seq});
        if (c.active)
            applyActive(w, *c.active, {}, now);
        tx.commit();
    }
    out.webhook = get(id);
    notify(id, EventBus::Change::Updated);
    return out;
}

void WebhookRepository::remove(const QString &id)
{
    {
        Transaction tx;
        const WebhookSubscription w = get(id);
        Database::execCached(QStringLiteral("DELETE FROM webhooks WHERE seq = ?"), {w.seq});
        tx.commit();
    }
    notify(id, EventBus::Change::Deleted);
}

std::optional<WebhookSubscription> WebhookRepository::find(const QString &id) const
{
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT ") + kWebhookColumns + QStringLiteral(" FROM webhooks WHERE id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    WebhookSubscription w = webhookFromRow(q);
    q.finish();
    return w;
}

WebhookSubscription WebhookRepository::get(const QString &id) const
{
    std::optional<WebhookSubscription> w = find(id);
    if (!w)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Webhook"), id);
    return *w;
}

QVector<WebhookSubscription> WebhookRepository::list(int page, int limit, qint64 *total) const
{
    QVector<WebhookSubscription> out;
    CachedQuery q = Database::execCached(QStringLiteral("SELECT ") + kWebhookColumns +
                                             QStringLiteral(" FROM webhooks ORDER BY seq DESC LIMIT ? OFFSET ?"),
                                         {limit, qint64(qMax(1, page) - 1) * limit});
    while (q.next())
        out.append(webhookFromRow(q));
    q.finish();
    if (total) {
        CachedQuery c = Database::execCached(QStringLiteral("SELECT count(*) FROM webhooks"));
        *total = c.next() ? c.value(0).toLongLong() : 0;
        c.finish();
    }
    return out;
}

WebhookSubscription WebhookRepository::setActive(const QString &id, bool active, const QString &reason)
{
    {
        Transaction tx;
        applyActive(get(id), active, reason, m_store.nowIso());
        tx.commit();
    }
    notify(id, EventBus::Change::Updated);
    return get(id);
}

QVector<WebhookAttempt> WebhookRepository::attempts(const QString &webhookId, int page, int limit, qint64 *total) const
{
    QVector<WebhookAttempt> out;
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT a.seq, d.id, a.webhook_id, d.event_id, d.event, d.kind, a.attempt, a.started_at, "
                       "a.finished_at, a.status_code, a.error, a.latency_ms, a.response_excerpt, a.next_retry_at, "
                       "a.success FROM webhook_attempts a JOIN webhook_deliveries d ON d.seq = a.delivery_seq "
                       "WHERE a.webhook_id = ? ORDER BY a.seq DESC LIMIT ? OFFSET ?"),
        {webhookId, limit, qint64(qMax(1, page) - 1) * limit});
    while (q.next()) {
        WebhookAttempt a;
        a.seq = q.value(0).toLongLong();
        a.deliveryId = q.value(1).toString();
        a.webhookId = q.value(2).toString();
        a.eventId = q.value(3).toString();
        a.event = q.value(4).toString();
        a.kind = q.value(5).toString();
        a.attempt = q.value(6).toInt();
        a.startedAt = q.value(7).toString();
        a.finishedAt = q.value(8).toString();
        a.statusCode = q.value(9).toInt();
        a.error = q.value(10).toString();
        a.latencyMs = q.value(11).isNull() ? -1 : q.value(11).toInt();
        a.responseExcerpt = q.value(12).toString();
        a.nextRetryAt = q.value(13).toString();
        a.success = q.value(14).toInt() != 0;
        out.append(a);
    }
    q.finish();
    if (total) {
        CachedQuery c = Database::execCached(
            QStringLiteral("SELECT count(*) FROM webhook_attempts WHERE webhook_id = ?"), {webhookId});
        *total = c.next() ? c.value(0).toLongLong() : 0;
        c.finish();
    }
    return out;
}

std::optional<WebhookDelivery> WebhookRepository::findDelivery(const QString &deliveryId) const
{
    CachedQuery q = Database::execCached(QStringLiteral("SELECT ") + kDeliveryColumns +
                                             QStringLiteral(" FROM webhook_deliveries d WHERE d.id = ?"),
                                         {deliveryId});
    if (!q.next())
        return std::nullopt;
    WebhookDelivery d = deliveryFromRow(q);
    q.finish();
    return d;
}

namespace {
WebhookDelivery insertManual(const Store &store, const QString &webhookId, const QString &eventId, const QString &event,
                             const QByteArray &body, const QString &kind, const QString &id = {})
{
    WebhookDelivery d;
    d.id = id.isEmpty() ? Ids::make(u"whd") : id;
    d.webhookId = webhookId;
    d.eventId = eventId;
    d.event = event;
    d.body = body;
    d.kind = kind;
    d.state = QStringLiteral("pending");
    d.createdAt = store.nowIso();
    d.nextAttemptAt = d.createdAt;
    d.seq = Database::insert(
        QStringLiteral("INSERT INTO webhook_deliveries (id, webhook_id, event_id, event, body, kind, state, "
                       "next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)"),
        {d.id, webhookId, eventId, event, body, kind, d.nextAttemptAt, d.createdAt, d.createdAt});
    return d;
}

QString eventIdOf(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object().value(QLatin1String("id")).toString();
}
} // namespace

WebhookDelivery WebhookRepository::redeliver(const QString &webhookId, const QString &deliveryId)
{
    WebhookDelivery d;
    {
        Transaction tx;
        get(webhookId);
        const std::optional<WebhookDelivery> old = findDelivery(deliveryId);
        if (!old || old->webhookId != webhookId)
            throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Delivery"), deliveryId);
        d = insertManual(m_store, webhookId, old->eventId, old->event, old->body, QStringLiteral("redelivery"));
        tx.commit();
    }
    notify(webhookId, EventBus::Change::Updated);
    return d;
}

WebhookDelivery WebhookRepository::queueTest(const QString &webhookId, const QString &event)
{
    if (!WebhookEvents::isKnown(event))
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: unknown event %1"), {event}),
            {{QStringLiteral("event"), ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown event %1"), {event})}});
    WebhookDelivery d;
    {
        Transaction tx;
        get(webhookId);
        const QByteArray body = WebhookEvents::testBody(event, m_store.nowIso());
        d = insertManual(m_store, webhookId, eventIdOf(body), event, body, QStringLiteral("test"));
        tx.commit();
    }
    notify(webhookId, EventBus::Change::Updated);
    return d;
}

WebhookDelivery WebhookRepository::recordTest(const QString &webhookId, const QString &deliveryId, const QString &event,
                                              const QByteArray &body, const WebhookAttemptResult &result,
                                              const QDateTime &startedAt)
{
    WebhookDelivery d;
    const QString now = m_store.nowIso();
    {
        Transaction tx;
        get(webhookId);
        d = insertManual(m_store, webhookId, eventIdOf(body), event, body, QStringLiteral("test"), deliveryId);
        d.state = result.success ? QStringLiteral("succeeded") : QStringLiteral("failed");
        d.attempts = 1;
        d.lastStatus = result.statusCode;
        d.lastError = result.error;
        d.nextAttemptAt.clear();
        Database::execCached(QStringLiteral("UPDATE webhook_deliveries SET state = ?, attempts = 1, failures = ?, "
                                            "next_attempt_at = NULL, last_status = ?, last_error = ?, updated_at = ? "
                                            "WHERE seq = ?"),
                             {d.state, result.success ? 0 : 1,
                              result.statusCode ? QVariant(result.statusCode) : QVariant(), textOrNull(result.error),
                              now, d.seq});
        Database::execCached(
            QStringLiteral("INSERT INTO webhook_attempts (delivery_seq, webhook_id, attempt, started_at, finished_at, "
                           "status_code, error, latency_ms, response_excerpt, success) "
                           "VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)"),
            {d.seq, webhookId, TimeUtil::iso(startedAt), now,
             result.statusCode ? QVariant(result.statusCode) : QVariant(), textOrNull(result.error), result.latencyMs,
             textOrNull(result.responseExcerpt), result.success ? 1 : 0});
        tx.commit();
    }
    notify(webhookId, EventBus::Change::Updated);
    return d;
}

int WebhookRepository::fanOut(int batch)
{
    auto readCursor = [](bool *found) {
        CachedQuery q =
            Database::execCached(QStringLiteral("SELECT outbox_seq FROM webhook_cursor WHERE name = 'outbox'"));
        *found = q.next();
        const qint64 v = *found ? q.value(0).toLongLong() : -1;
        q.finish();
        return v;
    };
    bool hadRow = false;
    // Nothing new: no write transaction (this runs on every poll).
    if (readCursor(&hadRow) >= maxOutboxSeq() && hadRow)
        return 0;
    Transaction tx;
    qint64 cursor = readCursor(&hadRow);
    QVector<WebhookSubscription> active;
    QHash<QString, qint64> after;
    {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT ") + kWebhookColumns +
                                             QStringLiteral(", after_outbox_seq FROM webhooks WHERE active = 1"));
        while (q.next()) {
            active.append(webhookFromRow(q));
            after.insert(active.last().id, q.value(12).toLongLong());
        }
        q.finish();
    }
    if (cursor < 0) {
        // First run: start where the earliest subscription starts (events before it match nothing).
        cursor = maxOutboxSeq();
        for (qint64 a : std::as_const(after))
            cursor = qMin(cursor, a);
    }
    qint64 last = cursor;
    int read = 0;
    if (active.isEmpty()) {
        last = maxOutboxSeq();
    } else {
        struct Event
        {
            qint64 seq;
            QString id, event;
            QByteArray payload;
        };
        QVector<Event> events;
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT seq, id, event, payload FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?"),
            {cursor, batch});
        while (q.next())
            events.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
                           q.value(3).toString().toUtf8()});
        q.finish();
        const QString now = m_store.nowIso();
        for (const Event &e : std::as_const(events)) {
            for (const WebhookSubscription &w : std::as_const(active)) {
                if (e.seq <= after.value(w.id) || !w.matches(e.event))
                    continue;
                Database::execCached(
                    QStringLiteral("INSERT INTO webhook_deliveries (id, webhook_id, event_id, event, body, kind, "
                                   "state, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'event', "
                                   "'pending', ?, ?, ?) ON CONFLICT DO NOTHING"),
                    {Ids::make(u"whd"), w.id, e.id, e.event, e.payload, now, now, now});
            }
            last = e.seq;
        }
        read = int(events.size());
    }
    if (last != cursor || !hadRow) {
        Database::execCached(QStringLiteral("INSERT INTO webhook_cursor (name, outbox_seq) VALUES ('outbox', ?) "
                                            "ON CONFLICT(name) DO UPDATE SET outbox_seq = excluded.outbox_seq"),
                             {last});
    }
    tx.commit();
    return read;
}

int WebhookRepository::recoverInterrupted()
{
    const QString now = m_store.nowIso();
    // SQLite: a file has one process, so whatever is in flight was left by its last run.
    const QString left = Database::dialect() == Database::Dialect::SQLite
                             ? QStringLiteral("state = 'in_flight'")
                             : QStringLiteral("state = 'in_flight' AND (lease_until IS NULL OR lease_until < ?)");
    const QVariantList leftValues =
        Database::dialect() == Database::Dialect::SQLite ? QVariantList{} : QVariantList{now};
    Transaction tx;
    Database::execCached(QStringLiteral("UPDATE webhook_attempts SET finished_at = ?, error = ? WHERE finished_at IS "
                                        "NULL AND delivery_seq IN (SELECT seq FROM webhook_deliveries WHERE ") +
                             left + QLatin1Char(')'),
                         QVariantList{now, QStringLiteral("interrupted: the process stopped during the attempt; "
                                                          "sent again")} +
                             leftValues);
    CachedQuery q = Database::execCached(QStringLiteral("UPDATE webhook_deliveries SET state = 'pending', "
                                                        "next_attempt_at = ?, lease_until = NULL, updated_at = ? "
                                                        "WHERE ") +
                                             left,
                                         QVariantList{now, now} + leftValues);
    const int n = q.numRowsAffected();
    tx.commit();
    return n;
}

namespace {
struct DueStatement
{
    QString sql;
    QVariantList values;
};

// A subscription's first open deliveries in event order. Through their partial index: SQLite
// otherwise walks the subscription's whole history (webhook_deliveries_webhook, also in seq order)
// past every delivered row at each round, which slows the dispatcher as the log grows.
DueStatement openQueueStatement(const QString &webhookId, int perSubscription)
{
    const QString table = Database::dialect() == Database::Dialect::SQLite
                              ? QStringLiteral("webhook_deliveries INDEXED BY webhook_deliveries_queue")
                              : QStringLiteral("webhook_deliveries");
    return {QStringLiteral("SELECT seq, state, next_attempt_at, lease_until FROM ") + table +
                QStringLiteral(" WHERE webhook_id = ? AND state IN ('pending', 'in_flight') AND kind = 'event' "
                               "ORDER BY seq LIMIT ?"),
            {webhookId, perSubscription}};
}

// Manual sends (tests, redeliveries): the pending ones (leaseOver false), or those whose copy died
// with them (true); each read through its partial index (an OR of the two would scan the log).
DueStatement manualStatement(bool leaseOver, const QString &nowIso, int limit)
{
    DueStatement st{QStringLiteral("SELECT seq FROM webhook_deliveries WHERE ") +
                        (leaseOver ? QStringLiteral("state = 'in_flight' AND lease_until < ?")
                                   : QStringLiteral("state = 'pending'")) +
                        QStringLiteral(" AND kind != 'event' ORDER BY seq LIMIT ?") +
                        SqlDialect::skipLocked(QStringLiteral("webhook_deliveries")),
                    {}};
    if (leaseOver)
        st.values << nowIso;
    st.values << limit;
    return st;
}
} // namespace

QStringList WebhookRepository::dueQueryPlan(const QString &webhookId, const QDateTime &now) const
{
    QStringList lines;
    const QString nowIso = TimeUtil::iso(now);
    for (const auto &[name, st] : {std::pair{QStringLiteral("queue"), openQueueStatement(webhookId, 5)},
                                   std::pair{QStringLiteral("manual"), manualStatement(false, nowIso, 5)},
                                   std::pair{QStringLiteral("lease"), manualStatement(true, nowIso, 5)}}) {
        for (const QString &step : Database::queryPlan(st.sql, st.values))
            lines << name + QStringLiteral(": ") + step;
    }
    return lines;
}

QList<qint64> WebhookRepository::dueDeliveries(const QDateTime &now, int perSubscription,
                                               const QHash<QString, int> &inFlight, int maxCount) const
{
    QList<qint64> out;
    const QString nowIso = TimeUtil::iso(now);
    // For each active subscription, its first perSubscription open deliveries in event order.
    QStringList active;
    {
        CachedQuery w = Database::execCached(QStringLiteral("SELECT id FROM webhooks WHERE active = 1 ORDER BY seq") +
                                             SqlDialect::skipLocked(QStringLiteral("webhooks")));
        while (w.next())
            active << w.value(0).toString();
        w.finish();
    }
    for (const QString &webhook : std::as_const(active)) {
        int running = inFlight.value(webhook);
        const DueStatement queue = openQueueStatement(webhook, perSubscription);
        CachedQuery q = Database::execCached(queue.sql, queue.values);
        while (q.next() && out.size() < maxCount && running < perSubscription) {
            if (q.value(1).toString() != QLatin1String("pending")) {
                // In flight here or in another copy; due again only once its lease has ended.
                if (q.value(3).isNull() || q.value(3).toString() >= nowIso)
                    continue;
            } else if (q.value(2).toString() > nowIso) {
                break; // waits for its retry: later events of this subscription wait too (order)
            }
            ++running;
            out << q.value(0).toLongLong();
        }
        q.finish();
    }
    QList<qint64> manual;
    for (const bool leaseOver : {false, true}) {
        if (out.size() + manual.size() >= maxCount)
            break;
        const DueStatement st = manualStatement(leaseOver, nowIso, maxCount - int(out.size() + manual.size()));
        CachedQuery m = Database::execCached(st.sql, st.values);
        while (m.next())
            manual << m.value(0).toLongLong();
        m.finish();
    }
    std::sort(manual.begin(), manual.end());
    out << manual;
    return out;
}

std::optional<WebhookClaim> WebhookRepository::claim(qint64 deliverySeq, const QDateTime &now, int leaseSeconds)
{
    const QString nowIso = TimeUtil::iso(now);
    Transaction tx;
    // The claim itself: one conditional update, which a second copy's waits for and then finds
    // no longer true (PostgreSQL re-reads the row after the first commits; SQLite has one writer).
    {
        CachedQuery u = Database::execCached(
            QStringLiteral("UPDATE webhook_deliveries SET state = 'in_flight', attempts = attempts + 1, "
                           "next_attempt_at = NULL, lease_until = ?, updated_at = ? WHERE seq = ? AND "
                           "(state = 'pending' OR (state = 'in_flight' AND lease_until < ?))"),
            {TimeUtil::iso(now.addSecs(qMax(1, leaseSeconds))), nowIso, deliverySeq, nowIso});
        if (u.numRowsAffected() != 1)
            return std::nullopt;
    }
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT d.id, d.webhook_id, d.event_id, d.event, d.kind, d.body, d.attempts, w.url, w.secret "
                       "FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.seq = ?"),
        {deliverySeq});
    if (!q.next())
        return std::nullopt;
    WebhookClaim c;
    c.deliverySeq = deliverySeq;
    c.deliveryId = q.value(0).toString();
    c.webhookId = q.value(1).toString();
    c.eventId = q.value(2).toString();
    c.event = q.value(3).toString();
    c.kind = q.value(4).toString();
    c.body = q.value(5).toByteArray();
    c.attempt = q.value(6).toInt();
    c.url = q.value(7).toString();
    c.secret = q.value(8).toString();
    q.finish();
    // An attempt still open belonged to a copy whose lease ended.
    Database::execCached(QStringLiteral("UPDATE webhook_attempts SET finished_at = ?, error = ? WHERE delivery_seq = ? "
                                        "AND finished_at IS NULL"),
                         {nowIso, QStringLiteral("interrupted: the copy sending it stopped; sent again"), deliverySeq});
    c.attemptSeq = Database::insert(
        QStringLiteral(
            "INSERT INTO webhook_attempts (delivery_seq, webhook_id, attempt, started_at) VALUES (?, ?, ?, ?)"),
        {deliverySeq, c.webhookId, c.attempt, nowIso});
    tx.commit();
    return c;
}

WebhookFinish WebhookRepository::finish(const WebhookClaim &c, const WebhookAttemptResult &r,
                                        const QList<int> &retryDelays, const QDateTime &now)
{
    WebhookFinish out;
    const QString nowIso = TimeUtil::iso(now);
    const QVariant status = r.statusCode ? QVariant(r.statusCode) : QVariant();
    {
        Transaction tx;
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT d.failures, d.state, w.active, d.attempts FROM webhook_deliveries d JOIN webhooks w "
                           "ON w.id = d.webhook_id WHERE d.seq = ?"),
            {c.deliverySeq});
        if (!q.next())
            return out; // deleted with its subscription meanwhile
        const int failures = q.value(0).toInt() + (r.success ? 0 : 1);
        // Still this claim's: in flight and not taken over by another copy after the lease.
        const bool stillInFlight =
            q.value(1).toString() == QLatin1String("in_flight") && q.value(3).toInt() == c.attempt;
        const bool webhookActive = q.value(2).toInt() != 0;
        q.finish();
        const bool automatic = c.kind == QLatin1String("event");
        QString state = r.success ? QStringLiteral("succeeded") : QStringLiteral("failed");
        QString disableReason;
        if (!r.success && automatic && stillInFlight && webhookActive) {
            if (r.statusCode == 410) {
                disableReason = QStringLiteral("the receiver answered 410 Gone");
            } else if (failures > retryDelays.size()) {
                disableReason = QStringLiteral("delivery failed %1 times in a row (%2 retries)")
                                    .arg(failures)
                                    .arg(retryDelays.size());
            } else {
                state = QStringLiteral("pending");
                out.nextRetryAt = TimeUtil::iso(now.addSecs(retryDelays.at(failures - 1)));
            }
        }
        Database::execCached(QStringLiteral("UPDATE webhook_attempts SET finished_at = ?, status_code = ?, error = ?, "
                                            "latency_ms = ?, response_excerpt = ?, next_retry_at = ?, success = ? "
                                            "WHERE seq = ?"),
                             {nowIso, status, textOrNull(r.error), r.latencyMs, textOrNull(r.responseExcerpt),
                              textOrNull(out.nextRetryAt), r.success ? 1 : 0, c.attemptSeq});
        if (stillInFlight) {
            Database::execCached(
                QStringLiteral("UPDATE webhook_deliveries SET state = ?, failures = ?, "
                               "next_attempt_at = ?, last_status = ?, last_error = ?, lease_until = NULL, "
                               "updated_at = ? WHERE seq = ? AND state = 'in_flight' AND attempts = ?"),
                {state, failures, textOrNull(out.nextRetryAt), status, textOrNull(r.error), nowIso, c.deliverySeq,
                 c.attempt});
        }
        if (automatic) {
            if (r.success)
                Database::execCached(
                    QStringLiteral("UPDATE webhooks SET failure_count = 0 WHERE id = ? AND active = 1"), {c.webhookId});
            else
                Database::execCached(
                    QStringLiteral("UPDATE webhooks SET failure_count = failure_count + 1 WHERE id = ? AND active = 1"),
                    {c.webhookId});
        }
        if (!disableReason.isEmpty()) {
            CachedQuery d = Database::execCached(
                QStringLiteral("UPDATE webhooks SET active = 0, disabled_reason = ?, disabled_at = ?, updated_at = ? "
                               "WHERE id = ? AND active = 1"),
                {disableReason, nowIso, nowIso, c.webhookId});
            out.webhookDisabled = d.numRowsAffected() > 0;
            failOpenDeliveries(c.webhookId, QStringLiteral("webhook disabled: ") + disableReason, nowIso);
        }
        tx.commit();
    }
    notify(c.webhookId, EventBus::Change::Updated);
    return out;
}

std::optional<QDateTime> WebhookRepository::nextRetryDue(const QDateTime &after) const
{
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT MIN(next_attempt_at) FROM webhook_deliveries WHERE state = 'pending' AND "
                       "next_attempt_at > ?"),
        {TimeUtil::iso(after)});
    std::optional<QDateTime> out;
    if (q.next() && !q.value(0).isNull())
        out = TimeUtil::parse(q.value(0).toString());
    q.finish();
    return out;
}

int WebhookRepository::pruneLogs(const QDateTime &before, int batch)
{
    const QString cutoff = TimeUtil::iso(before);
    int total = 0;
    for (const char *sql :
         {"DELETE FROM webhook_deliveries WHERE seq IN (SELECT seq FROM webhook_deliveries WHERE state IN "
          "('succeeded', 'failed') AND updated_at < ? ORDER BY seq LIMIT ?)",
          "DELETE FROM incoming_webhook_calls WHERE seq IN (SELECT seq FROM incoming_webhook_calls WHERE "
          "received_at < ? ORDER BY seq LIMIT ?)"}) {
        // In batches, each its own short transaction: writers elsewhere wait for one batch at most.
        for (int rounds = 0; rounds < 100000; ++rounds) {
            Transaction tx;
            CachedQuery q = Database::execCached(QString::fromLatin1(sql), {cutoff, batch});
            const int n = q.numRowsAffected();
            q.finish();
            tx.commit();
            total += n;
            if (n < batch)
                break;
        }
    }
    return total;
}
