// The rules of the accounts, in the model (model/accounts) on both databases (again on PostgreSQL as
// unit_accountrules_pg): a password's hash and its check, the credential check of every sign-in
// (the API's login, the window's), and the sessions a new password or a deactivation ends: each in
// the transaction of its change, so that a failure after the token revocation leaves the change
// undone too, and a failure of the revocation leaves no deactivated user with live tokens.
#include "model/accounts/passwordhasher.h"
#include "model/accounts/userrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/store.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QtTest>

#include <memory>

namespace {
const QDateTime kNow(QDate(2031, 5, 6), QTime(7, 8, 9), Qt::UTC);
constexpr int kFewIterations = 1000; // the least verify() accepts: the rules, not the cost, are tested
} // namespace

class TestAccountRules final : public QObject
{
    Q_OBJECT

    std::unique_ptr<TempDatabase> m_db;
    EventBus m_bus;
    FakeClock m_clock{kNow};
    Store store() { return Store(m_bus, m_clock); }

    User addUser(const QString &email, const QString &role, const QString &password)
    {
        return UserRepository(store()).create(email, email.section(QLatin1Char('@'), 0, 0), role,
                                              PasswordHasher::hash(password, kFewIterations));
    }

    // From here on, every change of a refresh token fails in the database (as a full disk or a lost
    // connection would) until dropped again.
    void refuseTokenChanges()
    {
        if (Database::dialect() == Database::Dialect::PostgreSQL) {
            Database::exec(
                QStringLiteral("CREATE OR REPLACE FUNCTION refuse_token_change() RETURNS trigger AS $$ BEGIN "
                               "RAISE EXCEPTION 'token changes refused'; END $$ LANGUAGE plpgsql"));
            Database::exec(QStringLiteral("CREATE TRIGGER refuse_token_change BEFORE UPDATE ON refresh_tokens FOR "
                                          "EACH ROW EXECUTE FUNCTION refuse_token_change()"));
        } else {
            Database::exec(QStringLiteral("CREATE TRIGGER refuse_token_change BEFORE UPDATE ON refresh_tokens "
                                          "BEGIN SELECT RAISE(ABORT, 'token changes refused'); END"));
        }
    }
    // (The empty PostgreSQL schema is reused by the next test: the function goes too.)
    void dropRefusal()
    {
        if (Database::dialect() == Database::Dialect::PostgreSQL) {
            Database::exec(QStringLiteral("DROP TRIGGER refuse_token_change ON refresh_tokens"));
            Database::exec(QStringLiteral("DROP FUNCTION refuse_token_change()"));
        } else {
            Database::exec(QStringLiteral("DROP TRIGGER refuse_token_change"));
        }
    }

private slots:
    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    void aPasswordChecksAgainstItsHash_data()
    {
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("tried");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("the same") << "Çok gizli şifre"
                                  << "Çok gizli şifre" << true;
        QTest::newRow("without Turkish letters") << "Çok gizli şifre"
                                                 << "Cok gizli sifre" << false;
        QTest::newRow("another case") << "parola-123"
                                      << "PAROLA-123" << false;
        QTest::newRow("empty tried") << "parola-123"
                                     << "" << false;
        QTest::newRow("a trailing space") << "parola-123"
                                          << "parola-123 " << false;
        QTest::newRow("empty password") << ""
                                        << "" << true;
        QTest::newRow("1,024 characters") << QString(1024, QLatin1Char('x')) << QString(1024, QLatin1Char('x')) << true;
    }
    void aPasswordChecksAgainstItsHash()
    {
        QFETCH(QString, password);
        QFETCH(QString, tried);
        QFETCH(bool, accepted);
        const QString stored = PasswordHasher::hash(password, kFewIterations);
        QVERIFY(stored.startsWith(QLatin1String("pbkdf2-sha256$1000$")));
        QVERIFY(password.isEmpty() || !stored.contains(password));
        QCOMPARE(PasswordHasher::verify(tried, stored), accepted);
        QVERIFY(PasswordHasher::hash(password, kFewIterations) != stored); // salted: never the same twice
    }

