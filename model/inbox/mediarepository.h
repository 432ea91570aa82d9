#pragma once

#include "model/core/store.h"
#include "model/core/timeutil.h"

#include <QByteArrayView>
#include <QJsonObject>
#include <QString>

#include <optional>

// One stored upload. The file is DATA/media/<id>; the token is the credential of its public URL
// (only its SHA-256 is stored, so the URL is known to the uploader and to the messages that carry it).
struct Media
{
    QString id; // media_…
    QString filename;
    QString mimeType;
    QString kind; // image, video, audio, document
    qint64 size = 0;
    QString sha256; // hex
    QString uploadedBy;
    QString conversationId;
    QString messageId;
    QString createdAt;
    QString expiresAt;
    QString token; // only on the result of store(): the URL credential (base64url of 32 random bytes)

    // "/media/<id>/<token>" (needs token).
    QString path() const;
};

struct MediaUpload
{
    QByteArrayView bytes;
    QString filename;        // as sent; the path is stripped and the name made safe
    QByteArray declaredType; // the part's Content-Type media type (lower case); empty when absent
    QString uploadedBy;
    QString conversationId;
    int lifetimeDays = 30;
};

namespace MediaRules {
// image/*, video/*, audio/* by the MIME type; everything else (SVG included: no channel shows it
// as an image) is a document.
QString kindOf(const QString &mimeType);
// The MIME type the bytes' magic number shows, for the common types (PNG, JPEG, GIF, WebP, BMP,
// TIFF, HEIC, PDF, ZIP, MP4/MOV/3GP, WebM/MKV, AVI, Ogg, MP3, WAV, FLAC, AMR); empty when unknown.
QString sniff(QByteArrayView bytes);
// The type to store: declared when the bytes agree (or cannot be checked), the sniffed type when
// nothing or application/octet-stream was declared. Throws DomainError Unprocessable MEDIA_TYPE_MISMATCH when
// the declared type is one sniff() knows and the bytes are something else.
QString resolveType(const QByteArray &declared, QByteArrayView bytes);
// The last path component, without control characters, at most 255 UTF-8 bytes; "file" when empty.
QString safeFilename(const QString &filename);
// Types a browser would run (HTML, SVG, XML, JavaScript): served as an attachment in a sandbox.
bool isActiveContent(const QString &mimeType);
} // namespace MediaRules

// Stores uploads. On SQLite: writes the bytes to a temporary file, renames it to DATA/media/<id>
// (QSaveFile, flushed to disk), then commits the row; nothing is half-written (a failed insert
// removes the file). On PostgreSQL (team mode): the bytes go into media_contents in the row's own
// transaction, so that every copy on the database serves and sends every upload. Expired media is
// never found and is deleted by deleteExpired() (MediaCleaner). Usable from any thread.
class MediaRepository
{
public:
    // mediaDir: DATA/media (created when missing).
    MediaRepository(const Store &store, QString mediaDir);

    // Throws DomainError Unprocessable (empty file, type mismatch); std::runtime_error when the disk fails.
    Media store(const MediaUpload &upload);
    // The media when the token is right and it has not expired (compared in constant time).
    std::optional<Media> findServable(const QString &id, const QString &token) const;
    std::optional<Media> find(const QString &id) const;
    // The stored bytes of a media (from DATA/media or the database); nullopt when they are gone.
    std::optional<QByteArray> content(const QString &id) const;
    // Whether uploads are kept in the database (PostgreSQL) rather than in DATA/media.
    static bool inDatabase();
    // db migrate-to: the files of DATA/media into media_contents of the PostgreSQL database this
    // thread uses (inside the copying transaction); a row whose file is gone keeps none (it is then
    // not served, as on SQLite). Returns how many files were copied.
    static int copyFilesIntoDatabase(const QString &mediaDir);
    // Records the message that carries the media.
    void linkMessage(const QString &mediaId, const QString &messageId);
    // Deletes expired rows and their files, and files left without a row (a crash between the
    // rename and the commit) older than an hour. Returns the number of media deleted.
    int deleteExpired();
    struct Usage
    {
        qint64 files = 0;
        qint64 bytes = 0;
        QString nextExpiry; // the earliest expiresAt; empty when nothing is stored
    };
    // What is stored now (for Settings > Media).
    static Usage usage();
    const QString &mediaDir() const { return m_dir; }

private:
    QString filePath(const QString &id) const;

    Store m_store;
    QString m_dir;
};
