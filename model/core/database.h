#pragma once

#include "model/core/databaseurl.h"
#include "model/core/errors.h"

#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <cstddef>
#include <functional>
#include <optional>

// Values to bind: a NOT NULL text column gets "" for a null QString (which would bind as NULL); an
// optional text column gets NULL for an empty string.
namespace SqlValue {
QString text(const QString &s);
QVariant textOrNull(const QString &s);
} // namespace SqlValue

// One result row: of Database::select(), valid only inside its callback, or the current row of a
// query (exec(), execCached()), valid until it moves. The values as QVariant's toString(),
// toLongLong(), toDouble() and toByteArray() give them.
class SqlRow
{
public:
    explicit SqlRow(const QSqlQuery &q)
        : m_query(&q)
    {
    }
    QString text(int column) const;
    qint64 integer(int column) const;
    double real(int column) const;
    QByteArray bytes(int column) const;
    bool isNull(int column) const;

private:
    friend class Database;
    SqlRow() = default;
    void *m_stmt = nullptr;             // sqlite3_stmt
    const QSqlQuery *m_query = nullptr; // other drivers
};

// A cached statement in use, as Database::execCached() gives it. It finishes the statement when it
// goes out of scope, on every way out (an exception included): an active statement holds SQLite's
// read snapshot, and one left with an unread row kept a read transaction open after the rollback of
// a refused write, so that the thread's next writes failed with "database is locked" and its reads
// saw a frozen state. Keep it no longer than the rows are read.
class CachedQuery
{
public:
    explicit CachedQuery(QSqlQuery &q);
    ~CachedQuery();
    CachedQuery(CachedQuery &&other) noexcept;
    CachedQuery(const CachedQuery &) = delete;
    CachedQuery &operator=(const CachedQuery &) = delete;
    CachedQuery &operator=(CachedQuery &&) = delete;

    bool next() { return m_query->next(); }
    QVariant value(int column) const { return m_query->value(column); }
    int numRowsAffected() const { return m_query->numRowsAffected(); }
    QSqlQuery &query() const { return *m_query; }
    void finish() { m_query->finish(); }
    operator QSqlQuery &() const { return *m_query; }

private:
    QSqlQuery *m_query;
};

// A row read column after column, in the order of its SELECT list: each call reads the next
// column. The repositories' fromRow() take one, so that they list a struct's fields in the order
// of their column list constant, with no column numbers to keep in step with it (a column added in
// the middle moves none of the others). Made from a select() row or a query at its current row.
class SqlRowReader
{
public:
    SqlRowReader(const SqlRow &row)
        : m_row(row)
    {
    }
    SqlRowReader(const QSqlQuery &q)
        : m_row(q)
    {
    }
    SqlRowReader(const CachedQuery &q)
        : m_row(q.query())
    {
    }

    QString text() { return m_row.text(m_next++); }
    qint64 integer() { return m_row.integer(m_next++); }
    bool flag() { return m_row.integer(m_next++) != 0; } // a 0/1 column
    double real() { return m_row.real(m_next++); }
    QByteArray bytes() { return m_row.bytes(m_next++); }
    // A NULL column as nullopt.
    std::optional<qint64> integerOrNull();
    std::optional<double> realOrNull();
    // A JSON column (an object, or an array of strings); empty when NULL, empty or not JSON.
    QJsonObject jsonObject();
    QStringList jsonStrings();
    // The index of the column the next call reads (the columns after a list constant).
    int next() const { return m_next; }

private:
    SqlRow m_row;
    int m_next = 0;
};

