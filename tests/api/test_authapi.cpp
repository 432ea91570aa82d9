// Authentication, rate limits and the cross-cutting headers over real HTTPS on loopback: login,
// refresh, JWT checks (tampered, alg none, expired), failed-login limit, per-credential rate limit
// with its X-RateLimit-* headers and 429, X-Request-Id, 401 versus 403, plain HTTP when asked.
#include "model/accounts/userrepository.h"
#include "model/core/errors.h"
#include "tests/support/fakeclock.h"
#include "tests/support/testsupport.h"

#include "model/accounts/apikeyrepository.h"
#include "model/core/timeutil.h"

#include <QJsonArray>
#include <QMessageAuthenticationCode>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

namespace {
const QString kEmail = QStringLiteral("ayse@example.com");
const QString kPassword = QStringLiteral("correct horse battery");
const QByteArray kTestJwtKey = QByteArrayLiteral("test-signing-key-0123456789abcdef"); // TestServer's key

QByteArray b64url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// A JWT over header and claims, HS256-signed with key (an empty key: empty signature).
QString makeJwt(const QJsonObject &header, const QJsonObject &claims, const QByteArray &key)
{
    const QByteArray input = b64url(json(header)) + '.' + b64url(json(claims));
    const QByteArray signature =
        key.isEmpty() ? QByteArray() : QMessageAuthenticationCode::hash(input, key, QCryptographicHash::Sha256);
    return QString::fromLatin1(input + '.' + b64url(signature));
}

QJsonObject jwtClaims(const QString &token)
{
    const QList<QByteArray> parts = token.toLatin1().split('.');
    if (parts.size() != 3)
        return {};
    return QJsonDocument::fromJson(QByteArray::fromBase64(parts.at(1), QByteArray::Base64UrlEncoding)).object();
}

bool isInteger(const QByteArray &value, qint64 *out = nullptr)
{
    bool ok = false;
    const qint64 n = value.toLongLong(&ok);
    if (ok && out)
        *out = n;
    return ok && !value.isEmpty() && value == QByteArray::number(n);
}
} // namespace

class TestAuthApi : public QObject
{
    Q_OBJECT

private:
    // The clock outlives the server that points at it.
    // The server's clock (a fresh one at each start: the system's time until a test moves it).
    FakeClock &clock() { return m_server->clock(); }
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<ApiClient> m_client; // anonymous

    HttpResult login(const QString &email, const QString &password)
    {
        return m_client->post(QStringLiteral("/api/v1/auth/login"), {{"email", email}, {"password", password}});
    }

    std::unique_ptr<ApiClient> clientWith(const QString &token)
    {
        auto c = std::make_unique<ApiClient>(m_server->baseUrl(), m_server->certificate());
        c->setToken(token);
        return c;
    }

    void restartServer(int rateLimitPerMinute, bool tls = true,
                       const std::function<void(ServerConfig &)> &configure = nullptr)
    {
        m_client.reset();
        m_server.reset();
        if (configure) {
            m_server = std::make_unique<TestServer>(m_db->dir(), [&](ServerConfig &c) {
                c.rateLimitPerMinute = rateLimitPerMinute;
                c.tls = tls;
                configure(c);
            });
        } else {
            m_server = std::make_unique<TestServer>(m_db->dir(), rateLimitPerMinute, tls);
        }
        m_client = std::make_unique<ApiClient>(m_server->baseUrl(), m_server->certificate());
    }

    static void verifyErrorEnvelope(const HttpResult &r)
    {
        QCOMPARE(r.json.value("success").toBool(true), false);
        QVERIFY2(!r.errorCode().isEmpty(), r.body.constData());
        QVERIFY2(!r.json.value("error").toObject().value("message").toString().isEmpty(), r.body.constData());
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
        m_server = std::make_unique<TestServer>(m_db->dir());
        m_server->createUser(kEmail, kPassword);
        m_client = std::make_unique<ApiClient>(m_server->baseUrl(), m_server->certificate());
    }

    void cleanup()
    {
        m_client.reset();
        m_server.reset();
        m_db.reset();
    }

    // ----- login -----

    void loginAnswersTokenPairAndUser()
    {
        const HttpResult r = login(kEmail, kPassword);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("success").toBool(), true);
        const QJsonObject d = r.data();
        const QString access = d.value("accessToken").toString();
        QCOMPARE(access.split('.').size(), 3);
        for (const QString &part : access.split('.'))
            QVERIFY(!part.isEmpty());
        const QJsonObject claims = jwtClaims(access);
        QVERIFY(claims.value("exp").isDouble());
        QVERIFY(!claims.value("sub").toString().isEmpty());
        QVERIFY(!d.value("refreshToken").toString().isEmpty());
        QVERIFY(d.value("refreshToken").toString() != access);
        QCOMPARE(d.value("expiresIn").toInt(), 900);
        const qint64 lifetime = qint64(claims.value("exp").toDouble()) - QDateTime::currentSecsSinceEpoch();
        QVERIFY2(lifetime > 880 && lifetime <= 900, qPrintable(QString::number(lifetime)));

