#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>

// Passwords: PBKDF2-HMAC-SHA256 (OpenSSL) with a random 16-byte salt, stored as
// "pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>" so that the iteration count can be raised later.
namespace PasswordHasher {
constexpr int kDefaultIterations = 600000; // OWASP's 2023 figure for PBKDF2-HMAC-SHA256
QString hash(const QString &password, int iterations = kDefaultIterations);
bool verify(const QString &password, const QString &stored);
} // namespace PasswordHasher

// JSON Web Tokens signed with HS256 (RFC 7519 / 7518).
class Jwt
{
public:
    static constexpr const char *kIssuer = "liaison";
    static constexpr const char *kAudience = "liaison-api";
    static constexpr qint64 kSkewSeconds = 60; // clocks of this machine's processes may differ a little
    // The latest exp, iat or nbf read (year 9999): NumericDates are seconds from 0 up to it.
    static constexpr double kMaxNumericDate = 253402300799.0;

    // maxLifetimeSeconds: the longest exp - iat accepted (the access-token lifetime we issue).
    explicit Jwt(QByteArray key, qint64 maxLifetimeSeconds = 24 * 3600);
    QString sign(const QJsonObject &claims) const;
    // The claims when the signature is right, alg is HS256, iss and aud are ours, sub is a non-empty
    // string, exp, iat and nbf are seconds from 0 to kMaxNumericDate, iat (required) and nbf
    // (when present) are not in the future beyond kSkewSeconds, exp is after now, and exp - iat is
    // from 0 to the maximum lifetime. Whether sub names an active user
    // is the caller's check (it needs the database).
    std::optional<QJsonObject> verify(const QString &token, const QDateTime &now) const;

private:
    QByteArray m_key;
    qint64 m_maxLifetime;
};

// Constant-time comparison of two byte strings.
bool constantTimeEquals(const QByteArray &a, const QByteArray &b);
QByteArray randomBytes(int count);
