#include "ui/deals/pipelineboard.h"
#include "model/deals/dealimporter.h"
#include "ui/shell/importdialog.h"

#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "ui/deals/dealcarddelegate.h"
#include "ui/deals/dealcolumnmodel.h"
#include "ui/deals/dealdialogs.h"
#include "ui/deals/dealeditdialog.h"
#include "ui/deals/deallistmodel.h"
#include "ui/deals/pipelineeditor.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/theme.h"
#include "ui/shell/uikit.h"

#include "ui/shell/charttheme.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>

namespace {
// "12,500 TRY + 300 USD": values of different currencies are listed, never added.
QString valuesText(const PipelineSummary &s, int stageIndex)
{
    const QLocale locale;
    QStringList parts;
    for (const CurrencyTotals &c : s.byCurrency) {
        const StageTotals &st = c.stages.at(stageIndex);
        if (st.count > 0)
            parts << QStringLiteral("%1 %2").arg(locale.toString(st.value, 'f', 0), c.currency);
    }
    return parts.isEmpty() ? QStringLiteral("—") : parts.join(QStringLiteral(" + "));
}
} // namespace

PipelineBoard::PipelineBoard(const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_deals(store)
    , m_pipelines(store)
    , m_store(store)
{
    setObjectName(QStringLiteral("pipelineBoard"));
    m_pipelineCombo = new QComboBox(this);
    m_pipelineCombo->setObjectName(QStringLiteral("pipelineCombo"));
    m_pipelineCombo->setMinimumWidth(180);
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_summary->setObjectName(QStringLiteral("pipelineSummaryLabel"));
    // Totals in several currencies grow long: they wrap instead of widening the window.
    m_summary->setWordWrap(true);
    m_summary->setMinimumWidth(120);
    m_chartCurrency = new QComboBox(this);
    m_chartCurrency->setObjectName(QStringLiteral("chartCurrencyCombo"));
    m_chartCurrency->setToolTip(
        tr("The currency of the summary and the chart (amounts in different currencies are never added)"));
    m_chartToggle = new QToolButton(this);
    m_chartToggle->setObjectName(QStringLiteral("chartToggle"));
    m_chartToggle->setText(tr("Chart"));
    m_chartToggle->setToolTip(tr("Show or hide the value per stage chart"));
    m_chartToggle->setCheckable(true);
    m_chartToggle->setChecked(true);
    m_chartToggle->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Pipeline:"), this));
    top->addWidget(m_pipelineCombo);
    top->addSpacing(16);
    top->addWidget(m_summary, 1);
    auto *newDeal = new QPushButton(tr("New deal…"), this);
    newDeal->setObjectName(QStringLiteral("newDealButton"));
    auto *editPipelines = new QPushButton(tr("Edit pipelines…"), this);
    m_editPipelines = editPipelines;
    editPipelines->setObjectName(QStringLiteral("editPipelinesButton"));
    top->addWidget(m_chartToggle);
    top->addWidget(m_chartCurrency);
    top->addWidget(newDeal);
    top->addWidget(editPipelines);
    auto *exportDeals = new QPushButton(tr("Export…"), this);
    exportDeals->setObjectName(QStringLiteral("exportDealsButton"));
    exportDeals->setToolTip(tr("Save the deals of this pipeline the search shows as a CSV file"));
    auto *importButton = new QPushButton(tr("Import…"), this);
    importButton->setObjectName(QStringLiteral("importDealsButton"));
    importButton->setToolTip(tr("Import deals into this pipeline from a CSV file"));
    top->addWidget(importButton);
    connect(importButton, &QPushButton::clicked, this, &PipelineBoard::importDeals);
    top->addWidget(exportDeals);
    connect(exportDeals, &QPushButton::clicked, this, [this] {
        askCsvExportPath(this, tr("Export deals to CSV"), tr("deals.csv"),
                         [this](const QString &path) { exportTo(path); });
    });
    connect(newDeal, &QPushButton::clicked, this, &PipelineBoard::newDeal);

    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("dealSearchEdit"));
    m_search->setPlaceholderText(tr("Search deals…"));
    m_search->setAccessibleName(tr("Search deals"));
    m_search->setClearButtonEnabled(true);
    m_mine = new QToolButton(this);
    m_mine->setObjectName(QStringLiteral("mineToggle"));
    m_mine->setText(tr("Mine"));
    m_mine->setAccessibleName(tr("Mine"));
    m_mine->setToolTip(tr("Only the deals assigned to you"));
    m_mine->setCheckable(true);
    m_mine->setEnabled(store.actingUser() != nullptr);
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_search, 1);
    filterRow->addWidget(m_mine);
    filterRow->addStretch(1);
    m_searchTimer = new QTimer(this);
    m_searchTimer->setSingleShot(true);
    m_searchTimer->setInterval(SearchDelayMs);
    connect(m_search, &QLineEdit::textChanged, m_searchTimer, qOverload<>(&QTimer::start));
    connect(m_searchTimer, &QTimer::timeout, this, &PipelineBoard::applyFilter);
    connect(m_search, &QLineEdit::returnPressed, this, &PipelineBoard::applyFilter);
    connect(m_mine, &QToolButton::toggled, this, &PipelineBoard::applyFilter);
    connect(editPipelines, &QPushButton::clicked, this, &PipelineBoard::editPipelines);

    m_columnsHost = new QWidget(this);
    m_columnsLayout = new QHBoxLayout(m_columnsHost);
    m_columnsLayout->setContentsMargins(0, UiKit::Space::XS, 0, 0);
    m_columnsLayout->setSpacing(UiKit::Space::S);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_columnsHost);
    scroll->setFrameShape(QFrame::NoFrame);

    // The same deals as a sortable list, in place of the columns.
    m_listModel = new DealListModel(m_deals, this);
    auto *sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(m_listModel);
    sorted->setSortRole(DealListModel::SortRole);
    m_listView = new QTableView(this);
    m_listView->setObjectName(QStringLiteral("dealList"));
    m_listView->setAccessibleName(tr("Deals"));
    m_listView->setModel(sorted);
    m_listView->setSortingEnabled(true);
    m_listView->sortByColumn(DealListModel::UpdatedColumn, Qt::DescendingOrder);
    m_listView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_listView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_listView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_listView->setAlternatingRowColors(true);
    m_listView->setWordWrap(false);
    m_listView->verticalHeader()->hide();
    m_listView->horizontalHeader()->setSectionResizeMode(DealListModel::NameColumn, QHeaderView::Stretch);
    m_listView->horizontalHeader()->setHighlightSections(false);
    for (int column = DealListModel::StageColumn; column < DealListModel::ColumnCount; ++column)
        m_listView->setColumnWidth(column, qMax(fontMetrics().averageCharWidth() * 18,
                                                m_listView->horizontalHeader()->sectionSizeHint(column) +
                                                    fontMetrics().averageCharWidth() * 3));
    auto openRow = [this] {
        const QModelIndex current = m_listView->currentIndex();
        if (current.isValid())
            openDeal(current.siblingAtColumn(0).data(DealListModel::IdRole).toString());
    };
    connect(m_listView, &QTableView::doubleClicked, this, openRow);
    for (const QKeySequence &keys : {QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}) {
        auto *enter = new QShortcut(keys, m_listView);
        enter->setContext(Qt::WidgetShortcut);
        connect(enter, &QShortcut::activated, this, openRow);
    }
    m_listNote = new QLabel(this);
    m_listNote->setObjectName(QStringLiteral("dealListNote"));
    m_listNote->setTextFormat(Qt::PlainText);
    m_listNote->hide();
    // Over the list when Home opened it on one stage: what it shows, and the way back to all.
    m_stageFilterBar = new QWidget(this);
    m_stageFilterBar->setObjectName(QStringLiteral("stageFilterBar"));
    auto *stageBar = new QHBoxLayout(m_stageFilterBar);
    stageBar->setContentsMargins(0, 0, 0, UiKit::Space::XS);
    m_stageFilterText = new QLabel(m_stageFilterBar);
    m_stageFilterText->setObjectName(QStringLiteral("stageFilterText"));
    m_stageFilterText->setTextFormat(Qt::PlainText);
    m_stageFilterText->setWordWrap(true);
    auto *showAll = new QPushButton(tr("Show all deals"), m_stageFilterBar);
    showAll->setObjectName(QStringLiteral("stageFilterClear"));
    stageBar->addWidget(m_stageFilterText, 1);
    stageBar->addWidget(showAll);
    m_stageFilterBar->hide();
    connect(showAll, &QPushButton::clicked, this, &PipelineBoard::clearStageFilter);
    auto *listPage = new QWidget(this);
    auto *listLayout = new QVBoxLayout(listPage);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addWidget(m_stageFilterBar);
    listLayout->addWidget(m_listView, 1);
    listLayout->addWidget(m_listNote);
    m_boardStack = new QStackedWidget(this);
    m_boardStack->addWidget(scroll);
    m_boardStack->addWidget(listPage);
    m_listToggle = new QToolButton(this);
    m_listToggle->setObjectName(QStringLiteral("listToggle"));
    m_listToggle->setText(tr("List"));
    m_listToggle->setAccessibleName(tr("List"));
    m_listToggle->setToolTip(tr("Show the deals as a list you can sort instead of the board"));
    m_listToggle->setCheckable(true);
    filterRow->insertWidget(2, m_listToggle);
    connect(m_listToggle, &QToolButton::toggled, this, &PipelineBoard::setListShown);

    m_chart = new QChartView(this);
    m_chart->setObjectName(QStringLiteral("pipelineChart"));
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumHeight(100);
    // A compact header over the board: the columns keep most of the height.
    m_chart->setMaximumHeight(150);

    m_splitter = new QSplitter(Qt::Vertical, this);
    auto *splitter = m_splitter;
    // Named anew when the chart moved over the board: a state saved with the chart under it does not fit.
    splitter->setObjectName(QStringLiteral("boardHeaderSplitter"));
    splitter->addWidget(m_chart);
    splitter->addWidget(m_boardStack);
    splitter->setStretchFactor(ChartPane, 1);
    splitter->setStretchFactor(BoardPane, 4);
    splitter->setCollapsible(ChartPane, true);
    splitter->setCollapsible(BoardPane, false);
    connect(m_chartToggle, &QToolButton::toggled, this, &PipelineBoard::setChartVisible);
    // Folded or unfolded by its handle too (and restored by the window's state): the button follows.
    connect(splitter, &QSplitter::splitterMoved, this, &PipelineBoard::syncChartToggle);
    connect(m_chartCurrency, &QComboBox::activated, this, [this] { updateHeadersAndChart(); });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::M, UiKit::Space::M, UiKit::Space::M, UiKit::Space::S);
    layout->setSpacing(UiKit::Space::S);
    layout->addLayout(top);
    layout->addLayout(filterRow);
    layout->addWidget(splitter, 1);
    connect(&Theme::instance(), &Theme::schemeChanged, this, [this] {
        styleColumns();
        updateHeadersAndChart();
    });
    m_emptyState = emptyStatePanel(m_boardStack, QString(), &m_emptyHint);
    m_emptyState->hide();
    connect(splitter, &QSplitter::splitterMoved, m_emptyState, [this] { placeEmptyState(m_emptyState); });

    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(100);
    connect(m_refreshTimer, &QTimer::timeout, this, &PipelineBoard::refresh);
    connect(&store.bus(), &EventBus::changed, this, [this](EventBus::Entity entity, const QString &, EventBus::Change) {
        if (entity == EventBus::Entity::Pipeline) {
            reloadPipelines();
        } else if (entity == EventBus::Entity::Deal || entity == EventBus::Entity::Contact) {
            m_refreshTimer->start(); // a burst of changes costs one refresh
        }
    });
    connect(m_pipelineCombo, &QComboBox::activated, this,
            [this](int index) { showPipeline(m_pipelineCombo->itemData(index).toString()); });

    reloadPipelines();
}

