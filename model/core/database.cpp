#include "model/core/database.h"

#include "model/core/errors.h"
#include "model/core/ids.h"
#include "model/core/migrations.h"
#include "model/core/sqldialect.h"
#include "model/core/storagehealth.h"
#include "model/core/textfold.h"

#include <QDateTime>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QMutex>
#include <QSet>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlField>
#include <QThread>
#include <QTimer>

#include <sqlite3.h>

#include <atomic>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcDb, "liaison.db")

namespace {
// Where every thread's connection goes: the SQLite file, or the PostgreSQL server.
struct Target
{
    Database::Dialect dialect = Database::Dialect::SQLite;
    QString path;    // SQLite
    DatabaseUrl url; // PostgreSQL
    QString password;
    QString searchPath; // PostgreSQL: the schema to use (tests); empty: the server's default
};
QMutex g_pathMutex;
Target g_target;
// g_target.dialect, read on every statement that differs by database without taking the mutex.
std::atomic<Database::Dialect> g_dialect{Database::Dialect::SQLite};
std::atomic<int> g_generation{0};
std::atomic<int> g_connectionCounter{0};
std::atomic<int> g_leakedSnapshots{0};

// The key of the per-thread statement caches. SQL texts are long (a contact's select is ~300
// characters) and looked up on every query: hashing all of it with qHash was a tenth of the cost
// of GET /contacts/:id. The length and 16 characters spread over the text separate the statements
// well; equal hashes are still told apart by comparing the whole text.
struct SqlTextHash
{
    size_t operator()(const QString &sql) const noexcept
    {
        const qsizetype n = sql.size();
        const QChar *d = sql.constData();
        char16_t sample[17];
        sample[0] = char16_t(n);
        for (int i = 0; i < 16; ++i)
            sample[i + 1] = n > 0 ? d[(n - 1) * i / 15].unicode() : 0;
        return qHashBits(sample, sizeof sample);
    }
};

// The connection of one thread. Its destructor runs when the thread ends and removes the connection.
struct ThreadConnection
{
    QString name;
    int generation = -1;
    int depth = 0;         // nested Transaction and ReadTransaction objects
    bool readOnly = false; // the outermost is a ReadTransaction
    // Node-based, so that a reference execCached() returned stays valid when other statements are added.
    std::unordered_map<QString, QSqlQuery, SqlTextHash> cache;
    // Statements of select(), SQLite only; finalized before the connection closes.
    std::unordered_map<QString, sqlite3_stmt *, SqlTextHash> statements;
    sqlite3 *handle = nullptr;
    bool handleChecked = false;
    // PostgreSQL ended this connection (a restart, pg_terminate_backend): the next statement outside
    // a transaction makes a new one; inside one, the transaction is lost and the statement refused.
    bool lost = false;
    // SQLite's total_changes when the outermost write Transaction began: did it change a row?
    qint64 changesAtBegin = 0;
    qint64 heldSinceMs = -1; // watchSnapshot(): when a snapshot was first seen held between units of work
    // PostgreSQL: a statement of the open transaction failed, after which PostgreSQL refuses every
    // statement of it and turns its COMMIT into a rollback; a rollback to a savepoint taken before
    // the failure (every open one: a SAVEPOINT is refused too) makes it usable again.
    bool aborted = false;
    // Database::afterCommit() inside a write Transaction: what to run in order (with the key and
    // group each entry took, so that the rollback of a savepoint gives them back), the keys taken
    // and how many entries each group holds.
    struct AfterCommit
    {
        std::function<void()> run;
        QString key;
        QString group;
    };
    std::vector<AfterCommit> afterCommit;
    QSet<QString> afterCommitKeys;
    QHash<QString, int> afterCommitGroups;
    void clearAfterCommit()
    {
        afterCommit.clear();
        afterCommitKeys.clear();
        afterCommitGroups.clear();
    }
    // Drops the entries added since there were `mark` of them (a savepoint rolled back).
    void dropAfterCommitFrom(std::size_t mark)
    {
        while (afterCommit.size() > mark) {
            const AfterCommit &entry = afterCommit.back();
            if (!entry.key.isEmpty())
                afterCommitKeys.remove(entry.key);
            if (!entry.group.isEmpty() && --afterCommitGroups[entry.group] <= 0)
                afterCommitGroups.remove(entry.group);
            afterCommit.pop_back();
        }
    }

