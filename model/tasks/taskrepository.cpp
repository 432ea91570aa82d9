#include "model/tasks/taskrepository.h"

#include "model/core/csv.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/fieldreader.h"
#include "model/core/ids.h"
#include "model/core/outbox.h"
#include "model/core/sqldialect.h"

#include <QJsonDocument>
#include <QSqlQuery>

#include <utility>

namespace {
using SqlValue::text;
using SqlValue::textOrNull;
const QString kColumns = QStringLiteral(
    "t.seq, t.id, t.title, t.description, t.type, t.status, t.priority, t.due_date, t.assigned_to, t.contact_id, "
    "t.deal_id, t.reminder_enabled, t.reminder_before, t.reminder_sent_at, t.recurrence, t.series_start, "
    "t.previous_task_id, t.next_task_id, t.completed_at, t.completed_by, t.overdue_notified_at, t.created_by, "
    "t.created_at, t.updated_at");
// Open (pending or in_progress), written as an equality on the leading expression of the index
// tasks_open_order (migration 6), so that overdue and open-only lists range over that index in due
// order. status is NOT NULL: the expression is true or false, never NULL.
QString openTasks()
{
    return SqlDialect::isTrue(QStringLiteral("t.status IN ('pending', 'in_progress')"));
}
// The list order: by due instant, undated last, then by creation (seq). '~' sorts after every ISO
// 8601 instant, so this is "due_at IS NULL, due_at, seq" in one expression that the indexes of
// migration 6 (tasks_order, tasks_status_order, tasks_assigned_order, tasks_contact_order,
// tasks_deal_order, tasks_open_order) hold: ORDER BY ... LIMIT/OFFSET walks an index, no sort.
const QString kDueKey = QStringLiteral("coalesce(t.due_at, '~')");
const QString kOrder = QStringLiteral(" ORDER BY coalesce(t.due_at, '~'), t.seq");
const QString kOpenFirstOrder =
    QStringLiteral(" ORDER BY t.status NOT IN ('pending', 'in_progress'), coalesce(t.due_at, '~'), t.seq");

QString isoDate(const QDate &d)
{
    return d.toString(Qt::ISODate);
}

Task taskFromRow(SqlRowReader r)
{
    Task t;
    t.seq = r.integer();
    t.id = r.text();
    t.title = r.text();
    t.description = r.text();
    t.type = r.text();
    t.status = r.text();
    t.priority = r.text();
    t.dueDate = r.text();
    t.assignedTo = r.text();
    t.contactId = r.text();
    t.dealId = r.text();
    t.reminder.enabled = r.flag();
    t.reminder.before = int(r.integer());
    t.reminder.sentAt = r.text();
    const QJsonObject rec = r.jsonObject();
    if (!rec.isEmpty()) {
        t.recurrence.frequency = rec.value(QLatin1String("frequency")).toString();
        t.recurrence.interval = qMax(1, rec.value(QLatin1String("interval")).toInt(1));
        for (const QJsonValue &d : rec.value(QLatin1String("daysOfWeek")).toArray())
            t.recurrence.daysOfWeek << d.toString();
        t.recurrence.endDate = rec.value(QLatin1String("endDate")).toString();
    }
    t.seriesStart = r.text();
    t.previousTaskId = r.text();
    t.nextTaskId = r.text();
    t.completedAt = r.text();
    t.completedBy = r.text();
    t.overdueNotifiedAt = r.text();
    t.createdBy = r.text();
    t.createdAt = r.text();
    t.updatedAt = r.text();
    return t;
}

QVariant recurrenceColumn(const Task &t)
{
    if (!t.recurrence.isActive())
        return QVariant(QMetaType(QMetaType::QString));
    return QString::fromUtf8(QJsonDocument(t.recurrence.toJson()).toJson(QJsonDocument::Compact));
}

QJsonObject eventData(const Task &t)
{
    QJsonObject data = t.toJson();
    data.insert(QStringLiteral("taskId"), t.id);
    return data;
}

DomainError unknownReference(const QString &field, const char *what, const QString &id)
{
    const ModelText problem(QT_TRANSLATE_NOOP("ModelError", "%1 %2 does not exist"), {ModelText(what), id});
    return DomainError::unprocessable(
        ModelText(QT_TRANSLATE_NOOP("ModelError", "%1: %2"), {ModelTextArg::field(field), problem}),
        {{field, problem}});
}

bool exists(const QString &sql, const QString &id)
{
    CachedQuery q = Database::execCached(sql, {id});
    const bool found = q.next();
    q.finish();
    return found;
}

struct Filter
{
    QString where;
    QVariantList values;
};

// An instant bound as a date bound for all-day tasks: the first day whose start is at or after it.
QDate firstDayStartingAtOrAfter(const QDateTime &instant, const QTimeZone &tz)
{
    const QDate d = instant.toTimeZone(tz).date();
    return d.startOfDay(tz) >= instant ? d : d.addDays(1);
}

// Midnight UTC of a day as stored text. An all-day task due on day D has due_at = the start of D in
// the time zone in force when it was written: within a day of utcMidnight(D) whatever that zone was
// (offsets stay within +-14 h). The date conditions below hold exactly as before; each also gets a
// redundant, slightly wider range on kDueKey so that an index serves it instead of a full scan.
QString utcMidnight(const QDate &d)
{
    return TimeUtil::iso(d.startOfDay(QTimeZone::utc()));
}

Filter buildFilter(const TaskQuery &query, const QTimeZone &tz, const QDate &today, const QDateTime &now)
{
    Filter f;
    QStringList clauses;
    auto in = [&](const QString &column, const QStringList &values) {
        if (values.isEmpty())
            return;
        QStringList marks;
        for (const QString &v : values) {
            marks << QStringLiteral("?");
            f.values << v;
        }
        clauses << column + QStringLiteral(" IN (") + marks.join(QLatin1Char(',')) + QLatin1Char(')');
    };
    in(QStringLiteral("t.status"), query.statuses);
    in(QStringLiteral("t.priority"), query.priorities);
    in(QStringLiteral("t.type"), query.types);
    if (!query.assignedTo.isEmpty()) {
        clauses << QStringLiteral("t.assigned_to = ?");
        f.values << query.assignedTo;
    }
    if (!query.contactId.isEmpty()) {
        clauses << QStringLiteral("t.contact_id = ?");
        f.values << query.contactId;
    }
    if (!query.dealId.isEmpty()) {
        clauses << QStringLiteral("t.deal_id = ?");
        f.values << query.dealId;
    }
    if (!query.excludeIds.isEmpty()) {
        QStringList marks;
        for (const QString &id : query.excludeIds) {
            marks << QStringLiteral("?");
            f.values << id;
        }
        clauses << QStringLiteral("t.id NOT IN (%1)").arg(marks.join(QLatin1Char(',')));
    }
    // A range on kDueKey implied by the condition that follows it (see utcMidnight).
    auto dueAtLeast = [&](const QString &bound) {
        clauses << kDueKey + QStringLiteral(" >= ?");
        f.values << bound;
    };
    auto dueBelow = [&](const QString &bound) {
        clauses << kDueKey + QStringLiteral(" < ?");
        f.values << bound;
    };
    if (query.dueOn) {
        const QString from = TimeUtil::iso(query.dueOn->startOfDay(tz));
        const QString to = TimeUtil::iso(query.dueOn->addDays(1).startOfDay(tz));
        dueAtLeast(qMin(from, utcMidnight(query.dueOn->addDays(-1))));
        dueBelow(qMax(to, utcMidnight(query.dueOn->addDays(2))));
        clauses << QStringLiteral(
            "((t.due_all_day = 1 AND t.due_date = ?) OR (t.due_all_day = 0 AND t.due_at >= ? AND t.due_at < ?))");
        f.values << isoDate(*query.dueOn) << from << to;
    }
    if (query.dueAfter) {
        const QDate day = firstDayStartingAtOrAfter(*query.dueAfter, tz);
        const QString at = TimeUtil::iso(*query.dueAfter);
        dueAtLeast(qMin(at, utcMidnight(day.addDays(-1))));
        clauses << QStringLiteral("((t.due_all_day = 1 AND t.due_date >= ?) OR (t.due_all_day = 0 AND t.due_at >= ?))");
        f.values << isoDate(day) << at;
    }
    if (query.dueBefore) {
        const QDate day = firstDayStartingAtOrAfter(*query.dueBefore, tz);
        const QString at = TimeUtil::iso(*query.dueBefore);
        dueBelow(qMax(at, utcMidnight(day.addDays(1))));
        clauses << QStringLiteral("((t.due_all_day = 1 AND t.due_date < ?) OR (t.due_all_day = 0 AND t.due_at < ?))");
        f.values << isoDate(day) << at;
    }
    if (query.overdueOnly) {
        const QString at = TimeUtil::iso(now);
        clauses << openTasks();
        dueBelow(qMax(at, utcMidnight(today.addDays(1))));
        clauses << QStringLiteral("((t.due_all_day = 1 AND t.due_date < ?) OR (t.due_all_day = 0 AND t.due_at < ?))");
        f.values << isoDate(today) << at;
    }
    if (query.openOnly)
        clauses << openTasks();
    if (query.excludeCancelled)
        clauses << QStringLiteral("t.status != 'cancelled'");
    if (query.hasDueDate)
        clauses << QStringLiteral("t.due_date IS NOT NULL");
    if (const QString words = SqlDialect::wordsBeginFolded(QStringLiteral("t.title"), query.search, &f.values);
        !words.isEmpty())
        clauses << words;
    if (!clauses.isEmpty())
        f.where = QStringLiteral(" WHERE ") + clauses.join(QStringLiteral(" AND "));
    return f;
}

QJsonArray changedFields(const Task &before, const Task &after)
{
    return Outbox::changedFields(before.toJson(), after.toJson(),
                                 {QStringLiteral("updatedAt"), QStringLiteral("status"), QStringLiteral("completedAt"),
                                  QStringLiteral("completedBy"), QStringLiteral("nextTaskId")});
}
} // namespace

