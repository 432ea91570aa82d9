#pragma once

#include "server/controllers/controller.h"

#include "model/accounts/userrepository.h"

class LoginThrottle;

// /api/v1/users: the people who sign in. An admin lists, adds, changes and deactivates users;
// everyone reads and renames themselves (/users/me, or their own id) and changes their own
// password. Deactivating (DELETE) keeps the user's records and refuses their tokens and API keys at
// once. /auth/logout ends the login a refresh token belongs to. User routes take a user token
// (JWT) only: an API key never manages people.
class UsersController final : public Controller
{
public:
    // logins: the throttle of password checks, shared with POST /auth/login.
    UsersController(const Store &store, RefreshTokenRepository &refreshTokens, LoginThrottle &logins);
    void registerRoutes(Router &router) override;

    static constexpr int kMinPasswordLength = 8;

private:
    ApiResponse me(ApiRequest &request);
    ApiResponse list(ApiRequest &request);
    ApiResponse create(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse update(ApiRequest &request);
    ApiResponse deactivate(ApiRequest &request);
    ApiResponse changePassword(ApiRequest &request);
    ApiResponse logout(ApiRequest &request);

    // The user of :id when the caller may see it (an admin, or the user themselves); 404 otherwise.
    User visible(ApiRequest &request);

    Store m_store;
    UserRepository m_users;
    RefreshTokenRepository &m_refreshTokens;
    LoginThrottle &m_logins;
};
