#include "ui/campaigns/campaignsview.h"

#include "model/core/errors.h"
#include "model/core/timeutil.h"
#include "ui/campaigns/campaigncontactspanel.h"
#include "ui/campaigns/campaigneditor.h"
#include "ui/campaigns/campaignstatspanel.h"
#include "ui/campaigns/campaigntext.h"
#include "ui/campaigns/unsubscribelist.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

CampaignsView::CampaignsView(const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_campaigns(store)
{
    setObjectName(QStringLiteral("campaignsView"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(UiKit::Space::M, UiKit::Space::M, UiKit::Space::M, UiKit::Space::S);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("campaignsTabs"));
    outer->addWidget(m_tabs);

    auto *page = new QWidget(m_tabs);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(UiKit::Space::S, UiKit::Space::S, UiKit::Space::S, 0);
    layout->setSpacing(UiKit::Space::S);

    auto *actions = new QHBoxLayout;
    auto addButton = [this, page, actions](const QString &key, const QString &text, const QString &tip) {
        auto *b = new QPushButton(text, page);
        b->setObjectName(key + QStringLiteral("CampaignButton"));
        if (!tip.isEmpty())
            b->setToolTip(tip);
        actions->addWidget(b);
        m_buttons.insert(key, b);
        return b;
    };
    addButton(QStringLiteral("new"), tr("New…"), tr("Write a new campaign"));
    addButton(QStringLiteral("edit"), tr("Edit…"), tr("Change the campaign (a draft or a scheduled one)"));
    addButton(QStringLiteral("delete"), tr("Delete"), tr("Delete the campaign (a draft or a scheduled one)"));
    actions->addSpacing(UiKit::Space::M);
    addButton(QStringLiteral("send"), tr("Send now"), tr("Start sending to the audience now"));
    addButton(QStringLiteral("schedule"), tr("Schedule…"), tr("Choose when it is sent"));
    addButton(QStringLiteral("pause"), tr("Pause"), tr("Stop sending for now; what is on its way finishes"));
    addButton(QStringLiteral("resume"), tr("Resume"), tr("Go on where it stopped"));
    addButton(QStringLiteral("cancel"), tr("Cancel campaign"), tr("Stop for good: those not sent to yet get nothing"));
    addButton(QStringLiteral("retry"), tr("Retry failed"),
              tr("Send again to the recipients whose message failed or bounced for now"));
    actions->addStretch(1);
    layout->addLayout(actions);

    auto *filters = new QHBoxLayout;
    m_search = new QLineEdit(page);
    m_search->setObjectName(QStringLiteral("campaignSearch"));
    m_search->setPlaceholderText(tr("Search campaigns…"));
    m_search->setAccessibleName(tr("Search campaigns"));
    m_search->setClearButtonEnabled(true);
    m_statusFilter = new QComboBox(page);
    m_statusFilter->setObjectName(QStringLiteral("campaignStatusFilter"));
    m_statusFilter->setAccessibleName(tr("Status"));
    m_statusFilter->addItem(tr("Any status"), QString());
    for (const QString &s : CampaignRules::Statuses)
        m_statusFilter->addItem(s == QLatin1String("SENDING") ? tr("Sending or running") : CampaignText::status(s), s);
    m_channelFilter = new QComboBox(page);
    m_channelFilter->setObjectName(QStringLiteral("campaignChannelFilter"));
    m_channelFilter->setAccessibleName(tr("Channel"));
    m_channelFilter->addItem(tr("Every channel"), QString());
    for (const QString &c : CampaignRules::Channels)
        m_channelFilter->addItem(CampaignText::channel(c), c);
    filters->addWidget(m_search, 1);
    filters->addWidget(new QLabel(tr("Show:"), page));
    filters->addWidget(m_statusFilter);
    filters->addWidget(m_channelFilter);
    layout->addLayout(filters);

    m_splitter = new QSplitter(Qt::Vertical, page);
    m_splitter->setObjectName(QStringLiteral("campaignsSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_table = UiKit::recordTable(ColumnCount,
                                 {tr("Name"), tr("Channel"), tr("Type"), tr("Status"), tr("Progress"), tr("Delivered"),
                                  tr("Opened"), tr("Clicked"), tr("Scheduled / started")},
                                 QStringLiteral("campaignsTable"), m_splitter);
    m_table->setAccessibleName(tr("Campaigns"));
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setStretchLastSection(false);
    // The short columns as wide as their longest value in the window's language ("Toplu gönderim",
    // "Gönderiliyor"), the name the rest; the user's widths (WindowState) then win.
    {
        const QFontMetrics fm(m_table->font());
        auto widest = [&fm](const QStringList &texts) { return UiKit::columnWidthFor(fm, texts); };
        QStringList channels, types, statuses;
        for (const QString &c : CampaignRules::Channels)
            channels << CampaignText::channel(c);
        for (const QString &t : CampaignRules::Types)
            types << CampaignText::type(t);
        for (const QString &st : CampaignRules::Statuses)
            statuses << CampaignText::status(st);
        statuses << CampaignText::status(QStringLiteral("SENDING"), QStringLiteral("DRIP"));
        const QLocale locale;
        const int progress = widest({tr("%1 / %2").arg(locale.toString(99999), locale.toString(99999)),
                                     tr("%1 active / %2 entered").arg(locale.toString(999), locale.toString(999))});
        QHeaderView *header = m_table->horizontalHeader();
        const int when = widest({UiKit::localTime(QStringLiteral("2026-12-31T23:59:00.000Z"))});
        for (auto [column, width] : {std::pair{int(ChannelColumn), widest(channels)},
                                     {int(TypeColumn), widest(types)},
                                     {int(StatusColumn), widest(statuses)},
                                     {int(ProgressColumn), progress},
                                     {int(WhenColumn), when}})
            header->resizeSection(column, qMax(width, header->sectionSizeHint(column)));
    }
    m_table->horizontalHeaderItem(ProgressColumn)
        ->setToolTip(tr("Sent of the audience; a drip or triggered campaign: its contacts still in it of those who "
                        "entered"));
    m_table->horizontalHeaderItem(DeliveryColumn)->setToolTip(tr("Delivery rate: delivered of sent"));
    m_table->horizontalHeaderItem(OpenColumn)->setToolTip(tr("Open rate: opened of delivered"));
    m_table->horizontalHeaderItem(ClickColumn)->setToolTip(tr("Click rate: clicked of delivered"));
    m_table->setMinimumHeight(120);
    m_emptyHint = installEmptyHint(m_table, tr("No campaigns yet. Write one to a segment of your contacts."));
    setEmptyHintIcon(m_emptyHint, QStringLiteral("campaigns"));
    setEmptyHintAction(m_emptyHint, tr("New campaign…"), [this] { newCampaign(); });
    m_detailTabs = new QTabWidget(m_splitter);
    m_detailTabs->setObjectName(QStringLiteral("campaignDetailTabs"));
    m_stats = new CampaignStatsPanel(m_campaigns, m_detailTabs);
    m_contacts = new CampaignContactsPanel(m_campaigns, m_detailTabs);
    m_recipients = new CampaignRecipientsPanel(m_campaigns, m_detailTabs);
    m_detailTabs->addTab(m_stats, tr("Statistics"));
    m_detailTabs->addTab(m_contacts, tr("Contacts"));
    m_detailTabs->addTab(m_recipients, tr("Recipients"));
    m_detailTabs->setTabToolTip(m_detailTabs->indexOf(m_contacts),
                                tr("Where each contact of a drip or triggered campaign is, and the steps it was sent"));
    m_detailTabs->setTabVisible(m_detailTabs->indexOf(m_contacts), false);
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_detailTabs);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    layout->addWidget(m_splitter, 1);

    m_status = new QLabel(page);
    m_status->setObjectName(QStringLiteral("campaignsStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_tabs->addTab(page, tr("Campaigns"));

    m_unsubscribes = new UnsubscribeList(store, m_tabs);
    m_tabs->addTab(m_unsubscribes, tr("Unsubscribe list"));

    // A burst of news (a campaign sending: a notice per batch of recipients) refreshes at most
    // every RefreshDelayMs, never starved by the next notice.
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(RefreshDelayMs);
    // Out of sight (another area in front) the news only marks the view stale: a campaign sending
    // for an hour does not keep a hidden view querying.
    connect(&m_refreshTimer, &QTimer::timeout, this, [this] {
        if (isVisible())
            refresh();
        else
            m_stale = true;
    });
    m_unsubscribeTimer.setSingleShot(true);
    m_unsubscribeTimer.setInterval(RefreshDelayMs);
    connect(&m_unsubscribeTimer, &QTimer::timeout, m_unsubscribes, &UnsubscribeList::refresh);
    connect(&store.bus(), &EventBus::changed, this, &CampaignsView::onBusChanged);
    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(SearchDelayMs);
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchTimer.start(); });
    connect(&m_searchTimer, &QTimer::timeout, this, &CampaignsView::refresh);
    connect(m_statusFilter, &QComboBox::currentIndexChanged, this, &CampaignsView::refresh);
    connect(m_channelFilter, &QComboBox::currentIndexChanged, this, &CampaignsView::refresh);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateActions();
        showSelected();
    });
    connect(m_table, &QTableWidget::doubleClicked, this, &CampaignsView::editCampaign);
    auto *deleteKey = new QShortcut(QKeySequence::Delete, m_table);
    deleteKey->setContext(Qt::WidgetShortcut);
    connect(deleteKey, &QShortcut::activated, this, &CampaignsView::deleteCampaign);
    connect(m_buttons.value(QStringLiteral("new")), &QPushButton::clicked, this, &CampaignsView::newCampaign);
    connect(m_buttons.value(QStringLiteral("edit")), &QPushButton::clicked, this, &CampaignsView::editCampaign);
    connect(m_buttons.value(QStringLiteral("delete")), &QPushButton::clicked, this, &CampaignsView::deleteCampaign);
    connect(m_buttons.value(QStringLiteral("send")), &QPushButton::clicked, this, &CampaignsView::sendNow);
    connect(m_buttons.value(QStringLiteral("schedule")), &QPushButton::clicked, this, &CampaignsView::schedule);
    connect(m_buttons.value(QStringLiteral("pause")), &QPushButton::clicked, this, &CampaignsView::pause);
    connect(m_buttons.value(QStringLiteral("resume")), &QPushButton::clicked, this, &CampaignsView::resume);
    connect(m_buttons.value(QStringLiteral("cancel")), &QPushButton::clicked, this, &CampaignsView::cancel);
    connect(m_buttons.value(QStringLiteral("retry")), &QPushButton::clicked, this, &CampaignsView::retryFailed);
    refresh();
}

