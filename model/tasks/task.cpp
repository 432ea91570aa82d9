#include "model/tasks/task.h"

#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/core/jsonwriter.h"
#include "model/core/timeutil.h"

#include <QJsonArray>

#include <climits>
#include <cmath>

const QStringList TaskRules::Types = {QStringLiteral("task"), QStringLiteral("call"), QStringLiteral("meeting"),
                                      QStringLiteral("email"), QStringLiteral("followup")};
const QStringList TaskRules::Priorities = {QStringLiteral("low"), QStringLiteral("medium"), QStringLiteral("high"),
                                           QStringLiteral("urgent")};
const QStringList TaskRules::Statuses = {QStringLiteral("pending"), QStringLiteral("in_progress"),
                                         QStringLiteral("completed"), QStringLiteral("cancelled")};
const QStringList TaskRules::Days = {QStringLiteral("monday"),   QStringLiteral("tuesday"), QStringLiteral("wednesday"),
                                     QStringLiteral("thursday"), QStringLiteral("friday"),  QStringLiteral("saturday"),
                                     QStringLiteral("sunday")};

namespace {
using Json::nullable;
const QStringList kFrequencies = {QStringLiteral("daily"), QStringLiteral("weekly"), QStringLiteral("monthly"),
                                  QStringLiteral("yearly")};

// A whole number within [min, max] given as a JSON number.
std::optional<int> wholeNumber(const QJsonValue &v, int min, int max)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (d < min || d > max || d != std::floor(d))
        return std::nullopt;
    return int(d);
}

