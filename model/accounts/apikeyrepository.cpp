#include "model/accounts/apikeyrepository.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/ids.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSqlQuery>

namespace {
const QStringList kAreas = {
    QStringLiteral("contacts"), QStringLiteral("deals"),     QStringLiteral("tasks"), QStringLiteral("conversations"),
    QStringLiteral("messages"), QStringLiteral("campaigns"), QStringLiteral("ai"),    QStringLiteral("webhooks"),
    QStringLiteral("settings")};

QString hashSecret(const QString &secret)
{
    return QString::fromLatin1(QCryptographicHash::hash(secret.toUtf8(), QCryptographicHash::Sha256).toHex());
}

ApiKey apiKeyFromRow(SqlRowReader r)
{
    ApiKey k;
    k.id = r.text();
    k.name = r.text();
    k.prefix = r.text();
    k.scopes = r.jsonStrings();
    k.createdBy = r.text();
    k.createdAt = r.text();
    k.lastUsedAt = r.text();
    k.revokedAt = r.text();
    k.ownerRole = r.text();
    return k;
}

// With the owner's role now, so that a changed role applies to the owner's keys at once.
const QString kSelect = QStringLiteral(
    "SELECT k.id, k.name, k.key_prefix, k.scopes, k.created_by, k.created_at, k.last_used_at, k.revoked_at, "
    "u.role FROM api_keys k LEFT JOIN users u ON u.id = k.created_by AND u.deactivated_at IS NULL");
} // namespace

bool ApiKey::grants(const QStringList &scopes, const QString &scope)
{
    const qsizetype colon = scope.indexOf(QLatin1Char(':'));
    const QString area = scope.left(colon);
    for (const QString &s : scopes) {
        if (s == QLatin1String("*") || s == scope || s == area + QLatin1String(":*"))
            return true;
        if (scope.endsWith(QLatin1String(":read")) && s == area + QLatin1String(":write"))
            return true;
    }
    return false;
}

QStringList ApiKeyRepository::adminAreas()
{
    return {QStringLiteral("webhooks"), QStringLiteral("settings")};
}

bool ApiKeyRepository::scopeFitsRole(const QString &scope, const QString &role)
{
    if (role == QLatin1String("admin"))
        return true;
    if (scope == QLatin1String("*"))
        return false; // "*" takes in the admin-only areas
    return !adminAreas().contains(scope.section(QLatin1Char(':'), 0, 0));
}

QJsonObject ApiKey::toJson() const
{
    auto nullable = [](const QString &s) { return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s); };
    return QJsonObject{
        {QStringLiteral("id"), id},
        {QStringLiteral("name"), name},
        {QStringLiteral("prefix"), prefix},
        {QStringLiteral("scopes"), QJsonArray::fromStringList(scopes)},
        {QStringLiteral("createdBy"), nullable(createdBy)},
        {QStringLiteral("role"), role()},
        {QStringLiteral("createdAt"), createdAt},
        {QStringLiteral("lastUsedAt"), nullable(lastUsedAt)},
        {QStringLiteral("revokedAt"), nullable(revokedAt)},
        {QStringLiteral("active"), !isRevoked()},
    };
}

QStringList ApiKeyRepository::knownScopes()
{
    QStringList out{QStringLiteral("*")};
    for (const QString &area : kAreas)
        out << area + QLatin1String(":read") << area + QLatin1String(":write") << area + QLatin1String(":*");
    return out;
}

ApiKeyRepository::ApiKeyRepository(const Store &store)
    : m_store(store)
{
}

