#pragma once

#include "model/core/store.h"

#include <QJsonObject>
#include <QStringList>
#include <QVector>

#include <optional>

struct ApiKey
{
    QString id; // apikey_…
    QString name;
    QString prefix; // the first characters of the key, to recognise it in lists
    QStringList scopes;
    QString createdBy; // the owning user (user_…); empty: a key of the machine's owner (made before owners)
    QString ownerRole; // the owner's role now ("admin", "agent"); empty when the key has no owner
    QString createdAt;
    QString lastUsedAt;
    QString revokedAt;

    bool isRevoked() const { return !revokedAt.isEmpty(); }
    // The role the key acts with: its owner's; a key without an owner acts as an admin.
    QString role() const { return createdBy.isEmpty() ? QStringLiteral("admin") : ownerRole; }
    // True when the key grants scope ("contacts:read"): an exact scope, "<area>:*" or "*".
    // A "<area>:write" scope also grants "<area>:read".
    bool allows(const QString &scope) const { return grants(scopes, scope); }
    static bool grants(const QStringList &scopes, const QString &scope);
    QJsonObject toJson() const;
};

struct NewApiKey
{
    ApiKey key;
    QString secret; // "lk_…": shown once, stored only as a SHA-256 hash
};

// API keys for local tools. The key itself has 256 random bits, so a plain SHA-256 of it is a safe
// stored form (no slow KDF needed, unlike passwords) and lets authentication be one indexed look-up.
class ApiKeyRepository
{
public:
    explicit ApiKeyRepository(const Store &store);
    // The store it reads and writes (for the related repositories of a view built with this one).
    const Store &store() const { return m_store; }

    // Throws DomainError (Unprocessable without a name, BadRequest for an unknown scope, NotFound for an unknown owner,
    // Forbidden for a scope beyond the owner's role: an agent's key never reaches the admin-only areas). No scopes
    // given: ["*"] for an admin (or no owner), every area but the admin-only ones for an agent. No owner named: the
    // store's acting user (the window's signed-in user), else none.
    NewApiKey create(const QString &name, const QStringList &scopes, const QString &owner = {});
    QVector<ApiKey> list() const; // newest first, revoked ones included
    // The keys of one owner, newest first.
    QVector<ApiKey> listOwnedBy(const QString &userId) const;
    std::optional<ApiKey> find(const QString &id) const;
    // Throws NotFound for an unknown id; revoking twice is harmless.
    void revoke(const QString &id);
    // The key a bearer secret belongs to, when it exists and is not revoked.
    std::optional<ApiKey> authenticate(const QString &secret) const;
    // Records that the key was used now (callers throttle this: it is a write).
    void touch(const QString &id);

    // Every scope name a key may carry: "*", "<area>:read", "<area>:write", "<area>:*".
    static QStringList knownScopes();
    // The areas only an admin works in (their routes are configuration): "webhooks", "settings".
    static QStringList adminAreas();
    // Whether a key of an owner with `role` may carry `scope`.
    static bool scopeFitsRole(const QString &scope, const QString &role);

private:
    Store m_store;
};