void readReminder(FieldReader &r, const QJsonValue &v, TaskChanges &c)
{
    if (v.isNull()) {
        c.reminderCleared = true;
        c.reminderEnabled = false;
        return;
    }
    if (!v.isObject()) {
        r.fail(QStringLiteral("reminder"),
               ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an object with enabled and before (minutes)")));
        return;
    }
    const QJsonObject o = v.toObject();
    if (o.contains(QLatin1String("enabled"))) {
        if (!o.value(QLatin1String("enabled")).isBool())
            r.fail(QStringLiteral("reminder.enabled"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be true or false")));
        else
            c.reminderEnabled = o.value(QLatin1String("enabled")).toBool();
    } else {
        // Sending a reminder object without "enabled" means wanting a reminder.
        c.reminderEnabled = true;
    }
    if (o.contains(QLatin1String("before"))) {
        const std::optional<int> before = wholeNumber(o.value(QLatin1String("before")), 0, 525600);
        if (!before)
            r.fail(QStringLiteral("reminder.before"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError",
                                               "must be a whole number of minutes from 0 to 525600 (one year)")));
        else
            c.reminderBefore = *before;
    }
}

// --- The rules of a recurrence's parts, run by the body reader and by the check alike ---

const ModelText kDaysRule(QT_TRANSLATE_NOOP("ModelError", "must be an array of day names (monday … sunday)"));
const ModelText kEndDateRule(QT_TRANSLATE_NOOP("ModelError", "must be a date (YYYY-MM-DD)"));

bool frequencyRule(FieldReader &r, const QString &frequency)
{
    if (kFrequencies.contains(frequency))
        return true;
    r.fail(QStringLiteral("recurrence.frequency"), FieldReader::oneOf(kFrequencies));
    return false;
}

// nullopt: not a whole number.
bool intervalRule(FieldReader &r, std::optional<int> interval)
{
    if (interval && *interval >= 1 && *interval <= 1000)
        return true;
    r.fail(QStringLiteral("recurrence.interval"),
           ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a whole number from 1 to 1000")));
    return false;
}

// Day names in any case and order become the week's order (*days); they apply to a weekly
// recurrence only (frequency: a known frequency, or empty when it is not).
bool daysRule(FieldReader &r, const QStringList &given, const QString &frequency, QStringList *days)
{
    QStringList names;
    for (const QString &day : given) {
        const QString name = TaskRules::dayName(day);
        if (name.isEmpty()) {
            r.fail(QStringLiteral("recurrence.daysOfWeek"), kDaysRule);
            return false;
        }
        names << name;
    }
    if (!names.isEmpty() && !frequency.isEmpty() && frequency != QLatin1String("weekly")) {
        r.fail(QStringLiteral("recurrence.daysOfWeek"),
               ModelText(QT_TRANSLATE_NOOP("ModelError", "applies only to weekly recurrence")));
        return false;
    }
    days->clear();
    for (const QString &day : TaskRules::Days) {
        if (names.contains(day))
            *days << day;
    }
    return true;
}

bool endDateRule(FieldReader &r, const QString &endDate)
{
    if (TimeUtil::isDate(endDate))
        return true;
    r.fail(QStringLiteral("recurrence.endDate"), kEndDateRule);
    return false;
}

void readRecurrence(FieldReader &r, const QJsonValue &v, TaskChanges &c)
{
    if (v.isNull()) {
        c.recurrence = TaskRecurrence{QString(), 1, {}, {}};
        return;
    }
    if (!v.isObject()) {
        r.fail(QStringLiteral("recurrence"),
               ModelText(
                   QT_TRANSLATE_NOOP("ModelError", "must be an object with frequency, interval, daysOfWeek, endDate")));
        return;
    }
    const QJsonObject o = v.toObject();
    TaskRecurrence rec;
    bool ok = true;
    const QJsonValue freq = o.value(QLatin1String("frequency"));
    if (freq.isUndefined() || freq.isNull() || (freq.isString() && freq.toString().trimmed().isEmpty())) {
        r.missing(QStringLiteral("recurrence.frequency"));
        ok = false;
    } else if (!freq.isString()) {
        r.fail(QStringLiteral("recurrence.frequency"), FieldReader::oneOf(kFrequencies));
        ok = false;
    } else if (!frequencyRule(r, freq.toString().trimmed())) {
        ok = false;
    } else {
        rec.frequency = freq.toString().trimmed();
    }
    if (o.contains(QLatin1String("interval")) && !o.value(QLatin1String("interval")).isNull()) {
        const std::optional<int> interval = wholeNumber(o.value(QLatin1String("interval")), INT_MIN, INT_MAX);
        if (intervalRule(r, interval))
            rec.interval = *interval;
        else
            ok = false;
    }
    const QJsonValue days = o.value(QLatin1String("daysOfWeek"));
    if (!days.isUndefined() && !days.isNull()) {
        QStringList given;
        for (const QJsonValue &d : days.toArray())
            given << (d.isString() ? d.toString() : QString()); // not a name: refused by the rule
        if (!days.isArray()) {
            r.fail(QStringLiteral("recurrence.daysOfWeek"), kDaysRule);
            ok = false;
        } else if (!daysRule(r, given, rec.frequency, &rec.daysOfWeek)) {
            ok = false;
        }
    }
    const QJsonValue end = o.value(QLatin1String("endDate"));
    if (!end.isUndefined() && !end.isNull()) {
        if (!end.isString()) {
            r.fail(QStringLiteral("recurrence.endDate"), kEndDateRule);
            ok = false;
        } else if (!endDateRule(r, end.toString().trimmed())) {
            ok = false;
        } else {
            rec.endDate = end.toString().trimmed();
        }
    }
    if (ok)
        c.recurrence = rec;
}
} // namespace

QJsonObject TaskRecurrence::toJson() const
{
    return QJsonObject{{QStringLiteral("frequency"), frequency},
                       {QStringLiteral("interval"), interval},
                       {QStringLiteral("daysOfWeek"), QJsonArray::fromStringList(daysOfWeek)},
                       {QStringLiteral("endDate"), nullable(endDate)}};
}

bool Task::isOpen() const
{
    return status == QLatin1String("pending") || status == QLatin1String("in_progress");
}

QDateTime Task::dueInstant(const QTimeZone &tz) const
{
    if (dueDate.isEmpty())
        return {};
    if (isAllDay())
        return QDate::fromString(dueDate, Qt::ISODate).startOfDay(tz).toUTC();
    const auto t = TimeUtil::parse(dueDate);
    return t ? *t : QDateTime();
}

QDate Task::dueDay(const QTimeZone &tz) const
{
    if (dueDate.isEmpty())
        return {};
    if (isAllDay())
        return QDate::fromString(dueDate, Qt::ISODate);
    return dueInstant(tz).toTimeZone(tz).date();
}

QDateTime Task::remindAt(const QTimeZone &tz) const
{
    if (!reminder.enabled || dueDate.isEmpty())
        return {};
    return dueInstant(tz).addSecs(-qint64(reminder.before) * 60);
}

QJsonObject Task::toJson() const
{
    return QJsonObject{
        {QStringLiteral("id"), id},
        {QStringLiteral("title"), title},
        {QStringLiteral("description"), description},
        {QStringLiteral("type"), type},
        {QStringLiteral("status"), status},
        {QStringLiteral("priority"), priority},
        {QStringLiteral("dueDate"), nullable(dueDate)},
        {QStringLiteral("assignedTo"), nullable(assignedTo)},
        {QStringLiteral("contactId"), nullable(contactId)},
        {QStringLiteral("dealId"), nullable(dealId)},
        {QStringLiteral("reminder"), QJsonObject{{QStringLiteral("enabled"), reminder.enabled},
                                                 {QStringLiteral("before"), reminder.before},
                                                 {QStringLiteral("sentAt"), nullable(reminder.sentAt)}}},
        {QStringLiteral("recurrence"), recurrence.isActive() ? QJsonValue(recurrence.toJson()) : QJsonValue()},
        {QStringLiteral("previousTaskId"), nullable(previousTaskId)},
        {QStringLiteral("nextTaskId"), nullable(nextTaskId)},
        {QStringLiteral("completedAt"), nullable(completedAt)},
        {QStringLiteral("completedBy"), nullable(completedBy)},
        {QStringLiteral("createdBy"), nullable(createdBy)},
        {QStringLiteral("createdAt"), createdAt},
        {QStringLiteral("updatedAt"), updatedAt},
    };
}

QJsonObject TaskNote::toJson() const
{
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("taskId"), taskId},
                       {QStringLiteral("content"), content},
                       {QStringLiteral("createdBy"), nullable(createdBy)},
                       {QStringLiteral("createdAt"), createdAt}};
}