    void aStoredTextThatIsNoHashOfOursIsRefused_data()
    {
        QTest::addColumn<QString>("stored");
        const QString good = PasswordHasher::hash(QStringLiteral("parola-123"), kFewIterations);
        const QStringList parts = good.split(QLatin1Char('$'));
        QTest::newRow("empty") << QString();
        QTest::newRow("plain text") << QStringLiteral("parola-123");
        QTest::newRow("another scheme") << QStringList{QStringLiteral("bcrypt"), parts[1], parts[2], parts[3]}.join(
            '$');
        QTest::newRow("a part missing") << QStringList{parts[0], parts[1], parts[2]}.join('$');
        QTest::newRow("a part more") << (good + QStringLiteral("$x"));
        QTest::newRow("too few iterations")
            << QStringList{parts[0], QStringLiteral("999"), parts[2], parts[3]}.join('$');
        QTest::newRow("too many iterations")
            << QStringList{parts[0], QStringLiteral("10000001"), parts[2], parts[3]}.join('$');
        QTest::newRow("iterations not a number")
            << QStringList{parts[0], QStringLiteral("x"), parts[2], parts[3]}.join('$');
        QTest::newRow("another salt") << QStringList{parts[0], parts[1], QStringLiteral("AAAA"), parts[3]}.join('$');
    }
    void aStoredTextThatIsNoHashOfOursIsRefused()
    {
        QFETCH(QString, stored);
        QVERIFY(!PasswordHasher::verify(QStringLiteral("parola-123"), stored));
    }

    void bytesCompareInConstantTimeAndComeRandom()
    {
        QVERIFY(constantTimeEquals("abc", "abc"));
        QVERIFY(!constantTimeEquals("abc", "abd"));
        QVERIFY(!constantTimeEquals("abc", "abcd"));
        QVERIFY(constantTimeEquals({}, {}));
        QCOMPARE(randomBytes(32).size(), 32);
        QVERIFY(randomBytes(32) != randomBytes(32));
    }

    void theCredentialCheck_data()
    {
        QTest::addColumn<QString>("email");
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("who"); // the user signed in; empty: refused
        QTest::newRow("right") << "selin@ornek.com.tr"
                               << "parola-selin"
                               << "selin";
        QTest::newRow("e-mail in capitals, spaces") << " SELIN@Ornek.com.tr "
                                                    << "parola-selin"
                                                    << "selin";
        QTest::newRow("wrong password") << "selin@ornek.com.tr"
                                        << "parola-murat"
                                        << "";
        QTest::newRow("another's password") << "murat@ornek.com.tr"
                                            << "parola-selin"
                                            << "";
        QTest::newRow("unknown e-mail") << "kimse@ornek.com.tr"
                                        << "parola-selin"
                                        << "";
        QTest::newRow("empty") << ""
                               << ""
                               << "";
        QTest::newRow("deactivated, right password") << "deniz@ornek.com.tr"
                                                     << "parola-deniz"
                                                     << "";
    }
    void theCredentialCheck()
    {
        QFETCH(QString, email);
        QFETCH(QString, password);
        QFETCH(QString, who);
        addUser(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("admin"), QStringLiteral("parola-selin"));
        addUser(QStringLiteral("murat@ornek.com.tr"), QStringLiteral("agent"), QStringLiteral("parola-murat"));
        const User deniz =
            addUser(QStringLiteral("deniz@ornek.com.tr"), QStringLiteral("agent"), QStringLiteral("parola-deniz"));
        UserRepository users(store());
        users.setActive(deniz.id, false);
        const std::optional<User> signedIn = users.checkCredentials(email, password);
        QCOMPARE(signedIn ? signedIn->name : QString(), who);
    }

