#include "app/secrets/secretstore.h"

#include <qt6keychain/keychain.h>

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QTimer>

#include <algorithm>
#include <memory>
#include <utility>

Q_LOGGING_CATEGORY(lcSecrets, "liaison.secrets")

namespace {

const QString ProbeKey = QStringLiteral("liaison-keychain-probe");

constexpr QFileDevice::Permissions OwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr QFileDevice::Permissions GroupOrOther = QFileDevice::ReadGroup | QFileDevice::WriteGroup |
                                                  QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                                  QFileDevice::WriteOther | QFileDevice::ExeOther;

enum class JobEnd
{
    Finished,
    TimedOut,
    NoEventLoop
};

// Runs one QtKeychain job until it finishes or `timeoutMs` passes.
//
// QtKeychain jobs are asynchronous (a queued start, then a D-Bus round trip through libsecret). The
// secret store is used at start-up and from Settings, rarely, so waiting here on a local QEventLoop
// bounded by a QTimer is acceptable. This is the ONLY place in Liaison that may block on a nested
// event loop; everything else stays asynchronous.
//
// On a timeout the job cannot be cancelled: QtKeychain (0.13) hands a raw pointer to the job to
// libsecret, so deleting it now would let a late answer write into freed memory. It is switched to
// auto-delete instead and frees itself when (if ever) the answer arrives.
JobEnd runJob(std::unique_ptr<QKeychain::Job> &job, int timeoutMs)
{
    if (!QCoreApplication::instance())
        return JobEnd::NoEventLoop;
    job->setAutoDelete(false);
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    bool finished = false;
    const auto connection = QObject::connect(job.get(), &QKeychain::Job::finished, &loop, [&finished, &loop] {
        finished = true;
        loop.quit();
    });
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    job->start(); // queued: nothing can finish before exec()
    timer.start(timeoutMs);
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    QObject::disconnect(connection);
    if (finished)
        return JobEnd::Finished;
    job->setAutoDelete(true);
    job.release(); // deletes itself once finished (see above)
    return JobEnd::TimedOut;
}

QString timeoutText(const char *what, int timeoutMs)
{
    return QStringLiteral("keychain %1 timed out after %2 ms").arg(QLatin1String(what)).arg(timeoutMs);
}

// Creates `path` and its missing parents with mode 0700; existing directories are left as they are.
bool makePrivateDir(const QString &path)
{
    const QString clean = QDir::cleanPath(QDir(path).absolutePath());
    if (QFileInfo(clean).isDir())
        return true;
    const QString parent = QFileInfo(clean).path();
    if (parent != clean && !makePrivateDir(parent))
        return false;
    return QDir().mkdir(clean, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner) ||
           QFileInfo(clean).isDir();
}

} // namespace

SecretStore::SecretStore(QString service, QString fallbackFile)
    : m_service(std::move(service))
    , m_file(std::move(fallbackFile))
{
}

SecretStore::Backend SecretStore::open()
{
    if (m_opened)
        return m_backend;
    m_opened = true;
    tightenFilePermissions();
    QString reason;
    if (probeKeychain(&reason)) {
        m_backend = Backend::Keychain;
        m_fallbackReason.clear();
        qCDebug(lcSecrets) << "secrets are kept in the system keychain, service" << m_service;
    } else {
        m_backend = Backend::File;
        m_fallbackReason = reason;
        qCWarning(lcSecrets).noquote() << QStringLiteral("No keychain service (%1): secrets are kept in %2, readable "
                                                         "only by its owner")
                                              .arg(reason, QDir::toNativeSeparators(m_file));
    }
    return m_backend;
}

QString SecretStore::backendDescription() const
{
    if (!m_opened)
        return QStringLiteral("not opened");
    if (m_backend == Backend::Keychain)
        return QStringLiteral("system keychain");
    return QStringLiteral("file %1 (no keychain service: %2)").arg(QDir::toNativeSeparators(m_file), m_fallbackReason);
}

std::optional<QByteArray> SecretStore::read(const QString &key)
{
    if (const auto it = m_overrides.constFind(key); it != m_overrides.cend())
        return *it;
    QByteArray value;
    if (readStored(key, &value) == Result::Ok)
        return value;
    return std::nullopt;
}

bool SecretStore::write(const QString &key, const QByteArray &value)
{
    if (key.isEmpty())
        return false;
    open();
    if (m_backend == Backend::File)
        return fileWrite(key, value);
    QString error;
    if (keychainWrite(key, value, &error) != Result::Ok) {
        qCWarning(lcSecrets).noquote()
            << QStringLiteral("Could not store secret \"%1\" in the keychain: %2").arg(key, error);
        return false;
    }
    return true;
}

