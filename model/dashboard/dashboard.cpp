#include "model/dashboard/dashboard.h"

#include "model/core/database.h"
#include "model/core/timeutil.h"
#include "model/deals/pipelinerepository.h"
#include "model/inbox/conversation.h"
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
    DashboardFigures f = counts(request);
    messagesPerDay(request.days, f);
    return f;
}

void Dashboard::messagesPerDay(int days, DashboardFigures &f) const
{
    const ReadTransaction snapshot;
    // One statement a day, its bounds in the tasks' time zone (a day is exactly its local day,
    // whatever the zone's offset), counting each channel in one pass over the day's range of the
    // index on (created_at, channel): a GROUP BY channel sorted every message of the period first,
    // ten times the cost of the scan (bench_home, docs/performance.md).
    days = qBound(1, days, kMaxDays);
    const QDate today = m_store.now().toTimeZone(m_tz).date();
    const QStringList channels = ConversationRules::channels();
    QString sql = QStringLiteral("SELECT count(*)");
    for (qsizetype i = 0; i < channels.size(); ++i)
        sql += QStringLiteral(", sum(CASE WHEN channel = ? THEN 1 ELSE 0 END)");
    sql += QStringLiteral(" FROM messages WHERE created_at >= ? AND created_at < ?");
    f.days.clear();
    f.messagesPerDay.clear();
    f.messagesTotal = 0;
    for (int i = 0; i < days; ++i) {
        const QDate day = today.addDays(i - days + 1);
        f.days.append(day);
        QVariantList values;
        for (const QString &c : channels)
            values << c;
        values << TimeUtil::iso(day.startOfDay(m_tz).toUTC()) << TimeUtil::iso(day.addDays(1).startOfDay(m_tz).toUTC());
        Database::select(sql, values, [&](const SqlRow &r) {
            const qint64 all = r.integer(0);
            qint64 known = 0;
            for (qsizetype c = 0; c < channels.size(); ++c) {
                const qint64 n = r.integer(int(c) + 1);
                known += n;
                if (n > 0) {
                    QVector<qint64> &counts = f.messagesPerDay[channels.at(c)];
                    counts.resize(days, 0);
                    counts[i] = n;
                }
            }
            // A channel the rules do not name (none today) is counted, under its own word.
            if (all > known) {
                QVector<qint64> &counts = f.messagesPerDay[QStringLiteral("other")];
                counts.resize(days, 0);
                counts[i] = all - known;
            }
            f.messagesTotal += all;
        });
    }
}

DashboardFigures Dashboard::counts(const DashboardRequest &request) const
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

    return f;
}
