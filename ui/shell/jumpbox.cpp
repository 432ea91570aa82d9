#include "ui/shell/jumpbox.h"

#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"
#include "ui/inbox/inboxview.h"
#include "ui/shell/errortext.h"

#include <QDate>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QTimer>
#include <QVBoxLayout>

namespace {
QString kindTitle(JumpBox::Kind kind)
{
    switch (kind) {
    case JumpBox::Contact:
        return JumpBox::tr("Contacts");
    case JumpBox::Deal:
        return JumpBox::tr("Deals");
    case JumpBox::Conversation:
        return JumpBox::tr("Conversations");
    case JumpBox::Task:
        return JumpBox::tr("Tasks");
    }
    return {};
}

QString joined(const QStringList &parts)
{
    QStringList kept;
    for (const QString &p : parts) {
        if (!p.isEmpty())
            kept << p;
    }
    return kept.join(QStringLiteral(" · "));
}
} // namespace

JumpBox::JumpBox(const Store &store, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
    , m_field(new QLineEdit(this))
    , m_list(new QListWidget(this))
    , m_status(new QLabel(this))
    , m_delay(new QTimer(this))
{
    setObjectName(QStringLiteral("jumpBox"));
    setWindowTitle(tr("Jump to"));
    m_field->setObjectName(QStringLiteral("jumpField"));
    m_field->setPlaceholderText(tr("Name of a contact, deal, conversation or task…"));
    m_field->setAccessibleName(tr("Jump to"));
    m_field->setClearButtonEnabled(true);
    m_field->installEventFilter(this);
    m_list->setObjectName(QStringLiteral("jumpResults"));
    m_list->setAccessibleName(tr("Matches"));
    m_list->setFocusPolicy(Qt::NoFocus); // typing stays in the field; Up and Down move the choice
    m_list->setUniformItemSizes(true);
    m_list->setTextElideMode(Qt::ElideRight);
    m_status->setObjectName(QStringLiteral("jumpStatus"));
    m_status->setTextFormat(Qt::PlainText);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_field);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_status);
    resize(560, 420);

    // One worker thread, kept while the box lives: searches run one after another on that thread's
    // own database connection.
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);
    m_delay->setSingleShot(true);
    m_delay->setInterval(kDelayMs);
    connect(m_delay, &QTimer::timeout, this, &JumpBox::searchNow);
    connect(m_field, &QLineEdit::textChanged, this, [this] {
        m_delay->start();
        m_pending = true;
    });
    connect(m_list, &QListWidget::itemClicked, this, [this](QListWidgetItem *item) {
        if (item->flags() & Qt::ItemIsSelectable) {
            m_list->setCurrentItem(item);
            choose();
        }
    });
    reset();
}

JumpBox::~JumpBox()
{
    m_latest.store(++m_ticket);
    // The connection is closed by a last job (see BackgroundCounter).
    m_pool.start([] { Database::closeThreadConnection(); });
    m_pool.waitForDone();
}

void JumpBox::reset()
{
    m_latest.store(++m_ticket);
    m_openWhenFound = false;
    m_field->clear();
    m_delay->stop(); // clearing the field started it
    m_pending = false;
    m_list->clear();
    m_status->setText(tr("Type a name. Up and Down choose, Enter opens."));
}

void JumpBox::searchNow()
{
    m_delay->stop();
    const QString text = m_field->text().trimmed();
    const int ticket = ++m_ticket;
    m_latest.store(ticket);
    if (text.isEmpty()) {
        m_pending = false;
        m_list->clear();
        m_status->setText(tr("Type a name. Up and Down choose, Enter opens."));
        return;
    }
    m_pending = true;
    m_status->setText(tr("Searching…"));
    m_pool.start([this, ticket, text, store = m_store] {
        if (m_latest.load() != ticket)
            return; // superseded: the newer search runs instead
        QVector<Hit> hits;
        QString error;
        try {
            hits = find(store, text);
        } catch (const std::exception &e) {
            error = ErrorText::of(e);
        }
        // Delivered in the window's thread; dropped there when a newer search came meanwhile. The
        // destructor waits for this job, so `this` outlives it.
        QMetaObject::invokeMethod(
            this,
            [this, ticket, hits, error] {
                if (ticket != m_ticket)
                    return;
                m_pending = false;
                showHits(hits, error);
                if (m_openWhenFound) {
                    m_openWhenFound = false;
                    choose();
                }
            },
            Qt::QueuedConnection);
    });
}

