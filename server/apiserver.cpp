#include "server/apiserver.h"

#include "messaging/channels/channelconnector.h"
#include "messaging/channels/channelregistry.h"
#include "messaging/media/mediaservice.h"
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/signingkeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/assistant/knowledgeindex.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/idempotencystore.h"
#include "model/core/ids.h"
#include "server/api/crypto.h"
#include "server/api/errorstatus.h"
#include "server/api/importrunner.h"
#include "server/api/multipart.h"
#include "server/api/openapi.h"
#include "server/api/schemas.h"
#include "server/controllers/aicontroller.h"
#include "server/controllers/apikeyscontroller.h"
#include "server/controllers/authcontroller.h"
#include "server/controllers/campaignscontroller.h"
#include "server/controllers/campaigntrackingcontroller.h"
#include "server/controllers/contactscontroller.h"
#include "server/controllers/conversationscontroller.h"
#include "server/controllers/dealscontroller.h"
#include "server/controllers/importscontroller.h"
#include "server/controllers/mediacontroller.h"
#include "server/controllers/messagescontroller.h"
#include "server/controllers/metawebhookscontroller.h"
#include "server/controllers/segmentscontroller.h"
#include "server/controllers/smsstatuscontroller.h"
#include "server/controllers/taskscontroller.h"
#include "server/controllers/telegramwebhookcontroller.h"
#include "server/controllers/templatescontroller.h"
#include "server/controllers/userscontroller.h"
#include "server/controllers/webhookscontroller.h"
#include "server/controllers/widgetcontroller.h"
#include "server/http/httpengine.h"
#include "server/http/tlscertificate.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonParseError>
#include <QLoggingCategory>
#include <QRegularExpression>

#include <algorithm>
#include <atomic>

Q_LOGGING_CATEGORY(lcHttp, "liaison.http")

namespace {
std::atomic<ApiServer::RequestLogSink> g_requestLogSink{nullptr};

QByteArray number(qint64 n)
{
    return QByteArray::number(n);
}

bool isSaneRequestId(const QByteArray &id)
{
    if (id.isEmpty() || id.size() > 64)
        return false;
    for (char c : id) {
        if (!(std::isalnum(uchar(c)) || c == '-' || c == '_' || c == '.'))
            return false;
    }
    return true;
}

// A claimed Idempotency-Key whose request neither answered nor gave it back in this time was left by
// a copy that died mid-request: another request with the key may take it over.
constexpr int kClaimStaleSeconds = 120;

// The answer while the database cannot be reached: 503 in the spec's envelope, with Retry-After.
ApiResponse databaseUnavailable()
{
    ApiResponse r = ApiResponse::error(
        503, QStringLiteral("SERVICE_UNAVAILABLE"),
        QStringLiteral("The database cannot be reached at the moment; nothing was changed. Try again shortly"),
        {{QStringLiteral("retryAfter"), DatabaseUnavailable::kRetryAfterSeconds}});
    r.headers.emplaceBack("Retry-After", number(DatabaseUnavailable::kRetryAfterSeconds));
    return r;
}

// Where a text of the request holds what no database stores as text: a NUL character (PostgreSQL
// refuses it in text; SQLite would cut the text there for some readers) or a half of a UTF-16
// surrogate pair ("\ud800" alone in JSON). Empty when all is well; else the field's path.
bool isStorableText(const QString &text)
{
    const QChar *c = text.constData();
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t u = c[i].unicode();
        if (u == 0)
            return false;
        if (QChar::isHighSurrogate(u)) {
            if (i + 1 >= n || !QChar::isLowSurrogate(c[i + 1].unicode()))
                return false;
            ++i;
        } else if (QChar::isLowSurrogate(u)) {
            return false;
        }
    }
    return true;
}

QString unstorableText(const QJsonValue &value, const QString &path)
{
    if (value.isString())
        return isStorableText(value.toString()) ? QString() : path;
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString bad = unstorableText(array.at(i), QStringLiteral("%1[%2]").arg(path).arg(i));
            if (!bad.isEmpty())
                return bad;
        }
    } else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            const QString at = path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key();
            if (!isStorableText(it.key()))
                return path.isEmpty() ? QStringLiteral("(a key)") : path;
            const QString bad = unstorableText(it.value(), at);
            if (!bad.isEmpty())
                return bad;
        }
    }
    return {};
}

