#pragma once

#include "model/core/eventbus.h"
#include "model/core/store.h"
#include "model/dashboard/dashboard.h"
#include "ui/shell/backgroundworker.h"
#include "ui/shell/liveread.h"

#include <QHash>
#include <QTimeZone>
#include <QTimer>
#include <QWidget>

#include <optional>

class QAbstractButton;
class QChartView;
class QComboBox;
class QLabel;
class QVBoxLayout;

// The Home area: the day's figures at a glance, each a button that opens the view it counts.
// - the open deals of a pipeline by stage (a funnel: each stage's deals and its value weighted by
//   the stage's probability, per currency) → the Deals area's list of that stage;
// - won and lost in the last 30 and 90 days (deals and value per currency) → the list of the won or
//   lost deals closed since then;
// - the signed-in user's open tasks due today and overdue → the Tasks area's Today or Overdue tab
//   with "Mine";
// - conversations waiting for an answer (last message incoming, not closed) and the longest wait →
//   the Inbox with its "Waiting" filter;
// - messages per channel per day over the last 14 or 30 days (a bar of the chart → the Inbox of
//   that channel).
// Amounts in different currencies are never added: each currency has its own line. The figures are
// read by Dashboard in a thread of the view's own (its own connection), "…" until they come, the
// counts first and the chart's messages after them; the
// view follows the event bus (deals, pipelines, tasks, conversations, messages), a burst of news
// read once after RefreshDelayMs, and only while in sight (else at the next show).
class HomeView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int RefreshDelayMs = 500;

    HomeView(const Store &store, QWidget *parent = nullptr);
    ~HomeView() override;

    // The days of the figures (today, the 30 and 90 days, the chart's days) are those of this zone
    // (tasks/timeZone), as the Tasks area's Today and Overdue.
    void setTimeZone(const QTimeZone &tz);
    // Whose tasks are counted (the signed-in user; empty: nobody's).
    void setUser(const QString &userId);

    // The figures' buttons by name: "openDeals", "won30", "won90", "lost30", "lost90", "dueToday",
    // "overdue", "waiting"; each one's value label is figureValue(name), the line under it figureNote.
    QAbstractButton *figure(const QString &name) const { return m_figures.value(name); }
    QLabel *figureValue(const QString &name) const { return m_values.value(name); }
    QLabel *figureNote(const QString &name) const { return m_notes.value(name); }
    // A stage's row of the funnel (nullptr when the pipeline has no such open stage).
    QAbstractButton *stageRow(const QString &stage) const { return m_stageRows.value(stage); }
    QComboBox *pipelineChoice() const { return m_pipeline; }
    QComboBox *periodChoice() const { return m_period; }
    QChartView *messagesChart() const { return m_chart; }
    QLabel *statusLabel() const { return m_status; }
    // The figures shown (none before the first read).
    const std::optional<DashboardFigures> &shownFigures() const { return m_figuresShown; }
    bool isReading() const { return m_live.isReading(); }
    // What clicking the chart's bar of `channel` does (the chart's bars call it).
    void openChannel(const QString &channel);

public slots:
    void refresh();

signals:
    // The figures read are shown: the counts (all but the chart), then everything.
    void countsShown();
    void shown();
    // Click-throughs: the Deals list of a pipeline's stage, closed since a moment when valid (won
    // and lost); the whole board of a pipeline (the open deals).
    void stageRequested(const QString &pipelineId, const QString &stage, const QDateTime &closedSince);
    void pipelineRequested(const QString &pipelineId);
    // The Tasks area's Today (false) or Overdue (true) tab, the user's own.
    void tasksRequested(bool overdue);
    // The Inbox's conversations waiting for an answer.
    void waitingRequested();
    // The Inbox's conversations of a channel.
    void channelRequested(const QString &channel);

protected:
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // Starts a read of the figures in the worker (m_live decides when).
    void startRead();
    void onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change);
    void showFigures(const DashboardFigures &figures, const QString &error);
    void showMessages(const DashboardFigures &messages, const QString &error);
    void showFunnel(const DashboardFigures &figures);
    void drawChart(const DashboardFigures &figures);
    void updateWait();
    void fillPipelines(const DashboardFigures &figures);
    void placeChartEmpty();

    Store m_store;
    QTimeZone m_tz = QTimeZone::systemTimeZone();
    QString m_userId;
    QComboBox *m_pipeline = nullptr;
    QLabel *m_pipelineLabel = nullptr;
    QComboBox *m_period = nullptr;
    QLabel *m_status = nullptr;
    QHash<QString, QAbstractButton *> m_figures;
    QHash<QString, QLabel *> m_values;
    QHash<QString, QLabel *> m_notes;
    QWidget *m_funnel = nullptr;
    QVBoxLayout *m_funnelRows = nullptr;
    QLabel *m_funnelTitle = nullptr;
    QLabel *m_funnelEmpty = nullptr;
    QHash<QString, QAbstractButton *> m_stageRows;
    QChartView *m_chart = nullptr;
    QLabel *m_chartEmpty = nullptr;
    std::optional<DashboardFigures> m_figuresShown;
    QTimer m_waitTimer; // the longest wait's words follow the clock
    QDate m_readOn;     // the day of the last read: a new day reads again at the next show
    LiveRead m_live{this, RefreshDelayMs, [this] { startRead(); }};
    BackgroundWorker m_worker; // last: destroyed first, waiting for its job while the rest is here
};
