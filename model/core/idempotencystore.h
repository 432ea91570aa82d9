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

class IdempotencyStore
{
public:
    explicit IdempotencyStore(const Store &store);

    std::optional<StoredResponse> find(const QString &credential, const QString &key, const QDateTime &notBefore) const;
    void save(const QString &credential, const QString &key, const StoredResponse &response);
    void purgeOlderThan(const QDateTime &cutoff);

private:
    Store m_store;
};
