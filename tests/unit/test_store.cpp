// The store, the one way to the data: its news waits for the commit of the write it reports (a
// rollback drops it, the same news goes once per commit), and "now" is its clock's in every row a
// repository writes and in the outbox's events. A Transaction nested in another is a savepoint: a
// failed inner write caught by its caller leaves none of its rows, events or news behind, and a
// released one stands or falls with the transaction around it. A row is read column after column,
// the same through select() and through a query.
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/changefeed.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/outbox.h"
#include "model/core/store.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipelinerepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/templaterepository.h"
#include "model/tasks/taskrepository.h"
#include "model/webhooks/webhookrepository.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QSqlDriver>
#include <QtTest>

#include <functional>
#include <memory>
#include <optional>

namespace {
const QDateTime kAt(QDate(2031, 5, 6), QTime(7, 8, 9), Qt::UTC);
const QString kAtIso = QStringLiteral("2031-05-06T07:08:09.000Z");

// The timestamp of the newest event in the outbox.
QString lastEventTime()
{
    QSqlQuery q = Database::exec(QStringLiteral("SELECT created_at FROM outbox ORDER BY seq DESC LIMIT 1"));
    return q.next() ? q.value(0).toString() : QString();
}

QString contactId(const Store &store)
{
    return ContactRepository(store)
        .create(ContactRules::parse({{"firstName", "Şule"}, {"email", "sule@example.com"}}))
        .id;
}

// A contact of this first name (e-mail <name>@example.com): a row, an outbox event, news on the bus.
QString createContact(const Store &store, const QString &name)
{
    return ContactRepository(store)
        .create(ContactRules::parse({{"firstName", name}, {"email", name.toLower() + "@example.com"}}))
        .id;
}

// The first names of the stored contacts, sorted.
QStringList contactNames()
{
    QStringList names;
    QSqlQuery q = Database::exec(QStringLiteral("SELECT first_name FROM contacts ORDER BY first_name"));
    while (q.next())
        names << q.value(0).toString();
    return names;
}

// The first names of the contacts the outbox's events are about, sorted.
QStringList eventNames()
{
    QStringList names;
    QSqlQuery q = Database::exec(QStringLiteral("SELECT payload FROM outbox"));
    while (q.next())
        names << QJsonDocument::fromJson(q.value(0).toByteArray())
                     .object()
                     .value("data")
                     .toObject()
                     .value("firstName")
                     .toString();
    names.sort();
    return names;
}

// The ids the bus was told of, in order.
QStringList toldIds(const QSignalSpy &told)
{
    QStringList ids;
    for (const QList<QVariant> &news : told)
        ids << news.at(1).toString();
    return ids;
}

// Another connection listening on the channel of news for the other copies (PostgreSQL only): the
// ids of this process's news it received.
class ChangesListener
{
public:
    ChangesListener()
        : m_db(Database::openExtraConnection(QStringLiteral("test-changes-listener")))
        , m_spy(m_db.driver(), &QSqlDriver::notification)
    {
        m_listening = m_db.driver()->subscribeToNotification(QLatin1String(Database::kChangesChannel));
    }
    ~ChangesListener()
    {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("test-changes-listener"));
    }
    bool listening() const { return m_listening; }
    QStringList ids() const
    {
        QStringList out;
        for (const QList<QVariant> &n : m_spy) {
            const std::optional<ChangeFeed::News> news = ChangeFeed::parse(n.at(2).toString());
            if (news && news->copy == Database::copyId())
                out << news->id;
        }
        return out;
    }

private:
    QSqlDatabase m_db;
    QSignalSpy m_spy;
    bool m_listening = false;
};

// Makes a refusal of the database inside the current transaction: a contact's e-mail set to another
// contact's (a unique index refuses it on both databases; PostgreSQL then refuses the rest of the
// transaction, up to the rollback of a savepoint taken before).
void refusedStatement(const QString &id, const QString &takenEmail)
{
    Database::exec(QStringLiteral("UPDATE contacts SET email_norm = ? WHERE id = ?"), {takenEmail, id});
}
} // namespace

using Write = std::function<QString(const Store &)>; // a write that returns the createdAt it stored
Q_DECLARE_METATYPE(Write)
using InnerWrite = std::function<void(const Store &)>; // a write nested in a caller's transaction
Q_DECLARE_METATYPE(InnerWrite)

