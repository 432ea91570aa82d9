#pragma once

#include <QString>

// The differences between the two databases Liaison runs on, in one place: the embedded SQLite file
// (the default) and a team's PostgreSQL server (database/url). SQL is written for SQLite; what
// PostgreSQL needs written otherwise is produced here.
namespace SqlDialect {
// A schema statement of the migrations, as PostgreSQL takes it: INTEGER PRIMARY KEY becomes an
// identity column, INTEGER BIGINT, REAL DOUBLE PRECISION, BLOB BYTEA; WITHOUT ROWID goes; a column
// compared without case in an index (x COLLATE NOCASE) becomes the expression (lower(x)).
QString postgresDdl(const QString &sqlite);
// The query listing the tables of a SQLite file in the order they were made (rows come after the
// rows they refer to), SQLite's own tables and the FTS5 search index aside.
QString sqliteTables();
} // namespace SqlDialect
