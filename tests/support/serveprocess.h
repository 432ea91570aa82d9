#pragma once

// `liaison serve` as a child process for end-to-end tests ($LIAISON_BINARY): started on a loopback
// port with a data directory and extra arguments, its stdout and stderr collected as they come, and
// its start and exit waited for with bounds.
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTcpServer>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

namespace ServeTest {
constexpr int kStartTimeoutMs = 30000;
constexpr int kStopTimeoutMs = 10000;

inline quint16 freePort()
{
    // Never the same port twice in one test process: two copies given their ports before either
    // listens would otherwise be handed one port when the system gives it back at once.
    static QSet<quint16> given;
    for (int attempt = 0; attempt < 50; ++attempt) {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return 0;
        const quint16 port = probe.serverPort();
        probe.close();
        if (!given.contains(port)) {
            given.insert(port);
            return port;
        }
    }
    return 0;
}

// One `liaison serve` child process; stdout and stderr are collected as they come.
class ServeProcess
{
public:
    ServeProcess(QString binary, QString dataDir, quint16 port, QStringList extraArgs = {})
        : m_binary(std::move(binary))
        , m_dataDir(std::move(dataDir))
        , m_port(port)
        , m_extra(std::move(extraArgs))
    {
        QObject::connect(&m_process, &QProcess::readyReadStandardOutput,
                         [this]() { m_out += m_process.readAllStandardOutput(); });
        QObject::connect(&m_process, &QProcess::readyReadStandardError,
                         [this]() { m_err += m_process.readAllStandardError(); });
    }

    ~ServeProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    // Starts the server and waits (bounded) for the line that says it listens.
    bool start()
    {
        m_out.clear();
        m_err.clear();
        m_process.setProgram(m_binary);
        m_process.setArguments(QStringList{QStringLiteral("serve"), QStringLiteral("--data-dir"), m_dataDir,
                                           QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(m_port)} +
                               m_extra);
        m_process.start();
        if (!m_process.waitForStarted(10000))
            return false;
        static const QRegularExpression listening(QStringLiteral("listening on (https?://\\S+?)/api/v1"));
        QRegularExpressionMatch match;
        const bool ok = QTest::qWaitFor(
            [&]() {
                match = listening.match(QString::fromUtf8(m_out));
                return match.hasMatch() || m_process.state() == QProcess::NotRunning;
            },
            kStartTimeoutMs);
        if (!ok || !match.hasMatch())
            return false;
        m_baseUrl = match.captured(1);
        return true;
    }

    // Waits (bounded) for the process to end; true when it exited normally.
    bool waitForExit(int timeoutMs = kStopTimeoutMs)
    {
        const bool ended = m_process.state() == QProcess::NotRunning ||
                           QTest::qWaitFor([this]() { return m_process.state() == QProcess::NotRunning; }, timeoutMs);
        if (!ended)
            return false;
        m_out += m_process.readAllStandardOutput();
        m_err += m_process.readAllStandardError();
        return m_process.exitStatus() == QProcess::NormalExit;
    }

    void sendSignal(int signal) { ::kill(pid_t(m_process.processId()), signal); }

    QProcess &process() { return m_process; }
    QString baseUrl() const { return m_baseUrl; }
    quint16 port() const { return m_port; }
    QString out() const { return QString::fromUtf8(m_out); }
    QString err() const { return QString::fromUtf8(m_err); }
    QByteArray describe() const
    {
        return QStringLiteral("state %1, exit %2\n--- stdout\n%3--- stderr\n%4")
            .arg(m_process.state())
            .arg(m_process.exitCode())
            .arg(out(), err())
            .toUtf8();
    }

private:
    QString m_binary;
    QString m_dataDir;
    quint16 m_port;
    QStringList m_extra;
    QProcess m_process;
    QByteArray m_out;
    QByteArray m_err;
    QString m_baseUrl;
};

} // namespace ServeTest
