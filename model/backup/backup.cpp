#include "model/backup/backup.h"

#include "model/core/databasecheck.h"
#include "model/core/migrations.h"
#include "model/core/timeutil.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QMutex>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTemporaryFile>

#include <sqlite3.h>

#include <algorithm>

Q_LOGGING_CATEGORY(lcBackup, "liaison.backup")

namespace {
const QRegularExpression &backupNamePattern()
{
    static const QRegularExpression name(QStringLiteral("^liaison-(\\d{4}-\\d{2}-\\d{2})-\\d{6}\\.tar\\.gz$"));
    return name;
}

DomainError backupUnreadableDatabase(const QString &file, const QString &why)
{
    return DomainError(DomainError::Unavailable, QStringLiteral("BACKUP_NOT_WRITTEN"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "The database %1 could not be copied: %2"),
                                 {QDir::toNativeSeparators(file), why}));
}

// The snapshot: SQLite's online backup of databaseFile into copyFile, in one step (one read
// transaction on the source, so one consistent state; in WAL mode writers go on meanwhile).
// Returns the copy's schema version.
int backupCopyDatabase(const QString &databaseFile, const QString &copyFile, const QString &archive)
{
    sqlite3 *src = nullptr;
    sqlite3 *dst = nullptr;
    struct Close
    {
        sqlite3 *&src;
        sqlite3 *&dst;
        ~Close()
        {
            sqlite3_close_v2(dst);
            sqlite3_close_v2(src);
        }
    } close{src, dst};
    // Read-write without create: a WAL database's reader writes its shared-memory index. No
    // checkpoint at close: a copy never writes into the database it copies.
    int rc = sqlite3_open_v2(QFile::encodeName(databaseFile).constData(), &src,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK)
        throw backupUnreadableDatabase(databaseFile, QString::fromUtf8(src ? sqlite3_errmsg(src) : sqlite3_errstr(rc)));
    sqlite3_db_config(src, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    sqlite3_busy_timeout(src, 10000);
    rc = sqlite3_open_v2(QFile::encodeName(copyFile).constData(), &dst,
                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK)
        throw BackupArchive::writeFailed(archive, QString::fromUtf8(dst ? sqlite3_errmsg(dst) : sqlite3_errstr(rc)));
    // A scratch file: no journal, no waiting for the disk (the archive is synced when it is committed).
    sqlite3_exec(dst, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF", nullptr, nullptr, nullptr);
    sqlite3_backup *b = sqlite3_backup_init(dst, "main", src, "main");
    if (!b)
        throw BackupArchive::writeFailed(archive, QString::fromUtf8(sqlite3_errmsg(dst)));
    // -1: every page in one step, under one read lock of the source. (Copied a few pages a step,
    // a write by another connection between two steps would start the copy over, and under
    // steady writes it might never end.)
    for (int attempt = 0;; ++attempt) {
        rc = sqlite3_backup_step(b, -1);
        if ((rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && attempt < 100) {
            sqlite3_sleep(100);
            continue;
        }
        break;
    }
    sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE) {
        if ((rc & 0xff) == SQLITE_FULL || (rc & 0xff) == SQLITE_IOERR)
            throw BackupArchive::writeFailed(archive, QString::fromUtf8(sqlite3_errstr(rc)));
        throw backupUnreadableDatabase(databaseFile, QString::fromUtf8(sqlite3_errstr(rc)));
    }
    int version = 0;
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(dst, "PRAGMA user_version", -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
        version = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
    return version;
}

QMutex &backupDirMutex()
{
    static QMutex mutex;
    return mutex;
}

// One rename of a restore, undone in reverse order if a later one fails.
struct BackupMove
{
    QString from;
    QString to;
};

bool backupRename(const QString &from, const QString &to)
{
    return QFileInfo(from).isDir() ? QDir().rename(from, to) : QFile::rename(from, to);
}
} // namespace

QString Backup::Place::backupsDir() const
{
    return QDir(dataDir).filePath(QStringLiteral("backups"));
}

Backup::Made Backup::create(const Place &place, const QString &archive)
{
    QElapsedTimer timer;
    timer.start();
    if (!QFileInfo(place.databaseFile).isFile() || QFileInfo(place.databaseFile).size() == 0)
        throw DomainError(DomainError::NotFound, QStringLiteral("NO_DATABASE"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "There is no database to back up at %1"),
                                    {QDir::toNativeSeparators(place.databaseFile)}));
    const QString archiveDir = QFileInfo(archive).absolutePath();
    const bool newFolder = !QFileInfo::exists(archiveDir);
    if (!QDir().mkpath(archiveDir))
        throw BackupArchive::writeFailed(archive, BackupArchive::folderNotCreated());
    if (newFolder) // a backup holds everything: the folder that holds them is the owner's alone
        QFile::setPermissions(archiveDir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    // The snapshot is written beside the archive first (the archive needs its size before its bytes).
    QTemporaryFile copy(QDir(archiveDir).filePath(QStringLiteral(".liaison-backup-XXXXXX.db")));
    if (!copy.open())
        throw BackupArchive::writeFailed(archive, copy.errorString());
    copy.close();
    Made made;
    made.file = archive;
    made.schemaVersion = backupCopyDatabase(place.databaseFile, copy.fileName(), archive);
    made.snapshotMs = timer.elapsed();
    made.databaseBytes = QFileInfo(copy.fileName()).size();

    BackupArchive::Writer writer(archive);
    writer.addFile(QStringLiteral("liaison.db"), copy.fileName());
    copy.remove();
    // After the snapshot (see backup.h): each file a row of the copy names is still there.
    QStringList mediaFiles = QDir(place.mediaDir).entryList(QDir::Files | QDir::Hidden, QDir::Name);
    for (const QString &name : std::as_const(mediaFiles)) {
        if (!BackupArchive::isMediaFileName(name))
            continue; // a QSaveFile's temporary file, or something not ours
        const QString source = QDir(place.mediaDir).filePath(name);
        if (!QFileInfo::exists(source))
            continue; // expired and deleted since the listing
        try {
            writer.addFile(QStringLiteral("media/") + name, source);
        } catch (const DomainError &e) {
            if (QFileInfo::exists(source) || e.kind() == DomainError::StorageFull)
                throw;
            continue; // deleted while it was read
        }
        ++made.mediaFiles;
        made.mediaBytes += QFileInfo(source).size();
    }
    made.bytes = writer.commit(QJsonObject{
        {QStringLiteral("createdAt"), TimeUtil::iso(QDateTime::currentDateTimeUtc())},
        {QStringLiteral("schemaVersion"), made.schemaVersion},
        {QStringLiteral("program"), QStringLiteral("liaison %1").arg(QCoreApplication::applicationVersion())},
        {QStringLiteral("databaseBytes"), double(made.databaseBytes)},
        {QStringLiteral("mediaFiles"), made.mediaFiles}});
    made.elapsedMs = timer.elapsed();
    qCInfo(lcBackup).noquote() << QStringLiteral("backup %1: database %2 bytes (schema %3, copied in %7 ms), %4 media "
                                                 "files, %5 bytes written in %6 ms")
                                      .arg(archive)
                                      .arg(made.databaseBytes)
                                      .arg(made.schemaVersion)
                                      .arg(made.mediaFiles)
                                      .arg(made.bytes)
                                      .arg(made.elapsedMs)
                                      .arg(made.snapshotMs);
    return made;
}

Backup::Made Backup::createInBackupsDir(const Place &place, const QDateTime &now, int keep)
{
    QMutexLocker lock(&backupDirMutex());
    const QDir dir(place.backupsDir());
    QString name =
        QStringLiteral("liaison-%1.tar.gz").arg(now.toLocalTime().toString(QStringLiteral("yyyy-MM-dd-HHmmss")));
    const Made made = create(place, dir.filePath(name));
    QStringList names;
    for (const QFileInfo &f : list(dir.path()))
        names << f.fileName();
    // What a backup stopped half-way (a killed process, a power cut) left: its scratch copy of the
    // database and the archive's temporary file, an hour old or more (a backup of another process
    // may be writing the newer ones).
    const QDateTime cutoff = QDateTime::currentDateTimeUtc().addSecs(-3600);
    for (const QFileInfo &f :
         dir.entryInfoList({QStringLiteral(".liaison-backup-*.db*"), QStringLiteral("liaison-*.tar.gz.*")},
                           QDir::Files | QDir::Hidden)) {
        if (f.lastModified().toUTC() < cutoff && QFile::remove(f.filePath()))
            qCInfo(lcBackup).noquote()
                << QStringLiteral("removed %1, left by a backup that did not finish").arg(f.fileName());
    }
    for (const QString &old : beyondKeep(names, keep)) {
        if (QFile::remove(dir.filePath(old)))
            qCInfo(lcBackup).noquote()
                << QStringLiteral("removed the old backup %1 (backup/keep %2)").arg(old).arg(keep);
    }
    return made;
}

QList<QFileInfo> Backup::list(const QString &backupsDir)
{
    QList<QFileInfo> found;
    const QFileInfoList all = QDir(backupsDir).entryInfoList({QStringLiteral("liaison-*.tar.gz")}, QDir::Files);
    for (const QFileInfo &f : all) {
        if (backupNamePattern().match(f.fileName()).hasMatch())
            found << f;
    }
    // The names sort as their times do.
    std::sort(found.begin(), found.end(),
              [](const QFileInfo &a, const QFileInfo &b) { return a.fileName() > b.fileName(); });
    return found;
}

QStringList Backup::beyondKeep(QStringList names, int keep)
{
    if (keep < 1)
        return {};
    names.removeIf([](const QString &n) { return !backupNamePattern().match(n).hasMatch(); });
    std::sort(names.begin(), names.end(), std::greater<QString>());
    return names.mid(keep);
}

bool Backup::hasBackupOf(const QString &backupsDir, const QDate &day)
{
    const QString date = day.toString(Qt::ISODate);
    for (const QFileInfo &f : list(backupsDir)) {
        if (backupNamePattern().match(f.fileName()).captured(1) == date)
            return true;
    }
    return false;
}

bool Backup::holdsData(const Place &place)
{
    const QFileInfo db(place.databaseFile);
    if (db.exists() && db.size() > 0)
        return true;
    return !QDir(place.mediaDir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty();
}

Backup::Restored Backup::restore(const QString &archive, const Place &place, bool force)
{
    if (!force && holdsData(place))
        throw DomainError(
            DomainError::Conflict, QStringLiteral("DATA_DIR_NOT_EMPTY"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "The data directory %1 already holds a database or uploads: "
                                                      "restore into an empty data directory, or replace them with "
                                                      "--force (they are kept aside)"),
                      {QDir::toNativeSeparators(place.dataDir)}));
    if (!QDir().mkpath(place.dataDir))
        throw BackupArchive::writeFailed(place.dataDir, BackupArchive::folderNotCreated());
    // Read and checked in a folder of the data directory (the same disk: the swap is renames).
    QTemporaryDir staging(QDir(place.dataDir).filePath(QStringLiteral(".restore-XXXXXX")));
    if (!staging.isValid())
        throw BackupArchive::writeFailed(place.dataDir, staging.errorString());
    Restored restored;
    restored.manifest = BackupArchive::extract(archive, staging.path());
    const QString stagedDb = staging.filePath(QStringLiteral("liaison.db"));
    const QString stagedMedia = staging.filePath(QStringLiteral("media"));
    restored.databaseBytes = QFileInfo(stagedDb).size();
    for (const BackupArchive::Entry &e : std::as_const(restored.manifest.entries))
        restored.mediaFiles += e.name.startsWith(QLatin1String("media/")) ? 1 : 0;

    const DatabaseCheck::Report check = DatabaseCheck::run(stagedDb, DatabaseCheck::Depth::Integrity, 5);
    restored.checkMs = check.elapsedMs;
    if (!check.ok())
        throw BackupArchive::damaged(
            archive, ModelText(QT_TRANSLATE_NOOP("ModelError", "the database in it fails SQLite's check (%1)"),
                               {check.problems.join(QLatin1String("; ")).left(300)}));
    const int latest = migrations().constLast().version;
    if (restored.manifest.schemaVersion > latest)
        throw DomainError(DomainError::Unprocessable, QStringLiteral("BACKUP_TOO_NEW"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "%1 holds a database of a newer Liaison (schema "
                                                                    "%2, this program knows %3): update Liaison to "
                                                                    "restore it"),
                                    {QDir::toNativeSeparators(archive), restored.manifest.schemaVersion, latest}));

    // The swap: what is there moves aside, the restored files move in; renames only.
    QList<BackupMove> done;
    auto undo = [&done] {
        for (auto it = done.crbegin(); it != done.crend(); ++it) {
            if (!backupRename(it->to, it->from))
                qCCritical(lcBackup).noquote()
                    << QStringLiteral("restore: %1 could not be moved back to %2").arg(it->to, it->from);
        }
    };
    auto move = [&](const QString &from, const QString &to) {
        if (!backupRename(from, to)) {
            undo();
            throw BackupArchive::writeFailed(to, BackupArchive::notMovedThere(from));
        }
        done.append({from, to});
    };
    QStringList current;
    for (const char *suffix : {"", "-wal", "-shm", "-journal"}) {
        if (QFileInfo::exists(place.databaseFile + QLatin1String(suffix)))
            current << place.databaseFile + QLatin1String(suffix);
    }
    const bool hasMedia = QFileInfo(place.mediaDir).isDir();
    if (!current.isEmpty() || (hasMedia && !QDir(place.mediaDir).isEmpty())) {
        const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
        QString aside = QDir(place.dataDir).filePath(QStringLiteral("replaced-") + stamp);
        for (int n = 2; QFileInfo::exists(aside); ++n)
            aside = QDir(place.dataDir).filePath(QStringLiteral("replaced-%1-%2").arg(stamp).arg(n));
        if (!QDir().mkpath(aside))
            throw BackupArchive::writeFailed(aside, BackupArchive::folderNotCreated());
        restored.replacedDir = aside;
        for (const QString &f : std::as_const(current))
            move(f, QDir(aside).filePath(QFileInfo(f).fileName()));
        if (hasMedia)
            move(place.mediaDir, QDir(aside).filePath(QStringLiteral("media")));
    } else if (hasMedia) {
        QDir(place.mediaDir).removeRecursively(); // an empty folder
    }
    if (!QDir().mkpath(QFileInfo(place.databaseFile).absolutePath())) {
        undo();
        throw BackupArchive::writeFailed(place.databaseFile, BackupArchive::folderNotCreated());
    }
    move(stagedDb, place.databaseFile);
    if (QFileInfo(stagedMedia).isDir())
        move(stagedMedia, place.mediaDir);
    else
        QDir().mkpath(place.mediaDir);
    QFile::setPermissions(place.databaseFile, QFile::ReadOwner | QFile::WriteOwner);
    qCInfo(lcBackup).noquote()
        << QStringLiteral("restored %1 into %2 (database %3 bytes, schema %4, integrity_check %7 ms, %5 media files)%6")
               .arg(archive, place.dataDir)
               .arg(restored.databaseBytes)
               .arg(restored.manifest.schemaVersion)
               .arg(restored.mediaFiles)
               .arg(restored.replacedDir.isEmpty()
                        ? QString()
                        : QStringLiteral("; the replaced files are in %1").arg(restored.replacedDir))
               .arg(restored.checkMs);
    return restored;
}
