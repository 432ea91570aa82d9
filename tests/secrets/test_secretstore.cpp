// The secret store against its two real backends: the owner-only file (no keychain service answers)
// and a real secret service (gnome-keyring through QtKeychain/libsecret).
//
// The test functions run in declaration order and the order matters: GLib keeps the session bus
// connection of the process once one succeeded, so the cases that point DBUS_SESSION_BUS_ADDRESS at a
// missing or silent bus run before keychain(), the only case that may connect to a working bus.
//
// keychain() never touches a real user's entries under another service name: the service name is unique
// per run. When this process has no session bus, keychain() runs itself again as a child process in a
// throwaway session (dbus-run-session + gnome-keyring-daemon, fresh HOME and XDG_RUNTIME_DIR).

#include "app/secrets/secretstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUuid>
#include <QtTest>

#include <cerrno>
#include <cstring>
#include <functional>
#include <memory>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

const char ChildEnv[] = "LIAISON_KEYCHAIN_CHILD";

// Sets (or unsets) an environment variable for one scope.
class EnvGuard
{
public:
    EnvGuard(const char *name, const QByteArray &value)
        : m_name(name)
        , m_had(qEnvironmentVariableIsSet(name))
        , m_old(qgetenv(name))
    {
        qputenv(name, value);
    }
    ~EnvGuard()
    {
        if (m_had)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }
    EnvGuard(const EnvGuard &) = delete;
    EnvGuard &operator=(const EnvGuard &) = delete;

private:
    const char *m_name;
    bool m_had;
    QByteArray m_old;
};

int fileMode(const QString &path)
{
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

QJsonObject fileJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

bool writeRaw(const QString &path, const QByteArray &data, QFileDevice::Permissions perms)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    const bool ok = file.write(data) == data.size();
    file.close();
    return ok && file.setPermissions(perms);
}

const QByteArray BinaryValue("\0se\0cret\xff\x00\x01", 11);

// A Unix socket that is listened on and never read: connections wait in the backlog, unanswered.
class SilentSocket
{
public:
    explicit SilentSocket(const QString &path)
    {
        const QByteArray name = QFile::encodeName(path);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        if (size_t(name.size()) >= sizeof(address.sun_path))
            return;
        memcpy(address.sun_path, name.constData(), size_t(name.size()));
        m_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (m_fd >= 0 &&
            (::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 || ::listen(m_fd, 8) != 0)) {
            ::close(m_fd);
            m_fd = -1;
        }
    }
    ~SilentSocket() { close(); }
    SilentSocket(const SilentSocket &) = delete;
    SilentSocket &operator=(const SilentSocket &) = delete;
    bool isListening() const { return m_fd >= 0; }
    void close()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }

private:
    int m_fd = -1;
};

bool sessionBusLikely()
{
    if (!qEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS").isEmpty())
        return true;
    const QString runtimeDir = qEnvironmentVariable("XDG_RUNTIME_DIR");
    return !runtimeDir.isEmpty() && QFileInfo::exists(runtimeDir + QStringLiteral("/bus"));
}

} // namespace

class TestSecretStore : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void fileFallback();
    void widePermissionsAreTightened();
    void unreadableFileIsNeverOverwritten();
    void silentBusIsBoundedByTheTimeout();
    void keychain(); // keep last: see the comment at the top

private:
    // The round trips both backends must pass; `reopen` makes a second store on the same backend.
    void checkRoundTrips(SecretStore &store, const std::function<std::unique_ptr<SecretStore>()> &reopen);
    void keychainInProcess();
    void keychainInThrowawaySession();

    QString uniqueService() const
    {
        return QStringLiteral("liaison-test-%1").arg(QUuid::createUuid().toString(QUuid::WithoutBraces));
    }
};

