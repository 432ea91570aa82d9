#include "model/backup/backuparchive.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStorageInfo>

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

namespace {
constexpr int kBackupBlock = 512;
constexpr qint64 kBackupChunk = 1024 * 1024;
// Leaves room below which a failed write is taken for a full disk (the system's reason is then
// ENOSPC, which QFileDevice does not hand on).
constexpr qint64 kFullBelowBytes = 1024 * 1024;

const char *const kDamagedEnd = QT_TRANSLATE_NOOP("ModelError", "it ends early (the file was cut short)");
const char *const kDamagedStream =
    QT_TRANSLATE_NOOP("ModelError", "its compressed data is damaged (the file was changed after it was written)");
const char *const kDamagedChecksum =
    QT_TRANSLATE_NOOP("ModelError", "a file in it does not match the checksum the backup recorded");
const char *const kDamagedManifest =
    QT_TRANSLATE_NOOP("ModelError", "its list of contents is missing or does not match what it holds");

void backupPutOctal(char *field, int width, quint64 value)
{
    // width - 1 octal digits and a NUL, as ustar writes numbers.
    for (int i = width - 2; i >= 0; --i) {
        field[i] = char('0' + (value & 7));
        value >>= 3;
    }
    field[width - 1] = '\0';
}

// A size too large for 11 octal digits (8 GiB): GNU tar's base-256 form, which tar reads.
void backupPutSize(char *field, quint64 size)
{
    if (size < (quint64(1) << 33)) {
        backupPutOctal(field, 12, size);
        return;
    }
    std::memset(field, 0, 12);
    for (int i = 11; i >= 4; --i) {
        field[i] = char(size & 0xff);
        size >>= 8;
    }
    field[0] = char(0x80);
}

bool backupReadNumber(const char *field, int width, qint64 *value)
{
    if (uchar(field[0]) == 0x80) {
        quint64 v = 0;
        for (int i = 1; i < width; ++i)
            v = (v << 8) | uchar(field[i]);
        if (v > quint64(std::numeric_limits<qint64>::max()))
            return false;
        *value = qint64(v);
        return true;
    }
    qint64 v = 0;
    int i = 0;
    while (i < width && field[i] == ' ')
        ++i;
    bool any = false;
    for (; i < width && field[i] >= '0' && field[i] <= '7'; ++i) {
        v = v * 8 + (field[i] - '0');
        any = true;
    }
    for (; i < width; ++i) {
        if (field[i] != ' ' && field[i] != '\0')
            return false;
    }
    *value = v;
    return any;
}

unsigned backupHeaderChecksum(const char *header)
{
    unsigned sum = 0;
    for (int i = 0; i < kBackupBlock; ++i)
        sum += (i >= 148 && i < 156) ? unsigned(' ') : uchar(header[i]);
    return sum;
}

QByteArray backupTarHeader(const QByteArray &name, quint64 size, qint64 mtime)
{
    QByteArray h(kBackupBlock, '\0');
    char *p = h.data();
    std::memcpy(p, name.constData(), size_t(name.size())); // name: checked to fit in isAllowedName
    backupPutOctal(p + 100, 8, 0600);
    backupPutOctal(p + 108, 8, 0);
    backupPutOctal(p + 116, 8, 0);
    backupPutSize(p + 124, size);
    backupPutOctal(p + 136, 12, quint64(qMax<qint64>(0, mtime)));
    p[156] = '0';
    std::memcpy(p + 257, "ustar", 6);
    std::memcpy(p + 263, "00", 2);
    std::memcpy(p + 265, "liaison", 7);
    std::memcpy(p + 297, "liaison", 7);
    const unsigned sum = backupHeaderChecksum(p);
    backupPutOctal(p + 148, 7, sum); // six digits, a NUL, then the space already there
    p[155] = ' ';
    return h;
}

bool backupDiskFull(const QString &path)
{
    const QStorageInfo where(QFileInfo(path).absolutePath());
    return where.isValid() && where.bytesAvailable() >= 0 && where.bytesAvailable() < kFullBelowBytes;
}
} // namespace

ModelText BackupArchive::folderNotCreated()
{
    return ModelText(QT_TRANSLATE_NOOP("ModelError", "its folder cannot be created"));
}

ModelText BackupArchive::notMovedThere(const QString &from)
{
    return ModelText(QT_TRANSLATE_NOOP("ModelError", "%1 could not be moved there"), {QDir::toNativeSeparators(from)});
}

DomainError BackupArchive::writeFailed(const QString &path, const ModelTextArg &reason)
{
    if (errno == ENOSPC || backupDiskFull(path))
        return DomainError(
            DomainError::StorageFull, QStringLiteral("STORAGE_FULL"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "The disk is full: the backup could not be written to %1"),
                      {QDir::toNativeSeparators(path)}));
    return DomainError(DomainError::Unavailable, QStringLiteral("BACKUP_NOT_WRITTEN"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "The backup could not be written to %1: %2"),
                                 {QDir::toNativeSeparators(path), reason}));
}

