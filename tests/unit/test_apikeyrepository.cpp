// ApiKeyRepository on the database of the pass: what a scope grants, which scopes a role may give a
// key, the scopes a new key gets, the secret shown once and found again only by its hash, revoked
// keys and keys of deactivated owners refused, and the owner's role read at each look-up.
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

class TestApiKeyRepository : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;
    EventBus m_bus;
    FakeClock m_clock;

    Store store() { return Store(m_bus, m_clock); }
    QString addUser(const QString &email, const QString &role)
    {
        return UserRepository(store()).create(email, QStringLiteral("Kişi"), role, QStringLiteral("hash")).id;
    }

private Q_SLOTS:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_clock.set(kNow);
    }
    void cleanup() { m_db.reset(); }

    void scopesGrant_data()
    {
        QTest::addColumn<QStringList>("scopes");
        QTest::addColumn<QString>("asked");
        QTest::addColumn<bool>("granted");
        QTest::newRow("everything") << QStringList{"*"} << "settings:write" << true;
        QTest::newRow("the same scope") << QStringList{"deals:read"} << "deals:read" << true;
        QTest::newRow("an area's every scope") << QStringList{"deals:*"} << "deals:write" << true;
        QTest::newRow("write grants read") << QStringList{"deals:write"} << "deals:read" << true;
        QTest::newRow("read does not grant write") << QStringList{"deals:read"} << "deals:write" << false;
        QTest::newRow("another area") << QStringList{"contacts:*"} << "deals:read" << false;
        QTest::newRow("no area by prefix") << QStringList{"deal:*"} << "deals:read" << false;
        QTest::newRow("none") << QStringList{} << "deals:read" << false;
    }
    void scopesGrant()
    {
        QFETCH(QStringList, scopes);
        QFETCH(QString, asked);
        QFETCH(bool, granted);
        QCOMPARE(ApiKey::grants(scopes, asked), granted);
    }

    void scopesFitRoles_data()
    {
        QTest::addColumn<QString>("scope");
        QTest::addColumn<QString>("role");
        QTest::addColumn<bool>("fits");
        QTest::newRow("admin, everything") << "*"
                                           << "admin" << true;
        QTest::newRow("admin, settings") << "settings:write"
                                         << "admin" << true;
        QTest::newRow("agent, everything takes in the admin areas") << "*"
                                                                    << "agent" << false;
        QTest::newRow("agent, webhooks") << "webhooks:read"
                                         << "agent" << false;
        QTest::newRow("agent, settings") << "settings:*"
                                         << "agent" << false;
        QTest::newRow("agent, contacts") << "contacts:write"
                                         << "agent" << true;
    }
    void scopesFitRoles()
    {
        QFETCH(QString, scope);
        QFETCH(QString, role);
        QFETCH(bool, fits);
        QCOMPARE(ApiKeyRepository::scopeFitsRole(scope, role), fits);
    }

    // What create() refuses, by the fields named and the kind, and the scopes it stores otherwise.
    void createsWithScopes_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("scopes");
        QTest::addColumn<QString>("ownerRole"); // empty: no owner
        QTest::addColumn<QString>("refused");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QStringList>("stored");
        const QStringList agentDefault{"contacts:*", "deals:*",     "tasks:*", "conversations:*",
                                       "messages:*", "campaigns:*", "ai:*"};
        QTest::newRow("no scopes, no owner: everything") << "CRM aracı" << QStringList{} << ""
                                                         << "" << -1 << QStringList{"*"};
        QTest::newRow("no scopes, admin: everything") << "CRM aracı" << QStringList{} << "admin"
                                                      << "" << -1 << QStringList{"*"};
        QTest::newRow("no scopes, agent: all but the admin areas") << "CRM aracı" << QStringList{} << "agent"
                                                                   << "" << -1 << agentDefault;
        QTest::newRow("repeats stored once") << "x" << QStringList{"deals:read", "deals:read", "tasks:*"} << "agent"
                                             << "" << -1 << QStringList{"deals:read", "tasks:*"};
        QTest::newRow("name trimmed, required") << "   " << QStringList{} << ""
                                                << "name" << int(DomainError::Unprocessable) << QStringList{};
        QTest::newRow("name too long") << QString(101, QLatin1Char('a')) << QStringList{} << ""
                                       << "name" << int(DomainError::BadRequest) << QStringList{};
        QTest::newRow("unknown scope") << "x" << QStringList{"deals:delete"} << ""
                                       << "scopes" << int(DomainError::BadRequest) << QStringList{};
        QTest::newRow("an agent's key never reaches settings")
            << "x" << QStringList{"contacts:read", "settings:read"} << "agent"
            << "scopes" << int(DomainError::Forbidden) << QStringList{};
        QTest::newRow("an agent's key never gets *") << "x" << QStringList{"*"} << "agent"
                                                     << "scopes" << int(DomainError::Forbidden) << QStringList{};
    }
    void createsWithScopes()
    {
        QFETCH(QString, name);
        QFETCH(QStringList, scopes);
        QFETCH(QString, ownerRole);
        QFETCH(QString, refused);
        QFETCH(int, kind);
        QFETCH(QStringList, stored);
        const QString owner = ownerRole.isEmpty() ? QString() : addUser(QStringLiteral("o@ornek.com.tr"), ownerRole);
        ApiKeyRepository keys(store());
        std::optional<NewApiKey> made;
        QCOMPARE(refusalOf([&] { made = keys.create(name, scopes, owner); }), qMakePair(refused, kind));
        if (kind >= 0) {
            QVERIFY(keys.list().isEmpty());
            return;
        }
        QCOMPARE(made->key.scopes, stored);
        QCOMPARE(keys.find(made->key.id)->scopes, stored);
        QCOMPARE(made->key.name, name.trimmed());
        QCOMPARE(made->key.role(), ownerRole.isEmpty() ? QStringLiteral("admin") : ownerRole);
    }

    void theSecretIsShownOnceAndFoundByItsHash()
    {
        ApiKeyRepository keys(store());
        QSignalSpy spy(&m_bus, &EventBus::changed);
        const NewApiKey made = keys.create(QStringLiteral("Entegrasyon"), {QStringLiteral("contacts:read")});
        QCOMPARE(spy.size(), 1);
        QVERIFY(made.secret.startsWith(QLatin1String("lk_")));
        QCOMPARE(made.secret.size(), 3 + 43); // 32 random bytes in base64url
        QCOMPARE(made.key.prefix, made.secret.left(10));
        QCOMPARE(made.key.createdAt, QStringLiteral("2031-03-04T10:00:00.000Z"));
        QSqlQuery q = Database::exec(QStringLiteral("SELECT key_hash FROM api_keys WHERE id = ?"), {made.key.id});
        QVERIFY(q.next());
        QVERIFY(!q.value(0).toString().contains(made.secret.mid(3)));
        QCOMPARE(q.value(0).toString().size(), 64);

        QCOMPARE(keys.authenticate(made.secret)->id, made.key.id);
        QVERIFY(!keys.authenticate(made.secret + QLatin1Char('x')));
        QVERIFY(!keys.authenticate(made.secret.mid(3)));                        // without its prefix
        QVERIFY(!keys.authenticate(QStringLiteral("lk_") + QString(200, 'a'))); // too long to be one
        QVERIFY(keys.create(QStringLiteral("b"), {}).secret != made.secret);
    }

    void revokedKeysAreRefusedAndStayListed()
    {
        ApiKeyRepository keys(store());
        const NewApiKey a = keys.create(QStringLiteral("a"), {});
        m_clock.advance(60);
        const NewApiKey b = keys.create(QStringLiteral("b"), {});
        QCOMPARE(keys.list().size(), 2);
        QCOMPARE(keys.list().constFirst().id, b.key.id); // newest first
        m_clock.advance(60);
        keys.revoke(a.key.id);
        QVERIFY(!keys.authenticate(a.secret));
        QVERIFY(keys.authenticate(b.secret));
        const QString revokedAt = keys.find(a.key.id)->revokedAt;
        QCOMPARE(revokedAt, QStringLiteral("2031-03-04T10:02:00.000Z"));
        m_clock.advance(60);
        keys.revoke(a.key.id); // twice: harmless, the first time stays
        QCOMPARE(keys.find(a.key.id)->revokedAt, revokedAt);
        QCOMPARE(keys.list().size(), 2);
        QCOMPARE(refusalOf([&] { keys.revoke(QStringLiteral("apikey_none")); }).second, int(DomainError::NotFound));
        QVERIFY(keys.find(a.key.id)->toJson().value(QLatin1String("active")) == false);
    }

    void theOwnersRoleAndStateApplyAtOnce()
    {
        const QString admin = addUser(QStringLiteral("admin@ornek.com.tr"), QStringLiteral("admin"));
        const QString agent = addUser(QStringLiteral("agent@ornek.com.tr"), QStringLiteral("agent"));
        ApiKeyRepository keys(store());
        const NewApiKey k = keys.create(QStringLiteral("araç"), {QStringLiteral("deals:*")}, agent);
        keys.create(QStringLiteral("diğeri"), {}, admin);
        QCOMPARE(keys.listOwnedBy(agent).size(), 1);
        QCOMPARE(keys.authenticate(k.secret)->role(), QStringLiteral("agent"));

        UserRepository(store()).update(agent, std::nullopt, QStringLiteral("admin"));
        QCOMPARE(keys.authenticate(k.secret)->role(), QStringLiteral("admin"));
        UserRepository(store()).setActive(agent, false);
        QVERIFY(!keys.authenticate(k.secret));
        QCOMPARE(keys.find(k.key.id)->ownerRole, QString());
        UserRepository(store()).setActive(agent, true);
        QVERIFY(keys.authenticate(k.secret));

        // No owner named: the store's acting user owns the key; an unknown owner is refused.
        const Store::Actor actor{admin, QStringLiteral("Yönetici"), QStringLiteral("admin")};
        QCOMPARE(ApiKeyRepository(store().actingAs(actor)).create(QStringLiteral("w"), {}).key.createdBy, admin);
        QCOMPARE(refusalOf([&] { keys.create(QStringLiteral("x"), {}, QStringLiteral("user_none")); }).second,
                 int(DomainError::NotFound));
    }

    void touchRecordsTheLastUse()
    {
        ApiKeyRepository keys(store());
        const NewApiKey k = keys.create(QStringLiteral("a"), {});
        QCOMPARE(keys.find(k.key.id)->lastUsedAt, QString());
        m_clock.advance(3600);
        keys.touch(k.key.id);
        QCOMPARE(keys.find(k.key.id)->lastUsedAt, QStringLiteral("2031-03-04T11:00:00.000Z"));
    }
};

QTEST_GUILESS_MAIN(TestApiKeyRepository)
#include "test_apikeyrepository.moc"
