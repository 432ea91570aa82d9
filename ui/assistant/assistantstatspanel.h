#pragma once

#include "model/assistant/aianswerrepository.h"
#include "model/assistant/assistant.h"
#include "model/core/eventbus.h"
#include "model/core/store.h"
#include "ui/shell/backgroundworker.h"
#include "ui/shell/liveread.h"

#include <QHash>
#include <QTimeZone>
#include <QWidget>

#include <memory>
#include <optional>

class KnowledgeIndex;
class QChartView;
class QComboBox;
class QLabel;
class QTableWidget;

// The assistant's figures over the last 7, 30 or 90 days, today included, the days in the tasks'
// time zone (AiAnswerRepository::stats, as GET /ai/stats): questions, answered and handed off with
// their rates, the average confidence, the feedback and its positive share, and the open
// suggestions, each on a card; a chart of the answered and handed-off questions per day; the hand-off
// reasons; the entries answered with most and those with the worst feedback (a double-click or Enter
// opens an entry). The figures are read in a thread of the panel's own (the open suggestions need
// the questions grouped: KnowledgeSuggestions), the cards showing "…" until they come. Follows the
// event bus (a question recorded, feedback, an entry changed) while in sight.
class AssistantStatsPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int RefreshDelayMs = 1000;
    enum EntryColumn
    {
        EntryQuestionColumn,
        EntryCountColumn, // the top entries' answers; the worst entries' negative feedback
        EntryPositiveColumn,
        EntryShareColumn,
    };

    AssistantStatsPanel(const Store &store, std::shared_ptr<KnowledgeIndex> index, QWidget *parent = nullptr);
    ~AssistantStatsPanel() override;

    // The days of the figures are those of this zone (tasks/timeZone).
    void setTimeZone(const QTimeZone &tz);
    void setThresholds(AssistantThresholds thresholds) { m_thresholds = thresholds; }
    QTimeZone timeZone() const { return m_tz; }

    // 7, 30, 90 days as the items' data.
    QComboBox *periodChoice() const { return m_period; }
    int days() const;
    // The value of a card: "total", "answered", "handedOff", "confidence", "feedback", "openSuggestions".
    QLabel *figure(const QString &name) const { return m_figures.value(name); }
    // The line under a card's value (a rate, a share).
    QLabel *figureNote(const QString &name) const { return m_notes.value(name); }
    QChartView *dailyChart() const { return m_daily; }
    QTableWidget *reasonsTable() const { return m_reasons; }
    QTableWidget *topEntriesTable() const { return m_top; }
    QTableWidget *worstEntriesTable() const { return m_worst; }
    QLabel *statusLabel() const { return m_status; }
    // The figures shown (none before the first read).
    const std::optional<AiStats> &shownStats() const { return m_stats; }
    // The daily chart's bars as drawn: answered and handed off per day, oldest first.
    QList<QPair<int, int>> dailyBars() const { return m_bars; }
    bool isReading() const { return m_live.isReading(); }

public slots:
    void refresh();

signals:
    // A knowledge entry to open (a top or worst entry's row).
    void entryRequested(const QString &id);
    // The figures read are shown (the open suggestions too).
    void shown();

protected:
    void showEvent(QShowEvent *event) override;

private:
    // Starts a read of the figures in the worker (m_live decides when).
    void startRead();
    void onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change);
    void showStats(const AiStats &stats, const QString &error);
    void showOpenSuggestions(int count, const QString &error);
    void drawDaily(const AiStats &stats);
    QTableWidget *entriesTable(const QString &name, const QStringList &headers, const QString &accessibleName);
    void openEntryOf(QTableWidget *table);

    Store m_store;
    std::shared_ptr<KnowledgeIndex> m_index;
    AssistantThresholds m_thresholds;
    QTimeZone m_tz = QTimeZone::systemTimeZone();
    QComboBox *m_period = nullptr;
    QLabel *m_status = nullptr;
    QHash<QString, QLabel *> m_figures;
    QHash<QString, QLabel *> m_notes;
    QChartView *m_daily = nullptr;
    QTableWidget *m_reasons = nullptr;
    QTableWidget *m_top = nullptr;
    QTableWidget *m_worst = nullptr;
    std::optional<AiStats> m_stats;
    QList<QPair<int, int>> m_bars;
    LiveRead m_live{this, RefreshDelayMs, [this] { startRead(); }};
    BackgroundWorker m_worker; // last: destroyed first, waiting for its job while the rest is here
};
