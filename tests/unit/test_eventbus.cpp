// The event bus: its names for logs, and a change sent from another thread arriving queued with its
// enums intact (the server and delivery threads notify the window this way).
#include "model/core/eventbus.h"

#include <QThread>
#include <QtTest>

class TestEventBus : public QObject
{
    Q_OBJECT

private slots:
    void names_data()
    {
        QTest::addColumn<QString>("entity");
        QTest::addColumn<QString>("change");
        QTest::newRow("contact") << EventBus::name(EventBus::Entity::Contact)
                                 << EventBus::name(EventBus::Change::Created);
        QTest::newRow("incoming webhook")
            << EventBus::name(EventBus::Entity::IncomingWebhook) << EventBus::name(EventBus::Change::NewMessage);
        QTest::newRow("api key") << EventBus::name(EventBus::Entity::ApiKey)
                                 << EventBus::name(EventBus::Change::Overdue);
    }
    void names()
    {
        QFETCH(QString, entity);
        QFETCH(QString, change);
        static const QHash<QString, QString> expected{
            {"contact", "created"}, {"incoming_webhook", "new_message"}, {"api_key", "overdue"}};
        QVERIFY2(expected.contains(entity), qPrintable(entity));
        QCOMPARE(change, expected.value(entity));
    }

    void everyValueHasAName()
    {
        const QMetaEnum entities = QMetaEnum::fromType<EventBus::Entity>();
        for (int i = 0; i < entities.keyCount(); ++i)
            QVERIFY(!EventBus::name(EventBus::Entity(entities.value(i))).isEmpty());
        const QMetaEnum changes = QMetaEnum::fromType<EventBus::Change>();
        for (int i = 0; i < changes.keyCount(); ++i)
            QVERIFY(!EventBus::name(EventBus::Change(changes.value(i))).isEmpty());
    }

    void arrivesQueuedFromAnotherThread()
    {
        EventBus bus;
        EventBus::Entity gotEntity = EventBus::Entity::Contact;
        EventBus::Change gotChange = EventBus::Change::Created;
        QString gotId;
        QThread *receiverThread = QThread::currentThread();
        bool queued = false;
        connect(&bus, &EventBus::changed, this,
                [&](EventBus::Entity entity, const QString &id, EventBus::Change change) {
                    queued = QThread::currentThread() == receiverThread;
                    gotEntity = entity;
                    gotId = id;
                    gotChange = change;
                });
        QThread *sender = QThread::create(
            [&bus] { bus.notify(EventBus::Entity::Task, QStringLiteral("task_1"), EventBus::Change::Reminder); });
        sender->start();
        QVERIFY(sender->wait(5000));
        delete sender;
        QTRY_COMPARE_WITH_TIMEOUT(gotId, QString("task_1"), 5000);
        QVERIFY(queued);
        QCOMPARE(gotEntity, EventBus::Entity::Task);
        QCOMPARE(gotChange, EventBus::Change::Reminder);
    }
};

QTEST_GUILESS_MAIN(TestEventBus)
#include "test_eventbus.moc"
