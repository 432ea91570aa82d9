#include "model/inbox/mediarepository.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/ids.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMimeDatabase>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QSqlQuery>

#include <stdexcept>

namespace {
QString hashToken(const QString &token)
{
    return QString::fromLatin1(QCryptographicHash::hash(token.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QString newToken()
{
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(bytes.data()),
                                         reinterpret_cast<quint32 *>(bytes.data() + bytes.size()));
    return QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool constantTimeEqual(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    uchar diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= uchar(a[i]) ^ uchar(b[i]);
    return diff == 0;
}

bool startsWith(QByteArrayView bytes, qsizetype at, QByteArrayView magic)
{
    return bytes.size() >= at + magic.size() && bytes.sliced(at, magic.size()) == magic;
}

// The signature family of a type: types that share one magic number (aliases, containers).
QString family(const QString &mime)
{
    static const QHash<QString, QString> families{
        {QStringLiteral("image/png"), QStringLiteral("png")},
        {QStringLiteral("image/jpeg"), QStringLiteral("jpeg")},
        {QStringLiteral("image/jpg"), QStringLiteral("jpeg")},
        {QStringLiteral("image/pjpeg"), QStringLiteral("jpeg")},
        {QStringLiteral("image/gif"), QStringLiteral("gif")},
        {QStringLiteral("image/webp"), QStringLiteral("webp")},
        {QStringLiteral("image/tiff"), QStringLiteral("tiff")},
        {QStringLiteral("image/heic"), QStringLiteral("isobmff")},
        {QStringLiteral("image/heif"), QStringLiteral("isobmff")},
        {QStringLiteral("application/pdf"), QStringLiteral("pdf")},
        {QStringLiteral("application/zip"), QStringLiteral("zip")},
        {QStringLiteral("application/x-zip-compressed"), QStringLiteral("zip")},
        {QStringLiteral("application/epub+zip"), QStringLiteral("zip")},
        {QStringLiteral("video/mp4"), QStringLiteral("isobmff")},
        {QStringLiteral("video/quicktime"), QStringLiteral("isobmff")},
        {QStringLiteral("video/3gpp"), QStringLiteral("isobmff")},
        {QStringLiteral("audio/mp4"), QStringLiteral("isobmff")},
        {QStringLiteral("audio/x-m4a"), QStringLiteral("isobmff")},
        {QStringLiteral("video/webm"), QStringLiteral("matroska")},
        {QStringLiteral("audio/webm"), QStringLiteral("matroska")},
        {QStringLiteral("video/x-matroska"), QStringLiteral("matroska")},
        {QStringLiteral("video/x-msvideo"), QStringLiteral("avi")},
        {QStringLiteral("audio/ogg"), QStringLiteral("ogg")},
        {QStringLiteral("audio/opus"), QStringLiteral("ogg")},
        {QStringLiteral("video/ogg"), QStringLiteral("ogg")},
        {QStringLiteral("application/ogg"), QStringLiteral("ogg")},
        {QStringLiteral("audio/mpeg"), QStringLiteral("mpeg-audio")},
        {QStringLiteral("audio/mp3"), QStringLiteral("mpeg-audio")},
        {QStringLiteral("audio/aac"), QStringLiteral("aac")},
        {QStringLiteral("audio/wav"), QStringLiteral("wav")},
        {QStringLiteral("audio/x-wav"), QStringLiteral("wav")},
        {QStringLiteral("audio/wave"), QStringLiteral("wav")},
        {QStringLiteral("audio/flac"), QStringLiteral("flac")},
        {QStringLiteral("audio/amr"), QStringLiteral("amr")},
    };
    if (mime.startsWith(QLatin1String("application/vnd.openxmlformats-officedocument.")) ||
        mime.startsWith(QLatin1String("application/vnd.oasis.opendocument.")))
        return QStringLiteral("zip");
    return families.value(mime);
}
} // namespace

QString Media::path() const
{
    return QStringLiteral("/media/%1/%2").arg(id, token);
}

namespace MediaRules {
QString kindOf(const QString &mimeType)
{
    if (mimeType == QLatin1String("image/svg+xml"))
        return QStringLiteral("document");
    if (mimeType.startsWith(QLatin1String("image/")))
        return QStringLiteral("image");
    if (mimeType.startsWith(QLatin1String("video/")))
        return QStringLiteral("video");
    if (mimeType.startsWith(QLatin1String("audio/")))
        return QStringLiteral("audio");
    return QStringLiteral("document");
}

QString sniff(QByteArrayView b)
{
    if (startsWith(b, 0, "\x89PNG\r\n\x1a\n"))
        return QStringLiteral("image/png");
    if (startsWith(b, 0, "\xff\xd8\xff"))
        return QStringLiteral("image/jpeg");
    if (startsWith(b, 0, "GIF87a") || startsWith(b, 0, "GIF89a"))
        return QStringLiteral("image/gif");
    if (startsWith(b, 0, "RIFF") && startsWith(b, 8, "WEBP"))
        return QStringLiteral("image/webp");
    if (startsWith(b, 0, "RIFF") && startsWith(b, 8, "WAVE"))
        return QStringLiteral("audio/wav");
    if (startsWith(b, 0, "RIFF") && startsWith(b, 8, "AVI "))
        return QStringLiteral("video/x-msvideo");
    if (startsWith(b, 0, QByteArrayView("II*\0", 4)) || startsWith(b, 0, QByteArrayView("MM\0*", 4)))
        return QStringLiteral("image/tiff");
    if (startsWith(b, 0, "%PDF-"))
        return QStringLiteral("application/pdf");
    if (startsWith(b, 0, "PK\x03\x04"))
        return QStringLiteral("application/zip");
    if (startsWith(b, 4, "ftyp")) {
        if (startsWith(b, 8, "qt  "))
            return QStringLiteral("video/quicktime");
        if (startsWith(b, 8, "3gp"))
            return QStringLiteral("video/3gpp");
        if (startsWith(b, 8, "heic") || startsWith(b, 8, "heix") || startsWith(b, 8, "mif1"))
            return QStringLiteral("image/heic");
        if (startsWith(b, 8, "M4A "))
            return QStringLiteral("audio/mp4");
        return QStringLiteral("video/mp4");
    }
    if (startsWith(b, 0, "\x1a\x45\xdf\xa3"))
        return QStringLiteral("video/webm");
    if (startsWith(b, 0, "OggS"))
        return QStringLiteral("audio/ogg");
    if (startsWith(b, 0, "fLaC"))
        return QStringLiteral("audio/flac");
    if (startsWith(b, 0, "#!AMR"))
        return QStringLiteral("audio/amr");
    if (startsWith(b, 0, "ID3"))
        return QStringLiteral("audio/mpeg");
    if (b.size() >= 2 && uchar(b[0]) == 0xff && (uchar(b[1]) & 0xf6) == 0xf0)
        return QStringLiteral("audio/aac");
    if (b.size() >= 2 && uchar(b[0]) == 0xff && (uchar(b[1]) & 0xe0) == 0xe0)
        return QStringLiteral("audio/mpeg");
    return {};
}

QString resolveType(const QByteArray &declared, QByteArrayView bytes)
{
    const QString sniffed = sniff(bytes);
    const QString type = QString::fromLatin1(declared).trimmed().toLower();
    if (type.isEmpty() || type == QLatin1String("application/octet-stream"))
        return sniffed.isEmpty() ? QStringLiteral("application/octet-stream") : sniffed;
    const QString expected = family(type);
    if (!expected.isEmpty() && family(sniffed) != expected)
        throw DomainError(
            DomainError::Unprocessable, QStringLiteral("MEDIA_TYPE_MISMATCH"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "The file's content is not %1%2"),
                      {type, sniffed.isEmpty()
                                 ? ModelTextArg(QString())
                                 : ModelTextArg(
                                       ModelText(QT_TRANSLATE_NOOP("ModelError", " (it looks like %1)"), {sniffed}))}),
            {{QStringLiteral("file"),
              ModelText(QT_TRANSLATE_NOOP("ModelError", "content does not match its Content-Type"))}});
    return type;
}

QString safeFilename(const QString &filename)
{
    QString name = filename;
    const qsizetype slash = qMax(name.lastIndexOf(QLatin1Char('/')), name.lastIndexOf(QLatin1Char('\\')));
    if (slash >= 0)
        name = name.mid(slash + 1);
    QString clean;
    for (const QChar c : std::as_const(name)) {
        // Control characters and format characters (bidirectional overrides that disguise an extension).
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            continue;
        clean += c;
    }
    clean = clean.trimmed();
    while (clean.toUtf8().size() > 255) {
        clean.chop(1);
        if (!clean.isEmpty() && clean.back().isHighSurrogate())
            clean.chop(1);
    }
    if (clean.isEmpty() || clean == QLatin1String(".") || clean == QLatin1String(".."))
        return QStringLiteral("file");
    return clean;
}

bool isActiveContent(const QString &mimeType)
{
    return mimeType == QLatin1String("text/html") || mimeType == QLatin1String("application/xhtml+xml") ||
           mimeType == QLatin1String("image/svg+xml") || mimeType.contains(QLatin1String("xml")) ||
           mimeType.contains(QLatin1String("javascript")) || mimeType == QLatin1String("text/ecmascript");
}
} // namespace MediaRules

MediaRepository::MediaRepository(const Store &store, QString mediaDir)
    : m_store(store)
    , m_dir(std::move(mediaDir))
{
}

QString MediaRepository::filePath(const QString &id) const
{
    return QDir(m_dir).filePath(id);
}

Media MediaRepository::store(const MediaUpload &upload)
{
    if (upload.bytes.isEmpty())
        throw DomainError(DomainError::Unprocessable, QStringLiteral("EMPTY_FILE"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "The file is empty")),
                          {{QStringLiteral("file"), ModelText(QT_TRANSLATE_NOOP("ModelError", "is empty"))}});
    Media m;
    m.mimeType = MediaRules::resolveType(upload.declaredType, upload.bytes);
    m.filename = MediaRules::safeFilename(upload.filename);
    if (m.mimeType == QLatin1String("application/octet-stream")) {
        // Nothing declared and no magic number known: the extension tells (docx, csv, txt, …).
        const QMimeType byName = QMimeDatabase().mimeTypeForFile(m.filename, QMimeDatabase::MatchExtension);
        if (byName.isValid() && !byName.isDefault() && MediaRules::sniff(upload.bytes).isEmpty() &&
            QMimeDatabase().mimeTypeForFileNameAndData(m.filename, upload.bytes.toByteArray()).name() == byName.name())
            m.mimeType = byName.name();
    }
    m.kind = MediaRules::kindOf(m.mimeType);
    m.size = upload.bytes.size();
    m.sha256 = QString::fromLatin1(QCryptographicHash::hash(upload.bytes, QCryptographicHash::Sha256).toHex());
    m.id = Ids::make(u"media");
    m.token = newToken();
    m.uploadedBy = upload.uploadedBy;
    m.conversationId = upload.conversationId;
    const QDateTime created = m_store.now();
    m.createdAt = TimeUtil::iso(created);
    m.expiresAt = TimeUtil::iso(created.addDays(upload.lifetimeDays));

    const QString insertRow =
        QStringLiteral("INSERT INTO media (id, token_hash, filename, mime_type, kind, size, sha256, uploaded_by, "
                       "conversation_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const QVariantList row{m.id,
                           hashToken(m.token),
                           m.filename,
                           m.mimeType,
                           m.kind,
                           m.size,
                           m.sha256,
                           m.uploadedBy.isEmpty() ? QVariant() : QVariant(m.uploadedBy),
                           m.conversationId.isEmpty() ? QVariant() : QVariant(m.conversationId),
                           m.createdAt,
                           m.expiresAt};
    if (inDatabase()) {
        Transaction tx;
        Database::execCached(insertRow, row);
        Database::execCached(
            QStringLiteral("INSERT INTO media_contents (media_seq, content) SELECT seq, ? FROM media WHERE id = ?"),
            {upload.bytes.toByteArray(), m.id});
        tx.commit();
        m_store.notify(EventBus::Entity::Media, m.id, EventBus::Change::Created);
        return m;
    }
    if (!QDir().mkpath(m_dir))
        throw std::runtime_error("cannot create the media directory " + m_dir.toStdString());
    const QString path = filePath(m.id);
    {
        // QSaveFile writes a temporary file beside the target, flushes it to disk and renames it.
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(upload.bytes.data(), upload.bytes.size()) != m.size ||
            !file.commit())
            throw std::runtime_error("cannot write media file " + path.toStdString() + ": " +
                                     file.errorString().toStdString());
    }
    try {
        Transaction tx;
        Database::execCached(insertRow, row);
        tx.commit();
    } catch (...) {
        QFile::remove(path);
        throw;
    }
    m_store.notify(EventBus::Entity::Media, m.id, EventBus::Change::Created);
    return m;
}

