#include "model/accounts/signingkeyrepository.h"

#include "model/core/database.h"
#include "model/core/ids.h"
#include "model/core/timeutil.h"

#include <QRandomGenerator>

namespace {
QByteArray newSecret()
{
    QByteArray secret(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(secret.data()), secret.size() / 4);
    return secret;
}

QVector<SigningKey> live(const QDateTime &now)
{
    QVector<SigningKey> keys;
    QSqlQuery q = Database::exec(QStringLiteral("SELECT id, secret, not_before, verify_until FROM signing_keys "
                                                "WHERE verify_until IS NULL OR verify_until > ? ORDER BY seq"),
                                 {TimeUtil::iso(now)});
    while (q.next()) {
        SigningKey k;
        k.id = q.value(0).toString();
        k.secret = QByteArray::fromBase64(q.value(1).toString().toLatin1());
        k.notBefore = TimeUtil::parse(q.value(2).toString()).value_or(QDateTime());
        if (!q.value(3).isNull())
            k.verifyUntil = TimeUtil::parse(q.value(3).toString()).value_or(QDateTime());
        if (k.secret.size() >= 32 && k.notBefore.isValid())
            keys.append(k);
    }
    return keys;
}
} // namespace

QVector<SigningKey> SigningKeyRepository::load(const QDateTime &now)
{
    QVector<SigningKey> keys = live(now);
    if (!keys.isEmpty())
        return keys;
    const QString at = TimeUtil::iso(now);
    Database::exec(QStringLiteral("INSERT INTO signing_keys (id, secret, created_at, not_before) VALUES (?, ?, ?, ?) "
                                  "ON CONFLICT (id) DO NOTHING"),
                   {QStringLiteral("jwtkey_first"), QString::fromLatin1(newSecret().toBase64()), at, at});
    keys = live(now);
    if (keys.isEmpty())
        throw DatabaseError("the table signing_keys holds no key that is still valid");
    return keys;
}

SigningKey SigningKeyRepository::rotate(const QDateTime &now, qint64 tokenLifetimeSeconds)
{
    SigningKey k;
    k.id = Ids::make(u"jwtkey");
    k.secret = newSecret();
    k.notBefore = now.addSecs(kActivationSeconds);
    Transaction tx;
    Database::exec(QStringLiteral("DELETE FROM signing_keys WHERE verify_until IS NOT NULL AND verify_until <= ?"),
                   {TimeUtil::iso(now)});
    Database::exec(QStringLiteral("UPDATE signing_keys SET verify_until = ? WHERE verify_until IS NULL"),
                   {TimeUtil::iso(k.notBefore.addSecs(tokenLifetimeSeconds))});
    Database::exec(QStringLiteral("INSERT INTO signing_keys (id, secret, created_at, not_before) VALUES (?, ?, ?, ?)"),
                   {k.id, QString::fromLatin1(k.secret.toBase64()), TimeUtil::iso(now), TimeUtil::iso(k.notBefore)});
    tx.commit();
    return k;
}
