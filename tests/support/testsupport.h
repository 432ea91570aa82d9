#pragma once

#include "model/core/databaseurl.h"
#include "model/core/eventbus.h"
#include "model/core/store.h"
#include "model/webhooks/webhookchanges.h"
#include "server/apiserver.h"
#include "tests/support/fakeclock.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslCertificate>
#include <QTemporaryDir>

#include <functional>
#include <memory>

// The store of a test that neither watches the bus nor moves the clock: one bus of the test
// process (nothing listens to it unless the test connects) and the system clock.
Store testStore();

// What a call refused: the fields its DomainError names (joined by ",") and its kind; an empty
// string and -1 when it went through. For tests that hold two ways of writing (typed changes, a
// request body) to the same rules.
QPair<QString, int> refusalOf(const std::function<void()> &call);

// A subscription's body read as the API reads it, but with every receiver address allowed: the
// repository's own check then holds it to the repository's policy.
WebhookChanges webhookChanges(const QJsonObject &body);

// What a run of a program gave (the real liaison executable, for the end-to-end tests).
struct ProgramRun
{
    bool finished = false;
    int exitCode = -1;
    QString out;
    QString err;

    QStringList outLines() const { return out.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }
    QStringList errLines() const { return err.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }
    QByteArray describe() const;
};
// Runs program with args, feeding stdinData; killed after timeoutMs.
ProgramRun runProgram(const QString &program, const QStringList &args, const QByteArray &stdinData = {},
                      int timeoutMs = 60000);

// A throwaway data directory with a migrated database that this thread uses.
class TempPostgresSchema;
class TempDatabase
{
public:
    TempDatabase();
    ~TempDatabase();
    QString dir() const { return m_dir.path(); }
    QString file() const;

private:
    QTemporaryDir m_dir;
    std::unique_ptr<TempPostgresSchema> m_pg;
    bool m_reusedPg = false;
};

// A schema of its own on the test run's PostgreSQL cluster (LIAISON_TEST_POSTGRES_URL, set by
// CTest's "postgres" fixture), which this thread's database then uses; dropped afterwards.
// available() is false, with why(), when no cluster was given.
// Ends the PostgreSQL session whose server process is pid on the test run's cluster
// (pg_terminate_backend), as an administrator, a failover or a restart does; true when it was ended.
bool endPostgresSession(qint64 pid);
// Lets a database of the test run's cluster take new connections again, or refuses them (as a
// server that is starting or out of reach does), as an administrator; true when done.
bool allowPostgresConnections(const QString &database, bool allow);

class TempPostgresSchema
{
public:
    TempPostgresSchema();
    ~TempPostgresSchema();
    bool available() const { return !m_name.isEmpty(); }
    QString why() const { return m_why; }
    QString name() const { return m_name; }

private:
    QString m_name;
    QString m_why;
};

// An empty database of its own on the test run's cluster, for programs started by a test (several
// `liaison serve` on one database); dropped afterwards with whatever connected to it.
class TempPostgresDatabase
{
public:
    explicit TempPostgresDatabase(const QString &prefix);
    // The same on another cluster than the test run's (one a test starts and stops itself).
    TempPostgresDatabase(const QString &prefix, const DatabaseUrl &cluster);
    ~TempPostgresDatabase();
    bool available() const { return !m_name.isEmpty(); }
    QString why() const { return m_why; }
    // postgresql://user@host:port/<name>, for database/url.
    QString url() const;
    // Ends every session on the database (pg_terminate_backend), as a server's administrator or a
    // failover does; returns how many were ended, -1 on an error (a warning says why).
    int endSessions();

private:
    void create(const QString &prefix, const DatabaseUrl &cluster);
    DatabaseUrl m_cluster;
    QString m_name;
    QString m_why;
};

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
