#include "tests/support/testsupport.h"

#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "server/api/crypto.h"

#include <QEventLoop>
#include <QFile>
#include <QNetworkReply>
#include <QSslConfiguration>
#include <QTimer>
#include <QtTest>

#include <algorithm>

TestServer::TestServer(const QString &dataDir, int rateLimitPerMinute, bool tls)
    : TestServer(dataDir, [rateLimitPerMinute, tls](ServerConfig &c) {
        c.rateLimitPerMinute = rateLimitPerMinute;
        c.tls = tls;
    })
{
}

TestServer::TestServer(const QString &dataDir, const std::function<void(ServerConfig &)> &configure)
    : m_dataDir(dataDir)
{
    ServerConfig config;
    config.address = QHostAddress::LocalHost;
    config.port = 0;
    config.tls = true;
    config.dataDir = dataDir;
    config.rateLimitPerMinute = 0;
    config.jwtKey = QByteArray("test-signing-key-0123456789abcdef");
    if (configure)
        configure(config);
    m_config = config;
    m_server = std::make_unique<ApiServer>(config, store());
    if (!m_server->start())
        qFatal("test server did not start: %s", qPrintable(m_server->errorString()));
}

TestServer::~TestServer()
{
    m_server->stop(2000);
}

QString TestServer::baseUrl() const
{
    return m_server->baseUrl();
}

QSslCertificate TestServer::certificate() const
{
    QFile f(m_dataDir + QStringLiteral("/tls/cert.pem"));
    if (!f.open(QIODevice::ReadOnly))
        return QSslCertificate();
    return QSslCertificate(f.readAll(), QSsl::Pem);
}

QString TestServer::createApiKey(const QStringList &scopes)
{
    return ApiKeyRepository(store()).create(QStringLiteral("test"), scopes).secret;
}

void TestServer::createUser(const QString &email, const QString &password, const QString &role)
{
    UserRepository(store()).create(email, QStringLiteral("Test User"), role, PasswordHasher::hash(password, 1000));
}

std::unique_ptr<ApiClient> TestServer::client(const QString &token) const
{
    auto c = std::make_unique<ApiClient>(baseUrl(), certificate());
    c->setToken(token);
    return c;
}

std::unique_ptr<ApiClient> TestServer::apiKeyClient(const QStringList &scopes)
{
    return client(createApiKey(scopes));
}

std::unique_ptr<ApiClient> TestServer::signedInClient(const QString &email, const QString &role)
{
    const QString password = QStringLiteral("correct horse battery");
    createUser(email, password, role);
    std::unique_ptr<ApiClient> c = client();
    const HttpResult login = c->post(QStringLiteral("/api/v1/auth/login"),
                                     {{QStringLiteral("email"), email}, {QStringLiteral("password"), password}});
    if (login.status != 200) {
        qWarning() << "signing in" << email << "failed:" << login.status << login.body;
        return nullptr;
    }
    c->setToken(login.data().value(QLatin1String("accessToken")).toString());
    return c;
}

ApiClient::ApiClient(const QString &baseUrl, const QSslCertificate &ca)
    : m_base(baseUrl)
    , m_ca(ca)
{
}

QNetworkReply *ApiClient::send(const QByteArray &method, const QString &path, const QByteArray &body,
                               const QList<QPair<QByteArray, QByteArray>> &headers)
{
    QNetworkRequest request(QUrl(m_base + path));
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    if (!m_ca.isNull())
        ssl.addCaCertificate(m_ca);
    request.setSslConfiguration(ssl);
    // A redirect is an answer to look at (the campaigns' click links), never followed.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    if (!m_token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_token.toUtf8());
    for (const auto &h : headers)
        request.setRawHeader(h.first, h.second);
    return m_nam.sendCustomRequest(request, method, body);
}