DomainError BackupArchive::readFailed(const QString &path, const QString &reason)
{
    return DomainError(
        DomainError::Unprocessable, QStringLiteral("BACKUP_NOT_READ"),
        ModelText(QT_TRANSLATE_NOOP("ModelError", "%1 cannot be read: %2"), {QDir::toNativeSeparators(path), reason}));
}

DomainError BackupArchive::notABackup(const QString &path)
{
    return DomainError(DomainError::Unprocessable, QStringLiteral("NOT_A_BACKUP"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "%1 is not a Liaison backup: nothing was restored"),
                                 {QDir::toNativeSeparators(path)}));
}

DomainError BackupArchive::damaged(const QString &path, const ModelText &what)
{
    return DomainError(DomainError::Unprocessable, QStringLiteral("BACKUP_DAMAGED"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "The backup %1 is damaged: %2. Nothing was restored"),
                                 {QDir::toNativeSeparators(path), what}));
}

bool BackupArchive::isMediaFileName(const QString &fileName)
{
    static const QRegularExpression media(QStringLiteral("^media_[A-Za-z0-9_-]{1,80}$"));
    return media.match(fileName).hasMatch();
}

bool BackupArchive::isAllowedName(const QString &name)
{
    if (name == QLatin1String("liaison.db") || name == QLatin1String(kManifestName))
        return true;
    return name.startsWith(QLatin1String("media/")) && isMediaFileName(name.mid(6));
}

// ----- writing -----

struct BackupArchive::Writer::Private
{
    QString path;
    QSaveFile file;
    z_stream z{};
    bool zReady = false;
    QByteArray out = QByteArray(256 * 1024, Qt::Uninitialized);
    QList<Entry> entries;

    explicit Private(const QString &p)
        : path(p)
        , file(p)
    {
    }

    [[noreturn]] void failWrite() { throw writeFailed(path, file.errorString()); }

    void deflateSome(const char *data, qint64 size, int flush)
    {
        z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data));
        z.avail_in = uInt(size);
        do {
            z.next_out = reinterpret_cast<Bytef *>(out.data());
            z.avail_out = uInt(out.size());
            const int rc = deflate(&z, flush);
            if (rc == Z_STREAM_ERROR)
                throw writeFailed(path, QStringLiteral("zlib: %1").arg(QString::fromLatin1(z.msg ? z.msg : "error")));
            const qint64 have = out.size() - qint64(z.avail_out);
            if (have > 0 && file.write(out.constData(), have) != have)
                failWrite();
        } while (z.avail_out == 0);
    }

    void put(const QByteArray &bytes) { deflateSome(bytes.constData(), bytes.size(), Z_NO_FLUSH); }
    void pad(qint64 size)
    {
        const qint64 rest = size % kBackupBlock;
        if (rest)
            put(QByteArray(kBackupBlock - rest, '\0'));
    }
};

BackupArchive::Writer::Writer(const QString &path, int level)
    : d(std::make_unique<Private>(path))
{
    if (!d->file.open(QIODevice::WriteOnly))
        throw writeFailed(path, d->file.errorString());
    // Everything stored is in it (password hashes too): the owner's alone, as the data directory is.
    d->file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    // windowBits 15 + 16: a gzip stream (header and CRC-32 trailer), as gzip and tar -z read it.
    if (deflateInit2(&d->z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw writeFailed(path, QStringLiteral("zlib could not start"));
    d->zReady = true;
}

BackupArchive::Writer::~Writer()
{
    if (d->zReady)
        deflateEnd(&d->z);
    // Without commit() the QSaveFile discards its temporary file.
}

void BackupArchive::Writer::addFile(const QString &name, const QString &source)
{
    Q_ASSERT(isAllowedName(name) && name != QLatin1String(kManifestName));
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly))
        throw readFailed(source, in.errorString());
    const qint64 size = in.size();
    d->put(backupTarHeader(name.toUtf8(), quint64(size), QFileInfo(in).lastModified().toSecsSinceEpoch()));
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QByteArray buffer(kBackupChunk, Qt::Uninitialized);
    qint64 left = size;
    while (left > 0) {
        const qint64 n = in.read(buffer.data(), qMin(left, kBackupChunk));
        if (n <= 0) // the file shrank while being read: the entry would lie about its size
            throw readFailed(source, n < 0 ? in.errorString() : QStringLiteral("it became shorter while read"));
        hash.addData(QByteArrayView(buffer.constData(), n));
        d->deflateSome(buffer.constData(), n, Z_NO_FLUSH);
        left -= n;
    }
    d->pad(size);
    d->entries.append({name, size, hash.result().toHex()});
}

