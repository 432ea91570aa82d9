#pragma once

#include "messaging/mail/mailconfig.h"

#include <QByteArray>
#include <QString>

// What the SMTP server made of one message.
struct SmtpOutcome
{
    // Sent: accepted (250 after DATA). HardBounce: a 5xx answer to MAIL FROM, RCPT TO or DATA (the
    // address or the message is refused for good). SoftFailure: a 4xx answer, or the connection,
    // TLS, authentication or a timeout failed, or the settings refuse to send: try again later.
    enum Kind
    {
        Sent,
        HardBounce,
        SoftFailure
    };
    Kind kind = SoftFailure;
    int code = 0;   // the server's last SMTP reply code (0: no answer)
    QString detail; // the server's reply text, or what failed on our side (curl's error)
};

// One SMTP client connection with libcurl (blocking: one per worker thread, never shared between
// threads at once). The connection stays open across send() calls (one CURL easy handle reused) and
// is opened again when the server closed it or a failure made curl drop it. security "starttls"
// refuses a server that does not offer STARTTLS (nothing is sent in clear); "tls" speaks TLS from
// the start (smtps); "none" is plain SMTP and only to a loopback host. AUTH when the user is set.
// The message is sent as given: sign it first (MailComposer).
class SmtpSession
{
public:
    explicit SmtpSession(const MailConfig &config);
    ~SmtpSession();
    SmtpSession(const SmtpSession &) = delete;
    SmtpSession &operator=(const SmtpSession &) = delete;

    // Sends one message (CRLF line ends) to one recipient with envelopeFrom as the MAIL FROM (the
    // per-recipient bounce address). Settings that MailConfig::check() refuses give a SoftFailure
    // without connecting. A failure on a reused connection before the server answered anything is
    // tried once more on a new connection (the message cannot have been accepted).
    SmtpOutcome send(const QString &envelopeFrom, const QString &recipient, const QByteArray &message);
    // Connections opened so far (CURLINFO_NUM_CONNECTS summed): 1 after many sends proves reuse.
    int connectionsOpened() const { return m_connections; }

private:
    SmtpOutcome attempt(const QString &envelopeFrom, const QString &recipient, const QByteArray &message, bool fresh,
                        bool *answered);

    MailConfig m_config;
    QString m_refusal; // why the settings cannot send (empty: they can)
    void *m_curl = nullptr;
    int m_connections = 0;
};
