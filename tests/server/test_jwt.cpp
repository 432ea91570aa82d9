// Jwt on its own (RFC 7519, HS256): what sign() writes verifies; each claim rule and each way a
// token can be forged or stale is refused, row by row; passwords hash and verify.
#include "server/api/crypto.h"

#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QtTest>

namespace {
const QByteArray kKey = "0123456789abcdef0123456789abcdef";
const QDateTime kNow = QDateTime(QDate(2026, 11, 26), QTime(10, 0), QTimeZone::utc());
const qint64 kNowSecs = kNow.toSecsSinceEpoch();

QByteArray b64(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

// A token written by hand: any header, any claims, signed with any key.
QString forge(const QJsonObject &header, const QJsonObject &claims, const QByteArray &key = kKey)
{
    const QByteArray head = b64(QJsonDocument(header).toJson(QJsonDocument::Compact)) + '.' +
                            b64(QJsonDocument(claims).toJson(QJsonDocument::Compact));
    return QString::fromLatin1(head + '.' +
                               b64(QMessageAuthenticationCode::hash(head, key, QCryptographicHash::Sha256)));
}

QJsonObject goodClaims()
{
    return {{"iss", Jwt::kIssuer},
            {"aud", Jwt::kAudience},
            {"sub", "user_1"},
            {"iat", kNowSecs - 10},
            {"exp", kNowSecs + 900}};
}

const QJsonObject kHs256{{"alg", "HS256"}, {"typ", "JWT"}};
} // namespace

class TestJwt final : public QObject
{
    Q_OBJECT

private slots:
    void signedTokensVerify()
    {
        const Jwt jwt(kKey, 3600);
        const QString token = jwt.sign(goodClaims());
        QCOMPARE(token.count('.'), 2);
        const std::optional<QJsonObject> claims = jwt.verify(token, kNow);
        QVERIFY(claims);
        QCOMPARE(claims->value("sub").toString(), QString("user_1"));
        QVERIFY(jwt.verify(forge(kHs256, goodClaims()), kNow)); // our own header, written by hand
    }

    void refused_data()
    {
        QTest::addColumn<QString>("token");
        auto with = [](const char *key, const QJsonValue &value) {
            QJsonObject c = goodClaims();
            if (value.isUndefined())
                c.remove(key);
            else
                c.insert(key, value);
            return forge(kHs256, c);
        };
        QTest::newRow("empty") << "";
        QTest::newRow("two parts") << forge(kHs256, goodClaims()).section('.', 0, 1);
        QTest::newRow("other key") << forge(kHs256, goodClaims(), "another key");
        QTest::newRow("alg none, no signature") << forge({{"alg", "none"}}, goodClaims()).section('.', 0, 1) + ".";
        QTest::newRow("alg none, signed") << forge({{"alg", "none"}}, goodClaims());
        QTest::newRow("alg HS512") << forge({{"alg", "HS512"}}, goodClaims());
        QTest::newRow("expired") << with("exp", kNowSecs);
        QTest::newRow("no exp") << with("exp", QJsonValue::Undefined);
        QTest::newRow("exp a string") << with("exp", QString::number(kNowSecs + 900));
        QTest::newRow("no iat") << with("iat", QJsonValue::Undefined);
        QTest::newRow("iat in the future") << with("iat", kNowSecs + Jwt::kSkewSeconds + 5);
        QTest::newRow("lives too long") << with("exp", kNowSecs + 7200);
        // exp - iat must not overflow into a short lifetime
        QTest::newRow("iat -1e19") << with("iat", -1e19);
        QTest::newRow("iat -9.3e18") << with("iat", -9.3e18);
        QTest::newRow("iat -1e308") << with("iat", -1e308);
        QTest::newRow("iat negative") << with("iat", -1);
        QTest::newRow("exp 1e19") << with("exp", 1e19);
        QTest::newRow("nbf -1e19") << with("nbf", -1e19);
        QTest::newRow("nbf in the future") << with("nbf", kNowSecs + Jwt::kSkewSeconds + 5);
        QTest::newRow("nbf a string") << with("nbf", "soon");
        QTest::newRow("other issuer") << with("iss", "someone");
        QTest::newRow("other audience") << with("aud", "another-api");
        QTest::newRow("no sub") << with("sub", QJsonValue::Undefined);
        QTest::newRow("empty sub") << with("sub", "");
        QTest::newRow("sub a number") << with("sub", 7);
        QTest::newRow("payload not JSON")
            << QString::fromLatin1(b64(QJsonDocument(kHs256).toJson()) + "." + b64("{x") + ".");
        QTest::newRow("over 4 KiB") << with("pad", QString(5000, 'x'));
    }