QString TaskRules::dayName(const QString &text)
{
    const QString t = text.trimmed().toLower();
    if (t.size() < 3)
        return {};
    for (const QString &day : Days) {
        if (day == t || day.left(3) == t)
            return day;
    }
    return {};
}

namespace {

// The rules of the values themselves, whoever filled them in (a request body, the window's form).
// Problems go into `r` (the first per field is kept).
void checkValues(TaskChanges &c, FieldReader &r)
{
    r.limit(c.title, QStringLiteral("title"), 500);
    r.limit(c.description, QStringLiteral("description"), 20000);
    r.limit(c.dueDate, QStringLiteral("dueDate"), 40);
    r.limit(c.assignedTo, QStringLiteral("assignedTo"), 100);
    r.limit(c.contactId, QStringLiteral("contactId"), 100);
    r.limit(c.dealId, QStringLiteral("dealId"), 100);
    r.among(c.type, QStringLiteral("type"), TaskRules::Types);
    r.among(c.priority, QStringLiteral("priority"), TaskRules::Priorities);
    r.among(c.status, QStringLiteral("status"), TaskRules::Statuses);
    if (c.status && c.status->isEmpty()) {
        r.fail(QStringLiteral("status"), FieldReader::oneOf(TaskRules::Statuses));
        c.status.reset();
    }
    if (c.dueDate && !c.dueDate->isEmpty() && !TimeUtil::isDate(*c.dueDate)) {
        if (const auto t = TimeUtil::parse(*c.dueDate)) {
            c.dueDate = TimeUtil::iso(*t);
        } else {
            r.fail(QStringLiteral("dueDate"),
                   ModelText(QT_TRANSLATE_NOOP(
                       "ModelError", "must be a date (YYYY-MM-DD) or an ISO 8601 date-time with Z or an offset")));
            c.dueDate.reset();
        }
    }
    if (c.reminderBefore && (*c.reminderBefore < 0 || *c.reminderBefore > 525600))
        r.fail(QStringLiteral("reminder.before"),
               ModelText(
                   QT_TRANSLATE_NOOP("ModelError", "must be a whole number of minutes from 0 to 525600 (one year)")));
    if (c.recurrence && c.recurrence->isActive()) {
        TaskRecurrence &rec = *c.recurrence;
        const bool known = frequencyRule(r, rec.frequency);
        intervalRule(r, rec.interval);
        daysRule(r, rec.daysOfWeek, known ? rec.frequency : QString(), &rec.daysOfWeek);
        if (!rec.endDate.isEmpty())
            endDateRule(r, rec.endDate.trimmed());
    }
}

} // namespace