class TestStore : public QObject
{
    Q_OBJECT

    std::unique_ptr<TempDatabase> m_db;

private slots:
    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    void newsOutsideATransactionGoesAtOnce()
    {
        EventBus bus;
        QSignalSpy told(&bus, &EventBus::changed);
        Store(bus).notify(EventBus::Entity::Deal, "deal_1", EventBus::Change::Updated);
        QCOMPARE(told.count(), 1);
        QCOMPARE(told.first().at(1).toString(), QString("deal_1"));
    }

    void newsWaitsForTheCommit()
    {
        EventBus bus;
        QSignalSpy told(&bus, &EventBus::changed);
        Transaction tx;
        const QString id = ContactRepository(Store(bus))
                               .create(ContactRules::parse({{"firstName", "Ali"}, {"email", "ali@example.com"}}))
                               .id;
        // The repository's own transaction was nested in ours: nothing is committed yet, nothing told.
        QCOMPARE(told.count(), 0);
        tx.commit();
        QCOMPARE(told.count(), 1);
        QCOMPARE(told.first().at(1).toString(), id);
    }

    void aRollbackDropsTheNews()
    {
        EventBus bus;
        QSignalSpy told(&bus, &EventBus::changed);
        {
            Transaction tx;
            ContactRepository(Store(bus))
                .create(ContactRules::parse({{"firstName", "Ali"}, {"email", "ali@example.com"}}));
        } // rolled back
        QCOMPARE(ContactRepository(Store(bus)).count({}), qint64(0));
        QCOMPARE(told.count(), 0);
        // The next commit does not carry it either.
        Transaction tx;
        Store(bus).notify(EventBus::Entity::Task, "task_1", EventBus::Change::Created);
        tx.commit();
        QCOMPARE(told.count(), 1);
        QCOMPARE(told.first().at(1).toString(), QString("task_1"));
    }

    void theSameNewsIsToldOncePerCommit()
    {
        EventBus bus;
        QSignalSpy told(&bus, &EventBus::changed);
        const Store store(bus);
        Transaction tx;
        for (int i = 0; i < 3; ++i)
            store.notify(EventBus::Entity::Webhook, "wh_1", EventBus::Change::Updated);
        store.notify(EventBus::Entity::Webhook, "wh_2", EventBus::Change::Updated);
        store.notify(EventBus::Entity::Webhook, "wh_1", EventBus::Change::Deleted);
        tx.commit();
        QCOMPARE(told.count(), 3);
        QCOMPARE(told.at(0).at(1).toString(), QString("wh_1"));
        QCOMPARE(told.at(1).at(1).toString(), QString("wh_2"));
        QCOMPARE(told.at(2).at(2).value<EventBus::Change>(), EventBus::Change::Deleted);
    }

    void manyChangesOfAKindAreToldAsOne()
    {
        EventBus bus;
        QSignalSpy told(&bus, &EventBus::changed);
        const Store store(bus);
        Transaction tx;
        for (int i = 0; i < Store::kMaxNewsPerKind + 30; ++i)
            store.notify(EventBus::Entity::Message, QStringLiteral("msg_%1").arg(i), EventBus::Change::Created);
        store.notify(EventBus::Entity::Conversation, "conv_1", EventBus::Change::Updated);
        tx.commit();
        // The first ones by id, then one without an id for the rest; another kind keeps its own.
        QCOMPARE(told.count(), Store::kMaxNewsPerKind + 2);
        for (int i = 0; i < Store::kMaxNewsPerKind; ++i)
            QCOMPARE(told.at(i).at(1).toString(), QStringLiteral("msg_%1").arg(i));
        QCOMPARE(told.at(Store::kMaxNewsPerKind).at(1).toString(), QString());
        QCOMPARE(told.at(Store::kMaxNewsPerKind).at(0).value<EventBus::Entity>(), EventBus::Entity::Message);
        QCOMPARE(told.last().at(1).toString(), QString("conv_1"));
    }

