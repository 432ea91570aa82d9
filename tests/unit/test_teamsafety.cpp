// The rules that two copies of Liaison on one PostgreSQL database could break at once, held by the
// model on both databases (this test runs on SQLite, and again on PostgreSQL as unit_teamsafety_pg):
// a unique index's refusal is a 409 (UniqueViolation), and a repository gives its own 409 for it;
// a refresh token is used once, and a second use ends the token the first was given; the last
// active admin stays; the access-token signing keys of team mode are made once and rotated.
// The races themselves, over two real copies: postgres_twocopies.
#include "model/accounts/signingkeyrepository.h"
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

void insertUser(const QString &id, const QString &email)
{
    Database::exec(
        QStringLiteral("INSERT INTO users (id, email, email_norm, name, role, password_hash, created_at, "
                       "updated_at) VALUES (?, ?, ?, 'Ad', 'agent', 'x', ?, ?)"),
        {id, email, email.toLower(), QStringLiteral("2031-01-01T00:00:00Z"), QStringLiteral("2031-01-01T00:00:00Z")});
}
} // namespace

class TestTeamSafety final : public QObject
{
    Q_OBJECT

    std::unique_ptr<TempDatabase> m_db;
    EventBus m_bus;
    FakeClock m_clock{kNow};
    Store store() { return Store(m_bus, m_clock); }

private slots:
    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    // A write a unique index refuses is a 409 CONFLICT, not a failure of the database, and the
    // thread's connection works on after it (the transaction was rolled back).
    void aUniqueIndexRefusalIsAConflict()
    {
        insertUser(QStringLiteral("user_1"), QStringLiteral("a@ornek.com.tr"));
        try {
            Transaction tx;
            insertUser(QStringLiteral("user_2"), QStringLiteral("A@ornek.com.tr"));
            tx.commit();
            QFAIL("the duplicate was stored");
        } catch (const UniqueViolation &e) {
            QCOMPARE(e.kind(), DomainError::Conflict);
            QCOMPARE(e.code(), QStringLiteral("CONFLICT"));
        }
        insertUser(QStringLiteral("user_3"), QStringLiteral("c@ornek.com.tr"));
        QCOMPARE(UserRepository(store()).list().size(), 2);
    }

