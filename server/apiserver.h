#pragma once

#include "api/ratelimiter.h"
#include "api/router.h"
#include "serverconfig.h"

#include <QObject>

#include <memory>
#include <vector>

class EventBus;
class HttpEngine;
class Jwt;
class IdempotencyStore;
class ApiKeyRepository;
class ContactRepository;
class UserRepository;
class RefreshTokenRepository;
class Clock;
class Controller;

// The HTTPS API: owns the engine, the routing table, the controllers and the middleware
// (request id -> authentication -> rate limit -> JSON body -> handler -> envelope). Create, start()
// and stop() it in the server thread (QT64-NOTES: a server must live in the thread that listens).
class ApiServer : public QObject
{
    Q_OBJECT
public:
    ApiServer(ServerConfig config, EventBus *bus, QObject *parent = nullptr);
    ~ApiServer() override;

    // Listens; false with errorString() when the address is taken or TLS cannot be set up.
    bool start();
    // Answers in-flight requests (at most timeoutMs) and closes every connection.
    void stop(int timeoutMs = 5000);
    QString errorString() const;
    quint16 port() const;
    // "https://127.0.0.1:8443"
    QString baseUrl() const;

    const Router &router() const { return m_router; }
    // The OpenAPI 3.1 document of every route.
    QJsonObject openApi() const;
    void setClock(const Clock *clock) { m_clock = clock; }

private:
    void handle(const HttpRequest &request, const HttpResponder &responder);
    ApiResponse dispatch(const HttpRequest &request, const QString &requestId, Principal &principal,
                         RateLimiter::Decision &limit, bool &limited);
    Principal authenticate(const HttpRequest &request) const;
    void registerRoutes();

    ServerConfig m_config;
    EventBus *m_bus;
    const Clock *m_clock;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<Jwt> m_jwt;
    std::unique_ptr<ContactRepository> m_contacts;
    std::unique_ptr<ApiKeyRepository> m_apiKeys;
    std::unique_ptr<UserRepository> m_users;
    std::unique_ptr<RefreshTokenRepository> m_refreshTokens;
    std::unique_ptr<IdempotencyStore> m_idempotency;
    std::vector<std::unique_ptr<Controller>> m_controllers;
    Router m_router;
    RateLimiter m_rateLimiter;
    RateLimiter m_loginLimiter;
    QString m_error;
    QHash<QString, qint64> m_apiKeyTouched;
};
