#include "tests/support/testsupport.h"

#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "server/api/crypto.h"

#include <QEventLoop>
#include <QFile>
#include <QNetworkReply>
#include <QSslConfiguration>
#include <QTimer>
#include <QtTest>

QPair<QString, int> refusalOf(const std::function<void()> &call)
{
    try {
        call();
    } catch (const DomainError &e) {
        return qMakePair(e.details().keys().join(QLatin1Char(',')), int(e.kind()));
    }
    return qMakePair(QString(), -1);
}

WebhookChanges webhookChanges(const QJsonObject &body)
{
    WebhookPolicy everyAddress;
    everyAddress.targets = WebhookTargets::Local;
    everyAddress.allowInsecureLocal = true;
    return WebhookRules::parse(body, everyAddress);
}

Store testStore()
{
    static EventBus bus;
    return Store(bus);
}

TempDatabase::TempDatabase()
{
    Database::setPath(file());
    Database::migrate();
}

TempDatabase::~TempDatabase()
{
    Database::closeThreadConnection();
}

QString TempDatabase::file() const
{
    return m_dir.filePath(QStringLiteral("liaison.db"));
}

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

HttpResult ApiClient::call(const QByteArray &method, const QString &path, const QByteArray &body,
                           const QList<QPair<QByteArray, QByteArray>> &headers, int timeoutMs)
{
    QNetworkRequest request(QUrl(m_base + path));
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    if (!m_ca.isNull())
        ssl.addCaCertificate(m_ca);
    request.setSslConfiguration(ssl);
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    if (!m_token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_token.toUtf8());
    for (const auto &h : headers)
        request.setRawHeader(h.first, h.second);
    QNetworkReply *reply = m_nam.sendCustomRequest(request, method, body);
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    timer.start(timeoutMs);
    if (!reply->isFinished())
        loop.exec();
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

ApiFixture::ApiFixture(Client c)
    : server(db.dir())
{
    if (c == Client::ApiKey)
        client = server.apiKeyClient();
}