    void close()
    {
        if (name.isEmpty())
            return;
        cache.clear();
        clearAfterCommit();
        for (auto &entry : statements)
            sqlite3_finalize(entry.second);
        statements.clear();
        handle = nullptr;
        handleChecked = false;
        {
            QSqlDatabase db = QSqlDatabase::database(name, false);
            if (db.isOpen()) {
                if (db.driverName() == QLatin1String("QSQLITE"))
                    QSqlQuery(db).exec(QStringLiteral("PRAGMA optimize"));
                db.close();
            }
        }
        QSqlDatabase::removeDatabase(name);
        name.clear();
        depth = 0;
        readOnly = false;
        lost = false;
        aborted = false;
    }
    ~ThreadConnection() { close(); }
    // Open, not lost, and on the database path of now.
    bool isCurrent() const { return !name.isEmpty() && !lost && generation == g_generation.load(); }
};

ThreadConnection &threadConnection()
{
    thread_local ThreadConnection c;
    return c;
}

// SQLSTATEs that say the session is gone: class 08 (connection exception) and 57P01–57P03 (the
// server shut down, crashed, or is starting).
bool isConnectionState(const QString &sqlState)
{
    return sqlState.startsWith(QLatin1String("08")) || sqlState == QLatin1String("57P01") ||
           sqlState == QLatin1String("57P02") || sqlState == QLatin1String("57P03");
}

// Whether error means this thread's PostgreSQL connection is gone. libpq's own failures ("server
// closed the connection unexpectedly", "no connection to the server") carry no SQLSTATE; the
// connection is then asked once more, which only costs something on such a failure.
bool threadConnectionLost(const QSqlError &error)
{
    ThreadConnection &c = threadConnection();
    if (g_dialect.load() != Database::Dialect::PostgreSQL || c.name.isEmpty())
        return false;
    if (c.lost)
        return true;
    const QString code = error.nativeErrorCode();
    if (isConnectionState(code))
        return true;
    if (!code.isEmpty())
        return false;
    const QSqlDatabase db = QSqlDatabase::database(c.name, false);
    if (!db.isOpen())
        return true;
    QSqlQuery probe(db);
    if (probe.exec(QStringLiteral("SELECT 1")))
        return false;
    const QString probeCode = probe.lastError().nativeErrorCode();
    return probeCode.isEmpty() || isConnectionState(probeCode);
}

// During an outage every request of every thread fails: the log says so when it starts and then
// once a minute, with how many failures it did not write.
void logUnavailable(const QString &what)
{
    static std::atomic<qint64> lastMs{0};
    static std::atomic<int> quiet{0};
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 last = lastMs.load();
    if (now - last < 60000 || !lastMs.compare_exchange_strong(last, now)) {
        ++quiet;
        return;
    }
    const int more = quiet.exchange(0);
    qCWarning(lcDb).noquote() << "the database cannot be reached:" << what
                              << (more > 0 ? QStringLiteral("(and %1 more failure(s) in the last minute)").arg(more)
                                           : QString());
}

[[noreturn]] void throwUnavailable(const QString &what)
{
    logUnavailable(what);
    throw DatabaseUnavailable(what.toStdString());
}

// A write the disk has no room for: SQLite's SQLITE_FULL (the error's native code is SQLite's
// result code), PostgreSQL's SQLSTATE 53100 disk_full.
bool isDiskFull(const QSqlError &error)
{
    const QString code = error.nativeErrorCode();
    if (g_dialect.load() == Database::Dialect::PostgreSQL)
        return code == QLatin1String("53100");
    bool ok = false;
    const int n = code.toInt(&ok);
    return ok && (n & 0xff) == SQLITE_FULL;
}

// A write a unique index refused: PostgreSQL's SQLSTATE 23505; SQLite's SQLITE_CONSTRAINT_UNIQUE or
// _PRIMARYKEY (Qt gives the result code of the step, extended or not: the message tells them apart
// from the other constraints).
bool isUniqueViolation(const QSqlError &error)
{
    const QString code = error.nativeErrorCode();
    if (g_dialect.load() == Database::Dialect::PostgreSQL)
        return code == QLatin1String("23505");
    bool ok = false;
    const int n = code.toInt(&ok);
    if (!ok || (n & 0xff) != SQLITE_CONSTRAINT)
        return false;
    if (n == SQLITE_CONSTRAINT_UNIQUE || n == SQLITE_CONSTRAINT_PRIMARYKEY)
        return true;
    const QString text = error.databaseText();
    return text.contains(QLatin1String("UNIQUE constraint failed")) ||
           text.contains(QLatin1String("PRIMARY KEY constraint failed"));
}

[[noreturn]] void fail(const QString &what, const QSqlError &error)
{
    if (error.type() != QSqlError::NoError && g_dialect.load() == Database::Dialect::PostgreSQL &&
        threadConnection().depth > 0)
        threadConnection().aborted = true;
    if (threadConnectionLost(error)) {
        threadConnection().lost = true;
        throwUnavailable(what + QLatin1String(": ") + error.text().simplified());
    }
    if (isDiskFull(error))
        StorageHealth::refuseWrite(what + QLatin1String(": ") + error.text());
    if (isUniqueViolation(error)) {
        qCInfo(lcDb).noquote() << "refused as a duplicate:" << what << error.text().simplified();
        throw UniqueViolation();
    }
    qCWarning(lcDb).noquote() << what << error.text();
    throw DatabaseError((what + QLatin1String(": ") + error.text()).toStdString());
}

// Runs a statement and, when it failed only because this thread's idle connection had been lost,
// once more on a new one. Only what cannot have changed anything is run again, outside a
// transaction: a read, or the BEGIN of one.
template<typename Run>
auto againIfLostWhileIdle(const QString &sql, Run run)
{
    try {
        return run();
    } catch (const DatabaseUnavailable &) {
        const ThreadConnection &c = threadConnection();
        const QStringView head = QStringView(sql).trimmed().left(6);
        if (c.depth > 0 || !(head.startsWith(QLatin1String("SELECT"), Qt::CaseInsensitive) ||
                             head.startsWith(QLatin1String("BEGIN"), Qt::CaseInsensitive)))
            throw;
        return run();
    }
}

void bindAll(QSqlQuery &q, const QVariantList &values)
{
    for (int i = 0; i < values.size(); ++i) {
        const QVariant &v = values.at(i);
        // Flags are stored as integers 0/1 on both databases; PostgreSQL refuses a boolean there.
        if (v.typeId() == QMetaType::Bool)
            q.bindValue(i, v.toBool() ? 1 : 0);
        else
            q.bindValue(i, v);
    }
}
// The database holds password hashes, API key hashes and webhook secrets: it is readable by its
// owner only (0600), wherever database/path puts it. A new file is created with that mode before
// SQLite opens it (SQLite would use 0644 less the umask; its -wal and -shm files take the database
// file's mode); an existing file, or one of its companions, readable by others is restricted with a
// warning.
void restrictToOwner(const QString &file)
{
    if (file.isEmpty() || file == QLatin1String(":memory:") || file.startsWith(QLatin1String("file:")))
        return;
    const QByteArray native = QFile::encodeName(file);
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ::close(fd);
        return;
    }
    constexpr QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup |
                                                QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                                QFileDevice::WriteOther | QFileDevice::ExeOther;
    for (const char *suffix : {"", "-wal", "-shm", "-journal"}) {
        QFile f(file + QLatin1String(suffix));
        if (f.exists() && (f.permissions() & others) &&
            f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser |
                             QFileDevice::WriteUser))
            qCWarning(lcDb).noquote() << QStringLiteral(
                                             "%1 was readable by other users; restricted it to its owner (0600)")
                                             .arg(f.fileName());
    }
}
} // namespace

