#pragma once

#include "model/core/store.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

// The first answer to a POST that carried an Idempotency-Key, kept 24 hours per credential, so that
// a retried request gets the same answer instead of acting twice.
struct StoredResponse
{
    QString method;
    QString path;
    int status = 0;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
};

// What IdempotencyStore::claim() found for a key.
struct IdempotencyClaim
{
    enum Outcome
    {
        Claimed,    // this request runs; save() or release() its key afterwards
        InProgress, // another request with the key runs now (stored.path says where)
        Stored      // the first answer, to be replayed (stored.path may be another route's)
    };
    Outcome outcome = Claimed;
    StoredResponse stored;
};

// A key is claimed before the work starts, by one statement of its own that commits at once: a row
// with status 0 ("running"), unique on credential + key, so that of simultaneous requests with one
// key, on any server thread of any copy on the database, exactly one runs. Its answer replaces the
// claim (save); a passing failure (5xx, 429) deletes it (release), so that a retry runs again. A
// claim older than staleBefore was left by a copy that died mid-request and is taken over.
class IdempotencyStore
{
public:
    explicit IdempotencyStore(const Store &store);

    // notBefore: answers kept from before it are forgotten (24 hours); staleBefore: see above.
    IdempotencyClaim claim(const QString &credential, const QString &key, const QString &method, const QString &path,
                           const QDateTime &notBefore, const QDateTime &staleBefore);
    std::optional<StoredResponse> find(const QString &credential, const QString &key, const QDateTime &notBefore) const;
    void save(const QString &credential, const QString &key, const StoredResponse &response);
    void release(const QString &credential, const QString &key);
    void purgeOlderThan(const QDateTime &cutoff);

private:
    Store m_store;
};