void CampaignsView::onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change)
{
    Q_UNUSED(id);
    Q_UNUSED(change);
    if (entity == EventBus::Entity::Campaign || entity == EventBus::Entity::CampaignRecipient ||
        entity == EventBus::Entity::Segment) {
        if (!m_refreshTimer.isActive())
            m_refreshTimer.start();
    }
    if (entity == EventBus::Entity::Unsubscribe) {
        if (!m_unsubscribeTimer.isActive())
            m_unsubscribeTimer.start();
        if (!m_refreshTimer.isActive())
            m_refreshTimer.start(); // a campaign's unsubscribed count
    }
}

QString CampaignsView::currentCampaignId() const
{
    return UiKit::selectedId(m_table);
}

std::optional<Campaign> CampaignsView::selected() const
{
    const QString id = currentCampaignId();
    for (const Campaign &c : m_rows) {
        if (c.id == id)
            return c;
    }
    return std::nullopt;
}

bool CampaignsView::selectCampaign(const QString &id)
{
    for (int row = 0; row < m_table->rowCount(); ++row) {
        if (m_table->item(row, 0)->data(UiKit::IdRole).toString() == id) {
            m_table->selectRow(row);
            return true;
        }
    }
    return false;
}

void CampaignsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        refresh();
}

void CampaignsView::refresh()
{
    m_stale = false;
    m_refreshTimer.stop();
    m_searchTimer.stop();
    const QString keep = m_selectAfterRefresh.isEmpty() ? currentCampaignId() : m_selectAfterRefresh;
    m_selectAfterRefresh.clear();
    CampaignQuery q;
    q.limit = ListLimit;
    q.search = m_search->text().trimmed().left(200);
    if (!m_statusFilter->currentData().toString().isEmpty())
        q.statuses = {m_statusFilter->currentData().toString()};
    if (!m_channelFilter->currentData().toString().isEmpty())
        q.channels = {m_channelFilter->currentData().toString()};
    CampaignPage page;
    try {
        page = m_campaigns.list(q);
        m_rowStats = m_campaigns.statsOf(page.items);
        m_rowContacts = m_campaigns.enrolmentCountsOf(page.items);
    } catch (const std::exception &e) {
        showMessage(ErrorText::of(e), true);
        m_rowStats.clear();
        m_rowContacts.clear();
    }
    m_rows = page.items;
    const QLocale locale;
    {
        const QSignalBlocker block(m_table->selectionModel());
        m_table->setRowCount(0);
        m_table->setRowCount(int(m_rows.size()));
        for (int row = 0; row < m_rows.size(); ++row) {
            const Campaign &c = m_rows.at(row);
            const CampaignStats s = m_rowStats.value(c.id);
            m_table->setItem(row, NameColumn, UiKit::tableItem(c.name, c.id));
            m_table->setItem(row, ChannelColumn, UiKit::tableItem(CampaignText::channel(c.channel)));
            m_table->setItem(row, TypeColumn, UiKit::tableItem(CampaignText::type(c.type)));
            auto *status = UiKit::tableItem(CampaignText::status(c.status, c.type));
            if (!c.statusReason.isEmpty())
                status->setToolTip(c.statusReason);
            if (c.status == QLatin1String("FAILED"))
                status->setForeground(UiKit::color(UiKit::Tone::Danger));
            else if (c.status == QLatin1String("SENDING"))
                status->setForeground(UiKit::color(UiKit::Tone::Accent));
            m_table->setItem(row, StatusColumn, status);
            QTableWidgetItem *progress = nullptr;
            if (c.type == QLatin1String("BROADCAST")) {
                progress =
                    UiKit::tableItem(s.total > 0 ? tr("%1 / %2").arg(locale.toString(s.sent), locale.toString(s.total))
                                                 : QStringLiteral("–"));
            } else {
                // A drip never ends by itself: how many are in it now of those who entered.
                const EnrolmentCounts n = m_rowContacts.value(c.id);
                progress = UiKit::tableItem(
                    n.total > 0 ? tr("%1 active / %2 entered").arg(locale.toString(n.active), locale.toString(n.total))
                                : QStringLiteral("–"));
                progress->setToolTip(CampaignText::enrolmentSummary(n.total, n.active, n.completed, n.exited));
            }
            progress->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, ProgressColumn, progress);
            const double rates[] = {s.deliveryRate(), s.openRate(), s.clickRate()};
            for (int i = 0; i < 3; ++i) {
                auto *item = UiKit::tableItem(s.sent > 0 ? CampaignText::percent(rates[i]) : QStringLiteral("–"));
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                m_table->setItem(row, DeliveryColumn + i, item);
            }
            const QString when = c.status == QLatin1String("SCHEDULED") ? c.scheduledAt
                                 : !c.startedAt.isEmpty()               ? c.startedAt
                                                                        : c.scheduledAt;
            m_table->setItem(row, WhenColumn, UiKit::tableItem(UiKit::localTime(when)));
        }
    }
    if (!keep.isEmpty())
        selectCampaign(keep);
    // What an empty list says: the search or the filters emptied it, or there is nothing yet.
    const bool filtered = !q.search.isEmpty() || !q.statuses.isEmpty() || !q.channels.isEmpty();
    m_emptyHint->setText(filtered ? tr("No campaign matches the search or the filters.")
                                  : tr("No campaigns yet. Write one to a segment of your contacts."));
    if (filtered) {
        setEmptyHintIcon(m_emptyHint, QStringLiteral("search"));
        setEmptyHintAction(m_emptyHint, tr("Clear the search and filters"), [this] {
            const QSignalBlocker b1(m_statusFilter), b2(m_channelFilter), b3(m_search);
            m_statusFilter->setCurrentIndex(0);
            m_channelFilter->setCurrentIndex(0);
            m_search->clear();
            refresh();
        });
    } else {
        setEmptyHintIcon(m_emptyHint, QStringLiteral("campaigns"));
        setEmptyHintAction(m_emptyHint, tr("New campaign…"), [this] { newCampaign(); });
    }
    if (page.total > page.items.size())
        showMessage(tr("Showing the newest %1 of %2 campaigns: search or filter to find the others.")
                        .arg(locale.toString(qint64(page.items.size())), locale.toString(page.total)));
    updateActions();
    showSelected();
}

