#pragma once

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

#include <functional>

// Values to bind: a NOT NULL text column gets "" for a null QString (which would bind as NULL); an
// optional text column gets NULL for an empty string.
namespace SqlValue {
QString text(const QString &s);
QVariant textOrNull(const QString &s);
} // namespace SqlValue

// One result row of Database::select(), valid only inside its callback.
class SqlRow
{
public:
    QString text(int column) const;
    qint64 integer(int column) const;
    double real(int column) const;
    QByteArray bytes(int column) const;
    bool isNull(int column) const;

private:
    friend class Database;
    void *m_stmt = nullptr;             // sqlite3_stmt
    const QSqlQuery *m_query = nullptr; // other drivers
};

// The database of one data directory. Each thread gets its own QSqlDatabase connection (Qt requires
// it), opened lazily by connection() with the pragmas that make SQLite durable and concurrent:
// WAL (readers never block the writer), synchronous=FULL (a committed write survives power loss),
// foreign keys on, and a busy timeout so that two writers queue instead of failing.
class Database
{
public:
    // Points every thread at this SQLite file (later connections of all threads use it).
    static void setPath(const QString &sqlitePath);
    static QString path();
    // This thread's connection, opened on first use.
    static QSqlDatabase connection();
    // Closes this thread's connection (call before a thread ends, or in tests).
    static void closeThreadConnection();
    // Applies the numbered migrations not yet applied; returns the schema version.
    static int migrate();

    // Prepares and runs sql with positional values; throws DatabaseError when SQLite fails.
    static QSqlQuery exec(const QString &sql, const QVariantList &values = {});
    // As exec() for a statement that is used often: the prepared statement is cached per thread.
    static QSqlQuery &execCached(const QString &sql, const QVariantList &values = {});
    // For reads on hot paths: runs sql and calls row() for each result row. On SQLite it uses the
    // C API on this thread's connection with the statement prepared once per thread: QSqlQuery
    // rebuilds its column record on every exec, which was most of the cost of a contact look-up.
    // Other drivers go through QSqlQuery. Throws DatabaseError.
    // cacheStatement=false for statements whose text varies without end (segment rules).
    static void select(const QString &sql, const QVariantList &values, const std::function<void(const SqlRow &)> &row,
                       bool cacheStatement = true);
};

// Several reads that must see one state of the database: BEGIN (deferred) ... COMMIT, so that the
// reads of one answer (a contact and its deals and notes, a page and its total) agree, and SQLite
// takes its read lock once instead of once a statement. Only for reads: a Transaction opened inside
// it fails. Inside a write Transaction it does nothing.
class ReadTransaction
{
public:
    ReadTransaction();
    ~ReadTransaction();
    ReadTransaction(const ReadTransaction &) = delete;
    ReadTransaction &operator=(const ReadTransaction &) = delete;

private:
    bool m_outer = false;
};

// One write transaction (BEGIN IMMEDIATE: it takes the write lock at once, so that two writers
// never deadlock upgrading a read lock). Rolled back unless commit() was called.
class Transaction
{
public:
    Transaction();
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    void commit();

private:
    bool m_done = false;
    bool m_outer = false;
};