QUrlQuery parseQuery(const QByteArray &raw)
{
    // Form-style '+' means a space in a query string; QUrlQuery would keep it.
    QByteArray q = raw;
    q.replace('+', "%20");
    return QUrlQuery(QString::fromUtf8(q));
}
} // namespace

qint64 ApiServer::replacedKeyGraceSeconds(int accessTokenMinutes)
{
    return qint64(accessTokenMinutes) * 60 + Jwt::kSkewSeconds;
}

void ApiServer::setRequestLogSink(RequestLogSink sink)
{
    g_requestLogSink.store(sink);
}

ApiShared::ApiShared(const ServerConfig &config)
    : requests(config.rateLimitPerMinute, 60)
    , logins(LoginThrottle::Limits{config.loginFailuresPerWindow, config.loginFailuresPerAccount,
                                   config.loginFailuresPerAddress, 15 * 60})
    , channels(config.channelRegistry ? config.channelRegistry : std::make_shared<ChannelRegistry>(config.channels))
    , knowledge(config.knowledgeIndex ? config.knowledgeIndex : std::make_shared<KnowledgeIndex>())
    , imports(std::make_shared<ImportRunner>())
{
}

namespace {
// The signer of access tokens: the key of this data directory, or in team mode the keys all copies
// share, read again every minute (a rotation is picked up without a restart).
std::unique_ptr<Jwt> makeJwt(const ServerConfig &config, const Store &store)
{
    const qint64 lifetime = qint64(config.accessTokenMinutes) * 60;
    if (!config.jwtKeysInDatabase)
        return std::make_unique<Jwt>(config.jwtKey, lifetime);
    return std::make_unique<Jwt>(
        [store] {
            QVector<JwtKey> keys;
            for (const SigningKey &k : SigningKeyRepository::load(store.now()))
                keys.append(JwtKey{k.id, k.secret, k.notBefore.toSecsSinceEpoch(),
                                   k.verifyUntil.isValid() ? k.verifyUntil.toSecsSinceEpoch() : 0});
            return keys;
        },
        lifetime, SigningKeyRepository::kReloadSeconds);
}
} // namespace