void CampaignsView::showSelected()
{
    const std::optional<Campaign> c = selected();
    const QString id = c ? c->id : QString();
    const bool contacts = c && c->type != QLatin1String("BROADCAST");
    const int contactsTab = m_detailTabs->indexOf(m_contacts);
    if (!contacts && m_detailTabs->currentIndex() == contactsTab)
        m_detailTabs->setCurrentWidget(m_stats);
    m_detailTabs->setTabVisible(contactsTab, contacts);
    m_stats->showCampaign(id);
    m_recipients->showCampaign(id);
    m_contacts->showCampaign(contacts ? id : QString());
}

void CampaignsView::updateActions()
{
    const std::optional<Campaign> c = selected();
    const QString status = c ? c->status : QString();
    const bool editable = c && c->isEditable();
    const CampaignStats s = c ? m_rowStats.value(c->id) : CampaignStats{};
    const bool started = status == QLatin1String("SENDING") || status == QLatin1String("PAUSED") ||
                         status == QLatin1String("SENT") || status == QLatin1String("FAILED");
    m_buttons.value(QStringLiteral("edit"))->setEnabled(c.has_value());
    m_buttons.value(QStringLiteral("edit"))->setText(c && !editable ? tr("View…") : tr("Edit…"));
    m_buttons.value(QStringLiteral("delete"))->setEnabled(editable);
    m_buttons.value(QStringLiteral("send"))
        ->setEnabled(editable && CampaignRules::canMove(status, QStringLiteral("SENDING")));
    m_buttons.value(QStringLiteral("schedule"))
        ->setEnabled(
            editable && c->type == QLatin1String("BROADCAST") &&
            (status == QLatin1String("SCHEDULED") || CampaignRules::canMove(status, QStringLiteral("SCHEDULED"))));
    m_buttons.value(QStringLiteral("pause"))->setEnabled(c && CampaignRules::canMove(status, QStringLiteral("PAUSED")));
    m_buttons.value(QStringLiteral("resume"))
        ->setEnabled(status == QLatin1String("PAUSED") && CampaignRules::canMove(status, QStringLiteral("SENDING")));
    m_buttons.value(QStringLiteral("cancel"))
        ->setEnabled(c && CampaignRules::canMove(status, QStringLiteral("CANCELLED")));
    m_buttons.value(QStringLiteral("retry"))->setEnabled(started && s.failed + s.bounced > 0);
}

