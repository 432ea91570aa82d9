#pragma once

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

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