QString SqlValue::text(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

QVariant SqlValue::textOrNull(const QString &s)
{
    return s.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(s);
}

void Database::setPath(const QString &sqlitePath)
{
    // SQLite keeps memory statistics under one process-wide mutex taken on every allocation: with
    // two server threads searching, that lock was 12% of the CPU time. We never read the figures.
    // Possible only before SQLite is first used, so it is done here, before any connection opens
    // (later calls get SQLITE_MISUSE and change nothing).
    static const bool statsOff = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
    Q_UNUSED(statsOff);
    QMutexLocker lock(&g_pathMutex);
    g_target = Target();
    g_target.path = sqlitePath;
    g_dialect = Dialect::SQLite;
    ++g_generation;
}

void Database::setPostgres(const DatabaseUrl &url, const QString &password, const QString &searchPath)
{
    QMutexLocker lock(&g_pathMutex);
    g_target = Target();
    g_target.dialect = Dialect::PostgreSQL;
    g_target.url = url;
    g_target.password = password;
    g_target.searchPath = searchPath;
    g_dialect = Dialect::PostgreSQL;
    ++g_generation;
}

QString Database::path()
{
    QMutexLocker lock(&g_pathMutex);
    return g_target.path;
}

Database::Dialect Database::dialect()
{
    return g_dialect.load();
}

QString Database::location()
{
    QMutexLocker lock(&g_pathMutex);
    return g_target.dialect == Dialect::PostgreSQL ? g_target.url.toString() : g_target.path;
}

namespace {
// The folded form of the two-byte UTF-8 letters of Turkish (C3 xx, C4 xx, C5 xx), as TextFold::fold
// gives them; 0 for any other sequence.
char foldTurkish(unsigned char lead, unsigned char next)
{
    if (lead == 0xC3) {
        switch (next) {
        case 0x87:
        case 0xA7:
            return 'c'; // Ç ç
        case 0x96:
        case 0xB6:
            return 'o'; // Ö ö
        case 0x9C:
        case 0xBC:
        case 0x9B:
        case 0xBB:
            return 'u'; // Ü ü Û û
        case 0x82:
        case 0xA2:
            return 'a'; // Â â
        case 0x8E:
        case 0xAE:
            return 'i'; // Î î
        default:
            return 0;
        }
    }
    if (lead == 0xC4) {
        switch (next) {
        case 0x9E:
        case 0x9F:
            return 'g'; // Ğ ğ
        case 0xB0:
        case 0xB1:
            return 'i'; // İ ı
        default:
            return 0;
        }
    }
    if (lead == 0xC5 && (next == 0x9E || next == 0x9F))
        return 's'; // Ş ş
    return 0;
}

// liaison_fold(text) in SQL on SQLite: TextFold::fold, as PostgreSQL has it from migration 17. ASCII
// and the Turkish letters are folded byte by byte; other text goes through TextFold.
void sqliteFold(sqlite3_context *context, int, sqlite3_value **argv)
{
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(context);
        return;
    }
    const auto *text = sqlite3_value_text(argv[0]);
    const int size = sqlite3_value_bytes(argv[0]);
    if (!text) {
        sqlite3_result_error_nomem(context);
        return;
    }
    char small[256];
    std::string large;
    char *out = small;
    if (size > int(sizeof small)) {
        large.resize(size_t(size));
        out = large.data();
    }
    int n = 0;
    for (int i = 0; i < size; ++i) {
        const unsigned char ch = text[i];
        if (ch < 0x80) {
            out[n++] = ch >= 'A' && ch <= 'Z' ? char(ch - 'A' + 'a') : char(ch);
        } else if (const char folded = i + 1 < size ? foldTurkish(ch, text[i + 1]) : 0) {
            out[n++] = folded;
            ++i;
        } else {
            const QByteArray all =
                TextFold::fold(QString::fromUtf8(reinterpret_cast<const char *>(text), size)).toUtf8();
            sqlite3_result_text(context, all.constData(), int(all.size()), SQLITE_TRANSIENT);
            return;
        }
    }
    sqlite3_result_text(context, out, n, SQLITE_TRANSIENT);
}

QSqlDatabase openSqlite(const QString &name, const QString &file)
{
    restrictToOwner(file);
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(file);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
    if (!db.open())
        fail(QStringLiteral("cannot open database %1").arg(file), db.lastError());
    QSqlQuery q(db);
    for (const char *pragma : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON",
                               "PRAGMA temp_store=MEMORY", "PRAGMA cache_size=-16000"}) {
        if (!q.exec(QString::fromLatin1(pragma)))
            fail(QString::fromLatin1(pragma), q.lastError());
    }
    Database::addSqliteFunctions(db);
    return db;
}

constexpr int kOldestPostgres = 130000; // server_version_num of PostgreSQL 13

QSqlDatabase openPostgres(const QString &name, const Target &t)
{
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL")))
        throw DatabaseError("the PostgreSQL driver of Qt is not installed (Debian package libqt6sql6-psql)");
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
    db.setHostName(t.url.host);
    db.setPort(t.url.port);
    db.setDatabaseName(t.url.dbname);
    db.setUserName(t.url.user);
    db.setPassword(t.password);
    // The server's notices ("relation … already exists, skipping") are not the log's business.
    QString server = QStringLiteral("-cclient_min_messages=warning");
    if (!t.searchPath.isEmpty())
        server += QStringLiteral(" -csearch_path=%1").arg(t.searchPath);
    const QString options =
        t.url.connectOptions() + QStringLiteral(";application_name=liaison;options='%1'").arg(server);
    db.setConnectOptions(options);
    if (!db.open()) {
        const QString why =
            db.lastError().databaseText().trimmed().isEmpty() ? db.lastError().text() : db.lastError().databaseText();
        throwUnavailable(
            QStringLiteral("cannot connect to PostgreSQL at %1: %2").arg(t.url.toString(), why.simplified()));
    }
    QSqlQuery q(db);
    if (!q.exec(
            QStringLiteral("SELECT current_setting('server_version_num')::int, current_setting('server_version')")) ||
        !q.next())
        fail(QStringLiteral("cannot read the PostgreSQL server's version"), q.lastError());
    if (q.value(0).toInt() < kOldestPostgres)
        throw DatabaseError(QStringLiteral("PostgreSQL 13 or newer is needed; the server at %1 runs %2")
                                .arg(t.url.toString(), q.value(1).toString())
                                .toStdString());
    return db;
}
} // namespace

