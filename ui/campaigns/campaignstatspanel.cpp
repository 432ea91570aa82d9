#include "ui/campaigns/campaignstatspanel.h"

#include "ui/campaigns/campaigntext.h"
#include "ui/shell/pagerbar.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include "ui/shell/charttheme.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

CampaignStatsPanel::CampaignStatsPanel(CampaignRepository &campaigns, QWidget *parent)
    : QWidget(parent)
    , m_campaigns(campaigns)
{
    setObjectName(QStringLiteral("campaignStatsPanel"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::S, UiKit::Space::S, UiKit::Space::S, UiKit::Space::S);

    auto *left = new QVBoxLayout;
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("statsTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_title->setWordWrap(true);
    UiKit::setType(m_title, UiKit::Type::Emphasis);
    left->addWidget(m_title);
    auto *grid = new QGridLayout;
    grid->setHorizontalSpacing(UiKit::Space::M);
    grid->setVerticalSpacing(UiKit::Space::XS);
    // Two columns of figures: the counts, then the rates.
    const struct
    {
        const char *key;
        const char *label;
        const char *tip;
    } figures[] = {
        {"total", QT_TR_NOOP("Audience"), QT_TR_NOOP("The contacts of the frozen audience, skipped ones included")},
        {"sent", QT_TR_NOOP("Sent"), QT_TR_NOOP("Handed to the provider")},
        {"delivered", QT_TR_NOOP("Delivered"), QT_TR_NOOP("Sent and not bounced (SMS, WhatsApp: reported delivered)")},
        {"opened", QT_TR_NOOP("Opened"), QT_TR_NOOP("Opened by a person or clicked; mail providers' proxies apart")},
        {"clicked", QT_TR_NOOP("Clicked"), QT_TR_NOOP("Clicked a link")},
        {"bounced", QT_TR_NOOP("Bounced"), QT_TR_NOOP("Refused by the receiving server, for good or for now")},
        {"unsubscribed", QT_TR_NOOP("Unsubscribed"), QT_TR_NOOP("Unsubscribed through this campaign")},
        {"skipped", QT_TR_NOOP("Skipped"),
         QT_TR_NOOP("Left out: no address, unsubscribed, bounced before or a duplicate address")},
        {"failed", QT_TR_NOOP("Failed"), QT_TR_NOOP("Could not be sent")},
        {"pending", QT_TR_NOOP("Waiting"), QT_TR_NOOP("Not sent yet")},
        {"deliveryRate", QT_TR_NOOP("Delivery rate"), QT_TR_NOOP("Delivered of sent")},
        {"openRate", QT_TR_NOOP("Open rate"), QT_TR_NOOP("Opened of delivered")},
        {"clickRate", QT_TR_NOOP("Click rate"), QT_TR_NOOP("Clicked of delivered")},
    };
    int row = 0;
    int column = 0;
    for (const auto &f : figures) {
        const QString key = QLatin1String(f.key);
        if (key == QLatin1String("deliveryRate")) {
            row = 0;
            column = 2;
        }
        auto *name = new QLabel(tr(f.label), this);
        name->setToolTip(tr(f.tip));
        UiKit::setTone(name, UiKit::Tone::Muted);
        auto *value = new QLabel(this);
        value->setObjectName(QStringLiteral("figure_") + key);
        value->setToolTip(tr(f.tip));
        value->setAccessibleName(tr(f.label));
        value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        UiKit::setType(value, UiKit::Type::Emphasis);
        grid->addWidget(name, row, column);
        grid->addWidget(value, row, column + 1);
        m_figures.insert(key, value);
        m_names.insert(key, name);
        ++row;
    }
    grid->setColumnMinimumWidth(2, UiKit::Space::L);
    grid->setColumnStretch(4, 1);
    left->addLayout(grid);
    m_reason = new QLabel(this);
    m_reason->setObjectName(QStringLiteral("statsReason"));
    m_reason->setTextFormat(Qt::PlainText);
    m_reason->setWordWrap(true);
    left->addWidget(m_reason);
    left->addStretch(1);
    layout->addLayout(left, 2);

    m_chart = new QChartView(this);
    m_chart->setObjectName(QStringLiteral("campaignFunnel"));
    m_chart->setAccessibleName(tr("Funnel"));
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumSize(260, 160);
    layout->addWidget(m_chart, 3);
    showCampaign({});
}

void CampaignStatsPanel::showCampaign(const QString &campaignId)
{
    m_id = campaignId;
    refresh();
}

void CampaignStatsPanel::refresh()
{
    CampaignStats s;
    Campaign c;
    m_reason->clear();
    if (!m_id.isEmpty()) {
        try {
            c = m_campaigns.get(m_id);
            s = m_campaigns.stats(m_id);
        } catch (const std::exception &e) {
            m_reason->setText(ErrorText::of(e));
            c = {};
            s = {};
        }
    }
    m_title->setText(c.id.isEmpty() ? tr("Choose a campaign to see its statistics.")
                                    : tr("%1 · %2").arg(c.name, CampaignText::status(c.status, c.type)));
    const QLocale locale;
    const QHash<QString, qint64> counts{{QStringLiteral("total"), s.total},
                                        {QStringLiteral("sent"), s.sent},
                                        {QStringLiteral("delivered"), s.delivered},
                                        {QStringLiteral("opened"), s.opened},
                                        {QStringLiteral("clicked"), s.clicked},
                                        {QStringLiteral("bounced"), s.bounced},
                                        {QStringLiteral("unsubscribed"), s.unsubscribed},
                                        {QStringLiteral("skipped"), s.skipped},
                                        {QStringLiteral("failed"), s.failed},
                                        {QStringLiteral("pending"), s.pending}};
    for (auto it = counts.begin(); it != counts.end(); ++it)
        m_figures.value(it.key())->setText(c.id.isEmpty() ? QStringLiteral("–") : locale.toString(it.value()));
    const QHash<QString, double> rates{{QStringLiteral("deliveryRate"), s.deliveryRate()},
                                       {QStringLiteral("openRate"), s.openRate()},
                                       {QStringLiteral("clickRate"), s.clickRate()}};
    for (auto it = rates.begin(); it != rates.end(); ++it)
        m_figures.value(it.key())->setText(c.id.isEmpty() ? QStringLiteral("–") : CampaignText::percent(it.value()));
    QStringList notes;
    if (!c.id.isEmpty() && c.type != QLatin1String("BROADCAST")) {
        // A drip's figures count its messages (one per contact and step); its contacts apart.
        EnrolmentCounts n;
        try {
            n = m_campaigns.enrolmentCountsOf({c}).value(c.id);
        } catch (const std::exception &) {
            n = {};
        }
        notes << tr("%1.").arg(CampaignText::enrolmentSummary(n.total, n.active, n.completed, n.exited));
    }
    QStringList skipped;
    for (auto it = c.skipped.begin(); it != c.skipped.end(); ++it) {
        if (it.value().toInteger() > 0)
            skipped << tr("%1 %2").arg(locale.toString(it.value().toInteger()), CampaignText::skipReason(it.key()));
    }
    if (!skipped.isEmpty())
        notes << tr("Skipped: %1.").arg(skipped.join(QStringLiteral(", ")));
    if (s.proxyOpens > 0)
        notes << tr("%n open(s) by mail providers' proxies not counted.", nullptr,
                    int(qMin<qint64>(s.proxyOpens, INT_MAX)));
    if (!c.statusReason.isEmpty())
        notes << tr("Why: %1").arg(c.statusReason);
    if (m_reason->text().isEmpty())
        m_reason->setText(notes.join(QLatin1Char(' ')));
    // A drip's or trigger's figures count its messages, one per contact and step: its first
    // figure and bar say so.
    const bool steps = !c.id.isEmpty() && c.type != QLatin1String("BROADCAST");
    const QString first = steps ? tr("Messages") : tr("Audience");
    const QString firstTip = steps ? tr("One message per contact and step released, skipped ones included")
                                   : tr("The contacts of the frozen audience, skipped ones included");
    for (QLabel *label : {m_names.value(QStringLiteral("total")), m_figures.value(QStringLiteral("total"))})
        label->setToolTip(firstTip);
    m_names.value(QStringLiteral("total"))->setText(first);
    m_figures.value(QStringLiteral("total"))->setAccessibleName(first);
    drawFunnel(s, first);
}

void CampaignStatsPanel::drawFunnel(const CampaignStats &s, const QString &first)
{
    m_funnel = {s.total, s.sent, s.delivered, s.opened, s.clicked};
    const QStringList names{first, tr("Sent"), tr("Delivered"), tr("Opened"), tr("Clicked")};
    auto *chart = new QChart;
    chart->setTitle(tr("Funnel"));
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 2, 4, 2));
    auto *series = new QHorizontalBarSeries(chart);
    auto *set = new QBarSet(tr("Recipients"), series);
    // Drawn from the bottom up: the audience on top.
    QStringList categories;
    qint64 max = 0;
    for (int i = m_funnel.size() - 1; i >= 0; --i) {
        *set << double(m_funnel.at(i));
        categories << names.at(i);
        max = qMax(max, m_funnel.at(i));
    }
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsInsideBase);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(12);
    chart->addSeries(series);
    auto *y = new QBarCategoryAxis(chart);
    y->append(categories);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    auto *x = new QValueAxis(chart);
    x->setRange(0, qMax<qint64>(1, max));
    x->setLabelsVisible(false);
    x->setGridLineVisible(false);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    ChartTheme::applyToBars(chart, set, x, y);
    const QPalette pal = UiKit::palette(UiKit::scheme());
    set->setLabelColor(pal.color(QPalette::HighlightedText));
    m_chart->setBackgroundBrush(pal.color(QPalette::Window));
    QChart *old = m_chart->chart();
    m_chart->setChart(chart);
    delete old;
}