// The database of one data directory. Each thread gets its own QSqlDatabase connection (Qt requires
// it), opened lazily by connection() with the pragmas that make SQLite durable and concurrent:
// WAL (readers never block the writer), synchronous=FULL (a committed write survives power loss),
// foreign keys on, and a busy timeout so that two writers queue instead of failing.
class Database
{
public:
    enum class Dialect
    {
        SQLite,
        PostgreSQL
    };
    // Points every thread at this SQLite file (later connections of all threads use it).
    static void setPath(const QString &sqlitePath);
    // Points every thread at a PostgreSQL database (team mode). searchPath: the schema to work in
    // (tests give each run its own); empty: the server's default. A connection that cannot be made,
    // or a server older than PostgreSQL 13, throws DatabaseError with one clear sentence.
    static void setPostgres(const DatabaseUrl &url, const QString &password, const QString &searchPath = {});
    static QString path(); // the SQLite file; empty on PostgreSQL
    static Dialect dialect();
    // The SQLite file or the PostgreSQL URL (without password), for messages.
    static QString location();
    // This thread's connection, opened on first use.
    static QSqlDatabase connection();
    // Closes this thread's connection (call before a thread ends, or in tests).
    static void closeThreadConnection();
    // Applies the numbered migrations not yet applied; returns the schema version. On PostgreSQL,
    // copies starting together take turns (an advisory lock) and one of them migrates.
    static int migrate();
    // The highest migration applied (0 on an empty database).
    static int schemaVersion();
    // The tables of Liaison's schema (SQLite: in the order they were made, its search index aside;
    // PostgreSQL: by name, the version table aside).
    static QStringList tables();

    // Advisory locks that the copies of Liaison sharing one PostgreSQL database take turns on; the
    // keys live here, in one place.
    enum class Lock : qint64
    {
        Migrations = 7283010,     // one copy migrates, the others wait
        OutboxOrder = 7283011,    // events are committed in the order of their outbox seq
        TelegramPoller = 7283012, // one copy polls Telegram's getUpdates
        ChannelSends = 7283013    // with a channel's name: one copy at a time claims its sends
    };
    // Inside a write Transaction: waits for lock (of one name, when given) and holds it until the
    // transaction ends (or the savepoint it was taken in is rolled back). On SQLite, where BEGIN IMMEDIATE already
    // admits one writer at a time, it does nothing.
    static void lockUntilCommit(Lock lock, const QString &name = {});
    // Takes lock for this thread's connection if no other connection holds it, and keeps it until
    // the connection closes (a copy that dies lets it go with its connection); true when held.
    // Asking again while holding it answers true. SQLite: always true (one process per file).
    static bool holdLock(Lock lock);

    // News for the other copies of a shared PostgreSQL database (ChangeFeed): this process's
    // random id, and a payload sent on the channel kChangesChannel with the transaction (delivered at
    // its commit, dropped by its rollback or that of the savepoint it was sent in; at once outside
    // one). Nothing on SQLite.
    static constexpr const char *kChangesChannel = "liaison_changes";
    static QString copyId();
    static void tellOtherCopies(const QString &payload);
    // A connection named name to the current database (SQLite file or PostgreSQL server), opened as
    // connection() opens this thread's; another caller (a listener) owns it and removes it
    // (QSqlDatabase::removeDatabase(name) after closing). Throws DatabaseError.
    static QSqlDatabase openExtraConnection(const QString &name);
    // Adds Liaison's SQL functions (liaison_fold) to an open SQLite connection; every connection
    // Database opens has them already.
    static void addSqliteFunctions(const QSqlDatabase &db);
    // The rows of one of tables(); throws DatabaseError for another name.
    static qint64 rowCount(const QString &table);

    // Prepares and runs sql with positional values; throws DatabaseError when the database fails,
    // DatabaseUnavailable when it cannot be reached. Outside a transaction, a read (or BEGIN) that
    // found this thread's PostgreSQL connection lost runs once more on a new connection.
    static QSqlQuery exec(const QString &sql, const QVariantList &values = {});
    // As exec() for a statement that is used often: the prepared statement is cached per thread and
    // finished when the returned CachedQuery goes out of scope.
    static CachedQuery execCached(const QString &sql, const QVariantList &values = {});
    // Whether the database answers now (a read on this thread's connection, made again if it was
    // lost); why says what failed. Never throws: for health checks.
    static bool ping(QString *why = nullptr);
    // Runs an INSERT into a table keyed by seq (cached as execCached) and gives the new row's seq:
    // SQLite's rowid, or PostgreSQL's RETURNING seq.
    static qint64 insert(const QString &sql, const QVariantList &values = {});
    // The plan of a query, one line per step: SQLite's EXPLAIN QUERY PLAN (its detail column), or
    // PostgreSQL's EXPLAIN with the values written into the text (EXPLAIN cannot be prepared).
    static QStringList queryPlan(const QString &sql, const QVariantList &values = {});
    // For reads on hot paths: runs sql and calls row() for each result row. On SQLite it uses the
    // C API on this thread's connection with the statement prepared once per thread: QSqlQuery
    // rebuilds its column record on every exec, which was most of the cost of a contact look-up.
    // Other drivers go through QSqlQuery. Throws DatabaseError.
    // cacheStatement=false for statements whose text varies without end (segment rules).
    static void select(const QString &sql, const QVariantList &values, const std::function<void(const SqlRow &)> &row,
                       bool cacheStatement = true);

