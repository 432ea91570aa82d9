#pragma once

#include "model/contacts/contactrepository.h"
#include "ui/shell/backgroundcounter.h"

#include <QAbstractTableModel>
#include <QCache>
#include <QVector>

#include <optional>

// The contacts table, read lazily: rowCount() is one count() of the query and data() loads the rows
// in blocks (one list() call per block) into a bounded cache, so that scrolling through 100,000
// contacts only ever holds a few blocks in memory and never runs a query that reads every row.
// A table limited to a segment is counted in a worker thread, by setQuery() and refresh() alike
// (such a count can take a large part of a second at a million contacts): the rows follow when
// the count arrives (countChanged()).
class ContactTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        EmailColumn,
        PhoneColumn,
        CompanyColumn,
        TagsColumn,
        CreatedColumn,
        ColumnCount
    };
    enum Role
    {
        IdRole = Qt::UserRole + 1
    };

    // Rows per list() call (page = block + 1, limit = BlockSize).
    static constexpr int BlockSize = 200;
    // Blocks kept in memory (BlockSize * MaxCachedBlocks rows at most).
    static constexpr int MaxCachedBlocks = 10;

    explicit ContactTableModel(ContactRepository &contacts, QObject *parent = nullptr);

    // A new filter: counts again and resets the model (a segment's: empty until the worker has
    // counted, see counting()). page/limit and sort of the query are ignored: the rows keep the
    // order sort() chose.
    void setQuery(const ContactQuery &query);
    const ContactQuery &query() const { return m_query; }
    ContactSort sort() const { return m_sort; }
    // Reloads after a change of the data, keeping the view's scroll position (no reset).
    void refresh();
    // True while a count is still to come from the worker.
    bool counting() const { return m_counter.busy(); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // The rows in the order of a column (Name and Company as search compares text, blanks last;
    // Created): read again from the database in that order, the count unchanged. The other
    // columns cannot be sorted (a call for them does nothing).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    static bool sortable(int column);
    // The column and direction of the order the rows are in (newest first at the start).
    int sortColumn() const;
    Qt::SortOrder sortOrder() const;

    // The contact in a row (loading its block when needed); nullopt outside the table or on a failure.
    std::optional<Contact> contactAt(int row) const;
    QString idAt(int row) const;
    // The row that shows this contact, looked for in the loaded blocks and then in the blocks around
    // hintRow (a changed contact rarely moves far); -1 when it is not found there.
    int rowOfId(const QString &id, int hintRow = -1) const;

    // For tests and diagnostics: rows held in the cache now, and list() calls made so far.
    int loadedRowCount() const;
    int blockLoadCount() const { return m_blockLoads; }

signals:
    // A query failed (database error); the table shows what it has.
    void loadFailed(const QString &message) const;
    // The rows changed after a count from the worker (a segment's table).
    void countChanged();

private:
    const QVector<Contact> *block(int blockIndex) const;
    void applyCount(int count);

    ContactRepository &m_contacts;
    ContactQuery m_query;
    ContactSort m_sort = ContactSort::Newest;
    int m_count = 0;
    mutable QCache<int, QVector<Contact>> m_cache;
    mutable int m_blockLoads = 0;
    BackgroundCounter m_counter;
};
