#pragma once

#include "messaging/mail/mailconfig.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <memory>
#include <utility>

// One e-mail to one recipient, before it is written as MIME (MimeWriter::build).
struct MailMessage
{
    QString fromName, fromAddress, toName, toAddress;
    QString subject, html, text; // text empty: generated from html (HtmlText::toText)
    QString messageId;           // without <>, given by the caller (e.g. "cmp_x.rcp_y@domain")
    // Extra headers in this order, e.g. List-Unsubscribe and List-Unsubscribe-Post; a value that is
    // not ASCII is written as RFC 2047 encoded words.
    QList<std::pair<QByteArray, QString>> headers;
};

// RFC 5322 / MIME writing: CRLF line ends, lines of at most 78 characters (the 998 limit never
// reached), UTF-8 text as quoted-printable body parts and encoded-word headers so Turkish survives.
namespace MimeWriter {
// The whole message: Date, From, To, Subject, Message-ID, MIME-Version, the extra headers, and a
// multipart/alternative body with text/plain then text/html (quoted-printable UTF-8). The MIME
// boundary is derived from the Message-ID and the date (the same input gives the same bytes).
QByteArray build(const MailMessage &m, const QDateTime &date);
// RFC 2047 encoded words (UTF-8, B or Q, whichever is shorter) for a header value; plain ASCII is
// returned unchanged (unless it holds "=?", which a reader would take for an encoded word). A long text becomes several
// words joined by CRLF SP (folded), each at most 60 characters so that a header line with its name stays within 78.
QByteArray encodedWord(const QString &text);
// RFC 2045 quoted-printable of UTF-8 bytes: LF or CRLF become CRLF, soft line breaks keep lines at
// most 76 characters, '=' and bytes outside printable ASCII are escaped, so are a line's trailing
// spaces and tabs.
QByteArray quotedPrintable(const QByteArray &utf8);
// The Date header's value for a time: "Sun, 29 Nov 2026 01:49:35 +0300" (English names, always).
QByteArray dateValue(const QDateTime &date);
// A mailbox for From/To: "addr", or a display name (quoted or encoded as needed) and "<addr>".
QByteArray mailbox(const QString &name, const QString &address);
} // namespace MimeWriter

// The readable text part of an HTML mail.
namespace HtmlText {
// Block elements become line breaks (paragraphs and headings a blank line, list items "- "), links
// "text (url)", images their alt text, entities decoded, white space collapsed, scripts, styles,
// the head and comments dropped.
QString toText(const QString &html);
} // namespace HtmlText

// DKIM signatures (RFC 6376): rsa-sha256, relaxed/relaxed canonicalisation, OpenSSL. The key is
// read once; sign() may be called from several threads at once.
class DkimSigner
{
public:
    // keyPem: an RSA private key in PEM (PKCS#8 "PRIVATE KEY" or PKCS#1 "RSA PRIVATE KEY").
    DkimSigner(const QString &domain, const QString &selector, const QByteArray &keyPem);
    ~DkimSigner();
    DkimSigner(const DkimSigner &) = delete;
    DkimSigner &operator=(const DkimSigner &) = delete;

    // The key was read and is RSA, the domain and selector are set.
    bool isValid() const;
    // The message with a DKIM-Signature header prepended; it signs those of from, to, subject, date,
    // message-id, mime-version, content-type, list-unsubscribe, list-unsubscribe-post that are
    // present (t= the current time). An invalid signer returns the message unchanged.
    QByteArray sign(const QByteArray &message) const;
    // The same with a given signing time (seconds since the epoch), for tests.
    QByteArray sign(const QByteArray &message, qint64 timestamp) const;

    // The relaxed canonical forms (RFC 6376 3.4.2 and 3.4.4), for tests.
    static QByteArray relaxedHeader(const QByteArray &name, const QByteArray &value);
    static QByteArray relaxedBody(const QByteArray &body);

private:
    struct Key;
    QByteArray m_domain, m_selector;
    std::unique_ptr<Key> m_key;
};

// Builds a campaign's message and signs it when DKIM is configured: what a sender hands to
// SmtpSession::send. The from name and address come from the config when the message has none.
class MailComposer
{
public:
    explicit MailComposer(const MailConfig &config);
    ~MailComposer();
    // DKIM is configured but its key cannot be used (the message goes unsigned).
    bool dkimFailed() const { return m_dkimFailed; }
    // May be called from several threads at once.
    QByteArray compose(const MailMessage &message, const QDateTime &date) const;
    // One message without keeping a composer (reads the DKIM key each call).
    static QByteArray compose(const MailConfig &config, const MailMessage &message, const QDateTime &date);

private:
    QString m_fromName, m_fromAddress;
    std::unique_ptr<DkimSigner> m_signer;
    bool m_dkimFailed = false;
};