    // refuseDuplicate: the check runs again after the rollback and gives its own 409; inside a
    // caller's transaction the violation goes up as it is, without the check.
    void refuseDuplicateGivesTheCheckOwn409()
    {
        insertUser(QStringLiteral("user_1"), QStringLiteral("a@ornek.com.tr"));
        int checks = 0;
        const auto write = [] {
            Transaction tx;
            insertUser(QStringLiteral("user_2"), QStringLiteral("a@ornek.com.tr"));
            tx.commit();
        };
        const auto check = [&checks] {
            ++checks;
            throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"), ModelText("own"),
                              FieldProblems{{QStringLiteral("email"), ModelText("already registered")}});
        };
        try {
            Database::refuseDuplicate(write, check);
            QFAIL("the duplicate was stored");
        } catch (const UniqueViolation &) {
            QFAIL("the check's own 409 was not given");
        } catch (const DomainError &e) {
            QCOMPARE(e.message(), QStringLiteral("own"));
        }
        QCOMPARE(checks, 1);
        try {
            Transaction outer;
            Database::refuseDuplicate(write, check);
            QFAIL("the duplicate was stored");
        } catch (const UniqueViolation &) {
        }
        QCOMPARE(checks, 1);
        // A repository's duplicate: its own 409 naming the field.
        const QPair<QString, int> refused = refusalOf([this] {
            UserRepository(store()).create(QStringLiteral("A@ornek.com.tr"), QStringLiteral("Ayşe"),
                                           QStringLiteral("agent"), QStringLiteral("x"));
        });
        QCOMPARE(refused, qMakePair(QStringLiteral("email"), int(DomainError::Conflict)));
    }

    // A refresh token is used once; using it again ends its family, the token the first use gave
    // included when it was stored in the same transaction.
    void aRefreshTokenIsUsedOnce()
    {
        const User u = UserRepository(store()).create(QStringLiteral("r@ornek.com.tr"), QStringLiteral("Rıfat"),
                                                      QStringLiteral("agent"), QStringLiteral("x"));
        RefreshTokenRepository tokens(store());
        tokens.store(u.id, QStringLiteral("lr_first"), kNow.addDays(30));
        {
            Transaction tx;
            const auto consumed = tokens.consume(QStringLiteral("lr_first"), kNow);
            QVERIFY(consumed);
            tokens.store(u.id, QStringLiteral("lr_second"), kNow.addDays(30), consumed->familyId);
            tx.commit();
        }
        QVERIFY(tokens.isLive(QStringLiteral("lr_second"), kNow));
        QVERIFY(!tokens.consume(QStringLiteral("lr_first"), kNow.addSecs(1)));
        QVERIFY(!tokens.isLive(QStringLiteral("lr_second"), kNow.addSecs(1)));
        QVERIFY(!tokens.consume(QStringLiteral("lr_second"), kNow.addSecs(2)));
    }

    // The last active admin can be neither deactivated nor made an agent; with two, one can.
    void theLastActiveAdminStays()
    {
        UserRepository users(store());
        const User a = users.create(QStringLiteral("a@ornek.com.tr"), QStringLiteral("Ayşe"), QStringLiteral("admin"),
                                    QStringLiteral("x"));
        const User b = users.create(QStringLiteral("b@ornek.com.tr"), QStringLiteral("Burak"), QStringLiteral("admin"),
                                    QStringLiteral("x"));
        QVERIFY(!users.setActive(a.id, false).isActive());
        QCOMPARE(refusalOf([&] { users.setActive(b.id, false); }).second, int(DomainError::Conflict));
        QCOMPARE(refusalOf([&] { users.update(b.id, std::nullopt, QStringLiteral("agent")); }).second,
                 int(DomainError::Conflict));
        QVERIFY(users.setActive(a.id, true).isActive());
        QCOMPARE(users.update(b.id, std::nullopt, QStringLiteral("agent")).role, QStringLiteral("agent"));
        QCOMPARE(refusalOf([&] { users.setActive(a.id, false); }).second, int(DomainError::Conflict));
        QCOMPARE(users.update(a.id, QStringLiteral("Ayşe Y."), std::nullopt).name,
                 QStringLiteral("Ayşe Y.")); // a rename
    }

    // The first load makes one key, the next ones find it; a rotation adds a key that signs two
    // minutes later and gives the replaced one an end; keys past their end are no longer loaded, and
    // the next rotation deletes them.
    void signingKeysAreMadeOnceAndRotated()
    {
        const QVector<SigningKey> first = SigningKeyRepository::load(kNow);
        QCOMPARE(first.size(), 1);
        QCOMPARE(first.at(0).secret.size(), 32);
        QVERIFY(!first.at(0).verifyUntil.isValid());
        const QVector<SigningKey> again = SigningKeyRepository::load(kNow.addSecs(5));
        QCOMPARE(again.size(), 1);
        QCOMPARE(again.at(0).id, first.at(0).id);
        QCOMPARE(again.at(0).secret, first.at(0).secret);

        const SigningKey rotated = SigningKeyRepository::rotate(kNow.addSecs(10), 960);
        QCOMPARE(rotated.notBefore, kNow.addSecs(10 + SigningKeyRepository::kActivationSeconds));
        QVector<SigningKey> keys = SigningKeyRepository::load(kNow.addSecs(11));
        QCOMPARE(keys.size(), 2);
        QCOMPARE(keys.at(0).id, first.at(0).id);
        QCOMPARE(keys.at(0).verifyUntil, rotated.notBefore.addSecs(960));
        QCOMPARE(keys.at(1).id, rotated.id);
        QVERIFY(!keys.at(1).verifyUntil.isValid());

        const QDateTime later = rotated.notBefore.addSecs(961);
        keys = SigningKeyRepository::load(later);
        QCOMPARE(keys.size(), 1);
        QCOMPARE(keys.at(0).id, rotated.id);
        SigningKeyRepository::rotate(later, 960);
        QCOMPARE(Database::rowCount(QStringLiteral("signing_keys")), 2); // the first one deleted
    }
};

QTEST_MAIN(TestTeamSafety)
#include "test_teamsafety.moc"