void Database::addSqliteFunctions(const QSqlDatabase &db)
{
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        throw DatabaseError("the SQLite driver of Qt gave no database handle");
    sqlite3 *h = *static_cast<sqlite3 *const *>(handle.constData());
    if (sqlite3_create_function_v2(h, "liaison_fold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nullptr,
                                   sqliteFold, nullptr, nullptr, nullptr) != SQLITE_OK)
        throw DatabaseError(QStringLiteral("cannot add liaison_fold to %1: %2")
                                .arg(db.databaseName(), QString::fromUtf8(sqlite3_errmsg(h)))
                                .toStdString());
}

QSqlDatabase Database::connection()
{
    ThreadConnection &c = threadConnection();
    if (c.isCurrent())
        return QSqlDatabase::database(c.name, false);
    // Never a new connection in the middle of a transaction: its statements would commit one by one.
    if (c.lost && c.depth > 0)
        throwUnavailable(QStringLiteral("the connection to PostgreSQL was lost during a transaction, which was not "
                                        "committed"));
    c.close();
    c.name = QStringLiteral("liaison-%1").arg(++g_connectionCounter);
    c.generation = g_generation.load();
    try {
        return openExtraConnection(c.name);
    } catch (...) {
        c.close(); // the next call tries again
        throw;
    }
}

void Database::closeThreadConnection()
{
    threadConnection().close();
}

QSqlQuery Database::exec(const QString &sql, const QVariantList &values)
{
    return againIfLostWhileIdle(sql, [&] { return execOnce(sql, values); });
}

QSqlQuery Database::execOnce(const QString &sql, const QVariantList &values)
{
    QSqlQuery q(connection());
    q.setForwardOnly(true);
    // PostgreSQL prepares only queries and data changes: a statement without values runs as it is.
    if (values.isEmpty() && dialect() == Dialect::PostgreSQL) {
        if (!q.exec(sql))
            fail(QStringLiteral("query failed [%1]").arg(sql), q.lastError());
        return q;
    }
    if (!q.prepare(sql))
        fail(QStringLiteral("prepare failed for [%1]").arg(sql), q.lastError());
    bindAll(q, values);
    if (!q.exec())
        fail(QStringLiteral("query failed [%1]").arg(sql), q.lastError());
    return q;
}

void Database::lockUntilCommit(Lock lock, const QString &name)
{
    if (dialect() != Dialect::PostgreSQL)
        return;
    QSqlQuery q(connection());
    // A name: the two-key form, the lock and a checksum of the name (the same in every process).
    const QString key = name.isEmpty()
                            ? QString::number(qint64(lock))
                            : QStringLiteral("%1, %2").arg(qint64(lock)).arg(qChecksum(QByteArrayView(name.toUtf8())));
    if (!q.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(key)))
        fail(QStringLiteral("cannot take advisory lock %1").arg(qint64(lock)), q.lastError());
}