bool SecretStore::remove(const QString &key)
{
    if (key.isEmpty())
        return false;
    open();
    bool ok = true;
    if (m_backend == Backend::Keychain) {
        QString error;
        if (keychainRemove(key, &error) == Result::Failed) {
            qCWarning(lcSecrets).noquote()
                << QStringLiteral("Could not remove secret \"%1\" from the keychain: %2").arg(key, error);
            ok = false;
        }
    }
    // With the keychain, a copy left in the file from a time without keychain goes too.
    if (m_backend == Backend::File || QFileInfo::exists(m_file)) {
        QByteArray ignored;
        const Result inFile = fileRead(key, &ignored);
        if (inFile == Result::Failed || (inFile == Result::Ok && !fileWrite(key, std::nullopt)))
            ok = false;
    }
    return ok;
}

QByteArray SecretStore::getOrCreate(const QString &key, int randomBytes)
{
    if (const auto it = m_overrides.constFind(key); it != m_overrides.cend())
        return *it;
    if (key.isEmpty() || randomBytes <= 0)
        return {};
    QByteArray value;
    switch (readStored(key, &value)) {
    case Result::Ok:
        return value;
    case Result::Failed:
        // Do not replace a secret that exists but cannot be read right now.
        return {};
    case Result::NotFound:
        break;
    }
    QList<quint32> words((randomBytes + 3) / 4);
    QRandomGenerator::system()->generate(words.begin(), words.end()); // the OS CSPRNG
    value = QByteArray(reinterpret_cast<const char *>(words.constData()), randomBytes);
    std::fill(words.begin(), words.end(), 0);
    if (!write(key, value))
        return {};
    return value;
}

void SecretStore::setOverride(const QString &key, const QByteArray &value)
{
    m_overrides.insert(key, value);
}

SecretStore::Result SecretStore::readStored(const QString &key, QByteArray *value)
{
    if (key.isEmpty())
        return Result::NotFound;
    open();
    if (m_backend == Backend::File)
        return fileRead(key, value);

    QString error;
    const Result result = keychainRead(key, value, &error);
    if (result == Result::Failed) {
        qCWarning(lcSecrets).noquote()
            << QStringLiteral("Could not read secret \"%1\" from the keychain: %2").arg(key, error);
        return result;
    }
    if (result == Result::Ok || !QFileInfo::exists(m_file))
        return result;

    // Written to the file while no keychain service ran: move it into the keychain.
    if (fileRead(key, value) != Result::Ok)
        return Result::NotFound;
    if (keychainWrite(key, *value, &error) == Result::Ok && fileWrite(key, std::nullopt))
        qCInfo(lcSecrets).noquote() << QStringLiteral("Moved secret \"%1\" from %2 into the keychain").arg(key, m_file);
    return Result::Ok;
}

// --- keychain ---------------------------------------------------------------------------------------

SecretStore::Result SecretStore::keychainRead(const QString &key, QByteArray *value, QString *error)
{
    auto *job = new QKeychain::ReadPasswordJob(m_service);
    std::unique_ptr<QKeychain::Job> owner(job);
    job->setKey(key);
    switch (runJob(owner, m_timeoutMs)) {
    case JobEnd::NoEventLoop:
        *error = QStringLiteral("no QCoreApplication");
        return Result::Failed;
    case JobEnd::TimedOut:
        *error = timeoutText("read", m_timeoutMs);
        return Result::Failed;
    case JobEnd::Finished:
        break;
    }
    if (job->error() == QKeychain::EntryNotFound)
        return Result::NotFound;
    if (job->error() != QKeychain::NoError) {
        *error = job->errorString();
        return Result::Failed;
    }
    *value = job->binaryData();
    return Result::Ok;
}

SecretStore::Result SecretStore::keychainWrite(const QString &key, const QByteArray &value, QString *error)
{
    auto *job = new QKeychain::WritePasswordJob(m_service);
    std::unique_ptr<QKeychain::Job> owner(job);
    job->setKey(key);
    job->setBinaryData(value);
    switch (runJob(owner, m_timeoutMs)) {
    case JobEnd::NoEventLoop:
        *error = QStringLiteral("no QCoreApplication");
        return Result::Failed;
    case JobEnd::TimedOut:
        *error = timeoutText("write", m_timeoutMs);
        return Result::Failed;
    case JobEnd::Finished:
        break;
    }
    if (job->error() != QKeychain::NoError) {
        *error = job->errorString();
        return Result::Failed;
    }
    return Result::Ok;
}

SecretStore::Result SecretStore::keychainRemove(const QString &key, QString *error)
{
    auto *job = new QKeychain::DeletePasswordJob(m_service);
    std::unique_ptr<QKeychain::Job> owner(job);
    job->setKey(key);
    switch (runJob(owner, m_timeoutMs)) {
    case JobEnd::NoEventLoop:
        *error = QStringLiteral("no QCoreApplication");
        return Result::Failed;
    case JobEnd::TimedOut:
        *error = timeoutText("delete", m_timeoutMs);
        return Result::Failed;
    case JobEnd::Finished:
        break;
    }
    if (job->error() == QKeychain::EntryNotFound)
        return Result::NotFound;
    if (job->error() != QKeychain::NoError) {
        *error = job->errorString();
        return Result::Failed;
    }
    return Result::Ok;
}