void CampaignsView::showMessage(const QString &text, bool error)
{
    m_status->setText(text);
    UiKit::setTone(m_status, error ? UiKit::Tone::Danger : UiKit::Tone::Normal);
}

void CampaignsView::focusSearch()
{
    m_tabs->setCurrentIndex(0);
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void CampaignsView::openEditorFor(CampaignEditor *editor)
{
    editor->setAttribute(Qt::WA_DeleteOnClose);
    connect(editor, &CampaignEditor::saved, this, [this](const QString &id) {
        m_selectAfterRefresh = id;
        refresh();
        showMessage(tr("Campaign saved."));
    });
    m_editor = editor;
    editor->open();
}

void CampaignsView::newCampaign()
{
    m_tabs->setCurrentIndex(0);
    openEditorFor(new CampaignEditor(m_campaigns, m_store, this));
}

void CampaignsView::editCampaign()
{
    openCampaign(currentCampaignId());
}

void CampaignsView::openCampaign(const QString &id)
{
    if (id.isEmpty())
        return;
    try {
        const Campaign c = m_campaigns.get(id);
        m_tabs->setCurrentIndex(0);
        if (!selectCampaign(id)) {
            // Hidden by the filters: shown again with them cleared.
            const QSignalBlocker b1(m_statusFilter), b2(m_channelFilter), b3(m_search);
            m_statusFilter->setCurrentIndex(0);
            m_channelFilter->setCurrentIndex(0);
            m_search->clear();
            m_selectAfterRefresh = id;
            refresh();
        }
        openEditorFor(new CampaignEditor(m_campaigns, m_store, c, this));
    } catch (const std::exception &e) {
        showMessage(ErrorText::of(e), true);
    }
}

void CampaignsView::deleteCampaign()
{
    const std::optional<Campaign> c = selected();
    if (!c || !c->isEditable())
        return;
    MessageBoxes::confirm(this, tr("Delete campaign"), tr("Delete the campaign “%1”?").arg(c->name), tr("Delete"),
                          [self = QPointer<CampaignsView>(this), id = c->id, name = c->name] {
                              if (!self)
                                  return;
                              try {
                                  self->m_campaigns.remove(id);
                                  self->showMessage(tr("Campaign “%1” deleted.").arg(name));
                              } catch (const std::exception &e) {
                                  self->showMessage(ErrorText::of(e), true);
                              }
                              self->refresh();
                          });
}

void CampaignsView::move(const std::function<Campaign(const QString &id)> &action, const QString &done)
{
    const QString id = currentCampaignId();
    if (id.isEmpty())
        return;
    try {
        const Campaign c = action(id);
        showMessage(done.arg(c.name));
    } catch (const std::exception &e) {
        showMessage(ErrorText::of(e), true);
    }
    m_selectAfterRefresh = id;
    refresh();
}

void CampaignsView::sendNow()
{
    const std::optional<Campaign> c = selected();
    if (!c)
        return;
    QString text;
    if (c->type != QLatin1String("BROADCAST")) {
        text = tr("Start “%1” now? Each contact of its audience goes through its steps.").arg(c->name);
    } else {
        qint64 reachable = -1;
        try {
            if (!c->broadcastListId.isEmpty())
                reachable = m_campaigns.audiencePreview(c->broadcastListId, c->channel)
                                .value(QStringLiteral("reachable"))
                                .toInteger();
        } catch (const std::exception &) {
            reachable = -1; // sending says why
        }
        text = reachable >= 0 ? tr("Send “%1” now to %n contact(s) by %2? This cannot be undone.", nullptr,
                                   int(qMin<qint64>(reachable, INT_MAX)))
                                    .arg(c->name, CampaignText::channel(c->channel))
                              : tr("Send “%1” now? This cannot be undone.").arg(c->name);
    }
    const QString done = c->type != QLatin1String("BROADCAST") ? tr("“%1” is running.") : tr("“%1” is sending.");
    MessageBoxes::confirm(this, tr("Send campaign"), text, tr("Send now"),
                          [self = QPointer<CampaignsView>(this), done] {
                              if (self)
                                  self->move([self](const QString &id) { return self->m_campaigns.send(id); }, done);
                          });
}

void CampaignsView::schedule()
{
    const std::optional<Campaign> c = selected();
    if (!c)
        return;
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("scheduleDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Schedule “%1”").arg(c->name));
    auto *form = new QFormLayout(dialog);
    auto *when = new QDateTimeEdit(dialog);
    when->setObjectName(QStringLiteral("scheduleDateTime"));
    when->setCalendarPopup(true);
    when->setDisplayFormat(QLocale().dateTimeFormat(QLocale::ShortFormat).remove(QStringLiteral(":ss")));
    const std::optional<QDateTime> at = TimeUtil::parse(c->scheduledAt);
    when->setDateTime(at ? at->toLocalTime() : QDateTime::currentDateTime().addSecs(3600));
    auto *error = UiKit::errorLabel(dialog);
    form->addRow(tr("Send at"), when);
    form->addRow(error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Schedule"));
    if (c->status == QLatin1String("SCHEDULED")) {
        QPushButton *unschedule = buttons->addButton(tr("Don't schedule"), QDialogButtonBox::ResetRole);
        unschedule->setObjectName(QStringLiteral("unscheduleButton"));
        connect(unschedule, &QPushButton::clicked, dialog, [this, dialog, id = c->id, error] {
            try {
                CampaignChanges ch;
                ch.scheduledAt = QString();
                const Campaign saved = m_campaigns.update(id, ch);
                showMessage(tr("“%1” is a draft again.").arg(saved.name));
                m_selectAfterRefresh = id;
                refresh();
                dialog->accept();
            } catch (const std::exception &e) {
                UiKit::showError(error, ErrorText::of(e));
            }
        });
    }
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, dialog, id = c->id, when, error] {
        try {
            CampaignChanges ch;
            ch.scheduledAt = TimeUtil::iso(when->dateTime().toUTC());
            const Campaign saved = m_campaigns.update(id, ch);
            showMessage(tr("“%1” is sent at %2.").arg(saved.name, UiKit::localTime(saved.scheduledAt)));
            m_selectAfterRefresh = id;
            refresh();
            dialog->accept();
        } catch (const std::exception &e) {
            UiKit::showError(error, ErrorText::of(e));
        }
    });
    dialog->open();
}

