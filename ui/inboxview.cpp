#include "inboxview.h"

#include "errors.h"
#include "eventbus.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace {
constexpr int kIdRole = Qt::UserRole;
constexpr int kUnreadRole = Qt::UserRole + 1;
constexpr int kStatusRole = Qt::UserRole + 2;
} // namespace

InboxView::InboxView(ConversationRepository &conversations, EventBus &bus, QWidget *parent)
    : QWidget(parent)
    , m_conversations(conversations)
{
    m_statusFilter = new QComboBox(this);
    m_statusFilter->setObjectName(QStringLiteral("statusFilter"));
    m_statusFilter->addItem(tr("All statuses"), QString());
    m_statusFilter->addItem(tr("Open"), QStringLiteral("open"));
    m_statusFilter->addItem(tr("Pending"), QStringLiteral("pending"));
    m_statusFilter->addItem(tr("Closed"), QStringLiteral("closed"));
    m_channelFilter = new QComboBox(this);
    m_channelFilter->setObjectName(QStringLiteral("channelFilter"));
    m_channelFilter->addItem(tr("All channels"), QString());
    m_channelFilter->addItem(tr("WhatsApp"), QStringLiteral("whatsapp"));
    m_channelFilter->addItem(tr("Instagram"), QStringLiteral("instagram"));
    m_channelFilter->addItem(tr("Telegram"), QStringLiteral("telegram"));
    m_channelFilter->addItem(tr("Web widget"), QStringLiteral("widget"));
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("conversationList"));

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto *filters = new QHBoxLayout;
    filters->addWidget(m_statusFilter);
    filters->addWidget(m_channelFilter);
    leftLayout->addLayout(filters);
    leftLayout->addWidget(m_list);

    m_header = new QLabel(tr("Select a conversation"), this);
    m_header->setObjectName(QStringLiteral("threadHeader"));
    m_close = new QPushButton(tr("Close"), this);
    m_close->setObjectName(QStringLiteral("closeButton"));
    m_reopen = new QPushButton(tr("Reopen"), this);
    m_reopen->setObjectName(QStringLiteral("reopenButton"));
    m_assign = new QPushButton(tr("Assign to me"), this);
    m_assign->setObjectName(QStringLiteral("assignButton"));
    m_thread = new QListWidget(this);
    m_thread->setObjectName(QStringLiteral("thread"));
    m_thread->setWordWrap(true);
    m_composer = new QLineEdit(this);
    m_composer->setObjectName(QStringLiteral("composer"));
    m_composer->setPlaceholderText(tr("Write a reply…"));
    m_send = new QPushButton(tr("Send"), this);
    m_send->setObjectName(QStringLiteral("sendButton"));
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("errorLabel"));
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->setWordWrap(true);
    m_error->hide();

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_header, 1);
    actions->addWidget(m_assign);
    actions->addWidget(m_close);
    actions->addWidget(m_reopen);
    rightLayout->addLayout(actions);
    rightLayout->addWidget(m_thread, 1);
    rightLayout->addWidget(m_error);
    auto *composer = new QHBoxLayout;
    composer->addWidget(m_composer, 1);
    composer->addWidget(m_send);
    rightLayout->addLayout(composer);

    auto *splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    // Bursts of bus signals (a message changes the message, its conversation and the contact)
    // are folded into one reload.
    m_reloadTimer.setSingleShot(true);
    m_reloadTimer.setInterval(50);
    connect(&m_reloadTimer, &QTimer::timeout, this, &InboxView::reload);
    connect(&bus, &EventBus::changed, this, &InboxView::onBusChanged);
    connect(m_statusFilter, &QComboBox::currentIndexChanged, this, &InboxView::reloadList);
    connect(m_channelFilter, &QComboBox::currentIndexChanged, this, &InboxView::reloadList);
    connect(m_list, &QListWidget::currentItemChanged, this, &InboxView::onSelectionChanged);
    connect(m_send, &QPushButton::clicked, this, &InboxView::send);
    connect(m_composer, &QLineEdit::returnPressed, this, &InboxView::send);
    connect(m_composer, &QLineEdit::textChanged, this, [this] { m_error->hide(); });
    connect(m_close, &QPushButton::clicked, this, [this] { setStatus(QStringLiteral("closed")); });
    connect(m_reopen, &QPushButton::clicked, this, [this] { setStatus(QStringLiteral("open")); });
    connect(m_assign, &QPushButton::clicked, this, &InboxView::assignToMe);
    reload();
}

void InboxView::setSender(Sender sender)
{
    m_sender = std::move(sender);
    reloadThread();
}

void InboxView::setCurrentUser(const QString &userId, const QString &name)
{
    m_userId = userId;
    m_assign->setToolTip(userId.isEmpty() ? tr("No user account: create one with “liaison user add”")
                                          : tr("Assign to %1").arg(name));
    reloadThread();
}

void InboxView::reload()
{
    reloadList();
    reloadThread();
}

