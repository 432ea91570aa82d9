#include "model/accounts/userrepository.h"

#include "model/contacts/contact.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/ids.h"
#include "model/core/timeutil.h"

#include <QCryptographicHash>
#include <QSqlQuery>

namespace {
User userFromRow(const QSqlQuery &q)
{
    return User{q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                q.value(3).toString(), q.value(4).toString(), q.value(5).toString()};
}

const QString kUserSelect = QStringLiteral("SELECT id, email, name, role, created_at, deactivated_at FROM users");

QString tokenHash(const QString &token)
{
    return QString::fromLatin1(QCryptographicHash::hash(token.toUtf8(), QCryptographicHash::Sha256).toHex());
}
} // namespace

QJsonObject User::toJson() const
{
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("email"), email},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("role"), role},
                       {QStringLiteral("createdAt"), createdAt},
                       {QStringLiteral("active"), isActive()}};
}

QString UserRepository::actorName(const QString &actor)
{
    QString table;
    if (actor.startsWith(QLatin1String("user_")))
        table = QStringLiteral("users");
    else if (actor.startsWith(QLatin1String("apikey_")))
        table = QStringLiteral("api_keys");
    else
        return {};
    CachedQuery q = Database::execCached(QStringLiteral("SELECT name FROM %1 WHERE id = ?").arg(table), {actor});
    const QString name = q.next() ? q.value(0).toString() : QString();
    q.finish();
    return name;
}

namespace {
// Inside a write Transaction that may take the admin role away (a deactivation, a demotion): the
// user's row as it is now, locked until the commit. Two such changes run one after the other, so
// that the count of active admins each checks is the truth when it writes: two admins deactivating
// or demoting each other through two copies on PostgreSQL both saw two admins and left none. On
// PostgreSQL the rows of the user and of every active admin are locked (SELECT … FOR UPDATE, in the
// order of their ids, so that two such transactions never wait for each other crosswise), and then
// read again by a statement of their own, which sees what the other committed meanwhile; on SQLite
// BEGIN IMMEDIATE already admits one writer at a time.
std::optional<User> lockForRoleChange(const UserRepository &users, const QString &id)
{
    if (Database::dialect() == Database::Dialect::PostgreSQL)
        Database::exec(QStringLiteral("SELECT id FROM users WHERE id = ? OR (role = 'admin' AND deactivated_at IS "
                                      "NULL) ORDER BY id FOR UPDATE"),
                       {id});
    return users.find(id);
}

int activeAdmins()
{
    QSqlQuery admins =
        Database::exec(QStringLiteral("SELECT count(*) FROM users WHERE role = 'admin' AND deactivated_at IS NULL"));
    return admins.next() ? admins.value(0).toInt() : 0;
}
} // namespace

User UserRepository::setActive(const QString &id, bool active)
{
    Transaction tx;
    std::optional<User> u = active ? find(id) : lockForRoleChange(*this, id);
    if (!u)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "User"), id);
    if (!active && u->isActive() && u->role == QLatin1String("admin") && activeAdmins() <= 1)
        throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "The last active admin cannot be deactivated")));
    if (active == u->isActive())
        return *u;
    const QString now = m_store.nowIso();
    Database::exec(QStringLiteral("UPDATE users SET deactivated_at = ?, updated_at = ? WHERE id = ?"),
                   {active ? QVariant(QMetaType(QMetaType::QString)) : QVariant(now), now, id});
    // Their sessions (the API's refresh tokens, the window's) end with the deactivation: committed
    // together, so that no token outlives it when a later statement fails.
    if (!active)
        RefreshTokenRepository(m_store).revokeAllOf(id, m_store.now());
    tx.commit();
    m_store.notify(EventBus::Entity::User, id, EventBus::Change::Updated);
    u->deactivatedAt = active ? QString() : now;
    return *u;
}

namespace {
// A user's name: the same bound on create and update (POST /users took 5,000 characters that PATCH
// refused).
void checkNameLength(const QString &name)
{
    if (name.trimmed().size() > 200)
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: name is longer than 200 characters")),
            {{QStringLiteral("name"), ModelText(QT_TRANSLATE_NOOP("ModelError", "at most 200 characters"))}});
}
} // namespace