CampaignRecipientsPanel::CampaignRecipientsPanel(CampaignRepository &campaigns, QWidget *parent)
    : QWidget(parent)
    , m_campaigns(campaigns)
{
    setObjectName(QStringLiteral("campaignRecipientsPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::S, UiKit::Space::S, UiKit::Space::S, UiKit::Space::S);
    auto *filters = new QHBoxLayout;
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("recipientSearch"));
    m_search->setPlaceholderText(tr("Search by address or name…"));
    m_search->setAccessibleName(tr("Search recipients"));
    m_search->setClearButtonEnabled(true);
    m_status = new QComboBox(this);
    m_status->setObjectName(QStringLiteral("recipientStatusFilter"));
    m_status->setAccessibleName(tr("Recipient status"));
    m_status->addItem(tr("Any status"), QString());
    for (const char *s : {"pending", "sending", "sent", "delivered", "bounced", "failed", "skipped"})
        m_status->addItem(CampaignText::recipientStatus(QLatin1String(s)), QLatin1String(s));
    m_test = new QCheckBox(tr("Test sends"), this);
    m_test->setObjectName(QStringLiteral("recipientTestToggle"));
    m_test->setToolTip(tr("Show the test sends instead of the audience"));
    filters->addWidget(m_search, 1);
    filters->addWidget(m_status);
    filters->addWidget(m_test);
    layout->addLayout(filters);

    m_table = UiKit::recordTable(
        ColumnCount,
        {tr("Address"), tr("Name"), tr("Step"), tr("Status"), tr("Sent"), tr("Opened"), tr("Clicked"), tr("Error")},
        QStringLiteral("recipientsTable"), this);
    m_table->setAccessibleName(tr("Recipients"));
    m_table->horizontalHeader()->resizeSection(AddressColumn, 220);
    m_table->horizontalHeader()->resizeSection(NameColumn, 160);
    {
        // The step, the status and the times whole, in the window's language.
        const QFontMetrics fm(m_table->font());
        int status = 0;
        for (const char *s : {"pending", "sending", "sent", "delivered", "bounced", "failed", "skipped"})
            status = qMax(status, fm.horizontalAdvance(
                                      tr("%1 (%2)").arg(CampaignText::recipientStatus(QLatin1String(s)), tr("soft"))));
        const int time = fm.horizontalAdvance(UiKit::localTime(QStringLiteral("2026-12-31T23:59:00.000Z")));
        QHeaderView *header = m_table->horizontalHeader();
        header->resizeSection(StepColumn, qMax(fm.horizontalAdvance(CampaignText::step(19)) + 3 * UiKit::Space::S,
                                               header->sectionSizeHint(StepColumn)));
        header->resizeSection(StatusColumn, qMax(status + 3 * UiKit::Space::S, header->sectionSizeHint(StatusColumn)));
        for (int column = SentColumn; column <= ClickedColumn; ++column)
            header->resizeSection(column, qMax(time + 3 * UiKit::Space::S, header->sectionSizeHint(column)));
    }
    m_table->setColumnHidden(StepColumn, true);

    installEmptyHint(m_table, tr("No recipients here yet: the audience is taken when the campaign starts."));
    layout->addWidget(m_table, 1);

    auto *paging = new QHBoxLayout;
    m_pager = new PagerBar(QStringLiteral("recipients"), PageSize, this);
    paging->addStretch(1);
    paging->addWidget(m_pager);
    layout->addLayout(paging);

    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(SearchDelayMs);
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchTimer.start(); });
    connect(&m_searchTimer, &QTimer::timeout, m_pager, &PagerBar::restart);
    connect(m_status, &QComboBox::currentIndexChanged, m_pager, &PagerBar::restart);
    connect(m_test, &QCheckBox::toggled, m_pager, &PagerBar::restart);
    connect(m_pager, &PagerBar::pageChanged, this, &CampaignRecipientsPanel::refresh);
    refresh();
}