    // The snapshot guard. A read snapshot (an open transaction or a statement stepped and not reset)
    // must never outlive the unit of work that took it: an answer of the API, a job of a worker.
    // releaseSnapshot() ends what is left on this thread's connection: it finishes every active
    // statement and rolls back an open transaction, logs a warning naming the statement, and counts
    // it in leakedSnapshots(); it returns true when something was left. Callers: the API server
    // after each answer, worker threads after each job. The tests check that the count stays 0.
    static bool releaseSnapshot();
    // Whether this thread's connection holds a read snapshot now (open transaction or active statement).
    static bool holdsSnapshot();
    // Snapshots found left over by releaseSnapshot() or held too long (watchSnapshot()), since start.
    static int leakedSnapshots();
    // The watchdog: called every second by a thread's event loop (between its units of work), it
    // logs a warning and counts a leak when this thread's connection has held a snapshot for longer
    // than maxSeconds, then releases it.
    static void watchSnapshot(int maxSeconds = 3);
    // Starts the watchdog for the calling thread: a one-second timer, child of parent (an object of
    // this thread), that calls watchSnapshot().
    static void startSnapshotWatchdog(QObject *parent, int maxSeconds = 3);

    // Runs done() after the outermost write Transaction of this thread commits, or at once when
    // none is open; a rollback drops it, and so does the rollback of the savepoint (a nested
    // Transaction) it was queued in. A key, when given, is run once per commit however often
    // it is added; a group counts its entries (afterCommitCount). Store::notify() sends the event
    // bus's news this way.
    static void afterCommit(std::function<void()> done, const QString &key = {}, const QString &group = {});
    // How many entries of this group wait for the commit.
    static int afterCommitCount(const QString &group);
    // Whether this thread is inside a write Transaction.
    static bool inWriteTransaction();

    // For a write guarded by a uniqueness check (an e-mail, a name): runs write(), which opens its
    // own Transaction, checks and writes. When a unique index refused the write all the same
    // (UniqueViolation: another copy on the same PostgreSQL database saved the value between the
    // check and the write; SQLite's one writer at a time never lets that happen), runs check() again
    // after the rollback, where it sees the winner and throws the repository's own Conflict naming the
    // field and the existing record; if it does not, the UniqueViolation (a Conflict, code CONFLICT) goes on.
    // Inside a caller's write transaction the violation goes up as it is, for the caller to decide
    // (write()'s own Transaction was a savepoint, rolled back: the caller's transaction goes on).
    template<typename Write, typename Check>
    static auto refuseDuplicate(Write &&write, Check &&check) -> decltype(write())
    {
        try {
            return write();
        } catch (const UniqueViolation &) {
            if (!inWriteTransaction())
                check();
            throw;
        }
    }

private:
    static QSqlQuery execOnce(const QString &sql, const QVariantList &values);
    static CachedQuery execCachedOnce(const QString &sql, const QVariantList &values);
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
// Nested in another one it is a savepoint of it (sp<depth>, on both databases): ending it without
// commit() rolls back its own statements only, and drops the after-commit work (Database::
// afterCommit) they queued, so that its caller can catch its failure and go on (on PostgreSQL the
// transaction stays usable after a statement of the savepoint failed); commit() releases it into
// the transaction around it, with which its rows and its after-commit work then stand or fall.
// Only the outermost commit() commits, and then runs the after-commit work. A statement that failed
// outside any savepoint leaves a PostgreSQL transaction that can only roll back: its commit()
// rolls back and throws DatabaseError (PostgreSQL would answer the COMMIT as done).
class Transaction
{
public:
    Transaction();
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    void commit();

private:
    void rollBackSavepoint();

    bool m_done = false;
    bool m_outer = false;
    int m_savepoint = 0;               // nested: the depth its savepoint is named after
    std::size_t m_afterCommitMark = 0; // nested: how many after-commit entries were queued before it
};