namespace {
const QString kMediaColumns =
    QStringLiteral("id, filename, mime_type, kind, size, sha256, uploaded_by, conversation_id, "
                   "message_id, created_at, expires_at, token_hash FROM media ");

Media mediaFromRow(SqlRowReader r)
{
    Media m;
    m.id = r.text();
    m.filename = r.text();
    m.mimeType = r.text();
    m.kind = r.text();
    m.size = r.integer();
    m.sha256 = r.text();
    m.uploadedBy = r.text();
    m.conversationId = r.text();
    m.messageId = r.text();
    m.createdAt = r.text();
    m.expiresAt = r.text();
    return m;
}
} // namespace

std::optional<Media> MediaRepository::find(const QString &id) const
{
    CachedQuery q =
        Database::execCached(QStringLiteral("SELECT ") + kMediaColumns + QStringLiteral("WHERE id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    const Media m = mediaFromRow(q);
    q.finish();
    return m;
}

std::optional<Media> MediaRepository::findServable(const QString &id, const QString &token) const
{
    if (id.size() > 100 || token.size() != 43)
        return std::nullopt;
    CachedQuery q =
        Database::execCached(QStringLiteral("SELECT ") + kMediaColumns + QStringLiteral("WHERE id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    const Media m = mediaFromRow(q);
    const QByteArray stored = q.value(11).toString().toLatin1();
    q.finish();
    if (!constantTimeEqual(stored, hashToken(token).toLatin1()))
        return std::nullopt;
    if (m.expiresAt <= m_store.nowIso())
        return std::nullopt;
    return m;
}

void MediaRepository::linkMessage(const QString &mediaId, const QString &messageId)
{
    Database::execCached(QStringLiteral("UPDATE media SET message_id = ? WHERE id = ?"), {messageId, mediaId});
}

MediaRepository::Usage MediaRepository::usage()
{
    Usage u;
    CachedQuery q =
        Database::execCached(QStringLiteral("SELECT count(*), coalesce(sum(size), 0), min(expires_at) FROM media"));
    if (q.next()) {
        u.files = q.value(0).toLongLong();
        u.bytes = q.value(1).toLongLong();
        u.nextExpiry = q.value(2).toString();
    }
    q.finish();
    return u;
}

bool MediaRepository::inDatabase()
{
    return Database::dialect() == Database::Dialect::PostgreSQL;
}

std::optional<QByteArray> MediaRepository::content(const QString &id) const
{
    const std::optional<Media> media = find(id);
    if (!media)
        return std::nullopt;
    QByteArray bytes;
    if (inDatabase()) {
        QSqlQuery q = Database::exec(QStringLiteral("SELECT c.content FROM media_contents c JOIN media m ON m.seq = "
                                                    "c.media_seq WHERE m.id = ?"),
                                     {id});
        if (!q.next())
            return std::nullopt;
        bytes = q.value(0).toByteArray();
    } else {
        QFile file(filePath(id));
        if (!file.open(QIODevice::ReadOnly))
            return std::nullopt;
        bytes = file.readAll();
    }
    // A short or damaged copy is never passed on as the upload.
    if (bytes.size() != media->size)
        return std::nullopt;
    return bytes;
}

int MediaRepository::copyFilesIntoDatabase(const QString &mediaDir)
{
    QVector<QPair<qint64, QString>> rows;
    {
        QSqlQuery q = Database::exec(QStringLiteral("SELECT seq, id, size FROM media ORDER BY seq"));
        while (q.next()) {
            if (QFileInfo(QDir(mediaDir).filePath(q.value(1).toString())).size() == q.value(2).toLongLong())
                rows.append({q.value(0).toLongLong(), q.value(1).toString()});
        }
    }
    int copied = 0;
    for (const auto &[seq, id] : std::as_const(rows)) {
        QFile file(QDir(mediaDir).filePath(id));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        Database::exec(QStringLiteral("INSERT INTO media_contents (media_seq, content) VALUES (?, ?)"),
                       {seq, file.readAll()});
        ++copied;
    }
    return copied;
}

int MediaRepository::deleteExpired()
{
    const QString nowIso = m_store.nowIso();
    QStringList ids;
    {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT id FROM media WHERE expires_at <= ? ORDER BY expires_at LIMIT 1000"), {nowIso});
        while (q.next())
            ids << q.value(0).toString();
        q.finish();
    }
    if (!ids.isEmpty()) {
        // The rows go first: a file without a row is never served and is swept below; a row
        // without its file would be.
        Transaction tx;
        for (const QString &id : std::as_const(ids))
            Database::execCached(QStringLiteral("DELETE FROM media WHERE id = ? AND expires_at <= ?"), {id, nowIso});
        tx.commit();
        for (const QString &id : std::as_const(ids)) {
            QFile::remove(filePath(id));
            m_store.notify(EventBus::Entity::Media, id, EventBus::Change::Deleted);
        }
    }

    // Files without a row (a crash between the rename and the commit, a QSaveFile temporary),
    // older than an hour so that an upload in progress is left alone.
    const QDateTime cutoff = m_store.now().addSecs(-3600);
    QDirIterator it(m_dir, QDir::Files | QDir::Hidden);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        if (info.lastModified().toUTC() > cutoff)
            continue;
        const QString name = info.fileName();
        if (!name.startsWith(QLatin1String("media_")) || name.contains(QLatin1Char('.')) || !find(name))
            QFile::remove(info.filePath());
    }
    return int(ids.size());
}