    void refused()
    {
        QFETCH(QString, token);
        QVERIFY(!Jwt(kKey, 3600).verify(token, kNow));
    }

    void audienceMayBeAList()
    {
        QJsonObject c = goodClaims();
        c.insert("aud", QJsonArray{"other", Jwt::kAudience});
        QVERIFY(Jwt(kKey, 3600).verify(forge(kHs256, c), kNow));
        c.insert("aud", QJsonArray{"other"});
        QVERIFY(!Jwt(kKey, 3600).verify(forge(kHs256, c), kNow));
    }

    void skewIsTolerated()
    {
        QJsonObject c = goodClaims();
        c.insert("iat", kNowSecs + Jwt::kSkewSeconds); // another process's clock a little ahead
        c.insert("nbf", kNowSecs + Jwt::kSkewSeconds);
        QVERIFY(Jwt(kKey, 3600).verify(forge(kHs256, c), kNow));
    }

    // Team mode's keys: signed with the newest key whose time has come, kid in the header; a token is
    // checked with the key its kid names, until that key's end; a kid not held makes the signer read
    // the keys again (a copy that has not yet seen a rotation), at most every few seconds.
    void keySetsSignAndVerifyByKid()
    {
        const QByteArray oldKey(32, 'o'), newKey(32, 'n'), laterKey(32, 'l');
        QVector<JwtKey> keys{{"jwtkey_old", oldKey, kNowSecs - 1000, kNowSecs + 600},
                             {"jwtkey_new", newKey, kNowSecs - 10, 0},
                             {"jwtkey_later", laterKey, kNowSecs + 120, 0}};
        int loads = 0;
        const Jwt jwt(
            [&] {
                ++loads;
                return keys;
            },
            3600, 60);
        QCOMPARE(loads, 1);
        const QString token = jwt.sign(goodClaims());
        const QJsonObject header = QJsonDocument::fromJson(QByteArray::fromBase64(token.section('.', 0, 0).toLatin1(),
                                                                                  QByteArray::Base64UrlEncoding))
                                       .object();
        QCOMPARE(header.value("kid").toString(), QString("jwtkey_new")); // not the one whose time has not come
        QVERIFY(jwt.verify(token, kNow));
        QJsonObject kid = kHs256;
        kid.insert("kid", "jwtkey_old");
        QVERIFY(jwt.verify(forge(kid, goodClaims(), oldKey), kNow));               // the replaced key, before its end
        QVERIFY(!jwt.verify(forge(kid, goodClaims(), oldKey), kNow.addSecs(600))); // after it
        QVERIFY(!jwt.verify(forge(kid, goodClaims(), newKey), kNow));              // kid and key disagree
        QVERIFY(!jwt.verify(forge(kHs256, goodClaims(), newKey), kNow));           // no kid: no key without id
        kid.insert("kid", "jwtkey_later");
        QVERIFY(jwt.verify(forge(kid, goodClaims(), laterKey), kNow)); // another copy's clock is ahead
        // A kid not held: read again once, and found.
        keys.append({"jwtkey_rotated", QByteArray(32, 'r'), kNowSecs, 0});
        kid.insert("kid", "jwtkey_rotated");
        QVERIFY(jwt.verify(forge(kid, goodClaims(), QByteArray(32, 'r')), kNow));
        QCOMPARE(loads, 2);
        // Unknown kids do not read again on every request.
        kid.insert("kid", "jwtkey_forged");
        for (int i = 0; i < 5; ++i)
            QVERIFY(!jwt.verify(forge(kid, goodClaims(), kKey), kNow));
        QVERIFY(loads <= 3);
        // A single key (SQLite) writes no kid and refuses a token with one.
        const Jwt single(kKey, 3600);
        QVERIFY(!single.sign(goodClaims()).section('.', 0, 0).isEmpty());
        QVERIFY(!QJsonDocument::fromJson(QByteArray::fromBase64(single.sign(goodClaims()).section('.', 0, 0).toLatin1(),
                                                                QByteArray::Base64UrlEncoding))
                     .object()
                     .contains("kid"));
        kid.insert("kid", "jwtkey_new");
        QVERIFY(!single.verify(forge(kid, goodClaims(), kKey), kNow));
    }
};

QTEST_MAIN(TestJwt)
#include "test_jwt.moc"
