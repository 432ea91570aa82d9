#include "server/api/crypto.h"

#include <QJsonArray>

#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QStringList>

#include <algorithm>

namespace {
QByteArray b64url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

std::optional<QByteArray> fromB64url(const QByteArray &text)
{
    auto result =
        QByteArray::fromBase64Encoding(text, QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!result)
        return std::nullopt;
    return *result;
}

} // namespace

Jwt::Jwt(QByteArray key, qint64 maxLifetimeSeconds)
    : m_maxLifetime(maxLifetimeSeconds)
    , m_keys(std::make_shared<const QVector<JwtKey>>(QVector<JwtKey>{JwtKey{QString(), std::move(key), 0, 0}}))
{
}

Jwt::Jwt(Loader load, qint64 maxLifetimeSeconds, qint64 reloadSeconds)
    : m_load(std::move(load))
    , m_reloadMs(reloadSeconds * 1000)
    , m_maxLifetime(maxLifetimeSeconds)
    , m_keys(std::make_shared<const QVector<JwtKey>>(m_load()))
{
    m_loaded.start();
}

Jwt::Keys Jwt::keys(const QString &missing) const
{
    QMutexLocker lock(&m_mutex);
    if (!m_load)
        return m_keys;
    bool reload = m_loaded.hasExpired(m_reloadMs);
    if (!reload && !missing.isEmpty() &&
        std::none_of(m_keys->cbegin(), m_keys->cend(), [&](const JwtKey &k) { return k.id == missing; }) &&
        (!m_missReload.isValid() || m_missReload.hasExpired(kMissReloadSeconds * 1000))) {
        m_missReload.start();
        reload = true;
    }
    if (!reload)
        return m_keys;
    try {
        QVector<JwtKey> loaded = m_load();
        if (!loaded.isEmpty())
            m_keys = std::make_shared<const QVector<JwtKey>>(std::move(loaded));
    } catch (const std::exception &e) {
        qWarning("the keys that sign access tokens could not be read again; the ones held are kept: %s", e.what());
    }
    m_loaded.start(); // a failed read is tried again after the same interval, not on every request
    return m_keys;
}

QString Jwt::sign(const QJsonObject &claims) const
{
    const Keys held = keys();
    const QJsonValue iat = claims.value(QLatin1String("iat"));
    const qint64 at = iat.isDouble() ? qint64(iat.toDouble()) : QDateTime::currentSecsSinceEpoch();
    const JwtKey *key = &held->constFirst();
    for (const JwtKey &k : *held) {
        if (k.notBefore <= at)
            key = &k;
    }
    QJsonObject header{{QStringLiteral("alg"), QStringLiteral("HS256")},
                       {QStringLiteral("typ"), QStringLiteral("JWT")}};
    if (!key->id.isEmpty())
        header.insert(QStringLiteral("kid"), key->id);
    const QByteArray input = b64url(QJsonDocument(header).toJson(QJsonDocument::Compact)) + '.' +
                             b64url(QJsonDocument(claims).toJson(QJsonDocument::Compact));
    const QByteArray signature = QMessageAuthenticationCode::hash(input, key->secret, QCryptographicHash::Sha256);
    return QString::fromLatin1(input + '.' + b64url(signature));
}

std::optional<QJsonObject> Jwt::verify(const QString &token, const QDateTime &now) const
{
    const QByteArray bytes = token.toLatin1();
    const QList<QByteArray> parts = bytes.split('.');
    if (parts.size() != 3 || bytes.size() > 4096)
        return std::nullopt;
    const auto headerBytes = fromB64url(parts.at(0));
    const auto payloadBytes = fromB64url(parts.at(1));
    const auto signature = fromB64url(parts.at(2));
    if (!headerBytes || !payloadBytes || !signature)
        return std::nullopt;
    // The key: the one the header's kid names (none: the key without id).
    const QJsonObject header = QJsonDocument::fromJson(*headerBytes).object();
    const QJsonValue kidValue = header.value(QLatin1String("kid"));
    if (!kidValue.isUndefined() && (!kidValue.isString() || kidValue.toString().size() > 64))
        return std::nullopt;
    const QString kid = kidValue.toString();
    const Keys held = keys(kid);
    const auto key = std::find_if(held->cbegin(), held->cend(), [&](const JwtKey &k) { return k.id == kid; });
    if (key == held->cend() || (key->verifyUntil > 0 && now.toSecsSinceEpoch() >= key->verifyUntil))
        return std::nullopt;
    const QByteArray expected =
        QMessageAuthenticationCode::hash(parts.at(0) + '.' + parts.at(1), key->secret, QCryptographicHash::Sha256);
    if (!constantTimeEquals(expected, *signature))
        return std::nullopt;
    // alg is checked after the signature: only our own HS256 header can have produced a valid one,
    // but a token must never be accepted with "none" or another algorithm.
    if (header.value(QLatin1String("alg")).toString() != QLatin1String("HS256"))
        return std::nullopt;
    const QJsonObject claims = QJsonDocument::fromJson(*payloadBytes).object();
    const qint64 nowSecs = now.toSecsSinceEpoch();
    const QJsonValue exp = claims.value(QLatin1String("exp"));
    const QJsonValue iat = claims.value(QLatin1String("iat"));
    const QJsonValue nbf = claims.value(QLatin1String("nbf"));
    const QJsonValue sub = claims.value(QLatin1String("sub"));
    const QJsonValue aud = claims.value(QLatin1String("aud"));
    // NumericDate claims are seconds from 0 to kMaxNumericDate (a fraction is dropped), range-checked
    // as doubles before they become integers: iat = -1e19 is out of qint64's range, and its
    // conversion and exp - iat would overflow into a short lifetime.
    const auto seconds = [](const QJsonValue &v, qint64 *out) {
        if (!v.isDouble())
            return false;
        const double d = v.toDouble();
        if (!(d >= 0 && d <= kMaxNumericDate)) // also false for NaN
            return false;
        *out = qint64(d);
        return true;
    };
    qint64 expSecs = 0;
    qint64 iatSecs = 0;
    qint64 nbfSecs = 0;
    if (!seconds(exp, &expSecs) || expSecs <= nowSecs)
        return std::nullopt;
    if (!seconds(iat, &iatSecs) || iatSecs > nowSecs + kSkewSeconds)
        return std::nullopt;
    if (iatSecs > expSecs || expSecs - iatSecs > m_maxLifetime)
        return std::nullopt;
    if (!nbf.isUndefined() && (!seconds(nbf, &nbfSecs) || nbfSecs > nowSecs + kSkewSeconds))
        return std::nullopt;
    if (claims.value(QLatin1String("iss")).toString() != QLatin1String(kIssuer))
        return std::nullopt;
    const bool ourAudience = aud.isArray() ? aud.toArray().contains(QJsonValue(QLatin1String(kAudience)))
                                           : aud.toString() == QLatin1String(kAudience);
    if (!ourAudience)
        return std::nullopt;
    if (!sub.isString() || sub.toString().isEmpty())
        return std::nullopt;
    return claims;
}
