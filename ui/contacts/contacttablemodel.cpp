#include "ui/contacts/contacttablemodel.h"
#include "ui/shell/phonetext.h"
#include "ui/shell/uikit.h"

#include "model/core/errors.h"
#include "ui/shell/errortext.h"

#include <QDateTime>
#include <QLocale>

#include <algorithm>
#include <climits>
#include <memory>

namespace {
int clampCount(qint64 n)
{
    return int(std::clamp<qint64>(n, 0, INT_MAX));
}

} // namespace

ContactTableModel::ContactTableModel(ContactRepository &contacts, QObject *parent)
    : QAbstractTableModel(parent)
    , m_contacts(contacts)
    , m_counter(contacts.store())
{
    m_cache.setMaxCost(MaxCachedBlocks);
    connect(&m_counter, &BackgroundCounter::counted, this, [this](int, const QString &, qint64 n) {
        applyCount(clampCount(n));
        emit countChanged();
    });
    connect(&m_counter, &BackgroundCounter::failed, this,
            [this](int, const QString &, const QString &message) { emit loadFailed(message); });
}

void ContactTableModel::setQuery(const ContactQuery &query)
{
    m_counter.cancel(); // a count of the previous query
    beginResetModel();
    m_query = query;
    m_query.sort = m_sort;
    m_cache.clear();
    // A segment's members are counted in the worker: the rows follow its answer (countChanged()).
    const bool inWorker = !m_query.extraWhere.isEmpty();
    m_count = 0;
    if (!inWorker) {
        try {
            m_count = clampCount(m_contacts.count(m_query));
        } catch (const std::exception &e) {
            emit loadFailed(ErrorText::of(e));
        }
    }
    endResetModel();
    if (inWorker)
        m_counter.request({{QString(), m_query}});
}

void ContactTableModel::refresh()
{
    if (!m_query.extraWhere.isEmpty()) {
        // A segment's members: counted in the worker; applyCount() reloads the rows then.
        m_counter.request({{QString(), m_query}});
        return;
    }
    int count = m_count;
    try {
        count = clampCount(m_contacts.count(m_query));
    } catch (const std::exception &e) {
        emit loadFailed(ErrorText::of(e));
    }
    applyCount(count);
}

void ContactTableModel::applyCount(int count)
{
    // Rows are added or taken at the end rather than reset, so that the view keeps its scroll
    // position; the rows that stay are then all marked changed (the view repaints only what it shows).
    // The rows read before stay readable until the change begins: a RowAnchor reads then which
    // contact is under the mouse, and keeps it there once the new rows are in.
    if (count > m_count) {
        beginInsertRows({}, m_count, count - 1);
        m_cache.clear();
        m_count = count;
        endInsertRows();
    } else if (count < m_count) {
        beginRemoveRows({}, count, m_count - 1);
        m_cache.clear();
        m_count = count;
        endRemoveRows();
    } else {
        emit layoutAboutToBeChanged();
        m_cache.clear();
        emit layoutChanged();
    }
    if (m_count > 0)
        emit dataChanged(index(0, 0), index(m_count - 1, ColumnCount - 1));
}

int ContactTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_count;
}

int ContactTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const QVector<Contact> *ContactTableModel::block(int blockIndex) const
{
    if (const QVector<Contact> *cached = m_cache.object(blockIndex))
        return cached;
    ContactQuery q = m_query;
    q.page = blockIndex + 1;
    q.limit = BlockSize;
    q.knownTotal = m_count;
    auto rows = std::make_unique<QVector<Contact>>();
    try {
        *rows = m_contacts.listPage(q); // no count: setQuery() and refresh() count
    } catch (const std::exception &e) {
        emit loadFailed(ErrorText::of(e));
        return nullptr;
    }
    ++m_blockLoads;
    const QVector<Contact> *result = rows.get();
    m_cache.insert(blockIndex, rows.release(), 1);
    return result;
}

std::optional<Contact> ContactTableModel::contactAt(int row) const
{
    if (row < 0 || row >= m_count)
        return std::nullopt;
    const QVector<Contact> *rows = block(row / BlockSize);
    const int offset = row % BlockSize;
    if (!rows || offset >= rows->size())
        return std::nullopt;
    return rows->at(offset);
}

QString ContactTableModel::idAt(int row) const
{
    const std::optional<Contact> c = contactAt(row);
    return c ? c->id : QString();
}

