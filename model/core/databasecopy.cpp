#include "model/core/databasecopy.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/sqldialect.h"

#include <QHash>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

#include <functional>

namespace {
const QString kSource = QStringLiteral("liaison-copy-source");
constexpr int kRowsPerInsert = 200;

[[noreturn]] void refuse(const QString &why)
{
    throw DatabaseError(why.toStdString());
}

QSqlQuery sourceQuery(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(sql))
        refuse(QStringLiteral("cannot read the SQLite file: %1").arg(q.lastError().text()));
    return q;
}

// The tables of the file in the order they were made (search index aside), each moved after the
// tables it refers to (a table rebuilt by a migration was made again after those referring to it).
QStringList sourceTables(const QSqlDatabase &db)
{
    QSqlQuery q = sourceQuery(db, SqlDialect::sqliteTables());
    QStringList made;
    while (q.next())
        made << q.value(0).toString();
    QHash<QString, QStringList> refersTo;
    for (const QString &table : std::as_const(made)) {
        QSqlQuery fk(db);
        fk.setForwardOnly(true);
        fk.prepare(QStringLiteral("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(?)"));
        fk.addBindValue(table);
        if (!fk.exec())
            refuse(QStringLiteral("cannot read the SQLite file: %1").arg(fk.lastError().text()));
        while (fk.next()) {
            if (fk.value(0).toString() != table)
                refersTo[table] << fk.value(0).toString();
        }
    }
    QStringList out;
    QSet<QString> visiting;
    std::function<void(const QString &)> place = [&](const QString &table) {
        if (out.contains(table) || visiting.contains(table) || !made.contains(table))
            return;
        visiting.insert(table);
        for (const QString &parent : refersTo.value(table))
            place(parent);
        out << table;
    };
    for (const QString &table : std::as_const(made))
        place(table);
    return out;
}

// Refuses a database holding more than what the migrations put in (the default pipeline).
void refuseData(const DatabaseUrl &url)
{
    for (const QString &table : Database::tables()) {
        const bool pipelines = table == QLatin1String("pipelines");
        qint64 n = 0;
        if (pipelines || table == QLatin1String("pipeline_stages")) {
            QSqlQuery q =
                Database::exec(QStringLiteral("SELECT count(*) FROM %1 WHERE %2 != 'pipeline_default'")
                                   .arg(table, pipelines ? QStringLiteral("id") : QStringLiteral("pipeline_id")));
            n = q.next() ? q.value(0).toLongLong() : 0;
        } else {
            n = Database::rowCount(table);
        }
        if (n > 0)
            refuse(QStringLiteral("the PostgreSQL database at %1 already holds data (%2 rows in %3): migrate-to "
                                  "copies into an empty database only")
                       .arg(url.toString())
                       .arg(n)
                       .arg(table));
    }
}

// Copies one table in statements of kRowsPerInsert rows.
qint64 copyTable(const QSqlDatabase &source, const QString &table)
{
    QSqlQuery rows = sourceQuery(source, QStringLiteral("SELECT * FROM %1").arg(table));
    const QSqlRecord record = rows.record();
    QStringList columns;
    for (int i = 0; i < record.count(); ++i)
        columns << record.fieldName(i);
    const QString head = QStringLiteral("INSERT INTO %1 (%2) VALUES ").arg(table, columns.join(QStringLiteral(", ")));
    const QString tuple =
        QLatin1Char('(') + QStringList(columns.size(), QStringLiteral("?")).join(QLatin1Char(',')) + QLatin1Char(')');
    qint64 copied = 0;
    QVariantList values;
    int pending = 0;
    auto flush = [&] {
        if (pending == 0)
            return;
        Database::exec(head + QStringList(pending, tuple).join(QLatin1Char(',')), values);
        copied += pending;
        values.clear();
        pending = 0;
    };
    while (rows.next()) {
        for (int i = 0; i < columns.size(); ++i)
            values << rows.value(i);
        if (++pending == kRowsPerInsert)
            flush();
    }
    flush();
    return copied;
}

