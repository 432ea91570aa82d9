#pragma once

#include "model/core/store.h"

#include "model/core/timeutil.h"

#include <QDateTime>
#include <QObject>
#include <QTimeZone>
#include <QTimer>

#include <functional>

// Fires task.reminder (at dueDate - reminder.before, once: it sets reminder.sentAt) and task.overdue
// (once, when an open task passes its due time; an all-day task when its day has ended in the tasks
// time zone). Each firing is claimed with a conditional UPDATE and written to the outbox in one
// transaction, so two schedulers on one database (or a restart) never fire twice, and whatever came
// due while the app was closed fires once at start(). After the commit it tells the event bus
// ("task", id, "reminder" / "overdue"); the desktop window shows a tray notification for reminders.
// Lives in the delivery thread; QTimer-driven: it sleeps until the next reminder or due time (at
// most a minute, so that a changed clock or a task written by another process is noticed), and
// wakes early when the bus reports a task change.
class TaskScheduler : public QObject
{
    Q_OBJECT
public:
    explicit TaskScheduler(const Store &store, const QTimeZone &timeZone = QTimeZone::systemTimeZone(),
                           QObject *parent = nullptr);

    // Realigns all-day tasks with the time zone (TaskRepository::retimeAllDayTasks), catches up
    // (fires what is due) and arms the timer.
    void start();
    // Fires everything due now and re-arms the timer; returns the number of events written.
    int checkNow();
    // The next instant something may fall due (invalid when nothing is scheduled); the timer waits
    // until then, capped at maxSleepMs().
    QDateTime nextDue() const;
    int timerIntervalMs() const { return m_timer.isActive() ? m_timer.interval() : -1; }
    static constexpr int maxSleepMs() { return 60 * 1000; }
    // For DeliveryThread::addService: creates the scheduler in the delivery thread and starts it
    // once that thread's event loop runs.
    static std::function<QObject *(QObject *)> factory(const Store &store, const QTimeZone &timeZone);

signals:
    // After the commit, for each event written: "task.reminder" or "task.overdue".
    void fired(const QString &event, const QString &taskId);

public:
    struct DueKind; // a reminder or an overdue notice (taskscheduler.cpp)

private:
    // Claims and fires the due events of one kind; returns how many tasks were claimed.
    int fire(const DueKind &kind, const QDateTime &now);
    void arm();

    Store m_store;
    QTimeZone m_tz;
    QTimer m_timer;
};
