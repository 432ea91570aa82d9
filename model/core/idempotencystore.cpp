#include "model/core/idempotencystore.h"

#include "model/core/database.h"
#include "model/core/timeutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

IdempotencyStore::IdempotencyStore(const Store &store)
    : m_store(store)
{
}

std::optional<StoredResponse> IdempotencyStore::find(const QString &credential, const QString &key,
                                                     const QDateTime &notBefore) const
{
    CachedQuery q =
        Database::execCached(QStringLiteral("SELECT method, path, status, headers, body FROM idempotency_keys "
                                            "WHERE credential = ? AND key = ? AND created_at >= ?"),
                             {credential, key, TimeUtil::iso(notBefore)});
    if (!q.next())
        return std::nullopt;
    StoredResponse r;
    r.method = q.value(0).toString();
    r.path = q.value(1).toString();
    r.status = q.value(2).toInt();
    for (const QJsonValue &h : QJsonDocument::fromJson(q.value(3).toByteArray()).array()) {
        const QJsonArray pair = h.toArray();
        r.headers.append({pair.at(0).toString().toUtf8(), pair.at(1).toString().toUtf8()});
    }
    r.body = q.value(4).toByteArray();
    q.finish();
    return r;
}

IdempotencyClaim IdempotencyStore::claim(const QString &credential, const QString &key, const QString &method,
                                         const QString &path, const QDateTime &notBefore, const QDateTime &staleBefore)
{
    const QString now = m_store.nowIso();
    // Bounded: a claim seen and then released (its request failed) before it could be read is
    // asked for again, at most twice more.
    for (int attempt = 0; attempt < 3; ++attempt) {
        const CachedQuery taken = Database::execCached(
            QStringLiteral("INSERT INTO idempotency_keys (credential, key, method, path, status, headers, body, "
                           "created_at) VALUES (?, ?, ?, ?, 0, '[]', ?, ?) ON CONFLICT (credential, key) DO UPDATE SET "
                           "method = excluded.method, path = excluded.path, status = 0, headers = '[]', body = "
                           "excluded.body, created_at = excluded.created_at WHERE idempotency_keys.created_at < ? OR "
                           "(idempotency_keys.status = 0 AND idempotency_keys.created_at < ?)"),
            {credential, key, method, path, QByteArray(""), now, TimeUtil::iso(notBefore), TimeUtil::iso(staleBefore)});
        if (taken.numRowsAffected() > 0)
            return {IdempotencyClaim::Claimed, {}};
        if (std::optional<StoredResponse> held = find(credential, key, notBefore))
            return {held->status == 0 ? IdempotencyClaim::InProgress : IdempotencyClaim::Stored, *held};
    }
    return {IdempotencyClaim::InProgress, {method, path, 0, {}, {}}};
}

void IdempotencyStore::release(const QString &credential, const QString &key)
{
    Database::execCached(QStringLiteral("DELETE FROM idempotency_keys WHERE credential = ? AND key = ? AND status = 0"),
                         {credential, key});
}

void IdempotencyStore::save(const QString &credential, const QString &key, const StoredResponse &response)
{
    QJsonArray headers;
    for (const auto &h : response.headers)
        headers.append(QJsonArray{QString::fromUtf8(h.first), QString::fromUtf8(h.second)});
    Database::execCached(QStringLiteral("INSERT INTO idempotency_keys (credential, key, method, path, status, "
                                        "headers, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT "
                                        "(credential, key) DO UPDATE SET method = excluded.method, path = "
                                        "excluded.path, status = excluded.status, headers = excluded.headers, body = "
                                        "excluded.body, created_at = excluded.created_at"),
                         {credential, key, response.method, response.path, response.status,
                          QString::fromUtf8(QJsonDocument(headers).toJson(QJsonDocument::Compact)), response.body,
                          m_store.nowIso()});
}

void IdempotencyStore::purgeOlderThan(const QDateTime &cutoff)
{
    Database::exec(QStringLiteral("DELETE FROM idempotency_keys WHERE created_at < ?"), {TimeUtil::iso(cutoff)});
}
