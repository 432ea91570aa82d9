#pragma once

#include <QByteArray>
#include <QString>

// Settings of campaigns' e-mail (section "mail" of liaison.ini and the secrets mail.password and
// mail.dkimKey), read by AppSettings. SmtpSession sends with them, MailComposer signs with them.
struct MailConfig
{
    QString smtpHost;   // mail/smtpHost
    int smtpPort = 587; // mail/smtpPort
    // mail/security: "starttls" (STARTTLS required: a server that does not offer it gets nothing),
    // "tls" (implicit TLS, smtps, usually port 465), "none" (plain SMTP, only to a loopback host).
    QString security = QStringLiteral("starttls");
    QString user;          // mail/user: AUTH when non-empty
    QString password;      // secret mail.password
    QString from;          // mail/from: "Name <addr>" or "addr"
    bool verifyTls = true; // mail/verifyTls: false only for a test server with a self-signed certificate
    // DKIM signing (rsa-sha256, relaxed/relaxed) when all three are set: mail/dkimDomain,
    // mail/dkimSelector, secret mail.dkimKey (a PEM RSA private key).
    QString dkimDomain, dkimSelector;
    QByteArray dkimKeyPem;
    int timeoutSeconds = 30; // each SMTP exchange (connect, and a whole message) must end within it

    static QString securityStartTls() { return QStringLiteral("starttls"); }
    static QString securityTls() { return QStringLiteral("tls"); }
    static QString securityNone() { return QStringLiteral("none"); }

    // A host and a valid from address are set.
    bool configured() const;
    // Throws a DomainError (VALIDATION_ERROR, naming the fields: smtpHost, smtpPort, security, from,
    // dkimKey) unless these settings can send: "none" to a host that is not loopback is refused.
    void check() const;
    // The same as a boolean, for loops that must not throw.
    bool usable() const;
    // DKIM is wanted: domain, selector and key are all set.
    bool dkimConfigured() const;
    // The host is a loopback address ("localhost", 127.0.0.0/8, ::1); no name is resolved.
    static bool isLoopbackHost(const QString &host);

    // Parsed from `from`: the address ("ayse@ornek.com.tr") and the display name ("Ayşe Yılmaz"),
    // empty when none.
    QString fromAddress() const;
    QString fromName() const;
    // A per-recipient envelope sender (VERP) on the from address's domain, so that a bounce names
    // whom it is about: "kampanya+tag@ornek.com.tr" for tag "c1.r2". The tag keeps letters, digits
    // and ".-_="; anything else becomes '-'.
    QString envelopeSender(const QString &tag) const;
};