    // An inner write that fails, caught by its caller, which goes on and commits: none of the
    // inner's rows, outbox events or news exist, the caller's do. Before savepoints the inner's rows
    // were committed with the caller's (and on PostgreSQL its refused statement made the caller's
    // next one fail).
    void aFailedInnerWriteLeavesNothing_data()
    {
        QTest::addColumn<InnerWrite>("inner");
        QTest::newRow("refused by its own code") << InnerWrite([](const Store &s) {
            Transaction tx;
            createContact(s, "Bora");
            throw DomainError::unprocessable(ModelText("refused after writing"));
        });
        QTest::newRow("refused by the database") << InnerWrite([](const Store &s) {
            Transaction tx;
            refusedStatement(createContact(s, "Bora"), "ali@example.com");
            tx.commit();
        });
        QTest::newRow("a released savepoint within it") << InnerWrite([](const Store &s) {
            Transaction tx; // sp2
            createContact(s, "Bora");
            {
                Transaction deeper; // sp3
                createContact(s, "Burcu");
                deeper.commit();
            }
            refusedStatement(createContact(s, "Berk"), "ali@example.com");
            tx.commit();
        });
        QTest::newRow("a savepoint inside a read of it") << InnerWrite([](const Store &s) {
            Transaction tx; // sp2
            createContact(s, "Bora");
            const ReadTransaction reads; // depth 3: nothing of its own
            Transaction deeper;          // sp4
            createContact(s, "Burcu");
            throw DomainError::unprocessable(ModelText("refused after writing"));
        });
    }

    void aFailedInnerWriteLeavesNothing()
    {
        QFETCH(InnerWrite, inner);
        EventBus bus;
        QSignalSpy told(&bus, &EventBus::changed);
        const Store store(bus);
        QStringList kept;
        {
            Transaction tx;
            kept << createContact(store, "Ali");
            try {
                inner(store);
                QFAIL("the inner write went through");
            } catch (const DomainError &) {
            }
            kept << createContact(store, "Cem");
            tx.commit();
        }
        QCOMPARE(contactNames(), QStringList({"Ali", "Cem"}));
        QCOMPARE(eventNames(), QStringList({"Ali", "Cem"}));
        QCOMPARE(toldIds(told), kept);
        QCOMPARE(Database::leakedSnapshots(), 0);
    }

    // A released savepoint's rows are the transaction's: a later savepoint rolled back beside it
    // (the same name, sp2, taken again) leaves them, and the transaction's rollback takes them.
    void aReleasedSavepointGoesWithItsTransaction()
    {
        EventBus bus;
        QSignalSpy told(&bus, &EventBus::changed);
        const Store store(bus);
        {
            Transaction tx;
            createContact(store, "Ali");
            {
                Transaction inner;
                createContact(store, "Bora");
                inner.commit();
            }
            try {
                Transaction inner;
                createContact(store, "Cem");
                throw DomainError::unprocessable(ModelText("refused after writing"));
            } catch (const DomainError &) {
            }
            QCOMPARE(contactNames(), QStringList({"Ali", "Bora"}));
            QCOMPARE(eventNames(), QStringList({"Ali", "Bora"}));
        } // rolled back
        QCOMPARE(contactNames(), QStringList());
        QCOMPARE(eventNames(), QStringList());
        QCOMPARE(told.count(), 0);
        // The connection is out of every transaction: the next write commits alone.
        createContact(store, "Deniz");
        QCOMPARE(contactNames(), QStringList({"Deniz"}));
    }