bool SecretStore::probeKeychain(QString *reason)
{
    // Stop at the first failure: QtKeychain runs its jobs one at a time, so after a timeout every
    // further job would only wait behind the stuck one.
    const QByteArray probe = QByteArray::number(QRandomGenerator::system()->generate64(), 16);
    QString error;
    if (keychainWrite(ProbeKey, probe, &error) != Result::Ok) {
        *reason = error.isEmpty() ? QStringLiteral("keychain write failed") : error;
        return false;
    }
    QByteArray back;
    const Result read = keychainRead(ProbeKey, &back, &error);
    if (read != Result::Ok || back != probe) {
        *reason = read == Result::Failed ? error : QStringLiteral("the keychain did not return the value written");
        return false;
    }
    if (keychainRemove(ProbeKey, &error) == Result::Failed) {
        *reason = error;
        return false;
    }
    return true;
}

// --- file fallback ----------------------------------------------------------------------------------
// A JSON object {"key": "<base64 of the value>", ...}, mode 0600, replaced atomically on every change.

void SecretStore::tightenFilePermissions() const
{
    QFile file(m_file);
    if (!file.exists())
        return;
    const QFileDevice::Permissions perms = file.permissions();
    if (!(perms & GroupOrOther))
        return;
    if (file.setPermissions(OwnerOnly))
        qCWarning(lcSecrets).noquote()
            << QStringLiteral("Secrets file %1 was readable by other users; restricted it to its owner (0600)")
                   .arg(QDir::toNativeSeparators(m_file));
    else
        qCWarning(lcSecrets).noquote() << QStringLiteral("Secrets file %1 is readable by other users and could not "
                                                         "be restricted: %2")
                                              .arg(QDir::toNativeSeparators(m_file), file.errorString());
}

bool SecretStore::loadFile(QHash<QString, QByteArray> *values, QString *error) const
{
    values->clear();
    QFile file(m_file);
    if (!file.exists())
        return true;
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return false;
    }
    const QByteArray data = file.readAll();
    if (data.trimmed().isEmpty())
        return true;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("not a JSON object (%1)").arg(parseError.errorString());
        return false;
    }
    const QJsonObject object = doc.object();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const auto decoded =
            QByteArray::fromBase64Encoding(it.value().toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!it.value().isString() || !decoded) {
            *error = QStringLiteral("the value of \"%1\" is not base64").arg(it.key());
            return false;
        }
        values->insert(it.key(), *decoded);
    }
    return true;
}

bool SecretStore::saveFile(const QHash<QString, QByteArray> &values, QString *error) const
{
    QJsonObject object;
    for (auto it = values.begin(); it != values.end(); ++it)
        object.insert(it.key(), QString::fromLatin1(it.value().toBase64()));

    QSaveFile file(m_file);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = file.errorString();
        return false;
    }
    // The temporary file starts empty; restrict it before a single byte of secret goes in.
    if (!file.setPermissions(OwnerOnly)) {
        *error = QStringLiteral("cannot restrict permissions: %1").arg(file.errorString());
        file.cancelWriting();
        return false;
    }
    file.write(QJsonDocument(object).toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        *error = file.errorString();
        return false;
    }
    return true;
}

SecretStore::Result SecretStore::fileRead(const QString &key, QByteArray *value) const
{
    QHash<QString, QByteArray> values;
    QString error;
    if (!loadFile(&values, &error)) {
        qCWarning(lcSecrets).noquote()
            << QStringLiteral("Could not read secrets file %1: %2").arg(QDir::toNativeSeparators(m_file), error);
        return Result::Failed;
    }
    const auto it = values.constFind(key);
    if (it == values.cend())
        return Result::NotFound;
    *value = *it;
    return Result::Ok;
}

bool SecretStore::fileWrite(const QString &key, const std::optional<QByteArray> &value) const
{
    QString error;
    const QString dir = QFileInfo(m_file).absolutePath();
    if (!makePrivateDir(dir)) {
        qCWarning(lcSecrets).noquote()
            << QStringLiteral("Could not create directory %1 for the secrets file").arg(QDir::toNativeSeparators(dir));
        return false;
    }
    // Read-modify-write under a lock so that two copies of Liaison do not lose each other's changes.
    QLockFile lock(m_file + QStringLiteral(".lock"));
    if (!lock.tryLock(m_timeoutMs)) {
        qCWarning(lcSecrets).noquote() << QStringLiteral("Could not lock secrets file %1 (lock error %2)")
                                              .arg(QDir::toNativeSeparators(m_file))
                                              .arg(int(lock.error()));
        return false;
    }
    QHash<QString, QByteArray> values;
    if (!loadFile(&values, &error)) {
        // Never overwrite a file that could not be read: it may hold other secrets.
        qCWarning(lcSecrets).noquote()
            << QStringLiteral("Could not read secrets file %1: %2").arg(QDir::toNativeSeparators(m_file), error);
        return false;
    }
    if (value)
        values.insert(key, *value);
    else if (!values.remove(key))
        return true;
    if (!saveFile(values, &error)) {
        qCWarning(lcSecrets).noquote()
            << QStringLiteral("Could not write secrets file %1: %2").arg(QDir::toNativeSeparators(m_file), error);
        return false;
    }
    return true;
}