void PipelineBoard::reloadPipelines()
{
    const QString current = m_pipeline.id;
    const QVector<Pipeline> all = m_pipelines.list();
    m_pipelineCombo->clear();
    for (const Pipeline &p : all)
        m_pipelineCombo->addItem(DealText::pipelineName(p), p.id);
    QString target = current;
    if (target.isEmpty() || m_pipelineCombo->findData(target) < 0)
        target = all.isEmpty() ? QString() : all.first().id;
    if (target.isEmpty())
        return;
    m_pipelineCombo->setCurrentIndex(m_pipelineCombo->findData(target));
    m_pipeline = Pipeline(); // stages may have changed: rebuild
    showPipeline(target);
}

void PipelineBoard::showStage(const QString &pipelineId, const QString &stage, const QDateTime &closedSince)
{
    {
        const QSignalBlocker search(m_search), mine(m_mine);
        m_search->clear();
        m_mine->setChecked(false);
    }
    if (!pipelineId.isEmpty() && pipelineId != m_pipeline.id)
        showPipeline(pipelineId);
    const PipelineStage *s = m_pipeline.stage(stage);
    if (!s)
        return;
    m_stageFilter = stage;
    m_listModel->setStageFilter(stage, closedSince.isValid() ? TimeUtil::iso(closedSince.toUTC()) : QString());
    const QString name = DealText::stageName(*s);
    m_stageFilterText->setText(
        closedSince.isValid()
            ? tr("%1 since %2").arg(name, QLocale().toString(closedSince.toLocalTime().date(), QLocale::ShortFormat))
            : tr("Only the stage %1").arg(name));
    m_stageFilterBar->show();
    applyFilter();
    setListShown(true);
}

