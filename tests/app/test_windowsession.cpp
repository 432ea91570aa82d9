// Who works in the window (WindowSession): a sign-in is remembered in the secret store as a refresh
// token of the API's kind and comes back at the next start (with a fresh token: a copied old one is
// refused and ends the family); a sign-out ends it and stops the single-user sign-in; a user
// deactivated anywhere is signed out at once; the acting user follows every change.
#include "app/secrets/secretstore.h"
#include "app/windowsession.h"
#include "model/accounts/userrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "server/api/crypto.h"
#include "tests/support/testsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

namespace {
const QString kSecret = QStringLiteral("window-session/test");
constexpr int kIterations = 1000; // fast hashes for the test; the app uses the default
} // namespace

class TestWindowSession : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    std::unique_ptr<SecretStore> secrets()
    {
        auto s = std::make_unique<SecretStore>(QStringLiteral("liaison-test-session"),
                                               m_dir.filePath(QStringLiteral("secrets.json")));
        s->open();
        return s;
    }
    User addUser(const QString &email, const QString &role, const QString &password = QStringLiteral("parola-123"))
    {
        return UserRepository(testStore())
            .create(email, email.section(QLatin1Char('@'), 0, 0), role, PasswordHasher::hash(password, kIterations));
    }
    QString storedToken(SecretStore &s)
    {
        return QJsonDocument::fromJson(s.read(kSecret).value_or(QByteArray()))
            .object()
            .value(QStringLiteral("token"))
            .toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        // The owner-only file: no keychain service answers in this test.
        qputenv("DBUS_SESSION_BUS_ADDRESS", "");
        QVERIFY(m_dir.isValid());
    }

    void init() { QFile::remove(m_dir.filePath(QStringLiteral("secrets.json"))); }

    void signInIsRememberedAndRotated()
    {
        TempDatabase db;
        const User murat = addUser(QStringLiteral("murat@ornek.com.tr"), QStringLiteral("agent"));
        addUser(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("admin"));
        auto store = secrets();
        {
            WindowSession session(testStore(), *store, kSecret, 30);
            QVERIFY(!session.restore());  // nothing remembered
            QVERIFY(!session.soleUser()); // two users: nobody signs in without asking
            QVERIFY(!session.authenticate(QStringLiteral("murat@ornek.com.tr"), QStringLiteral("yanlış")));
            const std::optional<User> u =
                session.authenticate(QStringLiteral("MURAT@ornek.com.tr"), QStringLiteral("parola-123"));
            QVERIFY(u);
            QSignalSpy changed(&session, &WindowSession::userChanged);
            session.begin(*u);
            QCOMPARE(changed.size(), 1);
            QCOMPARE(session.actor().id, murat.id);
            QCOMPARE(session.actor().role, QStringLiteral("agent"));
        }
        const QString first = storedToken(*store);
        QVERIFY(first.startsWith(QLatin1String("lr_")));
        // The next start: the same user, with a new token.
        {
            WindowSession session(testStore(), *store, kSecret, 30);
            const std::optional<User> again = session.restore();
            QVERIFY(again);
            QCOMPARE(again->id, murat.id);
            QCOMPARE(session.user().email, QStringLiteral("murat@ornek.com.tr"));
        }
        const QString second = storedToken(*store);
        QVERIFY(second != first);
        // A copy of the old token presented again: refused, and the family ends (the current one too).
        QVERIFY(!RefreshTokenRepository(testStore()).consume(first, testStore().now()));
        WindowSession session(testStore(), *store, kSecret, 30);
        QVERIFY(!session.restore());
        QCOMPARE(session.lastEmail(), QStringLiteral("murat@ornek.com.tr"));
        Database::closeThreadConnection();
    }

    void signOutEndsTheSessionAndTheSoleUserSignIn()
    {
        TempDatabase db;
        const User selin = addUser(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("admin"));
        auto store = secrets();
        WindowSession session(testStore(), *store, kSecret, 30);
        const std::optional<User> sole = session.soleUser();
        QVERIFY(sole);
        QCOMPARE(sole->id, selin.id);
        session.begin(*sole);
        const QString token = storedToken(*store);
        session.end();
        QVERIFY(!session.isSignedIn());
        QVERIFY(session.actor().id.isEmpty());
        // The token's family is over, nothing is remembered, and the lone user is asked next time.
        QVERIFY(!RefreshTokenRepository(testStore()).consume(token, testStore().now()));
        WindowSession next(testStore(), *store, kSecret, 30);
        QVERIFY(!next.restore());
        QVERIFY(!next.soleUser());
        QCOMPARE(next.lastEmail(), QStringLiteral("selin@ornek.com.tr"));
        // Signing in again brings the sole-user sign-in back.
        next.begin(selin);
        WindowSession third(testStore(), *store, kSecret, 30);
        QVERIFY(third.restore());
        QVERIFY(third.soleUser());
        Database::closeThreadConnection();
    }

    void deactivatedUserIsSignedOutAtOnce()
    {
        TempDatabase db;
        addUser(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("admin"));
        const User murat = addUser(QStringLiteral("murat@ornek.com.tr"), QStringLiteral("agent"));
        auto store = secrets();
        WindowSession session(testStore(), *store, kSecret, 30);
        session.begin(murat);
        QSignalSpy revoked(&session, &WindowSession::revoked);
        QSignalSpy changed(&session, &WindowSession::userChanged);
        // A role change (here, or told by another copy) reaches the acting user.
        UserRepository(testStore()).update(murat.id, std::nullopt, QStringLiteral("admin"));
        QCOMPARE(session.actor().role, QStringLiteral("admin"));
        QCOMPARE(changed.size(), 1);
        UserRepository(testStore()).setActive(murat.id, false);
        QCOMPARE(revoked.size(), 1);
        QCOMPARE(revoked.first().first().toString(), QStringLiteral("murat@ornek.com.tr"));
        QVERIFY(!session.isSignedIn());
        QVERIFY(session.actor().id.isEmpty());
        // Deactivated users cannot sign in either, and a remembered session of theirs is refused.
        QVERIFY(!session.authenticate(QStringLiteral("murat@ornek.com.tr"), QStringLiteral("parola-123")));
        Database::closeThreadConnection();
    }

    void ownPasswordChangeKeepsThisSessionOnly()
    {
        TempDatabase db;
        const User selin = addUser(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("admin"));
        const QDateTime later = testStore().now().addDays(1);
        RefreshTokenRepository(testStore()).store(selin.id, QStringLiteral("lr_elsewhere"), later);
        auto store = secrets();
        WindowSession session(testStore(), *store, kSecret, 30);
        session.begin(selin);
        QVERIFY(!session.changePassword(QStringLiteral("yanlış"), QStringLiteral("yeni-parola-7")));
        QVERIFY(session.authenticate(selin.email, QStringLiteral("parola-123")));
        QVERIFY(session.changePassword(QStringLiteral("parola-123"), QStringLiteral("yeni-parola-7")));
        QVERIFY(!session.authenticate(selin.email, QStringLiteral("parola-123")));
        QVERIFY(session.authenticate(selin.email, QStringLiteral("yeni-parola-7")));
        // The other session is over; this window's goes on at the next start.
        QVERIFY(!RefreshTokenRepository(testStore()).consume(QStringLiteral("lr_elsewhere"), testStore().now()));
        WindowSession next(testStore(), *store, kSecret, 30);
        QVERIFY(next.restore());
        Database::closeThreadConnection();
    }

    // Another process on the SQLite file (the command line) tells this one nothing: the session's
    // own check finds what it did.
    void changesByAnotherProcessAreFoundByTheCheck()
    {
        TempDatabase db;
        addUser(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("admin"));
        const User murat = addUser(QStringLiteral("murat@ornek.com.tr"), QStringLiteral("agent"));
        auto store = secrets();
        WindowSession session(testStore(), *store, kSecret, 30);
        session.begin(murat);
        EventBus otherProcess; // no one in this process hears its news
        const Store other(otherProcess);
        QSignalSpy ended(&session, &WindowSession::ended);
        QSignalSpy revoked(&session, &WindowSession::revoked);
        session.check();
        QVERIFY(session.isSignedIn());
        QCOMPARE(ended.size() + revoked.size(), 0);
        // A new name is picked up.
        UserRepository(other).update(murat.id, QStringLiteral("Murat Çelik"), std::nullopt);
        QCOMPARE(session.user().name, QStringLiteral("murat")); // not heard yet
        session.check();
        QCOMPARE(session.user().name, QStringLiteral("Murat Çelik"));
        QCOMPARE(session.actor().name, QStringLiteral("Murat Çelik"));
        // Every session of the user ended (an admin set a new password elsewhere).
        RefreshTokenRepository(other).revokeAllOf(murat.id, other.now());
        session.check();
        QCOMPARE(ended.size(), 1);
        QVERIFY(!session.isSignedIn());
        // Deactivated from the command line while signed in.
        session.begin(murat);
        UserRepository(other).setActive(murat.id, false);
        session.check();
        QCOMPARE(revoked.size(), 1);
        QVERIFY(!session.isSignedIn());
        QVERIFY(WindowSession::kCheckIntervalMs <= 5000);
        Database::closeThreadConnection();
    }

    void remembersPerDataDirectoryAndDatabase()
    {
        TempDatabase db;
        const User selin = addUser(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("admin"));
        auto store = secrets();
        WindowSession a(testStore(), *store, kSecret, 30);
        a.begin(selin);
        WindowSession other(testStore(), *store, QStringLiteral("window-session/other"), 30);
        QVERIFY(!other.restore());
        Database::closeThreadConnection();
    }
};

QTEST_MAIN(TestWindowSession)
#include "test_windowsession.moc"
