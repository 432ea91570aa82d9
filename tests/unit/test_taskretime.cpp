// All-day tasks and a changed tasks/timeZone: the scheduler's start realigns the stored due,
// reminder and overdue instants with the zone it runs in, so that reminders fire at the right local
// time. A fake clock: no real waiting.
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/tasks/taskrepository.h"
#include "model/tasks/taskscheduler.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QSignalSpy>
#include <QtTest>

namespace {
QDateTime utc(int y, int mo, int d, int h = 0, int mi = 0)
{
    return QDateTime(QDate(y, mo, d), QTime(h, mi), QTimeZone::utc());
}

// due_at, remind_at, overdue_at as stored.
QStringList stored(const QString &id)
{
    QSqlQuery q = Database::exec(QStringLiteral("SELECT due_at, remind_at, overdue_at FROM tasks WHERE id = ?"), {id});
    if (!q.next())
        return {};
    return {q.value(0).toString(), q.value(1).toString(), q.value(2).toString()};
}
} // namespace

class TestTaskRetime final : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;
    FakeClock m_clock;
    EventBus m_bus;
    const QTimeZone m_istanbul{"Europe/Istanbul"}; // UTC+3, no DST
    const QTimeZone m_newYork{"America/New_York"}; // UTC-5 in March before the 8th

private slots:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_clock.set(utc(2026, 3, 2, 10, 0));
        QVERIFY(m_istanbul.isValid());
        QVERIFY(m_newYork.isValid());
    }
    void cleanup() { m_db.reset(); }

    void startRealignsAllDayTasksWithTheNewZone()
    {
        TaskRepository istanbul(Store(m_bus, m_clock), m_istanbul);
        const Task t =
            istanbul.create(TaskRules::parse({{"title", "Renew contract"},
                                              {"dueDate", "2026-03-04"},
                                              {"reminder", QJsonObject{{"enabled", true}, {"before", 60}}}}));
        // Written in Istanbul: the day starts 2026-03-03T21:00Z.
        QCOMPARE(stored(t.id),
                 QStringList({"2026-03-03T21:00:00.000Z", "2026-03-03T20:00:00.000Z", "2026-03-04T21:00:00.000Z"}));
        // A timed task is an instant already: nothing to realign.
        const Task timed = istanbul.create(TaskRules::parse({{"title", "Call"}, {"dueDate", "2026-03-04T09:00:00Z"}}));
        const QStringList timedBefore = stored(timed.id);

        // The setting now says New York: the scheduler's start realigns the all-day task.
        QSignalSpy bus(&m_bus, &EventBus::changed);
        TaskScheduler scheduler(Store(m_bus, m_clock), m_newYork);
        QSignalSpy fired(&scheduler, &TaskScheduler::fired);
        scheduler.start();
        QCOMPARE(stored(t.id),
                 QStringList({"2026-03-04T05:00:00.000Z", "2026-03-04T04:00:00.000Z", "2026-03-05T05:00:00.000Z"}));
        QCOMPARE(stored(timed.id), timedBefore);
        QCOMPARE(fired.count(), 0);
        bool told = false;
        for (const QList<QVariant> &args : std::as_const(bus))
            told |= args.at(0).value<EventBus::Entity>() == EventBus::Entity::Task &&
                    args.at(2).value<EventBus::Change>() == EventBus::Change::Updated;
        QVERIFY(told);

        // The reminder fires at 23:00 New York time (04:00Z), not at Istanbul's 20:00Z.
        m_clock.set(utc(2026, 3, 3, 20, 30));
        QCOMPARE(scheduler.checkNow(), 0);
        m_clock.set(utc(2026, 3, 4, 4, 0));
        QCOMPARE(scheduler.checkNow(), 1);
        QCOMPARE(fired.count(), 1);
        QCOMPARE(fired.at(0).at(0).toString(), QString("task.reminder"));
        // And the task is "today" in New York on the 4th (04:00Z is still the 3rd there).
        TaskRepository newYork(Store(m_bus, m_clock), m_newYork);
        QCOMPARE(newYork.dueToday().total, 0);
        m_clock.set(utc(2026, 3, 4, 15, 0));
        QCOMPARE(newYork.dueToday().total, 2); // with the timed task: 09:00Z is 04:00 in New York
    }

    void realigningTwiceChangesNothingAndKeepsFiredEvents()
    {
        TaskRepository istanbul(Store(m_bus, m_clock), m_istanbul);
        const Task t =
            istanbul.create(TaskRules::parse({{"title", "Past"},
                                              {"dueDate", "2026-02-20"},
                                              {"reminder", QJsonObject{{"enabled", true}, {"before", 15}}}}));
        TaskScheduler first(Store(m_bus, m_clock), m_istanbul);
        QSignalSpy fired(&first, &TaskScheduler::fired);
        first.start(); // reminder and overdue fire once
        QCOMPARE(fired.count(), 2);
        QCOMPARE(TaskRepository(Store(m_bus, m_clock), m_istanbul).retimeAllDayTasks(), 0);

        TaskRepository newYork(Store(m_bus, m_clock), m_newYork);
        QCOMPARE(newYork.retimeAllDayTasks(), 1); // due_at only: the events are spent
        const QStringList after = stored(t.id);
        QCOMPARE(after.at(0), QString("2026-02-20T05:00:00.000Z"));
        QVERIFY(after.at(1).isEmpty());
        QVERIFY(after.at(2).isEmpty());
        QCOMPARE(newYork.retimeAllDayTasks(), 0);
        TaskScheduler second(Store(m_bus, m_clock), m_newYork);
        QSignalSpy again(&second, &TaskScheduler::fired);
        second.start();
        QCOMPARE(again.count(), 0); // never twice
    }
};

QTEST_GUILESS_MAIN(TestTaskRetime)
#include "test_taskretime.moc"
