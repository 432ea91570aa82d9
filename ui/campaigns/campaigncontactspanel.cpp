#include "ui/campaigns/campaigncontactspanel.h"

#include "ui/campaigns/campaignstatspanel.h"
#include "ui/campaigns/campaigntext.h"
#include "ui/shell/pagerbar.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

CampaignContactsPanel::CampaignContactsPanel(CampaignRepository &campaigns, QWidget *parent)
    : QWidget(parent)
    , m_campaigns(campaigns)
{
    setObjectName(QStringLiteral("campaignContactsPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::S, UiKit::Space::S, UiKit::Space::S, UiKit::Space::S);
    auto *top = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("enrolmentSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_status = new QComboBox(this);
    m_status->setObjectName(QStringLiteral("enrolmentStatusFilter"));
    m_status->setAccessibleName(tr("Contact status"));
    m_status->addItem(tr("Any status"), QString());
    for (const char *s : {"active", "completed", "exited"})
        m_status->addItem(CampaignText::enrolmentStatus(QLatin1String(s)), QLatin1String(s));
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("enrolmentSearch"));
    m_search->setPlaceholderText(tr("Search contacts by name…"));
    m_search->setAccessibleName(tr("Search contacts by name"));
    m_search->setClearButtonEnabled(true);
    // Wide enough for its hint in the window's language, and its clear button.
    m_search->setMinimumWidth(m_search->fontMetrics().horizontalAdvance(m_search->placeholderText()) +
                              4 * UiKit::Space::M);
    top->addWidget(m_summary, 1);
    top->addWidget(m_search);
    top->addWidget(m_status);
    layout->addLayout(top);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("enrolmentSplitter"));
    split->setChildrenCollapsible(false);
    m_table = UiKit::recordTable(ColumnCount, {tr("Name"), tr("Status"), tr("Next step"), tr("Came from"), tr("Sent")},
                                 QStringLiteral("enrolmentsTable"), split);
    m_table->setAccessibleName(tr("Contacts of the campaign"));
    m_table->horizontalHeaderItem(StepsColumn)->setToolTip(tr("Steps sent to the contact of the campaign's steps"));
    {
        // The state with its reason, the step and the time whole, in the window's language.
        const QFontMetrics fm(m_table->font());
        int status = 0;
        for (const char *r :
             {"unsubscribed", "bounced", "replied", "deal_won", "contact_deleted", "no_address", "cancelled"})
            status = qMax(
                status, fm.horizontalAdvance(tr("%1 (%2)").arg(CampaignText::enrolmentStatus(QStringLiteral("exited")),
                                                               CampaignText::exitReason(QLatin1String(r)))));
        int source = 0;
        for (const char *s :
             {"audience", "contact.created", "contact.tagged", "deal.stage_changed", "message.received"})
            source = qMax(source, fm.horizontalAdvance(CampaignText::enrolmentSource(QLatin1String(s))));
        const QString when = UiKit::localTime(QStringLiteral("2026-12-31T23:59:00.000Z"));
        const int pad = 3 * UiKit::Space::S;
        QHeaderView *header = m_table->horizontalHeader();
        header->resizeSection(NameColumn, 150);
        for (auto [column, width] :
             {std::pair{int(StatusColumn), status},
              {int(NextStepColumn), fm.horizontalAdvance(tr("%1 · %2").arg(CampaignText::step(19), when))},
              {int(SourceColumn), source}})
            header->resizeSection(column, qMax(width + pad, header->sectionSizeHint(column)));
    }
    installEmptyHint(m_table, tr("No contacts yet: they enter once the campaign runs, a drip's from its segment, a "
                                 "triggered one's as its event happens."));

    auto *stepsBox = new QWidget(split);
    auto *stepsLayout = new QVBoxLayout(stepsBox);
    stepsLayout->setContentsMargins(0, 0, 0, 0);
    m_stepsTitle = new QLabel(stepsBox);
    m_stepsTitle->setObjectName(QStringLiteral("enrolmentStepsTitle"));
    m_stepsTitle->setTextFormat(Qt::PlainText);
    UiKit::setTone(m_stepsTitle, UiKit::Tone::Muted);
    m_stepsTable =
        UiKit::recordTable(StepColumnCount, {tr("Step"), tr("Status"), tr("Sent"), tr("Opened"), tr("Clicked")},
                           QStringLiteral("enrolmentStepsTable"), stepsBox);
    m_stepsTable->setAccessibleName(tr("Steps sent to the contact"));
    {
        const QFontMetrics fm(m_stepsTable->font());
        const int time = fm.horizontalAdvance(UiKit::localTime(QStringLiteral("2026-12-31T23:59:00.000Z")));
        const int pad = 3 * UiKit::Space::S;
        QHeaderView *header = m_stepsTable->horizontalHeader();
        header->resizeSection(StepNumberColumn, qMax(fm.horizontalAdvance(CampaignText::step(19)) + pad,
                                                     header->sectionSizeHint(StepNumberColumn)));
        int status = 0;
        for (const char *st : {"pending", "sending", "sent", "delivered", "bounced", "failed", "skipped"})
            status = qMax(status, fm.horizontalAdvance(CampaignText::recipientStatus(QLatin1String(st))));
        header->resizeSection(StepStatusColumn, qMax(status + pad, header->sectionSizeHint(StepStatusColumn)));
        for (int column = StepSentColumn; column <= StepClickedColumn; ++column)
            header->resizeSection(column, qMax(time + pad, header->sectionSizeHint(column)));
    }
    m_stepsHint = installEmptyHint(m_stepsTable, tr("Choose a contact to see the steps sent to it."));
    stepsLayout->addWidget(m_stepsTitle);
    stepsLayout->addWidget(m_stepsTable, 1);
    split->addWidget(m_table);
    split->addWidget(stepsBox);
    // The contacts whole first (their columns and the scroll bar), the chosen one's steps in the
    // rest: a wider window widens the steps (the user's drag, kept by WindowState, then wins).
    const int contactsWidth = m_table->horizontalHeader()->length() +
                              m_table->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 2 * m_table->frameWidth() +
                              UiKit::Space::S;
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({contactsWidth, 300});
    layout->addWidget(split, 1);

    auto *paging = new QHBoxLayout;
    m_pager = new PagerBar(QStringLiteral("enrolments"), PageSize, this);
    paging->addStretch(1);
    paging->addWidget(m_pager);
    layout->addLayout(paging);

    connect(m_status, &QComboBox::currentIndexChanged, m_pager, &PagerBar::restart);
    // A search as one types, once the typing pauses.
    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(SearchDelayMs);
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchTimer.start(); });
    connect(&m_searchTimer, &QTimer::timeout, m_pager, &PagerBar::restart);
    connect(m_pager, &PagerBar::pageChanged, this, &CampaignContactsPanel::refresh);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &CampaignContactsPanel::showSteps);
    refresh();
}