void PipelineBoard::clearStageFilter()
{
    if (m_stageFilter.isEmpty())
        return;
    m_stageFilter.clear();
    m_listModel->setStageFilter({});
    m_stageFilterBar->hide();
    if (isListShown()) {
        m_listModel->reload();
        updateListNote();
    }
}

void PipelineBoard::showPipeline(const QString &pipelineId)
{
    const std::optional<Pipeline> p = m_pipelines.find(pipelineId);
    if (!p)
        return;
    if (p->id != m_pipeline.id)
        clearStageFilter();
    const bool sameStages = p->id == m_pipeline.id && p->stageKeys() == m_pipeline.stageKeys();
    m_pipeline = *p;
    m_pipelineCombo->setCurrentIndex(m_pipelineCombo->findData(p->id));
    if (sameStages)
        refresh();
    else
        rebuildColumns();
}

void PipelineBoard::rebuildColumns()
{
    while (QLayoutItem *item = m_columnsLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_views.clear();
    m_models.clear();
    m_headers.clear();
    auto *delegate = new DealCardDelegate(m_store, m_columnsHost);
    for (const PipelineStage &stage : std::as_const(m_pipeline.stages)) {
        auto *frame = new QFrame(m_columnsHost);
        frame->setObjectName(QStringLiteral("stageColumn")); // styled in styleColumns()
        // Six stages side by side on a 1,280-pixel screen (the default pipeline's); more scroll.
        frame->setMinimumWidth(fontMetrics().averageCharWidth() * 25);
        frame->setMaximumWidth(320);
        auto *v = new QVBoxLayout(frame);
        v->setContentsMargins(UiKit::Space::S, UiKit::Space::S, UiKit::Space::XS, UiKit::Space::XS);
        v->setSpacing(UiKit::Space::XS);
        auto *header = new QLabel(frame);
        header->setTextFormat(Qt::RichText); // updateHeadersAndChart() escapes the stage name
        header->setObjectName(QStringLiteral("stageHeader_") + stage.key);
        header->setWordWrap(true);
        auto *view = new StageListView(stage.key, frame);
        view->setFrameShape(QFrame::NoFrame);
        view->setAccessibleName(DealText::stageName(stage)); // a screen reader names the column
        auto *model = new DealColumnModel(m_deals, m_pipeline.id, stage.key, view);
        model->setFilter(m_search->text().trimmed(),
                         m_mine->isChecked() ? m_store.actorOr({}) : QString()); // kept across pipelines
        view->setModel(model);
        view->setItemDelegate(delegate);
        connect(view, &StageListView::dealDropped, this, &PipelineBoard::moveDeal);
        connect(view, &StageListView::dealActivated, this, &PipelineBoard::openDeal);
        v->addWidget(header);
        v->addWidget(view, 1);
        m_columnsLayout->addWidget(frame);
        m_views << view;
        m_models << model;
        m_headers << header;
    }
    m_columnsLayout->addStretch();
    styleColumns();
    m_listModel->setPipeline(m_pipeline);
    if (isListShown()) {
        m_listModel->reload();
        updateListNote();
    }
    updateHeadersAndChart();
}

void PipelineBoard::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void PipelineBoard::applyFilter()
{
    m_searchTimer->stop();
    // "Mine" with nobody signed in (no account yet) has nobody's deals to show: it filters nothing.
    const QString mine = m_mine->isChecked() ? m_store.actorOr({}) : QString();
    for (DealColumnModel *m : std::as_const(m_models))
        m->setFilter(m_search->text().trimmed(), mine);
    m_listModel->setFilter(m_search->text().trimmed(), mine);
    if (isListShown()) {
        m_listModel->reload();
        updateListNote();
    }
    updateHeadersAndChart();
}

void PipelineBoard::setListShown(bool shown)
{
    if (m_listToggle->isChecked() != shown)
        m_listToggle->setChecked(shown); // comes back here
    m_boardStack->setCurrentIndex(shown ? 1 : 0);
    if (!shown)
        clearStageFilter();
    if (shown) {
        m_listModel->reload();
        updateListNote();
    }
}

bool PipelineBoard::isListShown() const
{
    return m_boardStack->currentIndex() == 1;
}

void PipelineBoard::updateListNote()
{
    const int shown = m_listModel->rowCount();
    m_listNote->setText(m_listModel->total() > shown
                            ? tr("The %1 most recent of %2 deals; search to find the others.")
                                  .arg(QLocale().toString(shown), QLocale().toString(m_listModel->total()))
                            : QString());
    m_listNote->setVisible(!m_listNote->text().isEmpty());
}

void PipelineBoard::refresh()
{
    m_refreshTimer->stop();
    for (DealColumnModel *m : std::as_const(m_models))
        m->reload();
    if (isListShown()) { // else read when it shows
        m_listModel->reload();
        updateListNote();
    }
    updateHeadersAndChart();
}

void PipelineBoard::styleColumns()
{
    // Columns a shade off the window, cards of the base colour on them (lighter in both schemes).
    const bool dark = UiKit::scheme() == UiKit::Scheme::Dark;
    m_columnsHost->setStyleSheet(QStringLiteral("#stageColumn { background: %1; border-radius: 8px; }"
                                                "#stageColumn QListView { background: transparent; }")
                                     .arg((dark ? QColor(0x17, 0x18, 0x1b) : QColor(0xe9, 0xeb, 0xef)).name()));
}

void PipelineBoard::updateEmptyState(qint64 shown, qint64 all)
{
    if (shown > 0) {
        m_emptyState->hide();
        return;
    }
    const QString search = m_search->text().trimmed();
    if (all == 0) {
        m_emptyHint->setText(tr("No deals in this pipeline yet. A deal follows a sale from the first talk to won "
                                "or lost, with its amount and the next step."));
        setEmptyHintIcon(m_emptyHint, QStringLiteral("deals"));
        setEmptyHintAction(m_emptyHint, tr("New deal…"), [this] { newDeal(); });
    } else if (!search.isEmpty()) {
        m_emptyHint->setText(tr("No deal in this pipeline matches “%1”.").arg(search));
        setEmptyHintIcon(m_emptyHint, QStringLiteral("search"));
        setEmptyHintAction(m_emptyHint, tr("Clear the search"), [this] {
            m_search->clear();
            applyFilter();
        });
    } else {
        m_emptyHint->setText(tr("None of this pipeline's deals is yours."));
        setEmptyHintIcon(m_emptyHint, QStringLiteral("deals"));
        setEmptyHintAction(m_emptyHint, tr("Show everyone's deals"), [this] { m_mine->setChecked(false); });
    }
    m_emptyState->show();
    m_emptyState->raise();
    placeEmptyState(m_emptyState);
}

void PipelineBoard::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (m_emptyState && m_emptyState->isVisible())
        placeEmptyState(m_emptyState);
}