void TestSecretStore::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestSecretStore::checkRoundTrips(SecretStore &store, const std::function<std::unique_ptr<SecretStore>()> &reopen)
{
    QVERIFY(!store.read(QStringLiteral("missing")));

    // write / read / remove
    QVERIFY(store.write(QStringLiteral("smtp/password"), "hunter2"));
    QCOMPARE(store.read(QStringLiteral("smtp/password")).value_or("<none>"), QByteArray("hunter2"));
    QVERIFY(store.write(QStringLiteral("smtp/password"), "changed"));
    QCOMPARE(store.read(QStringLiteral("smtp/password")).value_or("<none>"), QByteArray("changed"));
    QVERIFY(store.remove(QStringLiteral("smtp/password")));
    QVERIFY(!store.read(QStringLiteral("smtp/password")));
    QVERIFY(store.remove(QStringLiteral("smtp/password"))); // already gone: still true

    // binary values with NUL bytes, and an empty value that is not "missing"
    QVERIFY(store.write(QStringLiteral("binary"), BinaryValue));
    QCOMPARE(store.read(QStringLiteral("binary")).value_or("<none>"), BinaryValue);
    QVERIFY(store.write(QStringLiteral("empty"), QByteArray()));
    const auto empty = store.read(QStringLiteral("empty"));
    QVERIFY(empty.has_value());
    QVERIFY(empty->isEmpty());

    // getOrCreate: created once with the right length, then the same bytes
    const QByteArray jwt = store.getOrCreate(QStringLiteral("jwt/signing-key"), 48);
    QCOMPARE(jwt.size(), 48);
    QCOMPARE(store.getOrCreate(QStringLiteral("jwt/signing-key"), 48), jwt);
    QCOMPARE(store.getOrCreate(QStringLiteral("jwt/signing-key"), 16), jwt); // the stored value wins
    const QByteArray other = store.getOrCreate(QStringLiteral("other-key"), 48);
    QCOMPARE(other.size(), 48);
    QVERIFY(other != jwt);
    QCOMPARE(store.getOrCreate(QStringLiteral("odd"), 5).size(), 5);

    // overrides: returned, never persisted, and the stored value is untouched
    QVERIFY(store.write(QStringLiteral("telegram/token"), "stored-token"));
    store.setOverride(QStringLiteral("telegram/token"), "command-line-token");
    store.setOverride(QStringLiteral("only-override"), "cli-only");
    QCOMPARE(store.read(QStringLiteral("telegram/token")).value_or("<none>"), QByteArray("command-line-token"));
    QCOMPARE(store.read(QStringLiteral("only-override")).value_or("<none>"), QByteArray("cli-only"));
    QCOMPARE(store.getOrCreate(QStringLiteral("only-override"), 32), QByteArray("cli-only"));

    // a second store on the same backend sees what was written, and none of the overrides
    std::unique_ptr<SecretStore> again = reopen();
    QVERIFY(again);
    QCOMPARE(again->open(), store.backend());
    QCOMPARE(again->read(QStringLiteral("binary")).value_or("<none>"), BinaryValue);
    QCOMPARE(again->read(QStringLiteral("jwt/signing-key")).value_or("<none>"), jwt);
    QCOMPARE(again->getOrCreate(QStringLiteral("jwt/signing-key"), 48), jwt);
    QCOMPARE(again->read(QStringLiteral("telegram/token")).value_or("<none>"), QByteArray("stored-token"));
    QVERIFY(!again->read(QStringLiteral("only-override")));

    for (const char *key : {"binary", "empty", "jwt/signing-key", "other-key", "odd", "telegram/token"})
        QVERIFY2(again->remove(QString::fromLatin1(key)), key);
    QVERIFY(!again->read(QStringLiteral("binary")));
}