bool Database::holdLock(Lock lock)
{
    if (dialect() != Dialect::PostgreSQL)
        return true;
    // Session locks stack: a second pg_try_advisory_lock by the holder would need a second unlock.
    // The holder asks pg_locks first.
    QSqlQuery q(connection());
    if (!q.exec(QStringLiteral("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                               "AND pid = pg_backend_pid() AND objid = %1 AND classid = %2")
                    .arg(qint64(lock) & 0xffffffff)
                    .arg(qint64(lock) >> 32)) ||
        !q.next())
        fail(QStringLiteral("cannot read advisory lock %1").arg(qint64(lock)), q.lastError());
    if (q.value(0).toInt() > 0)
        return true;
    if (!q.exec(QStringLiteral("SELECT pg_try_advisory_lock(%1)").arg(qint64(lock))) || !q.next())
        fail(QStringLiteral("cannot take advisory lock %1").arg(qint64(lock)), q.lastError());
    return q.value(0).toBool();
}

QString Database::copyId()
{
    static const QString id = Ids::make(u"copy");
    return id;
}

void Database::tellOtherCopies(const QString &payload)
{
    if (dialect() != Dialect::PostgreSQL)
        return;
    static const QString notify = QStringLiteral("SELECT pg_notify('%1', ?)").arg(QLatin1String(kChangesChannel));
    execCached(notify, {payload}); // the CachedQuery finishes the statement as it goes
}

QSqlDatabase Database::openExtraConnection(const QString &name)
{
    Target target;
    {
        QMutexLocker lock(&g_pathMutex);
        target = g_target;
    }
    return target.dialect == Dialect::PostgreSQL ? openPostgres(name, target) : openSqlite(name, target.path);
}

QStringList Database::queryPlan(const QString &sql, const QVariantList &values)
{
    QStringList lines;
    if (dialect() == Dialect::SQLite) {
        QSqlQuery q = exec(QStringLiteral("EXPLAIN QUERY PLAN ") + sql, values);
        while (q.next())
            lines << q.value(3).toString();
        return lines;
    }
    // Each ? outside a quoted literal becomes its value as a literal of the driver's.
    QSqlDatabase db = connection();
    QString text = QStringLiteral("EXPLAIN ");
    qsizetype next = 0;
    bool quoted = false;
    for (QChar ch : sql) {
        if (ch == QLatin1Char('\''))
            quoted = !quoted;
        if (ch != QLatin1Char('?') || quoted) {
            text += ch;
            continue;
        }
        if (next >= values.size())
            throw DatabaseError(
                QStringLiteral("query plan: fewer values than placeholders in [%1]").arg(sql).toStdString());
        const QVariant &v = values.at(next++);
        QSqlField field(QString(), v.metaType());
        field.setValue(v);
        text += db.driver()->formatValue(field);
    }
    QSqlQuery q = exec(text);
    while (q.next())
        lines << q.value(0).toString();
    return lines;
}

CachedQuery::CachedQuery(QSqlQuery &q)
    : m_query(&q)
{
}

CachedQuery::~CachedQuery()
{
    if (m_query)
        m_query->finish();
}

CachedQuery::CachedQuery(CachedQuery &&other) noexcept
    : m_query(std::exchange(other.m_query, nullptr))
{
}

CachedQuery Database::execCached(const QString &sql, const QVariantList &values)
{
    return againIfLostWhileIdle(sql, [&] { return execCachedOnce(sql, values); });
}

CachedQuery Database::execCachedOnce(const QString &sql, const QVariantList &values)
{
    QSqlDatabase db = connection();
    ThreadConnection &c = threadConnection();
    auto it = c.cache.find(sql);
    if (it == c.cache.end()) {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        if (!q.prepare(sql))
            fail(QStringLiteral("prepare failed for [%1]").arg(sql), q.lastError());
        it = c.cache.emplace(sql, q).first;
    }
    QSqlQuery &q = it->second;
    q.finish();
    bindAll(q, values);
    if (!q.exec()) {
        const QSqlError error = q.lastError();
        q.finish();
        fail(QStringLiteral("query failed [%1]").arg(sql), error);
    }
    return CachedQuery(q);
}

qint64 Database::insert(const QString &sql, const QVariantList &values)
{
    if (dialect() == Dialect::PostgreSQL) {
        CachedQuery q = execCached(sql + QStringLiteral(" RETURNING seq"), values);
        return q.next() ? q.value(0).toLongLong() : 0;
    }
    const CachedQuery q = execCached(sql, values);
    return q.query().lastInsertId().toLongLong();
}

namespace {
sqlite3 *sqliteHandle(ThreadConnection &c, const QSqlDatabase &db)
{
    if (!c.handleChecked) {
        c.handleChecked = true;
        const QVariant v = db.driver()->handle();
        if (v.isValid() && qstrcmp(v.typeName(), "sqlite3*") == 0)
            c.handle = *static_cast<sqlite3 *const *>(v.constData());
    }
    return c.handle;
}

[[noreturn]] void failSqlite(sqlite3 *h, const QString &sql)
{
    const QString message = QStringLiteral("query failed [%1]: %2").arg(sql, QString::fromUtf8(sqlite3_errmsg(h)));
    if ((sqlite3_errcode(h) & 0xff) == SQLITE_FULL)
        StorageHealth::refuseWrite(message);
    const int extended = sqlite3_extended_errcode(h);
    if (extended == SQLITE_CONSTRAINT_UNIQUE || extended == SQLITE_CONSTRAINT_PRIMARYKEY) {
        qCInfo(lcDb).noquote() << "refused as a duplicate:" << message;
        throw UniqueViolation();
    }
    qCWarning(lcDb).noquote() << message;
    throw DatabaseError(message.toStdString());
}

void bindSqlite(sqlite3 *h, sqlite3_stmt *stmt, const QString &sql, const QVariantList &values)
{
    for (int i = 0; i < values.size(); ++i) {
        const QVariant &v = values.at(i);
        int rc = SQLITE_OK;
        if (v.isNull()) {
            rc = sqlite3_bind_null(stmt, i + 1);
        } else {
            switch (v.typeId()) {
            case QMetaType::Int:
            case QMetaType::UInt:
            case QMetaType::LongLong:
            case QMetaType::ULongLong:
            case QMetaType::Bool:
                rc = sqlite3_bind_int64(stmt, i + 1, v.toLongLong());
                break;
            case QMetaType::Double:
                rc = sqlite3_bind_double(stmt, i + 1, v.toDouble());
                break;
            case QMetaType::QByteArray: {
                const QByteArray b = v.toByteArray();
                rc = sqlite3_bind_blob(stmt, i + 1, b.constData(), int(b.size()), SQLITE_TRANSIENT);
                break;
            }
            default: {
                // UTF-8, the database's encoding: bound as UTF-16, SQLite converted the value again
                // for every comparison with a stored text.
                const QByteArray t = v.toString().toUtf8();
                rc = sqlite3_bind_text(stmt, i + 1, t.constData(), int(t.size()), SQLITE_TRANSIENT);
                break;
            }
            }
        }
        if (rc != SQLITE_OK)
            failSqlite(h, sql);
    }
}
} // namespace

QString SqlRow::text(int column) const
{
    if (m_query)
        return m_query->value(column).toString();
    // The stored UTF-8 as it is (sqlite3_column_text16 converted it into a buffer of its own first).
    auto *stmt = static_cast<sqlite3_stmt *>(m_stmt);
    const unsigned char *data = sqlite3_column_text(stmt, column);
    if (!data)
        return QString();
    return QString::fromUtf8(reinterpret_cast<const char *>(data), sqlite3_column_bytes(stmt, column));
}

qint64 SqlRow::integer(int column) const
{
    if (m_query)
        return m_query->value(column).toLongLong();
    return sqlite3_column_int64(static_cast<sqlite3_stmt *>(m_stmt), column);
}

double SqlRow::real(int column) const
{
    if (m_query)
        return m_query->value(column).toDouble();
    return sqlite3_column_double(static_cast<sqlite3_stmt *>(m_stmt), column);
}

QByteArray SqlRow::bytes(int column) const
{
    if (m_query)
        return m_query->value(column).toByteArray();
    auto *stmt = static_cast<sqlite3_stmt *>(m_stmt);
    const void *data = sqlite3_column_blob(stmt, column);
    return data ? QByteArray(static_cast<const char *>(data), sqlite3_column_bytes(stmt, column)) : QByteArray();
}

bool SqlRow::isNull(int column) const
{
    if (m_query)
        return m_query->value(column).isNull();
    return sqlite3_column_type(static_cast<sqlite3_stmt *>(m_stmt), column) == SQLITE_NULL;
}

std::optional<qint64> SqlRowReader::integerOrNull()
{
    const int column = m_next++;
    return m_row.isNull(column) ? std::nullopt : std::optional<qint64>(m_row.integer(column));
}

std::optional<double> SqlRowReader::realOrNull()
{
    const int column = m_next++;
    return m_row.isNull(column) ? std::nullopt : std::optional<double>(m_row.real(column));
}

namespace {
// Empty objects and arrays (most rows' custom fields, tags or payloads) are not parsed.
QJsonDocument parsedJsonColumn(const QByteArray &b)
{
    return b.size() <= 2 ? QJsonDocument() : QJsonDocument::fromJson(b);
}
} // namespace

QJsonObject SqlRowReader::jsonObject()
{
    return parsedJsonColumn(bytes()).object();
}

QStringList SqlRowReader::jsonStrings()
{
    QStringList out;
    for (const QJsonValue &v : parsedJsonColumn(bytes()).array())
        out << v.toString();
    return out;
}

void Database::select(const QString &sql, const QVariantList &values, const std::function<void(const SqlRow &)> &row,
                      bool cacheStatement)
{
    ThreadConnection &c = threadConnection();
    // The open SQLite handle of this thread, without a QSqlDatabase look-up (a mutex and a hash by
    // name) on every query; connection() opens or reopens it when needed.
    sqlite3 *h = c.isCurrent() && c.handleChecked ? c.handle : sqliteHandle(c, connection());
    SqlRow r;
    if (!h) {
        auto each = [&](QSqlQuery &q) {
            r.m_query = &q;
            while (q.next())
                row(r);
        };
        if (cacheStatement) {
            CachedQuery q = execCached(sql, values);
            each(q);
        } else {
            QSqlQuery q = exec(sql, values);
            each(q);
        }
        return;
    }
    sqlite3_stmt *stmt = nullptr;
    auto it = cacheStatement ? c.statements.find(sql) : c.statements.end();
    if (it != c.statements.end()) {
        stmt = it->second;
    } else {
        if (sqlite3_prepare_v3(h, sql.toUtf8().constData(), -1, cacheStatement ? SQLITE_PREPARE_PERSISTENT : 0, &stmt,
                               nullptr) != SQLITE_OK)
            failSqlite(h, sql);
        if (cacheStatement)
            c.statements.emplace(sql, stmt);
    }
    // Reset (or finalize) on every way out, so that the statement holds no read lock after the call.
    struct Reset
    {
        sqlite3_stmt *s;
        bool keep;
        ~Reset()
        {
            if (keep) {
                sqlite3_reset(s);
                sqlite3_clear_bindings(s);
            } else {
                sqlite3_finalize(s);
            }
        }
    } reset{stmt, cacheStatement};
    bindSqlite(h, stmt, sql, values);
    r.m_stmt = stmt;
    for (;;) {
        const int rc = sqlite3_step(stmt);
        if (rc == SQLITE_ROW) {
            row(r);
            continue;
        }
        if (rc == SQLITE_DONE)
            break;
        failSqlite(h, sql);
    }
}

namespace {
// What holds this thread's SQLite snapshot now: the texts of the active statements, and whether a
// transaction is open. Nothing on a connection that is not SQLite (nullptr handle).
struct Held
{
    QStringList statements;
    bool transaction = false;
    bool any() const { return transaction || !statements.isEmpty(); }
};

sqlite3 *openHandle(ThreadConnection &c)
{
    if (!c.isCurrent())
        return nullptr;
    return c.handleChecked ? c.handle : sqliteHandle(c, QSqlDatabase::database(c.name, false));
}

Held heldBy(sqlite3 *h)
{
    Held held;
    if (!h)
        return held;
    held.transaction = sqlite3_get_autocommit(h) == 0;
    for (sqlite3_stmt *s = sqlite3_next_stmt(h, nullptr); s; s = sqlite3_next_stmt(h, s)) {
        if (sqlite3_stmt_busy(s))
            held.statements.append(QString::fromUtf8(sqlite3_sql(s)).simplified().left(120));
    }
    return held;
}

void release(ThreadConnection &c, sqlite3 *h, const Held &held, const char *why)
{
    g_leakedSnapshots.fetch_add(1);
    qCWarning(lcDb).noquote() << why << "(transaction open:" << held.transaction
                              << "; active statements:" << held.statements.join(QLatin1String(" | ")) << ")";
    for (auto &entry : c.cache) {
        if (entry.second.isActive())
            entry.second.finish();
    }
    // Statements outside the cache (a QSqlQuery kept alive somewhere): reset at SQLite's level.
    for (sqlite3_stmt *s = sqlite3_next_stmt(h, nullptr); s; s = sqlite3_next_stmt(h, s)) {
        if (sqlite3_stmt_busy(s))
            sqlite3_reset(s);
    }
    if (sqlite3_get_autocommit(h) == 0 && c.depth == 0)
        sqlite3_exec(h, "ROLLBACK", nullptr, nullptr, nullptr);
    c.heldSinceMs = -1;
}
} // namespace

bool Database::holdsSnapshot()
{
    return heldBy(openHandle(threadConnection())).any();
}

bool Database::releaseSnapshot()
{
    ThreadConnection &c = threadConnection();
    if (c.depth > 0)
        return false; // inside a transaction of the caller's: nothing is left over yet
    sqlite3 *h = openHandle(c);
    const Held held = heldBy(h);
    c.heldSinceMs = -1;
    if (!held.any())
        return false;
    release(c, h, held, "a read snapshot outlived its unit of work and was released");
    return true;
}

int Database::leakedSnapshots()
{
    return g_leakedSnapshots.load();
}

void Database::watchSnapshot(int maxSeconds)
{
    ThreadConnection &c = threadConnection();
    sqlite3 *h = openHandle(c);
    const Held held = heldBy(h);
    if (!held.any()) {
        c.heldSinceMs = -1;
        return;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (c.heldSinceMs < 0) {
        c.heldSinceMs = now;
        return;
    }
    if (now - c.heldSinceMs < qint64(maxSeconds) * 1000)
        return;
    const QByteArray why = QByteArrayLiteral("a connection held a read snapshot for more than ") +
                           QByteArray::number(maxSeconds) + QByteArrayLiteral(" s between units of work");
    release(c, h, held, why.constData());
}

void Database::startSnapshotWatchdog(QObject *parent, int maxSeconds)
{
    auto *timer = new QTimer(parent);
    timer->setObjectName(QStringLiteral("snapshotWatchdog"));
    QObject::connect(timer, &QTimer::timeout, timer, [maxSeconds] { watchSnapshot(maxSeconds); });
    timer->start(1000);
}

namespace {
// The highest migration applied. PostgreSQL keeps it in a table of its own (SQLite in the file's
// header); readers take the row without a lock, migrate() under the migration lock.
int readSchemaVersion(QSqlQuery &q, Database::Dialect dialect)
{
    const bool ok = dialect == Database::Dialect::PostgreSQL
                        ? q.exec(QStringLiteral("SELECT coalesce(max(version), 0) FROM schema_version"))
                        : q.exec(QStringLiteral("PRAGMA user_version"));
    if (!ok || !q.next())
        fail(QStringLiteral("cannot read schema version"), q.lastError());
    const int version = q.value(0).toInt();
    q.finish();
    return version;
}
} // namespace

int Database::migrate()
{
    const Dialect d = dialect();
    QSqlDatabase db = connection();
    QSqlQuery q(db);
    const bool postgres = d == Dialect::PostgreSQL;
    if (postgres) {
        if (!q.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                                   "applied_at TEXT NOT NULL)")))
            fail(QStringLiteral("cannot create the schema_version table"), q.lastError());
    }
    int version = readSchemaVersion(q, d);
    for (const Migration &m : migrations()) {
        if (m.version <= version)
            continue;
        // SQLite: a migration that rebuilds a table runs with foreign keys off (a pragma outside
        // any transaction), so that dropping the old table deletes and cascades nothing.
        const bool keysOff = !postgres && m.foreignKeysOff;
        if (keysOff && !q.exec(QStringLiteral("PRAGMA foreign_keys=OFF")))
            fail(QStringLiteral("cannot turn foreign keys off"), q.lastError());
        struct KeysBackOn
        {
            QSqlQuery &q;
            bool on;
            ~KeysBackOn()
            {
                if (on)
                    q.exec(QStringLiteral("PRAGMA foreign_keys=ON"));
            }
        } keysBackOn{q, keysOff};
        Transaction tx;
        if (postgres) {
            // Copies starting together: one migrates, the others wait and then find it done.
            lockUntilCommit(Lock::Migrations);
            version = readSchemaVersion(q, d);
            if (m.version <= version)
                continue;
        }
        for (const MigrationStatement &statement : m.statements) {
            if (statement.only == (postgres ? MigrationStatement::SQLite : MigrationStatement::PostgreSQL))
                continue;
            const QString sql = postgres && statement.only == MigrationStatement::Both
                                    ? SqlDialect::postgresDdl(statement.sql)
                                    : statement.sql;
            if (!q.exec(sql))
                fail(QStringLiteral("migration %1 (%2) failed").arg(m.version).arg(QLatin1String(m.name)),
                     q.lastError());
        }
        const bool recorded =
            postgres ? q.exec(QStringLiteral("INSERT INTO schema_version (version, applied_at) VALUES (%1, "
                                             "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))")
                                  .arg(m.version))
                     : q.exec(QStringLiteral("PRAGMA user_version = %1").arg(m.version));
        if (!recorded)
            fail(QStringLiteral("cannot record schema version"), q.lastError());
        if (keysOff) {
            if (!q.exec(QStringLiteral("PRAGMA foreign_key_check")))
                fail(QStringLiteral("cannot check foreign keys"), q.lastError());
            if (q.next())
                fail(QStringLiteral("migration %1 (%2) broke a reference of table %3")
                         .arg(m.version)
                         .arg(QLatin1String(m.name), q.value(0).toString()),
                     q.lastError());
            q.finish();
        }
        tx.commit();
        qCInfo(lcDb).noquote() << "applied migration" << m.version << m.name;
        version = m.version;
    }
    return version;
}

