#include "messaging/mail/mailmessage.h"

#include <QCryptographicHash>
#include <QTimeZone>
#include <QUrl>

namespace {
constexpr int kMimeLineLimit = 78;
constexpr int kMimeWordLimit = 60; // an encoded word with its =?UTF-8?x? and ?=

bool mimeIsAscii(const QByteArray &bytes)
{
    for (const char c : bytes)
        if (static_cast<unsigned char>(c) >= 0x80)
            return false;
    return true;
}

bool mimeIsPlainHeaderText(const QString &text)
{
    for (const QChar c : text)
        if (c.unicode() >= 0x80 || (c.unicode() < 0x20 && c != QLatin1Char('\t')))
            return false;
    return true;
}

// Q encoding of one UTF-8 chunk (RFC 2047 5(3), the set that is safe in a phrase too).
QByteArray mimeQChunk(const QByteArray &utf8)
{
    static const char hex[] = "0123456789ABCDEF";
    QByteArray out;
    for (const char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == ' ')
            out += '_';
        else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '!' || c == '*' ||
                 c == '+' || c == '-' || c == '/')
            out += char(c);
        else {
            out += '=';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

QByteArray mimeWord(const QByteArray &utf8, bool b)
{
    return "=?UTF-8?" + QByteArray(b ? "B?" : "Q?") + (b ? utf8.toBase64() : mimeQChunk(utf8)) + "?=";
}

// Folds an unstructured ASCII header line at spaces so that its lines stay within 78 characters
// where a space allows it (a longer word stays whole: 998 is the hard limit).
QByteArray mimeFoldAscii(const QByteArray &line)
{
    if (line.size() <= kMimeLineLimit)
        return line;
    QByteArray out;
    int lineStart = 0; // index in out where the current line starts
    const QList<QByteArray> words = line.split(' ');
    for (int i = 0; i < words.size(); ++i) {
        if (i == 0) {
            out = words[0];
            continue;
        }
        if (out.size() - lineStart + 1 + words[i].size() > kMimeLineLimit && out.size() > lineStart) {
            out += "\r\n";
            lineStart = out.size();
        }
        out += ' ';
        out += words[i];
    }
    return out;
}

// RFC 2047 words of at most `limit` characters (MimeWriter::encodedWord).
QByteArray mimeEncodedWords(const QString &text, int limit);

// An address or a Message-ID as it may stand in a header: white space, control characters and
// angle brackets dropped (they would end the header or the address early), an international
// domain in its ASCII form (a non-ASCII local part stays UTF-8: only SMTPUTF8 servers take it).
QByteArray mimeAddrSpec(const QString &address)
{
    QString clean;
    for (const QChar c : address)
        if (c.unicode() > 0x20 && c.unicode() != 0x7f && c != QLatin1Char('<') && c != QLatin1Char('>') &&
            !c.isSpace() && c.category() != QChar::Other_Control)
            clean += c;
    const qsizetype at = clean.lastIndexOf(QLatin1Char('@'));
    const QString domain = at < 0 ? QString() : clean.mid(at + 1);
    if (!domain.isEmpty() && !mimeIsPlainHeaderText(domain)) {
        const QByteArray ace = QUrl::toAce(domain);
        if (!ace.isEmpty())
            return clean.left(at + 1).toUtf8() + ace;
        // Not a domain at all: its letters outside ASCII become '-' (the header stays 7-bit).
        QString ascii = domain;
        for (QChar &c : ascii)
            if (c.unicode() >= 0x80)
                c = QLatin1Char('-');
        return clean.left(at + 1).toUtf8() + ascii.toLatin1();
    }
    return clean.toUtf8();
}

QByteArray mimeHeader(const QByteArray &name, const QByteArray &value)
{
    // Several encoded words are folded already (words without spaces, so no folding at spaces could
    // split them); a long name then gets its line of its own. Anything else folds at its spaces.
    if (value.contains("\r\n")) {
        const int firstLine = int(value.indexOf("\r\n"));
        if (name.size() + 2 + firstLine > kMimeLineLimit)
            return name + ":\r\n " + value + "\r\n";
        return name + ": " + value + "\r\n";
    }
    return mimeFoldAscii(name + ": " + value) + "\r\n";
}

QByteArray mimeHeaderText(const QByteArray &name, const QString &value)
{
    QString v = value;
    v.replace(QLatin1Char('\r'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
    return mimeHeader(name, MimeWriter::encodedWord(v));
}

QByteArray mimeBodyPart(const QByteArray &type, const QString &text)
{
    return "Content-Type: " + type + "; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
           MimeWriter::quotedPrintable(text.toUtf8());
}
} // namespace

QByteArray MimeWriter::quotedPrintable(const QByteArray &utf8)
{
    static const char hex[] = "0123456789ABCDEF";
    QByteArray out;
    out.reserve(utf8.size() + utf8.size() / 4);
    const QList<QByteArray> lines = utf8.split('\n');
    for (int li = 0; li < lines.size(); ++li) {
        QByteArray line = lines[li];
        if (line.endsWith('\r') && li + 1 < lines.size()) // the CR of a CRLF (a last lone CR is data)
            line.chop(1);
        if (li > 0)
            out += "\r\n";
        int length = 0;
        for (int i = 0; i < line.size(); ++i) {
            const auto c = static_cast<unsigned char>(line[i]);
            const bool last = i == line.size() - 1;
            char token[3];
            int tokenSize = 1;
            // A line's "From " is escaped too: mbox writers would turn it into ">From " (and break DKIM).
            const bool from = i == 0 && line.startsWith("From ");
            if (((c >= 33 && c <= 126 && c != '=') || ((c == ' ' || c == '\t') && !last)) && !from) {
                token[0] = char(c);
            } else {
                token[0] = '=';
                token[1] = hex[c >> 4];
                token[2] = hex[c & 15];
                tokenSize = 3;
            }
            // A line may hold 76 characters; one that goes on needs the last of them for the '='.
            if (length + tokenSize > (last ? 76 : 75)) {
                out += "=\r\n";
                length = 0;
            }
            out.append(token, tokenSize);
            length += tokenSize;
        }
    }
    return out;
}

QByteArray MimeWriter::encodedWord(const QString &text)
{
    return mimeEncodedWords(text, kMimeWordLimit);
}

namespace {
QByteArray mimeEncodedWords(const QString &text, int limit)
{
    const QByteArray utf8 = text.toUtf8();
    // Plain ASCII stays as it is, unless it looks like an encoded word (a reader would decode it).
    if (mimeIsPlainHeaderText(text) && !text.contains(QLatin1String("=?")))
        return utf8;
    const bool b = utf8.toBase64().size() < mimeQChunk(utf8).size();
    // Words of whole characters (never a UTF-8 sequence or a surrogate pair cut in two).
    QList<QByteArray> words;
    QByteArray chunk;
    const QList<uint> codePoints = text.toUcs4();
    for (const uint cp : codePoints) {
        const QByteArray bytes = QString::fromUcs4(reinterpret_cast<const char32_t *>(&cp), 1).toUtf8();
        if (!chunk.isEmpty() && mimeWord(chunk + bytes, b).size() > limit) {
            words += mimeWord(chunk, b);
            chunk.clear();
        }
        chunk += bytes;
    }
    if (!chunk.isEmpty())
        words += mimeWord(chunk, b);
    return words.join("\r\n ");
}
} // namespace

QByteArray MimeWriter::dateValue(const QDateTime &date)
{
    static const char *const days[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const QDateTime d = date.isValid() ? date : QDateTime::currentDateTimeUtc();
    const int offset = d.offsetFromUtc();
    const QDate day = d.date();
    const QTime time = d.time();
    const int absMinutes = qAbs(offset) / 60;
    return QByteArray(days[day.dayOfWeek() - 1]) + ", " + QByteArray::number(day.day()) + ' ' +
           months[day.month() - 1] + ' ' + QByteArray::number(day.year()) + ' ' +
           time.toString(QStringLiteral("HH:mm:ss")).toLatin1() + ' ' + (offset < 0 ? '-' : '+') +
           QStringLiteral("%1%2")
               .arg(absMinutes / 60, 2, 10, QLatin1Char('0'))
               .arg(absMinutes % 60, 2, 10, QLatin1Char('0'))
               .toLatin1();
}

QByteArray MimeWriter::mailbox(const QString &name, const QString &address)
{
    const QByteArray addr = mimeAddrSpec(address);
    QString n = name.simplified();
    if (n.isEmpty())
        return addr;
    QByteArray phrase;
    if (!mimeIsPlainHeaderText(n)) {
        // One word up to RFC 2047's 75 characters where it fits: decoders that wrongly keep the space
        // between two encoded words of a name (Python's before 3.13) then show it right too.
        phrase = mimeEncodedWords(n, 75);
    } else {
        static const QByteArray specials = "()<>[]:;@\\,.\"";
        bool quote = false;
        for (const QChar c : n)
            quote = quote || specials.contains(char(c.unicode()));
        phrase = n.toUtf8();
        if (quote)
            phrase = '"' + phrase.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
    // After several encoded words the address goes on a line of its own; after one line, the
    // header's folding at spaces moves it there when the line would be too long.
    return phrase + (phrase.contains("\r\n") ? "\r\n <" : " <") + addr + '>';
}

QByteArray MimeWriter::build(const MailMessage &m, const QDateTime &date)
{
    const QString text = m.text.isEmpty() ? HtmlText::toText(m.html) : m.text;
    const QByteArray dateText = dateValue(date);
    // "=_" never occurs in quoted-printable text, so the boundary cannot occur in a part.
    const QByteArray boundary =
        "=_lsn_" + QCryptographicHash::hash(m.messageId.toUtf8() + dateText, QCryptographicHash::Sha1).toHex().left(24);

    QByteArray out;
    out.reserve(256 + (text.size() + m.html.size()) * 5 / 4);
    out += mimeHeader("Date", dateText);
    out += mimeHeader("From", mailbox(m.fromName, m.fromAddress));
    out += mimeHeader("To", mailbox(m.toName, m.toAddress));
    out += mimeHeaderText("Subject", m.subject);
    if (!m.messageId.isEmpty())
        out += mimeHeader("Message-ID", '<' + mimeAddrSpec(m.messageId) + '>');
    out += "MIME-Version: 1.0\r\n";
    for (const auto &[name, value] : m.headers) {
        if (name.isEmpty() || name.contains(':') || name.contains(' ') || !mimeIsAscii(name))
            continue; // not a header name
        out += mimeHeaderText(name, value);
    }
    out += "Content-Type: multipart/alternative;\r\n boundary=\"" + boundary + "\"\r\n";
    out += "\r\nThis is a multi-part message in MIME format.\r\n";
    out += "\r\n--" + boundary + "\r\n";
    out += mimeBodyPart("text/plain", text);
    out += "\r\n--" + boundary + "\r\n";
    out += mimeBodyPart("text/html", m.html);
    out += "\r\n--" + boundary + "--\r\n";
    return out;
}