void TestSecretStore::fileFallback()
{
    // No bus at that address: QtKeychain (libsecret) fails at once and the store takes the file.
    EnvGuard bus("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("data/private/secrets.json"));
    const QString service = uniqueService();

    // exactly one warning per store, naming the reason; anything else warned fails the test
    const QRegularExpression expected(
        QStringLiteral("^No keychain service \\(.+\\): secrets are kept in .*secrets\\.json"));
    QTest::failOnWarning(QRegularExpression(QStringLiteral(".")));
    QTest::ignoreMessage(QtWarningMsg, expected);

    SecretStore store(service, file);
    QVERIFY(!store.isOpen());
    QCOMPARE(store.backendDescription(), QStringLiteral("not opened"));
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(store.open(), SecretStore::Backend::File);
    QVERIFY2(clock.elapsed() < SecretStore::DefaultTimeoutMs, "a missing bus must fail fast");
    QCOMPARE(store.backend(), SecretStore::Backend::File);
    QCOMPARE(store.open(), SecretStore::Backend::File); // probed once: no second warning
    const QString description = store.backendDescription();
    QVERIFY2(description.startsWith(QStringLiteral("file %1 (no keychain service: ").arg(file)),
             qPrintable(description));
    QVERIFY2(description.size() > QStringLiteral("file %1 (no keychain service: )").arg(file).size(),
             qPrintable(description));
    QVERIFY(!QFileInfo::exists(file)); // nothing written yet

    QVERIFY(store.write(QStringLiteral("smtp/password"), "hunter2"));
    QCOMPARE(fileMode(file), 0600);
    QCOMPARE(fileMode(dir.filePath(QStringLiteral("data"))), 0700);
    QCOMPARE(fileMode(dir.filePath(QStringLiteral("data/private"))), 0700);
    QCOMPARE(fileJson(file).value(QStringLiteral("smtp/password")).toString(),
             QString::fromLatin1(QByteArray("hunter2").toBase64()));
    QVERIFY(store.remove(QStringLiteral("smtp/password")));

    QTest::ignoreMessage(QtWarningMsg, expected); // the reopened store warns once too
    checkRoundTrips(store, [&] { return std::make_unique<SecretStore>(service, file); });
    if (QTest::currentTestFailed())
        return;

    // still owner-only after all those rewrites, no lock file left behind, overrides written nowhere
    QCOMPARE(fileMode(file), 0600);
    QVERIFY(!QFileInfo::exists(file + QStringLiteral(".lock")));
    const QJsonObject json = fileJson(file);
    QVERIFY(!json.contains(QStringLiteral("only-override")));
    QVERIFY2(json.isEmpty(), qPrintable(QJsonDocument(json).toJson()));
    QFile raw(file);
    QVERIFY(raw.open(QIODevice::ReadOnly));
    QVERIFY(!raw.readAll().contains("command-line-token"));

    // a value created by getOrCreate survives into a later run
    const QByteArray key = store.getOrCreate(QStringLiteral("jwt/signing-key"), 32);
    QCOMPARE(key.size(), 32);
    QTest::ignoreMessage(QtWarningMsg, expected);
    SecretStore later(service, file);
    QCOMPARE(later.getOrCreate(QStringLiteral("jwt/signing-key"), 32), key);
    QCOMPARE(QByteArray::fromBase64(fileJson(file).value(QStringLiteral("jwt/signing-key")).toString().toLatin1()),
             key);
}

void TestSecretStore::widePermissionsAreTightened()
{
    EnvGuard bus("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("secrets.json"));
    QJsonObject json;
    json.insert(QStringLiteral("smtp/password"), QString::fromLatin1(BinaryValue.toBase64()));
    QVERIFY(
        writeRaw(file, QJsonDocument(json).toJson(),
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
    QCOMPARE(fileMode(file), 0644);

    QTest::failOnWarning(QRegularExpression(QStringLiteral(".")));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^Secrets file .*secrets\\.json was readable "
                                                                         "by other users; restricted it")));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^No keychain service")));
    SecretStore store(uniqueService(), file);
    QCOMPARE(store.open(), SecretStore::Backend::File);
    QCOMPARE(fileMode(file), 0600);
    QCOMPARE(store.read(QStringLiteral("smtp/password")).value_or("<none>"), BinaryValue);

    // a rewrite keeps it owner-only
    QVERIFY(store.write(QStringLiteral("other"), "x"));
    QCOMPARE(fileMode(file), 0600);
    QCOMPARE(store.read(QStringLiteral("smtp/password")).value_or("<none>"), BinaryValue);
}

void TestSecretStore::unreadableFileIsNeverOverwritten()
{
    EnvGuard bus("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("secrets.json"));
    const QByteArray garbage("{ this is not json");
    QVERIFY(writeRaw(file, garbage, QFileDevice::ReadOwner | QFileDevice::WriteOwner));

    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^No keychain service")));
    SecretStore store(uniqueService(), file);
    QCOMPARE(store.open(), SecretStore::Backend::File);

    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^Could not read secrets file")));
    QVERIFY(!store.read(QStringLiteral("jwt/signing-key")));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^Could not read secrets file")));
    QVERIFY(!store.write(QStringLiteral("jwt/signing-key"), "x"));
    // getOrCreate must not mint a new key when the stored one cannot be read
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^Could not read secrets file")));
    QVERIFY(store.getOrCreate(QStringLiteral("jwt/signing-key"), 32).isEmpty());

    QFile check(file);
    QVERIFY(check.open(QIODevice::ReadOnly));
    QCOMPARE(check.readAll(), garbage);
}

void TestSecretStore::silentBusIsBoundedByTheTimeout()
{
    // A "bus" that accepts the connection and never answers: the probe must give up after the timeout.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString socketPath = dir.filePath(QStringLiteral("silent-bus"));
    SilentSocket silent(socketPath);
    QVERIFY2(silent.isListening(), strerror(errno));
    {
        EnvGuard bus("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + QFile::encodeName(socketPath));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^No keychain service \\(.*timed out")));
        // GLib joins a new attempt to reach the session bus to one still under way: on a busy
        // machine an earlier case's attempt (at /nonexistent) can still be, and this probe then
        // fails at once with its "No such file". Asked again, the silent bus is what answers (not).
        std::unique_ptr<SecretStore> probe;
        qint64 elapsed = 0;
        for (int attempt = 0; attempt < 3 && elapsed < 600; ++attempt) {
            if (attempt > 0)
                QTest::qWait(500);
            probe = std::make_unique<SecretStore>(uniqueService(), dir.filePath(QStringLiteral("secrets.json")));
            probe->setTimeout(700);
            QElapsedTimer clock;
            clock.start();
            QCOMPARE(probe->open(), SecretStore::Backend::File);
            elapsed = clock.elapsed();
        }
        SecretStore &store = *probe;
        QVERIFY2(elapsed >= 600 && elapsed < 3000, qPrintable(QString::number(elapsed)));
        QVERIFY2(store.backendDescription().contains(QStringLiteral("timed out")),
                 qPrintable(store.backendDescription()));
        QVERIFY(store.write(QStringLiteral("k"), "v"));
        QCOMPARE(store.read(QStringLiteral("k")).value_or("<none>"), QByteArray("v"));
    }

    // Once the silent bus goes away, the job left waiting ends and QtKeychain serves later jobs again
    // (they run one at a time): a later probe gets its own, fast answer.
    silent.close();
    EnvGuard bus("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent");
    SecretStore later(uniqueService(), dir.filePath(QStringLiteral("later.json")));
    later.setTimeout(10000);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^No keychain service")));
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(later.open(), SecretStore::Backend::File);
    QVERIFY2(!later.backendDescription().contains(QStringLiteral("timed out")), qPrintable(later.backendDescription()));
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
}