TaskRepository::TaskRepository(const Store &store, const QTimeZone &timeZone)
    : m_store(store)
    , m_tz(timeZone.isValid() ? timeZone : QTimeZone::systemTimeZone())
{
}

QDate TaskRepository::today() const
{
    return m_store.now().toTimeZone(m_tz).date();
}

void TaskRepository::checkReferences(const Task &t, const Task *before) const
{
    if (!t.assignedTo.isEmpty() && (!before || before->assignedTo != t.assignedTo) &&
        !exists(QStringLiteral("SELECT 1 FROM users WHERE id = ?"), t.assignedTo))
        throw unknownReference(QStringLiteral("assignedTo"), QT_TRANSLATE_NOOP("ModelError", "user"), t.assignedTo);
    if (!t.contactId.isEmpty() && (!before || before->contactId != t.contactId) &&
        !exists(QStringLiteral("SELECT 1 FROM contacts WHERE id = ?"), t.contactId))
        throw unknownReference(QStringLiteral("contactId"), QT_TRANSLATE_NOOP("ModelError", "contact"), t.contactId);
    if (!t.dealId.isEmpty() && (!before || before->dealId != t.dealId) &&
        !exists(QStringLiteral("SELECT 1 FROM deals WHERE id = ?"), t.dealId))
        throw unknownReference(QStringLiteral("dealId"), QT_TRANSLATE_NOOP("ModelError", "deal"), t.dealId);
}

