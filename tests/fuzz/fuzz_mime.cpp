// Fuzz target: campaigns' e-mail writing (messaging/mail/mimewriter.cpp, htmltext.cpp). The input is
// text from outside (a campaign's HTML, subject, names): it goes through HtmlText::toText, and as
// bytes through MimeWriter::quotedPrintable and as one line through MimeWriter::encodedWord, and as
// every field of a message through MimeWriter::build. Checked besides crashes and sanitizer
// reports: quoted-printable lines of at most 76 printable ASCII characters that decode back to the
// input; encoded words that decode back to the line; a built message that is 7-bit with CRLF line
// ends of at most 998 characters, and whose header block no field's text can extend.
#include "tests/fuzz/fuzzsupport.h"

#include "messaging/mail/mailmessage.h"

namespace {
void check(bool ok, const char *what)
{
    if (!ok)
        FuzzSupport::fail(what);
}

QByteArray fuzzDecodeQp(const QByteArray &qp)
{
    QByteArray out;
    for (qsizetype i = 0; i < qp.size(); ++i) {
        if (qp[i] == '=' && qp.mid(i + 1, 2) == "\r\n") {
            i += 2;
        } else if (qp[i] == '=' && i + 2 < qp.size()) {
            out += char(qp.mid(i + 1, 2).toInt(nullptr, 16));
            i += 2;
        } else if (qp[i] == '\r' && i + 1 < qp.size() && qp[i + 1] == '\n') {
            out += '\n';
            ++i;
        } else {
            out += qp[i];
        }
    }
    return out;
}

QString fuzzDecodeWords(const QByteArray &value)
{
    if (!value.startsWith("=?"))
        return QString::fromUtf8(value);
    QByteArray bytes;
    for (QByteArray word : value.split('\n')) {
        word = word.trimmed();
        check(word.startsWith("=?UTF-8?") && word.endsWith("?=") && word.size() >= 12, "not an encoded word");
        check(word.size() <= 75, "an encoded word over 75 characters");
        const QByteArray data = word.mid(10, word.size() - 12);
        if (word[8] == 'B') {
            bytes += QByteArray::fromBase64(data);
        } else {
            QByteArray q = data;
            bytes += fuzzDecodeQp(q.replace('_', ' '));
        }
    }
    return QString::fromUtf8(bytes);
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***argv)
{
    FuzzSupport::initApplication(*argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString text = QString::fromUtf8(bytes);

    (void)HtmlText::toText(text);

    const QByteArray qp = MimeWriter::quotedPrintable(bytes);
    for (const QByteArray &line : qp.split('\n')) {
        const QByteArray l = line.endsWith('\r') ? line.chopped(1) : line;
        check(l.size() <= 76, "a quoted-printable line over 76 characters");
        check(!l.endsWith(' ') && !l.endsWith('\t'), "white space at the end of a quoted-printable line");
        for (const char c : l)
            check((c >= 33 && c <= 126) || c == ' ' || c == '\t', "a quoted-printable byte outside printable ASCII");
    }
    check(fuzzDecodeQp(qp) == QByteArray(bytes).replace("\r\n", "\n"), "quoted-printable does not decode back");

    const QString line = text.simplified();
    check(fuzzDecodeWords(MimeWriter::encodedWord(line)) == line, "encoded words do not decode back");

    MailMessage m;
    m.fromName = m.toName = m.subject = text.left(300);
    // Addresses in ASCII (a non-ASCII local part is 8-bit by design: SMTPUTF8), an international
    // domain written in its ASCII form.
    QString ascii;
    for (const QChar c : text.left(100))
        if (c.unicode() < 0x80)
            ascii += c;
    m.fromAddress = m.toAddress = m.messageId = ascii + QStringLiteral("@") + text.left(40).remove(QLatin1Char('@'));
    m.html = text;
    m.headers = {{"X-Fuzz", text.left(200)}};
    const QByteArray mail = MimeWriter::build(m, QDateTime(QDate(2026, 11, 29), QTime(10, 0), Qt::UTC));
    for (qsizetype i = 0; i < mail.size(); ++i) {
        check(static_cast<unsigned char>(mail[i]) < 0x80, "an 8-bit byte in the message");
        check(mail[i] != '\n' || (i > 0 && mail[i - 1] == '\r'), "a bare LF in the message");
    }
    for (const QByteArray &l : mail.split('\n'))
        check(l.size() <= 999, "a line over 998 characters");
    // The header block: Date, From, To, Subject, Message-ID, MIME-Version, X-Fuzz, Content-Type, and
    // their folded continuations only.
    const QByteArray head = mail.left(mail.indexOf("\r\n\r\n"));
    int fields = 0;
    for (const QByteArray &l : head.split('\n'))
        if (!l.startsWith(' ') && !l.startsWith('\t'))
            ++fields;
    check(fields == 8, "a field's text added a header");
    return 0;
}
