#pragma once

#include <QDate>
#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTimeZone>
#include <QVector>

#include <optional>

// reminder: { enabled, before (minutes before the due time), sentAt }. For a task due on a date
// (no time) the due time is the start of that day in the tasks time zone.
struct TaskReminder
{
    bool enabled = false;
    int before = 15; // minutes
    QString sentAt;  // ISO UTC; empty until task.reminder fired
};

// recurrence: { frequency, interval, daysOfWeek, endDate }. Empty frequency: not recurring.
struct TaskRecurrence
{
    QString frequency;      // daily, weekly, monthly, yearly
    int interval = 1;       // >= 1
    QStringList daysOfWeek; // weekly only: monday … sunday
    QString endDate;        // YYYY-MM-DD or empty; no occurrence falls after it

    bool isActive() const { return !frequency.isEmpty(); }
    QJsonObject toJson() const;
};

struct Task
{
    qint64 seq = 0;
    QString id;
    QString title;
    QString description;
    QString type = QStringLiteral("task");
    QString status = QStringLiteral("pending");
    QString priority = QStringLiteral("medium");
    // "YYYY-MM-DD" (a whole day) or an ISO UTC date-time; empty: no due date.
    QString dueDate;
    QString assignedTo;
    QString contactId;
    QString dealId;
    TaskReminder reminder;
    TaskRecurrence recurrence;
    QString seriesStart; // YYYY-MM-DD: first due date of a recurring series (monthly/yearly day anchor)
    QString previousTaskId;
    QString nextTaskId;
    QString completedAt;
    QString completedBy;
    QString overdueNotifiedAt;
    QString createdBy;
    QString createdAt;
    QString updatedAt;

    bool isAllDay() const { return dueDate.size() == 10; }
    bool isOpen() const;
    // The due instant (UTC): the date-time, or the start of the due day in tz; invalid without a due date.
    QDateTime dueInstant(const QTimeZone &tz) const;
    // The due day in tz; invalid without a due date.
    QDate dueDay(const QTimeZone &tz) const;
    // When task.reminder fires (UTC); invalid when there is no reminder or no due date.
    QDateTime remindAt(const QTimeZone &tz) const;
    // Plain fields; assignedTo, contact and deal as ids (the API layer adds the objects).
    QJsonObject toJson() const;
};

struct TaskNote
{
    QString id;
    QString taskId;
    QString content;
    QString createdBy;
    QString createdAt;

    QJsonObject toJson() const;
};

// The fields of a create or update body, already checked for types and formats. Absent: nullopt;
// null or "" clears (where clearing makes sense).
struct TaskChanges
{
    std::optional<QString> title, description, type, status, priority, dueDate, assignedTo, contactId, dealId;
    std::optional<bool> reminderEnabled;
    std::optional<int> reminderBefore;
    bool reminderCleared = false;
    std::optional<TaskRecurrence> recurrence; // an inactive one clears it
};

namespace TaskRules {
extern const QStringList Types;      // task, call, meeting, email, followup
extern const QStringList Priorities; // low, medium, high, urgent
extern const QStringList Statuses;   // pending, in_progress, completed, cancelled
extern const QStringList Days;       // monday … sunday (index 0 = Monday = Qt day 1)

// Reads a body. Throws DomainError BadRequest (VALIDATION_ERROR) naming every field of the
// wrong type or format (enums, dates, reminder, recurrence), and Unprocessable when a
// recurrence object lacks its frequency.
TaskChanges parse(const QJsonObject &body);
// The same checks of values filled in by code (the window's task form): lengths, the enums, the due
// date (a date-time is rewritten in UTC), the reminder, the recurrence (days put in week order);
// throws as parse() does. The repository runs it on every create and update.
void check(TaskChanges &changes);
// Unprocessable unless the task has a title.
void checkRequired(const Task &t);
// Applies changes except status (status moves go through the transition table).
void apply(Task &t, const TaskChanges &changes);

// The list-filter variants: todo -> pending, done -> completed; other names unchanged.
QString normalizeStatusFilter(const QString &status);
// The transition table (README): pending <-> in_progress, pending|in_progress -> completed|cancelled,
// completed|cancelled -> pending (reopen). Staying in the same status is allowed (no change).
bool canTransition(const QString &from, const QString &to);
// Throws DomainError Conflict (INVALID_TRANSITION) naming both states.
void checkTransition(const QString &from, const QString &to);
// "mon", "Monday", "MONDAY" -> "monday"; empty when not a day name.
QString dayName(const QString &text);
} // namespace TaskRules

// Recurrence date arithmetic, pure functions.
namespace Recurrence {
// The occurrence after `current` of a series that started on `seriesStart`:
//   daily   current + interval days;
//   weekly  the next listed weekday (daysOfWeek; none: the same weekday) in a week that is a
//           multiple of interval weeks from the series' first week;
//   monthly interval months on, on the series' day of month, or the month's last day when it is shorter;
//   yearly  interval years on, on the series' month and day (29 February -> 28 February in common years).
// nullopt when that falls after endDate.
std::optional<QDate> next(const QDate &current, const QDate &seriesStart, const TaskRecurrence &r);
// next() repeated until the result is on or after notBefore (missed occurrences are skipped).
std::optional<QDate> nextOnOrAfter(const QDate &current, const QDate &seriesStart, const TaskRecurrence &r,
                                   const QDate &notBefore);
} // namespace Recurrence