qint64 BackupArchive::Writer::commit(QJsonObject extra)
{
    QJsonArray files;
    for (const Entry &e : std::as_const(d->entries))
        files.append(QJsonObject{{QStringLiteral("name"), e.name},
                                 {QStringLiteral("size"), double(e.size)},
                                 {QStringLiteral("sha256"), QString::fromLatin1(e.sha256)}});
    extra.insert(QStringLiteral("format"), QStringLiteral("liaison-backup"));
    extra.insert(QStringLiteral("version"), kFormatVersion);
    extra.insert(QStringLiteral("files"), files);
    const QByteArray manifest = QJsonDocument(extra).toJson(QJsonDocument::Indented);
    d->put(backupTarHeader(kManifestName, quint64(manifest.size()), QDateTime::currentSecsSinceEpoch()));
    d->put(manifest);
    d->pad(manifest.size());
    const QByteArray end(2 * kBackupBlock, '\0');
    d->deflateSome(end.constData(), end.size(), Z_FINISH);
    deflateEnd(&d->z);
    d->zReady = false;
    // QSaveFile flushes and fsyncs before it renames: the backup is on the disk when it has its name.
    if (!d->file.commit())
        d->failWrite();
    return QFileInfo(d->path).size();
}

// ----- reading -----

namespace {
// A gzip stream read a piece at a time, each piece exactly as asked.
class BackupInflater
{
public:
    BackupInflater(QFile &file, const QString &path)
        : m_file(file)
        , m_path(path)
        , m_in(256 * 1024, Qt::Uninitialized)
    {
        if (inflateInit2(&m_z, 15 + 16) != Z_OK)
            throw BackupArchive::readFailed(path, QStringLiteral("zlib could not start"));
    }
    ~BackupInflater() { inflateEnd(&m_z); }

    // Fills out with exactly size bytes; false when the stream ended first (cleanly).
    bool read(char *out, qint64 size)
    {
        m_z.next_out = reinterpret_cast<Bytef *>(out);
        m_z.avail_out = uInt(size);
        while (m_z.avail_out > 0) {
            if (m_ended)
                return false;
            if (m_z.avail_in == 0) {
                const qint64 n = m_file.read(m_in.data(), m_in.size());
                if (n < 0)
                    throw BackupArchive::readFailed(m_path, m_file.errorString());
                if (n == 0) // the file ends inside the gzip stream
                    throw BackupArchive::damaged(m_path, ModelText(kDamagedEnd));
                m_z.next_in = reinterpret_cast<Bytef *>(m_in.data());
                m_z.avail_in = uInt(n);
            }
            const int rc = inflate(&m_z, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) {
                m_ended = true;
                continue;
            }
            if (rc == Z_DATA_ERROR && m_started == false && m_z.total_out == 0)
                throw BackupArchive::notABackup(m_path);
            if (rc != Z_OK && rc != Z_BUF_ERROR)
                throw BackupArchive::damaged(m_path, ModelText(kDamagedStream));
            m_started = true;
        }
        return true;
    }

    // After the tar's end: the rest of the stream (gzip's trailer and its CRC check), then the file's end.
    void finish()
    {
        char sink[kBackupBlock];
        while (!m_ended) {
            if (!read(sink, sizeof sink))
                break;
        }
        if (m_z.avail_in > 0 || m_file.bytesAvailable() > 0) // bytes after the end: not as written
            throw BackupArchive::damaged(m_path, ModelText(kDamagedStream));
    }

private:
    QFile &m_file;
    QString m_path;
    QByteArray m_in;
    z_stream m_z{};
    bool m_ended = false;
    bool m_started = false;
};
} // namespace