QString CampaignRecipientsPanel::statusText(const CampaignRecipient &r)
{
    const QString status = CampaignText::recipientStatus(r.status);
    if (!r.skipReason.isEmpty())
        return tr("%1 (%2)").arg(status, CampaignText::skipReason(r.skipReason));
    if (!r.bounceType.isEmpty())
        return tr("%1 (%2)").arg(status, r.bounceType == QLatin1String("hard") ? tr("hard") : tr("soft"));
    return status;
}

void CampaignRecipientsPanel::showCampaign(const QString &campaignId)
{
    if (campaignId != m_id)
        m_pager->reset();
    m_id = campaignId;
    refresh();
}

void CampaignRecipientsPanel::refresh()
{
    m_searchTimer.stop();
    RecipientPage page;
    if (!m_id.isEmpty()) {
        RecipientQuery q;
        q.page = m_pager->page();
        q.limit = PageSize;
        q.search = m_search->text().trimmed().left(200);
        if (!m_status->currentData().toString().isEmpty())
            q.statuses = {m_status->currentData().toString()};
        q.test = m_test->isChecked();
        try {
            page = m_campaigns.recipients(m_id, q);
            if (m_pager->clampTo(page.total)) { // fewer now than when the page was chosen
                q.page = m_pager->page();
                page = m_campaigns.recipients(m_id, q);
            }
        } catch (const std::exception &) {
            page = {};
        }
    }
    const QString keep = UiKit::selectedId(m_table);
    m_total = page.total;
    m_table->setRowCount(0);
    m_table->setRowCount(int(page.items.size()));
    bool steps = false; // a drip's or trigger's rows: their step shown
    for (int row = 0; row < page.items.size(); ++row) {
        const CampaignRecipient &r = page.items.at(row);
        const QString status = statusText(r);
        m_table->setItem(row, AddressColumn, UiKit::tableItem(r.address, r.id));
        m_table->setItem(row, NameColumn, UiKit::tableItem(r.name));
        m_table->setItem(row, StepColumn, UiKit::tableItem(r.step >= 0 ? CampaignText::step(r.step) : QString()));
        m_table->setItem(row, StatusColumn, UiKit::tableItem(status));
        m_table->setItem(row, SentColumn, UiKit::tableItem(UiKit::localTime(r.sentAt)));
        m_table->setItem(row, OpenedColumn, UiKit::tableItem(UiKit::localTime(r.openedAt)));
        m_table->setItem(row, ClickedColumn, UiKit::tableItem(UiKit::localTime(r.clickedAt)));
        m_table->setItem(row, ErrorColumn, UiKit::tableItem(r.error));
        steps = steps || r.step >= 0;
    }
    m_table->setColumnHidden(StepColumn, !steps);
    if (!keep.isEmpty()) {
        for (int row = 0; row < m_table->rowCount(); ++row) {
            if (m_table->item(row, 0)->data(UiKit::IdRole).toString() == keep)
                m_table->selectRow(row);
        }
    }
    m_pager->showRange(page.items.size(), page.total);
}
