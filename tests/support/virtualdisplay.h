#pragma once

// A real X server for the tests that start the desktop program as a user does (Debian's xvfb).
#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
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
                                QStringLiteral("tcp"),
                                // No reset when the last client leaves: a program started just then
                                // (one test's second start) would find no server ("could not
                                // connect to display").
                                QStringLiteral("-noreset")});
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

    // The environment of a program shown on this display: the X11 platform, English texts unless the
    // test says otherwise, and, under the sanitizer build, LeakSanitizer off for the child (X11, xcb
    // and fontconfig keep allocations to the end that it would report; our own code's leaks are found
    // by the offscreen UI tests; memory errors still abort the program).
    QProcessEnvironment programEnvironment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), m_display);
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
        env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("en"));
        if (env.contains(QStringLiteral("ASAN_OPTIONS")))
            env.insert(QStringLiteral("ASAN_OPTIONS"),
                       env.value(QStringLiteral("ASAN_OPTIONS")) + QStringLiteral(":detect_leaks=0"));
        return env;
    }

    // Waits (bounded) for a started program to end by itself; kills it when it does not. Returns
    // whether it ended in time; *output gets what it printed (merged channels).
    static bool waitForEnd(QProcess &program, int timeoutMs, QByteArray *output)
    {
        const bool finished = program.waitForFinished(timeoutMs);
        *output = program.readAll();
        if (!finished) {
            program.kill();
            program.waitForFinished(5000);
        }
        return finished;
    }

private:
    QProcess m_process;
    QString m_display;
};