int ContactTableModel::rowOfId(const QString &id, int hintRow) const
{
    if (id.isEmpty())
        return -1;
    const QList<int> loaded = m_cache.keys();
    for (int b : loaded) {
        const QVector<Contact> *rows = m_cache.object(b);
        for (int i = 0; rows && i < rows->size(); ++i) {
            if (rows->at(i).id == id)
                return b * BlockSize + i;
        }
    }
    if (hintRow < 0)
        return -1;
    const int hintBlock = hintRow / BlockSize;
    for (int b : {hintBlock, hintBlock - 1, hintBlock + 1}) {
        if (b < 0 || b * BlockSize >= m_count || loaded.contains(b))
            continue;
        const QVector<Contact> *rows = block(b);
        for (int i = 0; rows && i < rows->size(); ++i) {
            if (rows->at(i).id == id)
                return b * BlockSize + i;
        }
    }
    return -1;
}

int ContactTableModel::loadedRowCount() const
{
    int n = 0;
    for (int b : m_cache.keys()) {
        if (const QVector<Contact> *rows = m_cache.object(b))
            n += rows->size();
    }
    return n;
}

QVariant ContactTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_count)
        return {};
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != IdRole)
        return {};
    const QVector<Contact> *rows = block(index.row() / BlockSize);
    const int offset = index.row() % BlockSize;
    if (!rows || offset >= rows->size())
        return {};
    const Contact &c = rows->at(offset);
    if (role == IdRole)
        return c.id;
    switch (index.column()) {
    case NameColumn:
        return c.displayName();
    case EmailColumn:
        return c.email;
    case PhoneColumn:
        return PhoneText::display(c.phone);
    case CompanyColumn:
        return c.company;
    case TagsColumn:
        return c.tags.join(QLatin1String(", "));
    case CreatedColumn:
        return role == Qt::ToolTipRole ? c.createdAt : UiKit::localTime(c.createdAt);
    default:
        return {};
    }
}

namespace {
struct SortColumn
{
    int column;
    Qt::SortOrder order;
    ContactSort sort;
};
constexpr SortColumn kSortColumns[] = {
    {ContactTableModel::NameColumn, Qt::AscendingOrder, ContactSort::NameAscending},
    {ContactTableModel::NameColumn, Qt::DescendingOrder, ContactSort::NameDescending},
    {ContactTableModel::CompanyColumn, Qt::AscendingOrder, ContactSort::CompanyAscending},
    {ContactTableModel::CompanyColumn, Qt::DescendingOrder, ContactSort::CompanyDescending},
    {ContactTableModel::CreatedColumn, Qt::AscendingOrder, ContactSort::Oldest},
    {ContactTableModel::CreatedColumn, Qt::DescendingOrder, ContactSort::Newest},
};
} // namespace

bool ContactTableModel::sortable(int column)
{
    return std::any_of(std::begin(kSortColumns), std::end(kSortColumns),
                       [column](const SortColumn &s) { return s.column == column; });
}

void ContactTableModel::sort(int column, Qt::SortOrder order)
{
    const auto *it = std::find_if(std::begin(kSortColumns), std::end(kSortColumns),
                                  [&](const SortColumn &s) { return s.column == column && s.order == order; });
    if (it == std::end(kSortColumns) || it->sort == m_sort)
        return;
    beginResetModel();
    m_sort = m_query.sort = it->sort;
    m_cache.clear();
    endResetModel();
}

namespace {
// The column and direction that show an order (every ContactSort has one).
const SortColumn &shownAs(ContactSort sort)
{
    return *std::find_if(std::begin(kSortColumns), std::end(kSortColumns),
                         [sort](const SortColumn &s) { return s.sort == sort; });
}
} // namespace

int ContactTableModel::sortColumn() const
{
    return shownAs(m_sort).column;
}

Qt::SortOrder ContactTableModel::sortOrder() const
{
    return shownAs(m_sort).order;
}

QVariant ContactTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // A first click on Created shows the newest first; on a name or company, A to Z.
    if (orientation == Qt::Horizontal && role == Qt::InitialSortOrderRole && sortable(section))
        return int(section == CreatedColumn ? Qt::DescendingOrder : Qt::AscendingOrder);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Name");
    case EmailColumn:
        return tr("E-mail");
    case PhoneColumn:
        return tr("Phone");
    case CompanyColumn:
        return tr("Company");
    case TagsColumn:
        return tr("Tags");
    case CreatedColumn:
        return tr("Created");
    default:
        return {};
    }
}