User UserRepository::update(const QString &id, const std::optional<QString> &name, const std::optional<QString> &role)
{
    if (name && name->trimmed().isEmpty())
        throw DomainError::invalid(QStringLiteral("name"),
                                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must not be empty")));
    if (name)
        checkNameLength(*name);
    if (role && *role != QLatin1String("admin") && *role != QLatin1String("agent"))
        throw DomainError::invalid(QStringLiteral("role"),
                                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be admin or agent")));
    Transaction tx;
    const bool demoting = role && *role != QLatin1String("admin");
    std::optional<User> u = demoting ? lockForRoleChange(*this, id) : find(id);
    if (!u)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "User"), id);
    if (demoting && u->role == QLatin1String("admin") && u->isActive() && activeAdmins() <= 1)
        throw DomainError(
            DomainError::Conflict, QStringLiteral("CONFLICT"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "The last active admin cannot become an agent")),
            {{QStringLiteral("role"), ModelText(QT_TRANSLATE_NOOP("ModelError", "the last active admin"))}});
    if (name)
        u->name = name->trimmed();
    if (role)
        u->role = *role;
    Database::exec(QStringLiteral("UPDATE users SET name = ?, role = ?, updated_at = ? WHERE id = ?"),
                   {u->name, u->role, m_store.nowIso(), id});
    tx.commit();
    m_store.notify(EventBus::Entity::User, id, EventBus::Change::Updated);
    return *u;
}

UserRepository::UserRepository(const Store &store)
    : m_store(store)
{
}

