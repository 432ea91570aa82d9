#include "model/dashboard/dashboard.h"

#include "model/core/database.h"
#include "model/core/timeutil.h"
#include "model/deals/pipelinerepository.h"
#include "model/tasks/taskrepository.h"

namespace {
// The start of the day `daysBack` days before now's day in tz, in UTC.
QDateTime dashboardDayStart(const QDateTime &now, const QTimeZone &tz, int daysBack)
{
    return now.toTimeZone(tz).date().addDays(-daysBack).startOfDay(tz).toUTC();
}

void dashboardClosed(const Pipeline &pipeline, const QDateTime &since30, const QDateTime &since90, DashboardFigures &f)
{
    QString won, lost;
    for (const PipelineStage &s : pipeline.stages) {
        if (s.kind == QLatin1String("won"))
            won = s.key;
        else if (s.kind == QLatin1String("lost"))
            lost = s.key;
    }
    // One range of the board's index (pipeline, stage) for each closing stage; closed_at is ISO UTC,
    // so that its text order is its time order. Grouped by the third column's place: PostgreSQL
    // takes the same expression with two parameters for two expressions.
    Database::select(
        QStringLiteral("SELECT stage, currency, CASE WHEN closed_at >= ? THEN 1 ELSE 0 END, count(*), "
                       "sum(CASE WHEN stage = ? AND closed_value IS NOT NULL THEN closed_value ELSE value END) "
                       "FROM deals WHERE pipeline_id = ? AND stage IN (?, ?) AND closed_at >= ? "
                       "GROUP BY stage, currency, 3"),
        {TimeUtil::iso(since30), won, pipeline.id, won, lost, TimeUtil::iso(since90)}, [&](const SqlRow &r) {
            const bool isWon = r.text(0) == won;
            const QString currency = r.text(1);
            const bool recent = r.integer(2) != 0;
            const qint64 deals = r.integer(3);
            const double value = r.real(4);
            DashboardFigures::Closed &in90 = isWon ? f.won90 : f.lost90;
            in90.deals += deals;
            in90.value[currency] += value;
            if (recent) {
                DashboardFigures::Closed &in30 = isWon ? f.won30 : f.lost30;
                in30.deals += deals;
                in30.value[currency] += value;
            }
        });
}
} // namespace

Dashboard::Dashboard(const Store &store, const QTimeZone &tasksTimeZone)
    : m_store(store)
    , m_tz(tasksTimeZone.isValid() ? tasksTimeZone : QTimeZone::systemTimeZone())
{
}

DashboardFigures Dashboard::figures(const DashboardRequest &request) const
{
    const ReadTransaction snapshot; // every figure of one state
    DashboardFigures f;
    const QDateTime now = m_store.now();
    PipelineRepository pipelines(m_store);
    f.pipelines = pipelines.list();
    const auto chosen = std::find_if(f.pipelines.cbegin(), f.pipelines.cend(),
                                     [&request](const Pipeline &p) { return p.id == request.pipelineId; });
    f.pipeline = chosen != f.pipelines.cend() ? *chosen : pipelines.defaultPipeline();

    // The funnel: the running totals per stage and currency, weighted by the stage's probability.
    QHash<QString, int> openIndex;
    for (const PipelineStage &s : std::as_const(f.pipeline.stages)) {
        if (!s.isOpen())
            continue;
        openIndex.insert(s.key, int(f.funnel.size()));
        f.funnel.append({s.key, s.name, s.probability, 0, {}, {}});
    }
    Database::select(QStringLiteral("SELECT stage, currency, deals, value FROM deal_totals WHERE pipeline_id = ?"),
                     {f.pipeline.id}, [&](const SqlRow &r) {
                         const auto it = openIndex.constFind(r.text(0));
                         if (it == openIndex.constEnd())
                             return;
                         DashboardFigures::Stage &s = f.funnel[*it];
                         const QString currency = r.text(1);
                         const double value = r.real(3);
                         const double weighted = value * s.probability / 100.0;
                         s.deals += r.integer(2);
                         s.value[currency] += value;
                         s.weighted[currency] += weighted;
                         f.openValue[currency] += value;
                         f.openWeighted[currency] += weighted;
                     });

    // Won and lost in the last 30 and 90 days, today included.
    f.since30 = dashboardDayStart(now, m_tz, 29);
    f.since90 = dashboardDayStart(now, m_tz, 89);
    dashboardClosed(f.pipeline, f.since30, f.since90, f);

    // The user's tasks, counted as the Tasks area lists them.
    if (!request.userId.isEmpty()) {
        TaskRepository tasks(m_store, m_tz);
        TaskQuery today;
        today.dueOn = tasks.today();
        today.openOnly = true;
        today.assignedTo = request.userId;
        f.tasksDueToday = tasks.count(today);
        f.tasksOverdue = tasks.overdueCount(request.userId);
    }

    // Conversations waiting for an answer, and the one waiting longest.
    Database::select(QStringLiteral("SELECT count(*), min(last_message_at) FROM conversations "
                                    "WHERE last_message_direction = 'incoming' AND status != 'closed'"),
                     {}, [&](const SqlRow &r) {
                         f.waiting = r.integer(0);
                         if (!r.isNull(1))
                             f.oldestWaitSince = TimeUtil::parse(r.text(1)).value_or(QDateTime());
                     });
    if (f.waiting > 0) {
        Database::select(QStringLiteral("SELECT id FROM conversations WHERE last_message_direction = 'incoming' "
                                        "AND status != 'closed' ORDER BY last_message_at, seq LIMIT 1"),
                         {}, [&](const SqlRow &r) { f.oldestWaitingId = r.text(0); });
    }

    // Messages per channel per day: the days' bounds (in the tasks' time zone) as a table of
    // values joined to the index on created_at, so that a day is exactly its local day whatever the
    // zone's offset.
    const int days = qBound(1, request.days, kMaxDays);
    const QDate today = now.toTimeZone(m_tz).date();
    QStringList rows;
    QVariantList values;
    for (int i = 0; i < days; ++i) {
        const QDate day = today.addDays(i - days + 1);
        f.days.append(day);
        rows << QStringLiteral("(%1, ?, ?)").arg(i);
        values << TimeUtil::iso(day.startOfDay(m_tz).toUTC()) << TimeUtil::iso(day.addDays(1).startOfDay(m_tz).toUTC());
    }
    Database::select(QStringLiteral("WITH days(n, day_from, day_to) AS (VALUES %1) "
                                    "SELECT days.n, m.channel, count(*) FROM days JOIN messages m "
                                    "ON m.created_at >= days.day_from AND m.created_at < days.day_to "
                                    "GROUP BY days.n, m.channel")
                         .arg(rows.join(QStringLiteral(", "))),
                     values, [&](const SqlRow &r) {
                         const int n = int(r.integer(0));
                         QVector<qint64> &counts = f.messagesPerDay[r.text(1)];
                         if (counts.isEmpty())
                             counts.fill(0, days);
                         if (n >= 0 && n < days) {
                             counts[n] += r.integer(2);
                             f.messagesTotal += r.integer(2);
                         }
                     });
    return f;
}