void PipelineBoard::updateHeadersAndChart()
{
    if (m_pipeline.id.isEmpty())
        return;
    const PipelineSummary s = m_deals.summary(m_pipeline.id);
    for (int i = 0; i < m_headers.size() && i < m_pipeline.stages.size(); ++i) {
        // Searched or "Mine": how many cards show of the stage's deals.
        const DealColumnModel *model = m_models.value(i);
        const QString count = model && model->filtered()
                                  ? tr("%1 of %2").arg(model->total()).arg(s.stageCounts.value(i))
                                  : QString::number(s.stageCounts.value(i));
        m_headers[i]->setText(
            tr("<b>%1</b> · %2<br>%3")
                .arg(DealText::stageName(m_pipeline.stages.at(i)).toHtmlEscaped(), count, valuesText(s, i)));
    }
    qint64 shown = 0, all = 0;
    for (int i = 0; i < m_pipeline.stages.size(); ++i) {
        all += s.stageCounts.value(i);
        const DealColumnModel *model = m_models.value(i);
        shown += model && model->filtered() ? model->total() : s.stageCounts.value(i);
    }
    updateEmptyState(shown, all);
    const QLocale locale;
    // One currency at a time, for the summary and the chart alike: the one the user picked while the
    // pipeline still has it, else the summary's reporting currency.
    QString currency = m_chartCurrency->currentText();
    {
        const QSignalBlocker block(m_chartCurrency);
        m_chartCurrency->clear();
        for (const CurrencyTotals &c : s.byCurrency)
            m_chartCurrency->addItem(c.currency);
        if (m_chartCurrency->findText(currency) < 0)
            currency = s.currency;
        m_chartCurrency->setCurrentIndex(qMax(0, m_chartCurrency->findText(currency)));
        m_chartCurrency->setVisible(m_chartCurrency->count() > 1);
    }
    const CurrencyTotals *totals = nullptr;
    qint64 openDeals = 0;
    for (const CurrencyTotals &c : s.byCurrency) {
        openDeals += c.totalDeals;
        if (c.currency == currency)
            totals = &c;
    }

    if (!totals) {
        m_summary->setText(tr("No open deals in this pipeline."));
    } else {
        const QString figures =
            tr("%1 %4 · weighted %2 %4 · average %3 %4")
                .arg(locale.toString(totals->totalValue, 'f', 0), locale.toString(totals->weightedValue, 'f', 0),
                     locale.toString(totals->avgDealSize, 'f', 0), totals->currency);
        // Amounts in different currencies are never added: with several, the figures are those of
        // the currency in the box, and the deal count says how many of the open deals they cover.
        m_summary->setText(s.byCurrency.size() > 1
                               ? tr("Open: %n deal(s); in %1 (%2): %3", nullptr, int(openDeals))
                                     .arg(totals->currency, locale.toString(totals->totalDeals), figures)
                               : tr("Open: %n deal(s) · %1", nullptr, int(openDeals)).arg(figures));
    }

    auto *chart = new QChart;
    chart->setTitle(currency.isEmpty() ? tr("Value per stage") : tr("Value per stage (%1)").arg(currency));
    chart->legend()->hide(); // one currency: the title names it
    chart->setMargins(QMargins(4, 2, 4, 2));
    auto *series = new QBarSeries(chart);
    auto *set = new QBarSet(currency, series);
    double max = 0;
    for (int i = 0; i < m_pipeline.stages.size(); ++i) {
        const double value = totals && i < totals->stages.size() ? totals->stages.at(i).value : 0;
        *set << value;
        max = qMax(max, value);
    }
    series->append(set);
    chart->addSeries(series);
    QStringList categories;
    for (const PipelineStage &st : std::as_const(m_pipeline.stages))
        categories << DealText::stageName(st);
    auto *x = new QBarCategoryAxis(chart);
    x->append(categories);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    // Round steps (1, 2 or 5 × 10ⁿ) labelled in the window's locale ("250 K", "1,5 M"), never a raw
    // 12194212 (an empty pipeline once read 1, 1, 1, 0, 0).
    const double raw = max > 0 ? max / 4 : 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double fraction = raw / magnitude;
    const double step = (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * magnitude;
    const int steps = qMax(1, int(std::ceil(max / step - 1e-9)));
    auto *y = new QCategoryAxis(chart);
    y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    y->setRange(0, steps * step);
    y->setStartValue(0);
    for (int i = 1; i <= steps; ++i)
        y->append(compactAmount(i * step, locale), i * step);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    connect(series, &QBarSeries::hovered, this,
            [this, totals = totals ? *totals : CurrencyTotals()](bool status, int index, QBarSet *) {
                if (!status || index < 0 || index >= totals.stages.size() || index >= m_pipeline.stages.size()) {
                    QToolTip::hideText();
                    return;
                }
                const StageTotals &st = totals.stages.at(index);
                QToolTip::showText(QCursor::pos(), tr("%1: %2 %3 in %n deal(s)", nullptr, int(st.count))
                                                       .arg(DealText::stageName(m_pipeline.stages.at(index)),
                                                            QLocale().toString(st.value, 'f', 0), totals.currency));
            });
    // The theme's colours: the base colour behind, the palette's text, the selection colour's bars.
    ChartTheme::applyToBars(chart, set, x, y);
    // The header is a few lines high: the amounts' scale is in the tooltips and the columns' headers,
    // not in labels the height cut to "…".
    y->setLabelsVisible(false);
    m_chart->setBackgroundBrush(UiKit::palette(UiKit::scheme()).color(QPalette::Window));
    QChart *old = m_chart->chart();
    m_chart->setChart(chart);
    delete old;
}

QString PipelineBoard::compactAmount(double value, const QLocale &locale)
{
    const double a = std::abs(value);
    if (a >= 1e6)
        return tr("%1 M", "millions").arg(locale.toString(value / 1e6, 'g', 3));
    if (a >= 1e4)
        return tr("%1 K", "thousands").arg(locale.toString(value / 1e3, 'g', 3));
    return locale.toString(value, 'f', 0);
}

void PipelineBoard::syncChartToggle()
{
    const QSignalBlocker block(m_chartToggle);
    m_chartToggle->setChecked(isChartVisible());
}

void PipelineBoard::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    syncChartToggle(); // the window's saved state may have folded the chart before it showed
    if (m_emptyState->isVisible())
        placeEmptyState(m_emptyState);
}