bool Database::ping(QString *why)
{
    try {
        againIfLostWhileIdle(QStringLiteral("SELECT"), [] { return schemaVersion(); });
        return true;
    } catch (const std::exception &e) {
        if (why)
            *why = QString::fromUtf8(e.what());
        return false;
    }
}

int Database::schemaVersion()
{
    QSqlQuery q(connection());
    if (dialect() == Dialect::PostgreSQL) {
        if (!q.exec(QStringLiteral("SELECT to_regclass('schema_version') IS NOT NULL")) || !q.next())
            fail(QStringLiteral("cannot read schema version"), q.lastError());
        if (!q.value(0).toBool())
            return 0;
        q.finish();
    }
    return readSchemaVersion(q, dialect());
}

QStringList Database::tables()
{
    const bool postgres = dialect() == Dialect::PostgreSQL;
    QSqlQuery q = exec(postgres ? QStringLiteral("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                                 "AND tablename != 'schema_version' ORDER BY tablename")
                                : SqlDialect::sqliteTables());
    QStringList out;
    while (q.next())
        out << q.value(0).toString();
    return out;
}

qint64 Database::rowCount(const QString &table)
{
    if (!tables().contains(table))
        throw DatabaseError(QStringLiteral("no table %1").arg(table).toStdString());
    QSqlQuery q = exec(QStringLiteral("SELECT count(*) FROM %1").arg(table)); // a name from tables() only
    return q.next() ? q.value(0).toLongLong() : 0;
}

ReadTransaction::ReadTransaction()
{
    ThreadConnection &c = threadConnection();
    if (c.depth > 0) {
        ++c.depth;
        return;
    }
    // One snapshot for every read of the unit (PostgreSQL's default would take one per statement).
    // Begun before the depth counts it, so that a connection lost while idle is made again.
    if (Database::dialect() == Database::Dialect::PostgreSQL)
        Database::exec(QStringLiteral("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"));
    else
        Database::select(QStringLiteral("BEGIN"), {}, [](const SqlRow &) {});
    ++c.depth;
    m_outer = true;
    c.readOnly = true;
    c.aborted = false;
}

ReadTransaction::~ReadTransaction()
{
    ThreadConnection &c = threadConnection();
    --c.depth;
    if (!m_outer || c.name.isEmpty())
        return;
    c.readOnly = false;
    try {
        if (Database::dialect() == Database::Dialect::PostgreSQL)
            Database::exec(QStringLiteral("COMMIT"));
        else
            Database::select(QStringLiteral("COMMIT"), {}, [](const SqlRow &) {});
    } catch (const std::exception &e) {
        qCWarning(lcDb) << "ending a read transaction failed:" << e.what();
    }
}

namespace {
const QString kLostDuringTransaction =
    QStringLiteral("the connection to PostgreSQL was lost during a transaction, which was not committed");

// A statement that steers the open transaction (SAVEPOINT, RELEASE, ROLLBACK TO) on this thread's
// connection. SQLite: through select(), whose statements are prepared once per thread; PostgreSQL
// prepares no such statement, so it runs as it is.
void steer(const QString &sql)
{
    if (Database::dialect() == Database::Dialect::SQLite) {
        Database::select(sql, {}, [](const SqlRow &) {});
        return;
    }
    QSqlQuery q(Database::connection());
    if (!q.exec(sql))
        fail(QStringLiteral("%1 failed").arg(sql), q.lastError());
}

QString savepointName(int level)
{
    return QStringLiteral("sp") + QString::number(level);
}
} // namespace

Transaction::Transaction()
{
    ThreadConnection &c = threadConnection();
    if (c.readOnly) // a deferred read transaction upgraded to a write could fail with SQLITE_BUSY
        fail(QStringLiteral("a write transaction cannot start inside a read transaction"), QSqlError());
    if (c.depth > 0) {
        // Nested: a savepoint of the outermost transaction, named after its depth (unique among
        // those open). On a lost connection, connection() refuses it as the transaction's.
        const int level = c.depth + 1;
        try {
            steer(QStringLiteral("SAVEPOINT ") + savepointName(level));
        } catch (...) {
            m_done = true;
            throw;
        }
        c.depth = level;
        m_savepoint = level;
        m_afterCommitMark = c.afterCommit.size();
        return;
    }
    // SQLite: take the write lock at once. PostgreSQL locks rows as they are written. Begun before
    // the depth counts it, so that a connection lost while idle is made again.
    const QString begin = Database::dialect() == Database::Dialect::PostgreSQL ? QStringLiteral("BEGIN")
                                                                               : QStringLiteral("BEGIN IMMEDIATE");
    try {
        againIfLostWhileIdle(begin, [&] {
            const QSqlDatabase db = Database::connection();
            if (sqlite3 *h = sqliteHandle(c, db))
                c.changesAtBegin = sqlite3_total_changes64(h);
            QSqlQuery q(db);
            if (!q.exec(begin))
                fail(QStringLiteral("cannot begin transaction"), q.lastError());
            return true;
        });
    } catch (...) {
        m_done = true;
        throw;
    }
    ++c.depth;
    c.aborted = false;
    m_outer = true;
}

Transaction::~Transaction()
{
    if (m_done)
        return;
    if (m_savepoint > 0) {
        rollBackSavepoint();
        return;
    }
    ThreadConnection &c = threadConnection();
    --c.depth;
    if (m_outer) {
        c.clearAfterCommit();
        c.aborted = false;
        if (!c.name.isEmpty() && !c.lost) {
            QSqlQuery q(QSqlDatabase::database(c.name, false));
            q.exec(QStringLiteral("ROLLBACK"));
        }
    }
}

void Transaction::rollBackSavepoint()
{
    ThreadConnection &c = threadConnection();
    --c.depth;
    c.dropAfterCommitFrom(m_afterCommitMark);
    if (c.name.isEmpty() || c.lost)
        return; // nothing more can run in the transaction; its outermost commits nothing
    // ROLLBACK TO keeps the savepoint open: it is released too, so that the name is free again.
    const QString name = savepointName(m_savepoint);
    try {
        steer(QStringLiteral("ROLLBACK TO SAVEPOINT ") + name);
        c.aborted = false;
        steer(QStringLiteral("RELEASE SAVEPOINT ") + name);
    } catch (const std::exception &e) {
        // The transaction itself is gone (lost, or ended by the database): its outermost commit says so.
        qCWarning(lcDb) << "rolling back savepoint" << name << "failed:" << e.what();
    }
}

void Transaction::commit()
{
    if (m_done)
        return;
    m_done = true;
    ThreadConnection &c = threadConnection();
    if (m_savepoint > 0) {
        // Released into the transaction around it: its rows and its after-commit work now stand or
        // fall with that one.
        try {
            if (c.lost)
                throwUnavailable(kLostDuringTransaction);
            if (c.aborted)
                throw DatabaseError("a statement of the transaction failed: its savepoint was rolled back");
            steer(QStringLiteral("RELEASE SAVEPOINT ") + savepointName(m_savepoint));
        } catch (...) {
            rollBackSavepoint();
            throw;
        }
        --c.depth;
        return;
    }
    --c.depth;
    if (!m_outer)
        return;
    // The connection was lost during the transaction: nothing of it was committed, and a COMMIT
    // on a new connection would answer "done" for nothing.
    if (c.lost) {
        c.clearAfterCommit();
        throwUnavailable(kLostDuringTransaction);
    }
    QSqlDatabase db = Database::connection();
    // A statement failed and nothing rolled it back: PostgreSQL would answer this COMMIT as done
    // and roll everything back.
    if (c.aborted) {
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        c.clearAfterCommit();
        c.aborted = false;
        qCWarning(lcDb) << "a transaction whose statement failed was rolled back, not committed";
        throw DatabaseError("a statement of the transaction failed: it was rolled back, not committed");
    }
    // A transaction that changed no row proves nothing about the disk (a full one commits it too).
    sqlite3 *h = sqliteHandle(c, db);
    const bool wrote = !h || sqlite3_total_changes64(h) != c.changesAtBegin;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("COMMIT"))) {
        const QSqlError error = q.lastError();
        q.exec(QStringLiteral("ROLLBACK"));
        c.clearAfterCommit();
        fail(QStringLiteral("commit failed"), error);
    }
    if (wrote)
        StorageHealth::noteCommitted();
    // Taken out first: what runs may open transactions of its own.
    const std::vector<ThreadConnection::AfterCommit> done = std::exchange(c.afterCommit, {});
    c.clearAfterCommit();
    for (const ThreadConnection::AfterCommit &entry : done)
        entry.run();
}

bool Database::inWriteTransaction()
{
    const ThreadConnection &c = threadConnection();
    return c.depth > 0 && !c.readOnly;
}

void Database::afterCommit(std::function<void()> done, const QString &key, const QString &group)
{
    ThreadConnection &c = threadConnection();
    if (c.depth == 0 || c.readOnly) {
        done();
        return;
    }
    if (!key.isEmpty()) {
        if (c.afterCommitKeys.contains(key))
            return;
        c.afterCommitKeys.insert(key);
    }
    if (!group.isEmpty())
        ++c.afterCommitGroups[group];
    c.afterCommit.push_back({std::move(done), key, group});
}

int Database::afterCommitCount(const QString &group)
{
    return threadConnection().afterCommitGroups.value(group);
}
