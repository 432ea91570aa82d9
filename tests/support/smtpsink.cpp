#include "tests/support/smtpsink.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QThread>

#ifndef LIAISON_SMTPSINK_SCRIPT
#define LIAISON_SMTPSINK_SCRIPT ""
#endif

QString SmtpSink::scriptPath()
{
    const QString root = qEnvironmentVariable("LIAISON_SOURCE_DIR");
    if (!root.isEmpty() && QFile::exists(root + QStringLiteral("/tests/support/smtpsink.py")))
        return root + QStringLiteral("/tests/support/smtpsink.py");
    return QStringLiteral(LIAISON_SMTPSINK_SCRIPT);
}

SmtpSink::SmtpSink()
    : SmtpSink(Options())
{
}

SmtpSink::SmtpSink(const Options &options)
{
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("no temporary directory");
        return;
    }
    QStringList args{QStringLiteral("-W"), QStringLiteral("ignore"), scriptPath(), QStringLiteral("--port"),
                     QStringLiteral("0"),  QStringLiteral("--dir"),  m_dir.path()};
    if (!options.user.isEmpty())
        args << QStringLiteral("--user") << options.user << QStringLiteral("--password") << options.password;
    if (!options.offerStartTls)
        args << QStringLiteral("--no-starttls");
    else if (options.requireStartTls)
        args << QStringLiteral("--require-starttls");
    if (options.implicitTls)
        args << QStringLiteral("--implicit-tls");
    if (options.countOnly)
        args << QStringLiteral("--count-only");
    if (options.envelopeOnly)
        args << QStringLiteral("--envelope-only");
    if (options.idleTimeoutSeconds > 0)
        args << QStringLiteral("--idle-timeout") << QString::number(options.idleTimeoutSeconds);
    if (!options.dkimPublicKeyPem.isEmpty()) {
        const QString keyFile = m_dir.filePath(QStringLiteral("dkim-public.pem"));
        QFile f(keyFile);
        if (f.open(QIODevice::WriteOnly))
            f.write(options.dkimPublicKeyPem);
        f.close();
        args << QStringLiteral("--dkim-public-key") << keyFile << QStringLiteral("--dkim-selector")
             << options.dkimSelector << QStringLiteral("--dkim-domain") << options.dkimDomain;
    }
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    // Standard input stays open: the script ends when it closes, that is when this process ends.
    m_process->start(QStringLiteral("/usr/bin/python3"), args);
    if (!m_process->waitForStarted(10000)) {
        m_error = QStringLiteral("cannot start /usr/bin/python3: ") + m_process->errorString();
        return;
    }
    QByteArray out;
    const QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired() && m_process->state() == QProcess::Running && !out.contains('\n')) {
        m_process->waitForReadyRead(int(qMax<qint64>(1, qMin<qint64>(deadline.remainingTime(), 500))));
        out += m_process->readAllStandardOutput();
    }
    const QByteArray line = out.left(out.indexOf('\n')).trimmed();
    if (line.startsWith("READY ")) {
        m_port = quint16(line.mid(6).toUInt());
    } else {
        m_error = QStringLiteral("the SMTP sink did not start: ") + QString::fromUtf8(out) +
                  QString::fromUtf8(m_process->readAllStandardError());
        stop();
    }
}

SmtpSink::~SmtpSink()
{
    stop();
}

void SmtpSink::stop()
{
    if (!m_process || m_process->state() == QProcess::NotRunning)
        return;
    m_process->terminate();
    if (!m_process->waitForFinished(3000)) {
        m_process->kill();
        m_process->waitForFinished(3000);
    }
}

QList<QJsonObject> SmtpSink::messages() const
{
    QList<QJsonObject> result;
    const QStringList files =
        QDir(m_dir.path()).entryList({QStringLiteral("[0-9][0-9][0-9][0-9][0-9][0-9].json")}, QDir::Files, QDir::Name);
    for (const QString &name : files) {
        QFile f(m_dir.filePath(name));
        if (f.open(QIODevice::ReadOnly))
            result.append(QJsonDocument::fromJson(f.readAll()).object());
    }
    return result;
}

QStringList SmtpSink::recipients() const
{
    QFile f(m_dir.filePath(QStringLiteral("recipients.log")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    // A line being written has no end yet: it counts once whole.
    const QByteArray all = f.readAll();
    const qsizetype end = all.lastIndexOf('\n');
    return end < 0 ? QStringList() : QString::fromUtf8(all.left(end)).split(QLatin1Char('\n'));
}

int SmtpSink::messageCount() const
{
    if (QFile::exists(m_dir.filePath(QStringLiteral("recipients.log"))))
        return int(recipients().size());
    return int(
        QDir(m_dir.path()).entryList({QStringLiteral("[0-9][0-9][0-9][0-9][0-9][0-9].json")}, QDir::Files).size());
}

bool SmtpSink::waitForMessages(int count, int timeoutMs) const
{
    const QDeadlineTimer deadline(timeoutMs);
    while (messageCount() < count) {
        if (deadline.hasExpired())
            return false;
        QThread::msleep(20);
    }
    return true;
}

int SmtpSink::closedConnections() const
{
    QFile f(m_dir.filePath(QStringLiteral("closed.txt")));
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toInt() : 0;
}

QByteArray SmtpSink::rawMessage(int number) const
{
    QFile f(m_dir.filePath(QStringLiteral("%1.eml").arg(number, 6, 10, QLatin1Char('0'))));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::pair<QByteArray, QByteArray> SmtpSink::makeRsaKey(const QString &dir, const QString &name)
{
    const QString key = dir + QLatin1Char('/') + name + QStringLiteral(".pem");
    QProcess gen;
    gen.start(QStringLiteral("openssl"),
              {QStringLiteral("genpkey"), QStringLiteral("-algorithm"), QStringLiteral("RSA"),
               QStringLiteral("-pkeyopt"), QStringLiteral("rsa_keygen_bits:2048"), QStringLiteral("-out"), key});
    if (!gen.waitForFinished(60000) || gen.exitCode() != 0)
        return {};
    QProcess pub;
    pub.start(QStringLiteral("openssl"),
              {QStringLiteral("pkey"), QStringLiteral("-in"), key, QStringLiteral("-pubout")});
    if (!pub.waitForFinished(30000) || pub.exitCode() != 0)
        return {};
    QFile f(key);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return {f.readAll(), pub.readAllStandardOutput()};
}