bool PipelineBoard::isChartVisible() const
{
    return m_splitter->sizes().value(ChartPane) > 0;
}

void PipelineBoard::setChartVisible(bool visible)
{
    QList<int> sizes = m_splitter->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    if (visible == isChartVisible() && total > 0) {
        const QSignalBlocker block(m_chartToggle);
        m_chartToggle->setChecked(visible);
        return;
    }
    if (!visible)
        m_chartHeight = qMax(m_chart->minimumHeight(), sizes.value(ChartPane));
    const int chart = visible ? qMin(m_chartHeight, qMax(m_chart->minimumHeight(), total / 3)) : 0;
    m_splitter->setSizes({chart, qMax(0, total - chart)}); // ChartPane, BoardPane
    if (total == 0 && !visible)                            // not laid out yet: hide outright until it is
        m_chart->setVisible(false);
    else
        m_chart->setVisible(true);
    const QSignalBlocker block(m_chartToggle);
    m_chartToggle->setChecked(visible); // the currency box stays: it picks the summary's currency too
}

bool PipelineBoard::showDeal(const QString &dealId)
{
    const std::optional<Deal> d = m_deals.find(dealId);
    if (!d || d->pipelineId != m_pipeline.id)
        return false;
    StageListView *view = column(d->stage);
    DealColumnModel *model = columnModel(d->stage);
    if (!view || !model)
        return false;
    // Bounded: a column reads pages as it is scrolled; a card far down is found within a few.
    for (int page = 0; page < 50; ++page) {
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->dealAt(row).id != dealId)
                continue;
            const QModelIndex index = model->index(row, 0);
            for (StageListView *other : std::as_const(m_views)) {
                if (other != view)
                    other->clearSelection();
            }
            view->setCurrentIndex(index);
            view->scrollTo(index, QAbstractItemView::EnsureVisible);
            view->setFocus();
            return true;
        }
        if (!model->canFetchMore({}))
            break;
        model->fetchMore({});
    }
    return false;
}

