#pragma once

// Passwords (PasswordHasher), constantTimeEquals and randomBytes are rules of the accounts: model/accounts.
#include "model/accounts/passwordhasher.h"

#include <QByteArray>
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QMutex>
#include <QString>
#include <QVector>

#include <functional>
#include <memory>
#include <optional>

// A key that signs access tokens: its id (the header's kid; empty: none written), the HMAC key,
// from when it signs (seconds since the epoch) and until when tokens it signed are accepted (0: no end).
struct JwtKey
{
    QString id;
    QByteArray secret;
    qint64 notBefore = 0;
    qint64 verifyUntil = 0;
};

// JSON Web Tokens signed with HS256 (RFC 7519 / 7518). Thread-safe.
class Jwt
{
public:
    static constexpr const char *kIssuer = "liaison";
    static constexpr const char *kAudience = "liaison-api";
    static constexpr qint64 kSkewSeconds = 60; // clocks of this machine's processes may differ a little
    // The latest exp, iat or nbf read (year 9999): NumericDates are seconds from 0 up to it.
    static constexpr double kMaxNumericDate = 253402300799.0;
    static constexpr qint64 kMissReloadSeconds = 5;

    // One key, no kid (SQLite: the key of the data directory's secret store).
    // maxLifetimeSeconds: the longest exp - iat accepted (the access-token lifetime we issue).
    explicit Jwt(QByteArray key, qint64 maxLifetimeSeconds = 24 * 3600);
    // Keys that load() gives (oldest first; team mode: the table all copies share), read again
    // when held longer than reloadSeconds, and sooner (at most every kMissReloadSeconds) when a
    // token names a kid not among them. A reload that fails keeps the keys held; load() is called at
    // once by the constructor, and its exception goes up.
    using Loader = std::function<QVector<JwtKey>()>;
    Jwt(Loader load, qint64 maxLifetimeSeconds, qint64 reloadSeconds);
    // Signed with the newest key whose notBefore has come (at the claims' iat), kid in the header.
    QString sign(const QJsonObject &claims) const;
    // The claims when the signature is right (with the key the kid names, still accepted now; a
    // token without kid only with a key without id), alg is HS256, iss and aud are ours, sub is a
    // non-empty string, exp, iat and nbf are seconds from 0 to kMaxNumericDate, iat (required) and
    // nbf (when present) are not in the future beyond kSkewSeconds, exp is after now, and exp - iat
    // is from 0 to the maximum lifetime. Whether sub names an active user is the caller's check (it
    // needs the database).
    std::optional<QJsonObject> verify(const QString &token, const QDateTime &now) const;

private:
    using Keys = std::shared_ptr<const QVector<JwtKey>>;
    // The keys held, read again first when stale (or, with missing, when missing is not among
    // them and the last such read is long enough ago).
    Keys keys(const QString &missing = {}) const;

    Loader m_load;
    qint64 m_reloadMs = 0;
    qint64 m_maxLifetime;
    mutable QMutex m_mutex;
    mutable Keys m_keys;
    mutable QElapsedTimer m_loaded;
    mutable QElapsedTimer m_missReload;
};