void CampaignContactsPanel::showCampaign(const QString &campaignId)
{
    if (campaignId != m_id) {
        m_pager->reset();
        m_table->clearSelection();
    }
    m_id = campaignId;
    refresh();
}

void CampaignContactsPanel::refresh()
{
    EnrolmentPage page;
    m_campaign = {};
    EnrolmentCounts counts;
    QString error;
    if (!m_id.isEmpty()) {
        EnrolmentQuery q;
        q.page = m_pager->page();
        q.limit = PageSize;
        if (!m_status->currentData().toString().isEmpty())
            q.statuses = {m_status->currentData().toString()};
        q.search = m_search->text().trimmed();
        try {
            m_campaign = m_campaigns.get(m_id);
            counts = m_campaigns.enrolmentCountsOf({m_campaign}).value(m_id);
            page = m_campaigns.enrolments(m_id, q);
            if (m_pager->clampTo(page.total)) { // fewer now than when the page was chosen
                q.page = m_pager->page();
                page = m_campaigns.enrolments(m_id, q);
            }
        } catch (const std::exception &e) {
            error = ErrorText::of(e);
            page = {};
        }
    }
    const QString keep = UiKit::selectedId(m_table);
    m_rows = page.items;
    m_total = page.total;
    {
        const QSignalBlocker block(m_table->selectionModel());
        m_table->setRowCount(0);
        m_table->setRowCount(int(m_rows.size()));
        const int stepCount = int(m_campaign.steps.size());
        for (int row = 0; row < m_rows.size(); ++row) {
            const CampaignEnrolment &e = m_rows.at(row);
            QString status = CampaignText::enrolmentStatus(e.status);
            if (!e.exitReason.isEmpty())
                status = tr("%1 (%2)").arg(status, CampaignText::exitReason(e.exitReason));
            const bool active = e.status == QLatin1String("active");
            auto *name = UiKit::tableItem(e.name.isEmpty() ? tr("(deleted contact)") : e.name, e.contactId);
            auto *state = UiKit::tableItem(status);
            if (e.status == QLatin1String("exited"))
                state->setForeground(UiKit::color(UiKit::Tone::Muted));
            auto *source = UiKit::tableItem(CampaignText::enrolmentSource(e.source));
            source->setToolTip(
                e.source == QLatin1String("audience")
                    ? tr("A member of the campaign's segment; entered %1").arg(UiKit::localTime(e.enteredAt))
                    : tr("%1; entered %2").arg(CampaignText::triggerEvent(e.source), UiKit::localTime(e.enteredAt)));
            QStringList sentSteps;
            for (const CampaignRecipient &r : e.steps)
                sentSteps << tr("%1: %2").arg(CampaignText::step(r.step), CampaignRecipientsPanel::statusText(r));
            auto *steps = UiKit::tableItem(stepCount > 0 ? tr("%1 / %2").arg(e.steps.size()).arg(stepCount)
                                                         : QString::number(e.steps.size()));
            steps->setToolTip(sentSteps.join(QLatin1Char('\n')));
            steps->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, NameColumn, name);
            m_table->setItem(row, StatusColumn, state);
            m_table->setItem(
                row, NextStepColumn,
                UiKit::tableItem(active ? tr("%1 · %2").arg(CampaignText::step(e.nextStep), UiKit::localTime(e.nextAt))
                                        : QString()));
            m_table->setItem(row, SourceColumn, source);
            m_table->setItem(row, StepsColumn, steps);
        }
        UiKit::reselect(m_table, keep); // the first contact's steps shown at once
    }
    m_summary->setText(!error.isEmpty() ? error
                       : m_id.isEmpty() ? QString()
                                        : CampaignText::enrolmentSummary(counts.total, counts.active, counts.completed,
                                                                         counts.exited));
    UiKit::setTone(m_summary, error.isEmpty() ? UiKit::Tone::Normal : UiKit::Tone::Danger);
    m_pager->showRange(m_rows.size(), page.total);
    showSteps();
}