StageListView *PipelineBoard::column(const QString &stage) const
{
    for (StageListView *v : m_views) {
        if (v->stage() == stage)
            return v;
    }
    return nullptr;
}

DealColumnModel *PipelineBoard::columnModel(const QString &stage) const
{
    for (DealColumnModel *m : m_models) {
        if (m->stage() == stage)
            return m;
    }
    return nullptr;
}

QLabel *PipelineBoard::columnHeader(const QString &stage) const
{
    for (int i = 0; i < m_views.size(); ++i) {
        if (m_views.at(i)->stage() == stage)
            return m_headers.at(i);
    }
    return nullptr;
}

void PipelineBoard::moveDeal(const QString &dealId, const QString &stage)
{
    try {
        const Deal d = m_deals.get(dealId);
        if (d.stage == stage)
            return;
        const PipelineStage *target = m_pipeline.stage(stage);
        if (!target || d.pipelineId != m_pipeline.id)
            return;
        if (target->kind == QLatin1String("won") || target->kind == QLatin1String("lost")) {
            QDialog *dialog = target->kind == QLatin1String("won")
                                  ? static_cast<QDialog *>(new WonDialog(m_deals, dealId, this))
                                  : static_cast<QDialog *>(new LostDialog(m_deals, dealId, this));
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->setWindowModality(Qt::WindowModal);
            dialog->open();
            return;
        }
        m_deals.moveStage(dealId, stage);
    } catch (const DomainError &e) {
        warn(ErrorText::of(e));
    }
}

