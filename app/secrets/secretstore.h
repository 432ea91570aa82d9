#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>

#include <optional>

// Secrets (JWT signing key, channel tokens, SMTP password) live in the OS keychain through QtKeychain.
// Where no keychain service answers (a server, CI, a container) they fall back to a JSON file that only
// the owner can read, and open() says so with one warning.
//
// Not thread-safe: use a store from one thread that runs a Qt event loop (normally the main thread),
// after the QCoreApplication exists. Values are not cached: every read() asks the backend, so a value
// written by another copy of Liaison is seen.
class SecretStore
{
public:
    enum class Backend
    {
        Keychain,
        File
    };

    // How long one keychain call may take before the keychain counts as unavailable.
    static constexpr int DefaultTimeoutMs = 5000;

    // service: the keychain service name ("liaison" plus, in tests, something unique);
    // fallbackFile: e.g. DATA/secrets.json, used (mode 0600, owner only) when no keychain service answers.
    SecretStore(QString service, QString fallbackFile);

    SecretStore(const SecretStore &) = delete;
    SecretStore &operator=(const SecretStore &) = delete;

    // Probes the keychain once (write/read/delete of a probe entry, each bounded by the timeout); on
    // failure switches to the file with ONE qWarning naming the reason. A fallback file with wider
    // permissions than 0600 is tightened (with a warning). The first read(), write(), remove() or
    // getOrCreate() calls it when nobody did; later calls return the backend chosen the first time.
    Backend open();
    bool isOpen() const { return m_opened; }
    Backend backend() const { return m_backend; }
    // "system keychain" / "file <path> (no keychain service: <reason>)"
    QString backendDescription() const;
    QString service() const { return m_service; }
    QString fallbackFile() const { return m_file; }

    // Bound of each later keychain call (including the probe of open()), in milliseconds.
    void setTimeout(int ms) { m_timeoutMs = ms; }
    int timeout() const { return m_timeoutMs; }

    // The override when one is set, else the stored value; std::nullopt when there is none or the
    // backend failed (logged with the key, never with a value).
    std::optional<QByteArray> read(const QString &key);
    // Stores the value. An override given for the key still wins for read() during this run.
    bool write(const QString &key, const QByteArray &value);
    // Removes the stored value; true when it is gone (also when there was none). Overrides stay.
    bool remove(const QString &key);
    // Returns the stored value, or creates `randomBytes` cryptographically random bytes, stores and returns
    // them. Returns an empty array (and logs why) when the backend fails or a new value cannot be stored,
    // so that a key never silently changes from one start to the next.
    QByteArray getOrCreate(const QString &key, int randomBytes);
    // A value given on the command line (--set): used for this run, returned by read(), written nowhere.
    void setOverride(const QString &key, const QByteArray &value);

private:
    enum class Result
    {
        Ok,
        NotFound,
        Failed
    };
    Result readStored(const QString &key, QByteArray *value);

    Result keychainRead(const QString &key, QByteArray *value, QString *error);
    Result keychainWrite(const QString &key, const QByteArray &value, QString *error);
    Result keychainRemove(const QString &key, QString *error);
    bool probeKeychain(QString *reason);

    bool loadFile(QHash<QString, QByteArray> *values, QString *error) const;
    bool saveFile(const QHash<QString, QByteArray> &values, QString *error) const;
    Result fileRead(const QString &key, QByteArray *value) const;
    bool fileWrite(const QString &key, const std::optional<QByteArray> &value) const; // nullopt removes
    void tightenFilePermissions() const;

    QString m_service;
    QString m_file;
    int m_timeoutMs = DefaultTimeoutMs;
    bool m_opened = false;
    Backend m_backend = Backend::File;
    QString m_fallbackReason;
    QHash<QString, QByteArray> m_overrides;
};