QVector<DatabaseCopy::TableRows> copyAll(const QString &sqliteFile, const DatabaseUrl &url, const QString &password,
                                         const std::function<void()> &derive)
{
    QVector<DatabaseCopy::TableRows> out;
    {
        QSqlDatabase source = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), kSource);
        source.setDatabaseName(sqliteFile);
        source.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        struct Close
        {
            QSqlDatabase &db;
            ~Close() { db.close(); }
        } close{source};
        if (!source.open())
            refuse(QStringLiteral("cannot open %1: %2").arg(sqliteFile, source.lastError().text()));
        QSqlQuery version = sourceQuery(source, QStringLiteral("PRAGMA user_version"));
        const int sourceVersion = version.next() ? version.value(0).toInt() : 0;
        version.finish();
        const QStringList tables = sourceTables(source);

        Database::setPostgres(url, password);
        if (Database::schemaVersion() > 0)
            refuseData(url);
        const int targetVersion = Database::migrate();
        if (targetVersion != sourceVersion)
            refuse(QStringLiteral("the SQLite file has schema version %1, this program writes %2: open the data "
                                  "directory with this version of Liaison first")
                       .arg(sourceVersion)
                       .arg(targetVersion));
        const QStringList targetTables = Database::tables();
        for (const QString &table : tables) {
            if (!targetTables.contains(table))
                refuse(QStringLiteral("the SQLite file has a table %1 that the PostgreSQL schema lacks").arg(table));
        }

        Transaction tx;
        // What the migrations put in (the default pipeline) comes from the file like the rest.
        for (auto it = targetTables.crbegin(); it != targetTables.crend(); ++it)
            Database::exec(QStringLiteral("DELETE FROM %1").arg(*it));
        // The derived rows (custom fields) are copied as they are, not made again by the trigger.
        Database::exec(QStringLiteral("ALTER TABLE contacts DISABLE TRIGGER USER"));
        for (const QString &table : tables) {
            const qint64 copied = copyTable(source, table);
            QSqlQuery n = sourceQuery(source, QStringLiteral("SELECT count(*) FROM %1").arg(table));
            const qint64 expected = n.next() ? n.value(0).toLongLong() : -1;
            const qint64 stored = Database::rowCount(table);
            if (copied != expected || stored != expected)
                refuse(QStringLiteral("%1: %2 rows in the SQLite file, %3 stored in PostgreSQL; nothing was kept")
                           .arg(table)
                           .arg(expected)
                           .arg(stored));
            // The next seq comes after the copied ones.
            QSqlQuery identity = Database::exec(
                QStringLiteral("SELECT pg_get_serial_sequence(?, 'seq') FROM information_schema.columns WHERE "
                               "table_schema = current_schema() AND table_name = ? AND column_name = 'seq' AND "
                               "is_identity = 'YES'"),
                {table, table});
            if (identity.next() && stored > 0)
                Database::exec(QStringLiteral("SELECT setval(?, (SELECT max(seq) FROM %1))").arg(table),
                               {identity.value(0).toString()});
            out.append({table, stored});
        }
        Database::exec(QStringLiteral("ALTER TABLE contacts ENABLE TRIGGER USER"));
        if (derive)
            derive();
        tx.commit();
        // The planner's statistics and the visibility map (index-only scans) for the copied rows
        // now, not whenever autovacuum comes by: the first searches after a copy would plan blind.
        Database::exec(QStringLiteral("VACUUM (ANALYZE)"));
    }
    return out;
}
} // namespace

QVector<DatabaseCopy::TableRows> DatabaseCopy::sqliteToPostgres(const QString &sqliteFile, const DatabaseUrl &url,
                                                                const QString &password,
                                                                const std::function<void()> &derive)
{
    QVector<TableRows> out;
    try {
        out = copyAll(sqliteFile, url, password, derive); // every handle of the source is gone when it returns
    } catch (...) {
        QSqlDatabase::removeDatabase(kSource);
        throw;
    }
    QSqlDatabase::removeDatabase(kSource);
    return out;
}
