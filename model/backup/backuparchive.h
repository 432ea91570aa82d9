#pragma once

#include "model/core/errors.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>

// The file a backup is: a gzip-compressed POSIX tar (ustar), readable by `tar -xzf`, holding
// liaison.db, the uploads as media/<id>, and last manifest.json: the format's name and version,
// what made it and when, the database's schema version, and every other entry's name, size and
// SHA-256. gzip's CRC-32 catches damage anywhere in the stream and a cut file ends before the
// manifest; the manifest's checksums catch an archive put together by hand. Written with zlib (a
// library Qt itself is built on), so no other dependency.
namespace BackupArchive {
constexpr int kFormatVersion = 1;
inline constexpr char kManifestName[] = "manifest.json";

struct Entry
{
    QString name; // "liaison.db", "media/media_…"
    qint64 size = 0;
    QByteArray sha256; // hex
};

struct Manifest
{
    QJsonObject json; // as stored
    QList<Entry> entries;
    int schemaVersion = 0;
    QString createdAt;
};

// Writes an archive through a QSaveFile: nothing exists at path until commit() succeeds (a full
// disk or a stopped program leaves no half file under the name). Throws DomainError (StorageFull
// when the disk is full) naming path.
class Writer
{
public:
    // level: zlib's compression level (1 fastest … 9 smallest).
    explicit Writer(const QString &path, int level = 1);
    ~Writer();
    Writer(const Writer &) = delete;
    Writer &operator=(const Writer &) = delete;

    // Adds the file at source as name (mode 0600, its modification time).
    void addFile(const QString &name, const QString &source);
    // The manifest (extra's keys plus format, version and files), the tar's end, gzip's trailer;
    // then the rename into place. Returns the archive's size.
    qint64 commit(QJsonObject extra);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

// Reads the archive at path into targetDir (which must exist and be empty), checking as it goes:
// only the names a backup holds, each tar header's checksum, gzip's CRC, the whole stream, and
// then every file against the manifest. Throws DomainError (Unprocessable, code BACKUP_DAMAGED or
// NOT_A_BACKUP) on the first fault; what it wrote into targetDir is then the caller's to remove.
Manifest extract(const QString &path, const QString &targetDir);

// The refusals of backups and restores, each a translatable template (ModelError) naming the file.
// Written where the disk is full: StorageFull; other write failures Unavailable with the system's
// reason; a file that is not a backup or is damaged: Unprocessable.
DomainError writeFailed(const QString &path, const ModelTextArg &reason);
// The reasons of writeFailed that are ours (not the system's words).
ModelText folderNotCreated();
ModelText notMovedThere(const QString &from);
DomainError readFailed(const QString &path, const QString &reason);
DomainError notABackup(const QString &path);
// what: why, one of the texts of BackupArchive::Damage.
DomainError damaged(const QString &path, const ModelText &what);

// True when name is one a backup may hold (liaison.db, media/<a media id>, manifest.json).
bool isAllowedName(const QString &name);
// A file of DATA/media that belongs in a backup (what MediaRepository stores: media_…, no dot).
bool isMediaFileName(const QString &fileName);
} // namespace BackupArchive
