#include "ui/inbox/inboxview.h"

#include "model/accounts/userrepository.h"
#include "model/assistant/aianswerrepository.h"
#include "model/assistant/assistantconversation.h"
#include "model/contacts/contactrepository.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipeline.h"
#include "model/deals/pipelinerepository.h"
#include "model/inbox/widgetvisitorrepository.h"
#include "model/tasks/taskrepository.h"
#include "ui/contacts/contactdialog.h"
#include "ui/deals/dealdialogs.h"
#include "ui/inbox/aifeedbackbuttons.h"
#include "ui/inbox/chatbubbledelegate.h"
#include "ui/inbox/composerdrafts.h"
#include "ui/inbox/inboxcomposer.h"
#include "ui/inbox/messageedit.h"
#include "ui/shell/elidedlabel.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/phonetext.h"
#include "ui/shell/recordpicker.h"
#include "ui/shell/rowanchor.h"
#include "ui/shell/theme.h"
#include "ui/shell/uikit.h"
#include "ui/tasks/taskdialog.h"
#include "ui/tasks/tasktablemodel.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QMetaMethod>
#include <QPainter>
#include <QPainterPath>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTextCursor>
#include <QTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace {
constexpr int kIdRole = Qt::UserRole;
constexpr int kUnreadRole = Qt::UserRole + 1;
constexpr int kStatusRole = Qt::UserRole + 2;
// A reply that was not sent (ComposerDrafts::Unsent::id); empty for a stored message.
constexpr int kUnsentRole = Qt::UserRole + 3;
// A stored outgoing text whose delivery failed: its text can be sent again.
constexpr int kResendRole = Qt::UserRole + 4;
} // namespace

QString InboxText::channelName(const QString &channel)
{
    if (channel == QLatin1String("whatsapp"))
        return QStringLiteral("WhatsApp");
    if (channel == QLatin1String("instagram"))
        return QStringLiteral("Instagram");
    if (channel == QLatin1String("telegram"))
        return QStringLiteral("Telegram");
    if (channel == QLatin1String("widget"))
        return InboxView::tr("Web widget");
    return channel;
}

QString InboxText::statusName(const QString &status)
{
    if (status == QLatin1String("open"))
        return InboxView::tr("open");
    if (status == QLatin1String("pending"))
        return InboxView::tr("pending");
    if (status == QLatin1String("closed"))
        return InboxView::tr("closed");
    return status;
}