    // After-commit work (the bus's news, the other copies' NOTIFY, Database::afterCommit) of a
    // savepoint rolled back never runs, and the keys and group counts it took are given back; that of
    // a released one runs once, after the outermost commit.
    void afterCommitWorkFollowsItsSavepoint()
    {
        EventBus bus;
        QSignalSpy told(&bus, &EventBus::changed);
        const Store store(bus);
        std::unique_ptr<ChangesListener> listener;
        if (Database::dialect() == Database::Dialect::PostgreSQL) {
            listener = std::make_unique<ChangesListener>();
            QVERIFY(listener->listening());
        }
        int kept = 0, dropped = 0, keyedByDropped = 0, keyedByOuter = 0;
        const QString group = QStringLiteral("test/group");
        Transaction tx;
        store.notify(EventBus::Entity::Task, "task_outer", EventBus::Change::Updated);
        {
            Transaction inner;
            store.notify(EventBus::Entity::Task, "task_kept", EventBus::Change::Updated);
            Database::afterCommit([&kept] { ++kept; }, {}, group);
            inner.commit();
        }
        QCOMPARE(kept, 0);
        try {
            Transaction inner;
            store.notify(EventBus::Entity::Task, "task_dropped", EventBus::Change::Updated);
            store.notify(EventBus::Entity::Task, "task_kept", EventBus::Change::Updated); // told already
            Database::afterCommit([&dropped] { ++dropped; }, {}, group);
            Database::afterCommit([&dropped] { ++dropped; }, {}, group);
            Database::afterCommit([&keyedByDropped] { ++keyedByDropped; }, "test/key");
            QCOMPARE(Database::afterCommitCount(group), 3);
            throw DomainError::unprocessable(ModelText("refused after writing"));
        } catch (const DomainError &) {
        }
        QCOMPARE(Database::afterCommitCount(group), 1);
        Database::afterCommit([&keyedByOuter] { ++keyedByOuter; }, "test/key"); // the key is free again
        QCOMPARE(told.count(), 0);
        tx.commit();
        QCOMPARE(toldIds(told), QStringList({"task_outer", "task_kept"}));
        QCOMPARE(kept, 1);
        QCOMPARE(dropped, 0);
        QCOMPARE(keyedByDropped, 0);
        QCOMPARE(keyedByOuter, 1);
        QCOMPARE(Database::afterCommitCount(group), 0);
        if (listener) {
            // A later transaction's news, delivered after the first one's: once it is there, the first
            // one's are too.
            Transaction later;
            store.notify(EventBus::Entity::Task, "task_later", EventBus::Change::Updated);
            later.commit();
            QTRY_VERIFY_WITH_TIMEOUT(listener->ids().contains("task_later"), 10000);
            QCOMPARE(listener->ids(), QStringList({"task_outer", "task_kept", "task_later"}));
        }
    }

    // A statement that failed outside any savepoint: SQLite refused the statement only, and the
    // transaction commits the rest; PostgreSQL refuses the whole transaction, whose commit then
    // says so (PostgreSQL itself answers that COMMIT as done, rolling back) and tells nothing.
    void aFailedStatementOutsideASavepoint()
    {
        EventBus bus;
        QSignalSpy told(&bus, &EventBus::changed);
        const Store store(bus);
        Transaction tx;
        createContact(store, "Ali");
        const QString bora = createContact(store, "Bora");
        QVERIFY_THROWS_EXCEPTION(UniqueViolation, refusedStatement(bora, "ali@example.com"));
        if (Database::dialect() == Database::Dialect::SQLite) {
            tx.commit();
            QCOMPARE(contactNames(), QStringList({"Ali", "Bora"}));
            QCOMPARE(told.count(), 2);
            return;
        }
        QVERIFY_THROWS_EXCEPTION(DatabaseError, tx.commit());
        QCOMPARE(contactNames(), QStringList());
        QCOMPARE(told.count(), 0);
        createContact(store, "Cem"); // the connection goes on
        QCOMPARE(contactNames(), QStringList({"Cem"}));
    }

    // An update event's changedFields: the answer's keys whose values changed (or that came), in key
    // order, less the ignored ones; a key the answer no longer has is not one of them.
    void changedFieldsAreTheKeysThatDiffer()
    {
        const QJsonObject before{{"name", "Ali"}, {"tags", QJsonArray{"a"}}, {"status", "open"}, {"gone", 1}};
        QCOMPARE(Outbox::changedFields(before, before), QJsonArray());
        const QJsonObject after{{"name", "Ali"}, {"tags", QJsonArray{"a", "b"}}, {"status", "done"}, {"new", 2}};
        QCOMPARE(Outbox::changedFields(before, after), QJsonArray({"new", "status", "tags"}));
        QCOMPARE(Outbox::changedFields(before, after, {"status", "name"}), QJsonArray({"new", "tags"}));
    }

