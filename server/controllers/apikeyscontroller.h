#pragma once

#include "server/controllers/controller.h"

#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"

// /api/v1/api-keys: each user lists, makes and revokes their own API keys, an admin anyone's. A
// key belongs to the user who made it (or the one an admin names) and acts with that user's role;
// its scopes stay within the role. These routes take a user token (JWT) only: a key never makes
// keys.
class ApiKeysController final : public Controller
{
public:
    explicit ApiKeysController(const Store &store);
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    ApiResponse list(ApiRequest &request);
    ApiResponse create(ApiRequest &request);
    ApiResponse remove(ApiRequest &request);

    ApiKeyRepository m_keys;
    UserRepository m_users;
};
