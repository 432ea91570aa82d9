#include "ui/campaigns/unsubscribelist.h"

#include "ui/campaigns/campaigntext.h"
#include "ui/shell/pagerbar.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

UnsubscribeList::UnsubscribeList(const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_list(store)
{
    setObjectName(QStringLiteral("unsubscribeList"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::S, UiKit::Space::S, UiKit::Space::S, UiKit::Space::S);
    auto *intro = new QLabel(tr("No campaign sends to these addresses on their channel: people who unsubscribed, "
                                "addresses that bounced for good, and those added by hand."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *row = new QHBoxLayout;
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("unsubscribeSearch"));
    m_search->setPlaceholderText(tr("Search addresses…"));
    m_search->setAccessibleName(tr("Search addresses"));
    m_search->setClearButtonEnabled(true);
    m_channel = new QComboBox(this);
    m_channel->setObjectName(QStringLiteral("unsubscribeChannel"));
    m_channel->setAccessibleName(tr("Channel"));
    m_channel->addItem(tr("Every channel"), QString());
    for (const QString &c : CampaignRules::Channels)
        m_channel->addItem(CampaignText::channel(c), c);
    m_add = new QPushButton(tr("Add address…"), this);
    m_add->setObjectName(QStringLiteral("addUnsubscribeButton"));
    m_remove = new QPushButton(tr("Remove"), this);
    m_remove->setObjectName(QStringLiteral("removeUnsubscribeButton"));
    row->addWidget(m_search, 1);
    row->addWidget(m_channel);
    row->addSpacing(UiKit::Space::M);
    row->addWidget(m_add);
    row->addWidget(m_remove);
    layout->addLayout(row);

    m_table = UiKit::recordTable(4, {tr("Channel"), tr("Address"), tr("Reason"), tr("Added")},
                                 QStringLiteral("unsubscribeTable"), this);
    m_table->setAccessibleName(tr("Unsubscribe list"));
    m_table->horizontalHeader()->resizeSection(1, 280);
    m_table->horizontalHeader()->resizeSection(2, 180);
    installEmptyHint(m_table, tr("Nobody has unsubscribed yet."));
    layout->addWidget(m_table, 1);

    auto *paging = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("unsubscribeStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_pager = new PagerBar(QStringLiteral("unsubscribe"), PageSize, this);
    paging->addWidget(m_status, 1);
    paging->addWidget(m_pager);
    layout->addLayout(paging);

    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(SearchDelayMs);
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchTimer.start(); });
    connect(&m_searchTimer, &QTimer::timeout, m_pager, &PagerBar::restart);
    connect(m_channel, &QComboBox::currentIndexChanged, m_pager, &PagerBar::restart);
    connect(m_pager, &PagerBar::pageChanged, this, &UnsubscribeList::refresh);
    connect(m_add, &QPushButton::clicked, this, &UnsubscribeList::addAddress);
    connect(m_remove, &QPushButton::clicked, this, &UnsubscribeList::removeSelected);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &UnsubscribeList::updateActions);
    refresh();
}

bool UnsubscribeList::mayRemove() const
{
    const Store::Actor *actor = m_store.actingUser();
    // Nobody signed in: the machine's owner before the first account, as the window's configuration.
    return !actor || actor->id.isEmpty() || actor->role == QLatin1String("admin");
}

void UnsubscribeList::refresh()
{
    m_searchTimer.stop();
    const QString keep = UiKit::selectedId(m_table);
    SuppressionRepository::Page page;
    try {
        const QString channel = m_channel->currentData().toString();
        const QString search = m_search->text().trimmed().left(200);
        page = m_list.list(channel, search, m_pager->page(), PageSize);
        if (m_pager->clampTo(page.total))
            page = m_list.list(channel, search, m_pager->page(), PageSize);
    } catch (const std::exception &e) {
        showMessage(ErrorText::of(e), true);
    }
    m_table->setRowCount(0);
    m_table->setRowCount(int(page.items.size()));
    for (int row = 0; row < page.items.size(); ++row) {
        const Suppression &s = page.items.at(row);
        m_table->setItem(row, 0, UiKit::tableItem(CampaignText::channel(s.channel), s.id));
        m_table->setItem(row, 1, UiKit::tableItem(s.address));
        m_table->setItem(row, 2, UiKit::tableItem(CampaignText::suppressionReason(s.reason)));
        m_table->setItem(row, 3, UiKit::tableItem(UiKit::localTime(s.createdAt)));
    }
    for (int row = 0; row < m_table->rowCount() && !keep.isEmpty(); ++row) {
        if (m_table->item(row, 0)->data(UiKit::IdRole).toString() == keep)
            m_table->selectRow(row);
    }
    m_pager->showRange(page.items.size(), page.total);
    updateActions();
}

void UnsubscribeList::updateActions()
{
    const bool admin = mayRemove();
    m_remove->setEnabled(admin && !UiKit::selectedId(m_table).isEmpty());
    m_remove->setToolTip(admin ? tr("Let campaigns send to this address again")
                               : tr("Only an administrator removes addresses from the list"));
}

void UnsubscribeList::showMessage(const QString &text, bool error)
{
    m_status->setText(text);
    UiKit::setTone(m_status, error ? UiKit::Tone::Danger : UiKit::Tone::Normal);
}

bool UnsubscribeList::add(const QString &channel, const QString &address)
{
    try {
        const Suppression s = m_list.add(channel, address, QStringLiteral("manual"));
        showMessage(
            tr("%1 is on the list: no campaign sends to it by %2.").arg(s.address, CampaignText::channel(s.channel)),
            false);
        refresh();
        UiKit::reselect(m_table, s.id);
        return true;
    } catch (const std::exception &e) {
        showMessage(ErrorText::of(e), true);
        return false;
    }
}

void UnsubscribeList::addAddress()
{
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("addUnsubscribeDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Add to the unsubscribe list"));
    auto *form = new QFormLayout(dialog);
    auto *channel = new QComboBox(dialog);
    channel->setObjectName(QStringLiteral("addUnsubscribeChannel"));
    for (const QString &c : CampaignRules::Channels)
        channel->addItem(CampaignText::channel(c), c);
    const int chosen = channel->findData(m_channel->currentData());
    channel->setCurrentIndex(qMax(0, chosen));
    auto *address = new QLineEdit(dialog);
    address->setObjectName(QStringLiteral("addUnsubscribeAddress"));
    address->setPlaceholderText(tr("an e-mail address or a phone number"));
    address->setMinimumWidth(fontMetrics().horizontalAdvance(address->placeholderText()) + 24);
    auto *error = UiKit::errorLabel(dialog);
    form->addRow(tr("&Channel"), channel);
    form->addRow(tr("&Address"), address);
    form->addRow(error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Add"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, dialog, channel, address, error] {
        if (add(channel->currentData().toString(), address->text().trimmed()))
            dialog->accept();
        else
            UiKit::showError(error, m_status->text());
    });
    UiKit::nameFormFields(dialog);
    dialog->open();
}

void UnsubscribeList::removeSelected()
{
    const QString id = UiKit::selectedId(m_table);
    if (id.isEmpty() || !mayRemove())
        return;
    const int row = m_table->currentRow();
    const QString address = m_table->item(row, 1) ? m_table->item(row, 1)->text() : QString();
    MessageBoxes::confirm(
        this, tr("Remove from the unsubscribe list"),
        tr("Let campaigns send to %1 again? Remove it only when the person asked for it.").arg(address), tr("Remove"),
        [self = QPointer<UnsubscribeList>(this), id, address] {
            if (!self)
                return;
            try {
                self->m_list.remove(id);
                self->showMessage(tr("%1 was removed from the list.").arg(address), false);
            } catch (const std::exception &e) {
                self->showMessage(ErrorText::of(e), true);
            }
            self->refresh();
        });
}
