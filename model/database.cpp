#include "database.h"

#include "errors.h"
#include "migrations.h"

#include <QHash>
#include <QLoggingCategory>
#include <QMutex>
#include <QSqlError>
#include <QThread>

#include <atomic>
#include <memory>
#include <unordered_map>

Q_LOGGING_CATEGORY(lcDb, "liaison.db")

namespace {
QMutex g_pathMutex;
QString g_path;
std::atomic<int> g_generation{0};
std::atomic<int> g_connectionCounter{0};

// The connection of one thread. Its destructor runs when the thread ends and removes the connection.
struct ThreadConnection
{
    QString name;
    int generation = -1;
    int depth = 0; // nested Transaction objects
    // Node-based, so that a reference execCached() returned stays valid when other statements are added.
    std::unordered_map<QString, QSqlQuery> cache;

    void close()
    {
        if (name.isEmpty())
            return;
        cache.clear();
        {
            QSqlDatabase db = QSqlDatabase::database(name, false);
            if (db.isOpen()) {
                QSqlQuery(db).exec(QStringLiteral("PRAGMA optimize"));
                db.close();
            }
        }
        QSqlDatabase::removeDatabase(name);
        name.clear();
        depth = 0;
    }
    ~ThreadConnection() { close(); }
};

ThreadConnection &threadConnection()
{
    thread_local ThreadConnection c;
    return c;
}

[[noreturn]] void fail(const QString &what, const QSqlError &error)
{
    qCWarning(lcDb).noquote() << what << error.text();
    throw DatabaseError((what + QLatin1String(": ") + error.text()).toStdString());
}

void bindAll(QSqlQuery &q, const QVariantList &values)
{
    for (int i = 0; i < values.size(); ++i)
        q.bindValue(i, values.at(i));
}
} // namespace

void Database::setPath(const QString &sqlitePath)
{
    QMutexLocker lock(&g_pathMutex);
    g_path = sqlitePath;
    ++g_generation;
}

QString Database::path()
{
    QMutexLocker lock(&g_pathMutex);
    return g_path;
}

QSqlDatabase Database::connection()
{
    ThreadConnection &c = threadConnection();
    if (!c.name.isEmpty() && c.generation == g_generation.load())
        return QSqlDatabase::database(c.name, false);
    c.close();
    const QString file = path();
    c.name = QStringLiteral("liaison-%1").arg(++g_connectionCounter);
    c.generation = g_generation.load();
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), c.name);
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
    return db;
}

void Database::closeThreadConnection()
{
    threadConnection().close();
}

QSqlQuery Database::exec(const QString &sql, const QVariantList &values)
{
    QSqlQuery q(connection());
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        fail(QStringLiteral("prepare failed for [%1]").arg(sql), q.lastError());
    bindAll(q, values);
    if (!q.exec())
        fail(QStringLiteral("query failed [%1]").arg(sql), q.lastError());
    return q;
}

QSqlQuery &Database::execCached(const QString &sql, const QVariantList &values)
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
    if (!q.exec())
        fail(QStringLiteral("query failed [%1]").arg(sql), q.lastError());
    return q;
}

int Database::migrate()
{
    QSqlDatabase db = connection();
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
        fail(QStringLiteral("cannot read schema version"), q.lastError());
    int version = q.value(0).toInt();
    q.finish();
    for (const Migration &m : migrations()) {
        if (m.version <= version)
            continue;
        Transaction tx;
        for (const QString &statement : m.statements) {
            if (!q.exec(statement))
                fail(QStringLiteral("migration %1 (%2) failed").arg(m.version).arg(QLatin1String(m.name)),
                     q.lastError());
        }
        if (!q.exec(QStringLiteral("PRAGMA user_version = %1").arg(m.version)))
            fail(QStringLiteral("cannot record schema version"), q.lastError());
        tx.commit();
        qCInfo(lcDb) << "applied migration" << m.version << m.name;
        version = m.version;
    }
    return version;
}

Transaction::Transaction()
{
    ThreadConnection &c = threadConnection();
    QSqlDatabase db = Database::connection();
    if (c.depth++ > 0)
        return; // nested: the outermost transaction commits
    m_outer = true;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE"))) {
        --c.depth;
        m_done = true;
        fail(QStringLiteral("cannot begin transaction"), q.lastError());
    }
}

Transaction::~Transaction()
{
    if (m_done)
        return;
    ThreadConnection &c = threadConnection();
    --c.depth;
    if (m_outer && !c.name.isEmpty()) {
        QSqlQuery q(QSqlDatabase::database(c.name, false));
        q.exec(QStringLiteral("ROLLBACK"));
    }
}

void Transaction::commit()
{
    if (m_done)
        return;
    m_done = true;
    ThreadConnection &c = threadConnection();
    --c.depth;
    if (!m_outer)
        return;
    QSqlQuery q(Database::connection());
    if (!q.exec(QStringLiteral("COMMIT"))) {
        const QSqlError error = q.lastError();
        q.exec(QStringLiteral("ROLLBACK"));
        fail(QStringLiteral("commit failed"), error);
    }
}
