#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QVector>

// One key that signs access tokens (HMAC-SHA256).
struct SigningKey
{
    QString id;        // the token header's kid
    QByteArray secret; // 32 random bytes
    QDateTime notBefore;
    QDateTime verifyUntil; // invalid: no end
};

// The access-token signing keys of team mode, in the table signing_keys that every copy on the
// PostgreSQL database reads, so that a token one copy signed is good at every other (behind a load
// balancer a client meets any of them). The first copy to start makes the first key; rotation adds
// a key that copies start signing with after kActivationSeconds (each copy reads the keys again at
// least every kReloadSeconds, so all know it by then) and keeps the previous ones valid until the
// last token they signed has expired. SQLite keeps its one key in the data directory's secret store.
namespace SigningKeyRepository {
constexpr qint64 kReloadSeconds = 60;
constexpr qint64 kActivationSeconds = 2 * kReloadSeconds;
// The keys still valid for checking at now (verify_until unset or later), oldest first; when there
// is none, makes the first one (usable at once): two copies starting together both insert it
// with one id and ON CONFLICT DO NOTHING, and both read back the one that was stored. Throws
// DatabaseError.
QVector<SigningKey> load(const QDateTime &now);
// A new key, signed with from now + kActivationSeconds; every key without an end so far is
// accepted until that moment plus tokenLifetimeSeconds (the longest an access token lives, its
// clock skew included), and keys whose end has passed are deleted. Returns the new key.
SigningKey rotate(const QDateTime &now, qint64 tokenLifetimeSeconds);
} // namespace SigningKeyRepository