void InboxView::reloadList()
{
    m_loading = true;
    ConversationQuery q;
    q.limit = kListLimit;
    q.status = m_statusFilter->currentData().toString();
    q.channel = m_channelFilter->currentData().toString();
    const ConversationPage page = m_conversations.list(q);
    m_list->clear();
    QListWidgetItem *current = nullptr;
    for (const Conversation &v : page.items) {
        const QString name = v.contactName().isEmpty() ? tr("(no name)") : v.contactName();
        QString text = v.unreadCount > 0 ? tr("%1 (%2 unread)").arg(name).arg(v.unreadCount) : name;
        text += QLatin1String("  · ") + v.channel;
        if (v.status != QLatin1String("open"))
            text += QLatin1String(" · ") + v.status;
        if (!v.lastMessageText.isEmpty())
            text += QLatin1Char('\n') + v.lastMessageText.left(80);
        auto *item = new QListWidgetItem(text, m_list);
        item->setData(kIdRole, v.id);
        item->setData(kUnreadRole, v.unreadCount);
        item->setData(kStatusRole, v.status);
        if (v.unreadCount > 0) {
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
        }
        if (v.id == m_currentId)
            current = item;
    }
    if (current)
        m_list->setCurrentItem(current);
    m_loading = false;
}

bool InboxView::selectConversation(const QString &id)
{
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->data(kIdRole).toString() == id) {
            m_list->setCurrentRow(i);
            return true;
        }
    }
    return false;
}

void InboxView::onSelectionChanged()
{
    if (m_loading)
        return;
    QListWidgetItem *item = m_list->currentItem();
    m_currentId = item ? item->data(kIdRole).toString() : QString();
    m_error->hide();
    if (item && item->data(kUnreadRole).toInt() > 0) {
        try {
            m_conversations.markRead(m_currentId); // the bus reload updates the badge
        } catch (const std::exception &e) {
            showError(QString::fromUtf8(e.what()));
        }
    }
    reloadThread();
}

QString InboxView::tick(const Message &m)
{
    if (m.direction != QLatin1String("outgoing"))
        return {};
    const QString s = m.delivery.status;
    if (s == QLatin1String("pending"))
        return tr("🕓 sending");
    if (s == QLatin1String("sent"))
        return tr("✓ sent");
    if (s == QLatin1String("delivered"))
        return tr("✓✓ delivered");
    if (s == QLatin1String("read"))
        return tr("✓✓ read");
    return tr("✗ failed: %1").arg(m.delivery.failedReason);
}

void InboxView::reloadThread()
{
    m_thread->clear();
    std::optional<Conversation> v;
    if (!m_currentId.isEmpty())
        v = m_conversations.find(m_currentId);
    const bool has = v.has_value();
    m_composer->setEnabled(has);
    m_send->setEnabled(has && bool(m_sender));
    m_close->setEnabled(has && v->status != QLatin1String("closed"));
    m_reopen->setEnabled(has && v->status == QLatin1String("closed"));
    m_assign->setEnabled(has && !m_userId.isEmpty() && v->assignedTo != m_userId);
    if (!has) {
        m_header->setText(tr("Select a conversation"));
        return;
    }
    QString header = tr("%1 · %2 · %3").arg(v->contactName(), v->channel, v->status);
    if (!v->assignedName.isEmpty())
        header += QLatin1String(" · ") + tr("assigned to %1").arg(v->assignedName);
    m_header->setText(header);
    for (const Message &m : m_conversations.latestMessages(v->id, 200)) {
        const bool outgoing = m.direction == QLatin1String("outgoing");
        QString text = m.text.isEmpty() ? QLatin1Char('[') + m.type + QLatin1Char(']') : m.text;
        const QString time = m.createdAt.mid(11, 5);
        text = outgoing ? tr("%1 (%2)  %3").arg(text, time, tick(m)) : tr("%1 (%2)").arg(text, time);
        auto *item = new QListWidgetItem(text, m_thread);
        item->setData(kIdRole, m.id);
        item->setData(kStatusRole, m.delivery.status);
        item->setTextAlignment(outgoing ? Qt::AlignRight : Qt::AlignLeft);
        if (outgoing)
            item->setToolTip(m.sender.name);
    }
    m_thread->scrollToBottom();
}

void InboxView::onBusChanged(const QString &entity, const QString &, const QString &)
{
    if (entity == QLatin1String("conversation") || entity == QLatin1String("message"))
        m_reloadTimer.start();
}

void InboxView::send()
{
    const QString text = m_composer->text().trimmed();
    if (text.isEmpty() || m_currentId.isEmpty() || !m_sender)
        return;
    try {
        m_sender(m_currentId, text);
        m_composer->clear();
    } catch (const DomainError &e) {
        showError(e.message());
    } catch (const std::exception &e) {
        showError(QString::fromUtf8(e.what()));
    }
    reload();
}

void InboxView::setStatus(const QString &status)
{
    if (m_currentId.isEmpty())
        return;
    try {
        m_conversations.update(m_currentId, status, std::nullopt);
    } catch (const std::exception &e) {
        showError(QString::fromUtf8(e.what()));
    }
    reload();
}

void InboxView::assignToMe()
{
    if (m_currentId.isEmpty() || m_userId.isEmpty())
        return;
    try {
        m_conversations.assign(m_currentId, m_userId);
    } catch (const std::exception &e) {
        showError(QString::fromUtf8(e.what()));
    }
    reload();
}

void InboxView::showError(const QString &text)
{
    m_error->setText(text);
    m_error->show();
}