ApiServer::ApiServer(ServerConfig config, const Store &store, std::shared_ptr<ApiShared> shared, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_store(store)
    , m_engine(std::make_unique<HttpEngine>())
    , m_jwt(makeJwt(m_config, store))
    , m_apiKeys(store)
    , m_users(store)
    , m_refreshTokens(store)
    , m_idempotency(store)
    , m_shared(shared ? std::move(shared) : std::make_shared<ApiShared>(m_config))
{
    // A key created or revoked in this process (or, in team mode, another copy: ChangeFeed) is seen at
    // once by every server thread; so is a change of a user, whose keys act with their role and stop
    // working when they are deactivated.
    connect(
        &m_store.bus(), &EventBus::changed, this,
        [shared = m_shared](EventBus::Entity entity) {
            if (entity == EventBus::Entity::ApiKey || entity == EventBus::Entity::User) {
                QMutexLocker lock(&shared->keyMutex);
                shared->keys.clear();
            }
        },
        Qt::DirectConnection);
    // The engine admits the largest body any route takes (an upload); dispatch() holds JSON bodies
    // to limits.maxBodyBytes.
    HttpLimits limits = m_config.limits;
    limits.maxBodyBytes = qMax(limits.maxBodyBytes, m_config.media.maxUploadBytes + MediaConfig::kMultipartOverhead);
    m_engine->setLimits(limits);
    m_engine->setHandler(
        [this](const HttpRequest &request, const HttpResponder &responder) { handle(request, responder); });
    // What the engine refuses itself is answered in the API's envelope too.
    m_engine->setErrorWriter([](int status) {
        ApiResponse error = ApiResponse::protocolError(status);
        HttpResponse out;
        out.body = std::move(error.body);
        out.headers.emplaceBack("Content-Type", "application/json; charset=utf-8");
        return out;
    });
    registerRoutes();
    Database::startSnapshotWatchdog(this);
}

ApiServer::~ApiServer() = default;

void ApiServer::registerRoutes()
{
    // The areas of the API. A new area adds its controller here (one line) and its migration.
    m_media =
        std::make_shared<MediaService>(m_config.media, m_config.dataDir, m_store, [this]() { return mediaBaseUrl(); });
    m_controllers.push_back(std::make_unique<AuthController>(m_users, m_refreshTokens, *m_jwt, m_shared->logins,
                                                             m_config.accessTokenMinutes, m_config.refreshTokenDays,
                                                             m_store.clock()));
    m_controllers.push_back(std::make_unique<ContactsController>(m_store));
    m_controllers.push_back(std::make_unique<DealsController>(m_store));
    m_controllers.push_back(std::make_unique<SegmentsController>(m_store));
    m_controllers.push_back(std::make_unique<TasksController>(m_store, m_config.tasksTimeZone));
    m_controllers.push_back(std::make_unique<WebhooksController>(m_store, m_config.webhooks));
    m_controllers.push_back(std::make_unique<ConversationsController>(m_store, m_shared->channels));
    m_controllers.push_back(std::make_unique<MessagesController>(m_store, m_shared->channels, m_media));
    m_controllers.push_back(
        std::make_unique<WidgetController>(m_store, m_shared->widget, m_config.channels.widgetVisitorName));
    m_controllers.push_back(std::make_unique<MediaController>(m_media));
    m_controllers.push_back(std::make_unique<TelegramWebhookController>(m_shared->channels, m_store));
    m_controllers.push_back(std::make_unique<MetaWebhooksController>(m_shared->channels, m_store));
    m_controllers.push_back(std::make_unique<TemplatesController>(m_store));
    m_controllers.push_back(std::make_unique<ApiKeysController>(m_store));
    m_controllers.push_back(std::make_unique<UsersController>(m_store, m_refreshTokens, m_shared->logins));
    m_controllers.push_back(std::make_unique<CampaignsController>(m_store));
    m_controllers.push_back(std::make_unique<CampaignTrackingController>(m_store));
    m_controllers.push_back(std::make_unique<AiController>(m_store, m_shared->knowledge, m_config.assistant,
                                                           m_config.languageModel, m_config.tasksTimeZone, m_media));
    m_controllers.push_back(std::make_unique<ImportsController>(m_store, m_shared->imports, m_media));
    m_controllers.push_back(
        std::make_unique<SmsStatusController>(m_store, m_config.smsAuthToken, m_config.smsPublicBaseUrl));
    for (const auto &controller : m_controllers)
        controller->registerRoutes(m_router);

    // GET /api/v1/health: for load balancers and monitors, without a credential.
    m_router.add(
        "GET", QStringLiteral("/api/v1/health"), "getHealth",
        [](ApiRequest &) {
            if (!Database::ping())
                return databaseUnavailable();
            return ApiResponse::ok(
                QJsonObject{{QStringLiteral("status"), QStringLiteral("ok")},
                            {QStringLiteral("database"), Database::dialect() == Database::Dialect::PostgreSQL
                                                             ? QStringLiteral("postgresql")
                                                             : QStringLiteral("sqlite")}});
        },
        Access::publicRoute(),
        {QStringLiteral("Meta"),
         QStringLiteral("Whether this copy can serve: 200 when its database answers, 503 otherwise"),
         {},
         Schema::object({{QStringLiteral("status"), Schema::string()}, {QStringLiteral("database"), Schema::string()}}),
         {},
         {503}});

    // GET /api/v1/openapi.json
    m_router.add("GET", QStringLiteral("/api/v1/openapi.json"), "getOpenApiDocument",
                 [this](ApiRequest &) { return ApiResponse::raw(openApi()); }, Access::publicRoute(),
                 {QStringLiteral("Meta"),
                  QStringLiteral("This OpenAPI 3.1 document"),
                  {},
                  Schema::object({{QStringLiteral("openapi"), Schema::string()}}),
                  {},
                  {}});
}

bool ApiServer::loadTls()
{
    if (m_shared->tlsLoaded || !m_config.tls)
        return true;
    QString error;
    m_shared->tls = TlsCertificate::ensure(m_config.dataDir, m_config.tlsCert, m_config.tlsKey, &error);
    if (!m_shared->tls) {
        m_error = QStringLiteral("TLS set-up failed: %1").arg(error);
        return false;
    }
    m_shared->tlsLoaded = true;
    return true;
}

bool ApiServer::start()
{
    if (!loadTls())
        return false;
    if (!m_engine->listen(m_config.address, m_config.port, m_shared->tls)) {
        m_error = QStringLiteral("cannot listen on %1:%2: %3")
                      .arg(m_config.address.toString())
                      .arg(m_config.port)
                      .arg(m_engine->errorString());
        return false;
    }
    {
        // The URL media links use when media/publicBaseUrl is not set (worker threads do not listen).
        QMutexLocker lock(&m_shared->keyMutex);
        m_shared->baseUrl = baseUrl();
    }
    return true;
}

bool ApiServer::startWorker()
{
    if (!loadTls())
        return false;
    if (!m_engine->configure(m_shared->tls)) {
        m_error = m_engine->errorString();
        return false;
    }
    return true;
}

void ApiServer::stop(int timeoutMs)
{
    m_engine->shutdown(timeoutMs);
}

QString ApiServer::mediaBaseUrl() const
{
    if (!m_config.media.publicBaseUrl.isEmpty())
        return m_config.media.publicBaseUrl;
    QMutexLocker lock(&m_shared->keyMutex);
    return m_shared->baseUrl.isEmpty() ? baseUrl() : m_shared->baseUrl;
}

QString ApiServer::errorString() const
{
    return m_error;
}

quint16 ApiServer::port() const
{
    return m_engine->serverPort();
}

QString ApiServer::baseUrl() const
{
    QString host = m_config.address.toString();
    if (m_config.address.protocol() == QAbstractSocket::IPv6Protocol)
        host = QLatin1Char('[') + host + QLatin1Char(']');
    return QStringLiteral("%1://%2:%3")
        .arg(m_config.tls ? QStringLiteral("https") : QStringLiteral("http"), host)
        .arg(port());
}

std::optional<ApiKey> ApiServer::apiKey(const QString &secret)
{
    const qint64 nowMs = m_store.now().toMSecsSinceEpoch();
    {
        QMutexLocker lock(&m_shared->keyMutex);
        auto it = m_shared->keys.constFind(secret);
        if (it != m_shared->keys.constEnd() && nowMs - it->second < ApiShared::kApiKeyCacheMs)
            return it->first;
    }
    const std::optional<ApiKey> key = m_apiKeys.authenticate(secret);
    QMutexLocker lock(&m_shared->keyMutex);
    if (m_shared->keys.size() > 10000)
        m_shared->keys.clear();
    m_shared->keys.insert(secret, {key, nowMs});
    if (key) {
        // last_used_at is written at most once a minute per key, not on every request.
        qint64 &touched = m_shared->keyTouched[key->id];
        if (nowMs - touched > 60000) {
            touched = nowMs;
            lock.unlock();
            try {
                m_apiKeys.touch(key->id);
            } catch (const DomainError &e) {
                // A full disk refuses writes, not the reads a key is used for: the note waits.
                if (e.kind() != DomainError::StorageFull)
                    throw;
            }
        }
    }
    return key;
}

Principal ApiServer::authenticate(const HttpRequest &request)
{
    Principal p;
    const QByteArray header = request.header("Authorization");
    if (!header.startsWith("Bearer ") && !header.startsWith("bearer "))
        return p;
    const QString token = QString::fromLatin1(header.mid(7).trimmed());
    if (token.startsWith(QLatin1String("lk_"))) {
        if (const std::optional<ApiKey> key = apiKey(token)) {
            p.kind = Principal::ApiKey;
            p.id = key->id;
            p.name = key->name;
            p.scopes = key->scopes;
            p.role = key->role();
        }
        return p;
    }
    if (const std::optional<QJsonObject> claims = m_jwt->verify(token, m_store.now())) {
        // sub must name an active user that exists now; the role is the stored one, so that a changed role
        // takes effect at once rather than when the token expires.
        const std::optional<User> user = m_users.find(claims->value(QLatin1String("sub")).toString());
        if (user && user->isActive()) {
            p.kind = Principal::User;
            p.id = user->id;
            p.name = user->name;
            p.role = user->role;
        }
    }
    return p;
}

void ApiServer::handle(const HttpRequest &request, const HttpResponder &responder)
{
    QElapsedTimer timer;
    timer.start();
    const QByteArray clientId = request.header("X-Request-Id");
    const QString requestId = isSaneRequestId(clientId) ? QString::fromLatin1(clientId) : Ids::make(u"req");

    Principal principal;
    RateLimiter::Decision limit;
    bool limited = false;
    ApiResponse response;
    try {
        response = dispatch(request, requestId, principal, limit, limited);
    } catch (const DatabaseUnavailable &) {
        // Logged by the model when the outage starts and then once a minute, not per request.
        response = databaseUnavailable();
    } catch (const std::exception &e) {
        qCCritical(lcHttp).noquote() << "500 for request" << requestId << ":" << e.what();
        response = ApiResponse::error(500, QStringLiteral("INTERNAL"),
                                      QStringLiteral("Internal server error (request %1)").arg(requestId));
    }
    // No read snapshot outlives its answer: what a handler left (a bug, logged and counted) is
    // released here, before the next request on this thread.
    Database::releaseSnapshot();

    HttpResponse out;
    out.status = response.status;
    out.body = std::move(response.body);
    out.headers.reserve(response.headers.size() + 6);
    // A handler's own Content-Type (a widget page, an event stream) wins; JSON is the default.
    const bool ownType = std::any_of(response.headers.cbegin(), response.headers.cend(), [](const auto &h) {
        return h.first.compare(QByteArrayLiteral("Content-Type"), Qt::CaseInsensitive) == 0;
    });
    if (!ownType)
        out.headers.emplaceBack("Content-Type", "application/json; charset=utf-8");
    out.headers.emplaceBack("X-Request-Id", requestId.toLatin1());
    if (limited) {
        out.headers.emplaceBack("X-RateLimit-Limit", number(limit.limit));
        out.headers.emplaceBack("X-RateLimit-Remaining", number(limit.remaining));
        out.headers.emplaceBack("X-RateLimit-Reset", number(limit.resetSeconds));
    }
    out.headers.append(response.headers);
    if (response.stream)
        response.stream(responder, std::move(out)); // a streaming answer (server-sent events)
    else
        responder.respond(std::move(out));

    // One line per request: never the query string (it may hold search terms), a token or a body.
    if (lcHttp().isInfoEnabled()) {
        QByteArray line;
        line.reserve(request.path.size() + 80);
        line.append(request.method).append(' ').append(request.path).append(' ');
        line.append(number(response.status)).append(' ');
        line.append(QByteArray::number(timer.nsecsElapsed() / 1e6, 'f', 2)).append("ms ");
        line.append(requestId.toLatin1());
        if (const RequestLogSink sink = g_requestLogSink.load(std::memory_order_relaxed))
            sink(lcHttp().categoryName(), line);
        else
            qCInfo(lcHttp, "%s", line.constData());
    }
}

ApiResponse ApiServer::dispatch(const HttpRequest &request, const QString &requestId, Principal &principal,
                                RateLimiter::Decision &limit, bool &limited)
{
    const Router::Match match = m_router.match(request.method, request.path);
    const Route *route = match.route;

    // A credential is checked (and counted) on every route that needs one, and on unknown paths
    // when one is sent, so that such requests carry the rate-limit headers and use up the budget.
    if ((route && route->access.kind != Access::Public) || (!route && request.hasHeader("Authorization"))) {
        principal = authenticate(request);
        if (principal.kind == Principal::None && route)
            return ApiResponse::error(
                401, QStringLiteral("UNAUTHORIZED"),
                request.hasHeader("Authorization")
                    ? QStringLiteral("Invalid or expired credential")
                    : QStringLiteral("Authentication required: send Authorization: Bearer <token>"));
        if (principal.kind != Principal::None && m_shared->requests.limit() > 0) {
            limit = m_shared->requests.hit(principal.credentialKey(), m_store.now());
            limited = true;
            if (!limit.allowed) {
                ApiResponse r = ApiResponse::error(
                    429, QStringLiteral("TOO_MANY_REQUESTS"),
                    QStringLiteral("Too Many Requests: more than %1 requests per minute").arg(limit.limit));
                r.headers.emplaceBack("Retry-After", number(qMax(1, limit.resetSeconds)));
                return r;
            }
        }
    }
    if (!route) {
        if (!match.allowedMethods.isEmpty()) {
            ApiResponse r = ApiResponse::error(
                405, QStringLiteral("METHOD_NOT_ALLOWED"),
                QStringLiteral("Method %1 is not allowed on this path").arg(QString::fromLatin1(request.method)));
            r.headers.emplaceBack("Allow", match.allowedMethods.join(QByteArrayView(", ")));
            return r;
        }
        return ApiResponse::error(404, QStringLiteral("NOT_FOUND"),
                                  QStringLiteral("No such endpoint: %1").arg(QString::fromUtf8(request.path)));
    }
    if (route->access.kind == Access::UserOnly && principal.kind != Principal::User)
        return ApiResponse::error(403, QStringLiteral("FORBIDDEN"),
                                  QStringLiteral("This endpoint needs a user token (JWT); API keys are not accepted"));
    if (route->access.kind == Access::Credential && !principal.allows(route->access.scope))
        return ApiResponse::error(403, QStringLiteral("FORBIDDEN"),
                                  QStringLiteral("This API key lacks the scope %1").arg(route->access.scope));
    if (route->access.admin && !principal.isAdmin())
        return ApiResponse::error(403, QStringLiteral("FORBIDDEN"),
                                  QStringLiteral("This endpoint changes configuration: it needs the admin role"));

    ApiRequest apiRequest{request, requestId, match.params, parseQuery(request.query), {}, false, principal};
    const bool hasBodyMethod = request.method == "POST" || request.method == "PUT" || request.method == "PATCH";
    // multipart/form-data is never parsed as JSON: upload routes read request.http.body themselves,
    // as do the routes of another declared body type (the unsubscribe form's one-click POST).
    const bool multipartRoute = route->doc.requestContentType == QLatin1String("multipart/form-data");
    const bool rawBodyRoute = !route->doc.requestContentType.isEmpty();
    const bool multipartBody = MultipartForm::isMultipart(request.header("Content-Type"));
    if (hasBodyMethod && !multipartRoute && request.body.size() > m_config.limits.maxBodyBytes)
        return ApiResponse::error(413, QStringLiteral("PAYLOAD_TOO_LARGE"),
                                  QStringLiteral("The body is larger than %1 bytes").arg(m_config.limits.maxBodyBytes));
    if (hasBodyMethod && multipartBody && !multipartRoute && !request.body.isEmpty())
        return ApiResponse::error(415, QStringLiteral("UNSUPPORTED_MEDIA_TYPE"),
                                  QStringLiteral("This endpoint takes a JSON body, not multipart/form-data"));
    if (hasBodyMethod && !rawBodyRoute && !request.body.trimmed().isEmpty()) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(request.body, &error);
        if (error.error != QJsonParseError::NoError)
            return ApiResponse::error(
                400, QStringLiteral("INVALID_JSON"),
                QStringLiteral("Malformed JSON at offset %1: %2").arg(error.offset).arg(error.errorString()));
        if (!doc.isObject())
            return ApiResponse::error(400, QStringLiteral("INVALID_JSON"),
                                      QStringLiteral("The body must be a JSON object"));
        apiRequest.body = doc.object();
        apiRequest.hasBody = true;
    }
    // Refused before any route reads it, on both databases alike (PostgreSQL would fail on it).
    QString unstorable = unstorableText(apiRequest.body, {});
    for (auto it = apiRequest.params.cbegin(); unstorable.isEmpty() && it != apiRequest.params.cend(); ++it) {
        if (!isStorableText(it.value()))
            unstorable = it.key();
    }
    for (const auto &item : apiRequest.query.queryItems(QUrl::FullyDecoded)) {
        if (!unstorable.isEmpty())
            break;
        if (!isStorableText(item.first) || !isStorableText(item.second))
            unstorable = item.first;
    }
    if (!unstorable.isEmpty())
        return ApiResponse::error(400, QStringLiteral("VALIDATION_ERROR"),
                                  QStringLiteral("Text must not contain NUL characters or invalid Unicode"),
                                  {{unstorable, QStringLiteral("contains a NUL character or invalid Unicode")}});

    // Idempotency-Key on a POST: the first answer is kept 24 h and given again to a repeat.
    const QByteArray idempotencyKey = request.header("Idempotency-Key");
    const bool idempotent = request.method == "POST" && !idempotencyKey.isEmpty() && principal.kind != Principal::None;
    const QString credential = principal.credentialKey();
    if (idempotent) {
        if (idempotencyKey.size() > 255)
            return ApiResponse::error(400, QStringLiteral("VALIDATION_ERROR"),
                                      QStringLiteral("Idempotency-Key must be at most 255 characters"));
        const QDateTime now = m_store.now();
        const IdempotencyClaim claim = m_idempotency.claim(
            credential, QString::fromLatin1(idempotencyKey), QString::fromLatin1(request.method),
            QString::fromUtf8(request.path), now.addSecs(-24 * 3600), now.addSecs(-kClaimStaleSeconds));
        if (claim.outcome != IdempotencyClaim::Claimed && claim.stored.path != QString::fromUtf8(request.path))
            return ApiResponse::error(409, QStringLiteral("CONFLICT"),
                                      QStringLiteral("Idempotency-Key was already used for another request"));
        if (claim.outcome == IdempotencyClaim::InProgress) {
            ApiResponse busy = ApiResponse::error(
                409, QStringLiteral("IDEMPOTENCY_IN_PROGRESS"),
                QStringLiteral("A request with this Idempotency-Key is still running; try again shortly"),
                {{QStringLiteral("retryAfter"), 1}});
            busy.headers.emplaceBack("Retry-After", "1");
            return busy;
        }
        if (claim.outcome == IdempotencyClaim::Stored) {
            ApiResponse replay;
            replay.status = claim.stored.status;
            replay.body = claim.stored.body;
            replay.headers = claim.stored.headers;
            replay.headers.emplaceBack("Idempotent-Replayed", "true");
            return replay;
        }
    }

    // The claim is given back on every way out without an answer to keep (a 5xx below, or an
    // exception: the database lost, a bug), so that a retry with the key runs again.
    struct Release
    {
        IdempotencyStore *store;
        QString credential, key;
        bool keep = false;
        ~Release()
        {
            if (store && !keep) {
                try {
                    store->release(credential, key);
                } catch (const std::exception &) {
                    // The database is gone: the claim ends as stale (kClaimStaleSeconds).
                }
            }
        }
    } release{idempotent ? &m_idempotency : nullptr, credential, QString::fromLatin1(idempotencyKey)};
    ApiResponse response;
    try {
        response = route->handler(apiRequest);
    } catch (const DomainError &e) {
        // Every refusal, the model's and the server's own: its kind gives the status (one table).
        response = ApiResponse::error(ErrorStatus::of(e.kind()), e.code(), e.message(), e.details());
        if (e.kind() == DomainError::RateLimited && e.details().contains(QLatin1String("retryAfter")))
            response.headers.emplaceBack("Retry-After", number(e.details().value(QLatin1String("retryAfter")).toInt()));
    }
    // A 429 or 5xx is passing: a retry with the same key must be tried again, not replayed.
    if (idempotent && response.status < 500 && response.status != 429) {
        try {
            m_idempotency.save(credential, QString::fromLatin1(idempotencyKey),
                               {QString::fromLatin1(request.method), QString::fromUtf8(request.path), response.status,
                                response.headers, response.body});
            release.keep = true;
        } catch (const DomainError &e) {
            // The disk filled between the write and its record: the client gets what was done (a
            // 500 would make it retry what succeeded); only a replay of this key is lost (its
            // claim is given back).
            if (e.kind() != DomainError::StorageFull)
                throw;
        }
    }
    return response;
}

QJsonObject ApiServer::openApi() const
{
    QJsonObject schemas;
    for (const auto &controller : m_controllers) {
        const QJsonObject own = controller->schemas();
        for (auto it = own.begin(); it != own.end(); ++it)
            schemas.insert(it.key(), it.value());
    }
    return OpenApi::document(m_router, schemas, baseUrl());
}
