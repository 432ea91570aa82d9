#include "server/controllers/apikeyscontroller.h"

#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "server/api/queryreader.h"
#include "server/api/schemas.h"

#include <QJsonArray>

using namespace Schema;

ApiKeysController::ApiKeysController(const Store &store)
    : m_keys(store)
    , m_users(store)
{
}

void ApiKeysController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("API keys");
    const auto bind = Router::binder(this);
    const QJsonObject key = ref(QStringLiteral("ApiKey"));
    // GET /api/v1/api-keys
    router.add("GET", QStringLiteral("/api/v1/api-keys"), "listApiKeys", bind(&ApiKeysController::list),
               Access::userOnly(),
               {tag,
                QStringLiteral("The caller's API keys (an admin: every key; ?userId= one user's)"),
                {},
                envelope(array(key)),
                {{QStringLiteral("userId"), string()}},
                {401, 403, 429}});
    // POST /api/v1/api-keys
    router.add("POST", QStringLiteral("/api/v1/api-keys"), "createApiKey", bind(&ApiKeysController::create),
               Access::userOnly(),
               {tag,
                QStringLiteral("Make an API key (the secret is in the answer once)"),
                object({{QStringLiteral("name"), string()},
                        {QStringLiteral("scopes"), array(string())},
                        {QStringLiteral("userId"), string()}},
                       {QStringLiteral("name")}),
                envelope(key),
                {},
                {400, 401, 403, 404, 422, 429},
                201});
    // DELETE /api/v1/api-keys/:id
    router.add("DELETE", QStringLiteral("/api/v1/api-keys/:id"), "revokeApiKey", bind(&ApiKeysController::remove),
               Access::userOnly(),
               {tag, QStringLiteral("Revoke an API key"), {}, envelope(key), {}, {401, 403, 404, 429}});
}

QJsonObject ApiKeysController::schemas() const
{
    return {{QStringLiteral("ApiKey"), object({{QStringLiteral("id"), string()},
                                               {QStringLiteral("name"), string()},
                                               {QStringLiteral("prefix"), string()},
                                               {QStringLiteral("scopes"), array(string())},
                                               {QStringLiteral("createdBy"), string()},
                                               {QStringLiteral("role"), string()},
                                               {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
                                               {QStringLiteral("lastUsedAt"), string(QStringLiteral("date-time"))},
                                               {QStringLiteral("revokedAt"), string(QStringLiteral("date-time"))},
                                               {QStringLiteral("active"), boolean()},
                                               {QStringLiteral("key"), string()}})}};
}

ApiResponse ApiKeysController::list(ApiRequest &request)
{
    const Principal &me = request.principal;
    QString owner = QueryReader(request).text(QStringLiteral("userId"));
    if (!me.isAdmin()) {
        if (!owner.isEmpty() && owner != me.id)
            throw DomainError(DomainError::Forbidden, QStringLiteral("FORBIDDEN"),
                              ModelText(QT_TRANSLATE_NOOP("ModelError", "An agent sees only their own API keys")));
        owner = me.id;
    }
    ApiKeyRepository &keys = m_keys;
    QJsonArray items;
    for (const ApiKey &k : owner.isEmpty() ? keys.list() : keys.listOwnedBy(owner))
        items.append(k.toJson());
    return ApiResponse::ok(items);
}

ApiResponse ApiKeysController::create(ApiRequest &request)
{
    const Principal &me = request.principal;
    const FieldReader reader(request.body);
    const QString name = reader.presentString(QStringLiteral("name")).value_or(QString());
    const QStringList scopes = reader.optionalStringArray(QStringLiteral("scopes"));
    // An admin may make a key for another user; everyone else for themselves.
    QString owner = me.id;
    if (reader.given(QStringLiteral("userId"))) {
        const QString userId = reader.optionalString(QStringLiteral("userId"));
        if (userId != me.id && !me.isAdmin())
            throw DomainError(
                DomainError::Forbidden, QStringLiteral("FORBIDDEN"),
                ModelText(QT_TRANSLATE_NOOP("ModelError", "Only an admin makes API keys for other users")));
        owner = userId;
    }
    const NewApiKey made = m_keys.create(name, scopes, owner);
    QJsonObject data = made.key.toJson();
    data.insert(QStringLiteral("key"), made.secret);
    return ApiResponse::created(data, QStringLiteral("API key created: store the key now, it is not shown again"));
}

ApiResponse ApiKeysController::remove(ApiRequest &request)
{
    const Principal &me = request.principal;
    const QString id = request.param(QStringLiteral("id"));
    ApiKeyRepository &keys = m_keys;
    const std::optional<ApiKey> key = keys.find(id);
    // Another user's key is not there for an agent (no hint that it exists).
    if (!key || (!me.isAdmin() && key->createdBy != me.id))
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "API key"), id);
    keys.revoke(id);
    return ApiResponse::ok(keys.find(id)->toJson(), QStringLiteral("API key revoked"));
}
