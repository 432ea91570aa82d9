#pragma once

#include "model/accounts/passwordhasher.h"
#include "model/core/store.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVector>

#include <optional>

struct User
{
    QString id;
    QString email;
    QString name;
    QString role; // "admin" or "agent"
    QString createdAt;
    QString deactivatedAt; // empty while the user may sign in

    bool isActive() const { return deactivatedAt.isEmpty(); }
    QJsonObject toJson() const;
};

// People who sign in (the window, JWT logins), and the rules of their accounts: the credential check
// (checkCredentials), a new password (setPassword: hashed with PasswordHasher, the user's refresh
// tokens ended with it) and a deactivation (setActive: the tokens ended in the same transaction).
// The API, the window and the command line all go through these.
class UserRepository
{
public:
    explicit UserRepository(const Store &store);

    // passwordHash: PasswordHasher::hash of the password. Throws DomainError: Unprocessable without
    // e-mail/name, BadRequest for a malformed e-mail or unknown role, Conflict on a duplicate e-mail
    // (case-insensitive).
    User create(const QString &email, const QString &name, const QString &role, const QString &passwordHash);
    std::optional<User> find(const QString &id) const;
    // The user with this e-mail (case-insensitive), active or not.
    std::optional<User> findByEmail(const QString &email) const;
    // The earliest active admin: who owns keys made without a named owner (the command line, the
    // window before sign-in).
    std::optional<User> firstAdmin() const;
    // The name to show for an actor id: a user's name (user_…) or an API key's (apikey_…); empty
    // when the id names neither, or no longer exists.
    static QString actorName(const QString &actorId);
    // The user with this e-mail and its stored password hash.
    std::optional<QPair<User, QString>> findForLogin(const QString &email) const;
    // The active user with this e-mail and password, else nullopt: the check of the API's login, of
    // the current password before a change, and of the window's sign-in. A missing user still costs
    // a hash, so that timing does not tell which e-mails exist; a deactivated user gets the same
    // answer as a wrong password.
    std::optional<User> checkCredentials(const QString &email, const QString &password) const;
    QVector<User> list() const;
    // A new password, hashed here (iterations: PasswordHasher's; a test may pass fewer): in the same
    // transaction every refresh token of the user ends, so that each session signs in again with it
    // (a caller keeping one session issues it anew). Throws NotFound.
    void setPassword(const QString &id, const QString &password, int iterations = PasswordHasher::kDefaultIterations);
    // Deactivates (active false) or reactivates a user. A deactivated user cannot sign in, and their
    // access tokens, refresh tokens and API keys are refused; their records stay. A deactivation ends
    // every refresh token of the user in its transaction (both commit, or neither). Throws NotFound;
    // deactivating the last active admin is refused (Conflict), so that someone can still configure.
    User setActive(const QString &id, bool active);
    // Renames a user and/or changes their role (nullopt: unchanged). Throws NotFound, BadRequest for an
    // empty name or an unknown role, Conflict when it would leave no active admin.
    User update(const QString &id, const std::optional<QString> &name, const std::optional<QString> &role);

private:
    Store m_store;
};

// Refresh tokens: stored as SHA-256 hashes; each is used once (rotation). The tokens descended from
// one login form a family: presenting a retired token again (a stolen copy, or the thief's use that
// retired it) revokes the whole family, as OAuth 2.0's security best practice asks, so that neither
// the thief nor the user can go on refreshing; the user signs in again.
class RefreshTokenRepository
{
public:
    explicit RefreshTokenRepository(const Store &store);

    struct Consumed
    {
        QString userId;
        QString familyId;
    };
    // A new token ("lr_" and 32 random bytes, base64url) stored for the user until expiresAt, and
    // returned; familyId empty starts a new family (a login), else the token joins it (a refresh).
    QString issue(const QString &userId, const QDateTime &expiresAt, const QString &familyId = {});
    // Stores a token; familyId empty starts a new family (a login), else the token joins it (a refresh).
    void store(const QString &userId, const QString &token, const QDateTime &expiresAt, const QString &familyId = {});
    // Retires the token and returns its user and family when it exists, is not retired and has not
    // expired. A token presented a second time is refused and revokes its family, also when the two
    // come at once (through two copies on PostgreSQL): exactly one of them retires it. Run it in one
    // write Transaction with the store() of the new token, and commit that transaction also when it
    // refused (the revocation is kept), so that a revocation caused by a second presentation ends
    // the token the first one is given.
    std::optional<Consumed> consume(const QString &token, const QDateTime &now);
    // Whether the token exists, is not retired and has not expired (a session's check that it was
    // not ended elsewhere; it does not use the token up).
    bool isLive(const QString &token, const QDateTime &now) const;
    // Sign-out: ends the family of this token (the login it came from, and every token refreshed
    // from it); false when the token is unknown.
    bool revokeFamily(const QString &token, const QDateTime &now);
    // Ends every refresh token of a user (UserRepository::setPassword and setActive call it in their
    // transactions).
    int revokeAllOf(const QString &userId, const QDateTime &now);
    void purgeExpired(const QDateTime &now);

private:
    void revokeFamilyOf(const QString &familyId, const QDateTime &now);
    Store m_store;
};
