#pragma once

#include "server/api/loginthrottle.h"
#include "server/api/ratelimiter.h"
#include "server/api/router.h"
#include "server/controllers/widgetcontroller.h"
#include "server/serverconfig.h"

#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/core/idempotencystore.h"

#include <QMutex>
#include <QObject>
#include <QSslConfiguration>

#include <memory>
#include <optional>
#include <vector>

class HttpEngine;
class Jwt;
class Controller;
class MediaService;
class ChannelRegistry;
class KnowledgeIndex;
class ImportRunner;

// What the server threads share: the rate-limit windows, the API-key cache, the TLS configuration,
// the channels' state and the assistant's knowledge index.
struct ApiShared
{
    explicit ApiShared(const ServerConfig &config);

    RateLimiter requests;
    LoginThrottle logins;                      // password checks: POST /auth/login and POST /users/me/password
    WidgetController::Limits widget;           // the web chat widget's per-token and per-address limits
    std::shared_ptr<ChannelRegistry> channels; // configured channels, provider health, send windows
    std::shared_ptr<KnowledgeIndex> knowledge; // the assistant's index of the knowledge base
    std::shared_ptr<ImportRunner> imports;     // the import jobs' thread (one for the process)
    std::optional<QSslConfiguration> tls;      // loaded once, before the threads start
    bool tlsLoaded = false;
    QString baseUrl; // of the listening server (set by start(), under keyMutex): media links use it

    // API keys by the SHA-256 of their secret, for a few seconds, so that authentication is not a
    // query on every request. Cleared whenever a key changes in this process (revocation from
    // another process, the CLI, takes effect within kApiKeyCacheMs).
    static constexpr qint64 kApiKeyCacheMs = 1000;
    QMutex keyMutex;
    QHash<QString, QPair<std::optional<ApiKey>, qint64>> keys;
    QHash<QString, qint64> keyTouched; // last_used_at writes, at most one a minute per key
};

// The HTTPS API: owns the engine, the routing table, the controllers and the middleware
// (request id -> authentication -> rate limit -> JSON body -> handler -> envelope). Create, start()
// and stop() it in the server thread (docs/architecture.md, Qt 6.4 traps: a server must live in the thread that
// listens).
class ApiServer : public QObject
{
    Q_OBJECT
public:
    // shared: the state of a group of server threads; null for a server of its own.
    // store: this server thread's way to the data (its bus and clock).
    ApiServer(ServerConfig config, const Store &store, std::shared_ptr<ApiShared> shared = nullptr,
              QObject *parent = nullptr);
    ~ApiServer() override;

    // Where the one line a request goes ("GET /api/v1/contacts/x 200 0.41ms req_…", category
    // liaison.http, written only while that category logs info). Unset, the line goes through
    // qCInfo; the command line installs a direct writer when its own message handler is in use,
    // so that a request costs no message formatting (a tenth of a contact look-up).
    using RequestLogSink = void (*)(const char *category, QByteArrayView line);
    static void setRequestLogSink(RequestLogSink sink);
    // How long access tokens signed with a key stay good once another replaces it (`liaison jwt
    // rotate`): the longest access-token lifetime plus the clock skew a check allows.
    static qint64 replacedKeyGraceSeconds(int accessTokenMinutes);

    // Listens; false with errorString() when the address is taken or TLS cannot be set up.
    bool start();
    // For a further server thread: serves connections the listening one hands over (no listen).
    bool startWorker();
    // Loads (or generates) the TLS configuration into shared state; done by start() when needed.
    bool loadTls();
    HttpEngine &engine() { return *m_engine; }
    // Answers in-flight requests (at most timeoutMs) and closes every connection.
    void stop(int timeoutMs = 5000);
    QString errorString() const;
    quint16 port() const;
    // "https://127.0.0.1:8443"
    QString baseUrl() const;

    const Router &router() const { return m_router; }
    // The OpenAPI 3.1 document of every route.
    QJsonObject openApi() const;
    // The state this server shares with the other server threads of its group.
    ApiShared &shared() { return *m_shared; }

private:
    void handle(const HttpRequest &request, const HttpResponder &responder);
    ApiResponse dispatch(const HttpRequest &request, const QString &requestId, Principal &principal,
                         RateLimiter::Decision &limit, bool &limited);
    Principal authenticate(const HttpRequest &request);
    std::optional<ApiKey> apiKey(const QString &secret);
    void registerRoutes();
    // media/publicBaseUrl, or the listening server's own base URL.
    QString mediaBaseUrl() const;

    ServerConfig m_config;
    Store m_store;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<Jwt> m_jwt;
    ApiKeyRepository m_apiKeys;
    UserRepository m_users;
    RefreshTokenRepository m_refreshTokens;
    IdempotencyStore m_idempotency;
    std::shared_ptr<MediaService> m_media;
    std::vector<std::unique_ptr<Controller>> m_controllers;
    Router m_router;
    std::shared_ptr<ApiShared> m_shared;
    QString m_error;
};
