// UserRepository on the database of the pass: what a new user must have, e-mails unique without
// case, there is always an active admin (deactivating or demoting the last one is refused),
// reactivation, renames, the earliest admin, actors' names, and a new password ending the user's
// refresh tokens.
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QSignalSpy>
#include <QtTest>

namespace {
const QDateTime kNow(QDate(2031, 3, 4), QTime(10, 0), Qt::UTC);
} // namespace

class TestUserRepository : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;
    EventBus m_bus;
    FakeClock m_clock;

    Store store() { return Store(m_bus, m_clock); }
    User add(const QString &email, const QString &role = QStringLiteral("admin"))
    {
        return UserRepository(store()).create(email, QStringLiteral("Ayşe Yılmaz"), role, QStringLiteral("h1"));
    }

private Q_SLOTS:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_clock.set(kNow);
    }
    void cleanup() { m_db.reset(); }

    void createChecksItsFields_data()
    {
        QTest::addColumn<QString>("email");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("role");
        QTest::addColumn<QString>("refused");
        QTest::addColumn<int>("kind");
        QTest::newRow("an admin") << " ayse@ornek.com.tr "
                                  << " Ayşe "
                                  << "admin"
                                  << "" << -1;
        QTest::newRow("an agent") << "ali@ornek.com.tr"
                                  << "Ali"
                                  << "agent"
                                  << "" << -1;
        QTest::newRow("both missing, both named") << " "
                                                  << ""
                                                  << "admin"
                                                  << "email,name" << int(DomainError::Unprocessable);
        QTest::newRow("name missing") << "a@ornek.com.tr"
                                      << "  "
                                      << "admin"
                                      << "name" << int(DomainError::Unprocessable);
        QTest::newRow("name of 200 characters") << "a@ornek.com.tr" << QString(200, 'n') << "agent"
                                                << "" << -1;
        QTest::newRow("name of 201 characters") << "a@ornek.com.tr" << QString(201, 'n') << "agent"
                                                << "name" << int(DomainError::BadRequest);
        QTest::newRow("not an e-mail") << "ayse.ornek.com.tr"
                                       << "Ayşe"
                                       << "admin"
                                       << "email" << int(DomainError::BadRequest);
        QTest::newRow("unknown role") << "a@ornek.com.tr"
                                      << "Ayşe"
                                      << "owner"
                                      << "role" << int(DomainError::BadRequest);
        QTest::newRow("role in capitals") << "a@ornek.com.tr"
                                          << "Ayşe"
                                          << "Admin"
                                          << "role" << int(DomainError::BadRequest);
    }
    void createChecksItsFields()
    {
        QFETCH(QString, email);
        QFETCH(QString, name);
        QFETCH(QString, role);
        QFETCH(QString, refused);
        QFETCH(int, kind);
        UserRepository users(store());
        std::optional<User> made;
        QCOMPARE(refusalOf([&] { made = users.create(email, name, role, QStringLiteral("hash")); }),
                 qMakePair(refused, kind));
        if (kind >= 0) {
            QVERIFY(users.list().isEmpty());
            return;
        }
        QVERIFY(made->id.startsWith(QLatin1String("user_")));
        QCOMPARE(made->email, email.trimmed());
        QCOMPARE(made->name, name.trimmed());
        QVERIFY(made->isActive());
        QCOMPARE(users.find(made->id)->toJson(), made->toJson());
        QCOMPARE(users.findForLogin(email.toUpper())->second, QStringLiteral("hash"));
    }

    void emailsAreUniqueWithoutCase()
    {
        const User a = add(QStringLiteral("Ayse@Ornek.com.tr"));
        QCOMPARE(refusalOf([&] { add(QStringLiteral("ayse@ornek.com.TR")); }),
                 qMakePair(QStringLiteral("email"), int(DomainError::Conflict)));
        QCOMPARE(UserRepository(store()).findByEmail(QStringLiteral(" AYSE@ornek.com.tr "))->id, a.id);
        QCOMPARE(UserRepository(store()).list().size(), 1);
        // A deactivated user keeps the address.
        add(QStringLiteral("ikinci@ornek.com.tr"));
        UserRepository(store()).setActive(a.id, false);
        QCOMPARE(refusalOf([&] { add(QStringLiteral("ayse@ornek.com.tr")); }).second, int(DomainError::Conflict));
    }

    void thereIsAlwaysAnActiveAdmin()
    {
        UserRepository users(store());
        const User admin = add(QStringLiteral("admin@ornek.com.tr"));
        const User agent = add(QStringLiteral("agent@ornek.com.tr"), QStringLiteral("agent"));
        QCOMPARE(refusalOf([&] { users.setActive(admin.id, false); }).second, int(DomainError::Conflict));
        QCOMPARE(refusalOf([&] { users.update(admin.id, std::nullopt, QStringLiteral("agent")); }),
                 qMakePair(QStringLiteral("role"), int(DomainError::Conflict)));
        QVERIFY(users.find(admin.id)->isActive());
        QCOMPARE(users.find(admin.id)->role, QStringLiteral("admin"));
        // An agent may go; with a second admin, so may the first.
        QVERIFY(!users.setActive(agent.id, false).isActive());
        users.update(agent.id, std::nullopt, QStringLiteral("admin"));
        QCOMPARE(refusalOf([&] { users.setActive(admin.id, false); }).second, int(DomainError::Conflict));
        users.setActive(agent.id, true);
        const User gone = users.setActive(admin.id, false);
        QCOMPARE(gone.deactivatedAt, QStringLiteral("2031-03-04T10:00:00.000Z"));
        QCOMPARE(users.firstAdmin()->id, agent.id);
        // The same state again changes nothing; a deactivated admin's demotion leaves one admin.
        QCOMPARE(users.setActive(admin.id, false).deactivatedAt, gone.deactivatedAt);
        QCOMPARE(users.update(admin.id, std::nullopt, QStringLiteral("agent")).role, QStringLiteral("agent"));
        QCOMPARE(refusalOf([&] { users.setActive(QStringLiteral("user_none"), true); }).second,
                 int(DomainError::NotFound));
    }

    void updateRenamesAndChecks_data()
    {
        QTest::addColumn<QVariant>("name"); // invalid: unchanged
        QTest::addColumn<QVariant>("role");
        QTest::addColumn<QString>("refused");
        QTest::addColumn<int>("kind");
        QTest::newRow("rename, trimmed") << QVariant(" Ayşe Demir ") << QVariant() << "" << -1;
        QTest::newRow("empty name") << QVariant("  ") << QVariant() << "name" << int(DomainError::BadRequest);
        QTest::newRow("name too long") << QVariant(QString(201, 'n')) << QVariant() << "name"
                                       << int(DomainError::BadRequest);
        QTest::newRow("unknown role") << QVariant() << QVariant("root") << "role" << int(DomainError::BadRequest);
        QTest::newRow("nothing to change") << QVariant() << QVariant() << "" << -1;
    }
    void updateRenamesAndChecks()
    {
        QFETCH(QVariant, name);
        QFETCH(QVariant, role);
        QFETCH(QString, refused);
        QFETCH(int, kind);
        const User u = add(QStringLiteral("a@ornek.com.tr"));
        const std::optional<QString> newName = name.isValid() ? std::optional<QString>(name.toString()) : std::nullopt;
        const std::optional<QString> newRole = role.isValid() ? std::optional<QString>(role.toString()) : std::nullopt;
        std::optional<User> updated;
        QCOMPARE(refusalOf([&] { updated = UserRepository(store()).update(u.id, newName, newRole); }),
                 qMakePair(refused, kind));
        const User now = *UserRepository(store()).find(u.id);
        QCOMPARE(now.name, kind < 0 && newName ? newName->trimmed() : u.name);
        QCOMPARE(now.role, u.role);
    }

    void namesActors()
    {
        const User u = add(QStringLiteral("a@ornek.com.tr"));
        const NewApiKey k = ApiKeyRepository(store()).create(QStringLiteral("Muhasebe aracı"), {}, u.id);
        QCOMPARE(UserRepository::actorName(u.id), QStringLiteral("Ayşe Yılmaz"));
        QCOMPARE(UserRepository::actorName(k.key.id), QStringLiteral("Muhasebe aracı"));
        QCOMPARE(UserRepository::actorName(QStringLiteral("user_none")), QString());
        QCOMPARE(UserRepository::actorName(QStringLiteral("contact_1")), QString());
        QCOMPARE(UserRepository::actorName(QString()), QString());
    }

    void listsInTheOrderMadeAndTellsTheBus()
    {
        QSignalSpy spy(&m_bus, &EventBus::changed);
        const User a = add(QStringLiteral("b@ornek.com.tr"), QStringLiteral("agent"));
        const User b = add(QStringLiteral("a@ornek.com.tr"));
        UserRepository(store()).update(a.id, QStringLiteral("Yeni ad"), std::nullopt);
        QCOMPARE(spy.size(), 3);
        QCOMPARE(spy.at(2).at(1).toString(), a.id);
        QCOMPARE(spy.at(2).at(2).value<EventBus::Change>(), EventBus::Change::Updated);
        const QVector<User> all = UserRepository(store()).list();
        QCOMPARE(all.size(), 2);
        QCOMPARE(all.at(0).id, a.id);
        QCOMPARE(all.at(1).id, b.id);
        QCOMPARE(UserRepository(store()).firstAdmin()->id, b.id);
    }

    void aNewPasswordEndsTheRefreshTokens()
    {
        const User u = add(QStringLiteral("a@ornek.com.tr"));
        const User other = add(QStringLiteral("b@ornek.com.tr"));
        RefreshTokenRepository tokens(store());
        const QDateTime later = kNow.addDays(30);
        tokens.store(u.id, QStringLiteral("token-of-u"), later);
        tokens.store(other.id, QStringLiteral("token-of-other"), later);
        QVERIFY(tokens.isLive(QStringLiteral("token-of-u"), kNow));

        UserRepository(store()).setPassword(u.id, QStringLiteral("yeni-parola-7"), 1000);
        const QString stored = UserRepository(store()).findForLogin(QStringLiteral("a@ornek.com.tr"))->second;
        QVERIFY(PasswordHasher::verify(QStringLiteral("yeni-parola-7"), stored));
        QVERIFY(!tokens.isLive(QStringLiteral("token-of-u"), kNow));
        QVERIFY(tokens.isLive(QStringLiteral("token-of-other"), kNow));
    }
};

QTEST_GUILESS_MAIN(TestUserRepository)
#include "test_userrepository.moc"
