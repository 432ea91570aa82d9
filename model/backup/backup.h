#pragma once

#include "model/backup/backuparchive.h"

#include <QDate>
#include <QDateTime>
#include <QFileInfo>
#include <QList>
#include <QString>
#include <QStringList>

// Backups of a data directory on SQLite: the database and the uploads (DATA/media) in one file
// (BackupArchive: a tar.gz with a manifest of checksums), and putting one back. The database is
// copied with SQLite's online backup API on a connection of its own, in one step and so in one
// read transaction: a consistent snapshot while the server and the window go on writing (WAL lets
// them; nothing waits for the copy). The media files are copied after the snapshot: a file is
// written before its row and its row deleted before the file (MediaRepository), so every file a
// row of the snapshot names is still there, unless it expired meanwhile (expired media is never
// served); a file uploaded after the snapshot comes along without a row and the media cleaner
// sweeps it an hour after a restore. PostgreSQL (team mode) is backed up with pg_dump.
namespace Backup {
// Where a data directory keeps its database and uploads.
struct Place
{
    QString dataDir;
    QString databaseFile; // database/path, DATA/liaison.db by default
    QString mediaDir;     // DATA/media
    // DATA/backups: the automatic backups and those of Settings → Backups.
    QString backupsDir() const;
};

struct Made
{
    QString file;
    qint64 bytes = 0;         // the archive's size
    qint64 databaseBytes = 0; // the database's size in it
    int mediaFiles = 0;
    qint64 mediaBytes = 0;
    int schemaVersion = 0;
    qint64 snapshotMs = 0; // SQLite's copy: how long its read transaction lasted
    qint64 elapsedMs = 0;
};

// Writes a backup of place into archive (replaced only once complete). Throws DomainError: no
// database at place (NotFound), the database cannot be read, the archive cannot be written
// (StorageFull on a full disk).
Made create(const Place &place, const QString &archive);

// The automatic and the window's backups: DATA/backups/liaison-YYYY-MM-DD-HHMMSS.tar.gz (local
// time), then the oldest beyond keep removed (keep < 1: none). One at a time in a process.
Made createInBackupsDir(const Place &place, const QDateTime &now, int keep);

// The backups of DATA/backups (names as createInBackupsDir writes them), newest first.
QList<QFileInfo> list(const QString &backupsDir);
// Of those names, the ones to delete so that the newest keep stay (keep < 1: none).
QStringList beyondKeep(QStringList names, int keep);
// Whether a backup of day (local date, by its name) is in backupsDir.
bool hasBackupOf(const QString &backupsDir, const QDate &day);

struct Restored
{
    BackupArchive::Manifest manifest;
    int mediaFiles = 0;
    qint64 databaseBytes = 0;
    // Where the database and media that were replaced went (DATA/replaced-YYYYMMDD-HHMMSS); empty
    // when there were none.
    QString replacedDir;
    qint64 checkMs = 0; // SQLite's integrity_check of the restored database
};

// True when place already holds a database or uploads (a restore then needs force).
bool holdsData(const Place &place);

// Puts the backup archive back into place. Refuses (Conflict, DATA_DIR_NOT_EMPTY) a place that
// holds data unless force. Reads and checks the whole archive into a folder of the data directory
// first (checksums, then SQLite's integrity_check and the schema version), and only then swaps:
// the current database (with its -wal and -shm) and media folder are moved aside into
// Restored::replacedDir, the restored ones moved in; a failed move puts back what had moved. The
// caller makes sure no Liaison process uses the data directory.
Restored restore(const QString &archive, const Place &place, bool force);
} // namespace Backup