void TestSecretStore::keychain()
{
    if (qEnvironmentVariableIsSet(ChildEnv) || sessionBusLikely())
        keychainInProcess();
    else
        keychainInThrowawaySession();
}

void TestSecretStore::keychainInProcess()
{
    const bool child = qEnvironmentVariableIsSet(ChildEnv);
    const QString service = uniqueService();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("secrets.json"));

    SecretStore store(service, file);
    const SecretStore::Backend backend = store.open();
    if (backend != SecretStore::Backend::Keychain) {
        // A bus without an unlocked secret service (a locked desktop keyring, a container with a bus
        // only): test against a throwaway one instead. In the throwaway session itself that is a failure.
        QVERIFY2(!child, qPrintable(store.backendDescription()));
        keychainInThrowawaySession();
        return;
    }
    QTest::failOnWarning(QRegularExpression(QStringLiteral(".")));
    QCOMPARE(store.backendDescription(), QStringLiteral("system keychain"));

    checkRoundTrips(store, [&] { return std::make_unique<SecretStore>(service, file); });
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(!QFileInfo::exists(file), "the keychain backend must not write the file");

    // A secret written to the file while no keychain ran moves into the keychain on first read.
    QJsonObject json;
    json.insert(QStringLiteral("jwt/signing-key"), QString::fromLatin1(BinaryValue.toBase64()));
    json.insert(QStringLiteral("unrelated"), QStringLiteral("eA=="));
    QVERIFY(writeRaw(file, QJsonDocument(json).toJson(), QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    QCOMPARE(store.read(QStringLiteral("jwt/signing-key")).value_or("<none>"), BinaryValue);
    QVERIFY(!fileJson(file).contains(QStringLiteral("jwt/signing-key")));
    QVERIFY(fileJson(file).contains(QStringLiteral("unrelated")));
    SecretStore again(service, file);
    QCOMPARE(again.open(), SecretStore::Backend::Keychain);
    QCOMPARE(again.read(QStringLiteral("jwt/signing-key")).value_or("<none>"), BinaryValue);
    QVERIFY(again.remove(QStringLiteral("jwt/signing-key")));
    QVERIFY(!again.read(QStringLiteral("jwt/signing-key")));
    QVERIFY(again.remove(QStringLiteral("unrelated")));
    QVERIFY(!fileJson(file).contains(QStringLiteral("unrelated")));
}

void TestSecretStore::keychainInThrowawaySession()
{
    for (const char *tool : {"dbus-run-session", "gnome-keyring-daemon"})
        QVERIFY2(!QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty(),
                 qPrintable(QStringLiteral("%1 is needed (packages dbus, gnome-keyring)").arg(QLatin1String(tool))));

    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QString runtimeDir = home.filePath(QStringLiteral("run"));
    QVERIFY(QDir().mkdir(runtimeDir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // Everything that could lead to the real user's keyring or pick another QtKeychain backend goes.
    for (const char *name :
         {"DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP", "DESKTOP_SESSION",
          "KDE_FULL_SESSION", "KDE_SESSION_VERSION", "GNOME_DESKTOP_SESSION_ID", "XDG_DATA_HOME", "XDG_CONFIG_HOME",
          "XDG_CACHE_HOME", "XDG_STATE_HOME", "GNOME_KEYRING_CONTROL"})
        env.remove(QString::fromLatin1(name));
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtimeDir);
    env.insert(QString::fromLatin1(ChildEnv), QStringLiteral("1"));

    QProcess process;
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(home.path());
    process.setProcessChannelMode(QProcess::MergedChannels);
    // The unlocked "login" keyring becomes the default collection; the daemon ends with the session.
    const QString script = QStringLiteral(
        "printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 3; exec \"$0\" \"$@\"");
    process.start(QStringLiteral("dbus-run-session"),
                  {QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), script,
                   QCoreApplication::applicationFilePath(), QStringLiteral("keychain")});
    QVERIFY2(process.waitForStarted(10000), qPrintable(process.errorString()));
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished(5000);
        QFAIL(qPrintable(QStringLiteral("the keychain child did not finish in 120 s:\n%1")
                             .arg(QString::fromLocal8Bit(process.readAll()))));
    }
    const QString output = QString::fromLocal8Bit(process.readAll());
    QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0,
             qPrintable(QStringLiteral("keychain child failed (exit %1):\n%2").arg(process.exitCode()).arg(output)));
    QVERIFY2(output.contains(QStringLiteral("PASS   : TestSecretStore::keychain()")), qPrintable(output));
}

QTEST_GUILESS_MAIN(TestSecretStore)
#include "test_secretstore.moc"
