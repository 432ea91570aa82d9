#include "model/tasks/taskscheduler.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/tasks/taskrepository.h"

#include <QJsonObject>
#include <QLoggingCategory>
#include <QSqlQuery>

Q_LOGGING_CATEGORY(lcTasks, "liaison.tasks")

namespace {
// Per check; the rest is picked up at once by the next round.
constexpr int kBatch = 500;

QJsonValue nullable(const QVariant &v)
{
    return v.isNull() || v.toString().isEmpty() ? QJsonValue() : QJsonValue(v.toString());
}
} // namespace

// One kind of scheduled task event. `column` holds the instant it is due and is set only while
// the event is still to fire: a task is claimed by clearing it (only the writer that clears it
// fires), and `doneColumn` keeps when it fired.
struct TaskScheduler::DueKind
{
    enum Kind
    {
        Text,
        Nullable,
        Int
    };
    struct Field
    {
        const char *column;
        const char *key;
        Kind kind;
    };
    const char *event;       // task.reminder
    EventBus::Change change; // on the event bus: Reminder
    const char *column;      // remind_at
    const char *doneColumn;  // reminder_sent_at
    const char *firedAtKey;  // the payload's key for the instant it fired: sentAt
    QVector<Field> fields;   // the payload, beside the fields every kind carries
};

namespace {
const TaskScheduler::DueKind kReminder{"task.reminder",
                                       EventBus::Change::Reminder,
                                       "remind_at",
                                       "reminder_sent_at",
                                       "sentAt",
                                       {{"remind_at", "remindAt", TaskScheduler::DueKind::Text},
                                        {"reminder_before", "before", TaskScheduler::DueKind::Int}}};
const TaskScheduler::DueKind kOverdue{"task.overdue", EventBus::Change::Overdue,
                                      "overdue_at",   "overdue_notified_at",
                                      "overdueSince", {{"status", "status", TaskScheduler::DueKind::Text}}};
const TaskScheduler::DueKind::Field kTaskFields[] = {
    {"id", "taskId", TaskScheduler::DueKind::Text},
    {"title", "title", TaskScheduler::DueKind::Text},
    {"due_date", "dueDate", TaskScheduler::DueKind::Nullable},
    {"assigned_to", "assignedTo", TaskScheduler::DueKind::Nullable},
    {"contact_id", "contactId", TaskScheduler::DueKind::Nullable},
    {"deal_id", "dealId", TaskScheduler::DueKind::Nullable},
};
} // namespace

TaskScheduler::TaskScheduler(const Store &store, const QTimeZone &timeZone, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_tz(timeZone.isValid() ? timeZone : QTimeZone::systemTimeZone())
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { checkNow(); });
    // A task written anywhere may be due sooner than the armed timer: look again (queued from other threads).
    connect(&m_store.bus(), &EventBus::changed, this,
            [this](EventBus::Entity entity, const QString &, EventBus::Change change) {
                if (entity == EventBus::Entity::Task && change != EventBus::Change::Reminder &&
                    change != EventBus::Change::Overdue)
                    m_timer.start(0);
            });
}

void TaskScheduler::start()
{
    // An all-day task is due at the start of its day in the tasks time zone: when tasks/timeZone
    // changed since the rows were written, their instants move before anything is fired.
    try {
        TaskRepository(m_store, m_tz).retimeAllDayTasks();
    } catch (const std::exception &e) {
        qCWarning(lcTasks) << "task scheduler: realigning all-day tasks:" << e.what();
    }
    checkNow();
}

int TaskScheduler::checkNow()
{
    int fired = 0;
    try {
        const QDateTime now = m_store.now();
        int n = 0;
        do {
            n = fire(kReminder, now);
            fired += n;
        } while (n == kBatch);
        do {
            n = fire(kOverdue, now);
            fired += n;
        } while (n == kBatch);
    } catch (const std::exception &e) {
        // The database was busy or gone; the next round retries.
        qCWarning(lcTasks) << "task scheduler:" << e.what();
    }
    arm();
    return fired;
}