void PipelineBoard::openDeal(const QString &dealId)
{
    if (dealId.isEmpty())
        return;
    if (m_detail)
        m_detail->close();
    m_detail = new DealDetailDialog(m_deals, m_store, dealId, this, m_tasksTz);
    m_detail->setAttribute(Qt::WA_DeleteOnClose);
    m_detail->show();
}

void PipelineBoard::newDeal()
{
    auto *dialog = new DealEditDialog(m_deals, m_pipeline.id, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &DealEditDialog::dealSaved, this, [this](const QString &id) {
        const std::optional<Deal> d = m_deals.find(id);
        if (d && d->pipelineId != m_pipeline.id)
            showPipeline(d->pipelineId);
        else
            refresh();
        showDeal(id); // the new card, selected where it landed
    });
    m_edit = dialog;
    dialog->open();
}

void PipelineBoard::setPipelineEditing(bool allowed)
{
    m_editPipelines->setVisible(allowed);
    if (!allowed && m_editor)
        m_editor->reject();
}

void PipelineBoard::editPipelines()
{
    if (m_editPipelines->isHidden())
        return;
    auto *dialog = new PipelineEditorDialog(m_pipelines, m_pipeline.id, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_editor = dialog;
    dialog->open();
}

void PipelineBoard::warn(const QString &text)
{
    MessageBoxes::warn(this, tr("Deals"), text);
}

bool PipelineBoard::exportTo(const QString &path)
{
    DealQuery q;
    q.pipelineId = m_pipeline.id;
    q.search = m_search->text().trimmed();
    q.assignedTo = m_mine->isChecked() ? m_store.actorOr({}) : QString();
    QString error;
    try {
        error = writeCsvFile(path, m_deals.exportCsv(q));
    } catch (const std::exception &e) {
        error = ErrorText::of(e);
    }
    if (!error.isEmpty()) {
        MessageBoxes::warn(this, tr("Export deals to CSV"),
                           tr("%1 was not saved: %2").arg(QFileInfo(path).fileName(), error));
        return false;
    }
    return true;
}

ImportDialog *PipelineBoard::importDeals()
{
    ImportTarget target;
    target.objectName = QStringLiteral("dealImportDialog");
    target.title = tr("Import deals into %1").arg(m_pipeline.name);
    target.duplicateRule = tr("A deal with the same name and contact exists in this pipeline:");
    target.fields = DealImporter::fields();
    target.label = [](const QString &key) {
        return key == QLatin1String("contactEmail") ? tr("Contact's e-mail") : ErrorText::fieldLabel(key);
    };
    target.customFields = true;
    target.duplicates = {CsvImport::Duplicates::Skip, CsvImport::Duplicates::Update, CsvImport::Duplicates::Create};
    const QString pipelineId = m_pipeline.id;
    const Store store = m_store;
    target.check = [store, pipelineId](const QStringList &row, const CsvImport::Mapping &mapping) {
        DealImporter(store).rowBody(row, mapping, pipelineId);
    };
    target.run = [pipelineId](const Store &workerStore, const Csv::Table &table, const CsvImport::Mapping &mapping,
                              CsvImport::Duplicates duplicates, const QString &actor,
                              const std::function<bool(const CsvImport::Report &)> &progress) {
        return DealImporter(workerStore).run(table, mapping, duplicates, progress, actor, pipelineId);
    };
    auto *dialog = new ImportDialog(std::move(target), m_store, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    return dialog;
}
