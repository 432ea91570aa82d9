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
    explicit Jwt(QByteArray key);
    QString sign(const QJsonObject &claims) const;
    // The claims when the signature is right, alg is HS256 and exp is after now.
    std::optional<QJsonObject> verify(const QString &token, const QDateTime &now) const;

private:
    QByteArray m_key;
};

// Constant-time comparison of two byte strings.
bool constantTimeEquals(const QByteArray &a, const QByteArray &b);
QByteArray randomBytes(int count);