int TaskScheduler::fire(const DueKind &kind, const QDateTime &now)
{
    QVector<DueKind::Field> fields(std::begin(kTaskFields), std::end(kTaskFields));
    fields += kind.fields;
    QString select = QStringLiteral("SELECT seq");
    for (const DueKind::Field &f : std::as_const(fields))
        select += QStringLiteral(", ") + QLatin1String(f.column);
    select += QStringLiteral(" FROM tasks WHERE %1 <= ? ORDER BY %1 LIMIT ?").arg(QLatin1String(kind.column));
    const QString claim = QStringLiteral("UPDATE tasks SET %1 = ?, %2 = NULL WHERE seq = ? AND %2 IS NOT NULL")
                              .arg(QLatin1String(kind.doneColumn), QLatin1String(kind.column));

    const QString nowIso = TimeUtil::iso(now);
    QStringList fired; // task ids
    int claimed = 0;
    {
        Transaction tx;
        QSqlQuery q = Database::exec(select, {nowIso, kBatch});
        QVector<QPair<qint64, QJsonObject>> rows; // seq, payload
        while (q.next()) {
            QJsonObject data;
            for (int i = 0; i < fields.size(); ++i) {
                const QVariant v = q.value(i + 1);
                const DueKind::Field &f = fields.at(i);
                data.insert(QLatin1String(f.key), f.kind == DueKind::Int        ? QJsonValue(v.toInt())
                                                  : f.kind == DueKind::Nullable ? nullable(v)
                                                                                : QJsonValue(v.toString()));
            }
            rows.append({q.value(0).toLongLong(), data});
        }
        q.finish();
        for (auto &[seq, data] : rows) {
            ++claimed;
            CachedQuery u = Database::execCached(claim, {nowIso, seq});
            if (u.numRowsAffected() != 1)
                continue;
            data.insert(QLatin1String(kind.firedAtKey), nowIso);
            m_store.appendEvent(QLatin1String(kind.event), data);
            fired.append(data.value(QLatin1String("taskId")).toString());
        }
        tx.commit();
    }
    for (const QString &id : std::as_const(fired)) {
        m_store.notify(EventBus::Entity::Task, id, kind.change);
        emit this->fired(QLatin1String(kind.event), id);
    }
    return claimed;
}

QDateTime TaskScheduler::nextDue() const
{
    QDateTime next;
    // remind_at and overdue_at are set only while their event is still to fire (see TaskRepository).
    for (const QString &sql :
         {QStringLiteral("SELECT min(remind_at) FROM tasks"), QStringLiteral("SELECT min(overdue_at) FROM tasks")}) {
        CachedQuery q = Database::execCached(sql);
        if (q.next() && !q.value(0).isNull()) {
            const QDateTime t = TimeUtil::parse(q.value(0).toString()).value_or(QDateTime());
            if (t.isValid() && (!next.isValid() || t < next))
                next = t;
        }
        q.finish();
    }
    return next;
}

void TaskScheduler::arm()
{
    qint64 wait = maxSleepMs();
    try {
        const QDateTime next = nextDue();
        if (next.isValid())
            // At least 200 ms: something due that could not be written is retried, not spun on.
            wait = qBound<qint64>(200, m_store.now().msecsTo(next) + 1, qint64(maxSleepMs()));
    } catch (const std::exception &e) {
        qCWarning(lcTasks) << "task scheduler:" << e.what();
    }
    m_timer.start(int(wait));
}

std::function<QObject *(QObject *)> TaskScheduler::factory(const Store &store, const QTimeZone &timeZone)
{
    return [store, timeZone](QObject *parent) -> QObject * {
        auto *scheduler = new TaskScheduler(store, timeZone, parent);
        QMetaObject::invokeMethod(scheduler, &TaskScheduler::start, Qt::QueuedConnection);
        return scheduler;
    };
}