namespace {
const QString kRowColumns = QStringLiteral(
    "title, description, type, status, priority, due_date, due_all_day, due_at, assigned_to, contact_id, deal_id, "
    "reminder_enabled, reminder_before, reminder_sent_at, remind_at, overdue_at, recurrence, series_start, "
    "previous_task_id, next_task_id, completed_at, completed_by, overdue_notified_at, created_by, updated_at");

QVariant isoOrNull(const QDateTime &t)
{
    return t.isValid() ? QVariant(TimeUtil::iso(t)) : QVariant(QMetaType(QMetaType::QString));
}
} // namespace

void TaskRepository::insertRow(Task &t)
{
    QVariantList values = rowValues(t);
    values.prepend(t.id);
    values.append(t.createdAt);
    t.seq = Database::insert(QStringLiteral("INSERT INTO tasks (id, ") + kRowColumns +
                                 QStringLiteral(", created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                                "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                             values);
}

void TaskRepository::writeRow(const Task &t)
{
    QVariantList values = rowValues(t);
    values.append(t.seq);
    QString sets = kRowColumns;
    sets.replace(QLatin1String(", "), QLatin1String(" = ?, "));
    Database::execCached(QStringLiteral("UPDATE tasks SET ") + sets + QStringLiteral(" = ? WHERE seq = ?"), values);
}

QVariantList TaskRepository::rowValues(const Task &t) const
{
    const QDateTime due = t.dueInstant(m_tz);
    // The scheduler's queue: only what is still to fire has an instant.
    const bool open = t.isOpen() && due.isValid();
    const QDateTime remind = open && t.reminder.sentAt.isEmpty() ? t.remindAt(m_tz) : QDateTime();
    QDateTime overdueAt;
    if (open && t.overdueNotifiedAt.isEmpty())
        overdueAt = t.isAllDay() ? t.dueDay(m_tz).addDays(1).startOfDay(m_tz).toUTC() : due;
    return {text(t.title),
            text(t.description),
            t.type,
            t.status,
            t.priority,
            textOrNull(t.dueDate),
            t.isAllDay() ? 1 : 0,
            isoOrNull(due),
            textOrNull(t.assignedTo),
            textOrNull(t.contactId),
            textOrNull(t.dealId),
            t.reminder.enabled ? 1 : 0,
            t.reminder.before,
            textOrNull(t.reminder.sentAt),
            isoOrNull(remind),
            isoOrNull(overdueAt),
            recurrenceColumn(t),
            textOrNull(t.seriesStart),
            textOrNull(t.previousTaskId),
            textOrNull(t.nextTaskId),
            textOrNull(t.completedAt),
            textOrNull(t.completedBy),
            textOrNull(t.overdueNotifiedAt),
            textOrNull(t.createdBy),
            t.updatedAt};
}

int TaskRepository::retimeAllDayTasks()
{
    // rowValues() order: 7 due_at, 14 remind_at, 15 overdue_at.
    constexpr int kDueAt = 7, kRemindAt = 14, kOverdueAt = 15;
    int changed = 0;
    {
        Transaction tx;
        QVector<Task> tasks;
        QVector<QStringList> stored;
        {
            QSqlQuery q = Database::exec(QStringLiteral("SELECT ") + kColumns +
                                         QStringLiteral(", t.due_at, t.remind_at, t.overdue_at FROM tasks t "
                                                        "WHERE t.due_all_day = 1"));
            const int first = int(kColumns.count(QLatin1Char(','))) + 1;
            while (q.next()) {
                tasks.append(taskFromRow(q));
                stored.append(
                    {q.value(first).toString(), q.value(first + 1).toString(), q.value(first + 2).toString()});
            }
        }
        for (int i = 0; i < tasks.size(); ++i) {
            const QVariantList v = rowValues(tasks.at(i));
            const QStringList now{v.at(kDueAt).toString(), v.at(kRemindAt).toString(), v.at(kOverdueAt).toString()};
            if (now == stored.at(i))
                continue;
            Database::execCached(
                QStringLiteral("UPDATE tasks SET due_at = ?, remind_at = ?, overdue_at = ? WHERE seq = ?"),
                {v.at(kDueAt), v.at(kRemindAt), v.at(kOverdueAt), tasks.at(i).seq});
            ++changed;
        }
        tx.commit();
    }
    if (changed > 0)
        m_store.notify(EventBus::Entity::Task, QString(), EventBus::Change::Updated);
    return changed;
}

void TaskRepository::insertNote(const Task &t, const QString &content, const QString &actorGiven, const QString &at)
{
    const QString actor = actorOr(actorGiven);
    Database::execCached(
        QStringLiteral("INSERT INTO task_notes (id, task_seq, content, created_by, created_at) VALUES (?, ?, ?, ?, ?)"),
        {Ids::make(u"note"), t.seq, content, textOrNull(actor), at});
}

Task TaskRepository::create(TaskChanges changes, const QString &actorGiven, bool assignToActor)
{
    const QString actor = actorOr(actorGiven);
    TaskRules::check(changes);
    Task t;
    TaskRules::apply(t, changes);
    if (changes.status)
        t.status = *changes.status;
    if (assignToActor && !changes.assignedTo && actor.startsWith(QLatin1String("user_")))
        t.assignedTo = actor;
    TaskRules::checkRequired(t);
    const QString now = m_store.nowIso();
    t.id = Ids::make(u"task");
    t.createdBy = actor;
    t.createdAt = t.updatedAt = now;
    if (t.status == QLatin1String("completed")) {
        t.completedAt = now;
        t.completedBy = actor;
    }
    if (t.recurrence.isActive())
        t.seriesStart = isoDate(t.dueDate.isEmpty() ? today() : t.dueDay(m_tz));
    Transaction tx;
    checkReferences(t, nullptr);
    insertRow(t);
    m_store.appendEvent(QStringLiteral("task.created"), eventData(t));
    tx.commit();
    m_store.notify(EventBus::Entity::Task, t.id, EventBus::Change::Created);
    return t;
}

TaskStatusResult TaskRepository::applyStatus(Task &t, const Task &before, const QString &status,
                                             const QString &actorGiven, QJsonArray &changed)
{
    const QString actor = actorOr(actorGiven);
    TaskRules::checkTransition(before.status, status);
    TaskStatusResult result;
    if (status == before.status)
        return result;
    const QString now = m_store.nowIso();
    t.status = status;
    changed.append(QStringLiteral("status"));
    if (status == QLatin1String("completed")) {
        t.completedAt = now;
        t.completedBy = actor;
        // A reopened and completed-again task has its next occurrence already.
        if (t.recurrence.isActive() && t.nextTaskId.isEmpty()) {
            const QDate current = t.dueDate.isEmpty() ? today() : t.dueDay(m_tz);
            const QDate start = t.seriesStart.isEmpty() ? current : QDate::fromString(t.seriesStart, Qt::ISODate);
            const std::optional<QDate> nextDay = Recurrence::nextOnOrAfter(current, start, t.recurrence, today());
            if (nextDay) {
                Task n = t;
                n.seq = 0;
                n.id = Ids::make(u"task");
                n.status = QStringLiteral("pending");
                if (t.dueDate.isEmpty() || t.isAllDay()) {
                    n.dueDate = isoDate(*nextDay);
                } else {
                    // Same wall-clock time in the tasks time zone (a 09:00 call stays at 09:00 across DST).
                    const QTime time = t.dueInstant(m_tz).toTimeZone(m_tz).time();
                    n.dueDate = TimeUtil::iso(QDateTime(*nextDay, time, m_tz));
                }
                n.reminder.sentAt.clear();
                n.seriesStart = start.isValid() ? isoDate(start) : isoDate(current);
                n.previousTaskId = t.id;
                n.nextTaskId.clear();
                n.completedAt.clear();
                n.completedBy.clear();
                n.overdueNotifiedAt.clear();
                n.createdBy = actor;
                n.createdAt = n.updatedAt = now;
                insertRow(n);
                t.nextTaskId = n.id;
                result.next = n;
            }
        }
    } else {
        t.completedAt.clear();
        t.completedBy.clear();
    }
    result.changed = true;
    return result;
}

TaskStatusResult TaskRepository::update(const QString &id, TaskChanges changes, const QString &actor)
{
    TaskRules::check(changes);
    Transaction tx;
    const Task before = get(id);
    Task t = before;
    TaskRules::apply(t, changes);
    TaskRules::checkRequired(t);
    const bool dueChanged = t.dueDate != before.dueDate;
    if (dueChanged || t.reminder.enabled != before.reminder.enabled || t.reminder.before != before.reminder.before)
        t.reminder.sentAt.clear(); // rescheduled: remind again
    if (dueChanged)
        t.overdueNotifiedAt.clear();
    if (t.recurrence.isActive() &&
        (dueChanged || t.recurrence.toJson() != before.recurrence.toJson() || t.seriesStart.isEmpty()))
        t.seriesStart = isoDate(t.dueDate.isEmpty() ? today() : t.dueDay(m_tz));
    if (!t.recurrence.isActive())
        t.seriesStart.clear();
    checkReferences(t, &before);
    QJsonArray changed = changedFields(before, t);
    TaskStatusResult result;
    if (changes.status)
        result = applyStatus(t, before, *changes.status, actor, changed);
    if (changed.isEmpty()) {
        result.task = before;
        return result; // nothing to store, no event
    }
    t.updatedAt = m_store.nowIso();
    writeRow(t);
    const bool completed = result.changed && t.status == QLatin1String("completed");
    QJsonArray others;
    for (const QJsonValue &f : std::as_const(changed)) {
        if (!(completed && f.toString() == QLatin1String("status")))
            others.append(f);
    }
    if (!others.isEmpty()) {
        QJsonObject data = eventData(t);
        data.insert(QStringLiteral("changedFields"), others);
        if (result.changed)
            data.insert(QStringLiteral("previousStatus"), before.status);
        m_store.appendEvent(QStringLiteral("task.updated"), data);
    }
    if (completed) {
        m_store.appendEvent(QStringLiteral("task.completed"),
                            {{QStringLiteral("taskId"), t.id},
                             {QStringLiteral("completedBy"), t.completedBy.isEmpty() ? QJsonValue() : t.completedBy},
                             {QStringLiteral("completedAt"), t.completedAt},
                             {QStringLiteral("title"), t.title},
                             {QStringLiteral("nextTaskId"), result.next ? QJsonValue(result.next->id) : QJsonValue()}});
    }
    if (result.next)
        m_store.appendEvent(QStringLiteral("task.created"), eventData(*result.next));
    tx.commit();
    result.task = t;
    result.changed = true;
    m_store.notify(EventBus::Entity::Task, t.id, EventBus::Change::Updated);
    if (result.next)
        m_store.notify(EventBus::Entity::Task, result.next->id, EventBus::Change::Created);
    return result;
}

TaskStatusResult TaskRepository::setStatus(const QString &id, const QString &status, const QString &note,
                                           const QString &actor)
{
    const QString s = TaskRules::normalizeStatusFilter(status);
    if (s.isEmpty())
        throw DomainError::missingFields({{QStringLiteral("status"), DomainError::isRequired()}});
    if (!TaskRules::Statuses.contains(s))
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: status must be one of %1"),
                      {TaskRules::Statuses.join(QStringLiteral(", "))}),
            {{QStringLiteral("status"), FieldReader::oneOf(TaskRules::Statuses)}});
    const QString noteText = note.trimmed();
    if (noteText.size() > 20000)
        throw DomainError::invalid(
            QStringLiteral("note"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {20000}));
    Transaction tx;
    const Task before = get(id);
    Task t = before;
    QJsonArray changed;
    TaskStatusResult result = applyStatus(t, before, s, actor, changed);
    if (!result.changed && noteText.isEmpty()) {
        result.task = before;
        return result;
    }
    t.updatedAt = m_store.nowIso();
    writeRow(t);
    QJsonObject noteJson;
    if (!noteText.isEmpty()) {
        insertNote(t, noteText, actor, t.updatedAt);
        changed.append(QStringLiteral("notes"));
        noteJson = TaskNote{QString(), t.id, noteText, actor, t.updatedAt}.toJson();
        noteJson.remove(QStringLiteral("id"));
    }
    const bool completed = result.changed && s == QLatin1String("completed");
    if (completed) {
        QJsonObject data{{QStringLiteral("taskId"), t.id},
                         {QStringLiteral("completedBy"), t.completedBy.isEmpty() ? QJsonValue() : t.completedBy},
                         {QStringLiteral("completedAt"), t.completedAt},
                         {QStringLiteral("title"), t.title},
                         {QStringLiteral("nextTaskId"), result.next ? QJsonValue(result.next->id) : QJsonValue()}};
        if (!noteJson.isEmpty())
            data.insert(QStringLiteral("note"), noteJson);
        m_store.appendEvent(QStringLiteral("task.completed"), data);
    } else {
        QJsonObject data = eventData(t);
        data.insert(QStringLiteral("changedFields"), changed);
        if (result.changed)
            data.insert(QStringLiteral("previousStatus"), before.status);
        if (!noteJson.isEmpty())
            data.insert(QStringLiteral("note"), noteJson);
        m_store.appendEvent(QStringLiteral("task.updated"), data);
    }
    if (result.next)
        m_store.appendEvent(QStringLiteral("task.created"), eventData(*result.next));
    tx.commit();
    result.task = t;
    result.changed = true;
    m_store.notify(EventBus::Entity::Task, t.id, EventBus::Change::Updated);
    if (result.next)
        m_store.notify(EventBus::Entity::Task, result.next->id, EventBus::Change::Created);
    return result;
}

