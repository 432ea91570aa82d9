#include "ui/tasks/tasktablemodel.h"

#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/errors.h"
#include "model/deals/dealrepository.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>
#include <QRegularExpression>

namespace {
QString statusText(const QString &status)
{
    if (status == QLatin1String("pending"))
        return TaskTableModel::tr("To do");
    if (status == QLatin1String("in_progress"))
        return TaskTableModel::tr("In progress");
    if (status == QLatin1String("completed"))
        return TaskTableModel::tr("Done");
    return TaskTableModel::tr("Cancelled");
}

QString priorityText(const QString &priority)
{
    if (priority == QLatin1String("low"))
        return TaskTableModel::tr("Low");
    if (priority == QLatin1String("high"))
        return TaskTableModel::tr("High");
    if (priority == QLatin1String("urgent"))
        return TaskTableModel::tr("Urgent");
    return TaskTableModel::tr("Medium");
}

QString typeText(const QString &type)
{
    if (type == QLatin1String("call"))
        return TaskTableModel::tr("Call");
    if (type == QLatin1String("meeting"))
        return TaskTableModel::tr("Meeting");
    if (type == QLatin1String("email"))
        return TaskTableModel::tr("E-mail");
    if (type == QLatin1String("followup"))
        return TaskTableModel::tr("Follow-up");
    return TaskTableModel::tr("Task");
}
} // namespace

TaskTableModel::TaskTableModel(TaskRepository &tasks, Mode mode, QObject *parent)
    : QAbstractTableModel(parent)
    , m_tasks(tasks)
    , m_mode(mode)
{
}

void TaskTableModel::setContactId(const QString &contactId)
{
    m_contactId = contactId;
    reload();
}

void TaskTableModel::setFilter(const Filter &filter)
{
    m_filter = filter;
    reload();
}

TaskQuery TaskTableModel::query(int page) const
{
    TaskQuery q;
    q.page = page;
    q.limit = PageSize;
    if (!m_filter.status.isEmpty())
        q.statuses = {m_filter.status};
    if (!m_filter.priority.isEmpty())
        q.priorities = {m_filter.priority};
    if (!m_filter.type.isEmpty())
        q.types = {m_filter.type};
    q.assignedTo = m_filter.assignedTo;
    q.search = m_filter.search;
    q.excludeIds = m_hidden;
    switch (m_mode) {
    case Mode::Today:
        q.dueOn = m_tasks.today();
        q.excludeCancelled = true;
        q.openFirst = true;
        break;
    case Mode::Overdue:
        q.overdueOnly = true;
        break;
    case Mode::Upcoming:
        q.dueAfter = m_tasks.today().addDays(1).startOfDay(m_tasks.timeZone());
        q.openOnly = true;
        break;
    case Mode::All:
        break;
    case Mode::Contact:
        q.contactId = m_contactId.isEmpty() ? QStringLiteral("-") : m_contactId;
        q.openFirst = true;
        break;
    }
    return q;
}

void TaskTableModel::reload()
{
    beginResetModel();
    m_items.clear();
    m_contactNames.clear(); // renamed since: read again
    m_dealNames.clear();
    m_userNames.clear();
    m_total = 0;
    m_pages = 0;
    try {
        const TaskPage page = m_tasks.list(query(1));
        resolveNames(page.items);
        m_items = page.items;
        m_total = page.total;
        m_pages = 1;
    } catch (const std::exception &e) {
        emit errorOccurred(ErrorText::of(e));
    }
    endResetModel();
}

qint64 TaskTableModel::openCount() const
{
    if (m_mode == Mode::All)
        return m_total;
    TaskQuery q = query(1);
    q.openOnly = true;
    try {
        return m_tasks.count(q);
    } catch (const std::exception &) {
        return 0;
    }
}

int TaskTableModel::rowOf(const QString &id) const
{
    for (int i = 0; i < m_items.size(); ++i) {
        if (m_items.at(i).id == id)
            return i;
    }
    return -1;
}

int TaskTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

int TaskTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TaskTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_items.size())
        return {};
    const Task &t = m_items.at(index.row());
    if (role == IdRole)
        return t.id;
    if (role == Qt::CheckStateRole && index.column() == TitleColumn)
        return t.status == QLatin1String("completed") ? Qt::Checked : Qt::Unchecked;
    if (role == Qt::FontRole && !t.isOpen()) {
        QFont f;
        f.setStrikeOut(true);
        return f;
    }
    if (role == Qt::ForegroundRole && index.column() == DueColumn && m_tasks.isOverdue(t))
        return QBrush(UiKit::color(UiKit::Tone::Danger));
    if (role == Qt::ToolTipRole && index.column() == TitleColumn && t.recurrence.isActive())
        return tr("Repeats %1").arg(t.recurrence.frequency);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case TitleColumn:
        return t.recurrence.isActive() ? t.title + QStringLiteral(" ↻") : t.title;
    case DueColumn: {
        if (t.dueDate.isEmpty())
            return QString();
        if (t.isAllDay())
            return QLocale().toString(t.dueDay(m_tasks.timeZone()), QLocale::ShortFormat);
        return TaskTableModel::dueText(t.dueInstant(m_tasks.timeZone()).toTimeZone(m_tasks.timeZone()));
    }
    case ContactColumn:
        return nameOf(m_contactNames, t.contactId);
    case DealColumn:
        return nameOf(m_dealNames, t.dealId);
    case AssigneeColumn:
        return nameOf(m_userNames, t.assignedTo);
    case PriorityColumn:
        return priorityText(t.priority);
    case TypeColumn:
        return typeText(t.type);
    case StatusColumn:
        return statusText(t.status);
    }
    return {};
}

QVariant TaskTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TitleColumn:
        return tr("Task");
    case DueColumn:
        return tr("Due");
    case ContactColumn:
        return tr("Contact");
    case DealColumn:
        return tr("Deal");
    case AssigneeColumn:
        return tr("Assignee");
    case PriorityColumn:
        return tr("Priority");
    case TypeColumn:
        return tr("Type");
    case StatusColumn:
        return tr("Status");
    }
    return {};
}

Qt::ItemFlags TaskTableModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == TitleColumn && index.row() < m_items.size() &&
        m_items.at(index.row()).status != QLatin1String("cancelled"))
        f |= Qt::ItemIsUserCheckable;
    return f;
}

bool TaskTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::CheckStateRole || !index.isValid() || index.column() != TitleColumn ||
        index.row() >= m_items.size())
        return false;
    const Task t = m_items.at(index.row());
    const bool done = Qt::CheckState(value.toInt()) == Qt::Checked;
    try {
        // The repository tells the bus; the view reloads every tab from that.
        const TaskStatusResult r =
            m_tasks.setStatus(t.id, done ? QStringLiteral("completed") : QStringLiteral("pending"));
        if (done)
            emit taskCompleted(t.id, r.next ? r.next->id : QString(), t.status);
    } catch (const std::exception &e) {
        emit errorOccurred(ErrorText::of(e));
        return false;
    }
    return true;
}

bool TaskTableModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_items.size() < m_total;
}

void TaskTableModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    try {
        const TaskPage page = m_tasks.list(query(m_pages + 1));
        if (page.items.isEmpty()) {
            m_total = m_items.size();
            return;
        }
        resolveNames(page.items);
        beginInsertRows({}, int(m_items.size()), int(m_items.size() + page.items.size() - 1));
        m_items += page.items;
        ++m_pages;
        endInsertRows();
    } catch (const std::exception &e) {
        emit errorOccurred(ErrorText::of(e));
    }
}

QString TaskTableModel::dueText(const QDateTime &due, const QLocale &locale)
{
    // The locale's short date and its time without seconds: "26.11.2026 10:00" (the C locale's
    // short date-time carried seconds and wrapped in the column).
    return locale.toString(due.date(), QLocale::ShortFormat) + QLatin1Char(' ') + timeText(due.time(), locale);
}

QString TaskTableModel::timeText(const QTime &time, const QLocale &locale)
{
    QString format = locale.timeFormat(QLocale::ShortFormat);
    static const QRegularExpression seconds(QStringLiteral("[^Hhmaps]*s+"));
    format.remove(seconds);
    return locale.toString(time, format);
}

void TaskTableModel::resolveNames(const QVector<Task> &tasks)
{
    if (m_userNames.isEmpty()) {
        for (const User &u : UserRepository(m_tasks.store()).list())
            m_userNames.insert(u.id, u.name.isEmpty() ? u.email : u.name);
    }
    const ContactRepository contacts(m_tasks.store());
    const DealRepository deals(m_tasks.store());
    for (const Task &t : tasks) {
        if (!t.contactId.isEmpty() && !m_contactNames.contains(t.contactId)) {
            const std::optional<Contact> c = contacts.find(t.contactId);
            m_contactNames.insert(t.contactId, c ? c->displayName() : QString());
        }
        if (!t.dealId.isEmpty() && !m_dealNames.contains(t.dealId)) {
            const std::optional<Deal> d = deals.find(t.dealId);
            m_dealNames.insert(t.dealId, d ? d->name : QString());
        }
    }
}

QString TaskTableModel::nameOf(const QHash<QString, QString> &names, const QString &id) const
{
    return id.isEmpty() ? QString() : names.value(id, id);
}
