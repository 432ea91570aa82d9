#include "model/core/databasecheck.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>

#include <sqlite3.h>

#include <cerrno>
#include <cstring>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcCheck, "liaison.db.check")

QString DatabaseFault::sentence() const
{
    switch (kind) {
    case None:
        return {};
    case EmptyFile:
        return QStringLiteral(
                   "the database file %1 is empty (0 bytes): Liaison does not take an existing empty file for a new "
                   "database, since its data would be lost without a word. Restore it from a backup copy; if this "
                   "data directory is new and its first start failed, delete the empty file and start again")
            .arg(path);
    case ReadOnly:
        return QStringLiteral("%1 is read-only (%2): Liaison writes its database there (and the -wal and -shm files "
                              "beside it). Make it writable by the user running Liaison, or give --data-dir a "
                              "writable folder")
            .arg(path, detail);
    case Damaged:
        return QStringLiteral(
                   "the database file %1 is damaged (%2); Liaison does not serve a damaged file. Stop Liaison and "
                   "restore it: liaison restore --force BACKUP (daily backups are in the data directory's backups "
                   "folder), or put a backup copy in its place (and remove %1-wal and %1-shm), or save what can "
                   "still be read with the sqlite3 shell: sqlite3 %1 .recover | sqlite3 recovered.db, check it "
                   "with sqlite3 recovered.db 'PRAGMA integrity_check', then move recovered.db to %1. Keep the "
                   "damaged file until the restored data is checked; liaison db check reports the full check")
            .arg(path, detail);
    case Unusable:
        return QStringLiteral("the database file %1 cannot be used: %2").arg(path, detail);
    }
    return {};
}

namespace {
// The reason access() gave, in words.
QString whyNotWritable(int error)
{
    return error == EROFS ? QStringLiteral("a read-only file system") : QString::fromLocal8Bit(std::strerror(error));
}
} // namespace

DatabaseFault DatabaseCheck::writableDirectory(const QString &dir)
{
    DatabaseFault fault;
    if (::access(QFile::encodeName(dir).constData(), W_OK) != 0) {
        fault.kind = DatabaseFault::ReadOnly;
        fault.path = QDir::toNativeSeparators(QDir(dir).absolutePath());
        fault.detail = whyNotWritable(errno);
    }
    return fault;
}

DatabaseFault DatabaseCheck::beforeOpen(const QString &file)
{
    DatabaseFault fault;
    if (file.isEmpty() || file == QLatin1String(":memory:") || file.startsWith(QLatin1String("file:")))
        return fault;
    const QFileInfo info(file);
    fault = writableDirectory(info.absolutePath());
    if (fault || !info.exists())
        return fault;
    if (::access(QFile::encodeName(file).constData(), W_OK) != 0) {
        fault.kind = DatabaseFault::ReadOnly;
        fault.path = QDir::toNativeSeparators(info.absoluteFilePath());
        fault.detail = whyNotWritable(errno);
        return fault;
    }
    if (info.isFile() && info.size() == 0) {
        fault.kind = DatabaseFault::EmptyFile;
        fault.path = QDir::toNativeSeparators(info.absoluteFilePath());
    }
    return fault;
}

DatabaseCheck::Report DatabaseCheck::run(const QString &file, Depth depth, int maxProblems, qint64 budgetMs)
{
    if (depth == Depth::AtStart)
        depth = QFileInfo(file).size() <= kIntegrityAtStartBytes ? Depth::Integrity : Depth::Quick;
    Report report;
    report.ran = true;
    report.check = depth == Depth::Quick ? QStringLiteral("quick_check") : QStringLiteral("integrity_check");
    QElapsedTimer timer;
    timer.start();
    sqlite3 *db = nullptr;
    struct Close
    {
        sqlite3 *&db;
        ~Close() { sqlite3_close_v2(db); }
    } close{db};
    // The check only reads. No checkpoint when it closes: nothing is written into a damaged file.
    int rc =
        sqlite3_open_v2(QFile::encodeName(file).constData(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    auto failed = [&](int code) {
        const int primary = code & 0xff;
        report.kind = primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB ? DatabaseFault::Damaged
                      : primary == SQLITE_READONLY                          ? DatabaseFault::ReadOnly
                                                                            : DatabaseFault::Unusable;
        report.problems << (db ? QString::fromUtf8(sqlite3_errmsg(db)) : QString::fromUtf8(sqlite3_errstr(code)));
        report.elapsedMs = timer.elapsed();
        return report;
    };
    if (rc != SQLITE_OK)
        return failed(rc);
    sqlite3_extended_result_codes(db, 1);
    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    sqlite3_busy_timeout(db, 10000);
    struct Budget
    {
        QElapsedTimer *timer;
        qint64 ms;
        bool ran_out = false;
    } budget{&timer, budgetMs};
    if (budgetMs > 0) {
        sqlite3_progress_handler(
            db, 1000,
            [](void *p) {
                auto *b = static_cast<Budget *>(p);
                b->ran_out = b->timer->elapsed() > b->ms;
                return b->ran_out ? 1 : 0;
            },
            &budget);
    }
    const QByteArray sql = "PRAGMA " + report.check.toLatin1() + '(' + QByteArray::number(qMax(1, maxProblems)) + ')';
    sqlite3_stmt *stmt = nullptr;
    rc = sqlite3_prepare_v2(db, sql.constData(), -1, &stmt, nullptr);
    if (rc != SQLITE_OK)
        return failed(rc);
    QStringList rows;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        rows << QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0)));
    sqlite3_finalize(stmt);
    if (rc == SQLITE_INTERRUPT && budget.ran_out) {
        report.complete = false;
        report.elapsedMs = timer.elapsed();
        return report;
    }
    if (rc != SQLITE_DONE)
        return failed(rc);
    report.elapsedMs = timer.elapsed();
    if (rows != QStringList{QStringLiteral("ok")}) {
        report.kind = DatabaseFault::Damaged;
        report.problems = rows;
    }
    return report;
}

DatabaseFault DatabaseCheck::atStart(const QString &file, Depth depth, qint64 budgetMs, Report *out)
{
    DatabaseFault fault = beforeOpen(file);
    if (fault || file.isEmpty() || !QFileInfo::exists(file))
        return fault;
    const bool quick = depth != Depth::Integrity; // a start's line stays short; db check lists up to 100
    const Report report = run(file, depth, quick ? 5 : 100, budgetMs);
    if (out)
        *out = report;
    const QString &name = report.check;
    if (!report.complete)
        qCWarning(lcCheck).noquote() << QStringLiteral("%1 of %2 stopped after %3 ms (its time budget) without "
                                                       "finding damage; liaison db check runs the whole check")
                                            .arg(name, file)
                                            .arg(report.elapsedMs);
    else
        qCInfo(lcCheck).noquote() << QStringLiteral("%1 of %2: %3 in %4 ms")
                                         .arg(name, file,
                                              report.ok() ? QStringLiteral("ok") : QStringLiteral("damaged"))
                                         .arg(report.elapsedMs);
    if (report.ok())
        return fault;
    fault.kind = report.kind;
    fault.path = QDir::toNativeSeparators(QFileInfo(file).absoluteFilePath());
    fault.detail = report.kind == DatabaseFault::Damaged
                       ? QStringLiteral("SQLite's %1: %2")
                             .arg(name, report.problems.join(QLatin1String("; ")).left(quick ? 400 : -1))
                       : report.problems.join(QLatin1String("; "));
    return fault;
}