Task TaskRepository::assign(const QString &id, const QString &userId, const QString &actor)
{
    Q_UNUSED(actor);
    Transaction tx;
    const Task before = get(id);
    Task t = before;
    t.assignedTo = userId.trimmed();
    if (t.assignedTo == before.assignedTo)
        return before;
    checkReferences(t, &before);
    t.updatedAt = m_store.nowIso();
    writeRow(t);
    QJsonObject data = eventData(t);
    data.insert(QStringLiteral("changedFields"), QJsonArray{QStringLiteral("assignedTo")});
    data.insert(QStringLiteral("previousAssignedTo"),
                before.assignedTo.isEmpty() ? QJsonValue() : QJsonValue(before.assignedTo));
    m_store.appendEvent(QStringLiteral("task.updated"), data);
    tx.commit();
    m_store.notify(EventBus::Entity::Task, t.id, EventBus::Change::Updated);
    return t;
}

TaskNote TaskRepository::addNote(const QString &id, const QString &content, const QString &actorGiven)
{
    const QString actor = actorOr(actorGiven);
    const QString body = content.trimmed();
    if (body.isEmpty())
        throw DomainError::missingFields({{QStringLiteral("content"), DomainError::isRequired()}});
    if (body.size() > 20000)
        throw DomainError::invalid(
            QStringLiteral("content"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {20000}));
    Transaction tx;
    Task t = get(id);
    t.updatedAt = m_store.nowIso();
    TaskNote note{Ids::make(u"note"), t.id, body, actor, t.updatedAt};
    Database::execCached(
        QStringLiteral("INSERT INTO task_notes (id, task_seq, content, created_by, created_at) VALUES (?, ?, ?, ?, ?)"),
        {note.id, t.seq, note.content, textOrNull(actor), note.createdAt});
    Database::execCached(QStringLiteral("UPDATE tasks SET updated_at = ? WHERE seq = ?"), {t.updatedAt, t.seq});
    QJsonObject data = eventData(t);
    data.insert(QStringLiteral("changedFields"), QJsonArray{QStringLiteral("notes")});
    data.insert(QStringLiteral("note"), note.toJson());
    m_store.appendEvent(QStringLiteral("task.updated"), data);
    tx.commit();
    m_store.notify(EventBus::Entity::Task, t.id, EventBus::Change::Updated);
    return note;
}