NewApiKey ApiKeyRepository::create(const QString &name, const QStringList &scopes, const QString &owner)
{
    const QString createdBy = m_store.actorOr(owner);
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty())
        throw DomainError::missingFields({{QStringLiteral("name"), DomainError::isRequired()}});
    if (trimmed.size() > 100)
        throw DomainError::invalid(QStringLiteral("name"),
                                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {100}));
    QStringList finalScopes;
    const QStringList known = knownScopes();
    for (const QString &s : scopes) {
        if (!known.contains(s))
            throw DomainError::badRequest(
                ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: unknown scope %1"), {s}),
                {{QStringLiteral("scopes"), ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown scope %1"), {s})}});
        if (!finalScopes.contains(s))
            finalScopes << s;
    }
    QString role = QStringLiteral("admin");
    if (!createdBy.isEmpty()) {
        QSqlQuery owner = Database::exec(
            QStringLiteral("SELECT role FROM users WHERE id = ? AND deactivated_at IS NULL"), {createdBy});
        if (!owner.next())
            throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "User"), createdBy);
        role = owner.value(0).toString();
    }
    for (const QString &s : std::as_const(finalScopes)) {
        if (!scopeFitsRole(s, role))
            throw DomainError(DomainError::Forbidden, QStringLiteral("FORBIDDEN"),
                              ModelText(QT_TRANSLATE_NOOP("ModelError", "Scope %1 needs the admin role"), {s}),
                              {{QStringLiteral("scopes"),
                                ModelText(QT_TRANSLATE_NOOP("ModelError", "scope %1 needs the admin role"), {s})}});
    }
    if (finalScopes.isEmpty()) {
        if (role == QLatin1String("admin")) {
            finalScopes << QStringLiteral("*");
        } else {
            for (const QString &area : kAreas) {
                if (!adminAreas().contains(area))
                    finalScopes << area + QLatin1String(":*");
            }
        }
    }

    quint32 random[8];
    QRandomGenerator::system()->fillRange(random);
    const QByteArray bytes(reinterpret_cast<const char *>(random), sizeof random);
    NewApiKey out;
    out.secret = QLatin1String("lk_") +
                 QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    out.key.id = Ids::make(u"apikey");
    out.key.name = trimmed;
    out.key.prefix = out.secret.left(10);
    out.key.scopes = finalScopes;
    out.key.createdBy = createdBy;
    out.key.ownerRole = createdBy.isEmpty() ? QString() : role;
    out.key.createdAt = m_store.nowIso();
    Database::exec(
        QStringLiteral("INSERT INTO api_keys (id, name, key_prefix, key_hash, scopes, created_by, created_at) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)"),
        {out.key.id, out.key.name, out.key.prefix, hashSecret(out.secret),
         QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(finalScopes)).toJson(QJsonDocument::Compact)),
         createdBy.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(createdBy), out.key.createdAt});
    m_store.notify(EventBus::Entity::ApiKey, out.key.id, EventBus::Change::Created);
    return out;
}

QVector<ApiKey> ApiKeyRepository::list() const
{
    QVector<ApiKey> out;
    QSqlQuery q = Database::exec(kSelect + QStringLiteral(" ORDER BY k.seq DESC"));
    while (q.next())
        out.append(apiKeyFromRow(q));
    return out;
}

QVector<ApiKey> ApiKeyRepository::listOwnedBy(const QString &userId) const
{
    QVector<ApiKey> out;
    QSqlQuery q = Database::exec(kSelect + QStringLiteral(" WHERE k.created_by = ? ORDER BY k.seq DESC"), {userId});
    while (q.next())
        out.append(apiKeyFromRow(q));
    return out;
}

std::optional<ApiKey> ApiKeyRepository::find(const QString &id) const
{
    QSqlQuery q = Database::exec(kSelect + QStringLiteral(" WHERE k.id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    return apiKeyFromRow(q);
}

void ApiKeyRepository::revoke(const QString &id)
{
    if (!find(id))
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "API key"), id);
    Database::exec(QStringLiteral("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL"),
                   {m_store.nowIso(), id});
    m_store.notify(EventBus::Entity::ApiKey, id, EventBus::Change::Updated);
}

std::optional<ApiKey> ApiKeyRepository::authenticate(const QString &secret) const
{
    if (!secret.startsWith(QLatin1String("lk_")) || secret.size() > 100)
        return std::nullopt;
    CachedQuery q = Database::execCached(kSelect + QStringLiteral(" WHERE k.key_hash = ? AND k.revoked_at IS NULL"),
                                         {hashSecret(secret)});
    if (!q.next())
        return std::nullopt;
    ApiKey k = apiKeyFromRow(q);
    q.finish();
    // A key whose owner is gone no longer works.
    if (!k.createdBy.isEmpty() && k.ownerRole.isEmpty())
        return std::nullopt;
    return k;
}

void ApiKeyRepository::touch(const QString &id)
{
    Database::execCached(QStringLiteral("UPDATE api_keys SET last_used_at = ? WHERE id = ?"), {m_store.nowIso(), id});
}
