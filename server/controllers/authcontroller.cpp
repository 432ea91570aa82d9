#include "server/controllers/authcontroller.h"

#include "model/accounts/userrepository.h"
#include "model/core/database.h"
#include "model/core/fieldreader.h"
#include "model/core/timeutil.h"
#include "server/api/crypto.h"
#include "server/api/loginthrottle.h"
#include "server/api/schemas.h"

using namespace Schema;

AuthController::AuthController(UserRepository &users, RefreshTokenRepository &refreshTokens, const Jwt &jwt,
                               LoginThrottle &logins, int accessTokenMinutes, int refreshTokenDays, const Clock &clock)
    : m_users(users)
    , m_refreshTokens(refreshTokens)
    , m_jwt(jwt)
    , m_logins(logins)
    , m_accessMinutes(qBound(15, accessTokenMinutes, 60))
    , m_refreshDays(qMax(1, refreshTokenDays))
    , m_clock(clock)
{
}

void AuthController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Authentication");
    const QJsonObject tokenPair = envelope(object({{QStringLiteral("accessToken"), string()},
                                                   {QStringLiteral("refreshToken"), string()},
                                                   {QStringLiteral("tokenType"), string()},
                                                   {QStringLiteral("expiresIn"), integer(1)},
                                                   {QStringLiteral("user"), ref(QStringLiteral("User"))}}));
    // POST /api/v1/auth/login
    router.add(
        "POST", QStringLiteral("/api/v1/auth/login"), "login", [this](ApiRequest &r) { return login(r); },
        Access::publicRoute(),
        {tag,
         QStringLiteral("Sign in with e-mail and password"),
         object({{QStringLiteral("email"), string(QStringLiteral("email"))}, {QStringLiteral("password"), string()}},
                {QStringLiteral("email"), QStringLiteral("password")}),
         tokenPair,
         {},
         {400, 401, 422, 429}});
    // POST /api/v1/auth/refresh
    router.add("POST", QStringLiteral("/api/v1/auth/refresh"), "refreshToken",
               [this](ApiRequest &r) { return refresh(r); }, Access::publicRoute(),
               {tag,
                QStringLiteral("Exchange a refresh token for a new pair (the old one is retired)"),
                object({{QStringLiteral("refreshToken"), string()}}, {QStringLiteral("refreshToken")}),
                tokenPair,
                {},
                {400, 401, 422, 429}});
}

ApiResponse AuthController::tokens(const QString &userId, const QString &familyId)
{
    const std::optional<User> user = m_users.find(userId);
    if (!user || !user->isActive())
        throw DomainError(DomainError::Unauthorized, QStringLiteral("UNAUTHORIZED"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "User no longer exists or was deactivated")));
    const QDateTime now = m_clock.now();
    const qint64 expiresIn = qint64(m_accessMinutes) * 60;
    const QString access = m_jwt.sign({{QStringLiteral("sub"), user->id},
                                       {QStringLiteral("name"), user->name},
                                       {QStringLiteral("email"), user->email},
                                       {QStringLiteral("role"), user->role},
                                       {QStringLiteral("iat"), double(now.toSecsSinceEpoch())},
                                       {QStringLiteral("exp"), double(now.toSecsSinceEpoch() + expiresIn)},
                                       {QStringLiteral("iss"), QLatin1String(Jwt::kIssuer)},
                                       {QStringLiteral("aud"), QLatin1String(Jwt::kAudience)}});
    const QString refreshToken = m_refreshTokens.issue(user->id, now.addDays(m_refreshDays), familyId);
    return ApiResponse::ok(QJsonObject{{QStringLiteral("accessToken"), access},
                                       {QStringLiteral("refreshToken"), refreshToken},
                                       {QStringLiteral("tokenType"), QStringLiteral("Bearer")},
                                       {QStringLiteral("expiresIn"), double(expiresIn)},
                                       {QStringLiteral("user"), user->toJson()}});
}

ApiResponse AuthController::login(ApiRequest &request)
{
    const FieldReader reader(request.body);
    const QString email = reader.requiredString(QStringLiteral("email"));
    const QString password = reader.requiredString(QStringLiteral("password"));
    const QDateTime now = m_clock.now();
    // The attempt is counted before the password is checked and given back when it was right: the
    // check takes a while, and attempts in parallel (several server threads) must not all pass a
    // count that none of them has raised yet.
    const LoginThrottle::Attempt attempt = m_logins.begin(email, request.http.peerAddress, now);
    if (!attempt.allowed)
        throwThrottled(attempt.retryAfterSeconds);
    const std::optional<User> user = m_users.checkCredentials(email, password);
    if (!user)
        throw DomainError(DomainError::Unauthorized, QStringLiteral("INVALID_CREDENTIALS"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "E-mail or password is wrong")));
    m_logins.succeeded(attempt, now);
    return tokens(user->id);
}

void AuthController::throwThrottled(int retryAfterSeconds)
{
    throw DomainError(DomainError::RateLimited, QStringLiteral("TOO_MANY_REQUESTS"),
                      ModelText(QT_TRANSLATE_NOOP("ModelError", "Too many failed password checks; try again in %1 s"),
                                {retryAfterSeconds}),
                      QJsonObject{{QStringLiteral("retryAfter"), retryAfterSeconds}});
}

ApiResponse AuthController::refresh(ApiRequest &request)
{
    const QString token = FieldReader(request.body).requiredString(QStringLiteral("refreshToken"));
    // The old token retired and the new one stored in one transaction: a second presentation of the
    // old token (reuse, through another copy at the same moment) then finds the new one to revoke
    // with its family.
    Transaction tx;
    const std::optional<RefreshTokenRepository::Consumed> consumed = m_refreshTokens.consume(token, m_clock.now());
    if (!consumed) {
        tx.commit(); // a revocation the reuse caused is kept
        throw DomainError(DomainError::Unauthorized, QStringLiteral("INVALID_TOKEN"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Refresh token is invalid, used or expired")));
    }
    ApiResponse answer = tokens(consumed->userId, consumed->familyId);
    tx.commit();
    return answer;
}