        const QJsonObject user = d.value("user").toObject();
        QCOMPARE(user.value("email").toString(), kEmail);
        QCOMPARE(user.value("id").toString(), claims.value("sub").toString());
        QVERIFY(!user.value("role").toString().isEmpty());
        for (const QString &key : user.keys()) {
            QVERIFY2(!key.contains("password", Qt::CaseInsensitive) && !key.contains("hash", Qt::CaseInsensitive),
                     qPrintable(key));
        }
        QVERIFY2(!r.body.contains("pbkdf2") && !r.body.contains("argon2"), r.body.constData());
        QVERIFY(!r.header("x-request-id").isEmpty());
    }

    void loginEmailIsCaseInsensitive() { QCOMPARE(login("  AYSE@Example.COM ", kPassword).status, 200); }

    void accessTokenWorksAsBearer()
    {
        const QString access = login(kEmail, kPassword).data().value("accessToken").toString();
        QVERIFY(!access.isEmpty());
        const auto user = clientWith(access);
        const HttpResult r = user->get("/api/v1/contacts");
        QCOMPARE(r.status, 200);
        QVERIFY(r.json.value("data").isArray());
        // a user has every scope: writing works too
        QCOMPARE(user->post("/api/v1/contacts", {{"firstName", "A"}, {"email", "a@example.com"}}).status, 201);
        // and "bearer" in lower case is accepted as well
        QCOMPARE(
            m_client->call("GET", "/api/v1/contacts", {}, {{"Authorization", "bearer " + access.toLatin1()}}).status,
            200);
    }

    void wrongPasswordAndUnknownEmailAre401Alike()
    {
        const HttpResult wrong = login(kEmail, "wrong password");
        QCOMPARE(wrong.status, 401);
        verifyErrorEnvelope(wrong);
        const HttpResult unknown = login("nobody@example.com", kPassword);
        QCOMPARE(unknown.status, 401);
        verifyErrorEnvelope(unknown);
        // nothing tells which e-mails exist
        QCOMPARE(unknown.errorCode(), wrong.errorCode());
        QCOMPARE(unknown.json.value("error").toObject().value("message").toString(),
                 wrong.json.value("error").toObject().value("message").toString());
        QVERIFY(!wrong.data().contains("accessToken"));
    }

    void missingFieldsAre422_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("no password") << json({{"email", kEmail}});
        QTest::newRow("no email") << json({{"password", kPassword}});
        QTest::newRow("empty object") << json({});
        QTest::newRow("empty password") << json({{"email", kEmail}, {"password", ""}});
        QTest::newRow("no body") << QByteArray();
    }
    void missingFieldsAre422()
    {
        QFETCH(QByteArray, body);
        const HttpResult r = m_client->call("POST", "/api/v1/auth/login", body, {{"Content-Type", "application/json"}});
        QCOMPARE(r.status, 422);
        verifyErrorEnvelope(r);
    }

    void wrongTypesAre400_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::newRow("email number") << QJsonObject{{"email", 5}, {"password", kPassword}};
        QTest::newRow("password array") << QJsonObject{{"email", kEmail}, {"password", QJsonArray{kPassword}}};
        QTest::newRow("password object") << QJsonObject{{"email", kEmail}, {"password", QJsonObject{}}};
        QTest::newRow("email bool") << QJsonObject{{"email", true}, {"password", kPassword}};
    }
    void wrongTypesAre400()
    {
        QFETCH(QJsonObject, body);
        const HttpResult r = m_client->post("/api/v1/auth/login", body);
        QCOMPARE(r.status, 400);
        verifyErrorEnvelope(r);
    }

    void malformedJsonIs400_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("truncated") << QByteArray("{\"email\": ");
        QTest::newRow("garbage") << QByteArray("email=a&password=b");
        QTest::newRow("array") << QByteArray("[\"a\", \"b\"]");
        QTest::newRow("string") << QByteArray("\"x\"");
    }
    void malformedJsonIs400()
    {
        QFETCH(QByteArray, body);
        const HttpResult r = m_client->call("POST", "/api/v1/auth/login", body);
        QCOMPARE(r.status, 400);
        verifyErrorEnvelope(r);
        QVERIFY(!r.header("x-request-id").isEmpty());
    }

    // ----- refresh -----

    void refreshRotatesThePair()
    {
        const QJsonObject first = login(kEmail, kPassword).data();
        const QString refresh = first.value("refreshToken").toString();
        QVERIFY(!refresh.isEmpty());

        const HttpResult r = m_client->post("/api/v1/auth/refresh", {{"refreshToken", refresh}});
        QCOMPARE(r.status, 200);
        const QJsonObject second = r.data();
        const QString newAccess = second.value("accessToken").toString();
        const QString newRefresh = second.value("refreshToken").toString();
        QCOMPARE(newAccess.split('.').size(), 3);
        QVERIFY(!newRefresh.isEmpty());
        QVERIFY(newRefresh != refresh);
        QCOMPARE(second.value("expiresIn").toInt(), 900);
        QCOMPARE(second.value("user").toObject().value("email").toString(), kEmail);
        QCOMPARE(clientWith(newAccess)->get("/api/v1/contacts").status, 200);

        // the new one works once
        QCOMPARE(m_client->post("/api/v1/auth/refresh", {{"refreshToken", newRefresh}}).status, 200);
        QCOMPARE(m_client->post("/api/v1/auth/refresh", {{"refreshToken", newRefresh}}).status, 401);
        // the old refresh token is retired (presenting it again also ends its family: see
        // reusedRefreshTokenRevokesItsFamily)
        const HttpResult again = m_client->post("/api/v1/auth/refresh", {{"refreshToken", refresh}});
        QCOMPARE(again.status, 401);
        verifyErrorEnvelope(again);
    }

    // OAuth 2.0 security best practice: a retired refresh token presented again revokes every token
    // descended from its login; other logins of the same user keep working.
    void reusedRefreshTokenRevokesItsFamily()
    {
        const QString r1 = login(kEmail, kPassword).data().value("refreshToken").toString();
        const QString other = login(kEmail, kPassword).data().value("refreshToken").toString();
        const HttpResult second = m_client->post("/api/v1/auth/refresh", {{"refreshToken", r1}});
        QCOMPARE(second.status, 200);
        const QString r2 = second.data().value("refreshToken").toString();
        const HttpResult third = m_client->post("/api/v1/auth/refresh", {{"refreshToken", r2}});
        QCOMPARE(third.status, 200);
        const QString r3 = third.data().value("refreshToken").toString();

        // r1 again (a stolen copy): refused, and the family's live token r3 dies with it
        const HttpResult reuse = m_client->post("/api/v1/auth/refresh", {{"refreshToken", r1}});
        QCOMPARE(reuse.status, 401);
        verifyErrorEnvelope(reuse);
        QCOMPARE(m_client->post("/api/v1/auth/refresh", {{"refreshToken", r3}}).status, 401);
        // the other login's family is untouched
        QCOMPARE(m_client->post("/api/v1/auth/refresh", {{"refreshToken", other}}).status, 200);
    }

    void aDeactivatedUserIsLockedOut()
    {
        const QJsonObject pair = login(kEmail, kPassword).data();
        const QString access = pair.value("accessToken").toString();
        const QString refresh = pair.value("refreshToken").toString();
        const QString userId = pair.value("user").toObject().value("id").toString();
        // Another admin stays, so this user may be deactivated.
        m_server->createUser("ikinci@example.com", kPassword, "admin");
        const QString key = ApiKeyRepository(testStore()).create("betik", {}, userId).secret;
        auto byToken = m_server->client(access);
        auto byKey = m_server->client(key);
        QCOMPARE(byToken->get("/api/v1/contacts").status, 200);
        QCOMPARE(byKey->get("/api/v1/contacts").status, 200);

        UserRepository(testStore()).setActive(userId, false);
        QCOMPARE(byToken->get("/api/v1/contacts").status, 401);
        // API keys are cached for at most 1 s: refused once the cache let go of it.
        QTRY_COMPARE_WITH_TIMEOUT(byKey->get("/api/v1/contacts").status, 401, 5000);
        QCOMPARE(m_client->post("/api/v1/auth/refresh", {{"refreshToken", refresh}}).status, 401);
        const HttpResult again = login(kEmail, kPassword);
        QCOMPARE(again.status, 401); // the same answer as a wrong password
        QCOMPARE(again.errorCode(), QString("INVALID_CREDENTIALS"));

        // Back: signing in works again, and the key with it.
        UserRepository(testStore()).setActive(userId, true);
        QCOMPARE(login(kEmail, kPassword).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(byKey->get("/api/v1/contacts").status, 200, 5000);
    }

    void theLastActiveAdminStays()
    {
        const QString userId = login(kEmail, kPassword).data().value("user").toObject().value("id").toString();
        try {
            UserRepository(testStore()).setActive(userId, false);
            QFAIL("the last admin was deactivated");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Conflict);
        }
        QCOMPARE(login(kEmail, kPassword).status, 200);
    }

    void refreshRejectsBadInput()
    {
        QCOMPARE(m_client->post("/api/v1/auth/refresh", {{"refreshToken", "lr_nonsense"}}).status, 401);
        QCOMPARE(m_client->post("/api/v1/auth/refresh", {}).status, 422);
        QCOMPARE(m_client->post("/api/v1/auth/refresh", {{"refreshToken", 42}}).status, 400);
        QCOMPARE(m_client->call("POST", "/api/v1/auth/refresh", "{oops").status, 400);
        // an access token is not a refresh token
        const QString access = login(kEmail, kPassword).data().value("accessToken").toString();
        QCOMPARE(m_client->post("/api/v1/auth/refresh", {{"refreshToken", access}}).status, 401);
    }

    void expiredRefreshTokenIs401()
    {
        const QString refresh = login(kEmail, kPassword).data().value("refreshToken").toString();
        clock().setOffset(31 * 24 * 3600); // past the 30-day default
        QCOMPARE(m_client->post("/api/v1/auth/refresh", {{"refreshToken", refresh}}).status, 401);
    }

    // ----- JWT checks -----

    void tamperedJwtIs401()
    {
        const QString access = login(kEmail, kPassword).data().value("accessToken").toString();
        const QStringList parts = access.split('.');
        QCOMPARE(parts.size(), 3);

        // one character of the signature changed (in the middle: the last one may only carry padding bits)
        QString signature = parts.at(2);
        QVERIFY(signature.size() > 10);
        signature[5] = signature.at(5) == QLatin1Char('A') ? QLatin1Char('B') : QLatin1Char('A');
        const QString badSignature = parts.at(0) + '.' + parts.at(1) + '.' + signature;

        // the payload changed (another role), the signature kept
        QJsonObject claims = jwtClaims(access);
        claims.insert("role", "superadmin");
        claims.insert("exp", double(QDateTime::currentSecsSinceEpoch() + 86400));
        const QString badPayload = parts.at(0) + '.' + QString::fromLatin1(b64url(json(claims))) + '.' + parts.at(2);

        // alg "none" with no signature, and alg "none" signed with the right key
        const QJsonObject none{{"alg", "none"}, {"typ", "JWT"}};
        const QString algNone = makeJwt(none, jwtClaims(access), {});
        const QString algNoneSigned = makeJwt(none, jwtClaims(access), kTestJwtKey);
        // HS256 with another key
        const QString otherKey = makeJwt({{"alg", "HS256"}, {"typ", "JWT"}}, jwtClaims(access), "another-key");
        // HS512 header, signed with the right key (HS256 bytes)
        const QString otherAlg = makeJwt({{"alg", "HS512"}, {"typ", "JWT"}}, jwtClaims(access), kTestJwtKey);

        const QStringList bad{badSignature,
                              badPayload,
                              algNone,
                              algNoneSigned,
                              otherKey,
                              otherAlg,
                              parts.at(0) + '.' + parts.at(1),
                              access + ".x",
                              QStringLiteral("not-a-jwt")};
        for (const QString &token : bad) {
            const HttpResult r = clientWith(token)->get("/api/v1/contacts");
            QVERIFY2(r.status == 401, qPrintable(token + " -> " + QString::number(r.status)));
            QCOMPARE(r.json.value("success").toBool(true), false);
        }
        // control: a token we forge with the server's own key is accepted, so the checks above mean something
        const QString forged = makeJwt({{"alg", "HS256"}, {"typ", "JWT"}}, jwtClaims(access), kTestJwtKey);
        QCOMPARE(clientWith(forged)->get("/api/v1/contacts").status, 200);
        QCOMPARE(clientWith(access)->get("/api/v1/contacts").status, 200);
    }

    // Tokens signed with the server's own key but with claims it never issues are refused.
    void jwtClaimsAreChecked_data()
    {
        QTest::addColumn<QString>("claim");
        QTest::addColumn<QJsonValue>("value"); // undefined: the claim removed
        const double now = double(QDateTime::currentSecsSinceEpoch());
        QTest::newRow("nbf an hour ahead") << "nbf" << QJsonValue(now + 3600);
        QTest::newRow("iat a day ahead") << "iat" << QJsonValue(now + 86400);
        QTest::newRow("no iat") << "iat" << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("another iss") << "iss" << QJsonValue("someone-else");
        QTest::newRow("no iss") << "iss" << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("another aud") << "aud" << QJsonValue("another-api");
        QTest::newRow("no aud") << "aud" << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("a one-year exp") << "exp" << QJsonValue(now + 365 * 86400.0);
        QTest::newRow("no sub") << "sub" << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("sub of no user") << "sub" << QJsonValue("user_01nobodynobodynobodynobody");
        QTest::newRow("sub not a string") << "sub" << QJsonValue(42);
    }

    void jwtClaimsAreChecked()
    {
        QFETCH(QString, claim);
        QFETCH(QJsonValue, value);
        const QString access = login(kEmail, kPassword).data().value("accessToken").toString();
        QJsonObject claims = jwtClaims(access);
        const QJsonObject header{{"alg", "HS256"}, {"typ", "JWT"}};
        // control: the claims as issued, signed again, pass
        QCOMPARE(clientWith(makeJwt(header, claims, kTestJwtKey))->get("/api/v1/contacts").status, 200);
        if (value.isUndefined())
            claims.remove(claim);
        else
            claims.insert(claim, value);
        const HttpResult r = clientWith(makeJwt(header, claims, kTestJwtKey))->get("/api/v1/contacts");
        QCOMPARE(r.status, 401);
        verifyErrorEnvelope(r);
    }

    void expiredJwtIs401()
    {
        const QString access = login(kEmail, kPassword).data().value("accessToken").toString();
        const auto user = clientWith(access);
        QCOMPARE(user->get("/api/v1/contacts").status, 200);
        clock().setOffset(14 * 60); // still inside the 15 minutes
        QCOMPARE(user->get("/api/v1/contacts").status, 200);
        clock().setOffset(15 * 60 + 5); // past exp
        const HttpResult r = user->get("/api/v1/contacts");
        QCOMPARE(r.status, 401);
        verifyErrorEnvelope(r);
        // a fresh login at the moved time works again
        const QString fresh = login(kEmail, kPassword).data().value("accessToken").toString();
        QCOMPARE(clientWith(fresh)->get("/api/v1/contacts").status, 200);
    }

    // ----- failed logins -----

    void failedLoginsFromOneAddressAreLimited()
    {
        for (int i = 0; i < 10; ++i) {
            const HttpResult r = login(kEmail, QStringLiteral("wrong-%1").arg(i));
            QVERIFY2(r.status == 401, qPrintable(QStringLiteral("attempt %1: %2").arg(i + 1).arg(r.status)));
        }
        // the 11th is refused even with the right password
        HttpResult r = login(kEmail, kPassword);
        QCOMPARE(r.status, 429);
        verifyErrorEnvelope(r);
        qint64 retryAfter = 0;
        QVERIFY2(isInteger(r.header("retry-after"), &retryAfter), r.header("retry-after").constData());
        QVERIFY(retryAfter >= 1 && retryAfter <= 15 * 60);
        QVERIFY(!r.data().contains("accessToken"));
        QCOMPARE(r.errorCode(), QStringLiteral("TOO_MANY_REQUESTS"));

        // once the window has passed the right password works again
        clock().setOffset(retryAfter + 1);
        r = login(kEmail, kPassword);
        QCOMPARE(r.status, 200);
    }

    void aLockedAccountDoesNotLockOthers()
    {
        // Every local tool shares the loopback address: one account's wrong guesses lock that account
        // from here, not the other users' logins.
        const QString other = QStringLiteral("mehmet@example.com");
        m_server->createUser(other, kPassword);
        QCOMPARE(login(other, kPassword).status, 200);
        for (int i = 0; i < 10; ++i)
            QCOMPARE(login(kEmail, QStringLiteral("wrong-%1").arg(i)).status, 401);
        QCOMPARE(login(kEmail, kPassword).status, 429);
        HttpResult r = login(other, kPassword);
        QCOMPARE(r.status, 200);
        QVERIFY(r.data().contains("accessToken"));
        QCOMPARE(login(other, QStringLiteral("wrong")).status, 401);
        QCOMPARE(login("nobody@example.com", kPassword).status, 401);
    }

    void aKnownClientPassesTheAccountLock()
    {
        // Guesses from elsewhere lock the account (per account, any address: here 3); the user's own
        // client, which signed in with the right password before, still signs in.
        restartServer(100, true, [](ServerConfig &c) {
            c.loginFailuresPerWindow = 10;
            c.loginFailuresPerAccount = 3;
        });
        QCOMPARE(login(kEmail, kPassword).status, 200); // this client is known for the account
        for (int i = 0; i < 3; ++i)
            QCOMPARE(login(kEmail, QStringLiteral("wrong-%1").arg(i)).status, 401);
        QCOMPARE(login(kEmail, kPassword).status, 200);
        QCOMPARE(login(kEmail, QStringLiteral("wrong-again")).status, 401);
        // an account this client never signed in to is held by that lock
        const QString other = QStringLiteral("mehmet@example.com");
        m_server->createUser(other, kPassword);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(login(other, QStringLiteral("wrong-%1").arg(i)).status, 401);
        const HttpResult r = login(other, kPassword);
        QCOMPARE(r.status, 429);
        verifyErrorEnvelope(r);
        QVERIFY(!r.header("retry-after").isEmpty());
    }

    void passwordChangeIsThrottled()
    {
        // POST /users/me/password checks a password: its wrong guesses count like failed logins.
        const QString access = login(kEmail, kPassword).data().value("accessToken").toString();
        const auto client = clientWith(access);
        const auto change = [&](const QString &current) {
            return client->post(QStringLiteral("/api/v1/users/me/password"),
                                {{"currentPassword", current}, {"newPassword", "a new password 123"}});
        };
        for (int i = 0; i < 10; ++i) {
            const HttpResult r = change(QStringLiteral("guess-%1").arg(i));
            QVERIFY2(r.status == 401, qPrintable(QStringLiteral("guess %1: %2").arg(i + 1).arg(r.status)));
        }
        HttpResult r = change(kPassword);
        QCOMPARE(r.status, 429);
        verifyErrorEnvelope(r);
        QCOMPARE(r.errorCode(), QStringLiteral("TOO_MANY_REQUESTS"));
        qint64 retryAfter = 0;
        QVERIFY2(isInteger(r.header("retry-after"), &retryAfter), r.header("retry-after").constData());
        QVERIFY(retryAfter >= 1 && retryAfter <= 15 * 60);
        // the same count as the login's
        QCOMPARE(login(kEmail, kPassword).status, 429);
        // the password did not change
        clock().setOffset(retryAfter + 1);
        QCOMPARE(login(kEmail, kPassword).status, 200);
    }

    void successfulLoginsAreNotLimited()
    {
        for (int i = 0; i < 12; ++i)
            QCOMPARE(login(kEmail, kPassword).status, 200);
    }

    // ----- rate limit -----

    void rateLimitHeadersAndThe429()
    {
        restartServer(5);
        const auto client = clientWith(m_server->createApiKey());
        qint64 lastRemaining = 5;
        for (int i = 0; i < 5; ++i) {
            const HttpResult r = client->get("/api/v1/contacts");
            QCOMPARE(r.status, 200);
            QCOMPARE(r.header("x-ratelimit-limit"), QByteArray("5"));
            qint64 remaining = -1;
            qint64 reset = -1;
            QVERIFY2(isInteger(r.header("x-ratelimit-remaining"), &remaining),
                     r.header("x-ratelimit-remaining").constData());
            QVERIFY2(isInteger(r.header("x-ratelimit-reset"), &reset), r.header("x-ratelimit-reset").constData());
            QCOMPARE(remaining, qint64(4 - i));
            QVERIFY(remaining < lastRemaining);
            lastRemaining = remaining;
            QVERIFY2(reset >= 0 && reset <= 60, r.header("x-ratelimit-reset").constData());
        }
        const HttpResult limited = client->get("/api/v1/contacts");
        QCOMPARE(limited.status, 429);
        verifyErrorEnvelope(limited);
        qint64 retryAfter = 0;
        QVERIFY2(isInteger(limited.header("retry-after"), &retryAfter), limited.header("retry-after").constData());
        QVERIFY(retryAfter >= 1 && retryAfter <= 60);
        QCOMPARE(limited.header("x-ratelimit-limit"), QByteArray("5"));
        QCOMPARE(limited.header("x-ratelimit-remaining"), QByteArray("0"));
        QVERIFY(!limited.header("x-request-id").isEmpty());
        // a refused write does not act
        QCOMPARE(client->post("/api/v1/contacts", {{"firstName", "A"}, {"email", "a@example.com"}}).status, 429);

        // a second credential has its own budget
        const auto other = clientWith(m_server->createApiKey());
        HttpResult r = other->get("/api/v1/contacts");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-ratelimit-remaining"), QByteArray("4"));
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 0);

        // and a user token too
        const QString access = login(kEmail, kPassword).data().value("accessToken").toString();
        r = clientWith(access)->get("/api/v1/contacts");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-ratelimit-remaining"), QByteArray("4"));

        // after the window the budget is whole again
        clock().setOffset(61);
        r = client->get("/api/v1/contacts");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-ratelimit-remaining"), QByteArray("4"));
    }

    void rateLimitHeadersOnEveryAuthenticatedResponse()
    {
        restartServer(100);
        const auto writer = clientWith(m_server->createApiKey());
        const auto reader = clientWith(m_server->createApiKey({"contacts:read"}));

        const HttpResult created = writer->post("/api/v1/contacts", {{"firstName", "A"}, {"email", "a@example.com"}});
        QCOMPARE(created.status, 201);
        const HttpResult notFound = writer->get("/api/v1/contacts/contact_unknown");
        QCOMPARE(notFound.status, 404);
        const HttpResult invalid = writer->post("/api/v1/contacts", {{"email", "b@example.com"}});
        QCOMPARE(invalid.status, 422);
        const HttpResult malformed = writer->call("POST", "/api/v1/contacts", "{nope");
        QCOMPARE(malformed.status, 400);
        const HttpResult forbidden = reader->post("/api/v1/contacts", {{"firstName", "B"}, {"email", "b@example.com"}});
        QCOMPARE(forbidden.status, 403);

        for (const HttpResult *r : {&created, &notFound, &invalid, &malformed, &forbidden}) {
            QVERIFY2(r->header("x-ratelimit-limit") == "100", qPrintable(QString::number(r->status)));
            QVERIFY2(isInteger(r->header("x-ratelimit-remaining")), qPrintable(QString::number(r->status)));
            QVERIFY2(isInteger(r->header("x-ratelimit-reset")), qPrintable(QString::number(r->status)));
        }
        QCOMPARE(forbidden.header("x-ratelimit-remaining"), QByteArray("99"));
        QCOMPARE(malformed.header("x-ratelimit-remaining"), QByteArray("96"));

        // a request without a credential gets none (there is no budget to report)
        const HttpResult anonymous = m_client->get("/api/v1/contacts");
        QCOMPARE(anonymous.status, 401);
        QVERIFY(anonymous.header("x-ratelimit-limit").isEmpty());
    }

    // A request with a valid credential to a path that has no route (404) or not this method (405) is
    // an authenticated request too: it counts against the budget and carries the headers, so that a
    // client cannot probe unknown paths without limit.
    void rateLimitHeadersOnUnroutedAuthenticatedResponses()
    {
        restartServer(3);
        const auto client = clientWith(m_server->createApiKey());
        const HttpResult noRoute = client->get("/api/v1/nowhere");
        QCOMPARE(noRoute.status, 404);
        QCOMPARE(noRoute.header("x-ratelimit-limit"), QByteArray("3"));
        QCOMPARE(noRoute.header("x-ratelimit-remaining"), QByteArray("2"));
        const HttpResult wrongMethod = client->call("PATCH", "/api/v1/contacts", "{}");
        QCOMPARE(wrongMethod.status, 405);
        QCOMPARE(wrongMethod.header("x-ratelimit-remaining"), QByteArray("1"));
        QCOMPARE(client->get("/api/v1/nowhere/else").status, 404);
        QCOMPARE(client->get("/api/v1/nowhere").status, 429);
    }

    // ----- X-Request-Id -----

    void requestIdOnEveryResponse()
    {
        const auto keyed = clientWith(m_server->createApiKey());
        const QList<HttpResult> results{
            keyed->get("/api/v1/contacts"),                  // 200
            keyed->get("/api/v1/contacts/contact_nope"),     // 404
            keyed->get("/api/v1/nowhere"),                   // 404, no route
            keyed->call("PATCH", "/api/v1/contacts", "{}"),  // 405
            keyed->call("POST", "/api/v1/contacts", "{bad"), // 400
            m_client->get("/api/v1/contacts"),               // 401
            m_client->get("/api/v1/openapi.json"),           // public
            login(kEmail, "wrong"),                          // 401 on login
        };
        QSet<QByteArray> ids;
        for (const HttpResult &r : results) {
            const QByteArray id = r.header("x-request-id");
            QVERIFY2(!id.isEmpty(), qPrintable(QString::number(r.status)));
            QVERIFY2(id.size() <= 64, id.constData());
            ids.insert(id);
        }
        QCOMPARE(ids.size(), results.size()); // a new one for each request
    }

    void requestIdIsEchoedWhenSane()
    {
        HttpResult r = m_client->call("GET", "/api/v1/openapi.json", {}, {{"X-Request-Id", "client-abc_123.4"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-request-id"), QByteArray("client-abc_123.4"));
        r = m_client->call("GET", "/api/v1/contacts", {}, {{"X-Request-Id", "trace-42"}});
        QCOMPARE(r.status, 401);
        QCOMPARE(r.header("x-request-id"), QByteArray("trace-42"));

        // an insane one (header injection attempt, too long) is replaced by our own
        for (const QByteArray &insane : {QByteArray("has space"), QByteArray(200, 'a'), QByteArray("a\"b<script>")}) {
            r = m_client->call("GET", "/api/v1/openapi.json", {}, {{"X-Request-Id", insane}});
            QCOMPARE(r.status, 200);
            const QByteArray id = r.header("x-request-id");
            QVERIFY(!id.isEmpty());
            QVERIFY2(id != insane, id.constData());
            QVERIFY(id.size() <= 64);
        }
    }

    // ----- 401 versus 403 -----

    void noCredentialIs401AndMissingScopeIs403()
    {
        HttpResult r = m_client->get("/api/v1/contacts");
        QCOMPARE(r.status, 401);
        verifyErrorEnvelope(r);
        r = m_client->call("GET", "/api/v1/contacts", {}, {{"Authorization", "Basic dXNlcjpwYXNz"}});
        QCOMPARE(r.status, 401);
        QCOMPARE(clientWith("lk_doesnotexist")->get("/api/v1/contacts").status, 401);
        QCOMPARE(clientWith(QString())->get("/api/v1/contacts").status, 401);

        const auto reader = clientWith(m_server->createApiKey({"contacts:read"}));
        QCOMPARE(reader->get("/api/v1/contacts").status, 200);
        r = reader->post("/api/v1/contacts", {{"firstName", "A"}, {"email", "a@example.com"}});
        QCOMPARE(r.status, 403);
        verifyErrorEnvelope(r);
        QVERIFY(r.errorCode() != QLatin1String("UNAUTHORIZED"));
        QCOMPARE(reader->del("/api/v1/contacts/contact_any").status, 403);

        // a key for another area cannot even read contacts
        const QString otherArea =
            ApiKeyRepository::knownScopes().filter(":read").filter(QRegularExpression("^(?!contacts)")).value(0);
        if (!otherArea.isEmpty()) {
            const auto other = clientWith(m_server->createApiKey({otherArea}));
            QCOMPARE(other->get("/api/v1/contacts").status, 403);
        }

        // contacts:write includes reading
        const auto writer = clientWith(m_server->createApiKey({"contacts:write"}));
        QCOMPARE(writer->post("/api/v1/contacts", {{"firstName", "A"}, {"email", "a@example.com"}}).status, 201);
        QCOMPARE(writer->get("/api/v1/contacts").status, 200);
    }

    void revokedKeyIs401()
    {
        // Revoked in this process (the window's Settings page): refused at once.
        const NewApiKey key = ApiKeyRepository(testStore()).create("to revoke", {"*"});
        const auto client = clientWith(key.secret);
        QCOMPARE(client->get("/api/v1/contacts").status, 200);
        ApiKeyRepository(m_server->store()).revoke(key.key.id);
        QCOMPARE(client->get("/api/v1/contacts").status, 401);
    }

    void keyRevokedByAnotherProcessIsRefusedWithinSeconds()
    {
        // `liaison apikey revoke` runs in another process: the server's key cache holds a key at
        // most ApiShared::kApiKeyCacheMs.
        const NewApiKey key = ApiKeyRepository(testStore()).create("revoked elsewhere", {"*"});
        const auto client = clientWith(key.secret);
        QCOMPARE(client->get("/api/v1/contacts").status, 200);
        ApiKeyRepository(testStore()).revoke(key.key.id); // a bus the server does not hear: as another process would
        clock().setOffset(ApiShared::kApiKeyCacheMs / 1000 + 1);
        QCOMPARE(client->get("/api/v1/contacts").status, 401);
        clock().setOffset(0);
    }

    // ----- plain HTTP when asked -----

    void plainHttpWhenTlsIsOff()
    {
        restartServer(0, /*tls*/ false);
        QVERIFY2(m_server->baseUrl().startsWith("http://"), qPrintable(m_server->baseUrl()));
        ApiClient plain(m_server->baseUrl(), QSslCertificate());
        HttpResult r = plain.post("/api/v1/auth/login", {{"email", kEmail}, {"password", kPassword}});
        QCOMPARE(r.status, 200);
        plain.setToken(r.data().value("accessToken").toString());
        r = plain.get("/api/v1/contacts");
        QCOMPARE(r.status, 200);
        QVERIFY(!r.header("x-request-id").isEmpty());
        // HTTPS on a plain port fails rather than silently working
        ApiClient tls(QString(m_server->baseUrl()).replace("http://", "https://"), QSslCertificate());
        QVERIFY(tls.call("GET", "/api/v1/openapi.json", {}, {}, 5000).status == 0);
    }
};

QTEST_GUILESS_MAIN(TestAuthApi)
#include "test_authapi.moc"
