// Roles over real HTTPS: configuration routes (webhooks outgoing and incoming, pipelines' and
// templates' create/change/delete) answer 403 to an agent's token and work for an admin's; the CRM
// data stays open to agents; the OpenAPI document marks the admin routes.
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QtTest>

class TestRolesApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ApiFixture> m_api;
    std::unique_ptr<ApiClient> m_admin;
    std::unique_ptr<ApiClient> m_agent;

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_api = std::make_unique<ApiFixture>(ApiFixture::Client::None);
        m_admin = m_api->server.signedInClient("admin@example.com", "admin");
        m_agent = m_api->server.signedInClient("agent@example.com", "agent");
        QVERIFY(m_admin && m_agent);
    }

    void cleanup()
    {
        m_admin.reset();
        m_agent.reset();
        m_api.reset();
    }

    void configurationRoutesAreAdminOnly_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("body");

        auto row = [](const char *method, const char *path, const char *body = "") {
            QTest::newRow(QByteArray(method).append(' ').append(path).constData())
                << QByteArray(method) << QString::fromLatin1(path) << QByteArray(body);
        };
        row("GET", "/api/v1/webhooks");
        row("POST", "/api/v1/webhooks", "{\"url\":\"https://hooks.example.com/a\",\"events\":[\"*\"]}");
        row("PUT", "/api/v1/webhooks/{webhook}", "{\"events\":[\"contact.created\"]}");
        row("POST", "/api/v1/webhooks/{webhook}/disable");
        row("POST", "/api/v1/webhooks/{webhook}/enable");
        row("GET", "/api/v1/webhooks/{webhook}/logs");
        row("DELETE", "/api/v1/webhooks/{webhook}");
        row("GET", "/api/v1/webhooks/incoming");
        row("POST", "/api/v1/webhooks/incoming", "{\"name\":\"Form\",\"action\":\"contact.upsert\"}");
        row("POST", "/api/v1/pipelines", "{\"name\":\"İhracat\",\"stages\":[{\"name\":\"Teklif\"}]}");
        row("PATCH", "/api/v1/pipelines/{pipeline}", "{\"name\":\"Yurt içi\"}");
        row("DELETE", "/api/v1/pipelines/{pipeline}");
        row("POST", "/api/v1/templates", "{\"name\":\"hosgeldin\",\"language\":\"tr\",\"body\":\"Merhaba {{1}}\"}");
        row("PATCH", "/api/v1/templates/{template}", "{\"body\":\"Selam {{1}}\"}");
        row("DELETE", "/api/v1/templates/{template}");
    }

    void configurationRoutesAreAdminOnly()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QByteArray, body);
        // Something to act on, made by the admin.
        const HttpResult webhook =
            m_admin->post("/api/v1/webhooks", {{"url", "https://hooks.example.com/x"}, {"events", QJsonArray{"*"}}});
        QCOMPARE(webhook.status, 201);
        const HttpResult pipeline = m_admin->post(
            "/api/v1/pipelines", {{"name", "Bayi"}, {"stages", QJsonArray{QJsonObject{{"name", "Görüşme"}}}}});
        QCOMPARE(pipeline.status, 201);
        const HttpResult tpl = m_admin->post("/api/v1/templates",
                                             {{"name", "tesekkur"}, {"language", "tr"}, {"body", "Teşekkürler {{1}}"}});
        QCOMPARE(tpl.status, 201);
        path.replace("{webhook}", webhook.data().value("id").toString());
        path.replace("{pipeline}", pipeline.data().value("id").toString());
        path.replace("{template}", tpl.data().value("id").toString());
        const QList<QPair<QByteArray, QByteArray>> json{{"Content-Type", "application/json"}};

        const HttpResult agent = m_agent->call(method, path, body, json);
        QCOMPARE(agent.status, 403);
        QCOMPARE(agent.errorCode(), QString("FORBIDDEN"));
        QVERIFY(agent.json.value("error").toObject().value("message").toString().contains("admin"));

        const HttpResult admin = m_admin->call(method, path, body, json);
        QVERIFY2(admin.status < 300, admin.body.constData());
    }

    void agentsWorkWithTheCrmData()
    {
        const HttpResult contact =
            m_agent->post("/api/v1/contacts", {{"firstName", "Nazlı"}, {"email", "n@example.com"}});
        QCOMPARE(contact.status, 201);
        const HttpResult deal =
            m_agent->post("/api/v1/deals",
                          {{"name", "Kurulum"}, {"value", 100}, {"contactId", contact.data().value("id").toString()}});
        QCOMPARE(deal.status, 201);
        QCOMPARE(m_agent->get("/api/v1/pipelines").status, 200);
        QCOMPARE(m_agent->get("/api/v1/templates").status, 200);
        QCOMPARE(m_agent->post("/api/v1/tasks", {{"title", "Ara"}}).status, 201);
    }

    // API keys belong to a user and act with the user's role; their scopes stay within it.
    void anAgentsKeyActsAsAnAgent()
    {
        const HttpResult made = m_agent->post("/api/v1/api-keys", {{"name", "Betik"}});
        QCOMPARE(made.status, 201);
        const QJsonObject key = made.data();
        QVERIFY(key.value("key").toString().startsWith("lk_"));
        QCOMPARE(key.value("role").toString(), QString("agent"));
        QVERIFY(!key.value("createdBy").toString().isEmpty());
        const QStringList scopes = key.value("scopes").toVariant().toStringList();
        QVERIFY2(!scopes.contains("*") && !scopes.contains("webhooks:*"), qPrintable(scopes.join(' ')));
        QVERIFY(scopes.contains("contacts:*"));
        auto byKey = m_api->server.client(key.value("key").toString());
        QCOMPARE(byKey->post("/api/v1/contacts", {{"firstName", "Ece"}, {"email", "ece@example.com"}}).status, 201);
        // Configuration stays out of reach, whatever the key carries.
        const HttpResult pipeline =
            byKey->post("/api/v1/pipelines", {{"name", "X"}, {"stages", QJsonArray{QJsonObject{{"name", "A"}}}}});
        QCOMPARE(pipeline.status, 403);
        QVERIFY(pipeline.json.value("error").toObject().value("message").toString().contains("admin"));
        // A key cannot make keys.
        QCOMPARE(byKey->post("/api/v1/api-keys", {{"name", "more"}}).status, 403);
    }

    void scopesStayWithinTheOwnersRole_data()
    {
        QTest::addColumn<QJsonArray>("scopes");
        QTest::addColumn<int>("agent");
        QTest::newRow("everything") << QJsonArray{"*"} << 403;
        QTest::newRow("webhooks write") << QJsonArray{"webhooks:write"} << 403;
        QTest::newRow("webhooks read") << QJsonArray{"webhooks:read"} << 403;
        QTest::newRow("settings") << QJsonArray{"settings:*"} << 403;
        QTest::newRow("contacts and deals") << QJsonArray{"contacts:read", "deals:write"} << 201;
        QTest::newRow("unknown") << QJsonArray{"nope:read"} << 400;
        QTest::newRow("not strings") << QJsonArray{1} << 400;
    }

    void scopesStayWithinTheOwnersRole()
    {
        QFETCH(QJsonArray, scopes);
        QFETCH(int, agent);
        const HttpResult byAgent = m_agent->post("/api/v1/api-keys", {{"name", "k"}, {"scopes", scopes}});
        QCOMPARE(byAgent.status, agent);
        if (agent == 403)
            QCOMPARE(byAgent.errorCode(), QString("FORBIDDEN"));
        // An admin may give any known scope.
        const HttpResult byAdmin = m_admin->post("/api/v1/api-keys", {{"name", "k"}, {"scopes", scopes}});
        QCOMPARE(byAdmin.status, agent == 400 ? 400 : 201);
    }

    void eachUserManagesTheirOwnKeysAndAnAdminAll()
    {
        const QString agentKey = m_agent->post("/api/v1/api-keys", {{"name", "ajan"}}).data().value("id").toString();
        const QString adminKey =
            m_admin->post("/api/v1/api-keys", {{"name", "yonetici"}}).data().value("id").toString();
        QVERIFY(!agentKey.isEmpty() && !adminKey.isEmpty());
        auto ids = [](const HttpResult &r) {
            QStringList out;
            for (const QJsonValue &v : r.json.value("data").toArray())
                out << v.toObject().value("id").toString();
            return out;
        };
        const HttpResult agentList = m_agent->get("/api/v1/api-keys");
        QCOMPARE(agentList.status, 200);
        QCOMPARE(ids(agentList), QStringList{agentKey});
        QVERIFY(ids(m_admin->get("/api/v1/api-keys")).contains(agentKey));
        QVERIFY(ids(m_admin->get("/api/v1/api-keys")).contains(adminKey));
        // An agent neither sees nor revokes another's key; another user's list is closed to them.
        QCOMPARE(m_agent->del("/api/v1/api-keys/" + adminKey).status, 404);
        QCOMPARE(m_agent->get("/api/v1/api-keys?userId=someone").status, 403);
        QCOMPARE(m_agent->post("/api/v1/api-keys", {{"name", "x"}, {"userId", "user_other"}}).status, 403);
        // An admin revokes the agent's key; it stops working at once.
        const HttpResult made = m_agent->post("/api/v1/api-keys", {{"name", "kisa"}});
        auto byKey = m_api->server.client(made.data().value("key").toString());
        QCOMPARE(byKey->get("/api/v1/contacts").status, 200);
        const HttpResult revoked = m_admin->del("/api/v1/api-keys/" + made.data().value("id").toString());
        QCOMPARE(revoked.status, 200);
        QCOMPARE(revoked.data().value("active").toBool(), false);
        QCOMPARE(byKey->get("/api/v1/contacts").status, 401);
        QCOMPARE(m_agent->del("/api/v1/api-keys/apikey_nothing").status, 404);
    }

    void aKeyWithoutAnOwnerActsAsAnAdmin()
    {
        // Made before keys had owners (or before any user existed): the machine owner's key.
        auto legacy = m_api->server.apiKeyClient({"*"});
        QCOMPARE(legacy->get("/api/v1/webhooks").status, 200);
    }

    void theOpenApiDocumentMarksAdminRoutes()
    {
        const HttpResult doc = m_admin->get("/api/v1/openapi.json");
        QCOMPARE(doc.status, 200);
        const QJsonObject paths = doc.json.value("paths").toObject();
        QCOMPARE(
            paths.value("/api/v1/webhooks").toObject().value("post").toObject().value("x-required-role").toString(),
            QString("admin"));
        QVERIFY(!paths.value("/api/v1/contacts").toObject().value("post").toObject().contains("x-required-role"));
    }
};

QTEST_GUILESS_MAIN(TestRolesApi)
#include "test_rolesapi.moc"
