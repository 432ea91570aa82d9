#pragma once

#include <QString>
#include <QVector>

#include <utility>

// One statement of a migration. Written for SQLite; PostgreSQL runs it as SqlDialect::postgresDdl
// rewrites it, unless it is marked for one database only (sqliteOnly(), postgresOnly()), where the
// two need different SQL (search, triggers, JSON).
struct MigrationStatement
{
    enum Database
    {
        Both,
        SQLite,
        PostgreSQL
    };
    MigrationStatement(const char *sql)
        : sql(QString::fromUtf8(sql))
    {
    }
    MigrationStatement(QString sql, Database only)
        : sql(std::move(sql))
        , only(only)
    {
    }
    QString sql;
    Database only = Both;
};
inline MigrationStatement sqliteOnly(const char *sql)
{
    return {QString::fromUtf8(sql), MigrationStatement::SQLite};
}
inline MigrationStatement postgresOnly(const char *sql)
{
    return {QString::fromUtf8(sql), MigrationStatement::PostgreSQL};
}

// Numbered schema migrations: migration N is applied once, in order, in one transaction, and the
// schema version (SQLite: PRAGMA user_version; PostgreSQL: the schema_version table) records the
// highest applied. The same list builds both databases. Never edit a released migration: add one.
struct Migration
{
    int version;
    const char *name;
    QVector<MigrationStatement> statements;
    // SQLite: applied with foreign keys off (a table rebuilt: dropping the old one must cascade
    // nothing), then checked with PRAGMA foreign_key_check before its commit.
    bool foreignKeysOff = false;
};

const QVector<Migration> &migrations();