    // A row read column after column (the repositories' fromRow) reads the same through select()
    // (SQLite's C API) and through a query at its row: each call the next column, NULLs as nullopt
    // or empty, empty and NULL JSON as empty.
    void aRowIsReadInTheOrderOfItsColumns()
    {
        const QString sql = QStringLiteral("SELECT 7, 'Şükrü', NULL, 2.5, NULL, '{\"k\": 1}', '[\"x\", \"y\"]', "
                                           "'', NULL, 1, 0, 'after'");
        const auto read = [](SqlRowReader r) {
            QStringList out;
            out << QString::number(r.integer()) << r.text();
            const std::optional<qint64> none = r.integerOrNull();
            const std::optional<double> half = r.realOrNull();
            out << (none ? QStringLiteral("number") : QStringLiteral("null"))
                << (half ? QString::number(*half) : QStringLiteral("null"));
            out << (r.text().isNull() ? QStringLiteral("null text") : QStringLiteral("text"));
            out << QString::number(r.jsonObject().value(QStringLiteral("k")).toInt()) << r.jsonStrings().join('+');
            out << QString::number(r.jsonObject().size()) << QString::number(r.jsonStrings().size());
            out << (r.flag() ? QStringLiteral("on") : QStringLiteral("off"))
                << (r.flag() ? QStringLiteral("on") : QStringLiteral("off"));
            out << QString::number(r.next()) << r.text();
            return out;
        };
        const QStringList expected{"7", "Şükrü", "null", "2.5", "null text", "1",    "x+y",
                                   "0", "0",     "on",   "off", "11",        "after"};
        QStringList selected;
        Database::select(sql, {}, [&](const SqlRow &row) { selected = read(row); });
        QCOMPARE(selected, expected);
        QSqlQuery q = Database::exec(sql);
        QVERIFY(q.next());
        QCOMPARE(read(SqlRow(q)), expected);
        CachedQuery cached = Database::execCached(sql);
        QVERIFY(cached.next());
        QCOMPARE(read(cached), expected);
    }

    void repositoriesStampTheStoresTime_data()
    {
        QTest::addColumn<Write>("write");
        QTest::addColumn<bool>("event"); // whether the write puts an event in the outbox

        QTest::newRow("contact") << Write([](const Store &s) {
            return ContactRepository(s)
                .create(ContactRules::parse({{"firstName", "Ayşe"}, {"phone", "+905321234567"}}))
                .createdAt;
        }) << true;
        QTest::newRow("deal") << Write([](const Store &s) {
            return DealRepository(s).create(DealRules::parse({{"name", "Kiralama"}, {"value", 1000}})).createdAt;
        }) << true;
        QTest::newRow("task") << Write([](const Store &s) {
            return TaskRepository(s).create(TaskRules::parse({{"title", "Ara"}})).createdAt;
        }) << true;
        QTest::newRow("segment") << Write([](const Store &s) {
            return SegmentRepository(s)
                .create(SegmentRules::parse(
                    {{"name", "VIP"},
                     {"filters",
                      QJsonObject{{"logic", "AND"},
                                  {"rules", QJsonArray{QJsonObject{
                                                {"field", "tags"}, {"operator", "equals"}, {"value", "vip"}}}}}}}))
                .createdAt;
        }) << true;
        QTest::newRow("pipeline") << Write([](const Store &s) {
            return PipelineRepository(s)
                .create(PipelineRules::parse(
                    {{"name", "Kurumsal"}, {"stages", QJsonArray{QJsonObject{{"name", "Yeni"}}}}}, true))
                .createdAt;
        }) << false;
        QTest::newRow("conversation") << Write([](const Store &s) {
            return ConversationRepository(s).findOrCreate(contactId(s), "widget", "visitor_1").createdAt;
        }) << true;
        QTest::newRow("template") << Write([](const Store &s) {
            return TemplateRepository(s)
                .create(TemplateRules::parse({{"name", "promo"}, {"language", "tr"}, {"body", "Merhaba {{1}}"}}, true))
                .createdAt;
        }) << false;
        QTest::newRow("user") << Write([](const Store &s) {
            return UserRepository(s).create("ali@example.com", "Ali", "agent", "x").createdAt;
        }) << false;
        QTest::newRow("api key") << Write([](const Store &s) {
            return ApiKeyRepository(s).create("betik", {"*"}).key.createdAt;
        }) << false;
        QTest::newRow("webhook") << Write([](const Store &s) {
            return WebhookRepository(s)
                .create(
                    webhookChanges({{"url", "https://example.com/hook"}, {"events", QJsonArray{"contact.created"}}}))
                .webhook.createdAt;
        }) << false;
    }

    void repositoriesStampTheStoresTime()
    {
        QFETCH(Write, write);
        QFETCH(bool, event);
        EventBus bus;
        const FakeClock clock(kAt);
        const QString createdAt = write(Store(bus, clock));
        QCOMPARE(createdAt, kAtIso);
        if (event)
            QCOMPARE(lastEventTime(), kAtIso);
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "test_store.moc"
