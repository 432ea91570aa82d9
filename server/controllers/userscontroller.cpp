#include "server/controllers/userscontroller.h"

#include "model/accounts/passwordhasher.h"
#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "server/api/loginthrottle.h"
#include "server/api/schemas.h"
#include "server/controllers/authcontroller.h"

#include <QJsonArray>

using namespace Schema;

namespace {
QString password(const FieldReader &reader, const QString &field)
{
    const QString value = reader.requiredString(field);
    if (value.size() < UsersController::kMinPasswordLength || value.size() > 1024)
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: %1 must have %2 to 1024 characters"),
                      {ModelTextArg::field(field), UsersController::kMinPasswordLength}),
            {{field, ModelText(QT_TRANSLATE_NOOP("ModelError", "%1 to 1024 characters"),
                               {UsersController::kMinPasswordLength})}});
    return value;
}
} // namespace

UsersController::UsersController(const Store &store, RefreshTokenRepository &refreshTokens, LoginThrottle &logins)
    : m_store(store)
    , m_users(store)
    , m_refreshTokens(refreshTokens)
    , m_logins(logins)
{
}

void UsersController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Users");
    const auto bind = Router::binder(this);
    const QJsonObject user = envelope(ref(QStringLiteral("User")));
    const Access adminOnly{Access::UserOnly, {}, true};
    // GET /api/v1/users/me
    router.add("GET", QStringLiteral("/api/v1/users/me"), "getCurrentUser", bind(&UsersController::me),
               Access::userOnly(), {tag, QStringLiteral("The signed-in user"), {}, user, {}, {401, 403, 429}});
    // POST /api/v1/users/me/password
    router.add("POST", QStringLiteral("/api/v1/users/me/password"), "changePassword",
               bind(&UsersController::changePassword), Access::userOnly(),
               {tag,
                QStringLiteral("Change your password (your other sessions are signed out)"),
                object({{QStringLiteral("currentPassword"), string()}, {QStringLiteral("newPassword"), string()}},
                       {QStringLiteral("currentPassword"), QStringLiteral("newPassword")}),
                user,
                {},
                {400, 401, 403, 422, 429}});
    // GET /api/v1/users
    router.add("GET", QStringLiteral("/api/v1/users"), "listUsers", bind(&UsersController::list), adminOnly,
               {tag,
                QStringLiteral("Every user, deactivated ones too (admin)"),
                {},
                envelope(array(ref(QStringLiteral("User")))),
                {},
                {401, 403, 429}});
    // POST /api/v1/users
    router.add("POST", QStringLiteral("/api/v1/users"), "createUser", bind(&UsersController::create), adminOnly,
               {tag,
                QStringLiteral("Add a user (admin)"),
                object({{QStringLiteral("email"), string(QStringLiteral("email"))},
                        {QStringLiteral("name"), string()},
                        {QStringLiteral("role"), string()},
                        {QStringLiteral("password"), string()}},
                       {QStringLiteral("email"), QStringLiteral("name"), QStringLiteral("password")}),
                user,
                {},
                {400, 401, 403, 409, 422, 429},
                201});
    // GET /api/v1/users/:id
    router.add("GET", QStringLiteral("/api/v1/users/:id"), "getUser", bind(&UsersController::get), Access::userOnly(),
               {tag, QStringLiteral("One user (admin, or yourself)"), {}, user, {}, {401, 403, 404, 429}});
    // PATCH /api/v1/users/:id
    router.add("PATCH", QStringLiteral("/api/v1/users/:id"), "updateUser", bind(&UsersController::update),
               Access::userOnly(),
               {tag,
                QStringLiteral("Change a user's name, role or active state (admin; yourself: your name)"),
                object({{QStringLiteral("name"), string()},
                        {QStringLiteral("role"), string()},
                        {QStringLiteral("active"), boolean()}}),
                user,
                {},
                {400, 401, 403, 404, 409, 429}});
    // DELETE /api/v1/users/:id
    router.add("DELETE", QStringLiteral("/api/v1/users/:id"), "deactivateUser", bind(&UsersController::deactivate),
               adminOnly,
               {tag,
                QStringLiteral("Deactivate a user (admin): their records stay; their tokens and API keys stop working"),
                {},
                user,
                {},
                {401, 403, 404, 409, 429}});
    // POST /api/v1/auth/logout
    router.add("POST", QStringLiteral("/api/v1/auth/logout"), "logout", bind(&UsersController::logout),
               Access::publicRoute(),
               {QStringLiteral("Authentication"),
                QStringLiteral("Sign out: ends the refresh token's login (every token refreshed from it)"),
                object({{QStringLiteral("refreshToken"), string()}}, {QStringLiteral("refreshToken")}),
                envelope(object({{QStringLiteral("signedOut"), boolean()}})),
                {},
                {400, 422, 429}});
}