BackupArchive::Manifest BackupArchive::extract(const QString &path, const QString &targetDir)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw readFailed(path, file.errorString());
    {
        // A gzip stream starts with 1f 8b: anything else is not a backup (rather than damaged).
        const QByteArray magic = file.peek(2);
        if (magic != QByteArray("\x1f\x8b", 2))
            throw notABackup(path);
    }
    BackupInflater in(file, path);
    QDir target(targetDir);
    QHash<QString, Entry> found;
    QByteArray manifestBytes;
    bool sawManifest = false;
    bool first = true;
    char header[kBackupBlock];
    QByteArray buffer(kBackupChunk, Qt::Uninitialized);
    for (;;) {
        if (!in.read(header, kBackupBlock)) {
            if (first) // a gzip of something shorter than a tar header
                throw notABackup(path);
            throw damaged(path, ModelText(kDamagedEnd));
        }
        if (std::all_of(header, header + kBackupBlock, [](char c) { return c == '\0'; })) {
            if (!in.read(header, kBackupBlock) ||
                !std::all_of(header, header + kBackupBlock, [](char c) { return c == '\0'; }))
                throw damaged(path, ModelText(kDamagedEnd));
            break;
        }
        qint64 checksum = 0;
        qint64 size = 0;
        const bool headerOk = backupReadNumber(header + 148, 8, &checksum) &&
                              unsigned(checksum) == backupHeaderChecksum(header) &&
                              backupReadNumber(header + 124, 12, &size) && size >= 0;
        const QString name = QString::fromUtf8(header, int(qstrnlen(header, 100)));
        const char type = header[156];
        if (!headerOk || (type != '0' && type != '\0') || !isAllowedName(name) || found.contains(name) || sawManifest) {
            if (first)
                throw notABackup(path);
            throw damaged(path, ModelText(kDamagedManifest));
        }
        first = false;
        qint64 mtime = 0;
        backupReadNumber(header + 136, 12, &mtime);
        QCryptographicHash hash(QCryptographicHash::Sha256);
        const bool isManifest = name == QLatin1String(kManifestName);
        std::unique_ptr<QFile> out;
        if (!isManifest) {
            if (name.contains(QLatin1Char('/')) && !target.mkpath(QFileInfo(name).path()))
                throw writeFailed(target.filePath(name), folderNotCreated());
            out = std::make_unique<QFile>(target.filePath(name));
            if (!out->open(QIODevice::WriteOnly | QIODevice::NewOnly))
                throw writeFailed(out->fileName(), out->errorString());
            out->setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        } else if (size > 16 * 1024 * 1024) {
            throw damaged(path, ModelText(kDamagedManifest));
        }
        qint64 left = size;
        while (left > 0) {
            const qint64 n = qMin(left, kBackupChunk);
            if (!in.read(buffer.data(), n))
                throw damaged(path, ModelText(kDamagedEnd));
            hash.addData(QByteArrayView(buffer.constData(), n));
            if (out && out->write(buffer.constData(), n) != n)
                throw writeFailed(out->fileName(), out->errorString());
            if (isManifest)
                manifestBytes.append(buffer.constData(), n);
            left -= n;
        }
        const qint64 padding = (kBackupBlock - size % kBackupBlock) % kBackupBlock;
        if (padding && !in.read(header, padding))
            throw damaged(path, ModelText(kDamagedEnd));
        if (out) {
            if (!out->flush())
                throw writeFailed(out->fileName(), out->errorString());
            if (mtime > 0) // the media cleaner sweeps files without a row by their age
                out->setFileTime(QDateTime::fromSecsSinceEpoch(mtime), QFileDevice::FileModificationTime);
            out->close();
        }
        if (isManifest)
            sawManifest = true;
        else
            found.insert(name, {name, size, hash.result().toHex()});
    }
    in.finish();

    // Every file as the manifest says, and nothing it does not list.
    if (!sawManifest)
        throw damaged(path, ModelText(kDamagedEnd));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(manifestBytes, &parseError);
    const QJsonObject json = doc.object();
    if (parseError.error != QJsonParseError::NoError ||
        json.value(QLatin1String("format")) != QLatin1String("liaison-backup"))
        throw damaged(path, ModelText(kDamagedManifest));
    if (json.value(QLatin1String("version")).toInt() > kFormatVersion)
        throw DomainError(DomainError::Unprocessable, QStringLiteral("BACKUP_TOO_NEW"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "%1 was written by a newer Liaison (backup format "
                                                                    "%2): update Liaison to restore it"),
                                    {QDir::toNativeSeparators(path), json.value(QLatin1String("version")).toInt()}));
    Manifest manifest;
    manifest.json = json;
    manifest.schemaVersion = json.value(QLatin1String("schemaVersion")).toInt();
    manifest.createdAt = json.value(QLatin1String("createdAt")).toString();
    const QJsonArray files = json.value(QLatin1String("files")).toArray();
    if (files.size() != found.size())
        throw damaged(path, ModelText(kDamagedManifest));
    for (const QJsonValue &v : files) {
        const QJsonObject f = v.toObject();
        const QString name = f.value(QLatin1String("name")).toString();
        const auto it = found.constFind(name);
        if (it == found.cend())
            throw damaged(path, ModelText(kDamagedManifest));
        if (qint64(f.value(QLatin1String("size")).toDouble(-1)) != it->size ||
            f.value(QLatin1String("sha256")).toString().toLatin1() != it->sha256)
            throw damaged(path, ModelText(kDamagedChecksum));
        manifest.entries.append(*it);
    }
    if (!found.contains(QStringLiteral("liaison.db")))
        throw damaged(path, ModelText(kDamagedManifest));
    return manifest;
}
