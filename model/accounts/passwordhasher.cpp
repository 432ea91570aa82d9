#include "model/accounts/passwordhasher.h"

#include <QRandomGenerator>
#include <QStringList>

#include <openssl/crypto.h>
#include <openssl/evp.h>

namespace {
QByteArray pbkdf2Sha256(const QString &password, const QByteArray &salt, int iterations)
{
    const QByteArray pw = password.toUtf8();
    QByteArray out(32, Qt::Uninitialized);
    PKCS5_PBKDF2_HMAC(pw.constData(), int(pw.size()), reinterpret_cast<const unsigned char *>(salt.constData()),
                      int(salt.size()), iterations, EVP_sha256(), int(out.size()),
                      reinterpret_cast<unsigned char *>(out.data()));
    return out;
}
} // namespace

bool constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    return a.size() == b.size() && CRYPTO_memcmp(a.constData(), b.constData(), size_t(a.size())) == 0;
}

QByteArray randomBytes(int count)
{
    QByteArray out(count, Qt::Uninitialized);
    for (int i = 0; i < count; ++i)
        out[i] = char(QRandomGenerator::system()->bounded(256));
    return out;
}

QString PasswordHasher::hash(const QString &password, int iterations)
{
    const QByteArray salt = randomBytes(16);
    return QStringLiteral("pbkdf2-sha256$%1$%2$%3")
        .arg(iterations)
        .arg(QString::fromLatin1(salt.toBase64()),
             QString::fromLatin1(pbkdf2Sha256(password, salt, iterations).toBase64()));
}

bool PasswordHasher::verify(const QString &password, const QString &stored)
{
    const QStringList parts = stored.split(QLatin1Char('$'));
    if (parts.size() != 4 || parts.at(0) != QLatin1String("pbkdf2-sha256"))
        return false;
    bool ok = false;
    const int iterations = parts.at(1).toInt(&ok);
    if (!ok || iterations < 1000 || iterations > 10000000)
        return false;
    const QByteArray salt = QByteArray::fromBase64(parts.at(2).toLatin1());
    const QByteArray expected = QByteArray::fromBase64(parts.at(3).toLatin1());
    return constantTimeEquals(pbkdf2Sha256(password, salt, iterations), expected);
}