TaskChanges TaskRules::parse(const QJsonObject &body)
{
    FieldReader r(body);
    TaskChanges c;
    c.title = r.string(QStringLiteral("title"), 500);
    c.description = r.string(QStringLiteral("description"), 20000);
    c.type = r.choice(QStringLiteral("type"), Types);
    c.priority = r.choice(QStringLiteral("priority"), Priorities);
    c.status = r.choice(QStringLiteral("status"), Statuses);
    if (c.status && c.status->isEmpty()) {
        r.fail(QStringLiteral("status"), FieldReader::oneOf(Statuses));
        c.status.reset();
    }
    c.dueDate = r.string(QStringLiteral("dueDate"), 40);
    if (c.dueDate && !c.dueDate->isEmpty()) {
        if (TimeUtil::isDate(*c.dueDate)) {
            // kept as the date
        } else if (const auto t = TimeUtil::parse(*c.dueDate)) {
            c.dueDate = TimeUtil::iso(*t);
        } else {
            r.fail(QStringLiteral("dueDate"),
                   ModelText(QT_TRANSLATE_NOOP(
                       "ModelError", "must be a date (YYYY-MM-DD) or an ISO 8601 date-time with Z or an offset")));
            c.dueDate.reset();
        }
    }
    c.assignedTo = r.string(QStringLiteral("assignedTo"), 100);
    c.contactId = r.string(QStringLiteral("contactId"), 100);
    c.dealId = r.string(QStringLiteral("dealId"), 100);
    if (body.contains(QLatin1String("reminder")))
        readReminder(r, body.value(QLatin1String("reminder")), c);
    if (body.contains(QLatin1String("recurrence")))
        readRecurrence(r, body.value(QLatin1String("recurrence")), c);

    checkValues(c, r);
    r.throwIfAny();
    return c;
}

void TaskRules::check(TaskChanges &changes)
{
    FieldReader r;
    checkValues(changes, r);
    r.throwIfAny();
}

void TaskRules::checkRequired(const Task &t)
{
    if (t.title.trimmed().isEmpty())
        throw DomainError::missingFields({{QStringLiteral("title"), DomainError::isRequired()}});
}

void TaskRules::apply(Task &t, const TaskChanges &c)
{
    if (c.title)
        t.title = *c.title;
    if (c.description)
        t.description = *c.description;
    if (c.type)
        t.type = c.type->isEmpty() ? QStringLiteral("task") : *c.type;
    if (c.priority)
        t.priority = c.priority->isEmpty() ? QStringLiteral("medium") : *c.priority;
    if (c.dueDate)
        t.dueDate = *c.dueDate;
    if (c.assignedTo)
        t.assignedTo = *c.assignedTo;
    if (c.contactId)
        t.contactId = *c.contactId;
    if (c.dealId)
        t.dealId = *c.dealId;
    if (c.reminderEnabled)
        t.reminder.enabled = *c.reminderEnabled;
    if (c.reminderBefore)
        t.reminder.before = *c.reminderBefore;
    if (c.recurrence)
        t.recurrence = *c.recurrence;
}

