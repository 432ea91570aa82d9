#pragma once

#include <QString>
#include <QVariantList>

// The differences between the two databases Liaison runs on, in one place: the embedded SQLite file
// (the default) and a team's PostgreSQL server (database/url). SQL is written for SQLite; what
// PostgreSQL needs written otherwise is produced here.
namespace SqlDialect {
// A schema statement of the migrations, as PostgreSQL takes it: INTEGER PRIMARY KEY becomes an
// identity column, INTEGER BIGINT, REAL DOUBLE PRECISION, BLOB BYTEA; WITHOUT ROWID goes; a column
// compared without case in an index (x COLLATE NOCASE) becomes the expression (lower(x)). Every TEXT
// column is COLLATE "C": text sorts by code point as in SQLite (BINARY) whatever the server's locale
// ('~' after every ISO date, ids in order), and lower() folds the ASCII letters as SQLite's NOCASE.
QString postgresDdl(const QString &sqlite);
// The query listing the tables of a SQLite file in the order they were made (rows come after the
// rows they refer to), SQLite's own tables and the FTS5 search index aside.
QString sqliteTables();

// Fragments of queries that differ by the database of this process (Database::dialect()).
// expr compared with one bound value, both folded as search folds them (liaison_fold: without case,
// accents or the dot of the Turkish i; a function of each SQLite connection, and of the schema on
// PostgreSQL from migration 17). No index serves it: segment rules read every contact anyway.
QString equalsFolded(const QString &expr);
QString notEqualsFolded(const QString &expr); // coalesce(expr, '') differs
// expr matched with one bound LIKE pattern (escape character \), both folded as above.
QString likeFolded(const QString &expr, bool negate = false);
// "Every word of `search` begins a word of expr", folded as search folds text (TextFold): one
// condition a word (joined with AND), whose bound patterns are appended to values; a word begins
// expr or follows a space. Empty when search holds no word. No index serves it: for lists the
// window filters by a title or a name (tasks, deals, conversations' contacts).
QString wordsBeginFolded(const QString &expr, const QString &search, QVariantList *values);
// The text of the top-level key of a JSON object stored in a text column; key is a literal the
// caller owns (letters only).
QString jsonText(const QString &column, const QString &key);
// A boolean expression as its indexes read it: SQLite indexes (expr) as 1 or 0 and is asked
// "(expr) = 1"; PostgreSQL indexes a boolean and is asked "(expr)".
QString isTrue(const QString &expr);
// Appended to a SELECT inside a write transaction that takes rows as work: PostgreSQL locks them
// (FOR UPDATE OF table SKIP LOCKED) so that another copy's transaction passes over them; SQLite
// (one writer at a time) needs nothing.
QString skipLocked(const QString &table);
// Appended to a SELECT inside a write transaction that must hold its rows until the commit (a merge
// of contacts): PostgreSQL locks them (FOR UPDATE), and a row another transaction deleted meanwhile
// is not returned; SQLite (one writer at a time) needs nothing.
QString forUpdate();
} // namespace SqlDialect
