#pragma once

#include <QString>
#include <QStringList>

// Whether an SQLite database file is fit to be served, checked before Liaison opens it for work
// (`liaison serve`, the window, `liaison db check`). Liaison never serves, migrates or writes to a
// file that fails: SQLite would serve a damaged file until a read reaches the damage (and then
// answer errors), and would take an existing empty file for a new database (every user and key
// gone). These checks use a connection of their own, not Database's.
struct DatabaseFault
{
    enum Kind
    {
        None,
        EmptyFile, // liaison.db exists and holds 0 bytes: not a new database
        ReadOnly,  // the data directory or the file cannot be written
        Damaged,   // SQLite's check found damage, or SQLite calls it not a database
        Unusable   // SQLite cannot open or read it for another reason (detail says which)
    };
    Kind kind = None;
    QString path;   // the file, or the directory, that the fault is about
    QString detail; // SQLite's words, the check's first findings, the system's reason
    explicit operator bool() const { return kind != None; }
    // The line for the command line and the log: what is wrong, with which file, and what to do.
    QString sentence() const;
};

namespace DatabaseCheck {
enum class Depth
{
    Quick,     // PRAGMA quick_check: every page's structure, not that each index matches its table
    Integrity, // PRAGMA integrity_check: everything quick_check does, and the indexes against their tables
    AtStart    // integrity_check on a file of at most kIntegrityAtStartBytes, quick_check on a larger one
};
// Up to this size a start runs the whole integrity_check (about 1.3 s warm, 2.3 s from disk on 64 MiB,
// docs/performance.md): on a real Liaison file it finds more than twice the random damage
// quick_check finds. Larger files get quick_check (about 3 s a GB warm, 17 s from disk).
constexpr qint64 kIntegrityAtStartBytes = 64 * 1024 * 1024;

struct Report
{
    QStringList problems; // the check's findings, at most maxProblems; empty: ok
    DatabaseFault::Kind kind = DatabaseFault::None;
    qint64 elapsedMs = 0;
    bool ran = false;     // the check ran (atStart: the file existed and could be written)
    QString check;        // which: "quick_check" or "integrity_check"
    bool complete = true; // false: the time budget ran out before the check ended (then problems is empty)
    bool ok() const { return kind == DatabaseFault::None; }
};

// A directory Liaison must write in (the data directory): ReadOnly when it cannot.
DatabaseFault writableDirectory(const QString &dir);
// Before SQLite sees the file: an existing empty file, a data directory or file that cannot be
// written. A file that does not exist is fine (a new database).
DatabaseFault beforeOpen(const QString &file);
// Runs the check on file (which must exist). budgetMs > 0 stops it after that long (complete =
// false, taken as ok); 0 lets it run to the end.
Report run(const QString &file, Depth depth, int maxProblems = 20, qint64 budgetMs = 0);
// beforeOpen(), then run() when the file exists: the first fault found, None when fit.
DatabaseFault atStart(const QString &file, Depth depth, qint64 budgetMs, Report *report = nullptr);
} // namespace DatabaseCheck
