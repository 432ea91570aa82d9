#pragma once

// What server, API and end-to-end tests share (library liaison_testsupport, on top of
// liaison_modeltestsupport and liaison_server): the real ApiServer on a loopback port, clients of it
// and requests sent at once.
#include "server/apiserver.h"
#include "tests/support/modelsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslCertificate>

#include <functional>
#include <memory>

class ApiClient;

// The real ApiServer on 127.0.0.1, a free port, HTTPS with a throwaway certificate, in this thread.
class TestServer
{
public:
    explicit TestServer(const QString &dataDir, int rateLimitPerMinute = 0, bool tls = true);
    // configure: changes the test defaults (loopback, free port, TLS, no rate limit) before start.
    TestServer(const QString &dataDir, const std::function<void(ServerConfig &)> &configure);
    ~TestServer();
    // The configuration the server started with (its channelRegistry, when one was set).
    const ServerConfig &config() const { return m_config; }
    ApiServer &server() { return *m_server; }
    EventBus &bus() { return m_bus; }
    // The server's clock: the system's until a test sets or advances it.
    FakeClock &clock() { return m_clock; }
    // What the server reaches the data with; a repository a test builds from it notifies the server.
    Store store() { return Store(m_bus, m_clock); }
    QString baseUrl() const;
    QSslCertificate certificate() const;
    // An API key with these scopes (default *); returns the secret.
    QString createApiKey(const QStringList &scopes = {QStringLiteral("*")});
    // A user with this password (few KDF iterations, to keep tests fast).
    void createUser(const QString &email, const QString &password, const QString &role = QStringLiteral("admin"));
    // A client of this server that sends this bearer token (none when empty).
    std::unique_ptr<ApiClient> client(const QString &token = {}) const;
    // A client with a new API key of these scopes.
    std::unique_ptr<ApiClient> apiKeyClient(const QStringList &scopes = {QStringLiteral("*")});
    // A new user of this role, signed in through POST /auth/login: a client with its access token
    // (null when the login failed, with a warning).
    std::unique_ptr<ApiClient> signedInClient(const QString &email, const QString &role = QStringLiteral("admin"));

private:
    QString m_dataDir;
    ServerConfig m_config;
    EventBus m_bus;
    FakeClock m_clock;
    std::unique_ptr<ApiServer> m_server;
};

struct HttpResult
{
    int status = 0;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QByteArray body;
    QJsonObject json;
    QHash<QByteArray, QByteArray> headers; // lower-case names

    QByteArray header(const QByteArray &name) const { return headers.value(name.toLower()); }
    QJsonObject data() const { return json.value(QLatin1String("data")).toObject(); }
    QString errorCode() const
    {
        return json.value(QLatin1String("error")).toObject().value(QLatin1String("code")).toString();
    }
};

// A QNetworkAccessManager client that trusts the test server's certificate (added as a CA, never
// ignoring errors) and waits for each reply on its finished signal, at most timeoutMs.
class ApiClient
{
public:
    ApiClient(const QString &baseUrl, const QSslCertificate &ca);
    void setToken(const QString &token) { m_token = token; }
    HttpResult get(const QString &path) { return call("GET", path); }
    HttpResult post(const QString &path, const QJsonObject &body)
    {
        return call("POST", path, QJsonDocument(body).toJson());
    }
    HttpResult put(const QString &path, const QJsonObject &body)
    {
        return call("PUT", path, QJsonDocument(body).toJson());
    }
    HttpResult patch(const QString &path, const QJsonObject &body)
    {
        return call("PATCH", path, QJsonDocument(body).toJson());
    }
    HttpResult del(const QString &path) { return call("DELETE", path); }
    HttpResult call(const QByteArray &method, const QString &path, const QByteArray &body = {},
                    const QList<QPair<QByteArray, QByteArray>> &headers = {}, int timeoutMs = 20000);
    // Sends the request and returns at once; the caller waits for the reply (see sendAtOnce).
    QNetworkReply *send(const QByteArray &method, const QString &path, const QByteArray &body = {},
                        const QList<QPair<QByteArray, QByteArray>> &headers = {});
    // A finished reply read into a result; deletes the reply.
    static HttpResult read(QNetworkReply *reply);

private:
    QString m_base;
    QString m_token;
    QSslCertificate m_ca;
    QNetworkAccessManager m_nam;
};

// count copies of one request sent at once, taking turns over clients (each keeps up to six
// connections open), and every answer, in the order sent; waits at most timeoutMs for them all
// (an unanswered one has status 0 and TimeoutError).
QList<HttpResult> sendAtOnce(const QList<ApiClient *> &clients, int count, const QByteArray &method,
                             const QString &path, const QByteArray &body,
                             const QList<QPair<QByteArray, QByteArray>> &headers, int timeoutMs = 30000);

// One request of several sent at once by sendAtOnce().
struct ApiCall
{
    ApiClient *client;
    QByteArray method;
    QString path;
    QJsonObject body;
    QByteArray rawBody = {}; // sent instead of body when not empty (a signed webhook's exact bytes)
    QList<QPair<QByteArray, QByteArray>> headers = {};
};
// Each call sent at once (each on its own client), and every answer, in the order given; waits at
// most timeoutMs for them all (an unanswered one has status 0 and TimeoutError).
QList<HttpResult> sendAtOnce(const QList<ApiCall> &calls, int timeoutMs = 30000);

// Rounds of count identical POSTs to path with one Idempotency-Key per round, sent at once over
// clients: each round must act exactly once (one 201 that is not a replay; the others replay it
// or get 409 IDEMPOTENCY_IN_PROGRESS with Retry-After). Empty when every round held, else what
// did not; ids gets the records made.
QString raceOneKey(const QList<ApiClient *> &clients, const QString &path,
                   const std::function<QJsonObject(int round)> &body, int rounds, int count, QSet<QString> *ids);

// The set-up most API tests share: a throwaway database, the HTTPS server on a loopback port and,
// unless asked otherwise, a client holding an API key of every scope. Build one in init() and drop
// it in cleanup().
class ApiFixture
{
public:
    enum class Client
    {
        ApiKey, // client: an API key with every scope
        None    // no client: the test makes its own (a signed-in user, a key of some scopes)
    };
    explicit ApiFixture(Client client = Client::ApiKey);

    TempDatabase db;
    TestServer server;
    std::unique_ptr<ApiClient> client;
};