QString TaskRules::normalizeStatusFilter(const QString &status)
{
    const QString s = status.trimmed().toLower();
    if (s == QLatin1String("todo"))
        return QStringLiteral("pending");
    if (s == QLatin1String("done"))
        return QStringLiteral("completed");
    return s;
}

bool TaskRules::canTransition(const QString &from, const QString &to)
{
    if (!Statuses.contains(from) || !Statuses.contains(to))
        return false;
    if (from == to)
        return true;
    const bool fromOpen = from == QLatin1String("pending") || from == QLatin1String("in_progress");
    if (fromOpen)
        return true;                       // pending <-> in_progress, and either -> completed | cancelled
    return to == QLatin1String("pending"); // completed | cancelled -> pending: reopen
}

void TaskRules::checkTransition(const QString &from, const QString &to)
{
    if (canTransition(from, to))
        return;
    ModelTextArg hint{QString()};
    if (from == QLatin1String("completed") || from == QLatin1String("cancelled"))
        hint = ModelText(QT_TRANSLATE_NOOP("ModelError", " (reopen it to pending first)"));
    throw DomainError(
        DomainError::Conflict, QStringLiteral("INVALID_TRANSITION"),
        ModelText(QT_TRANSLATE_NOOP("ModelError", "Cannot change task status from %1 to %2%3"), {from, to, hint}),
        FieldProblems{{QStringLiteral("status"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "cannot go from %1 to %2"), {from, to})}},
        QJsonObject{{QStringLiteral("from"), from}, {QStringLiteral("to"), to}});
}

namespace {
QDate clampedDate(int year, int month, int day)
{
    const int last = QDate(year, month, 1).daysInMonth();
    return QDate(year, month, qMin(day, last));
}

QDate mondayOf(const QDate &d)
{
    return d.addDays(1 - d.dayOfWeek());
}
} // namespace

std::optional<QDate> Recurrence::next(const QDate &current, const QDate &seriesStart, const TaskRecurrence &r)
{
    if (!r.isActive() || !current.isValid())
        return std::nullopt;
    const int interval = qMax(1, r.interval);
    const QDate start = seriesStart.isValid() ? seriesStart : current;
    QDate result;
    if (r.frequency == QLatin1String("daily")) {
        result = current.addDays(interval);
    } else if (r.frequency == QLatin1String("weekly")) {
        QList<int> days; // Qt day numbers, Monday = 1
        for (const QString &name : r.daysOfWeek) {
            const int index = int(TaskRules::Days.indexOf(name));
            if (index >= 0)
                days << index + 1;
        }
        if (days.isEmpty()) {
            result = current.addDays(7 * qint64(interval));
        } else {
            const QDate firstWeek = mondayOf(start);
            for (qint64 step = 1; step <= 7 * qint64(interval) + 7; ++step) {
                const QDate d = current.addDays(step);
                const qint64 week = firstWeek.daysTo(mondayOf(d)) / 7;
                if (((week % interval) + interval) % interval == 0 && days.contains(d.dayOfWeek())) {
                    result = d;
                    break;
                }
            }
        }
    } else if (r.frequency == QLatin1String("monthly")) {
        const int months = current.year() * 12 + (current.month() - 1) + interval;
        result = clampedDate(months / 12, months % 12 + 1, start.day());
    } else if (r.frequency == QLatin1String("yearly")) {
        result = clampedDate(current.year() + interval, start.month(), start.day());
    }
    if (!result.isValid())
        return std::nullopt;
    if (!r.endDate.isEmpty()) {
        const QDate end = QDate::fromString(r.endDate, Qt::ISODate);
        if (end.isValid() && result > end)
            return std::nullopt;
    }
    return result;
}

std::optional<QDate> Recurrence::nextOnOrAfter(const QDate &current, const QDate &seriesStart, const TaskRecurrence &r,
                                               const QDate &notBefore)
{
    std::optional<QDate> d = next(current, seriesStart, r);
    // Bounded: a daily series missed for ten years is 3650 steps.
    for (int i = 0; d && *d < notBefore && i < 100000; ++i)
        d = next(*d, seriesStart, r);
    return d;
}
