#include "taskscheduler.h"

#include "database.h"
#include "errors.h"
#include "eventbus.h"
#include "outbox.h"
#include "taskrepository.h"

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

TaskScheduler::TaskScheduler(EventBus *bus, const QTimeZone &timeZone, const Clock *clock, QObject *parent)
    : QObject(parent)
    , m_bus(bus)
    , m_tz(timeZone.isValid() ? timeZone : QTimeZone::systemTimeZone())
    , m_clock(clock ? clock : &Clock::system())
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { checkNow(); });
    if (m_bus) {
        // A task written anywhere may be due sooner than the armed timer: look again (queued from other threads).
        connect(m_bus, &EventBus::changed, this, [this](const QString &entity, const QString &, const QString &change) {
            if (entity == QLatin1String("task") && change != QLatin1String("reminder") &&
                change != QLatin1String("overdue"))
                m_timer.start(0);
        });
    }
}

void TaskScheduler::start()
{
    // An all-day task is due at the start of its day in the tasks time zone: when tasks/timeZone
    // changed since the rows were written, their instants move before anything is fired.
    try {
        TaskRepository(m_bus, m_tz, m_clock).retimeAllDayTasks();
    } catch (const std::exception &e) {
        qCWarning(lcTasks) << "task scheduler: realigning all-day tasks:" << e.what();
    }
    checkNow();
}

int TaskScheduler::checkNow()
{
    int fired = 0;
    try {
        const QDateTime now = m_clock->now();
        int n = 0;
        do {
            n = fireReminders(now);
            fired += n;
        } while (n == kBatch);
        do {
            n = fireOverdue(now);
            fired += n;
        } while (n == kBatch);
    } catch (const std::exception &e) {
        // The database was busy or gone; the next round retries.
        qCWarning(lcTasks) << "task scheduler:" << e.what();
    }
    arm();
    return fired;
}

int TaskScheduler::fireReminders(const QDateTime &now)
{
    const QString nowIso = TimeUtil::iso(now);
    QVector<QPair<QString, QString>> fired; // event, task id
    int claimed = 0;
    {
        Transaction tx;
        QSqlQuery q = Database::exec(
            QStringLiteral("SELECT seq, id, title, due_date, remind_at, reminder_before, assigned_to, contact_id, "
                           "deal_id FROM tasks WHERE remind_at <= ? ORDER BY remind_at LIMIT ?"),
            {nowIso, kBatch});
        struct Row
        {
            qint64 seq;
            QJsonObject data;
        };
        QVector<Row> rows;
        while (q.next()) {
            rows.append({q.value(0).toLongLong(), QJsonObject{{QStringLiteral("taskId"), q.value(1).toString()},
                                                              {QStringLiteral("title"), q.value(2).toString()},
                                                              {QStringLiteral("dueDate"), nullable(q.value(3))},
                                                              {QStringLiteral("remindAt"), q.value(4).toString()},
                                                              {QStringLiteral("before"), q.value(5).toInt()},
                                                              {QStringLiteral("assignedTo"), nullable(q.value(6))},
                                                              {QStringLiteral("contactId"), nullable(q.value(7))},
                                                              {QStringLiteral("dealId"), nullable(q.value(8))}}});
        }
        q.finish();
        for (const Row &row : rows) {
            ++claimed;
            // The claim: only the writer that flips sentAt from NULL fires.
            QSqlQuery &u = Database::execCached(
                QStringLiteral("UPDATE tasks SET reminder_sent_at = ?, remind_at = NULL WHERE seq = ? AND "
                               "remind_at IS NOT NULL"),
                {nowIso, row.seq});
            if (u.numRowsAffected() != 1)
                continue;
            QJsonObject data = row.data;
            data.insert(QStringLiteral("sentAt"), nowIso);
            Outbox::append(QStringLiteral("task.reminder"), data);
            fired.append({QStringLiteral("task.reminder"), row.data.value(QLatin1String("taskId")).toString()});
        }
        tx.commit();
    }
    for (const auto &f : std::as_const(fired)) {
        if (m_bus)
            m_bus->notify(QStringLiteral("task"), f.second, QStringLiteral("reminder"));
        emit this->fired(f.first, f.second);
    }
    return claimed;
}

int TaskScheduler::fireOverdue(const QDateTime &now)
{
    const QString nowIso = TimeUtil::iso(now);
    QVector<QString> fired;
    int claimed = 0;
    {
        Transaction tx;
        QSqlQuery q = Database::exec(
            QStringLiteral("SELECT seq, id, title, due_date, status, assigned_to, contact_id, deal_id FROM tasks "
                           "WHERE overdue_at <= ? ORDER BY overdue_at LIMIT ?"),
            {nowIso, kBatch});
        struct Row
        {
            qint64 seq;
            QJsonObject data;
        };
        QVector<Row> rows;
        while (q.next()) {
            rows.append({q.value(0).toLongLong(), QJsonObject{{QStringLiteral("taskId"), q.value(1).toString()},
                                                              {QStringLiteral("title"), q.value(2).toString()},
                                                              {QStringLiteral("dueDate"), nullable(q.value(3))},
                                                              {QStringLiteral("status"), q.value(4).toString()},
                                                              {QStringLiteral("assignedTo"), nullable(q.value(5))},
                                                              {QStringLiteral("contactId"), nullable(q.value(6))},
                                                              {QStringLiteral("dealId"), nullable(q.value(7))}}});
        }
        q.finish();
        for (const Row &row : rows) {
            ++claimed;
            QSqlQuery &u = Database::execCached(
                QStringLiteral("UPDATE tasks SET overdue_notified_at = ?, overdue_at = NULL WHERE seq = ? AND "
                               "overdue_at IS NOT NULL"),
                {nowIso, row.seq});
            if (u.numRowsAffected() != 1)
                continue;
            QJsonObject data = row.data;
            data.insert(QStringLiteral("overdueSince"), nowIso);
            Outbox::append(QStringLiteral("task.overdue"), data);
            fired.append(row.data.value(QLatin1String("taskId")).toString());
        }
        tx.commit();
    }
    for (const QString &id : std::as_const(fired)) {
        if (m_bus)
            m_bus->notify(QStringLiteral("task"), id, QStringLiteral("overdue"));
        emit this->fired(QStringLiteral("task.overdue"), id);
    }
    return claimed;
}

QDateTime TaskScheduler::nextDue() const
{
    QDateTime next;
    // remind_at and overdue_at are set only while their event is still to fire (see TaskRepository).
    for (const QString &sql :
         {QStringLiteral("SELECT min(remind_at) FROM tasks"), QStringLiteral("SELECT min(overdue_at) FROM tasks")}) {
        QSqlQuery &q = Database::execCached(sql);
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
            wait = qBound<qint64>(200, m_clock->now().msecsTo(next) + 1, qint64(maxSleepMs()));
    } catch (const std::exception &e) {
        qCWarning(lcTasks) << "task scheduler:" << e.what();
    }
    m_timer.start(int(wait));
}

std::function<QObject *(QObject *)> TaskScheduler::factory(EventBus *bus, const QTimeZone &timeZone)
{
    return [bus, timeZone](QObject *parent) -> QObject * {
        auto *scheduler = new TaskScheduler(bus, timeZone, &Clock::system(), parent);
        QMetaObject::invokeMethod(scheduler, &TaskScheduler::start, Qt::QueuedConnection);
        return scheduler;
    };
}
