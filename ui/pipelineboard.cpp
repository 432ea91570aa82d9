#include "pipelineboard.h"

#include "dealcarddelegate.h"
#include "dealcolumnmodel.h"
#include "dealdialogs.h"
#include "dealeditdialog.h"
#include "errors.h"
#include "eventbus.h"
#include "messageboxes.h"
#include "pipelineeditor.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

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

PipelineBoard::PipelineBoard(EventBus &bus, QWidget *parent)
    : QWidget(parent)
    , m_deals(&bus)
    , m_pipelines(&bus)
    , m_bus(bus)
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
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Pipeline:"), this));
    top->addWidget(m_pipelineCombo);
    top->addSpacing(16);
    top->addWidget(m_summary, 1);
    auto *newDeal = new QPushButton(tr("New deal…"), this);
    newDeal->setObjectName(QStringLiteral("newDealButton"));
    auto *editPipelines = new QPushButton(tr("Edit pipelines…"), this);
    editPipelines->setObjectName(QStringLiteral("editPipelinesButton"));
    top->addWidget(newDeal);
    top->addWidget(editPipelines);
    connect(newDeal, &QPushButton::clicked, this, &PipelineBoard::newDeal);
    connect(editPipelines, &QPushButton::clicked, this, &PipelineBoard::editPipelines);

    m_columnsHost = new QWidget(this);
    m_columnsLayout = new QHBoxLayout(m_columnsHost);
    m_columnsLayout->setContentsMargins(4, 4, 4, 4);
    m_columnsLayout->setSpacing(8);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_columnsHost);
    scroll->setFrameShape(QFrame::NoFrame);

    m_chart = new QChartView(this);
    m_chart->setObjectName(QStringLiteral("pipelineChart"));
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumHeight(160);
    // A compact header under the board: the columns keep most of the height.
    m_chart->setMaximumHeight(260);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("boardSplitter"));
    splitter->addWidget(scroll);
    splitter->addWidget(m_chart);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);
    splitter->setCollapsible(0, false);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(100);
    connect(m_refreshTimer, &QTimer::timeout, this, &PipelineBoard::refresh);
    connect(&bus, &EventBus::changed, this, [this](const QString &entity, const QString &, const QString &) {
        if (entity == QLatin1String("pipeline")) {
            reloadPipelines();
        } else if (entity == QLatin1String("deal") || entity == QLatin1String("contact")) {
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

void PipelineBoard::showPipeline(const QString &pipelineId)
{
    const std::optional<Pipeline> p = m_pipelines.find(pipelineId);
    if (!p)
        return;
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
    auto *delegate = new DealCardDelegate(m_columnsHost);
    for (const PipelineStage &stage : std::as_const(m_pipeline.stages)) {
        auto *frame = new QFrame(m_columnsHost);
        frame->setFrameShape(QFrame::StyledPanel);
        frame->setMinimumWidth(220);
        frame->setMaximumWidth(320);
        auto *v = new QVBoxLayout(frame);
        v->setContentsMargins(4, 4, 4, 4);
        auto *header = new QLabel(frame);
        header->setTextFormat(Qt::RichText); // updateHeadersAndChart() escapes the stage name
        header->setObjectName(QStringLiteral("stageHeader_") + stage.key);
        header->setWordWrap(true);
        auto *view = new StageListView(stage.key, frame);
        auto *model = new DealColumnModel(m_deals, m_pipeline.id, stage.key, view);
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
    updateHeadersAndChart();
}

void PipelineBoard::refresh()
{
    m_refreshTimer->stop();
    for (DealColumnModel *m : std::as_const(m_models))
        m->reload();
    updateHeadersAndChart();
}

void PipelineBoard::updateHeadersAndChart()
{
    if (m_pipeline.id.isEmpty())
        return;
    const PipelineSummary s = m_deals.summary(m_pipeline.id);
    for (int i = 0; i < m_headers.size() && i < m_pipeline.stages.size(); ++i) {
        m_headers[i]->setText(tr("<b>%1</b> · %2<br>%3")
                                  .arg(DealText::stageName(m_pipeline.stages.at(i)).toHtmlEscaped())
                                  .arg(s.stageCounts.value(i))
                                  .arg(valuesText(s, i)));
    }
    const QLocale locale;
    if (s.currency.isEmpty()) {
        m_summary->setText(tr("No deals in this pipeline yet."));
    } else {
        QString text = tr("Open: %1 deals · %2 %5 · weighted %3 %5 · average %4 %5")
                           .arg(s.reporting.totalDeals)
                           .arg(locale.toString(s.reporting.totalValue, 'f', 0),
                                locale.toString(s.reporting.weightedValue, 'f', 0),
                                locale.toString(s.reporting.avgDealSize, 'f', 0), s.currency);
        if (s.byCurrency.size() > 1)
            text += tr(" (other currencies are shown per column)");
        m_summary->setText(text);
    }

    auto *chart = new QChart;
    chart->setTitle(tr("Value per stage"));
    chart->legend()->setAlignment(Qt::AlignRight);
    auto *series = new QBarSeries(chart);
    double max = 0;
    for (const CurrencyTotals &c : s.byCurrency) {
        auto *set = new QBarSet(c.currency, series);
        for (const StageTotals &st : c.stages) {
            *set << st.value;
            max = qMax(max, st.value);
        }
        series->append(set);
    }
    chart->addSeries(series);
    QStringList categories;
    for (const PipelineStage &st : std::as_const(m_pipeline.stages))
        categories << DealText::stageName(st);
    auto *x = new QBarCategoryAxis(chart);
    x->append(categories);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto *y = new QValueAxis(chart);
    // Round ticks (an empty pipeline once read 1, 1, 1, 0, 0 with %.0f over 0..1).
    y->setRange(0, max > 0 ? max * 1.1 : 4);
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    QChart *old = m_chart->chart();
    m_chart->setChart(chart);
    delete old;
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
        warn(e.message());
    }
}

void PipelineBoard::openDeal(const QString &dealId)
{
    if (dealId.isEmpty())
        return;
    if (m_detail)
        m_detail->close();
    m_detail = new DealDetailDialog(m_deals, m_bus, dealId, this, m_tasksTz);
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
    });
    m_edit = dialog;
    dialog->open();
}

void PipelineBoard::editPipelines()
{
    auto *dialog = new PipelineEditorDialog(m_pipelines, m_pipeline.id, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_editor = dialog;
    dialog->open();
}

void PipelineBoard::warn(const QString &text)
{
    MessageBoxes::warn(this, tr("Deals"), text);
}