User UsersController::visible(ApiRequest &request)
{
    const QString id = request.param(QStringLiteral("id"));
    const Principal &me = request.principal;
    const std::optional<User> u = m_users.find(id);
    // An agent learns nothing of other users' ids: 404 as for an unknown one.
    if (!u || (!me.isAdmin() && u->id != me.id))
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "User"), id);
    return *u;
}

ApiResponse UsersController::me(ApiRequest &request)
{
    const std::optional<User> u = m_users.find(request.principal.id);
    if (!u)
        throw DomainError(DomainError::Unauthorized, QStringLiteral("UNAUTHORIZED"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "User no longer exists")));
    return ApiResponse::ok(u->toJson());
}

ApiResponse UsersController::list(ApiRequest &)
{
    QJsonArray items;
    for (const User &u : m_users.list())
        items.append(u.toJson());
    return ApiResponse::ok(items);
}

ApiResponse UsersController::create(ApiRequest &request)
{
    const FieldReader reader(request.body);
    const QString email = reader.requiredString(QStringLiteral("email"));
    const QString name = reader.requiredString(QStringLiteral("name"));
    const QString role = reader.presentString(QStringLiteral("role")).value_or(QStringLiteral("agent"));
    const QString secret = password(reader, QStringLiteral("password"));
    const User u = m_users.create(email, name, role, PasswordHasher::hash(secret));
    return ApiResponse::created(u.toJson(), QStringLiteral("User created"));
}

ApiResponse UsersController::get(ApiRequest &request)
{
    return ApiResponse::ok(visible(request).toJson());
}

ApiResponse UsersController::update(ApiRequest &request)
{
    const User target = visible(request);
    const FieldReader reader(request.body);
    const std::optional<QString> name = reader.presentString(QStringLiteral("name"));
    const std::optional<QString> role = reader.presentString(QStringLiteral("role"));
    const std::optional<bool> active = reader.optionalBool(QStringLiteral("active"));
    if ((role || active) && !request.principal.isAdmin())
        throw DomainError(DomainError::Forbidden, QStringLiteral("FORBIDDEN"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Only an admin changes roles and access")));
    User u = target;
    if (name || role)
        u = m_users.update(target.id, name, role);
    if (active && *active != u.isActive())
        u = m_users.setActive(target.id, *active); // a deactivation ends their refresh tokens
    return ApiResponse::ok(u.toJson());
}

ApiResponse UsersController::deactivate(ApiRequest &request)
{
    const User target = visible(request);
    const User u = m_users.setActive(target.id, false); // their refresh tokens end with it
    return ApiResponse::ok(u.toJson(), QStringLiteral("User deactivated: their tokens and API keys no longer work"));
}

ApiResponse UsersController::changePassword(ApiRequest &request)
{
    const FieldReader reader(request.body);
    const QString current = reader.requiredString(QStringLiteral("currentPassword"));
    const QString next = password(reader, QStringLiteral("newPassword"));
    const std::optional<User> u = m_users.find(request.principal.id);
    // A guess of the current password (with a stolen token) is a password guess: the login's
    // throttle, on the same counts.
    const QDateTime now = m_store.now();
    const LoginThrottle::Attempt attempt =
        m_logins.begin(u ? u->email : request.principal.id, request.http.peerAddress, now);
    if (!attempt.allowed)
        AuthController::throwThrottled(attempt.retryAfterSeconds);
    if (!u || !m_users.checkCredentials(u->email, current))
        throw DomainError(DomainError::Unauthorized, QStringLiteral("INVALID_CREDENTIALS"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "The current password is wrong")));
    m_logins.succeeded(attempt, now);
    m_users.setPassword(u->id, next);
    return ApiResponse::ok(u->toJson(), QStringLiteral("Password changed: your other sessions are signed out"));
}

ApiResponse UsersController::logout(ApiRequest &request)
{
    const QString token = FieldReader(request.body).requiredString(QStringLiteral("refreshToken"));
    // Signing out twice, or with a token already ended, is still signed out.
    m_refreshTokens.revokeFamily(token, m_store.now());
    return ApiResponse::ok(QJsonObject{{QStringLiteral("signedOut"), true}});
}
