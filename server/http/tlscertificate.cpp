#include "server/http/tlscertificate.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSaveFile>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <ctime>
#include <memory>

Q_LOGGING_CATEGORY(lcTls, "liaison.tls")

namespace {

const char CommonName[] = "Liaison local server";
const char SubjectAltNames[] = "DNS:localhost,IP:127.0.0.1,IP:::1";
constexpr long BackdateSeconds = 5 * 60; // tolerate clients whose clock is a little behind

// Every OpenSSL object is owned by one of these, so each return path frees what it allocated.
struct OpenSslFree
{
    void operator()(EVP_PKEY *p) const { EVP_PKEY_free(p); }
    void operator()(X509 *p) const { X509_free(p); }
    void operator()(X509_EXTENSION *p) const { X509_EXTENSION_free(p); }
    void operator()(BIO *p) const { BIO_free_all(p); }
    void operator()(BIGNUM *p) const { BN_free(p); }
};
template<class T>
using Owned = std::unique_ptr<T, OpenSslFree>;

// The reason OpenSSL gave (draining its per-thread error queue), prefixed with what failed.
QString openSslError(const QString &what)
{
    QString reason;
    while (const unsigned long code = ERR_get_error()) {
        char buffer[256];
        ERR_error_string_n(code, buffer, sizeof buffer);
        if (reason.isEmpty())
            reason = QString::fromLatin1(buffer);
    }
    if (reason.isEmpty())
        return what;
    return QStringLiteral("%1: %2").arg(what, reason);
}

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

QByteArray bioContents(BIO *bio)
{
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return size > 0 ? QByteArray(data, int(size)) : QByteArray();
}

Owned<BIO> memoryBio(const QByteArray &data)
{
    return Owned<BIO>(BIO_new_mem_buf(data.constData(), int(data.size())));
}

// Never let OpenSSL ask for a passphrase on the terminal: an encrypted key simply fails to load.
int noPassphrase(char *, int, int, void *)
{
    return -1;
}

bool addExtension(X509 *cert, X509V3_CTX *ctx, int nid, const char *value)
{
    Owned<X509_EXTENSION> extension(X509V3_EXT_conf_nid(nullptr, ctx, nid, value));
    return extension && X509_add_ext(cert, extension.get(), -1) == 1;
}

// Creates `path` and its missing parents with mode 0700; existing directories are left as they are.
bool makePrivateDir(const QString &path)
{
    const QString clean = QDir::cleanPath(QDir(path).absolutePath());
    if (QFileInfo(clean).isDir())
        return true;
    const QString parent = QFileInfo(clean).path();
    if (parent != clean && !makePrivateDir(parent))
        return false;
    return QDir().mkdir(clean, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner) ||
           QFileInfo(clean).isDir();
}

// Replaces `path` atomically; the permissions are set while the temporary file is still empty.
bool writeFile(const QString &path, const QByteArray &data, QFileDevice::Permissions permissions, QString *error)
{
    const QString dir = QFileInfo(path).absolutePath();
    if (!makePrivateDir(dir))
        return fail(error, QStringLiteral("cannot create directory %1").arg(QDir::toNativeSeparators(dir)));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error,
                    QStringLiteral("cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    if (!file.setPermissions(permissions)) {
        file.cancelWriting();
        return fail(error, QStringLiteral("cannot set the permissions of %1: %2")
                               .arg(QDir::toNativeSeparators(path), file.errorString()));
    }
    if (file.write(data) != data.size() || !file.commit())
        return fail(error,
                    QStringLiteral("cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    return true;
}

bool readFile(const QString &path, QByteArray *data, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(error,
                    QStringLiteral("cannot read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    *data = file.readAll();
    return true;
}

// A certificate this code generated: self-signed, with our common name.
bool isGenerated(const QSslCertificate &certificate)
{
    return certificate.isSelfSigned() &&
           certificate.subjectInfo(QSslCertificate::CommonName).contains(QLatin1String(CommonName));
}

} // namespace

namespace TlsCertificate {

bool generateSelfSigned(const QString &certPath, const QString &keyPath, QString *error, int validDays)
{
    ERR_clear_error();
    if (certPath.isEmpty() || keyPath.isEmpty())
        return fail(error, QStringLiteral("no certificate or key path"));
    if (validDays <= 0)
        return fail(error, QStringLiteral("invalid validity"));

    Owned<EVP_PKEY> key(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
    if (!key)
        return fail(error, openSslError(QStringLiteral("EC key generation failed")));

    Owned<X509> cert(X509_new());
    if (!cert || X509_set_version(cert.get(), X509_VERSION_3) != 1)
        return fail(error, openSslError(QStringLiteral("X509_new failed")));

    // A random positive 128-bit serial (RFC 5280: at most 20 octets, positive, unique per issuer).
    unsigned char serialBytes[16];
    if (RAND_bytes(serialBytes, sizeof serialBytes) != 1)
        return fail(error, openSslError(QStringLiteral("no random bytes for the serial")));
    serialBytes[0] = (serialBytes[0] & 0x7f) | 0x40;
    Owned<BIGNUM> serial(BN_bin2bn(serialBytes, sizeof serialBytes, nullptr));
    if (!serial || !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get())))
        return fail(error, openSslError(QStringLiteral("cannot set the serial")));

    time_t now = std::time(nullptr);
    if (!X509_time_adj_ex(X509_getm_notBefore(cert.get()), 0, -BackdateSeconds, &now) ||
        !X509_time_adj_ex(X509_getm_notAfter(cert.get()), validDays, -BackdateSeconds, &now))
        return fail(error, openSslError(QStringLiteral("cannot set the validity")));

    X509_NAME *name = X509_get_subject_name(cert.get()); // owned by cert
    if (X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char *>(CommonName), -1,
                                   -1, 0) != 1 ||
        X509_set_issuer_name(cert.get(), name) != 1 || X509_set_pubkey(cert.get(), key.get()) != 1)
        return fail(error, openSslError(QStringLiteral("cannot set the name or key")));

    // A server (end-entity) certificate that clients trust as it is (a local tool adds it as a CA).
    // No keyUsage extension: without keyCertSign in it OpenSSL (and so QSslCertificate::isSelfSigned())
    // would not count the certificate as issued by itself; extendedKeyUsage still limits it to servers.
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert.get(), cert.get(), nullptr, nullptr, 0);
    if (!addExtension(cert.get(), &ctx, NID_basic_constraints, "critical,CA:FALSE") ||
        !addExtension(cert.get(), &ctx, NID_ext_key_usage, "serverAuth") ||
        !addExtension(cert.get(), &ctx, NID_subject_alt_name, SubjectAltNames) ||
        !addExtension(cert.get(), &ctx, NID_subject_key_identifier, "hash"))
        return fail(error, openSslError(QStringLiteral("cannot add the X.509 extensions")));

    if (X509_sign(cert.get(), key.get(), EVP_sha256()) <= 0)
        return fail(error, openSslError(QStringLiteral("cannot sign the certificate")));

    Owned<BIO> keyBio(BIO_new(BIO_s_mem()));
    Owned<BIO> certBio(BIO_new(BIO_s_mem()));
    if (!keyBio || !certBio ||
        PEM_write_bio_PrivateKey(keyBio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1 ||
        PEM_write_bio_X509(certBio.get(), cert.get()) != 1)
        return fail(error, openSslError(QStringLiteral("cannot encode PEM")));
    QByteArray keyPem = bioContents(keyBio.get());
    const QByteArray certPem = bioContents(certBio.get());

    // The key first: a certificate on disk always has its key beside it.
    const bool ok =
        writeFile(keyPath, keyPem, QFileDevice::ReadOwner | QFileDevice::WriteOwner, error) &&
        writeFile(certPath, certPem,
                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther,
                  error);
    keyPem.fill('\0');
    return ok;
}

bool isStrongCipher(const QString &name)
{
    if (name.startsWith(QLatin1String("TLS_"))) // TLS 1.3: the key exchange is always ephemeral
        return name.startsWith(QLatin1String("TLS_AES_")) ? name.contains(QLatin1String("_GCM_"))
                                                          : name.startsWith(QLatin1String("TLS_CHACHA20_POLY1305"));
    return name.startsWith(QLatin1String("ECDHE-")) &&
           (name.contains(QLatin1String("-GCM-")) || name.contains(QLatin1String("-CHACHA20-POLY1305")));
}

QList<QSslCipher> strongCiphers()
{
    QList<QSslCipher> strong;
    for (const QSslCipher &cipher : QSslConfiguration::supportedCiphers()) {
        if (isStrongCipher(cipher.name()))
            strong.append(cipher);
    }
    return strong;
}

std::optional<QSslConfiguration> load(const QString &certPath, const QString &keyPath, QString *error)
{
    ERR_clear_error();
    if (!QSslSocket::supportsSsl()) {
        fail(error, QStringLiteral("TLS is not available (no OpenSSL backend for QtNetwork)"));
        return std::nullopt;
    }
    QByteArray certPem;
    QByteArray keyPem;
    if (!readFile(certPath, &certPem, error) || !readFile(keyPath, &keyPem, error))
        return std::nullopt;

    const QList<QSslCertificate> chain = QSslCertificate::fromData(certPem, QSsl::Pem);
    if (chain.isEmpty() || chain.first().isNull()) {
        fail(error, QStringLiteral("%1 holds no PEM certificate").arg(QDir::toNativeSeparators(certPath)));
        return std::nullopt;
    }

    // OpenSSL reads any unencrypted PEM private key and checks that it belongs to the certificate.
    Owned<BIO> keyBio = memoryBio(keyPem);
    Owned<EVP_PKEY> key(keyBio ? PEM_read_bio_PrivateKey(keyBio.get(), nullptr, noPassphrase, nullptr) : nullptr);
    keyPem.fill('\0');
    if (!key) {
        fail(error,
             openSslError(
                 QStringLiteral("%1 holds no unencrypted PEM private key").arg(QDir::toNativeSeparators(keyPath))));
        return std::nullopt;
    }
    const QByteArray leafDer = chain.first().toDer();
    const unsigned char *derData = reinterpret_cast<const unsigned char *>(leafDer.constData());
    Owned<X509> leaf(d2i_X509(nullptr, &derData, long(leafDer.size())));
    if (!leaf) {
        fail(error, openSslError(QStringLiteral("cannot parse the certificate")));
        return std::nullopt;
    }
    if (X509_check_private_key(leaf.get(), key.get()) != 1) {
        ERR_clear_error();
        fail(error, QStringLiteral("the key in %1 does not match the certificate in %2")
                        .arg(QDir::toNativeSeparators(keyPath), QDir::toNativeSeparators(certPath)));
        return std::nullopt;
    }

    QSsl::KeyAlgorithm algorithm;
    switch (EVP_PKEY_get_base_id(key.get())) {
    case EVP_PKEY_EC:
        algorithm = QSsl::Ec;
        break;
    case EVP_PKEY_RSA:
        algorithm = QSsl::Rsa;
        break;
    case EVP_PKEY_DSA:
        algorithm = QSsl::Dsa;
        break;
    default:
        fail(error, QStringLiteral("unsupported key type in %1").arg(QDir::toNativeSeparators(keyPath)));
        return std::nullopt;
    }
    // Handed to Qt as PKCS#8 PEM, whatever form the file used.
    Owned<BIO> pkcs8(BIO_new(BIO_s_mem()));
    if (!pkcs8 || PEM_write_bio_PrivateKey(pkcs8.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
        fail(error, openSslError(QStringLiteral("cannot encode the key")));
        return std::nullopt;
    }
    QByteArray normalized = bioContents(pkcs8.get());
    const QSslKey sslKey(normalized, algorithm, QSsl::Pem, QSsl::PrivateKey);
    normalized.fill('\0');
    if (sslKey.isNull()) {
        fail(error, QStringLiteral("QtNetwork cannot use the key in %1").arg(QDir::toNativeSeparators(keyPath)));
        return std::nullopt;
    }

    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (chain.first().expiryDate() < now || chain.first().effectiveDate() > now)
        qCWarning(lcTls).noquote() << QStringLiteral("The certificate in %1 is not valid now (valid %2 to %3)")
                                          .arg(QDir::toNativeSeparators(certPath),
                                               chain.first().effectiveDate().toString(Qt::ISODate),
                                               chain.first().expiryDate().toString(Qt::ISODate));

    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificateChain(chain);
    configuration.setPrivateKey(sslKey);
    configuration.setProtocol(QSsl::TlsV1_2OrLater);
    configuration.setCiphers(TlsCertificate::strongCiphers());
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
    return configuration;
}

std::optional<QSslConfiguration> ensure(const QString &dataDir, const QString &certPath, const QString &keyPath,
                                        QString *error)
{
    if (!certPath.isEmpty() && !keyPath.isEmpty())
        return load(certPath, keyPath, error);
    if (!certPath.isEmpty() || !keyPath.isEmpty()) {
        fail(error, QStringLiteral("a TLS certificate needs both a certificate file and a key file"));
        return std::nullopt;
    }
    if (dataDir.isEmpty()) {
        fail(error, QStringLiteral("no data directory"));
        return std::nullopt;
    }

    const QString dir = QDir(dataDir).filePath(QStringLiteral("tls"));
    const QString cert = QDir(dir).filePath(QStringLiteral("cert.pem"));
    const QString key = QDir(dir).filePath(QStringLiteral("key.pem"));

    QString reason;
    if (!QFileInfo::exists(cert) || !QFileInfo::exists(key)) {
        reason = QFileInfo::exists(cert) || QFileInfo::exists(key) ? QStringLiteral("half of the pair is missing")
                                                                   : QStringLiteral("first start");
    } else {
        const QList<QSslCertificate> existing = QSslCertificate::fromPath(cert, QSsl::Pem);
        if (!existing.isEmpty() && isGenerated(existing.first()) &&
            existing.first().expiryDate() < QDateTime::currentDateTimeUtc().addDays(RenewBeforeDays))
            reason = QStringLiteral("the generated certificate expires on %1")
                         .arg(existing.first().expiryDate().toString(Qt::ISODate));
    }
    if (reason.isEmpty()) {
        QFile keyFile(key);
        const QFileDevice::Permissions loose = QFileDevice::ReadGroup | QFileDevice::WriteGroup |
                                               QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                               QFileDevice::WriteOther | QFileDevice::ExeOther;
        if ((keyFile.permissions() & loose) && keyFile.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner))
            qCWarning(lcTls).noquote() << QStringLiteral("%1 was readable by other users; restricted it to its owner")
                                              .arg(QDir::toNativeSeparators(key));
    } else {
        if (!generateSelfSigned(cert, key, error))
            return std::nullopt;
        qCInfo(lcTls).noquote() << QStringLiteral("Generated a self-signed TLS certificate in %1 (%2)")
                                       .arg(QDir::toNativeSeparators(dir), reason);
    }
    return load(cert, key, error);
}

} // namespace TlsCertificate
