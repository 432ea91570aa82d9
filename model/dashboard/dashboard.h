#pragma once

#include "model/core/store.h"
#include "model/deals/pipeline.h"

#include <QDate>
#include <QDateTime>
#include <QMap>
#include <QStringList>
#include <QTimeZone>
#include <QVector>

#include <optional>

// Amounts by currency code: amounts in different currencies are never added together.
using CurrencyAmounts = QMap<QString, double>;

// The figures of the Home area, read in one snapshot.
struct DashboardFigures
{
    // One open stage of the pipeline (board order) and its deals in every currency.
    struct Stage
    {
        QString key;
        QString name;    // as stored (the window translates the built-in names)
        int probability; // the stage's, in percent
        qint64 deals = 0;
        CurrencyAmounts value;
        CurrencyAmounts weighted; // value × the stage's probability / 100
    };
    // Deals closed one way (won or lost) since a moment: how many and their value per currency (a
    // won deal's closed value when it has one).
    struct Closed
    {
        qint64 deals = 0;
        CurrencyAmounts value;
    };

    Pipeline pipeline;           // the pipeline of the funnel and of won and lost
    QVector<Pipeline> pipelines; // every pipeline, the default first (a choice of the view)
    QVector<Stage> funnel;
    CurrencyAmounts openValue;
    CurrencyAmounts openWeighted;
    QDateTime since30, since90; // the starts of the two windows (UTC)
    Closed won30, won90, lost30, lost90;

    // The user's open tasks due today (in the tasks' time zone; those whose time has passed too) and
    // their open tasks past due: what the Tasks area's Today and Overdue tabs list with "Mine".
    qint64 tasksDueToday = 0;
    qint64 tasksOverdue = 0;

    // Conversations not closed whose last message came in: someone waits for an answer.
    qint64 waiting = 0;
    QDateTime oldestWaitSince; // the oldest such last message (invalid when none waits)
    QString oldestWaitingId;

    // Messages (both directions) per channel per day, the days in the tasks' time zone, oldest first,
    // today last; every channel that has messages in the period, alphabetical.
    QVector<QDate> days;
    QMap<QString, QVector<qint64>> messagesPerDay;
    qint64 messagesTotal = 0;
};

// What to compute: the pipeline (empty: the default one), whose tasks (empty: nobody's, both
// counts 0), and how many days of messages, today included.
struct DashboardRequest
{
    QString pipelineId;
    QString userId;
    int days = 14;
};

// The figures of the Home area (docs/architecture.md, "Home"). Portable SQL (SQLite and
// PostgreSQL); usable from any thread (a worker's own connection). The funnel reads the running
// totals of deal_totals (a few rows however many deals); the closed deals are one index range of
// the pipeline's won and lost stages; tasks are TaskRepository's counts; waiting conversations one
// range of their partial index; messages one range of the time index a day.
class Dashboard
{
public:
    static constexpr int kMaxDays = 90;
    Dashboard(const Store &store, const QTimeZone &tasksTimeZone);

    // Every figure, in one snapshot.
    DashboardFigures figures(const DashboardRequest &request) const;
    // Every figure but the messages per day (the cheap ones, which a view shows first).
    DashboardFigures counts(const DashboardRequest &request) const;
    // Fills f's days, messagesPerDay and messagesTotal: `days` days, today last.
    void messagesPerDay(int days, DashboardFigures &f) const;

private:
    Store m_store;
    QTimeZone m_tz;
};
