// Users over real HTTPS: an admin lists, adds, changes and deactivates users; an agent reads and
// renames only themselves; deactivating ends the user's tokens and API keys at once; the last
// admin stays; a password change signs out the other sessions; logout ends the refresh token's
// login. Bad bodies get the envelope's 400/422, never 500.
#include "model/accounts/userrepository.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QtTest>

class TestUsersApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ApiFixture> m_api;
    std::unique_ptr<ApiClient> m_admin;
    std::unique_ptr<ApiClient> m_agent;

    QString idOf(const QString &email)
    {
        const HttpResult r = m_admin->get("/api/v1/users");
        for (const QJsonValue &v : r.json.value("data").toArray()) {
            if (v.toObject().value("email").toString() == email)
                return v.toObject().value("id").toString();
        }
        return {};
    }

    // Signs in with a password; the whole answer (tokens in data).
    HttpResult login(const QString &email, const QString &password)
    {
        return m_api->server.client()->post("/api/v1/auth/login", {{"email", email}, {"password", password}});
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_api = std::make_unique<ApiFixture>(ApiFixture::Client::None);
        m_admin = m_api->server.signedInClient("yonetici@example.com", "admin");
        m_agent = m_api->server.signedInClient("temsilci@example.com", "agent");
        QVERIFY(m_admin && m_agent);
    }

    void cleanup()
    {
        m_admin.reset();
        m_agent.reset();
        m_api.reset();
    }

    void meIsTheSignedInUser()
    {
        const HttpResult r = m_agent->get("/api/v1/users/me");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("email").toString(), QString("temsilci@example.com"));
        QCOMPARE(r.data().value("role").toString(), QString("agent"));
        // An API key is not a person.
        auto key = m_api->server.apiKeyClient();
        QCOMPARE(key->get("/api/v1/users/me").status, 403);
        QCOMPARE(m_api->server.client()->get("/api/v1/users/me").status, 401);
    }

    void adminAddsAndListsUsers()
    {
        const HttpResult made = m_admin->post(
            "/api/v1/users",
            {{"email", "Ayse.Yilmaz@example.com"}, {"name", "Ayşe Yılmaz"}, {"password", "güçlü parola 1"}});
        QCOMPARE(made.status, 201);
        QCOMPARE(made.data().value("role").toString(), QString("agent")); // the default
        QVERIFY(!made.data().contains("passwordHash"));
        QCOMPARE(login("ayse.yilmaz@example.com", "güçlü parola 1").status, 200);
        const HttpResult list = m_admin->get("/api/v1/users");
        QCOMPARE(list.status, 200);
        QCOMPARE(list.json.value("data").toArray().size(), 3);
        QCOMPARE(m_admin
                     ->post("/api/v1/users",
                            {{"email", "ayse.yilmaz@EXAMPLE.com"}, {"name", "İkinci"}, {"password", "12345678"}})
                     .status,
                 409);
    }

    void refusesBadUserBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::newRow("no email") << QByteArray(R"({"name":"A","password":"12345678"})") << 422;
        QTest::newRow("no name") << QByteArray(R"({"email":"a@example.com","password":"12345678"})") << 422;
        QTest::newRow("no password") << QByteArray(R"({"email":"a@example.com","name":"A"})") << 422;
        QTest::newRow("short password") << QByteArray(R"({"email":"a@example.com","name":"A","password":"1234567"})")
                                        << 400;
        QTest::newRow("bad e-mail") << QByteArray(R"({"email":"a@","name":"A","password":"12345678"})") << 400;
        QTest::newRow("unknown role")
            << QByteArray(R"({"email":"a@example.com","name":"A","password":"12345678","role":"owner"})") << 400;
        QTest::newRow("role not a string")
            << QByteArray(R"({"email":"a@example.com","name":"A","password":"12345678","role":1})") << 400;
        QTest::newRow("email not a string") << QByteArray(R"({"email":5,"name":"A","password":"12345678"})") << 400;
        QTest::newRow("not JSON") << QByteArray("{") << 400;
        // One rule for a name on create and update (PATCH refused what POST took).
        QTest::newRow("name of 201 characters")
            << (R"({"email":"a@example.com","password":"12345678","name":")" + QByteArray(201, 'a') + R"("})") << 400;
        QTest::newRow("name of 5,000 characters")
            << (R"({"email":"a@example.com","password":"12345678","name":")" + QByteArray(5000, 'a') + R"("})") << 400;
    }
    void refusesBadUserBodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        const HttpResult r = m_admin->call("POST", "/api/v1/users", body, {{"Content-Type", "application/json"}});
        QCOMPARE(r.status, status);
        QVERIFY(!r.errorCode().isEmpty());
        QCOMPARE(m_admin->get("/api/v1/users").json.value("data").toArray().size(), 2); // nothing stored
    }

    void agentsSeeOnlyThemselves()
    {
        const QString adminId = idOf("yonetici@example.com");
        const QString agentId = idOf("temsilci@example.com");
        QCOMPARE(m_agent->get("/api/v1/users").status, 403);
        QCOMPARE(m_agent->post("/api/v1/users", {{"email", "x@example.com"}, {"name", "X"}, {"password", "12345678"}})
                     .status,
                 403);
        QCOMPARE(m_agent->get("/api/v1/users/" + adminId).status, 404);
        QCOMPARE(m_agent->get("/api/v1/users/" + agentId).status, 200);
        QCOMPARE(m_agent->del("/api/v1/users/" + adminId).status, 403);
        // Their own name, yes; their role or access, no.
        const HttpResult renamed = m_agent->patch("/api/v1/users/" + agentId, {{"name", "Temsilci Çağrı"}});
        QCOMPARE(renamed.status, 200);
        QCOMPARE(renamed.data().value("name").toString(), QString("Temsilci Çağrı"));
        QCOMPARE(m_agent->patch("/api/v1/users/" + agentId, {{"role", "admin"}}).status, 403);
        QCOMPARE(m_agent->patch("/api/v1/users/" + agentId, {{"active", false}}).status, 403);
        QCOMPARE(m_agent->patch("/api/v1/users/" + adminId, {{"name", "X"}}).status, 404);
    }

    void deactivatingEndsTokensAndKeysAtOnce()
    {
        const QString agentId = idOf("temsilci@example.com");
        // The agent's own API key and a refresh token.
        const HttpResult key = m_agent->post("/api/v1/api-keys", {{"name", "otomasyon"}});
        QCOMPARE(key.status, 201);
        auto keyClient = m_api->server.client(key.data().value("key").toString());
        QCOMPARE(keyClient->get("/api/v1/contacts").status, 200);
        const HttpResult session = login("temsilci@example.com", "correct horse battery");
        QCOMPARE(session.status, 200);
        const QString refresh = session.data().value("refreshToken").toString();

        const HttpResult gone = m_admin->del("/api/v1/users/" + agentId);
        QCOMPARE(gone.status, 200);
        QCOMPARE(gone.data().value("active").toBool(true), false);
        QCOMPARE(m_agent->get("/api/v1/contacts").status, 401);
        QCOMPARE(keyClient->get("/api/v1/contacts").status, 401);
        QCOMPARE(m_api->server.client()->post("/api/v1/auth/refresh", {{"refreshToken", refresh}}).status, 401);
        QCOMPARE(login("temsilci@example.com", "correct horse battery").status, 401);
        // Back again: signs in; the old refresh token stays ended.
        QCOMPARE(m_admin->patch("/api/v1/users/" + agentId, {{"active", true}}).status, 200);
        const HttpResult back = login("temsilci@example.com", "correct horse battery");
        QCOMPARE(back.status, 200);
        QCOMPARE(m_api->server.client()->post("/api/v1/auth/refresh", {{"refreshToken", refresh}}).status, 401);

        // PATCH active false ends them as DELETE does (the model's deactivation, in its transaction):
        // the token is dead in the database at once, and stays so after a reactivation.
        const QString second = back.data().value("refreshToken").toString();
        RefreshTokenRepository tokens(testStore());
        QVERIFY(tokens.isLive(second, testStore().now()));
        QCOMPARE(m_admin->patch("/api/v1/users/" + agentId, {{"active", false}}).status, 200);
        QVERIFY(!tokens.isLive(second, testStore().now()));
        QCOMPARE(m_admin->patch("/api/v1/users/" + agentId, {{"active", true}}).status, 200);
        QCOMPARE(m_api->server.client()->post("/api/v1/auth/refresh", {{"refreshToken", second}}).status, 401);
    }

    void theLastAdminStays()
    {
        const QString adminId = idOf("yonetici@example.com");
        QCOMPARE(m_admin->del("/api/v1/users/" + adminId).status, 409);
        QCOMPARE(m_admin->patch("/api/v1/users/" + adminId, {{"role", "agent"}}).status, 409);
        QCOMPARE(m_admin->get("/api/v1/users/me").data().value("role").toString(), QString("admin"));
        // With a second admin, the first may step down.
        const QString agentId = idOf("temsilci@example.com");
        QCOMPARE(m_admin->patch("/api/v1/users/" + agentId, {{"role", "admin"}}).status, 200);
        QCOMPARE(m_admin->patch("/api/v1/users/" + adminId, {{"role", "agent"}}).status, 200);
    }

    void refusesBadPatches_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("empty name") << QByteArray(R"({"name":"  "})");
        QTest::newRow("name not a string") << QByteArray(R"({"name":7})");
        QTest::newRow("active not a boolean") << QByteArray(R"({"active":"no"})");
        QTest::newRow("unknown role") << QByteArray(R"({"role":"boss"})");
        QTest::newRow("name of 201 characters") << (R"({"name":")" + QByteArray(201, 'a') + R"("})");
    }
    void refusesBadPatches()
    {
        QFETCH(QByteArray, body);
        const QString agentId = idOf("temsilci@example.com");
        const QJsonObject before = m_admin->get("/api/v1/users/" + agentId).data();
        const HttpResult r =
            m_admin->call("PATCH", "/api/v1/users/" + agentId, body, {{"Content-Type", "application/json"}});
        QCOMPARE(r.status, 400);
        const HttpResult after = m_admin->get("/api/v1/users/" + agentId);
        QCOMPARE(after.data(), before); // nothing half-written
        QCOMPARE(after.data().value("role").toString(), QString("agent"));
        QCOMPARE(after.data().value("active").toBool(), true);
        QCOMPARE(m_admin->patch("/api/v1/users/user_unknown", {{"name", "X"}}).status, 404);
    }

    void passwordChangeSignsOutOtherSessions()
    {
        const HttpResult other = login("temsilci@example.com", "correct horse battery");
        QCOMPARE(other.status, 200);
        QCOMPARE(m_agent
                     ->post("/api/v1/users/me/password",
                            {{"currentPassword", "wrong one"}, {"newPassword", "yeni parola 2026"}})
                     .status,
                 401);
        QCOMPARE(m_agent
                     ->post("/api/v1/users/me/password",
                            {{"currentPassword", "correct horse battery"}, {"newPassword", "kısa"}})
                     .status,
                 400);
        const HttpResult changed =
            m_agent->post("/api/v1/users/me/password",
                          {{"currentPassword", "correct horse battery"}, {"newPassword", "yeni parola 2026"}});
        QCOMPARE(changed.status, 200);
        QCOMPARE(login("temsilci@example.com", "correct horse battery").status, 401);
        QCOMPARE(login("temsilci@example.com", "yeni parola 2026").status, 200);
        QCOMPARE(m_api->server.client()
                     ->post("/api/v1/auth/refresh", {{"refreshToken", other.data().value("refreshToken").toString()}})
                     .status,
                 401);
    }

    void logoutEndsTheLogin()
    {
        const HttpResult session = login("temsilci@example.com", "correct horse battery");
        QCOMPARE(session.status, 200);
        auto anonymous = m_api->server.client();
        const HttpResult refreshed = anonymous->post(
            "/api/v1/auth/refresh", {{"refreshToken", session.data().value("refreshToken").toString()}});
        QCOMPARE(refreshed.status, 200);
        const QString latest = refreshed.data().value("refreshToken").toString();
        const HttpResult out = anonymous->post("/api/v1/auth/logout", {{"refreshToken", latest}});
        QCOMPARE(out.status, 200);
        QCOMPARE(out.data().value("signedOut").toBool(), true);
        QCOMPARE(anonymous->post("/api/v1/auth/refresh", {{"refreshToken", latest}}).status, 401);
        // Again, or with a token nobody knows: still signed out.
        QCOMPARE(anonymous->post("/api/v1/auth/logout", {{"refreshToken", latest}}).status, 200);
        QCOMPARE(anonymous->post("/api/v1/auth/logout", {{"refreshToken", "lr_unknown"}}).status, 200);
        QCOMPARE(anonymous->post("/api/v1/auth/logout", QJsonObject{}).status, 422);
        QCOMPARE(anonymous->post("/api/v1/auth/logout", {{"refreshToken", 5}}).status, 400);
    }
};

QTEST_GUILESS_MAIN(TestUsersApi)
#include "test_usersapi.moc"
