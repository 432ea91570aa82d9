#pragma once

#include <QByteArray>
#include <QString>

// Passwords: PBKDF2-HMAC-SHA256 (OpenSSL) with a random 16-byte salt, stored as
// "pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>" so that the iteration count can be raised later.
// The one place a password becomes a stored hash (the API, the window, the command line).
namespace PasswordHasher {
constexpr int kDefaultIterations = 600000; // OWASP's 2023 figure for PBKDF2-HMAC-SHA256
QString hash(const QString &password, int iterations = kDefaultIterations);
// Whether the password gives the stored hash; false for a stored text that is no hash of ours (or
// names fewer than 1,000 or more than 10,000,000 iterations).
bool verify(const QString &password, const QString &stored);
} // namespace PasswordHasher

// Constant-time comparison of two byte strings.
bool constantTimeEquals(const QByteArray &a, const QByteArray &b);
// Bytes from the system's cryptographically secure generator (salts, tokens, keys).
QByteArray randomBytes(int count);
