// TaskRepository and TaskScheduler over a temporary SQLite database with an injected clock: no real
// waiting anywhere. Covers events in the outbox, references, transitions, recurrence on completion,
// today/overdue in a time zone, reminder and overdue firing, and restart catch-up.
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/tasks/taskrepository.h"
#include "model/tasks/taskscheduler.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <functional>

Q_DECLARE_METATYPE(TaskQuery)

namespace {
QDateTime utc(int y, int mo, int d, int h = 0, int mi = 0, int s = 0)
{
    return QDateTime(QDate(y, mo, d), QTime(h, mi, s), QTimeZone::utc());
}

struct Event
{
    QString name;
    QJsonObject data;
};

QVector<Event> outbox(const QString &prefix = QStringLiteral("task."))
{
    QVector<Event> out;
    QSqlQuery q = Database::exec(QStringLiteral("SELECT event, payload FROM outbox WHERE event LIKE ? ORDER BY seq"),
                                 {prefix + QLatin1Char('%')});
    while (q.next()) {
        out.append({q.value(0).toString(),
                    QJsonDocument::fromJson(q.value(1).toByteArray()).object().value("data").toObject()});
    }
    return out;
}

int countEvents(const QString &name)
{
    int n = 0;
    for (const Event &e : outbox())
        n += e.name == name;
    return n;
}
} // namespace

class TestTaskRepository final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    FakeClock m_clock;
    EventBus m_bus;

    TaskRepository repo(const QTimeZone &tz = QTimeZone::utc()) { return TaskRepository(Store(m_bus, m_clock), tz); }

