#pragma once

#include "model/core/store.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipeline.h"
#include "model/deals/pipelinerepository.h"
#include "ui/deals/dealdialogs.h"
#include "ui/deals/dealeditdialog.h"
#include "ui/deals/pipelineeditor.h"

#include <QDateTime>
#include <QPointer>
#include <QTimeZone>
#include <QWidget>

class DealColumnModel;
class ImportDialog;
class DealListModel;
class QStackedWidget;
class QTableView;
class DealDetailDialog;
class DealEditDialog;
class PipelineEditorDialog;
class QChartView;
class QLocale;
class QSplitter;
class QPushButton;
class QToolButton;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QTimer;
class StageListView;

// The Deals area: one column per stage of the chosen pipeline with its count and total, cards
// dragged between columns to move a deal (Won and Lost ask for the closing data first), a deal
// detail dialog on double-click, a pipeline switcher and a bar chart of value per stage. It
// follows changes made anywhere (EventBus "deal" and "pipeline"), coalesced into one refresh.
class PipelineBoard : public QWidget
{
    Q_OBJECT
public:
    explicit PipelineBoard(const Store &store, QWidget *parent = nullptr);

    QString pipelineId() const { return m_pipeline.id; }
    StageListView *column(const QString &stage) const;
    DealColumnModel *columnModel(const QString &stage) const;
    QLabel *columnHeader(const QString &stage) const;
    QChartView *chart() const { return m_chart; }
    // The chart shows one currency at a time (values in different currencies are never added): the
    // summary's reporting currency unless the user picks another.
    QComboBox *chartCurrency() const { return m_chartCurrency; }
    // Shows or hides the chart (it folds away in the board's splitter, which the window remembers).
    void setChartVisible(bool visible);
    // Whether "Edit pipelines…" is offered (pipelines are configuration: the admin's).
    void setPipelineEditing(bool allowed);
    bool isChartVisible() const;
    // A money amount as the chart's axis shows it: "950", "12,5 K", "1,2 M" in the window's locale.
    static QString compactAmount(double value, const QLocale &locale);
    DealRepository &deals() { return m_deals; }
    DealDetailDialog *detailDialog() const { return m_detail; }
    DealEditDialog *editDialog() const { return m_edit; }
    PipelineEditorDialog *pipelineEditor() const { return m_editor; }
    // The search over the cards (every word begins a word of the deal's name, folded as search
    // folds text) and the "Mine" toggle (the deals assigned to the signed-in user).
    QLineEdit *searchField() const { return m_search; }
    QToolButton *mineToggle() const { return m_mine; }
    // The deals as a sortable list instead of the columns (the "List" button): the same search and
    // "Mine"; a click on a header sorts, Enter or a double-click opens the deal.
    void setListShown(bool shown);
    bool isListShown() const;
    QTableView *listView() const { return m_listView; }
    DealListModel *listModel() const { return m_listModel; }
    // The list of one stage of a pipeline, closed since a moment when closedSince is valid (what
    // Home's figures open): the search and "Mine" cleared, a line over the list names the filter
    // and "Show all deals" lifts it (as leaving the list or choosing another pipeline does).
    void showStage(const QString &pipelineId, const QString &stage, const QDateTime &closedSince = {});
    // The stage the list is limited to (empty: none) and its filter's line.
    QString stageFilter() const { return m_stageFilter; }
    QLabel *stageFilterLabel() const { return m_stageFilterText; }
    void clearStageFilter();
    static constexpr int SearchDelayMs = 200;
    // The tasks time zone (setting tasks/timeZone) for the deal detail's tasks.
    void setTasksTimeZone(const QTimeZone &tz) { m_tasksTz = tz; }

    // Writes the deals the board shows (this pipeline, the search and "Mine") to path as CSV;
    // false with the reason in a message when it cannot.
    bool exportTo(const QString &path);
    // The import dialog of deals into this pipeline (window-modal, deleted when closed).
    ImportDialog *importDeals();

public slots:
    // Puts the cursor in the search field, its text selected (Ctrl+F).
    void focusSearch();
    // Moves a dropped deal: to an open stage at once, to won or lost through WonDialog / LostDialog.
    void moveDeal(const QString &dealId, const QString &stage);
    void openDeal(const QString &dealId);
    // A new deal in the shown pipeline (DealEditDialog); the board shows it once saved.
    void newDeal();
    // The pipeline editor (stages, probabilities, rottenDays; add and delete pipelines).
    void editPipelines();
    void showPipeline(const QString &pipelineId);
    // Reads summary and columns again (what a bus notification schedules).
    void refresh();
    // Selects the deal's card in its column and scrolls it into view (reading further pages of the
    // column when it is not loaded yet); false when the shown pipeline does not hold it.
    bool showDeal(const QString &dealId);

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // The chart over the board, in one splitter.
    enum Pane
    {
        ChartPane,
        BoardPane
    };
    // The Chart button follows the splitter (folded by hand or by a restored state).
    void syncChartToggle();
    void rebuildColumns();
    void reloadPipelines();
    void updateHeadersAndChart();
    // Over an empty board: why (no deals yet; the search or Mine hides them) and one action.
    void updateEmptyState(qint64 shown, qint64 all);
    void styleColumns();
    void warn(const QString &text);
    // The search and Mine applied to every column.
    void applyFilter();

    DealRepository m_deals;
    PipelineRepository m_pipelines;
    Store m_store;
    Pipeline m_pipeline;
    QWidget *m_emptyState = nullptr;
    QLabel *m_emptyHint = nullptr;
    QComboBox *m_pipelineCombo;
    QLabel *m_summary;
    QWidget *m_columnsHost;
    QHBoxLayout *m_columnsLayout;
    QChartView *m_chart;
    QComboBox *m_chartCurrency = nullptr;
    QToolButton *m_chartToggle = nullptr;
    QSplitter *m_splitter = nullptr;
    int m_chartHeight = 140; // the height it comes back with
    QTimer *m_refreshTimer;
    QVector<StageListView *> m_views;
    QVector<DealColumnModel *> m_models;
    QVector<QLabel *> m_headers;
    QPointer<DealDetailDialog> m_detail;
    QPointer<DealEditDialog> m_edit;
    QPointer<PipelineEditorDialog> m_editor;
    QPushButton *m_editPipelines = nullptr;
    QLineEdit *m_search = nullptr;
    QToolButton *m_mine = nullptr;
    QTimer *m_searchTimer = nullptr;
    QToolButton *m_listToggle = nullptr;
    QStackedWidget *m_boardStack = nullptr;
    QTableView *m_listView = nullptr;
    DealListModel *m_listModel = nullptr;
    QLabel *m_listNote = nullptr;
    QWidget *m_stageFilterBar = nullptr;
    QLabel *m_stageFilterText = nullptr;
    QString m_stageFilter;
    void updateListNote();
    QTimeZone m_tasksTz = QTimeZone::systemTimeZone();
};