QIcon InboxText::channelIcon(const QString &channel)
{
    // Drawn rather than shipped: a small mark in each service's colour, sharp at every size.
    QIcon icon;
    for (const int size : {16, 24, 32, 48}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        p.scale(size / 32.0, size / 32.0);
        p.setPen(Qt::NoPen);
        const QPen white(Qt::white, 2.6, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
        if (channel == QLatin1String("whatsapp")) {
            p.setBrush(QColor(0x25, 0xd3, 0x66));
            p.drawEllipse(QRectF(1, 1, 30, 30));
            p.setPen(white);
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(QRectF(8, 7.5, 16, 16));
            p.drawLine(QPointF(9.5, 20.5), QPointF(7.5, 25)); // the speech bubble's tail
        } else if (channel == QLatin1String("telegram")) {
            p.setBrush(QColor(0x22, 0x9e, 0xd9));
            p.drawEllipse(QRectF(1, 1, 30, 30));
            p.setBrush(Qt::white);
            p.drawPolygon(QPolygonF({QPointF(7, 15.5), QPointF(24, 8.5), QPointF(21, 24), QPointF(15, 19.5)}));
        } else if (channel == QLatin1String("instagram")) {
            QLinearGradient g(0, 32, 32, 0);
            g.setColorAt(0, QColor(0xf5, 0x8f, 0x29));
            g.setColorAt(0.5, QColor(0xdd, 0x2a, 0x7b));
            g.setColorAt(1, QColor(0x81, 0x34, 0xaf));
            p.setBrush(g);
            p.drawRoundedRect(QRectF(1, 1, 30, 30), 8, 8);
            p.setPen(white);
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(QRectF(7, 7, 18, 18), 5, 5);
            p.drawEllipse(QRectF(12, 12, 8, 8));
        } else {
            p.setBrush(channel == QLatin1String("widget") ? QColor(0x4f, 0x5b, 0xd5) : QColor(0x80, 0x80, 0x80));
            p.drawRoundedRect(QRectF(1, 1, 30, 30), 8, 8);
            p.setBrush(Qt::white);
            QPainterPath bubble;
            bubble.addRoundedRect(QRectF(7, 8, 18, 12), 3, 3);
            bubble.addPolygon(QPolygonF({QPointF(11, 19), QPointF(10, 25), QPointF(16, 19)}));
            p.drawPath(bubble.simplified());
        }
        p.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

QString InboxText::conversationName(const Conversation &v)
{
    if (!v.hasContact())
        return InboxView::tr("Website visitor %1").arg(ConversationRules::visitorShortId(v.externalId));
    return v.contactName().isEmpty() ? InboxView::tr("(no name)") : v.contactName();
}

QString InboxText::handoffReason(const QString &reason)
{
    if (reason == QLatin1String("missing_knowledge"))
        return InboxView::tr("the knowledge base has no answer");
    if (reason == QLatin1String("low_confidence"))
        return InboxView::tr("it is not sure of its answer");
    if (reason == QLatin1String("ambiguous"))
        return InboxView::tr("more than one answer fits");
    if (reason == QLatin1String("customer_request"))
        return InboxView::tr("the customer asked for a person");
    if (reason == QLatin1String("unsupported_language"))
        return InboxView::tr("it does not know the customer's language");
    return reason;
}

QString InboxText::when(const QString &iso, const QDate &today)
{
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs).toLocalTime();
    if (!t.isValid())
        return {};
    const QLocale locale;
    if (t.date() == today)
        return TaskTableModel::timeText(t.time(), locale); // never seconds
    if (t.date() == today.addDays(-1))
        return InboxView::tr("Yesterday");
    return locale.toString(t.date(), QLocale::ShortFormat);
}

InboxContactPanel::InboxContactPanel(const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_contacts(std::make_unique<ContactRepository>(store))
    , m_dealRepo(std::make_unique<DealRepository>(store))
    , m_taskRepo(std::make_unique<TaskRepository>(store))
    , m_pipelines(store)
{
    setObjectName(QStringLiteral("inboxContactPanel"));
    m_name = new QLabel(this);
    m_name->setObjectName(QStringLiteral("contactName"));
    m_name->setTextFormat(Qt::PlainText);
    UiKit::setType(m_name, UiKit::Type::Title);
    QFont bold = m_name->font();
    bold.setBold(true);
    m_name->setFont(bold);
    // A long name wraps at the panel's width (English "No conversation selected" was cut) instead
    // of widening the window.
    m_name->setWordWrap(true);
    m_name->setSizePolicy(QSizePolicy::Ignored, m_name->sizePolicy().verticalPolicy());
    m_name->setMinimumWidth(fontMetrics().averageCharWidth() * 12);
    // Phone, e-mail and company: text that wraps anywhere (a long e-mail address has no space to
    // wrap at, and a label cut it in the middle), selectable and copied whole, as tall as it needs.
    m_details = UiKit::wrappingText(this, QStringLiteral("contactDetails"));
    m_details->setAccessibleName(tr("Contact details"));
    m_openContact = new QPushButton(tr("Open contact…"), this);
    m_openContact->setObjectName(QStringLiteral("openContactButton"));
    m_createContact = new QPushButton(tr("Create contact…"), this);
    m_createContact->setObjectName(QStringLiteral("createContactButton"));
    m_createContact->setToolTip(tr("Save who this visitor is as a contact; the conversation becomes theirs"));
    m_deals = new QListWidget(this);
    m_deals->setObjectName(QStringLiteral("contactDeals"));
    m_deals->setAccessibleName(tr("Deals"));
    m_openDeal = new QPushButton(tr("Open deal…"), this);
    m_openDeal->setObjectName(QStringLiteral("openDealButton"));
    m_tasks = new QListWidget(this);
    m_tasks->setObjectName(QStringLiteral("contactTasks"));
    m_tasks->setAccessibleName(tr("Open tasks"));
    m_openTask = new QPushButton(tr("Open task…"), this);
    m_openTask->setObjectName(QStringLiteral("openTaskButton"));
    // A deal's or task's line wraps at the panel's width (read whole, never scrolled sideways).
    for (QListWidget *list : {m_deals, m_tasks}) {
        list->setWordWrap(true);
        list->setResizeMode(QListView::Adjust);
        list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    }

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_name);
    layout->addWidget(m_details);
    layout->addWidget(m_openContact, 0, Qt::AlignLeft);
    layout->addWidget(m_createContact, 0, Qt::AlignLeft);
    m_dealsLabel = new QLabel(tr("Deals"), this);
    layout->addWidget(m_dealsLabel);
    layout->addWidget(m_deals, 1);
    layout->addWidget(m_openDeal, 0, Qt::AlignLeft);
    m_tasksLabel = new QLabel(tr("Open tasks"), this);
    layout->addWidget(m_tasksLabel);
    layout->addWidget(m_tasks, 1);
    layout->addWidget(m_openTask, 0, Qt::AlignLeft);

    connect(m_openContact, &QPushButton::clicked, this, &InboxContactPanel::openContact);
    connect(m_createContact, &QPushButton::clicked, this, &InboxContactPanel::createContactForVisitor);
    connect(m_openDeal, &QPushButton::clicked, this, &InboxContactPanel::openDeal);
    connect(m_openTask, &QPushButton::clicked, this, &InboxContactPanel::openTask);
    connect(m_deals, &QListWidget::itemActivated, this, &InboxContactPanel::openDeal);
    connect(m_tasks, &QListWidget::itemActivated, this, &InboxContactPanel::openTask);
    connect(m_deals, &QListWidget::currentRowChanged, this,
            [this](int row) { m_openDeal->setEnabled(row >= 0 && !m_deals->item(row)->data(Qt::UserRole).isNull()); });
    connect(m_tasks, &QListWidget::currentRowChanged, this,
            [this](int row) { m_openTask->setEnabled(row >= 0 && !m_tasks->item(row)->data(Qt::UserRole).isNull()); });
    m_reloadTimer.setSingleShot(true);
    m_reloadTimer.setInterval(50);
    connect(&m_reloadTimer, &QTimer::timeout, this, &InboxContactPanel::reload);
    connect(&store.bus(), &EventBus::changed, this, [this](EventBus::Entity entity, const QString &, EventBus::Change) {
        if (!m_contactId.isEmpty() && (entity == EventBus::Entity::Contact || entity == EventBus::Entity::Deal ||
                                       entity == EventBus::Entity::Task))
            m_reloadTimer.start();
    });
    reload();
}

InboxContactPanel::~InboxContactPanel() = default;

void InboxContactPanel::setTasksTimeZone(const QTimeZone &tz)
{
    m_taskRepo = std::make_unique<TaskRepository>(m_store, tz);
    reload();
}

void InboxContactPanel::showContact(const QString &contactId)
{
    if (contactId == m_contactId && m_visitorConversationId.isEmpty())
        return;
    m_contactId = contactId;
    m_visitorConversationId.clear();
    m_visitorLabel.clear();
    reload();
}

void InboxContactPanel::showVisitor(const QString &conversationId, const QString &label)
{
    m_contactId.clear();
    m_visitorConversationId = conversationId;
    m_visitorLabel = label;
    reload();
}

void InboxContactPanel::createContactForVisitor()
{
    if (m_visitorConversationId.isEmpty())
        return;
    const QString conversationId = m_visitorConversationId;
    auto *dialog = new ContactDialog(*m_contacts, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Create contact for %1").arg(m_visitorLabel));
    Contact prefill;
    prefill.source = QStringLiteral("widget");
    dialog->prefill(prefill);
    const Store store = m_store;
    dialog->setCreate([store, conversationId](const ContactChanges &changes) {
        return WidgetVisitorRepository(store).identify(conversationId, changes).contact;
    });
    dialog->open();
}

void InboxContactPanel::reload()
{
    m_reloadTimer.stop();
    m_deals->clear();
    m_tasks->clear();
    const bool visitor = !m_visitorConversationId.isEmpty();
    m_createContact->setVisible(visitor);
    const QList<QWidget *> contactOnly{m_openContact, m_dealsLabel, m_deals,   m_openDeal,
                                       m_tasksLabel,  m_tasks,      m_openTask};
    for (QWidget *w : contactOnly)
        w->setVisible(!visitor);
    if (visitor) {
        m_name->setText(tr("Anonymous web visitor"));
        m_name->setToolTip(m_visitorLabel);
        m_details->setPlainText(tr("%1 has not given a name, e-mail address or phone number yet. "
                                   "Create a contact when you know who they are.")
                                    .arg(m_visitorLabel));
        return;
    }
    std::optional<Contact> c;
    try {
        if (!m_contactId.isEmpty())
            c = m_contacts->find(m_contactId);
    } catch (const std::exception &) {
        c.reset();
    }
    m_openContact->setEnabled(c.has_value());
    m_openDeal->setEnabled(false);
    m_openTask->setEnabled(false);
    if (!c) {
        m_name->setText(m_contactId.isEmpty() ? tr("No conversation selected") : tr("Contact not found"));
        m_details->clear();
        return;
    }
    m_name->setText(c->displayName());
    m_name->setToolTip(c->displayName());
    QStringList lines;
    if (!c->phone.isEmpty())
        lines << tr("Phone: %1").arg(PhoneText::display(c->phone));
    if (!c->email.isEmpty())
        lines << tr("E-mail: %1").arg(c->email);
    if (!c->company.isEmpty())
        lines << tr("Company: %1").arg(c->company);
    m_details->setPlainText(lines.join(QLatin1Char('\n')));

    const QLocale locale;
    try {
        const QVector<Pipeline> pipelines = m_pipelines.list();
        for (const QJsonValue &v : m_dealRepo->forContact(m_contactId)) {
            const QJsonObject d = v.toObject();
            const QString stage = DealText::stageName(pipelines, d.value(QLatin1String("pipelineId")).toString(),
                                                      d.value(QLatin1String("stage")).toString());
            const QString text = tr("%1 · %2 · %3 %4")
                                     .arg(d.value(QLatin1String("name")).toString(), stage,
                                          locale.toString(d.value(QLatin1String("value")).toDouble(), 'f', 0),
                                          d.value(QLatin1String("currency")).toString());
            auto *item = new QListWidgetItem(text, m_deals);
            item->setData(Qt::UserRole, d.value(QLatin1String("id")).toString());
        }
        TaskQuery q;
        q.contactId = m_contactId;
        q.openOnly = true;
        q.limit = 100;
        for (const Task &t : m_taskRepo->list(q).items) {
            QString text = t.title;
            if (t.isAllDay())
                text = tr("%1 · due %2")
                           .arg(t.title, locale.toString(t.dueDay(m_taskRepo->timeZone()), QLocale::ShortFormat));
            else if (!t.dueDate.isEmpty())
                text = tr("%1 · due %2")
                           .arg(t.title,
                                locale.toString(t.dueInstant(m_taskRepo->timeZone()).toTimeZone(m_taskRepo->timeZone()),
                                                QLocale::ShortFormat));
            auto *item = new QListWidgetItem(text, m_tasks);
            item->setData(Qt::UserRole, t.id);
            if (m_taskRepo->isOverdue(t))
                item->setForeground(UiKit::color(UiKit::Tone::Danger));
        }
    } catch (const std::exception &e) {
        m_details->append(ErrorText::of(e));
    }
    if (m_deals->count() == 0)
        new QListWidgetItem(tr("No deals."), m_deals);
    if (m_tasks->count() == 0)
        new QListWidgetItem(tr("No open tasks."), m_tasks);
}

void InboxContactPanel::openContact()
{
    if (m_contactId.isEmpty())
        return;
    if (isSignalConnected(QMetaMethod::fromSignal(&InboxContactPanel::contactRequested))) {
        emit contactRequested(m_contactId);
        return;
    }
    const std::optional<Contact> c = m_contacts->find(m_contactId);
    if (!c)
        return;
    auto *dialog = new ContactDialog(*m_contacts, *c, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void InboxContactPanel::openDeal()
{
    QListWidgetItem *item = m_deals->currentItem();
    const QString id = item ? item->data(Qt::UserRole).toString() : QString();
    if (id.isEmpty())
        return;
    auto *dialog = new DealDetailDialog(*m_dealRepo, m_store, id, this, m_taskRepo->timeZone());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void InboxContactPanel::openTask()
{
    QListWidgetItem *item = m_tasks->currentItem();
    const QString id = item ? item->data(Qt::UserRole).toString() : QString();
    if (id.isEmpty())
        return;
    const std::optional<Task> t = m_taskRepo->find(id);
    if (!t)
        return;
    auto *dialog = new TaskDialog(*m_taskRepo, *t, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

InboxView::InboxView(ConversationRepository &conversations, const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_conversations(conversations)
    , m_store(store)
    , m_users(store)
    , m_drafts(std::make_unique<ComposerDrafts>())
{
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("conversationSearchEdit"));
    m_search->setPlaceholderText(tr("Search by contact name…"));
    m_search->setAccessibleName(tr("Search conversations"));
    m_search->setClearButtonEnabled(true);
    // The hint whole, however narrow the pane is made.
    m_search->setMinimumWidth(m_search->fontMetrics().horizontalAdvance(m_search->placeholderText()) +
                              m_search->fontMetrics().averageCharWidth() * 4);
    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(SearchDelayMs);
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchTimer.start(); });
    connect(&m_searchTimer, &QTimer::timeout, this, &InboxView::reloadList);
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        reloadList();
        m_list->setFocus(Qt::OtherFocusReason);
        if (!m_list->currentItem() && m_list->count() > 0)
            m_list->setCurrentRow(0);
    });
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
    m_mineFilter = new QCheckBox(tr("Assigned to me"), this);
    m_mineFilter->setObjectName(QStringLiteral("mineFilter"));
    m_mineFilter->setEnabled(false);
    m_unreadFilter = new QCheckBox(tr("Unread"), this);
    m_unreadFilter->setObjectName(QStringLiteral("unreadFilter"));
    m_waitingFilter = new QCheckBox(tr("Waiting"), this);
    m_waitingFilter->setObjectName(QStringLiteral("waitingFilter"));
    m_waitingFilter->setToolTip(tr("Conversations whose last message came from the customer and that are not closed"));
    m_unreadBadge = new QLabel(this);
    m_unreadBadge->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_unreadBadge->setObjectName(QStringLiteral("unreadBadge"));
    styleUnreadBadge();
    connect(&Theme::instance(), &Theme::schemeChanged, this, &InboxView::styleUnreadBadge);
    // The badge keeps its room while hidden, so that the list beside it does not jump when it shows.
    m_unreadBadge->setMinimumWidth(m_unreadBadge->fontMetrics().horizontalAdvance(tr("%n unread", nullptr, 999)) + 16);
    m_unreadBadge->setAlignment(Qt::AlignCenter);
    QSizePolicy badgePolicy = m_unreadBadge->sizePolicy();
    badgePolicy.setRetainSizeWhenHidden(true);
    m_unreadBadge->setSizePolicy(badgePolicy);
    m_unreadBadge->hide();
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("conversationList"));
    m_list->setAccessibleName(tr("Conversations"));
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setTextElideMode(Qt::ElideRight);
    m_list->setIconSize(QSize(24, 24));
    m_list->setStyleSheet(
        QStringLiteral("QListWidget::item { padding: %1px %2px; }").arg(UiKit::Space::XS + 1).arg(UiKit::Space::XS));
    new RowAnchor(m_list, kIdRole); // a new message does not move the conversation under the mouse
    m_emptyHint = installEmptyHint(m_list, emptyListHint());

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    // The unread count beside the search: the filters' rows stay as narrow as their controls.
    auto *searchRow = new QHBoxLayout;
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(m_unreadBadge);
    leftLayout->addLayout(searchRow);
    auto *filters = new QHBoxLayout;
    filters->addWidget(m_statusFilter);
    filters->addWidget(m_channelFilter);
    leftLayout->addLayout(filters);
    auto *toggles = new QHBoxLayout;
    toggles->addWidget(m_mineFilter);
    toggles->addWidget(m_unreadFilter);
    toggles->addWidget(m_waitingFilter);
    toggles->addStretch(1);
    leftLayout->addLayout(toggles);
    leftLayout->addWidget(m_list);

    // Who the conversation is with, in bold, and under it its channel, status and agent: each line
    // ends in "…" at the header's width rather than widening the pane (a cut line is its tooltip).
    m_header = new ElidedLabel(tr("Select a conversation"), this);
    m_header->setObjectName(QStringLiteral("threadHeader"));
    QFont headerFont = UiKit::font(UiKit::Type::Emphasis);
    headerFont.setBold(true);
    m_header->setFont(headerFont);
    m_headerDetails = new ElidedLabel(this);
    m_headerDetails->setObjectName(QStringLiteral("threadDetails"));
    UiKit::setTone(m_headerDetails, UiKit::Tone::Muted);
    m_close = new QPushButton(tr("Close"), this);
    m_close->setObjectName(QStringLiteral("closeButton"));
    m_reopen = new QPushButton(tr("Reopen"), this);
    m_reopen->setObjectName(QStringLiteral("reopenButton"));
    m_reopen->hide(); // shown in Close's place while a closed conversation is open
    m_assign = new QPushButton(tr("Assign to me"), this);
    m_assign->setObjectName(QStringLiteral("assignButton"));
    m_assignee = new QComboBox(this);
    m_assignee->setObjectName(QStringLiteral("assigneeCombo"));
    m_assignee->setToolTip(tr("Assigned agent"));
    m_tags = new QListWidget(this);
    m_tags->setObjectName(QStringLiteral("tagList"));
    m_tags->setAccessibleName(tr("Tags"));
    m_tags->setFlow(QListView::LeftToRight);
    m_tags->setMaximumHeight(2 * fontMetrics().height() + 8);
    m_tagEdit = new QLineEdit(this);
    m_tagEdit->setObjectName(QStringLiteral("tagEdit"));
    m_tagEdit->setAccessibleName(tr("New tags"));
    // A short hint that fits the field beside the buttons; how to write several, in its tooltip.
    m_tagEdit->setPlaceholderText(tr("New tags"));
    m_tagEdit->setToolTip(tr("Add tags, comma-separated"));
    // Room for the hint, whatever the row's width.
    m_tagEdit->setMinimumWidth(m_tagEdit->fontMetrics().horizontalAdvance(m_tagEdit->placeholderText()) +
                               m_tagEdit->fontMetrics().averageCharWidth() * 3);
    m_addTag = new QPushButton(tr("Add tag"), this);
    m_addTag->setObjectName(QStringLiteral("addTagButton"));
    m_removeTag = new QPushButton(tr("Remove tag"), this);
    m_removeTag->setObjectName(QStringLiteral("removeTagButton"));
    // The tag's context menu and Delete on a tag (eventFilter) remove it too.
    auto *removeTagAction = new QAction(tr("Remove tag"), m_tags);
    connect(removeTagAction, &QAction::triggered, this, [this] {
        if (m_removeTag->isEnabled())
            removeTag();
    });
    m_tags->addAction(removeTagAction);
    m_tags->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_tags->installEventFilter(this);
    m_quickButton = new QToolButton(this);
    m_quickButton->setObjectName(QStringLiteral("quickRepliesButton"));
    m_quickButton->setText(tr("Quick replies"));
    m_quickButton->setToolTip(tr("Insert a canned answer (or type / in the empty composer)"));
    m_quickButton->setPopupMode(QToolButton::InstantPopup);
    m_quickMenu = new QMenu(this);
    m_quickMenu->setObjectName(QStringLiteral("quickRepliesMenu"));
    m_quickButton->setMenu(m_quickMenu);
    // The Fusion style draws the menu arrow over the end of the text: room for it beside the text.
    m_quickButton->setMinimumWidth(m_quickButton->sizeHint().width() + fontMetrics().averageCharWidth() * 2);
    m_thread = new QListWidget(this);
    m_thread->setObjectName(QStringLiteral("thread"));
    m_thread->setAccessibleName(tr("Messages"));
    m_thread->setWordWrap(true);
    m_composer = new MessageEdit(this);
    m_composer->setObjectName(QStringLiteral("composer"));
    m_composer->setAccessibleName(tr("Reply"));
    m_composer->setPlaceholderText(tr("Write a reply…"));
    m_composer->setToolTip(tr("Enter sends, Shift+Enter starts a new line"));
    m_thread->setItemDelegate(new ChatBubbleDelegate(m_thread));
    m_thread->setResizeMode(QListView::Adjust);
    m_thread->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_thread->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_thread->setUniformItemSizes(false);
    m_thread->setSelectionMode(QAbstractItemView::SingleSelection);
    m_thread->setContextMenuPolicy(Qt::CustomContextMenu);
    m_thread->setFrameShape(QFrame::NoFrame);
    connect(m_thread, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        QListWidgetItem *item = m_thread->itemAt(pos);
        if (!item)
            return;
        QMenu menu(this);
        menu.addAction(tr("Copy text"), this, [text = item->text()] { QApplication::clipboard()->setText(text); });
        const QString unsentId = item->data(kUnsentRole).toString();
        if (!unsentId.isEmpty()) {
            menu.addAction(tr("Retry"), this, &InboxView::retryUnsent);
            menu.addAction(tr("Edit"), this, [this, unsentId] { editUnsent(unsentId); });
            menu.addAction(tr("Discard"), this, [this, unsentId] { discardUnsent(unsentId); });
        } else if (item->data(kResendRole).toBool() && m_send->isEnabled()) {
            menu.addAction(tr("Send again"), this, [this, text = item->text()] {
                QString why;
                if (!sendText(text, &why))
                    m_drafts->addUnsent(m_currentId, text, why, m_store.now().toString(Qt::ISODateWithMs));
                reload();
            });
        }
        menu.exec(m_thread->viewport()->mapToGlobal(pos));
    });
    m_send = new QPushButton(tr("Send"), this);
    m_send->setObjectName(QStringLiteral("sendButton"));
    m_error = new QLabel(this);
    m_error->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_error->setObjectName(QStringLiteral("errorLabel"));
    UiKit::setTone(m_error, UiKit::Tone::Danger);
    m_error->setWordWrap(true);
    m_error->hide();
    // The conversation's replies that were not sent: what, why, and what to do with them.
    m_unsentBar = new QWidget(this);
    m_unsentBar->setObjectName(QStringLiteral("unsentBar"));
    m_unsentLabel = new QLabel(m_unsentBar);
    m_unsentLabel->setObjectName(QStringLiteral("unsentLabel"));
    m_unsentLabel->setTextFormat(Qt::PlainText);
    UiKit::setTone(m_unsentLabel, UiKit::Tone::Danger);
    m_unsentLabel->setWordWrap(true);
    m_unsentLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_retryUnsent = new QPushButton(tr("Retry"), m_unsentBar);
    m_retryUnsent->setObjectName(QStringLiteral("retryUnsentButton"));
    m_retryUnsent->setToolTip(tr("Send the replies that were not sent again, oldest first"));
    m_editUnsent = new QPushButton(tr("Edit"), m_unsentBar);
    m_editUnsent->setObjectName(QStringLiteral("editUnsentButton"));
    m_editUnsent->setToolTip(tr("Take the reply back into the composer"));
    m_discardUnsent = new QPushButton(tr("Discard"), m_unsentBar);
    m_discardUnsent->setObjectName(QStringLiteral("discardUnsentButton"));
    m_discardUnsent->setToolTip(tr("Delete the reply without sending it"));
    auto *unsentLayout = new QHBoxLayout(m_unsentBar);
    unsentLayout->setContentsMargins(0, 0, 0, 0);
    unsentLayout->addWidget(m_unsentLabel, 1);
    unsentLayout->addWidget(m_retryUnsent);
    unsentLayout->addWidget(m_editUnsent);
    unsentLayout->addWidget(m_discardUnsent);
    m_unsentBar->hide();
    // The assistant handed the conversation over: why, and the way back.
    m_handoffBanner = new QFrame(this);
    m_handoffBanner->setObjectName(QStringLiteral("aiHandoffBanner"));
    m_handoffIcon = new QLabel(m_handoffBanner);
    m_handoffLabel = new QLabel(m_handoffBanner);
    m_handoffLabel->setObjectName(QStringLiteral("aiHandoffLabel"));
    m_handoffLabel->setTextFormat(Qt::PlainText);
    m_handoffLabel->setWordWrap(true);
    m_handoffLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_handBack = new QPushButton(tr("Hand back to the assistant"), m_handoffBanner);
    m_handBack->setObjectName(QStringLiteral("handBackButton"));
    m_handBack->setToolTip(tr("The assistant answers this conversation's customer again"));
    auto *handoffLayout = new QHBoxLayout(m_handoffBanner);
    handoffLayout->setContentsMargins(UiKit::Space::S, UiKit::Space::XS, UiKit::Space::S, UiKit::Space::XS);
    handoffLayout->addWidget(m_handoffIcon);
    handoffLayout->addWidget(m_handoffLabel, 1);
    handoffLayout->addWidget(m_handBack);
    m_handoffBanner->hide();
    // The assistant's draft reply: put into the composer, said so here, with its thumbs and Discard.
    m_aiDraftBar = new QFrame(this);
    m_aiDraftBar->setObjectName(QStringLiteral("aiDraftBar"));
    m_aiDraftIcon = new QLabel(m_aiDraftBar);
    m_aiDraftLabel = new QLabel(m_aiDraftBar);
    m_aiDraftLabel->setObjectName(QStringLiteral("aiDraftLabel"));
    m_aiDraftLabel->setTextFormat(Qt::PlainText);
    m_aiDraftLabel->setWordWrap(true);
    m_aiDraftLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_useAiDraft = new QPushButton(tr("Use"), m_aiDraftBar);
    m_useAiDraft->setObjectName(QStringLiteral("useAiDraftButton"));
    m_useAiDraft->setToolTip(tr("Put the suggestion into the reply box, after what you wrote"));
    m_aiDraftFeedback = new AiFeedbackButtons(m_aiDraftBar);
    m_aiDraftFeedback->setObjectName(QStringLiteral("aiDraftFeedback"));
    m_discardAiDraft = new QPushButton(tr("Discard", "the assistant's suggestion"), m_aiDraftBar);
    m_discardAiDraft->setObjectName(QStringLiteral("discardAiDraftButton"));
    m_discardAiDraft->setAccessibleName(tr("Discard the suggestion"));
    m_discardAiDraft->setToolTip(tr("Discard the assistant's suggestion (and take it out of the reply box)"));
    auto *draftLayout = new QHBoxLayout(m_aiDraftBar);
    draftLayout->setContentsMargins(UiKit::Space::S, UiKit::Space::XS, UiKit::Space::S, UiKit::Space::XS);
    draftLayout->addWidget(m_aiDraftIcon);
    draftLayout->addWidget(m_aiDraftLabel, 1);
    draftLayout->addWidget(m_useAiDraft);
    draftLayout->addWidget(m_aiDraftFeedback);
    draftLayout->addWidget(m_discardAiDraft);
    m_aiDraftBar->hide();
    styleAssistantBars();
    connect(&Theme::instance(), &Theme::schemeChanged, this, &InboxView::styleAssistantBars);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto *actions = new QHBoxLayout;
    auto *headerLines = new QVBoxLayout;
    headerLines->setSpacing(0);
    headerLines->addWidget(m_header);
    headerLines->addWidget(m_headerDetails);
    actions->addLayout(headerLines, 1);
    actions->addWidget(m_assignee);
    actions->addWidget(m_assign);
    actions->addWidget(m_close);
    actions->addWidget(m_reopen);
    rightLayout->addLayout(actions);
    rightLayout->addWidget(m_handoffBanner);
    auto *tagsRow = new QHBoxLayout;
    tagsRow->addWidget(new QLabel(tr("Tags:"), this));
    tagsRow->addWidget(m_tags, 1);
    tagsRow->addWidget(m_removeTag);
    tagsRow->addWidget(m_tagEdit);
    tagsRow->addWidget(m_addTag);
    rightLayout->addLayout(tagsRow);
    rightLayout->addWidget(m_thread, 1);
    rightLayout->addWidget(m_unsentBar);
    rightLayout->addWidget(m_aiDraftBar);
    m_composerExtras = new InboxComposer(m_store, this);
    rightLayout->addWidget(m_composerExtras);
    m_composerRow = new QHBoxLayout;
    m_composerRow->addWidget(m_quickButton);
    m_composerRow->addWidget(m_composerExtras->attachButton());
    m_composerRow->addWidget(m_composerExtras->templateButton());
    m_composerRow->addStretch(1);
    m_composerRow->addWidget(m_send);
    rightLayout->addWidget(m_composer); // the whole width for the text, the buttons under it
    rightLayout->addLayout(m_composerRow);
    rightLayout->addWidget(m_error); // errors show under the composer

    m_contactPanel = new InboxContactPanel(store, this);
    m_contactPanel->setMinimumWidth(200);

    auto *splitter = new QSplitter(this);
    splitter->setObjectName(QStringLiteral("inboxSplitter"));
    splitter->setHandleWidth(UiKit::Space::S); // a gap between the panes, so that none runs into the next
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->addWidget(m_contactPanel);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::M, UiKit::Space::M, UiKit::Space::M, UiKit::Space::S);
    layout->addWidget(splitter);

    // Bursts of bus signals (a message changes the message, its conversation and the contact)
    // are folded into one reload.
    m_reloadTimer.setSingleShot(true);
    m_reloadTimer.setInterval(50);
    connect(&m_reloadTimer, &QTimer::timeout, this, &InboxView::reload);
    connect(&store.bus(), &EventBus::changed, this, &InboxView::onBusChanged);
    connect(m_statusFilter, &QComboBox::currentIndexChanged, this, &InboxView::reloadList);
    connect(m_channelFilter, &QComboBox::currentIndexChanged, this, &InboxView::reloadList);
    connect(m_mineFilter, &QCheckBox::toggled, this, &InboxView::reloadList);
    connect(m_unreadFilter, &QCheckBox::toggled, this, &InboxView::reloadList);
    connect(m_waitingFilter, &QCheckBox::toggled, this, &InboxView::reloadList);
    connect(m_assignee, &QComboBox::activated, this, &InboxView::assignTo);
    connect(m_addTag, &QPushButton::clicked, this, &InboxView::addTag);
    connect(m_tagEdit, &QLineEdit::returnPressed, this, &InboxView::addTag);
    connect(m_removeTag, &QPushButton::clicked, this, &InboxView::removeTag);
    connect(m_tags, &QListWidget::currentRowChanged, this,
            [this](int row) { m_removeTag->setEnabled(row >= 0 && !m_currentId.isEmpty()); });
    connect(m_composer, &QPlainTextEdit::textChanged, this, [this] {
        // "/" typed into an empty composer opens the quick replies.
        if (m_composer->text() == QLatin1String("/")) {
            m_composer->clear();
            showQuickReplies();
        }
    });
    connect(m_list, &QListWidget::currentItemChanged, this, &InboxView::onSelectionChanged);
    connect(m_send, &QPushButton::clicked, this, &InboxView::send);
    connect(m_composer, &MessageEdit::submitted, this, &InboxView::send);
    connect(m_composer, &QPlainTextEdit::textChanged, this, [this] {
        if (m_settingComposer)
            return;
        m_error->hide();
        m_draftTimer.start(); // kept as the conversation's draft once typing pauses
    });
    m_draftTimer.setSingleShot(true);
    m_draftTimer.setInterval(400);
    connect(&m_draftTimer, &QTimer::timeout, this, &InboxView::saveDraft);
    connect(m_retryUnsent, &QPushButton::clicked, this, &InboxView::retryUnsent);
    connect(m_editUnsent, &QPushButton::clicked, this, [this] {
        const auto unsent = m_drafts->unsent(m_currentId);
        if (!unsent.isEmpty())
            editUnsent(unsent.first().id);
    });
    connect(m_discardUnsent, &QPushButton::clicked, this, [this] {
        const auto unsent = m_drafts->unsent(m_currentId);
        if (!unsent.isEmpty())
            discardUnsent(unsent.first().id);
    });
    connect(m_composerExtras, &InboxComposer::errorOccurred, this, &InboxView::showError);
    connect(m_composerExtras, &InboxComposer::errorCleared, m_error, &QLabel::hide);
    m_composerExtras->watchDrops(m_thread->viewport());
    m_composerExtras->watchDrops(m_composer->viewport());
    connect(m_close, &QPushButton::clicked, this, [this] { setStatus(QStringLiteral("closed")); });
    connect(m_reopen, &QPushButton::clicked, this, [this] { setStatus(QStringLiteral("open")); });
    connect(m_assign, &QPushButton::clicked, this, &InboxView::assignToMe);
    connect(m_handBack, &QPushButton::clicked, this, &InboxView::handBack);
    connect(m_useAiDraft, &QPushButton::clicked, this, &InboxView::useAiDraft);
    connect(m_discardAiDraft, &QPushButton::clicked, this, &InboxView::discardAiDraft);
    connect(m_aiDraftFeedback, &AiFeedbackButtons::rated, this, [this](int rating, const QString &reason) {
        rateAnswer(m_aiDraftAnswerId, rating, reason, m_aiDraftFeedback);
    });
    connect(m_thread, &QListWidget::currentItemChanged, this, &InboxView::updateThumbsTabOrder);

    m_isActive = [this] { return window()->isActiveWindow(); };
    rebuildQuickMenu();
    reloadAssignees();
    reload();
}

InboxView::~InboxView()
{
    saveDraft();
}

bool InboxView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_tags && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Delete || key->key() == Qt::Key_Backspace) && m_removeTag->isEnabled()) {
            removeTag();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void InboxView::setTasksTimeZone(const QTimeZone &tz)
{
    m_contactPanel->setTasksTimeZone(tz);
}

void InboxView::reloadAssignees()
{
    const QSignalBlocker block(m_assignee);
    fillActiveUsers(m_assignee, tr("Unassigned"), m_users);
}

void InboxView::setQuickReplies(const QStringList &replies)
{
    m_quickReplies.clear();
    for (const QString &r : replies) {
        if (!r.trimmed().isEmpty())
            m_quickReplies << r.trimmed();
    }
    rebuildQuickMenu();
}

void InboxView::rebuildQuickMenu()
{
    m_quickMenu->clear();
    for (int i = 0; i < m_quickReplies.size(); ++i) {
        const QString text = fontMetrics().elidedText(m_quickReplies.at(i), Qt::ElideRight, 320);
        QAction *a = m_quickMenu->addAction(text, this, [this, i] { insertQuickReply(i); });
        a->setToolTip(m_quickReplies.at(i));
        if (i < 9) {
            // Ctrl+1 … Ctrl+9 insert the first nine anywhere in the Inbox.
            a->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)));
            a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
            addAction(a);
        }
    }
    if (m_quickReplies.isEmpty())
        m_quickMenu->addAction(tr("No quick replies yet"))->setEnabled(false);
    m_quickMenu->addSeparator();
    QAction *edit = m_quickMenu->addAction(tr("Edit quick replies…"), this, &InboxView::editQuickReplies);
    edit->setObjectName(QStringLiteral("editQuickRepliesAction"));
}