void CampaignsView::pause()
{
    move([this](const QString &id) { return m_campaigns.pause(id); }, tr("“%1” is paused."));
}

void CampaignsView::resume()
{
    const std::optional<Campaign> c = selected();
    move([this](const QString &id) { return m_campaigns.resume(id); },
         c && c->type != QLatin1String("BROADCAST") ? tr("“%1” is running again.") : tr("“%1” is sending again."));
}

void CampaignsView::cancel()
{
    const std::optional<Campaign> c = selected();
    if (!c)
        return;
    MessageBoxes::confirm(
        this, tr("Cancel campaign"),
        tr("Cancel “%1”? Those it has not sent to yet get nothing, and it cannot be started again.").arg(c->name),
        tr("Cancel campaign"), [self = QPointer<CampaignsView>(this)] {
            if (self)
                self->move([self](const QString &id) { return self->m_campaigns.cancel(id); },
                           tr("“%1” is cancelled."));
        });
}

void CampaignsView::retryFailed()
{
    const QString id = currentCampaignId();
    if (id.isEmpty())
        return;
    try {
        const int n = m_campaigns.retryFailed(id);
        showMessage(tr("%n recipient(s) will be sent to again.", nullptr, n));
    } catch (const std::exception &e) {
        showMessage(ErrorText::of(e), true);
    }
    m_selectAfterRefresh = id;
    refresh();
}
