#pragma once

// A real X server for the tests that start the desktop program as a user does (Debian's xvfb).
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QString>

// Xvfb on the first free display it finds (-displayfd), for as long as this object lives.
class VirtualDisplay
{
public:
    VirtualDisplay()
    {
        const QString xvfb = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
        if (xvfb.isEmpty())
            return;
        m_process.setProgram(xvfb);
        m_process.setArguments({QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-screen"),
                                QStringLiteral("0"), QStringLiteral("1280x800x24"), QStringLiteral("-nolisten"),
                                QStringLiteral("tcp")});
        m_process.start();
        QElapsedTimer t;
        t.start();
        QByteArray out;
        while (t.elapsed() < 15000 && !out.contains('\n') && m_process.state() != QProcess::NotRunning) {
            m_process.waitForReadyRead(200);
            out += m_process.readAllStandardOutput();
        }
        if (out.contains('\n'))
            m_display = QStringLiteral(":") + QString::fromLatin1(out.trimmed());
    }
    ~VirtualDisplay()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(5000))
            m_process.kill();
        m_process.waitForFinished(2000);
    }
    QString display() const { return m_display; }

private:
    QProcess m_process;
    QString m_display;
};
