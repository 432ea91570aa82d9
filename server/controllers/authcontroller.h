#pragma once

#include "model/accounts/userrepository.h"
#include "server/controllers/controller.h"

#include <optional>

class Clock;
class Jwt;
class LoginThrottle;
class RefreshTokenRepository;

// /api/v1/auth/login and /api/v1/auth/refresh: JWT access tokens and rotating refresh tokens.
class AuthController final : public Controller
{
public:
    AuthController(UserRepository &users, RefreshTokenRepository &refreshTokens, const Jwt &jwt, LoginThrottle &logins,
                   int accessTokenMinutes, int refreshTokenDays, const Clock &clock);
    void registerRoutes(Router &router) override;

    // The 429 of a password check the throttle refused: TOO_MANY_REQUESTS with Retry-After.
    [[noreturn]] static void throwThrottled(int retryAfterSeconds);

private:
    ApiResponse login(ApiRequest &request);
    ApiResponse refresh(ApiRequest &request);
    // An access token and a refresh token for the user; familyId: the refresh token's family (empty
    // at login: a new family).
    ApiResponse tokens(const QString &userId, const QString &familyId = {});

    UserRepository &m_users;
    RefreshTokenRepository &m_refreshTokens;
    const Jwt &m_jwt;
    LoginThrottle &m_logins;
    int m_accessMinutes;
    int m_refreshDays;
    const Clock &m_clock;
};
