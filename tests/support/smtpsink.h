#pragma once

// The local SMTP sink of the e-mail tests and benchmarks (tests/support/smtpsink.py, Debian's
// python3-aiosmtpd and python3-dkim): started with QProcess in a throwaway directory on a free
// loopback port, STARTTLS with a self-signed certificate (send with verifyTls off), AUTH when a user
// is given, each message written as NNNNNN.eml and NNNNNN.json (envelope, decoded headers and
// parts, TLS, AUTH, DKIM verified). Addresses whose local part starts with "hard-bounce" get 550 on
// RCPT, "soft-bounce" 451. The script ends with this object, and on its own when the test process
// ends in any way (it watches its standard input).

#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <utility>

class SmtpSink
{
public:
    struct Options
    {
        QString user, password;      // AUTH required (over TLS only) when the user is set
        bool offerStartTls = true;   // false: a server without STARTTLS
        bool requireStartTls = true; // refuse mail commands before STARTTLS
        bool implicitTls = false;    // TLS from the first byte (smtps)
        QByteArray dkimPublicKeyPem; // verify DKIM with this key (the JSON's dkim: true/false)
        QString dkimSelector, dkimDomain;
        bool envelopeOnly = false;     // keep only each message's recipients (recipients(); fast)
        bool countOnly = false;        // benchmarks: accept and count, write nothing per message
        double idleTimeoutSeconds = 0; // > 0: the server closes a connection silent this long (421)
    };

    SmtpSink();
    explicit SmtpSink(const Options &options);
    ~SmtpSink();
    SmtpSink(const SmtpSink &) = delete;
    SmtpSink &operator=(const SmtpSink &) = delete;

    // It printed READY (within 20 s of starting); errorText() says why not.
    bool isReady() const { return m_port != 0; }
    quint16 port() const { return m_port; }
    QString directory() const { return m_dir.path(); }
    QString errorText() const { return m_error; }
    // The script's process id (benchmarks read its CPU time from /proc), 0 when not running.
    qint64 processId() const { return m_process ? m_process->processId() : 0; }
    // The messages received so far, in order, from their JSON files.
    QList<QJsonObject> messages() const;
    int messageCount() const;
    // envelopeOnly: every recipient of every message accepted, in order (one per message).
    QStringList recipients() const;
    // Waits (at most timeoutMs) until `count` messages were written.
    bool waitForMessages(int count, int timeoutMs = 10000) const;
    // The raw bytes of message number (1-based).
    QByteArray rawMessage(int number) const;
    // Connections that have ended so far, or that the server is closing for silence.
    int closedConnections() const;
    // Stops the script (SIGTERM, then SIGKILL after 3 s); the files stay until this object ends.
    void stop();

    // A 2048-bit RSA key for DKIM made with Debian's openssl command in dir as <name>.pem:
    // {private PEM, public PEM}, both empty when openssl failed.
    static std::pair<QByteArray, QByteArray> makeRsaKey(const QString &dir, const QString &name);

    // The script's path: LIAISON_SOURCE_DIR's tests/support/smtpsink.py, else this tree's.
    static QString scriptPath();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
    QString m_error;
};
