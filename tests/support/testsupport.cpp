#include "tests/support/testsupport.h"

#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "server/api/crypto.h"

#include <QEventLoop>
#include <QFile>
#include <QNetworkReply>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSslConfiguration>
#include <QTimer>
#include <QtTest>

#include <atomic>

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

QByteArray ProgramRun::describe() const
{
    return QStringLiteral("exit %1 finished %2\n--- stdout\n%3--- stderr\n%4")
        .arg(exitCode)
        .arg(finished)
        .arg(out, err)
        .toUtf8();
}

ProgramRun runProgram(const QString &program, const QStringList &args, const QByteArray &stdinData, int timeoutMs)
{
    QProcess p;
    p.setProgram(program);
    p.setArguments(args);
    p.start();
    ProgramRun r;
    if (!p.waitForStarted(10000)) {
        r.err = QStringLiteral("did not start: ") + p.errorString();
        return r;
    }
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

TempDatabase::TempDatabase()
{
    if (qEnvironmentVariable("LIAISON_TEST_DATABASE") == QLatin1String("postgresql")) {
        m_pg = std::make_unique<TempPostgresSchema>();
        if (!m_pg->available())
            qFatal("%s", qPrintable(m_pg->why()));
    } else {
        Database::setPath(file());
    }
    Database::migrate();
}

TempDatabase::~TempDatabase()
{
    Database::closeThreadConnection();
    m_pg.reset();
}

QString TempDatabase::file() const
{
    return m_dir.filePath(QStringLiteral("liaison.db"));
}

namespace {
// The database URL of the test run's cluster, or nullopt with why.
std::optional<DatabaseUrl> testPostgresUrl(QString *why)
{
    const QString text = qEnvironmentVariable("LIAISON_TEST_POSTGRES_URL");
    if (text.isEmpty()) {
        *why = QStringLiteral("LIAISON_TEST_POSTGRES_URL is not set: run this test through ctest (its "
                              "\"postgres\" fixture starts a cluster), or start one with scripts/pg-cluster.sh");
        return std::nullopt;
    }
    return DatabaseUrl::parse(text, why);
}

// Runs one statement on a connection of its own (schemas are made and dropped outside the tested one).
bool adminExec(const DatabaseUrl &url, const QString &sql, QString *why)
{
    const QString name = QStringLiteral("liaison-test-admin");
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        db.setHostName(url.host);
        db.setPort(url.port);
        db.setDatabaseName(url.dbname);
        db.setUserName(url.user);
        db.setConnectOptions(QStringLiteral("options='-cclient_min_messages=warning'"));
        if (db.open()) {
            QSqlQuery q(db);
            ok = q.exec(sql);
            if (!ok)
                *why = q.lastError().text();
            db.close();
        } else {
            *why = db.lastError().text();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}
} // namespace

TempPostgresSchema::TempPostgresSchema()
{
    const std::optional<DatabaseUrl> url = testPostgresUrl(&m_why);
    if (!url)
        return;
    static std::atomic<int> counter{0};
    const QString name = QStringLiteral("test_%1_%2").arg(QCoreApplication::applicationPid()).arg(++counter);
    if (!adminExec(*url, QStringLiteral("CREATE SCHEMA %1").arg(name), &m_why))
        return;
    m_name = name;
    Database::setPostgres(*url, QString(), m_name);
}

TempPostgresSchema::~TempPostgresSchema()
{
    Database::closeThreadConnection();
    QString why;
    const std::optional<DatabaseUrl> url = testPostgresUrl(&why);
    if (url && !m_name.isEmpty() && !adminExec(*url, QStringLiteral("DROP SCHEMA %1 CASCADE").arg(m_name), &why))
        qWarning().noquote() << "could not drop the test schema" << m_name << why;
}

TempPostgresDatabase::TempPostgresDatabase(const QString &prefix)
{
    const std::optional<DatabaseUrl> url = testPostgresUrl(&m_why);
    if (!url)
        return;
    m_cluster = *url;
    const QString name = QStringLiteral("%1_%2").arg(prefix).arg(QCoreApplication::applicationPid());
    if (!adminExec(m_cluster, QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(name), &m_why) ||
        !adminExec(m_cluster, QStringLiteral("CREATE DATABASE %1").arg(name), &m_why))
        return;
    m_name = name;
}

TempPostgresDatabase::~TempPostgresDatabase()
{
    QString why;
    if (!m_name.isEmpty() &&
        !adminExec(m_cluster, QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_name), &why))
        qWarning().noquote() << "could not drop the test database" << m_name << why;
}

QString TempPostgresDatabase::url() const
{
    DatabaseUrl u = m_cluster;
    u.dbname = m_name;
    return u.toString();
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
