#pragma once

#include <QSslCipher>
#include <QSslConfiguration>
#include <QString>

#include <optional>

// The HTTPS server's certificate: a self-signed one generated on first start, or one the admin configures.
namespace TlsCertificate {

constexpr int DefaultValidityDays = 825; // the longest that Apple platforms accept for a server certificate
// A generated certificate (the DATA/tls pair) that expires within this many days is replaced by ensure().
constexpr int RenewBeforeDays = 30;

// Writes a new self-signed certificate (CN=Liaison local server, SAN DNS:localhost, IP:127.0.0.1, IP:::1,
// EC P-256 key, valid `validDays` from five minutes ago, random serial) as PEM to certPath and keyPath
// (key file mode 0600, cert 0644, missing directories created 0700). Each file is replaced atomically,
// the key first.
bool generateSelfSigned(const QString &certPath, const QString &keyPath, QString *error,
                        int validDays = DefaultValidityDays);

// Loads a PEM certificate (the server's first, then its chain) and an unencrypted PEM private key (EC, RSA
// or DSA; PKCS#8 or traditional) into a server QSslConfiguration (TLS 1.2 or later, strongCiphers() only,
// no peer verification).
// Fails when a file cannot be read or parsed, or the key does not belong to the first certificate.
// The cipher suites the server offers: forward-secret key exchange (ECDHE) with an AEAD cipher, AES-GCM or
// ChaCha20-Poly1305, for TLS 1.2, and the TLS 1.3 suites of those two. No CBC, no SHA-1 MAC, no static RSA.
QList<QSslCipher> strongCiphers();
bool isStrongCipher(const QString &name);

std::optional<QSslConfiguration> load(const QString &certPath, const QString &keyPath, QString *error);

// The server's: certPath/keyPath when both are non-empty (an error when they are not readable or do not
// match; also when only one of them is given); otherwise DATA/tls/cert.pem + key.pem, generated when
// either is missing or the generated certificate expires within RenewBeforeDays (a key.pem found readable
// by others is restricted to 0600 with a warning). An existing DATA/tls pair that does not load is an
// error and is left alone (delete DATA/tls to get a new one).
std::optional<QSslConfiguration> ensure(const QString &dataDir, const QString &certPath, const QString &keyPath,
                                        QString *error);

} // namespace TlsCertificate
