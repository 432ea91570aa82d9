#pragma once

#include "model/core/store.h"
#include "model/core/timeutil.h"
#include "model/tasks/task.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QTimeZone>

#include <optional>

struct TaskQuery
{
    int page = 1; // 1-based
    int limit = 20;
    QStringList statuses; // any of them (already normalized: todo -> pending, done -> completed)
    QString assignedTo;
    QStringList priorities;
    QStringList types;
    std::optional<QDate> dueOn;         // due that day (in the tasks time zone)
    std::optional<QDateTime> dueAfter;  // due at or after this instant (an all-day task: its day's start)
    std::optional<QDateTime> dueBefore; // due before this instant
    QString contactId;
    QString dealId;
    bool overdueOnly = false; // open and past due (see TaskRepository::isOverdue)
    bool openOnly = false;    // pending or in_progress
    bool excludeCancelled = false;
    bool hasDueDate = false;
    bool openFirst = false; // order open tasks before finished ones (then by due time)
    QStringList excludeIds; // left out (the window's deletes that can still be undone)
    QString search;         // every word begins a word of the title (SqlDialect::wordsBeginFolded)
};

struct TaskPage
{
    QVector<Task> items;
    qint64 total = 0;
};

// What a status change did: the task after it, and the next occurrence a completed recurring task created.
struct TaskStatusResult
{
    Task task;
    std::optional<Task> next;
    bool changed = false;
};

// Stores tasks and their notes. Every write is one transaction with its outbox events
// (task.created, task.updated, task.completed) and tells the event bus ("task", id, change) after
// the commit. "Today" and "overdue" are computed in the tasks time zone (setting tasks/timeZone).
// Bad input throws DomainError: BadRequest wrong type or format, Unprocessable missing title or an unknown
// assignedTo/contactId/dealId (the field is named in details), NotFound unknown task, Conflict a status move
// the transition table refuses. Usable from any thread.
// A task as a deal's detail lists it.
struct TaskSummary
{
    QString id;
    QString title;
    QString dueDate; // YYYY-MM-DD; empty when the task has no date
    QString status;
};

// What a task's assignee, contact and deal are called, for answers and lists.
struct TaskLinks
{
    struct User
    {
        QString id;
        QString name;
        QString email;
    };
    struct Contact
    {
        QString id;
        QString firstName;
        QString lastName;
        QString email;
        std::optional<QString> phone;
        // "First Last", or the e-mail when both names are empty.
        QString displayName() const;
    };
    struct Deal
    {
        QString id;
        QString name;
        double value = 0;
    };
    std::optional<User> assignee;
    std::optional<Contact> contact;
    std::optional<Deal> deal;
};

class TaskRepository
{
public:
    explicit TaskRepository(const Store &store, const QTimeZone &timeZone = QTimeZone::systemTimeZone());
    // The store it reads and writes (for the related repositories of a view built with this one).
    const Store &store() const { return m_store; }

    const QTimeZone &timeZone() const { return m_tz; }
    QDateTime now() const { return m_store.now(); }
    // Today's date in the tasks time zone.
    QDate today() const;

    // actor: the user or API key id making the change (createdBy, completedBy, note authors).
    // A user creating a task without assignedTo gets it assigned (assignToActor). The changes are
    // checked (TaskRules::check) whoever filled them in; a request body is read into them with
    // TaskRules::parse.
    Task create(TaskChanges changes, const QString &actor = {}, bool assignToActor = false);
    // Partial update; a status in the changes moves through the transition table like setStatus().
    TaskStatusResult update(const QString &id, TaskChanges changes, const QString &actor = {});
    void remove(const QString &id, const QString &actor = {});
    std::optional<Task> find(const QString &id) const;
    // The reminder of an open task fires again at `until` (its snooze): task.reminder is written
    // again then, once, as the first time. Throws NotFound; Conflict when the task is done or
    // cancelled (nothing to remind of); BadRequest when `until` is not in the future. An edit of the
    // task's due date or reminder afterwards sets its reminder anew.
    void snoozeReminder(const QString &id, const QDateTime &until);
    Task get(const QString &id) const; // throws NotFound

    // PATCH /tasks/:id/status: the note (optional) is added to the task's notes in the same transaction.
    TaskStatusResult setStatus(const QString &id, const QString &status, const QString &note = {},
                               const QString &actor = {});
    // An empty userId unassigns.
    Task assign(const QString &id, const QString &userId, const QString &actor = {});
    TaskNote addNote(const QString &id, const QString &content, const QString &actor = {});
    QVector<TaskNote> notes(const QString &id) const; // oldest first

    // By due time, undated last, then by creation (open ones first with openFirst); the page is cut
    // in SQL on an index in that order.
    TaskPage list(const TaskQuery &query) const;
    // Every task the query finds (page and limit ignored), in the list's order, as CSV: a byte order
    // mark, CRLF, the columns id, title, type, priority, status, dueDate, assignedTo, contactId,
    // dealId, description, completedAt, createdAt, updatedAt.
    QByteArray exportCsv(const TaskQuery &query) const;
    qint64 count(const TaskQuery &query) const;
    // The plan (Database::queryPlan) of what list(query) runs, one line per step ("page: ...", "count: ..."):
    // which index serves it (benchmarks and tests).
    QStringList queryPlan(const TaskQuery &query) const;
    // Not cancelled, due today (tz); open ones first, then by due time.
    TaskPage dueToday(int page = 1, int limit = 100) const;
    // Open and past due: a timed task after its time, an all-day task from the next day on.
    TaskPage overdue(int page = 1, int limit = 100) const;
    bool isOverdue(const Task &t) const;
    // How many open tasks of this user are past due (the window's navigation shows it on Tasks):
    // one count on the open-tasks index, as overdue() lists them.
    qint64 overdueCount(const QString &assignedTo) const;

    // A deal's tasks (at most 500), by due date: what the deal detail lists.
    QVector<TaskSummary> tasksOfDeal(const QString &dealId) const;

    // The records a task points at, looked up now: each empty when unset or gone.
    TaskLinks links(const Task &t) const;

    // Realigns every all-day task's stored instants (due_at, and remind_at / overdue_at while their
    // event is still to fire) with this repository's time zone: they were computed in the zone of
    // the writer, and tasks/timeZone may have changed since. One transaction, no outbox events
    // (nothing the user changed); tells the bus ("task", "", "updated") when rows changed. Returns
    // the number of tasks realigned. TaskScheduler::start() runs it.
    int retimeAllDayTasks();

    // Inserts many tasks in one transaction without events (seeding, benchmarks).
    int insertBulk(const QVector<QJsonObject> &bodies);

private:
    TaskStatusResult applyStatus(Task &t, const Task &before, const QString &status, const QString &actor,
                                 QJsonArray &changed);
    void checkReferences(const Task &t, const Task *before) const;
    void insertRow(Task &t);
    void writeRow(const Task &t);
    QVariantList rowValues(const Task &t) const;
    void insertNote(const Task &t, const QString &content, const QString &actor, const QString &at);
    // The named actor, else the store's acting user (the window's signed-in user).
    QString actorOr(const QString &actor) const { return m_store.actorOr(actor); }

    Store m_store;
    QTimeZone m_tz;
};