void InboxView::insertQuickReply(int index)
{
    if (index < 0 || index >= m_quickReplies.size() || !m_composer->isEnabled())
        return;
    m_composer->insertPlainText(m_quickReplies.at(index));
    m_composer->setFocus();
}

void InboxView::showQuickReplies()
{
    m_quickMenu->popup(m_composer->mapToGlobal(QPoint(0, m_composer->height())));
}

void InboxView::editQuickReplies()
{
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("quickRepliesDialog"));
    dialog->setWindowTitle(tr("Quick replies"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto *edit = new QPlainTextEdit(dialog);
    edit->setObjectName(QStringLiteral("quickRepliesEdit"));
    edit->setPlainText(m_quickReplies.join(QLatin1Char('\n')));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(new QLabel(tr("One answer per line:"), dialog));
    layout->addWidget(edit);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(dialog, &QDialog::accepted, this, [this, edit] {
        setQuickReplies(edit->toPlainText().split(QLatin1Char('\n')));
        if (m_saveQuickReplies)
            m_saveQuickReplies(m_quickReplies);
    });
    dialog->open();
}

void InboxView::setSender(Sender sender)
{
    m_sender = std::move(sender);
    reloadThread();
}

void InboxView::setCurrentUser(const QString &userId, const QString &name)
{
    // The previous user's draft stays theirs; the composer shows the new user's own.
    saveDraft();
    m_drafts->setUser(userId);
    m_draftConversationId.clear();
    switchDraft(m_currentId);
    m_userId = userId;
    m_mineFilter->setEnabled(!userId.isEmpty());
    reloadAssignees();
    m_assign->setToolTip(userId.isEmpty() ? tr("No user account: create one with “liaison user add”")
                                          : tr("Assign to %1").arg(name));
    reload(); // the list shows this user's drafts
}

void InboxView::reload()
{
    reloadList();
    reloadThread();
}

void InboxView::reloadList()
{
    m_searchTimer.stop();
    m_loading = true;
    ConversationQuery q;
    q.limit = kListLimit;
    q.contactSearch = m_search->text().trimmed();

    q.status = m_statusFilter->currentData().toString();
    q.channel = m_channelFilter->currentData().toString();
    if (m_mineFilter->isChecked() && !m_userId.isEmpty())
        q.assignedTo = m_userId;
    q.unreadOnly = m_unreadFilter->isChecked();
    q.waitingOnly = m_waitingFilter->isChecked();
    ConversationPage page;
    qint64 unread = m_unread;
    try {
        page = m_conversations.list(q);
        unread = m_conversations.unreadConversations();
    } catch (const std::exception &e) {
        showError(ErrorText::of(e));
    }
    m_unreadBadge->setText(tr("%n unread", nullptr, int(unread)));
    m_unreadBadge->setVisible(unread > 0);
    if (int(qMin<qint64>(unread, INT_MAX)) != m_unread) {
        m_unread = int(qMin<qint64>(unread, INT_MAX));
        emit unreadCountChanged(m_unread);
    }
    updateEmptyState();
    m_list->clear();
    QListWidgetItem *current = nullptr;
    for (const Conversation &v : page.items) {
        // Two lines: who (and what is open about it); when, then the last message. The time leads the
        // second line so that a long name never hides it; the channel is the icon (and the tooltip).
        const QString name = InboxText::conversationName(v);
        QString text = v.unreadCount > 0 ? tr("%1 (%2 unread)").arg(name).arg(v.unreadCount) : name;
        if (v.status != QLatin1String("open"))
            text += QStringLiteral(" · ") + InboxText::statusName(v.status);
        if (!v.aiHandoff.isEmpty())
            text += QStringLiteral(" · ") + tr("handed over");
        QStringList second;
        if (!v.lastMessageAt.isEmpty())
            second << InboxText::when(v.lastMessageAt, m_store.today());
        // What the agent left here shows first, as chat apps show a draft.
        const QString draft = v.id == m_draftConversationId ? m_composer->text() : m_drafts->draft(v.id);
        if (!m_drafts->unsent(v.id).isEmpty())
            second << tr("Not sent");
        else if (!v.aiDraft.isEmpty() && (draft.trimmed().isEmpty() || draft.trimmed() == v.aiDraft.trimmed()))
            second << tr("Suggestion: %1").arg(v.aiDraft.left(80).simplified());
        else if (!draft.trimmed().isEmpty())
            second << tr("Draft: %1").arg(draft.left(80).simplified());
        else if (!v.lastMessageText.isEmpty())
            second << v.lastMessageText.left(80).simplified();
        if (!second.isEmpty())
            text += QLatin1Char('\n') + second.join(QStringLiteral(" · "));
        auto *item = new QListWidgetItem(InboxText::channelIcon(v.channel), text, m_list);
        QString tip = InboxText::channelName(v.channel) + QStringLiteral(" · ") + InboxText::statusName(v.status);
        if (!v.aiHandoff.isEmpty())
            tip += QLatin1Char('\n') +
                   tr("The assistant handed this conversation over: %1").arg(InboxText::handoffReason(v.aiHandoff));
        item->setToolTip(tip);
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

void InboxView::updateEmptyState()
{
    const QString search = m_search->text().trimmed();
    const bool filtered = m_statusFilter->currentIndex() > 0 || m_channelFilter->currentIndex() > 0 ||
                          m_mineFilter->isChecked() || m_unreadFilter->isChecked() || m_waitingFilter->isChecked();
    if (!search.isEmpty()) {
        m_emptyHint->setText(tr("No conversation with a contact named “%1”: change or clear the search.").arg(search));
        setEmptyHintIcon(m_emptyHint, QStringLiteral("search"));
        setEmptyHintAction(m_emptyHint, tr("Clear the search"), [this] {
            m_search->clear();
            reloadList();
        });
    } else if (filtered) {
        m_emptyHint->setText(tr("No conversation here with these filters."));
        setEmptyHintIcon(m_emptyHint, QStringLiteral("search"));
        setEmptyHintAction(m_emptyHint, tr("Clear the filters"), [this] {
            clearFilters();
            reloadList();
        });
    } else {
        m_emptyHint->setText(emptyListHint());
        setEmptyHintIcon(m_emptyHint, QStringLiteral("inbox"));
        if (m_openChannels)
            setEmptyHintAction(m_emptyHint, tr("Set up channels…"), m_openChannels);
        else
            setEmptyHintAction(m_emptyHint, {}, {});
    }
}

void InboxView::setChannelsOpener(std::function<void()> open)
{
    m_openChannels = std::move(open);
    updateEmptyState();
}

void InboxView::styleUnreadBadge()
{
    // White on the selection colour: the navigation's unread count looks the same.
    m_unreadBadge->setStyleSheet(QStringLiteral("QLabel { background: %1; color: white; border-radius: 8px; "
                                                "padding: 0 6px; font-weight: bold; }")
                                     .arg(UiKit::palette(UiKit::scheme()).color(QPalette::Highlight).name()));
}

QString InboxView::emptyListHint()
{
    return tr("No conversations here. Messages from WhatsApp, Telegram, Instagram and the web widget arrive here once "
              "a channel is set up in Settings → Channels.");
}

void InboxView::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void InboxView::focusComposer()
{
    m_composer->setFocus(Qt::ShortcutFocusReason);
}

bool InboxView::selectConversation(const QString &id)
{
    auto find = [this, &id] {
        for (int i = 0; i < m_list->count(); ++i) {
            if (m_list->item(i)->data(kIdRole).toString() == id) {
                m_list->setCurrentRow(i);
                return true;
            }
        }
        return false;
    };
    if (find() || id.isEmpty())
        return !id.isEmpty();
    // Hidden by the search or a filter: the list widens to every conversation to show it.
    const bool filtered = !m_search->text().isEmpty() || m_statusFilter->currentIndex() > 0 ||
                          m_channelFilter->currentIndex() > 0 || m_mineFilter->isChecked() ||
                          m_unreadFilter->isChecked() || m_waitingFilter->isChecked();
    if (!filtered)
        return false;
    {
        const QSignalBlocker search(m_search);
        m_search->clear();
    }
    clearFilters();
    reloadList();
    return find();
}

void InboxView::clearFilters()
{
    const QSignalBlocker status(m_statusFilter), channel(m_channelFilter), mine(m_mineFilter), unread(m_unreadFilter),
        waiting(m_waitingFilter);
    m_statusFilter->setCurrentIndex(0);
    m_channelFilter->setCurrentIndex(0);
    m_mineFilter->setChecked(false);
    m_unreadFilter->setChecked(false);
    m_waitingFilter->setChecked(false);
}

void InboxView::showFiltered(bool waiting, const QString &channel)
{
    {
        const QSignalBlocker search(m_search);
        m_search->clear();
    }
    clearFilters();
    {
        const QSignalBlocker block(m_waitingFilter), channels(m_channelFilter);
        m_waitingFilter->setChecked(waiting);
        m_channelFilter->setCurrentIndex(qMax(0, m_channelFilter->findData(channel)));
    }
    reloadList();
}

bool InboxView::openConversation(const QString &id)
{
    reloadList();
    if (!selectConversation(id)) {
        clearFilters();
        reloadList();
        if (!selectConversation(id))
            return false;
    }
    m_composer->setFocus();
    return true;
}

void InboxView::onSelectionChanged()
{
    if (m_loading)
        return;
    QListWidgetItem *item = m_list->currentItem();
    m_currentId = item ? item->data(kIdRole).toString() : QString();
    m_error->hide();
    switchDraft(m_currentId);
    if (item && m_notifier)
        m_notifier->read(m_currentId); // its notifications too
    if (item && item->data(kUnreadRole).toInt() > 0) {
        try {
            m_conversations.markRead(m_currentId); // the bus reload updates the badge
        } catch (const std::exception &e) {
            showError(ErrorText::of(e));
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
        return tr("sending");
    if (s == QLatin1String("sent"))
        return tr("sent");
    if (s == QLatin1String("delivered"))
        return tr("delivered");
    if (s == QLatin1String("read"))
        return tr("read");
    return tr("failed: %1").arg(m.delivery.failedReason);
}

QString InboxView::tickMark(const QString &status)
{
    if (status == QLatin1String("pending"))
        return QStringLiteral("◷");
    if (status == QLatin1String("sent"))
        return QStringLiteral("✓");
    if (status == QLatin1String("delivered") || status == QLatin1String("read"))
        return QStringLiteral("✓✓");
    return QStringLiteral("✗");
}

QString InboxText::dayName(const QDate &day, const QDate &today)
{
    if (day == today)
        return InboxView::tr("Today");
    if (day == today.addDays(-1))
        return InboxView::tr("Yesterday");
    return QLocale().toString(day, day.year() == today.year() ? QStringLiteral("d MMMM, dddd")
                                                              : QLocale().dateFormat(QLocale::LongFormat));
}

QString InboxText::messageKind(const QString &type)
{
    if (type == QLatin1String("image"))
        return InboxView::tr("Image");
    if (type == QLatin1String("video"))
        return InboxView::tr("Video");
    if (type == QLatin1String("document"))
        return InboxView::tr("Document");
    if (type == QLatin1String("audio"))
        return InboxView::tr("Voice message");
    if (type == QLatin1String("location"))
        return InboxView::tr("Location");
    if (type == QLatin1String("template"))
        return InboxView::tr("Template");
    return type;
}

void InboxView::reloadThread()
{
    // The thumbs with the keyboard's focus get it back once rebuilt; a thread read further up stays there.
    QString focusedThumbs;
    bool focusedDown = false;
    if (QWidget *f = QApplication::focusWidget(); f && m_thread->viewport()->isAncestorOf(f)) {
        for (QWidget *w = f; w && w != m_thread->viewport(); w = w->parentWidget()) {
            if (auto *thumbs = qobject_cast<AiFeedbackButtons *>(w)) {
                focusedThumbs = thumbs->property("messageId").toString();
                focusedDown = f == thumbs->downButton();
                break;
            }
        }
    }
    QScrollBar *scroll = m_thread->verticalScrollBar();
    const bool keepScroll = !m_threadConversationId.isEmpty() && m_threadConversationId == m_currentId &&
                            scroll->value() < scroll->maximum() - 4;
    const int scrollValue = scroll->value();
    if (!focusedThumbs.isEmpty())
        m_thread->setFocus(Qt::OtherFocusReason); // not to the next widget while the thumbs go
    m_thread->clear();
    m_threadConversationId = m_currentId;
    std::optional<Conversation> v;
    if (!m_currentId.isEmpty())
        v = m_conversations.find(m_currentId);
    const bool has = v.has_value();
    m_composer->setEnabled(has);
    m_send->setEnabled(has && bool(m_sender));
    // One of Close and Reopen, as the conversation is (Close, disabled, while none is selected).
    const bool closed = has && v->status == QLatin1String("closed");
    const bool reopenHadFocus = m_reopen->hasFocus();
    const bool closeHadFocus = m_close->hasFocus();
    m_close->setVisible(!closed);
    m_reopen->setVisible(closed);
    m_close->setEnabled(has && !closed);
    m_reopen->setEnabled(closed);
    if (closeHadFocus && closed)
        m_reopen->setFocus(Qt::OtherFocusReason); // the keyboard stays on the button that took its place
    else if (reopenHadFocus && !closed)
        m_close->setFocus(Qt::OtherFocusReason);
    m_assign->setEnabled(has && !m_userId.isEmpty() && v->assignedTo != m_userId);
    m_assignee->setEnabled(has);
    m_tagEdit->setEnabled(has);
    m_addTag->setEnabled(has);
    m_tags->clear();
    m_removeTag->setEnabled(false);
    if (has) {
        if (!v->assignedTo.isEmpty() && m_assignee->findData(v->assignedTo) < 0)
            m_assignee->addItem(v->assignedName.isEmpty() ? v->assignedTo : v->assignedName, v->assignedTo);
        m_assignee->setCurrentIndex(qMax(0, m_assignee->findData(v->assignedTo)));
        m_tags->addItems(v->tags);
    }
    if (has && !v->hasContact())
        m_contactPanel->showVisitor(v->id, InboxText::conversationName(*v));
    else
        m_contactPanel->showContact(has ? v->contactId : QString());
    updateHandoff(v);
    if (!has) {
        updateAiDraft(v);
        m_composerExtras->setConversation(std::nullopt, QString());
        m_header->setText(tr("Select a conversation"));
        m_headerDetails->clear();
        updateUnsentBar();
        return;
    }
    QString lastIncomingAt;
    m_header->setText(InboxText::conversationName(*v));
    QString details = tr("%1 · %2").arg(InboxText::channelName(v->channel), InboxText::statusName(v->status));
    if (!v->assignedName.isEmpty())
        details += QStringLiteral(" · ") + tr("assigned to %1").arg(v->assignedName);
    m_headerDetails->setText(details);
    const QLocale locale;
    const QDate today = m_store.today();
    QDate previousDay;
    QString previousSender;
    const QVector<Message> messages = m_conversations.latestMessages(v->id, 200);
    // The answers the outgoing messages are (the assistant's, and drafts an agent sent), with the
    // signed-in user's thumbs on each.
    QStringList outgoingIds;
    for (const Message &m : messages) {
        if (m.direction == QLatin1String("outgoing"))
            outgoingIds << m.id;
    }
    QHash<QString, AiMessageAnswer> answers;
    try {
        answers = AiAnswerRepository(m_store).messageAnswers(outgoingIds, m_userId);
    } catch (const std::exception &) {
        // Without them the messages show without thumbs; the next reload reads them again.
    }
    for (const Message &m : messages) {
        const bool outgoing = m.direction == QLatin1String("outgoing");
        const bool assistant = outgoing && m.sender.type == QLatin1String("ai");
        const QDateTime at = QDateTime::fromString(m.createdAt, Qt::ISODateWithMs).toLocalTime();
        QString text = m.text.isEmpty() ? m.caption : m.text;
        QString note;
        if (m.type != QLatin1String("text")) {
            note = InboxText::messageKind(m.type);
            if (!m.filename.isEmpty())
                note += QStringLiteral(": ") + m.filename;
            else if (m.type == QLatin1String("location"))
                note += QStringLiteral(": ") + m.payload.value(QLatin1String("name")).toString();
        }
        QString sender = m.sender.name;
        // An anonymous visitor's messages carry the visitor's label as the server set it; the window
        // says it in its own language.
        if (!outgoing && !v->hasContact())
            sender = InboxText::conversationName(*v);
        if (sender.isEmpty() && assistant)
            sender = tr("Assistant");
        if (sender.isEmpty())
            sender = outgoing ? (m.sender.type == QLatin1String("contact") ? v->contactName() : tr("Team"))
                              : v->contactName();
        auto *item = new QListWidgetItem(text, m_thread);
        item->setData(kIdRole, m.id);
        item->setData(ChatBubbleDelegate::AssistantRole, assistant);
        item->setData(kStatusRole, m.delivery.status);
        item->setData(ChatBubbleDelegate::OutgoingRole, outgoing);
        const QString time = at.isValid() ? TaskTableModel::timeText(at.time(), locale) : QString();
        item->setData(ChatBubbleDelegate::TimeRole, time);
        if (at.isValid() && at.date() != previousDay) {
            item->setData(ChatBubbleDelegate::DayRole, InboxText::dayName(at.date(), today));
            previousSender.clear(); // a new day names the sender again
        }
        previousDay = at.date();
        // The sender is named when it changes, as chat apps do.
        const QString senderKey = m.direction + QLatin1Char('/') + sender;
        if (senderKey != previousSender)
            item->setData(ChatBubbleDelegate::SenderRole, sender);
        previousSender = senderKey;
        QString tip = sender + QStringLiteral(" · ") + locale.toString(at, QLocale::LongFormat);
        if (outgoing) {
            item->setData(ChatBubbleDelegate::TickRole, tickMark(m.delivery.status));
            if (m.delivery.status == QLatin1String("read"))
                item->setData(ChatBubbleDelegate::TickColorRole, QColor(0x1e, 0x88, 0xe5));
            else if (m.delivery.status == QLatin1String("failed")) {
                item->setData(ChatBubbleDelegate::TickColorRole, QColor(0xc6, 0x28, 0x28));
                item->setData(kResendRole, m.type == QLatin1String("text") && !m.text.isEmpty());
                note += (note.isEmpty() ? QString() : QStringLiteral("\n")) +
                        tr("Not delivered: %1").arg(m.delivery.failedReason);
            }
            tip += QStringLiteral(" · ") + tick(m);
        } else {
            lastIncomingAt = m.createdAt;
        }
        item->setData(ChatBubbleDelegate::NoteRole, note);
        QString spoken = tip + QStringLiteral(": ") + text;
        if (answers.contains(m.id)) {
            const AiMessageAnswer &answer = answers[m.id];
            auto *thumbs = new AiFeedbackButtons;
            thumbs->setProperty("messageId", m.id);
            if (answer.feedback)
                thumbs->setRating(answer.feedback->rating, answer.feedback->reason);
            if (m_userId.isEmpty())
                thumbs->setUnavailable(tr("Sign in to give feedback on the assistant's answers"));
            const QPointer<AiFeedbackButtons> guard(thumbs);
            connect(
                thumbs, &AiFeedbackButtons::rated, this,
                [this, guard, id = m.id](int rating, const QString &reason) { rateAnswer(id, rating, reason, guard); });
            item->setData(ChatBubbleDelegate::ActionsSizeRole, thumbs->sizeHint());
            m_thread->setItemWidget(item, thumbs);
            spoken += QStringLiteral(" · ") + AiFeedbackButtons::stateText(thumbs->rating(), thumbs->reason());
        }
        item->setToolTip(tip);
        item->setData(Qt::AccessibleTextRole, spoken);
    }
    // Replies that were refused stay at the end of their own thread, marked, until sent or discarded.
    for (const ComposerDrafts::Unsent &u : m_drafts->unsent(v->id)) {
        auto *item = new QListWidgetItem(u.text, m_thread);
        item->setData(kUnsentRole, u.id);
        item->setData(ChatBubbleDelegate::OutgoingRole, true);
        const QDateTime at = QDateTime::fromString(u.at, Qt::ISODateWithMs).toLocalTime();
        item->setData(ChatBubbleDelegate::TimeRole,
                      at.isValid() ? TaskTableModel::timeText(at.time(), locale) : QString());
        item->setData(ChatBubbleDelegate::TickRole, tickMark(QStringLiteral("failed")));
        item->setData(ChatBubbleDelegate::TickColorRole, QColor(0xc6, 0x28, 0x28));
        item->setData(ChatBubbleDelegate::NoteRole, tr("Not sent: %1").arg(u.error));
        const QString tip = tr("Not sent: %1").arg(u.error) + QStringLiteral(" · ") + tr("Right-click to retry");
        item->setToolTip(tip);
        item->setData(Qt::AccessibleTextRole, tip + QStringLiteral(": ") + u.text);
    }
    updateUnsentBar();
    updateAiDraft(v);
    m_composerExtras->setConversation(v, lastIncomingAt);
    updateThumbsTabOrder();
    if (keepScroll) {
        m_thread->doItemsLayout();
        scroll->setValue(scrollValue);
    } else {
        m_thread->scrollToBottom();
    }
    if (!focusedThumbs.isEmpty()) {
        for (int i = 0; i < m_thread->count(); ++i) {
            auto *thumbs = qobject_cast<AiFeedbackButtons *>(m_thread->itemWidget(m_thread->item(i)));
            if (thumbs && thumbs->property("messageId").toString() == focusedThumbs) {
                (focusedDown ? thumbs->downButton() : thumbs->upButton())->setFocus(Qt::OtherFocusReason);
                break;
            }
        }
    }
}

void InboxView::updateThumbsTabOrder()
{
    QListWidgetItem *current = m_thread->currentItem();
    AiFeedbackButtons *reachable = nullptr;
    for (int i = 0; i < m_thread->count(); ++i) {
        auto *thumbs = qobject_cast<AiFeedbackButtons *>(m_thread->itemWidget(m_thread->item(i)));
        if (!thumbs)
            continue;
        thumbs->upButton()->setFocusPolicy(Qt::ClickFocus);
        thumbs->downButton()->setFocusPolicy(Qt::ClickFocus);
        if (!current || m_thread->item(i) == current)
            reachable = thumbs; // the current message's, else the last
    }
    if (!reachable)
        return;
    reachable->upButton()->setFocusPolicy(Qt::StrongFocus);
    reachable->downButton()->setFocusPolicy(Qt::StrongFocus);
    QWidget::setTabOrder(m_thread, reachable->upButton());
    QWidget::setTabOrder(reachable->upButton(), reachable->downButton());
}

void InboxView::onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change)
{
    if (entity == EventBus::Entity::Message && change == EventBus::Change::Created)
        announceIfIncoming(id);
    // An answer of the assistant recorded, fed back on or linked to its message: the thumbs.
    if (entity == EventBus::Entity::Conversation || entity == EventBus::Entity::Message ||
        entity == EventBus::Entity::AiAnswer)
        m_reloadTimer.start();
    else if (entity == EventBus::Entity::User)
        reloadAssignees();
}

void InboxView::announceIfIncoming(const QString &messageId)
{
    const bool active = !m_isActive || m_isActive();
    // Announced unless the Inbox is in front of the agent (its list shows the message); in another
    // area of the window, or with the window behind others, the notification centre tells.
    const bool inFront = active && isVisible();
    if (m_currentId.isEmpty() && (!m_notifier || inFront))
        return;
    try {
        const std::optional<Message> m = m_conversations.findMessage(messageId);
        if (!m || m->direction != QLatin1String("incoming"))
            return;
        // The agent has this conversation open in front of them: they read it as it arrives.
        if (m->conversationId == m_currentId && isVisible() && active) {
            m_conversations.markRead(m_currentId);
            return;
        }
        if (!m_notifier || inFront)
            return;
        const std::optional<Conversation> v = m_conversations.find(m->conversationId);
        const QString name = v ? InboxText::conversationName(*v) : tr("(no name)");
        const QString text = m->text.isEmpty() ? tr("[%1]").arg(m->type) : m->text.left(200);
        m_notifier->notify(m->conversationId, tr("New message from %1").arg(name), text);
    } catch (const std::exception &) {
        // A message that cannot be read now still shows in the list at the next reload.
    }
}

void InboxView::addTag()
{
    const QStringList tags = m_tagEdit->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
    QStringList clean;
    for (const QString &t : tags) {
        if (!t.trimmed().isEmpty())
            clean << t.trimmed();
    }
    if (clean.isEmpty() || m_currentId.isEmpty())
        return;
    try {
        m_conversations.addTags(m_currentId, clean);
        m_tagEdit->clear();
    } catch (const std::exception &e) {
        showError(ErrorText::of(e));
    }
    reloadThread();
}

void InboxView::removeTag()
{
    QListWidgetItem *item = m_tags->currentItem();
    if (!item || m_currentId.isEmpty())
        return;
    try {
        m_conversations.removeTag(m_currentId, item->text());
    } catch (const std::exception &e) {
        showError(ErrorText::of(e));
    }
    reloadThread();
}

void InboxView::assignTo(int index)
{
    if (m_currentId.isEmpty() || index < 0)
        return;
    try {
        m_conversations.update(m_currentId, std::nullopt, m_assignee->itemData(index).toString());
    } catch (const std::exception &e) {
        showError(ErrorText::of(e));
    }
    reload();
}

void InboxView::send()
{
    const QString text = m_composer->text().trimmed();
    if (!m_currentId.isEmpty() && m_composerExtras->hasPending()) {
        // An attachment (with the text as its caption) or a chosen template goes instead of the text.
        const InboxComposer::SendResult result = m_composerExtras->sendPending(m_currentId, text);
        if (result == InboxComposer::SendResult::FileSent)
            m_composer->clear();
        if (result != InboxComposer::SendResult::Refused)
            claimOnReply();
        reload();
        return;
    }
    if (text.isEmpty() || m_currentId.isEmpty() || !m_sender)
        return;
    if (m_draftConversationId != m_currentId) {
        // Never: the composer follows the selection. Should it not, nothing is sent anywhere.
        switchDraft(m_currentId);
        return;
    }
    QString why;
    QString messageId;
    const bool sent = sendText(text, &why, &messageId);
    if (sent)
        linkSentDraft(messageId);
    if (!sent) {
        // The reply stays in its own conversation, marked "Not sent" with Retry; the composer is
        // free, and nothing of it can reach the next conversation opened.
        // (The bar over the composer says why; no second line under it.)
        m_drafts->addUnsent(m_currentId, text, why, m_store.now().toString(Qt::ISODateWithMs));
    }
    setComposerText(QString());
    m_drafts->setDraft(m_currentId, QString());
    reload();
    m_thread->scrollToBottom(); // the reply just sent, wherever the thread was read
}

bool InboxView::sendText(const QString &text, QString *why, QString *messageId)
{
    if (m_currentId.isEmpty() || !m_sender) {
        *why = tr("No conversation selected");
        return false;
    }
    try {
        const Message sent = m_sender(m_currentId, text);
        if (messageId)
            *messageId = sent.id;
    } catch (const std::exception &e) {
        *why = ErrorText::of(e);
        return false;
    }
    claimOnReply();
    return true;
}

void InboxView::claimOnReply()
{
    if (!m_assignOnReply || m_userId.isEmpty() || m_currentId.isEmpty())
        return;
    try {
        m_conversations.assignIfUnassigned(m_currentId, m_userId);
    } catch (const std::exception &e) {
        showError(ErrorText::of(e)); // the reply went; only the assignment did not
    }
}

void InboxView::retryUnsent()
{
    const QString id = m_currentId;
    for (const ComposerDrafts::Unsent &u : m_drafts->unsent(id)) {
        QString why;
        if (!sendText(u.text, &why)) {
            m_drafts->updateUnsent(id, u.id, why, m_store.now().toString(Qt::ISODateWithMs));
            break; // the later ones would meet the same refusal, and must not overtake it
        }
        m_drafts->removeUnsent(id, u.id);
    }
    reload();
}

void InboxView::editUnsent(const QString &unsentId)
{
    for (const ComposerDrafts::Unsent &u : m_drafts->unsent(m_currentId)) {
        if (u.id != unsentId)
            continue;
        const QString current = m_composer->text();
        setComposerText(current.trimmed().isEmpty() ? u.text : current + QLatin1Char('\n') + u.text);
        saveDraft();
        m_drafts->removeUnsent(m_currentId, u.id);
        m_composer->setFocus();
        break;
    }
    reloadThread();
}

void InboxView::discardUnsent(const QString &unsentId)
{
    m_drafts->removeUnsent(m_currentId, unsentId);
    m_error->hide();
    reloadThread();
}

void InboxView::updateUnsentBar()
{
    const QList<ComposerDrafts::Unsent> unsent = m_drafts->unsent(m_currentId);
    m_unsentBar->setVisible(!unsent.isEmpty());
    if (unsent.isEmpty())
        return;
    const ComposerDrafts::Unsent &first = unsent.first();
    QString preview = first.text.simplified();
    if (preview.size() > 60)
        preview = preview.left(59) + QChar(0x2026);
    const QString text =
        unsent.size() == 1
            ? tr("Not sent: “%1” (%2)").arg(preview, first.error)
            : tr("%n replies not sent: “%1” (%2)", nullptr, int(unsent.size())).arg(preview, first.error);
    m_unsentLabel->setText(text);
    m_unsentLabel->setToolTip(first.text);
    m_retryUnsent->setEnabled(bool(m_sender));
}

void InboxView::setComposerText(const QString &text)
{
    m_settingComposer = true;
    m_composer->setPlainText(text);
    m_composer->moveCursor(QTextCursor::End);
    m_settingComposer = false;
}

void InboxView::saveDraft()
{
    m_draftTimer.stop();
    if (!m_draftConversationId.isEmpty())
        m_drafts->setDraft(m_draftConversationId, m_composer->text());
}

void InboxView::switchDraft(const QString &conversationId)
{
    if (conversationId == m_draftConversationId)
        return;
    const QString left = m_draftConversationId;
    const bool hadText = !m_composer->text().trimmed().isEmpty() || !m_drafts->draft(left).isEmpty();
    saveDraft();
    m_draftConversationId = conversationId;
    setComposerText(m_drafts->draft(conversationId));
    if (!left.isEmpty() && hadText)
        m_reloadTimer.start(); // the list shows the draft left behind
}

void InboxView::setDraftsFile(const QString &iniPath)
{
    saveDraft();
    auto drafts = std::make_unique<ComposerDrafts>(iniPath);
    drafts->setUser(m_userId);
    m_drafts = std::move(drafts);
    m_draftConversationId.clear();
    switchDraft(m_currentId);
    reload(); // the list shows the drafts kept in the file
}

void InboxView::setStatus(const QString &status)
{
    if (m_currentId.isEmpty())
        return;
    try {
        m_conversations.update(m_currentId, status, std::nullopt);
    } catch (const std::exception &e) {
        showError(ErrorText::of(e));
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
        showError(ErrorText::of(e));
    }
    reload();
}

void InboxView::updateHandoff(const std::optional<Conversation> &v)
{
    const bool handedOff = v && !v->aiHandoff.isEmpty();
    if (!handedOff && m_handBack->hasFocus())
        m_composer->setFocus(Qt::OtherFocusReason); // the keyboard stays in the conversation
    m_handoffBanner->setVisible(handedOff);
    if (!handedOff)
        return;
    // "to you" only when it is the signed-in user's; else who has it is in the header.
    const bool mine = !m_userId.isEmpty() && v->assignedTo == m_userId;
    m_handoffLabel->setText(
        mine ? tr("The assistant handed this conversation over to you: %1").arg(InboxText::handoffReason(v->aiHandoff))
             : tr("The assistant handed this conversation over to a person: %1")
                   .arg(InboxText::handoffReason(v->aiHandoff)));
    m_handoffBanner->setAccessibleName(m_handoffLabel->text());
}

void InboxView::updateAiDraft(const std::optional<Conversation> &v)
{
    const bool inComposer = v && m_draftConversationId == v->id;
    const QString draft = v ? v->aiDraft : QString();
    const QString answerId = v ? v->aiDraftAnswerId : QString();
    m_aiDraftText = draft;
    m_aiDraftAnswerId = answerId;
    if (!v || !inComposer) {
        m_aiDraftBar->hide();
        return;
    }
    const PlacedDraft placed = m_placedAiDrafts.value(v->id);
    const QString composerText = m_composer->text();
    if (draft.isEmpty() || answerId.isEmpty()) {
        // The draft went (sent, discarded, replaced by a person's reply elsewhere, the conversation
        // closed): its text leaves the composer when nobody changed it.
        if (!placed.answerId.isEmpty() && composerText == placed.text) {
            setComposerText(placed.before);
            m_drafts->setDraft(v->id, placed.before);
        }
        m_placedAiDrafts.remove(v->id);
        if (m_aiDraftBar->isAncestorOf(QApplication::focusWidget()))
            m_composer->setFocus(Qt::OtherFocusReason);
        m_aiDraftBar->hide();
        return;
    }
    // Also when the composer holds it already (after a restart, the agent's draft is kept on disk).
    const qsizetype at = composerText.indexOf(draft.trimmed());
    bool inBox = placed.answerId == answerId || at >= 0;
    // Into an empty composer, or in place of an earlier suggestion nobody changed; never over what
    // the agent wrote (the bar offers "Use" then).
    if (!inBox && (composerText.trimmed().isEmpty() || (placed.whole() && composerText == placed.text))) {
        setComposerText(draft);
        m_drafts->setDraft(v->id, draft);
        inBox = true;
    }
    if (inBox && placed.answerId != answerId) {
        QString before = at > 0 ? composerText.left(at) : QString();
        if (before.endsWith(QLatin1Char('\n')))
            before.chop(1);
        m_placedAiDrafts.insert(v->id, {answerId, m_composer->text(), before});
    } else if (!inBox)
        m_placedAiDrafts.remove(v->id);
    if (inBox) {
        m_aiDraftLabel->setText(
            tr("The assistant's suggestion is in the reply box: send it as it is or edited, or discard it."));
        m_aiDraftLabel->setToolTip(draft);
    } else {
        QString preview = draft.simplified();
        if (preview.size() > 120)
            preview = preview.left(119) + QChar(0x2026);
        m_aiDraftLabel->setText(tr("The assistant suggests: “%1”").arg(preview));
        m_aiDraftLabel->setToolTip(draft);
    }
    m_useAiDraft->setVisible(!inBox);
    std::optional<AiFeedback> feedback;
    try {
        if (!m_userId.isEmpty())
            feedback = AiAnswerRepository(m_store).feedbackOf(answerId, m_userId);
    } catch (const std::exception &) {
        // The thumbs show none; the next reload reads them again.
    }
    m_aiDraftFeedback->setRating(feedback ? feedback->rating : 0, feedback ? feedback->reason : QString());
    m_aiDraftFeedback->setUnavailable(m_userId.isEmpty() ? tr("Sign in to give feedback on the assistant's answers")
                                                         : QString());
    m_aiDraftBar->setAccessibleName(m_aiDraftLabel->text());
    m_aiDraftBar->show();
}

void InboxView::useAiDraft()
{
    if (m_currentId.isEmpty() || m_aiDraftText.isEmpty() || m_draftConversationId != m_currentId)
        return;
    const QString current = m_composer->text();
    const bool whole = current.trimmed().isEmpty();
    setComposerText(whole ? m_aiDraftText : current + QLatin1Char('\n') + m_aiDraftText);
    saveDraft();
    m_placedAiDrafts.insert(m_currentId, {m_aiDraftAnswerId, m_composer->text(), whole ? QString() : current});
    m_composer->setFocus(Qt::OtherFocusReason);
    reloadThread();
}

void InboxView::discardAiDraft()
{
    if (m_currentId.isEmpty())
        return;
    // Out of the composer too: what the agent had written before it stays, and a suggestion that
    // filled the composer goes even when edited; one edited among the agent's words is theirs now.
    const PlacedDraft placed = m_placedAiDrafts.value(m_currentId);
    if (!placed.answerId.isEmpty() && m_draftConversationId == m_currentId) {
        const QString now = m_composer->text();
        if (now == placed.text || placed.whole()) {
            setComposerText(now == placed.text ? placed.before : QString());
            m_drafts->setDraft(m_currentId, m_composer->text());
        }
    }
    m_placedAiDrafts.remove(m_currentId);
    m_composer->setFocus(Qt::OtherFocusReason);
    try {
        AssistantConversation(m_store).clearDraft(m_currentId);
    } catch (const std::exception &e) {
        showError(ErrorText::of(e));
    }
    reload();
}

void InboxView::linkSentDraft(const QString &messageId)
{
    const PlacedDraft placed = m_placedAiDrafts.take(m_currentId);
    if (placed.answerId.isEmpty() || messageId.isEmpty())
        return;
    try {
        // Only while it is still the conversation's draft (not discarded or replaced meanwhile).
        const std::optional<Conversation> v = m_conversations.find(m_currentId);
        if (v && v->aiDraftAnswerId == placed.answerId)
            AssistantConversation(m_store).draftSent(m_currentId, placed.answerId, messageId);
    } catch (const std::exception &e) {
        showError(ErrorText::of(e)); // the reply went; only its link to the answer did not
    }
}

void InboxView::handBack()
{
    if (m_currentId.isEmpty())
        return;
    try {
        AssistantConversation(m_store).handBack(m_currentId);
    } catch (const std::exception &e) {
        showError(ErrorText::of(e));
    }
    reload();
}

void InboxView::rateAnswer(const QString &messageId, int rating, const QString &reason, AiFeedbackButtons *buttons)
{
    if (messageId.isEmpty() || m_userId.isEmpty())
        return;
    AiFeedbackInput input;
    input.messageId = messageId;
    input.feedbackType = QStringLiteral("THUMBS");
    input.rating = rating;
    input.reason = reason;
    try {
        const AiFeedback given = AiAnswerRepository(m_store).giveFeedback(input, m_userId).feedback;
        if (buttons)
            buttons->setRating(given.rating, given.reason);
    } catch (const std::exception &e) {
        showError(ErrorText::of(e));
    }
}

void InboxView::styleAssistantBars()
{
    // The assistant's colour, lightly: its banner and its draft's bar read as its own.
    const QPalette pal = UiKit::palette(UiKit::scheme());
    const QColor accent = ChatBubbleDelegate::assistantColor(pal);
    const QColor base = pal.color(QPalette::Base);
    const qreal t = 0.12;
    const QColor fill = QColor::fromRgbF(base.redF() + (accent.redF() - base.redF()) * t,
                                         base.greenF() + (accent.greenF() - base.greenF()) * t,
                                         base.blueF() + (accent.blueF() - base.blueF()) * t);
    for (QFrame *bar : {m_handoffBanner, m_aiDraftBar})
        bar->setStyleSheet(QStringLiteral("#%1 { background: %2; border: 1px solid %3; border-radius: 6px; }")
                               .arg(bar->objectName(), fill.name(), accent.name()));
    const QPixmap mark = UiKit::icon(QStringLiteral("assistant"), accent, 20).pixmap(20);
    m_handoffIcon->setPixmap(mark);
    m_aiDraftIcon->setPixmap(mark);
}

void InboxView::showError(const QString &text)
{
    m_error->setText(text);
    m_error->show();
}