void CampaignContactsPanel::showSteps()
{
    const QString id = UiKit::selectedId(m_table);
    const CampaignEnrolment *chosen = nullptr;
    for (const CampaignEnrolment &e : std::as_const(m_rows)) {
        if (!id.isEmpty() && e.contactId == id)
            chosen = &e;
    }
    m_stepsTitle->setText(
        chosen ? tr("Steps sent to %1").arg(chosen->name.isEmpty() ? tr("(deleted contact)") : chosen->name)
               : tr("Steps sent"));
    m_stepsHint->setText(chosen ? tr("No step has been sent to this contact yet.")
                                : tr("Choose a contact to see the steps sent to it."));
    m_stepsTable->setRowCount(0);
    if (!chosen)
        return;
    m_stepsTable->setRowCount(int(chosen->steps.size()));
    for (int row = 0; row < chosen->steps.size(); ++row) {
        const CampaignRecipient &r = chosen->steps.at(row);
        auto *step = UiKit::tableItem(CampaignText::step(r.step), r.id);
        if (r.step >= 0 && r.step < m_campaign.steps.size() && !m_campaign.steps.at(r.step).subject.isEmpty())
            step->setToolTip(m_campaign.steps.at(r.step).subject);
        m_stepsTable->setItem(row, StepNumberColumn, step);
        m_stepsTable->setItem(row, StepStatusColumn, UiKit::tableItem(CampaignRecipientsPanel::statusText(r)));
        m_stepsTable->setItem(row, StepSentColumn, UiKit::tableItem(UiKit::localTime(r.sentAt)));
        m_stepsTable->setItem(row, StepOpenedColumn, UiKit::tableItem(UiKit::localTime(r.openedAt)));
        m_stepsTable->setItem(row, StepClickedColumn, UiKit::tableItem(UiKit::localTime(r.clickedAt)));
    }
}
