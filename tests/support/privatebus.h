#pragma once

#include <QProcess>
#include <QStandardPaths>
#include <QString>

// A D-Bus session of a test's own (`dbus-daemon --session`), where the test registers a fake
// desktop service (the settings portal, the notification service) without touching the user's.
// Stopped when it goes. available() is false, with why(), when dbus-daemon is missing or did not
// start: the test skips then.
class PrivateSessionBus
{
public:
    PrivateSessionBus()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("dbus-daemon")).isEmpty()) {
            m_why = QStringLiteral("dbus-daemon is missing (Debian package dbus)");
            return;
        }
        m_daemon.start(QStringLiteral("dbus-daemon"),
                       {QStringLiteral("--session"), QStringLiteral("--nofork"), QStringLiteral("--print-address")});
        if (!m_daemon.waitForStarted(5000) || !m_daemon.waitForReadyRead(5000)) {
            m_why = QStringLiteral("dbus-daemon did not start: %1").arg(m_daemon.errorString());
            return;
        }
        m_address = QString::fromUtf8(m_daemon.readLine()).trimmed();
        if (m_address.isEmpty())
            m_why = QStringLiteral("dbus-daemon printed no address");
    }
    ~PrivateSessionBus()
    {
        m_daemon.terminate();
        m_daemon.waitForFinished(5000);
    }
    PrivateSessionBus(const PrivateSessionBus &) = delete;
    PrivateSessionBus &operator=(const PrivateSessionBus &) = delete;

    bool available() const { return !m_address.isEmpty(); }
    QString why() const { return m_why; }
    QString address() const { return m_address; }

private:
    QProcess m_daemon;
    QString m_address;
    QString m_why;
};