    void aNewPasswordEndsEverySessionOfTheUser()
    {
        const User selin =
            addUser(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("admin"), QStringLiteral("parola-selin"));
        const User murat =
            addUser(QStringLiteral("murat@ornek.com.tr"), QStringLiteral("agent"), QStringLiteral("parola-murat"));
        RefreshTokenRepository tokens(store());
        const QString selins = tokens.issue(selin.id, kNow.addDays(30));
        const QString murats = tokens.issue(murat.id, kNow.addDays(30));
        QVERIFY(selins.startsWith(QLatin1String("lr_")));
        QCOMPARE(selins.size(), 3 + 43); // 32 bytes, base64url without padding
        QVERIFY(selins != murats);
        UserRepository users(store());
        users.setPassword(selin.id, QStringLiteral("yeni-parola-7"), kFewIterations);
        QVERIFY(users.checkCredentials(selin.email, QStringLiteral("yeni-parola-7")));
        QVERIFY(!users.checkCredentials(selin.email, QStringLiteral("parola-selin")));
        QVERIFY(!tokens.isLive(selins, kNow));
        QVERIFY(tokens.isLive(murats, kNow)); // another user's sessions go on
        try {
            users.setPassword(QStringLiteral("user_nobody"), QStringLiteral("yeni-parola-7"), kFewIterations);
            QFAIL("a password was set for nobody");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::NotFound);
        }

        // The sessions cannot be ended: the password stays as it was.
        const QString again = tokens.issue(selin.id, kNow.addDays(30));
        refuseTokenChanges();
        QVERIFY_THROWS_EXCEPTION(std::exception,
                                 users.setPassword(selin.id, QStringLiteral("ucuncu-parola"), kFewIterations));
        dropRefusal();
        QVERIFY(users.checkCredentials(selin.email, QStringLiteral("yeni-parola-7")));
        QVERIFY(!users.checkCredentials(selin.email, QStringLiteral("ucuncu-parola")));
        QVERIFY(tokens.isLive(again, kNow));
    }

    // A deactivation ends the user's refresh tokens (the API's and the window's sessions) in its own
    // transaction: when the revocation fails, the user stays active; when a failure comes after it in
    // an enclosing transaction, both are undone; a reactivation does not bring the tokens back.
    void aDeactivationEndsTheSessionsInItsTransaction()
    {
        addUser(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("admin"), QStringLiteral("parola-selin"));
        const User murat =
            addUser(QStringLiteral("murat@ornek.com.tr"), QStringLiteral("agent"), QStringLiteral("parola-murat"));
        RefreshTokenRepository tokens(store());
        const QString login = tokens.issue(murat.id, kNow.addDays(30));
        const QString window = tokens.issue(murat.id, kNow.addDays(30));
        UserRepository users(store());

        refuseTokenChanges();
        QVERIFY_THROWS_EXCEPTION(std::exception, users.setActive(murat.id, false));
        dropRefusal();
        QVERIFY(users.find(murat.id)->isActive());
        QVERIFY(tokens.isLive(login, kNow));

        try {
            Transaction tx;
            QVERIFY(!users.setActive(murat.id, false).isActive());
            throw std::runtime_error("a later step failed");
        } catch (const std::runtime_error &) {
        }
        QVERIFY(users.find(murat.id)->isActive());
        QVERIFY(tokens.isLive(login, kNow));
        QVERIFY(tokens.isLive(window, kNow));

        QVERIFY(!users.setActive(murat.id, false).isActive());
        QVERIFY(!tokens.isLive(login, kNow));
        QVERIFY(!tokens.isLive(window, kNow));
        QVERIFY(!tokens.consume(window, kNow));
        QVERIFY(users.setActive(murat.id, true).isActive());
        QVERIFY(!tokens.isLive(login, kNow));
    }
};

QTEST_MAIN(TestAccountRules)
#include "test_accountrules.moc"