private slots:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_clock.set(utc(2026, 3, 2, 10, 0));
    }
    void cleanup() { m_db.reset(); }

    // The navigation's count beside Tasks: the user's open tasks past due (a timed task after its
    // time, an all-day one from the next day), not someone else's, not done or cancelled ones, not
    // those due later; it grows as time passes.
    void overdueCountIsTheUsersOpenTasksPastDue()
    {
        UserRepository users(testStore());
        const QString me = users.create("selin@ornek.com.tr", "Selin Aksoy", "agent", "x").id;
        const QString other = users.create("murat@ornek.com.tr", "Murat Çelik", "agent", "x").id;
        auto add = [this](const QString &title, const QString &due, const QString &assignee,
                          const QString &status = QString()) {
            QJsonObject body{{"title", title}, {"dueDate", due}, {"assignedTo", assignee}};
            const Task t = repo().create(TaskRules::parse(body));
            if (!status.isEmpty())
                repo().setStatus(t.id, status);
            return t.id;
        };
        QCOMPARE(repo().overdueCount(me), 0);
        add("An hour ago", "2026-03-02T09:00:00.000Z", me);
        add("Yesterday, all day", "2026-03-01", me);
        add("Today, all day", "2026-03-02", me); // not overdue before tomorrow
        add("In an hour", "2026-03-02T11:00:00.000Z", me);
        add("Done late", "2026-02-27T09:00:00.000Z", me, "completed");
        add("Cancelled", "2026-02-27T09:00:00.000Z", me, "cancelled");
        add("In progress, late", "2026-02-28T09:00:00.000Z", me, "in_progress");
        add("Someone else's", "2026-02-27T09:00:00.000Z", other);
        QCOMPARE(repo().overdueCount(me), 3);
        QCOMPARE(repo().overdueCount(other), 1);
        QCOMPARE(repo().overdueCount(me), repo().count([&] {
            TaskQuery q;
            q.overdueOnly = true;
            q.assignedTo = me;
            return q;
        }()));
        m_clock.set(utc(2026, 3, 2, 11, 30)); // "In an hour" has passed
        QCOMPARE(repo().overdueCount(me), 4);
        m_clock.set(utc(2026, 3, 3, 0, 30)); // and today's all-day task with the day
        QCOMPARE(repo().overdueCount(me), 5);
        QCOMPARE(repo().overdueCount(QStringLiteral("user_nobody")), 0);
    }

    void deletingADealUnlinksItsTasks()
    {
        const Deal deal = DealRepository(testStore()).create(DealRules::parse({{"name", "Big deal"}, {"value", 1000}}));
        const Task t = repo().create(TaskRules::parse({{"title", "Send offer"}, {"dealId", deal.id}}));
        QCOMPARE(repo().get(t.id).dealId, deal.id);
        DealRepository(Store(m_bus)).remove(deal.id);
        QVERIFY(repo().get(t.id).dealId.isEmpty());
        const QVector<Event> events = outbox(QString());
        bool deletedEvent = false;
        bool unlinkedEvent = false;
        for (const Event &e : events) {
            deletedEvent |= e.name == "deal.deleted";
            unlinkedEvent |= e.name == "task.updated" && e.data.value("taskId").toString() == t.id &&
                             e.data.value("previousDealId").toString() == deal.id;
        }
        QVERIFY(deletedEvent);
        QVERIFY(unlinkedEvent);
    }

    void createsWithDefaultsAndEvent()
    {
        QSignalSpy bus(&m_bus, &EventBus::changed);
        const Task t = repo().create(TaskRules::parse({{"title", "Call back"}}), "user_x");
        QVERIFY(t.id.startsWith("task_"));
        QCOMPARE(t.status, QString("pending"));
        QCOMPARE(t.type, QString("task"));
        QCOMPARE(t.priority, QString("medium"));
        QCOMPARE(t.createdAt, QString("2026-03-02T10:00:00.000Z"));
        const QVector<Event> events = outbox();
        QCOMPARE(events.size(), 1);
        QCOMPARE(events[0].name, QString("task.created"));
        QCOMPARE(events[0].data.value("taskId").toString(), t.id);
        QCOMPARE(bus.size(), 1);
        QCOMPARE(bus[0][0].value<EventBus::Entity>(), EventBus::Entity::Task);
        QCOMPARE(repo().get(t.id).title, QString("Call back"));
    }

    void unknownReferencesAre422AndWriteNothing_data()
    {
        QTest::addColumn<QString>("field");
        QTest::newRow("contactId") << "contactId";
        QTest::newRow("dealId") << "dealId";
        QTest::newRow("assignedTo") << "assignedTo";
    }
    void unknownReferencesAre422AndWriteNothing()
    {
        QFETCH(QString, field);
        try {
            repo().create(TaskRules::parse({{"title", "x"}, {field, "nope_123"}}));
            QFAIL("expected 422");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Unprocessable);
            QVERIFY(e.details().contains(field));
            QVERIFY(e.message().contains(field));
        }
        QCOMPARE(repo().count({}), 0);
        QVERIFY(outbox().isEmpty());
    }

    void existingContactIsLinkedAndDeletingContactUnlinks()
    {
        ContactRepository contacts(testStore());
        const Contact c = contacts.create(ContactRules::parse({{"firstName", "Ayşe"}, {"email", "a@example.com"}}));
        const Task t = repo().create(TaskRules::parse({{"title", "Visit"}, {"contactId", c.id}}));
        const TaskLinks links = repo().links(t);
        QVERIFY(links.contact);
        QCOMPARE(links.contact->firstName, QString("Ayşe"));
        QCOMPARE(links.contact->displayName(), QString("Ayşe"));
        TaskQuery q;
        q.contactId = c.id;
        QCOMPARE(repo().count(q), 1);
        contacts.remove(c.id);
        QCOMPARE(repo().get(t.id).contactId, QString());
    }

    void refusedTransitionIs409AndChangesNothing()
    {
        const Task t = repo().create(TaskRules::parse({{"title", "x"}}));
        repo().setStatus(t.id, "completed", {}, "user_a");
        const int events = outbox().size();
        try {
            repo().setStatus(t.id, "in_progress");
            QFAIL("expected 409");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Conflict);
            QVERIFY(e.message().contains("completed") && e.message().contains("in_progress"));
        }
        QCOMPARE(repo().get(t.id).status, QString("completed"));
        QCOMPARE(outbox().size(), events);
        // The same refusal through a partial update.
        QVERIFY_THROWS_EXCEPTION(DomainError, repo().update(t.id, TaskRules::parse({{"status", "cancelled"}})));
        // Reopen is allowed and clears the completion.
        const Task reopened = repo().setStatus(t.id, "pending").task;
        QCOMPARE(reopened.status, QString("pending"));
        QVERIFY(reopened.completedAt.isEmpty());
    }

    void completionEventAndStatusNote()
    {
        const Task t = repo().create(TaskRules::parse({{"title", "x"}}));
        m_clock.set(utc(2026, 3, 2, 11, 0));
        const TaskStatusResult r = repo().setStatus(t.id, "done", "Talked to her", "user_a");
        QCOMPARE(r.task.status, QString("completed"));
        QCOMPARE(r.task.completedAt, QString("2026-03-02T11:00:00.000Z"));
        QVERIFY(!r.next);
        const QVector<TaskNote> notes = repo().notes(t.id);
        QCOMPARE(notes.size(), 1);
        QCOMPARE(notes[0].content, QString("Talked to her"));
        QCOMPARE(notes[0].createdBy, QString("user_a"));
        const Event e = outbox().last();
        QCOMPARE(e.name, QString("task.completed"));
        QCOMPARE(e.data.value("taskId").toString(), t.id);
        QCOMPARE(e.data.value("completedBy").toString(), QString("user_a"));
        QCOMPARE(e.data.value("completedAt").toString(), QString("2026-03-02T11:00:00.000Z"));
        // Same status again: nothing happens.
        QVERIFY(!repo().setStatus(t.id, "completed").changed);
        QCOMPARE(countEvents("task.completed"), 1);
    }

    void completingRecurringTaskCreatesLinkedNextOccurrence()
    {
        // 2026-03-02 is a Monday.
        const Task t = repo().create(TaskRules::parse(
            {{"title", "Stand-up"},
             {"dueDate", "2026-03-02"},
             {"priority", "high"},
             {"reminder", QJsonObject{{"before", 10}}},
             {"recurrence", QJsonObject{{"frequency", "weekly"}, {"daysOfWeek", QJsonArray{"monday", "thursday"}}}}}));
        const TaskStatusResult r = repo().setStatus(t.id, "completed", {}, "user_a");
        QVERIFY(r.next);
        QCOMPARE(r.next->dueDate, QString("2026-03-05"));
        QCOMPARE(r.next->status, QString("pending"));
        QCOMPARE(r.next->priority, QString("high"));
        QCOMPARE(r.next->previousTaskId, t.id);
        QCOMPARE(r.next->reminder.before, 10);
        QVERIFY(r.next->reminder.sentAt.isEmpty());
        QCOMPARE(repo().get(t.id).nextTaskId, r.next->id);
        QCOMPARE(countEvents("task.created"), 2);
        // Reopened and completed again: no second occurrence.
        repo().setStatus(t.id, "pending");
        QVERIFY(!repo().setStatus(t.id, "completed").next);
        QCOMPARE(repo().count({}), 2);
    }

    void nextOccurrenceSkipsMissedDaysAndStopsAtEndDate()
    {
        const Task t = repo().create(
            TaskRules::parse({{"title", "Daily report"},
                              {"dueDate", "2026-02-20"},
                              {"recurrence", QJsonObject{{"frequency", "daily"}, {"endDate", "2026-03-10"}}}}));
        const TaskStatusResult r = repo().setStatus(t.id, "completed");
        QCOMPARE(r.next->dueDate, QString("2026-03-02")); // today, not 2026-02-21
        const Task last = repo().create(
            TaskRules::parse({{"title", "Last"},
                              {"dueDate", "2026-03-10"},
                              {"recurrence", QJsonObject{{"frequency", "daily"}, {"endDate", "2026-03-10"}}}}));
        QVERIFY(!repo().setStatus(last.id, "completed").next);
    }

    void timedOccurrenceKeepsLocalTimeAcrossDst()
    {
        const QTimeZone berlin("Europe/Berlin");
        m_clock.set(utc(2026, 3, 28, 6, 0));
        // 09:00 in Berlin on 28 March (CET, UTC+1); DST starts on 29 March.
        const Task t = repo(berlin).create(TaskRules::parse({{"title", "Call"},
                                                             {"dueDate", "2026-03-28T08:00:00Z"},
                                                             {"recurrence", QJsonObject{{"frequency", "daily"}}}}));
        const TaskStatusResult r = repo(berlin).setStatus(t.id, "completed");
        QCOMPARE(r.next->dueDate, QString("2026-03-29T07:00:00.000Z"));
    }

    void monthlyOnThe31stFallsBackAndReturns()
    {
        m_clock.set(utc(2026, 1, 31, 8, 0));
        const Task jan = repo().create(TaskRules::parse(
            {{"title", "Invoice"}, {"dueDate", "2026-01-31"}, {"recurrence", QJsonObject{{"frequency", "monthly"}}}}));
        m_clock.set(utc(2026, 1, 31, 9, 0));
        const Task feb = *repo().setStatus(jan.id, "completed").next;
        QCOMPARE(feb.dueDate, QString("2026-02-28"));
        m_clock.set(utc(2026, 2, 28, 9, 0));
        const Task mar = *repo().setStatus(feb.id, "completed").next;
        QCOMPARE(mar.dueDate, QString("2026-03-31"));
    }

    void todayAndOverdueFollowTheTimeZone()
    {
        // 20:00 UTC on 5 March is 09:00 on 6 March in Auckland (UTC+13).
        const QTimeZone auckland("Pacific/Auckland");
        m_clock.set(utc(2026, 3, 5, 20, 0));
        TaskRepository r = repo(auckland);
        QCOMPARE(r.today(), QDate(2026, 3, 6));
        const Task allDayToday = r.create(TaskRules::parse({{"title", "a"}, {"dueDate", "2026-03-06"}}));
        const Task allDayYesterday = r.create(TaskRules::parse({{"title", "b"}, {"dueDate", "2026-03-05"}}));
        const Task timedPast = r.create(TaskRules::parse({{"title", "c"}, {"dueDate", "2026-03-05T19:00:00Z"}}));
        const Task timedLater = r.create(TaskRules::parse({{"title", "d"}, {"dueDate", "2026-03-05T21:00:00Z"}}));
        const Task doneYesterday =
            r.create(TaskRules::parse({{"title", "e"}, {"dueDate", "2026-03-05"}, {"status", "completed"}}));
        const Task cancelledToday =
            r.create(TaskRules::parse({{"title", "f"}, {"dueDate", "2026-03-06"}, {"status", "cancelled"}}));
        const Task tomorrow = r.create(TaskRules::parse({{"title", "g"}, {"dueDate", "2026-03-07"}}));

        QStringList today;
        for (const Task &t : r.dueToday().items)
            today << t.title;
        QCOMPARE(today, (QStringList{"a", "c", "d"}));
        QStringList overdue;
        for (const Task &t : r.overdue().items)
            overdue << t.title;
        QCOMPARE(overdue, (QStringList{"b", "c"}));
        QVERIFY(r.isOverdue(timedPast));
        QVERIFY(!r.isOverdue(timedLater));
        QVERIFY(!r.isOverdue(doneYesterday));
        Q_UNUSED(allDayToday);
        Q_UNUSED(allDayYesterday);
        Q_UNUSED(cancelledToday);

        TaskQuery after;
        after.dueAfter = QDate(2026, 3, 7).startOfDay(auckland);
        QCOMPARE(r.list(after).items.value(0).id, tomorrow.id);
        QCOMPARE(r.count(after), 1);
        TaskQuery before;
        before.dueBefore = QDate(2026, 3, 6).startOfDay(auckland);
        QCOMPARE(r.count(before), 2); // b, e (c is due after 11:00 UTC, the start of 6 March there)
    }

    void reminderFiresOnceAtDueMinusBefore()
    {
        TaskScheduler scheduler(Store(m_bus, m_clock), QTimeZone::utc());
        QSignalSpy fired(&scheduler, &TaskScheduler::fired);
        QSignalSpy bus(&m_bus, &EventBus::changed);
        const Task t = repo().create(TaskRules::parse(
            {{"title", "Call"}, {"dueDate", "2026-03-02T11:00:00Z"}, {"reminder", QJsonObject{{"before", 30}}}}));
        scheduler.start();
        QCOMPARE(fired.size(), 0);
        QCOMPARE(scheduler.nextDue(), utc(2026, 3, 2, 10, 30));
        QCOMPARE(scheduler.timerIntervalMs(), TaskScheduler::maxSleepMs());

        m_clock.set(utc(2026, 3, 2, 10, 29, 50));
        QCOMPARE(scheduler.checkNow(), 0);
        QVERIFY(scheduler.timerIntervalMs() >= 10000 && scheduler.timerIntervalMs() <= 10001);

        m_clock.set(utc(2026, 3, 2, 10, 30));
        QCOMPARE(scheduler.checkNow(), 1);
        QCOMPARE(fired.size(), 1);
        QCOMPARE(fired[0][0].toString(), QString("task.reminder"));
        QCOMPARE(repo().get(t.id).reminder.sentAt, QString("2026-03-02T10:30:00.000Z"));
        QVERIFY(bus.contains(QVariantList{QVariant::fromValue(EventBus::Entity::Task), t.id,
                                          QVariant::fromValue(EventBus::Change::Reminder)}));
        const Event e = outbox().last();
        QCOMPARE(e.name, QString("task.reminder"));
        QCOMPARE(e.data.value("taskId").toString(), t.id);
        QCOMPARE(e.data.value("before").toInt(), 30);

        m_clock.set(utc(2026, 3, 2, 10, 45));
        QCOMPARE(scheduler.checkNow(), 0);
        QCOMPARE(countEvents("task.reminder"), 1);

        // Past the due time, unfinished: overdue, once.
        m_clock.set(utc(2026, 3, 2, 11, 0, 1));
        QCOMPARE(scheduler.checkNow(), 1);
        QCOMPARE(fired.last()[0].toString(), QString("task.overdue"));
        QCOMPARE(scheduler.checkNow(), 0);
        QCOMPARE(countEvents("task.overdue"), 1);
        QVERIFY(!scheduler.nextDue().isValid());
    }

    void finishedTasksNeitherRemindNorGoOverdue()
    {
        TaskScheduler scheduler(Store(m_bus, m_clock), QTimeZone::utc());
        const Task t = repo().create(
            TaskRules::parse({{"title", "x"}, {"dueDate", "2026-03-02T11:00:00Z"}, {"reminder", QJsonObject{}}}));
        repo().setStatus(t.id, "completed");
        m_clock.set(utc(2026, 3, 3));
        QCOMPARE(scheduler.checkNow(), 0);
    }

    void aSnoozedReminderFiresAgainOnceAtItsTime()
    {
        TaskScheduler scheduler(Store(m_bus, m_clock), QTimeZone::utc());
        m_clock.set(utc(2026, 3, 2, 9, 0));
        const Task t = repo().create(TaskRules::parse({{"title", "Ayşe Hanım'ı ara"},
                                                       {"dueDate", "2026-03-02T11:00:00Z"},
                                                       {"reminder", QJsonObject{{"before", 30}}}}));
        m_clock.set(utc(2026, 3, 2, 10, 30));
        QCOMPARE(scheduler.checkNow(), 1);
        // Snoozed for ten minutes: nothing until then, then once.
        repo().snoozeReminder(t.id, utc(2026, 3, 2, 10, 40));
        QCOMPARE(scheduler.nextDue(), utc(2026, 3, 2, 10, 40));
        m_clock.set(utc(2026, 3, 2, 10, 39));
        QCOMPARE(scheduler.checkNow(), 0);
        m_clock.set(utc(2026, 3, 2, 10, 40));
        QCOMPARE(scheduler.checkNow(), 1);
        QCOMPARE(countEvents("task.reminder"), 2);
        QCOMPARE(repo().get(t.id).reminder.sentAt, QString("2026-03-02T10:40:00.000Z"));
        QCOMPARE(scheduler.checkNow(), 0);
        // Refusals: a time already past, a finished task, an unknown one; nothing changes.
        QVERIFY_THROWS_EXCEPTION(DomainError, repo().snoozeReminder(t.id, utc(2026, 3, 2, 10, 0)));
        repo().setStatus(t.id, "completed");
        try {
            repo().snoozeReminder(t.id, utc(2026, 3, 3, 9, 0));
            QFAIL("a finished task was snoozed");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Conflict);
        }
        QVERIFY_THROWS_EXCEPTION(DomainError, repo().snoozeReminder("task_nope", utc(2026, 3, 3, 9, 0)));
        m_clock.set(utc(2026, 3, 4));
        QCOMPARE(scheduler.checkNow(), 0);
        QCOMPARE(countEvents("task.reminder"), 2);
    }

    void reschedulingRemindsAgain()
    {
        TaskScheduler scheduler(Store(m_bus, m_clock), QTimeZone::utc());
        const Task t = repo().create(TaskRules::parse(
            {{"title", "x"}, {"dueDate", "2026-03-02T10:10:00Z"}, {"reminder", QJsonObject{{"before", 15}}}}));
        QCOMPARE(scheduler.checkNow(), 1); // 09:55 has passed
        repo().update(t.id, TaskRules::parse({{"dueDate", "2026-03-03T10:10:00Z"}}));
        QVERIFY(repo().get(t.id).reminder.sentAt.isEmpty());
        m_clock.set(utc(2026, 3, 3, 9, 55));
        QCOMPARE(scheduler.checkNow(), 1);
        QCOMPARE(countEvents("task.reminder"), 2);
    }

    void allDayTaskGoesOverdueWhenItsDayEndsInTheZone()
    {
        const QTimeZone istanbul("Europe/Istanbul"); // UTC+3
        TaskScheduler scheduler(Store(m_bus, m_clock), istanbul);
        repo(istanbul).create(TaskRules::parse({{"title", "x"}, {"dueDate", "2026-03-02"}}));
        QCOMPARE(scheduler.nextDue(), utc(2026, 3, 2, 21, 0)); // midnight in Istanbul
        m_clock.set(utc(2026, 3, 2, 20, 59));
        QCOMPARE(scheduler.checkNow(), 0);
        m_clock.set(utc(2026, 3, 2, 21, 0));
        QCOMPARE(scheduler.checkNow(), 1);
    }

    void restartCatchUpFiresOnceOnly()
    {
        // Written while no scheduler ran (the app was closed over the reminder time).
        repo().create(TaskRules::parse(
            {{"title", "r"}, {"dueDate", "2026-03-02T12:00:00Z"}, {"reminder", QJsonObject{{"before", 60}}}}));
        m_clock.set(utc(2026, 3, 2, 11, 30));
        {
            TaskScheduler first(Store(m_bus, m_clock), QTimeZone::utc());
            QSignalSpy fired(&first, &TaskScheduler::fired);
            first.start();
            QCOMPARE(fired.size(), 1);
        }
        // A second scheduler on the same database (a restart, or another copy): nothing again.
        TaskScheduler second(Store(m_bus, m_clock), QTimeZone::utc());
        QSignalSpy fired(&second, &TaskScheduler::fired);
        second.start();
        QCOMPARE(fired.size(), 0);
        QCOMPARE(countEvents("task.reminder"), 1);
    }

    void busChangeWakesTheScheduler()
    {
        TaskScheduler scheduler(Store(m_bus, m_clock), QTimeZone::utc());
        scheduler.start();
        QCOMPARE(scheduler.timerIntervalMs(), TaskScheduler::maxSleepMs());
        repo().create(TaskRules::parse(
            {{"title", "x"}, {"dueDate", "2026-03-02T10:00:20Z"}, {"reminder", QJsonObject{{"before", 0}}}}));
        // The bus signal restarts the timer at 0; let it run once.
        QTRY_VERIFY_WITH_TIMEOUT(scheduler.timerIntervalMs() > 0 && scheduler.timerIntervalMs() <= 20001, 2000);
    }

    void dealTasksForTheDealDetail() { QCOMPARE(repo().tasksOfDeal("deal_x").size(), 0); }

    // Lists are cut in SQL on an index in list order (migration 6): the page query walks an index
    // (no sort of every match, no scan of the table) and the count reads an index. Only the
    // open-first lists (today, a contact's tasks: a day's or a contact's few tasks) sort.
    void listsAreServedByAnIndex_data()
    {
        QTest::addColumn<TaskQuery>("query");
        QTest::addColumn<bool>("sorts");
        const QDateTime at = utc(2026, 3, 2, 10, 0);
        auto row = [](const char *name) -> QTestData & { return QTest::newRow(name); };
        TaskQuery q;
        row("all") << q << false;
        q.page = 200;
        row("page 200 of all") << q << false;
        q = {};
        q.overdueOnly = true;
        row("overdue") << q << false;
        q = {};
        q.statuses = {"pending"};
        q.priorities = {"urgent"};
        q.dueAfter = at;
        row("status, priority, dueAfter") << q << false;
        q = {};
        q.assignedTo = "user_x";
        row("assignedTo") << q << false;
        q = {};
        q.dealId = "deal_x";
        row("dealId") << q << false;
        q = {};
        q.contactId = "contact_x";
        row("contactId") << q << false;
        q = {};
        q.dueBefore = at;
        row("dueBefore") << q << false;
        q = {};
        q.dueOn = at.date();
        row("dueOn") << q << false;
        q = {};
        q.openOnly = true;
        q.dueAfter = at;
        row("upcoming (open, dueAfter)") << q << false;
        q = {};
        q.dueOn = at.date();
        q.excludeCancelled = true;
        q.openFirst = true;
        row("today (open first)") << q << true;
    }

    void listsAreServedByAnIndex()
    {
        QFETCH(TaskQuery, query);
        QFETCH(bool, sorts);
        if (Database::dialect() == Database::Dialect::PostgreSQL) {
            // PostgreSQL plans by cost, and a test's few rows read fastest without an index. With
            // table scans and sorts priced out, a plan still holds one only when no index serves the list.
            Database::exec(QStringLiteral("SET enable_seqscan = off"));
            Database::exec(QStringLiteral("SET enable_sort = off"));
            const QStringList plan = repo().queryPlan(query);
            Database::exec(QStringLiteral("RESET enable_seqscan"));
            Database::exec(QStringLiteral("RESET enable_sort"));
            const QString text = plan.join(QLatin1Char('\n'));
            QVERIFY2(!text.contains(QLatin1String("Seq Scan")), qPrintable(text));
            static const QRegularExpression sortNode(QStringLiteral("^\\w+: (\\s*->\\s*)?(Incremental )?Sort\\b"),
                                                     QRegularExpression::MultilineOption);
            QCOMPARE(text.contains(sortNode), sorts);
            return;
        }
        const QStringList plan = repo().queryPlan(query);
        const QString text = plan.join(QLatin1Char('\n'));
        for (const QString &line : plan) {
            // "SCAN t" alone reads the table; "SCAN t USING [COVERING] INDEX" walks an index in order.
            QVERIFY2(!line.endsWith(QLatin1String("SCAN t")), qPrintable(text));
            if (line.startsWith(QLatin1String("page:")) || line.startsWith(QLatin1String("count:")))
                QVERIFY2(line.contains(QLatin1String("INDEX")) || line.contains(QLatin1String("TEMP B-TREE")),
                         qPrintable(text));
        }
        QCOMPARE(text.contains(QLatin1String("TEMP B-TREE")), sorts);
    }

    // Every list, against the reading of the stored columns that the lists have always had: all-day
    // tasks compare their day, timed tasks their instant; order by due instant, undated last, then
    // seq (open ones first for today). Tasks written in one time zone are read in another too: an
    // all-day task's stored instant is the start of its day where it was written.
    void listsKeepTheirOrderAndFilters()
    {
        const QTimeZone kiritimati("Pacific/Kiritimati"); // UTC+14
        const QTimeZone pagoPago("Pacific/Pago_Pago");    // UTC-11
        m_clock.set(utc(2026, 3, 2, 10, 30));
        QRandomGenerator rng(7);
        const QStringList statuses{"pending", "in_progress", "completed", "cancelled"};
        QVector<QJsonObject> bodies;
        for (int i = 0; i < 400; ++i) {
            QJsonObject b{{"title", QStringLiteral("t%1").arg(i)},
                          {"status", statuses.at(int(rng.bounded(4)))},
                          {"priority", i % 2 ? "urgent" : "low"}};
            const QDate day = QDate(2026, 3, 2).addDays(int(rng.bounded(9)) - 4);
            if (i % 9 == 0) {
                // undated
            } else if (i % 3 == 0) {
                b.insert("dueDate", day.toString(Qt::ISODate));
            } else {
                // Often on the same instant, so that seq decides.
                const int secs = i % 4 == 0 ? 36000 : int(rng.bounded(86400));
                b.insert("dueDate", TimeUtil::iso(day.startOfDay(QTimeZone::utc()).addSecs(secs)));
            }
            bodies << b;
        }
        repo(kiritimati).insertBulk(bodies.mid(0, 200));
        repo(pagoPago).insertBulk(bodies.mid(200));

        struct Row
        {
            qint64 seq;
            QString id, status, dueDate, dueAt, priority;
            bool allDay;
        };
        QVector<Row> rows;
        QSqlQuery q = Database::exec("SELECT seq, id, status, due_date, due_at, due_all_day, priority FROM tasks");
        while (q.next())
            rows.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
                         q.value(4).toString(), q.value(6).toString(), q.value(5).toInt() == 1});
        QCOMPARE(rows.size(), 400);
        auto key = [](const Row &r) { return r.dueAt.isEmpty() ? QStringLiteral("~") : r.dueAt; };
        auto open = [](const Row &r) { return r.status == "pending" || r.status == "in_progress"; };
        auto firstDay = [](const QDateTime &instant, const QTimeZone &tz) {
            const QDate d = instant.toTimeZone(tz).date();
            return d.startOfDay(tz) >= instant ? d : d.addDays(1);
        };

        int compared = 0;
        for (const QTimeZone &tz : {kiritimati, pagoPago, QTimeZone::utc()}) {
            TaskRepository r = repo(tz);
            const QDate today = r.today();
            const QString now = TimeUtil::iso(m_clock.now());
            auto check = [&](const TaskQuery &query, const std::function<bool(const Row &)> &want) {
                QVector<Row> expected;
                for (const Row &row : std::as_const(rows)) {
                    if (want(row))
                        expected << row;
                }
                std::sort(expected.begin(), expected.end(), [&](const Row &a, const Row &b) {
                    if (query.openFirst && open(a) != open(b))
                        return open(a);
                    return key(a) != key(b) ? key(a) < key(b) : a.seq < b.seq;
                });
                QStringList expectedIds;
                for (const Row &row : std::as_const(expected))
                    expectedIds << row.id;
                const int limit = qBound(1, query.limit, 5000);
                const QStringList page = expectedIds.mid((qMax(1, query.page) - 1) * limit, limit);
                QStringList got;
                const TaskPage result = r.list(query);
                for (const Task &t : result.items)
                    got << t.id;
                QCOMPARE(got, page);
                QCOMPARE(result.total, qint64(expected.size()));
                ++compared;
            };
            for (int page = 1; page <= 5; ++page) {
                TaskQuery all;
                all.page = page;
                all.limit = 90;
                check(all, [](const Row &) { return true; });
                TaskQuery overdue;
                overdue.overdueOnly = true;
                overdue.page = page;
                overdue.limit = 20;
                check(overdue, [&](const Row &row) {
                    return open(row) && !row.dueDate.isEmpty() &&
                           (row.allDay ? row.dueDate < today.toString(Qt::ISODate) : row.dueAt < now);
                });
            }
            for (int offset = -5; offset <= 5; ++offset) {
                const QDate day = today.addDays(offset);
                const QString d = day.toString(Qt::ISODate);
                const QString from = TimeUtil::iso(day.startOfDay(tz));
                const QString to = TimeUtil::iso(day.addDays(1).startOfDay(tz));
                auto dueOn = [=](const Row &row) {
                    return !row.dueDate.isEmpty() &&
                           (row.allDay ? row.dueDate == d : row.dueAt >= from && row.dueAt < to);
                };
                TaskQuery on;
                on.dueOn = day;
                on.limit = 500;
                check(on, dueOn);
                on.excludeCancelled = true;
                on.openFirst = true;
                check(on, [&](const Row &row) { return dueOn(row) && row.status != "cancelled"; });

                for (const int hour : {0, 7, 13, 23}) {
                    const QDateTime instant = day.startOfDay(tz).addSecs(hour * 3600 + 1800);
                    const QString at = TimeUtil::iso(instant);
                    const QString atDay = firstDay(instant, tz).toString(Qt::ISODate);
                    auto after = [=](const Row &row) {
                        return !row.dueDate.isEmpty() && (row.allDay ? row.dueDate >= atDay : row.dueAt >= at);
                    };
                    auto before = [=](const Row &row) {
                        return !row.dueDate.isEmpty() && (row.allDay ? row.dueDate < atDay : row.dueAt < at);
                    };
                    TaskQuery a;
                    a.dueAfter = instant;
                    a.limit = 25;
                    check(a, after);
                    a.statuses = {"pending"};
                    a.priorities = {"urgent"};
                    check(a, [&](const Row &row) {
                        return after(row) && row.status == "pending" && row.priority == "urgent";
                    });
                    TaskQuery upcoming;
                    upcoming.dueAfter = instant;
                    upcoming.openOnly = true;
                    upcoming.page = 2;
                    upcoming.limit = 10;
                    check(upcoming, [&](const Row &row) { return after(row) && open(row); });
                    TaskQuery b;
                    b.dueBefore = instant;
                    b.limit = 500;
                    check(b, before);
                    b.dueAfter = instant.addDays(-2);
                    check(b, [&](const Row &row) {
                        return before(row) && !row.dueDate.isEmpty() &&
                               (row.allDay ? row.dueDate >= firstDay(instant.addDays(-2), tz).toString(Qt::ISODate)
                                           : row.dueAt >= TimeUtil::iso(instant.addDays(-2)));
                    });
                }
            }
        }
        QVERIFY(compared > 500);
    }
};

QTEST_GUILESS_MAIN(TestTaskRepository)
#include "test_taskrepository.moc"