QVector<TaskNote> TaskRepository::notes(const QString &id) const
{
    const Task t = get(id);
    QVector<TaskNote> out;
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT id, content, created_by, created_at FROM task_notes WHERE task_seq = ? ORDER BY seq"),
        {t.seq});
    while (q.next())
        out.append({q.value(0).toString(), t.id, q.value(1).toString(), q.value(2).toString(), q.value(3).toString()});
    q.finish();
    return out;
}

void TaskRepository::remove(const QString &id, const QString &actor)
{
    Q_UNUSED(actor);
    Transaction tx;
    const Task t = get(id);
    Database::execCached(QStringLiteral("DELETE FROM tasks WHERE seq = ?"), {t.seq});
    // Keep the series links pointing at rows that exist.
    Database::execCached(QStringLiteral("UPDATE tasks SET next_task_id = NULL WHERE next_task_id = ?"), {t.id});
    Database::execCached(QStringLiteral("UPDATE tasks SET previous_task_id = NULL WHERE previous_task_id = ?"), {t.id});
    tx.commit();
    m_store.notify(EventBus::Entity::Task, t.id, EventBus::Change::Deleted);
}

void TaskRepository::snoozeReminder(const QString &id, const QDateTime &until)
{
    if (!until.isValid() || until <= m_store.now())
        throw DomainError::invalid(QStringLiteral("until"),
                                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be in the future")));
    Transaction tx;
    const Task t = get(id);
    if (!t.isOpen())
        throw DomainError(DomainError::Conflict, QStringLiteral("TASK_CLOSED"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Task %1 is already closed"), {id}));
    Database::execCached(QStringLiteral("UPDATE tasks SET remind_at = ? WHERE seq = ?"),
                         {TimeUtil::iso(until.toUTC()), t.seq});
    tx.commit();
    // The scheduler looks again (it sleeps until the next reminder).
    m_store.notify(EventBus::Entity::Task, t.id, EventBus::Change::Updated);
}

std::optional<Task> TaskRepository::find(const QString &id) const
{
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM tasks t WHERE t.id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    Task t = taskFromRow(q);
    q.finish();
    return t;
}

Task TaskRepository::get(const QString &id) const
{
    std::optional<Task> t = find(id);
    if (!t)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Task"), id);
    return *t;
}

namespace {
struct Statement
{
    QString sql;
    QVariantList values;
};

// The page of list(): ORDER BY + LIMIT/OFFSET in SQL, on an index in that order (migration 6).
Statement pageStatement(const TaskQuery &query, const Filter &f)
{
    Statement s{QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM tasks t") + f.where +
                    (query.openFirst ? kOpenFirstOrder : kOrder) + QStringLiteral(" LIMIT ? OFFSET ?"),
                f.values};
    const int limit = qBound(1, query.limit, 5000);
    s.values << limit << qint64(qMax(1, query.page) - 1) * limit;
    return s;
}

Statement countStatement(const Filter &f)
{
    return {QStringLiteral("SELECT count(*) FROM tasks t") + f.where, f.values};
}
} // namespace

TaskPage TaskRepository::list(const TaskQuery &query) const
{
    const ReadTransaction snapshot; // the page and its total agree
    TaskPage page;
    const Statement s = pageStatement(query, buildFilter(query, m_tz, today(), m_store.now()));
    CachedQuery q = Database::execCached(s.sql, s.values);
    while (q.next())
        page.items.append(taskFromRow(q));
    q.finish();
    page.total = count(query);
    return page;
}

qint64 TaskRepository::count(const TaskQuery &query) const
{
    const Statement s = countStatement(buildFilter(query, m_tz, today(), m_store.now()));
    CachedQuery q = Database::execCached(s.sql, s.values);
    const qint64 n = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return n;
}

QStringList TaskRepository::queryPlan(const TaskQuery &query) const
{
    const Filter f = buildFilter(query, m_tz, today(), m_store.now());
    QStringList lines;
    for (const auto &[name, s] : {std::pair{QStringLiteral("page"), pageStatement(query, f)},
                                  std::pair{QStringLiteral("count"), countStatement(f)}}) {
        for (const QString &step : Database::queryPlan(s.sql, s.values))
            lines << name + QStringLiteral(": ") + step;
    }
    return lines;
}

TaskPage TaskRepository::dueToday(int page, int limit) const
{
    TaskQuery q;
    q.page = page;
    q.limit = limit;
    q.dueOn = today();
    q.excludeCancelled = true;
    q.openFirst = true;
    return list(q);
}

TaskPage TaskRepository::overdue(int page, int limit) const
{
    TaskQuery q;
    q.page = page;
    q.limit = limit;
    q.overdueOnly = true;
    return list(q);
}

qint64 TaskRepository::overdueCount(const QString &assignedTo) const
{
    TaskQuery q;
    q.overdueOnly = true;
    q.assignedTo = assignedTo;
    return count(q);
}

bool TaskRepository::isOverdue(const Task &t) const
{
    if (!t.isOpen() || t.dueDate.isEmpty())
        return false;
    if (t.isAllDay())
        return t.dueDay(m_tz) < today();
    return t.dueInstant(m_tz) < m_store.now();
}

QVector<TaskSummary> TaskRepository::tasksOfDeal(const QString &dealId) const
{
    QVector<TaskSummary> out;
    CachedQuery q =
        Database::execCached(QStringLiteral("SELECT id, title, due_date, status FROM tasks t WHERE deal_id = ?") +
                                 kOrder + QStringLiteral(" LIMIT 500"),
                             {dealId});
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString()});
    q.finish();
    return out;
}

QString TaskLinks::Contact::displayName() const
{
    const QString name = (firstName + QLatin1Char(' ') + lastName).trimmed();
    return name.isEmpty() ? email : name;
}

TaskLinks TaskRepository::links(const Task &t) const
{
    TaskLinks links;
    if (!t.assignedTo.isEmpty()) {
        CachedQuery q =
            Database::execCached(QStringLiteral("SELECT name, email FROM users WHERE id = ?"), {t.assignedTo});
        if (q.next())
            links.assignee = TaskLinks::User{t.assignedTo, q.value(0).toString(), q.value(1).toString()};
        q.finish();
    }
    if (!t.contactId.isEmpty()) {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT first_name, last_name, phone, email FROM contacts WHERE id = ?"), {t.contactId});
        if (q.next()) {
            TaskLinks::Contact c{t.contactId, q.value(0).toString(), q.value(1).toString(), q.value(3).toString(), {}};
            if (!q.value(2).isNull())
                c.phone = q.value(2).toString();
            links.contact = c;
        }
        q.finish();
    }
    if (!t.dealId.isEmpty()) {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT name, value FROM deals WHERE id = ?"), {t.dealId});
        if (q.next())
            links.deal = TaskLinks::Deal{t.dealId, q.value(0).toString(), q.value(1).toDouble()};
        q.finish();
    }
    return links;
}

int TaskRepository::insertBulk(const QVector<QJsonObject> &bodies)
{
    Transaction tx;
    const QString now = m_store.nowIso();
    for (const QJsonObject &body : bodies) {
        Task t;
        const TaskChanges changes = TaskRules::parse(body);
        TaskRules::apply(t, changes);
        if (changes.status)
            t.status = *changes.status;
        TaskRules::checkRequired(t);
        t.id = Ids::make(u"task");
        t.createdAt = t.updatedAt = now;
        if (t.recurrence.isActive())
            t.seriesStart = isoDate(t.dueDate.isEmpty() ? today() : t.dueDay(m_tz));
        insertRow(t);
    }
    tx.commit();
    m_store.notify(EventBus::Entity::Task, QString(), EventBus::Change::Created);
    return int(bodies.size());
}

QByteArray TaskRepository::exportCsv(const TaskQuery &query) const
{
    const ReadTransaction snapshot; // the pages of one moment
    QString out =
        Csv::line({QStringLiteral("id"), QStringLiteral("title"), QStringLiteral("type"), QStringLiteral("priority"),
                   QStringLiteral("status"), QStringLiteral("dueDate"), QStringLiteral("assignedTo"),
                   QStringLiteral("contactId"), QStringLiteral("dealId"), QStringLiteral("description"),
                   QStringLiteral("completedAt"), QStringLiteral("createdAt"), QStringLiteral("updatedAt")});
    TaskQuery q = query;
    q.limit = 1000;
    for (q.page = 1;; ++q.page) {
        const TaskPage page = list(q);
        for (const Task &t : page.items)
            out += Csv::line({t.id, t.title, t.type, t.priority, t.status, t.dueDate, t.assignedTo, t.contactId,
                              t.dealId, t.description, t.completedAt, t.createdAt, t.updatedAt});
        if (page.items.size() < q.limit)
            break;
    }
    return QByteArray("\xEF\xBB\xBF") + out.toUtf8();
}
