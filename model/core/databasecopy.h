#pragma once

#include "model/core/databaseurl.h"

#include <QString>
#include <QVector>

#include <functional>

// liaison db migrate-to: a data directory's SQLite database copied into an empty PostgreSQL
// database, so that a team can move the records one machine holds to a shared server.
namespace DatabaseCopy {
struct TableRows
{
    QString table;
    qint64 rows = 0;
};

// Migrates the PostgreSQL database to the schema, copies every table of the SQLite file into it in
// one transaction (in the order the tables were made, so that rows come after the rows they refer
// to), sets each table's next seq after the copied ones, and compares the rows of every table before
// it commits. Refuses a database that already holds a row. Throws DatabaseError with one sentence;
// then nothing is kept. Uses this thread's Database connection for PostgreSQL (the thread is left
// pointed at it) and a read-only connection of its own for the file. derive, when given, runs inside
// the transaction after the copy: it builds what PostgreSQL holds and the file does not (the search
// words).
QVector<TableRows> sqliteToPostgres(const QString &sqliteFile, const DatabaseUrl &url, const QString &password,
                                    const std::function<void()> &derive = {});
} // namespace DatabaseCopy