QVector<JumpBox::Hit> JumpBox::find(const Store &store, const QString &text, int perKind)
{
    QVector<Hit> hits;
    const QLocale locale;
    {
        ContactQuery q;
        q.search = text;
        q.limit = perKind;
        try {
            for (const ::Contact &c : ContactRepository(store).listPage(q))
                hits.append({Contact, c.id, c.displayName(), joined({c.email, c.phone, c.company})});
        } catch (const DomainError &) {
            // a search the index refuses (stray quotes): no contacts
        }
    }
    for (const ::Deal &d : DealRepository(store).search(text, perKind))
        hits.append(
            {Deal, d.id, d.name,
             joined({d.contactName, QStringLiteral("%1 %2").arg(locale.toString(d.value, 'f', 0), d.currency)})});
    {
        ConversationQuery q;
        q.contactSearch = text;
        q.limit = perKind;
        for (const ::Conversation &v : ConversationRepository(store).list(q).items)
            hits.append({Conversation, v.id, v.contactName().isEmpty() ? tr("(no name)") : v.contactName(),
                         joined({InboxText::channelName(v.channel), InboxText::statusName(v.status)})});
    }
    {
        TaskQuery q;
        q.search = text;
        q.limit = perKind;
        q.openFirst = true;
        for (const ::Task &t : TaskRepository(store).list(q).items) {
            const QDate due = QDate::fromString(t.dueDate.left(10), Qt::ISODate);
            hits.append(
                {Task, t.id, t.title,
                 joined({due.isValid() ? tr("due %1").arg(locale.toString(due, QLocale::ShortFormat)) : QString(),
                         t.isOpen() ? QString() : tr("done")})});
        }
    }
    return hits;
}

void JumpBox::showHits(const QVector<Hit> &hits, const QString &error)
{
    m_list->clear();
    int lastKind = -1;
    QListWidgetItem *first = nullptr;
    for (const Hit &hit : hits) {
        if (hit.kind != lastKind) {
            lastKind = hit.kind;
            auto *header = new QListWidgetItem(kindTitle(hit.kind), m_list);
            header->setFlags(Qt::ItemIsEnabled); // a heading: read, never chosen
            QFont bold = header->font();
            bold.setBold(true);
            header->setFont(bold);
        }
        auto *item = new QListWidgetItem(
            hit.detail.isEmpty() ? hit.title : hit.title + QStringLiteral("  —  ") + hit.detail, m_list);
        item->setData(KindRole, int(hit.kind));
        item->setData(IdRole, hit.id);
        item->setToolTip(item->text());
        if (!first)
            first = item;
    }
    if (first)
        m_list->setCurrentItem(first);
    m_status->setText(!error.isEmpty() ? error
                      : hits.isEmpty() ? tr("Nothing matches “%1”.").arg(m_field->text())
                                       : tr("Up and Down choose, Enter opens."));
}

void JumpBox::step(int delta)
{
    // |delta| matches on, over the kinds' headings, as far as the list goes.
    const int direction = delta > 0 ? 1 : -1;
    int moves = qAbs(delta);
    int target = -1;
    for (int row = m_list->currentRow() + direction; row >= 0 && row < m_list->count() && moves > 0; row += direction) {
        if (m_list->item(row)->flags() & Qt::ItemIsSelectable) {
            target = row;
            --moves;
        }
    }
    if (target >= 0) {
        m_list->setCurrentRow(target);
        m_list->scrollToItem(m_list->item(target));
    }
}

void JumpBox::choose()
{
    QListWidgetItem *item = m_list->currentItem();
    if (!item || !(item->flags() & Qt::ItemIsSelectable))
        return;
    const auto kind = Kind(item->data(KindRole).toInt());
    const QString id = item->data(IdRole).toString();
    accept();
    emit chosen(kind, id);
}

bool JumpBox::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_field && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        switch (key->key()) {
        case Qt::Key_Down:
            step(1);
            return true;
        case Qt::Key_Up:
            step(-1);
            return true;
        case Qt::Key_PageDown:
            step(kPerKind);
            return true;
        case Qt::Key_PageUp:
            step(-kPerKind);
            return true;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            if (m_delay->isActive() || m_pending) {
                // Enter right after typing: what was typed is looked up first (in the worker); the
                // first match opens when it answers.
                m_openWhenFound = true;
                if (m_delay->isActive())
                    searchNow();
            } else {
                choose();
            }
            return true;
        default:
            break;
        }
    }
    return QDialog::eventFilter(watched, event);
}
