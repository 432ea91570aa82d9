// The store, the one way to the data: its news waits for the commit of the write it reports (a
// rollback drops it, the same news goes once per commit), and "now" is its clock's in every row a
// repository writes and in the outbox's events.
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/store.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipelinerepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/templaterepository.h"
#include "model/tasks/taskrepository.h"
#include "model/webhooks/webhookrepository.h"
#include "tests/support/fakeclock.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QtTest>

#include <functional>
#include <memory>

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
} // namespace

using Write = std::function<QString(const Store &)>; // a write that returns the createdAt it stored
Q_DECLARE_METATYPE(Write)

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
