// Team mode as a sales rep sees it: the real desktop program ($LIAISON_BINARY, on Xvfb) and a
// `liaison serve` process on one PostgreSQL database. The window asks who signs in (two accounts), and a
// contact created through the other process's API shows in its Contacts list within a second. A
// database that cannot be reached stops the window with a dialog and exit code 1, not a crash.
#include "tests/support/serveprocess.h"
#include "tests/support/testsupport.h"
#include "tests/support/virtualdisplay.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QSslCertificate>
#include <QTemporaryDir>
#include <QtTest>

using namespace ServeTest;

namespace {
constexpr int kWindowTimeoutMs = 90000;
constexpr qint64 kShownWithinMs = 1000;
} // namespace

class TestWindow : public QObject
{
    Q_OBJECT

    QString m_binary;
    std::unique_ptr<VirtualDisplay> m_display;

    QProcessEnvironment windowEnvironment(const QString &walkDir) const
    {
        QProcessEnvironment env = m_display->programEnvironment();
        if (!walkDir.isEmpty())
            env.insert(QStringLiteral("LIAISON_UI_WALK"), walkDir);
        return env;
    }

    static QStringList readLines(const QString &file)
    {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_binary = qEnvironmentVariable("LIAISON_BINARY");
        QVERIFY2(QFile::exists(m_binary), "LIAISON_BINARY must name the built liaison executable");
        m_display = std::make_unique<VirtualDisplay>();
        QVERIFY2(!m_display->display().isEmpty(), "Xvfb did not start (Debian package xvfb)");
    }

    void cleanupTestCase() { m_display.reset(); }

    void contactFromAnotherCopyShowsWithinASecond()
    {
        TempPostgresDatabase database(QStringLiteral("window"));
        QVERIFY2(database.available(), qPrintable(database.why()));
        QTemporaryDir serveDir;
        QTemporaryDir windowDir;
        const QStringList settings{QStringLiteral("--set"), QStringLiteral("database/url=") + database.url()};
        for (const QStringList &user : {QStringList{"selin@ornek.com.tr", "Selin Aksoy", "admin"},
                                        {"murat@ornek.com.tr", "Murat Çelik", "agent"}}) {
            const ProgramRun added = runProgram(m_binary,
                                                QStringList{"user", "add", "--data-dir", serveDir.path(), "--email",
                                                            user.at(0), "--name", user.at(1), "--role", user.at(2)} +
                                                    settings,
                                                "parola-takim-1\n");
            QVERIFY2(added.exitCode == 0, added.describe());
        }
        const ProgramRun key = runProgram(
            m_binary,
            QStringList{"apikey", "create", "--data-dir", serveDir.path(), "--name", "window-test"} + settings);
        QVERIFY2(key.exitCode == 0, key.describe());
        ServeProcess other(m_binary, serveDir.path(), freePort(), settings);
        QVERIFY2(other.start(), other.describe());
        QFile pem(serveDir.filePath(QStringLiteral("tls/cert.pem")));
        QVERIFY(pem.open(QIODevice::ReadOnly));
        ApiClient client(other.baseUrl(), QSslCertificate(pem.readAll(), QSsl::Pem));
        client.setToken(key.outLines().constLast().trimmed());

        // The window: signs in as the agent, then watches Contacts for the name.
        const QString walkDir = windowDir.filePath(QStringLiteral("walk"));
        const QString name = QStringLiteral("Ilgın");
        QProcess window;
        QProcessEnvironment env = windowEnvironment(walkDir);
        env.insert(QStringLiteral("LIAISON_UI_WALK_SIGNIN"), QStringLiteral("murat@ornek.com.tr|parola-takim-1"));
        env.insert(QStringLiteral("LIAISON_UI_WALK_WATCH"), name);
        window.setProcessEnvironment(env);
        window.setProcessChannelMode(QProcess::MergedChannels);
        window.start(m_binary,
                     QStringList{"--data-dir", windowDir.path(), "--set", "server/listen=127.0.0.1:0"} + settings);
        QVERIFY(window.waitForStarted(10000));
        const QString log = QDir(walkDir).filePath(QStringLiteral("walk.txt"));
        QTRY_VERIFY_WITH_TIMEOUT(readLines(log).contains(QStringLiteral("watching ") + name) ||
                                     window.state() == QProcess::NotRunning,
                                 kWindowTimeoutMs);
        QVERIFY2(window.state() == QProcess::Running, window.readAll().constData());
        QVERIFY2(readLines(log).contains(QStringLiteral("user murat@ornek.com.tr agent")),
                 qPrintable(readLines(log).join('\n')));

        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        const HttpResult created =
            client.post(QStringLiteral("/api/v1/contacts"), {{"firstName", name},
                                                             {"lastName", QStringLiteral("Yücel")},
                                                             {"email", QStringLiteral("ilgin@ornek.com.tr")}});
        QCOMPARE(created.status, 201);
        QByteArray output;
        QVERIFY2(VirtualDisplay::waitForEnd(window, kWindowTimeoutMs, &output), output.constData());
        QVERIFY2(window.exitCode() == 0, output.constData());
        const QStringList seen = readLines(log).filter(QStringLiteral("seen "));
        QCOMPARE(seen.size(), 1);
        const qint64 at = seen.constFirst().section(QLatin1Char(' '), -1).toLongLong();
        QVERIFY2(at > 0, qPrintable(seen.constFirst()));
        const qint64 delay = at - before;
        qInfo("the window showed the contact created through the other copy's API after %lld ms", delay);
        QVERIFY2(delay < kShownWithinMs, qPrintable(QStringLiteral("%1 ms").arg(delay)));
    }

    // A refused connection: one line on stderr, a dialog for the user (Liaison cannot start), exit code 1.
    void unreachableDatabaseStopsWithADialog()
    {
        const quint16 closedPort = freePort();
        QTemporaryDir dir;
        QProcess window;
        window.setProcessEnvironment(windowEnvironment({}));
        window.start(m_binary,
                     {"--data-dir", dir.path(), "--set",
                      QStringLiteral("database/url=postgresql://liaison@127.0.0.1:%1/liaison").arg(closedPort)});
        QVERIFY(window.waitForStarted(10000));
        // The line on stderr, and the dialog waiting for the user while the program runs.
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += window.readAllStandardError()).contains("liaison: database: cannot connect") ||
                                     window.state() == QProcess::NotRunning,
                                 20000);
        QTest::qWait(1000); // negative check: it stays open (the dialog waits for the user)
        QVERIFY2(window.state() == QProcess::Running, err.constData());
        // SIGTERM closes it as its Close button does.
        window.terminate();
        QVERIFY(window.waitForFinished(10000));
        QCOMPARE(window.exitStatus(), QProcess::NormalExit);
        QCOMPARE(window.exitCode(), 1);
    }
};

QTEST_GUILESS_MAIN(TestWindow)
#include "test_window.moc"