HttpResult ApiClient::read(QNetworkReply *reply)
{
    HttpResult result;
    if (!reply->isFinished()) {
        reply->abort();
        result.error = QNetworkReply::TimeoutError;
        delete reply;
        return result;
    }
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.error = reply->error();
    result.body = reply->readAll();
    result.json = QJsonDocument::fromJson(result.body).object();
    for (const auto &pair : reply->rawHeaderPairs())
        result.headers.insert(pair.first.toLower(), pair.second);
    delete reply;
    return result;
}

HttpResult ApiClient::call(const QByteArray &method, const QString &path, const QByteArray &body,
                           const QList<QPair<QByteArray, QByteArray>> &headers, int timeoutMs)
{
    QNetworkReply *reply = send(method, path, body, headers);
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    timer.start(timeoutMs);
    if (!reply->isFinished())
        loop.exec();
    return read(reply);
}

namespace {
QList<HttpResult> waitAndRead(const QList<QNetworkReply *> &replies, int timeoutMs)
{
    (void)QTest::qWaitFor(
        [&] { return std::all_of(replies.cbegin(), replies.cend(), [](QNetworkReply *r) { return r->isFinished(); }); },
        timeoutMs);
    QList<HttpResult> results;
    for (QNetworkReply *r : replies)
        results << ApiClient::read(r);
    return results;
}
} // namespace

QList<HttpResult> sendAtOnce(const QList<ApiClient *> &clients, int count, const QByteArray &method,
                             const QString &path, const QByteArray &body,
                             const QList<QPair<QByteArray, QByteArray>> &headers, int timeoutMs)
{
    QList<QNetworkReply *> replies;
    for (int i = 0; i < count; ++i)
        replies << clients.at(i % clients.size())->send(method, path, body, headers);
    return waitAndRead(replies, timeoutMs);
}

QList<HttpResult> sendAtOnce(const QList<ApiCall> &calls, int timeoutMs)
{
    QList<QNetworkReply *> replies;
    for (const ApiCall &c : calls)
        replies << c.client->send(c.method, c.path,
                                  !c.rawBody.isEmpty() ? c.rawBody
                                  : c.body.isEmpty()   ? QByteArray()
                                                       : QJsonDocument(c.body).toJson(),
                                  c.headers);
    return waitAndRead(replies, timeoutMs);
}

// Rounds of count identical POSTs with one Idempotency-Key each, sent at once over clients: every
// answer is the first one's (201, replayed or not) or 409 IDEMPOTENCY_IN_PROGRESS with Retry-After,
// all 201s name one record, and no other status comes. Empty when all held; else what did not.
QString raceOneKey(const QList<ApiClient *> &clients, const QString &path,
                   const std::function<QJsonObject(int round)> &body, int rounds, int count, QSet<QString> *ids)
{
    for (int round = 0; round < rounds; ++round) {
        const QByteArray key =
            "race-" + QByteArray::number(round) + "-" + QByteArray::number(QDateTime::currentMSecsSinceEpoch());
        const QList<HttpResult> answers =
            sendAtOnce(clients, count, "POST", path, QJsonDocument(body(round)).toJson(), {{"Idempotency-Key", key}});
        QSet<QString> created;
        int acted = 0;
        for (const HttpResult &r : answers) {
            if (r.status == 201) {
                created.insert(r.data().value(QLatin1String("id")).toString());
                acted += r.header("idempotent-replayed").isEmpty();
            } else if (r.status != 409 || r.errorCode() != QLatin1String("IDEMPOTENCY_IN_PROGRESS") ||
                       r.header("retry-after").isEmpty()) {
                return QStringLiteral("round %1: %2 %3").arg(round).arg(r.status).arg(QString::fromUtf8(r.body));
            }
        }
        if (created.size() != 1 || acted != 1)
            return QStringLiteral("round %1: %2 record(s), %3 answer(s) that acted")
                .arg(round)
                .arg(created.size())
                .arg(acted);
        ids->unite(created);
    }
    return {};
}

ApiFixture::ApiFixture(Client c)
    : server(db.dir())
{
    if (c == Client::ApiKey)
        client = server.apiKeyClient();
}