User UserRepository::create(const QString &email, const QString &name, const QString &role, const QString &passwordHash)
{
    FieldProblems missing;
    if (email.trimmed().isEmpty())
        missing.insert(QStringLiteral("email"), DomainError::isRequired());
    if (name.trimmed().isEmpty())
        missing.insert(QStringLiteral("name"), DomainError::isRequired());
    if (!missing.isEmpty())
        throw DomainError::unprocessable(ModelText(QT_TRANSLATE_NOOP("ModelError", "Required field missing")), missing);
    checkNameLength(name);
    if (!ContactRules::isValidEmail(email.trimmed()))
        throw DomainError::invalid(QStringLiteral("email"),
                                   ModelText(QT_TRANSLATE_NOOP("ModelError", "is not a valid e-mail address")));
    if (role != QLatin1String("admin") && role != QLatin1String("agent"))
        throw DomainError::invalid(QStringLiteral("role"),
                                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be admin or agent")));
    User u{Ids::make(u"user"), email.trimmed(), name.trimmed(), role, m_store.nowIso(), {}};
    const auto checkUnique = [&u] {
        if (Database::exec(QStringLiteral("SELECT 1 FROM users WHERE email_norm = ?"), {u.email.toLower()}).next())
            throw DomainError(
                DomainError::Conflict, QStringLiteral("CONFLICT"),
                ModelText(QT_TRANSLATE_NOOP("ModelError", "A user with e-mail %1 already exists"), {u.email}),
                {{QStringLiteral("email"), ModelText(QT_TRANSLATE_NOOP("ModelError", "already registered"))}});
    };
    return Database::refuseDuplicate(
        [&] {
            Transaction tx;
            checkUnique();
            Database::exec(QStringLiteral("INSERT INTO users (id, email, email_norm, name, role, password_hash, "
                                          "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
                           {u.id, u.email, u.email.toLower(), u.name, u.role, passwordHash, u.createdAt, u.createdAt});
            tx.commit();
            m_store.notify(EventBus::Entity::User, u.id, EventBus::Change::Created);
            return u;
        },
        checkUnique);
}

std::optional<User> UserRepository::findByEmail(const QString &email) const
{
    QSqlQuery q = Database::exec(kUserSelect + QStringLiteral(" WHERE email_norm = ?"), {email.trimmed().toLower()});
    if (!q.next())
        return std::nullopt;
    return userFromRow(q);
}

std::optional<User> UserRepository::firstAdmin() const
{
    QSqlQuery q = Database::exec(
        kUserSelect + QStringLiteral(" WHERE role = 'admin' AND deactivated_at IS NULL ORDER BY seq LIMIT 1"));
    if (!q.next())
        return std::nullopt;
    return userFromRow(q);
}

std::optional<User> UserRepository::find(const QString &id) const
{
    CachedQuery q = Database::execCached(kUserSelect + QStringLiteral(" WHERE id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    User u = userFromRow(q);
    q.finish();
    return u;
}

std::optional<QPair<User, QString>> UserRepository::findForLogin(const QString &email) const
{
    QSqlQuery q = Database::exec(
        QStringLiteral(
            "SELECT id, email, name, role, created_at, deactivated_at, password_hash FROM users WHERE email_norm = ?"),
        {email.trimmed().toLower()});
    if (!q.next())
        return std::nullopt;
    return qMakePair(userFromRow(q), q.value(6).toString());
}

QVector<User> UserRepository::list() const
{
    QVector<User> out;
    QSqlQuery q = Database::exec(kUserSelect + QStringLiteral(" ORDER BY seq"));
    while (q.next())
        out.append(userFromRow(q));
    return out;
}

std::optional<User> UserRepository::checkCredentials(const QString &email, const QString &password) const
{
    const auto found = findForLogin(email);
    static const QString dummy = PasswordHasher::hash(QStringLiteral("dummy"));
    const bool ok = PasswordHasher::verify(password, found ? found->second : dummy) && found && found->first.isActive();
    return ok ? std::optional<User>(found->first) : std::nullopt;
}

void UserRepository::setPassword(const QString &id, const QString &password, int iterations)
{
    const QString hash = PasswordHasher::hash(password, iterations); // slow on purpose: before the transaction
    Transaction tx;
    if (Database::exec(QStringLiteral("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?"),
                       {hash, m_store.nowIso(), id})
            .numRowsAffected() != 1)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "User"), id);
    RefreshTokenRepository(m_store).revokeAllOf(id, m_store.now());
    tx.commit();
}

RefreshTokenRepository::RefreshTokenRepository(const Store &store)
    : m_store(store)
{
}

QString RefreshTokenRepository::issue(const QString &userId, const QDateTime &expiresAt, const QString &familyId)
{
    const QString token =
        QLatin1String("lr_") +
        QString::fromLatin1(randomBytes(32).toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    store(userId, token, expiresAt, familyId);
    return token;
}

void RefreshTokenRepository::store(const QString &userId, const QString &token, const QDateTime &expiresAt,
                                   const QString &familyId)
{
    const QString id = Ids::make(u"rtok");
    Database::exec(
        QStringLiteral("INSERT INTO refresh_tokens (id, user_id, token_hash, created_at, expires_at, "
                       "family_id) VALUES (?, ?, ?, ?, ?, ?)"),
        {id, userId, tokenHash(token), m_store.nowIso(), TimeUtil::iso(expiresAt), familyId.isEmpty() ? id : familyId});
}

std::optional<RefreshTokenRepository::Consumed> RefreshTokenRepository::consume(const QString &token,
                                                                                const QDateTime &now)
{
    Transaction tx;
    QSqlQuery q = Database::exec(QStringLiteral("SELECT id, user_id, expires_at, revoked_at, "
                                                "COALESCE(family_id, id) FROM refresh_tokens WHERE token_hash = ?"),
                                 {tokenHash(token)});
    if (!q.next())
        return std::nullopt;
    const QString id = q.value(0).toString();
    const Consumed found{q.value(1).toString(), q.value(4).toString()};
    const bool expired = q.value(2).toString() <= TimeUtil::iso(now);
    const bool retired = !q.value(3).isNull();
    q.finish();
    if (retired) {
        // Reuse: whoever holds the newer tokens of this family may be a thief; end them all.
        revokeFamilyOf(found.familyId, now);
        tx.commit();
        return std::nullopt;
    }
    if (expired)
        return std::nullopt;
    // Retired only if no one else retired it since it was read: of two refreshes with one token at
    // once (two copies on PostgreSQL, where both read it live), the second waits for the first's row
    // lock, changes no row, and is the reuse it is.
    if (Database::exec(QStringLiteral("UPDATE refresh_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL"),
                       {TimeUtil::iso(now), id})
            .numRowsAffected() != 1) {
        revokeFamilyOf(found.familyId, now);
        tx.commit();
        return std::nullopt;
    }
    tx.commit();
    return found;
}

void RefreshTokenRepository::revokeFamilyOf(const QString &familyId, const QDateTime &now)
{
    Database::exec(QStringLiteral("UPDATE refresh_tokens SET revoked_at = ? "
                                  "WHERE revoked_at IS NULL AND COALESCE(family_id, id) = ?"),
                   {TimeUtil::iso(now), familyId});
}

bool RefreshTokenRepository::revokeFamily(const QString &token, const QDateTime &now)
{
    Transaction tx;
    QSqlQuery q = Database::exec(
        QStringLiteral("SELECT COALESCE(family_id, id) FROM refresh_tokens WHERE token_hash = ?"), {tokenHash(token)});
    if (!q.next())
        return false;
    const QString family = q.value(0).toString();
    q.finish();
    Database::exec(QStringLiteral("UPDATE refresh_tokens SET revoked_at = ? WHERE revoked_at IS NULL AND "
                                  "COALESCE(family_id, id) = ?"),
                   {TimeUtil::iso(now), family});
    tx.commit();
    return true;
}

bool RefreshTokenRepository::isLive(const QString &token, const QDateTime &now) const
{
    CachedQuery q = Database::execCached(QStringLiteral("SELECT 1 FROM refresh_tokens WHERE token_hash = ? AND "
                                                        "revoked_at IS NULL AND expires_at > ?"),
                                         {tokenHash(token), TimeUtil::iso(now)});
    const bool live = q.next();
    q.finish();
    return live;
}

int RefreshTokenRepository::revokeAllOf(const QString &userId, const QDateTime &now)
{
    QSqlQuery q = Database::exec(
        QStringLiteral("UPDATE refresh_tokens SET revoked_at = ? WHERE revoked_at IS NULL AND user_id = ?"),
        {TimeUtil::iso(now), userId});
    return q.numRowsAffected();
}

void RefreshTokenRepository::purgeExpired(const QDateTime &now)
{
    Database::exec(QStringLiteral("DELETE FROM refresh_tokens WHERE expires_at < ?"), {TimeUtil::iso(now)});
}
