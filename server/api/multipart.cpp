#include "server/api/multipart.h"

#include <QByteArrayMatcher>
#include <QRandomGenerator>
#include <QStringDecoder>

#include <algorithm>
#include <cstring>
#include <optional>

namespace {
using Params = QList<QPair<QByteArray, QByteArray>>;

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}

QByteArrayView trimmed(QByteArrayView v)
{
    while (!v.isEmpty() && isSpace(v.front()))
        v = v.sliced(1);
    while (!v.isEmpty() && isSpace(v.back()))
        v.chop(1);
    return v;
}

// RFC 7230 tchar: what a header or parameter name may hold.
bool isTokenChar(char c)
{
    const uchar u = uchar(c);
    if (u <= 32 || u >= 127)
        return false;
    return !std::strchr("()<>@,;:\\\"/[]?={}", c);
}

// RFC 2046 bchars (a space is allowed but not last).
bool isBoundaryChar(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c != 0 && std::strchr("'()+_,-./:=? ", c));
}

QByteArray lower(QByteArrayView v)
{
    return v.toByteArray().toLower();
}

std::optional<QString> utf8(QByteArrayView bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString s = decoder.decode(bytes);
    if (decoder.hasError())
        return std::nullopt;
    return s;
}

// "type; a=b; c=\"d;e\"": the first item lower-cased, then the parameters (names lower-cased, values
// unquoted with backslash escapes applied). Refuses unterminated quotes, a parameter without '=',
// stray bytes after a quoted value and a parameter given twice.
bool parseParams(QByteArrayView value, QByteArray *first, Params *params, QString *error)
{
    qsizetype i = 0;
    const qsizetype n = value.size();
    qsizetype semi = value.indexOf(';');
    if (semi < 0)
        semi = n;
    *first = lower(trimmed(value.first(semi)));
    i = semi;
    while (i < n) {
        ++i; // ';'
        while (i < n && isSpace(value[i]))
            ++i;
        if (i >= n)
            break; // a trailing ';' is harmless
        const qsizetype nameStart = i;
        while (i < n && value[i] != '=' && value[i] != ';')
            ++i;
        const QByteArrayView rawName = trimmed(value.sliced(nameStart, i - nameStart));
        if (rawName.isEmpty() || !std::all_of(rawName.begin(), rawName.end(), isTokenChar)) {
            *error = QStringLiteral("malformed parameter name \"%1\"")
                         .arg(QString::fromLatin1(rawName.first(qMin<qsizetype>(40, rawName.size()))));
            return false;
        }
        const QByteArray name = lower(rawName);
        if (i >= n || value[i] != '=') {
            *error = QStringLiteral("parameter %1 has no value").arg(QString::fromLatin1(name));
            return false;
        }
        ++i; // '='
        while (i < n && isSpace(value[i]))
            ++i;
        QByteArray v;
        if (i < n && value[i] == '"') {
            ++i;
            bool closed = false;
            while (i < n) {
                const char c = value[i];
                if (c == '\\') {
                    if (i + 1 >= n)
                        break;
                    v += value[i + 1];
                    i += 2;
                } else if (c == '"') {
                    ++i;
                    closed = true;
                    break;
                } else {
                    v += c;
                    ++i;
                }
            }
            if (!closed) {
                *error = QStringLiteral("parameter %1: unterminated quoted string").arg(QString::fromLatin1(name));
                return false;
            }
            while (i < n && isSpace(value[i]))
                ++i;
            if (i < n && value[i] != ';') {
                *error = QStringLiteral("parameter %1: unexpected characters after the quoted value")
                             .arg(QString::fromLatin1(name));
                return false;
            }
        } else {
            const qsizetype start = i;
            while (i < n && value[i] != ';')
                ++i;
            const QByteArrayView bare = trimmed(value.sliced(start, i - start));
            for (char c : bare) {
                if (c == '"' || isSpace(c) || uchar(c) < 32 || uchar(c) == 127) {
                    *error = QStringLiteral("parameter %1: an unquoted value may not hold spaces, quotes or "
                                            "control characters")
                                 .arg(QString::fromLatin1(name));
                    return false;
                }
            }
            v = bare.toByteArray();
        }
        for (const auto &p : std::as_const(*params)) {
            if (p.first == name) {
                *error = QStringLiteral("parameter %1 given twice").arg(QString::fromLatin1(name));
                return false;
            }
        }
        params->append({name, v});
    }
    return true;
}

const QByteArray *param(const Params &params, QByteArrayView name)
{
    for (const auto &p : params) {
        if (p.first == name)
            return &p.second;
    }
    return nullptr;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// RFC 5987 ext-value: charset'[language]'pct-encoded, charset UTF-8 or ISO-8859-1.
std::optional<QString> decodeExtValue(QByteArrayView v, QString *error)
{
    const qsizetype q1 = v.indexOf('\'');
    const qsizetype q2 = q1 < 0 ? -1 : v.indexOf('\'', q1 + 1);
    if (q1 < 0 || q2 < 0) {
        *error = QStringLiteral("filename* must be charset'language'value (RFC 5987)");
        return std::nullopt;
    }
    const QByteArray charset = lower(v.first(q1));
    if (charset != "utf-8" && charset != "iso-8859-1") {
        *error = QStringLiteral("filename*: charset must be UTF-8 or ISO-8859-1");
        return std::nullopt;
    }
    QByteArray bytes;
    const QByteArrayView enc = v.sliced(q2 + 1);
    for (qsizetype i = 0; i < enc.size(); ++i) {
        const char c = enc[i];
        if (c == '%') {
            const int hi = i + 2 < enc.size() ? hexValue(enc[i + 1]) : -1;
            const int lo = hi < 0 ? -1 : hexValue(enc[i + 2]);
            if (lo < 0) {
                *error = QStringLiteral("filename*: malformed percent-encoding");
                return std::nullopt;
            }
            bytes += char(hi * 16 + lo);
            i += 2;
        } else if (uchar(c) <= 32 || uchar(c) >= 127 || c == '\'' || c == '"') {
            *error = QStringLiteral("filename*: characters outside attr-char must be percent-encoded");
            return std::nullopt;
        } else {
            bytes += c;
        }
    }
    if (charset == "iso-8859-1")
        return QString::fromLatin1(bytes);
    const std::optional<QString> s = utf8(bytes);
    if (!s)
        *error = QStringLiteral("filename*: not valid UTF-8");
    return s;
}

QString partError(int index, const QString &what)
{
    return QStringLiteral("part %1: %2").arg(index).arg(what);
}

// The headers of one part (the block without its final CRLF CRLF).
bool parseHeaders(QByteArrayView block, int index, const MultipartLimits &limits, MultipartPart *part, QString *error)
{
    qsizetype pos = 0;
    while (pos < block.size()) {
        qsizetype end = block.indexOf("\r\n", pos);
        if (end < 0)
            end = block.size();
        const QByteArrayView line = block.sliced(pos, end - pos);
        pos = end + 2;
        if (line.isEmpty()) {
            *error = partError(index, QStringLiteral("empty header line"));
            return false;
        }
        if (isSpace(line.front())) {
            *error = partError(index, QStringLiteral("folded header lines are not accepted"));
            return false;
        }
        for (char c : line) {
            if ((uchar(c) < 32 && c != '\t') || uchar(c) == 127) {
                *error = partError(index, QStringLiteral("control character in a header line"));
                return false;
            }
        }
        const qsizetype colon = line.indexOf(':');
        const QByteArrayView name = colon < 0 ? QByteArrayView() : line.first(colon);
        if (name.isEmpty() || !std::all_of(name.begin(), name.end(), isTokenChar)) {
            *error = partError(index, QStringLiteral("malformed header line \"%1\"")
                                          .arg(QString::fromLatin1(line.first(qMin<qsizetype>(60, line.size())))));
            return false;
        }
        if (part->headers.size() >= limits.maxHeadersPerPart) {
            *error = partError(index, QStringLiteral("more than %1 headers").arg(limits.maxHeadersPerPart));
            return false;
        }
        for (const auto &h : std::as_const(part->headers)) {
            if (h.first.compare(name, Qt::CaseInsensitive) == 0) {
                *error = partError(index, QStringLiteral("duplicate header %1").arg(QString::fromLatin1(name)));
                return false;
            }
        }
        part->headers.append({name.toByteArray(), trimmed(line.sliced(colon + 1)).toByteArray()});
    }

    const QByteArray disposition = part->header("Content-Disposition");
    if (disposition.isNull()) {
        *error = partError(index, QStringLiteral("no Content-Disposition header"));
        return false;
    }
    QByteArray kind;
    Params params;
    QString why;
    if (!parseParams(disposition, &kind, &params, &why)) {
        *error = partError(index, QStringLiteral("Content-Disposition: %1").arg(why));
        return false;
    }
    if (kind != "form-data") {
        *error = partError(index, QStringLiteral("Content-Disposition must be form-data"));
        return false;
    }
    const QByteArray *name = param(params, "name");
    if (!name || name->isEmpty()) {
        *error = partError(index, QStringLiteral("Content-Disposition has no name"));
        return false;
    }
    const std::optional<QString> decodedName = utf8(*name);
    if (!decodedName) {
        *error = partError(index, QStringLiteral("the name is not valid UTF-8"));
        return false;
    }
    part->name = *decodedName;
    if (const QByteArray *ext = param(params, "filename*")) {
        const std::optional<QString> f = decodeExtValue(*ext, &why);
        if (!f) {
            *error = partError(index, why);
            return false;
        }
        part->filename = *f;
        part->hasFilename = true;
    } else if (const QByteArray *plain = param(params, "filename")) {
        const std::optional<QString> f = utf8(*plain);
        if (!f) {
            *error = partError(index, QStringLiteral("the filename is not valid UTF-8"));
            return false;
        }
        part->filename = *f;
        part->hasFilename = true;
    }

    const QByteArray type = part->header("Content-Type");
    if (!type.isNull()) {
        QByteArray mime;
        Params typeParams;
        if (!parseParams(type, &mime, &typeParams, &why)) {
            *error = partError(index, QStringLiteral("Content-Type: %1").arg(why));
            return false;
        }
        const qsizetype slash = mime.indexOf('/');
        if (slash <= 0 || slash == mime.size() - 1 || mime.count('/') != 1 ||
            !std::all_of(mime.begin(), mime.end(), [](char c) { return c == '/' || isTokenChar(c); })) {
            *error = partError(index, QStringLiteral("Content-Type must be type/subtype"));
            return false;
        }
        part->contentType = type;
    }
    const QByteArray encoding = part->header("Content-Transfer-Encoding").toLower();
    if (!encoding.isNull() && encoding != "binary" && encoding != "8bit" && encoding != "7bit") {
        *error = partError(index, QStringLiteral("Content-Transfer-Encoding %1 is not supported (send binary)")
                                      .arg(QString::fromLatin1(encoding.left(40))));
        return false;
    }
    return true;
}

enum class LineEnd
{
    NotDelimiter, // the bytes after the boundary make it body data
    Truncated,    // the body ends inside the delimiter line
    Part,         // CRLF: a part follows
    Close,        // "--": the close delimiter
};

// What follows "--boundary" at pos: "--", or transport padding (spaces, tabs) then CRLF.
LineEnd lineEnd(QByteArrayView body, qsizetype pos, qsizetype *next)
{
    const qsizetype n = body.size();
    if (pos + 1 < n && body[pos] == '-' && body[pos + 1] == '-')
        return LineEnd::Close;
    if (pos + 1 >= n && (pos >= n || body[pos] == '-'))
        return LineEnd::Truncated;
    while (pos < n && isSpace(body[pos]))
        ++pos;
    if (pos >= n || (body[pos] == '\r' && pos + 1 >= n))
        return LineEnd::Truncated;
    if (body[pos] == '\r' && body[pos + 1] == '\n') {
        *next = pos + 2;
        return LineEnd::Part;
    }
    return LineEnd::NotDelimiter;
}
} // namespace

QByteArray MultipartPart::mimeType() const
{
    const qsizetype semi = contentType.indexOf(';');
    return trimmed(QByteArrayView(contentType).first(semi < 0 ? contentType.size() : semi)).toByteArray().toLower();
}

QByteArray MultipartPart::header(QByteArrayView name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return QByteArray();
}

bool MultipartForm::isMultipart(QByteArrayView contentType)
{
    const qsizetype semi = contentType.indexOf(';');
    return trimmed(contentType.first(semi < 0 ? contentType.size() : semi))
               .compare("multipart/form-data", Qt::CaseInsensitive) == 0;
}

QByteArray MultipartForm::boundaryOf(QByteArrayView contentType, QString *error)
{
    QByteArray type;
    Params params;
    QString why;
    if (!parseParams(contentType, &type, &params, &why)) {
        *error = QStringLiteral("malformed Content-Type: %1").arg(why);
        return {};
    }
    if (type != "multipart/form-data") {
        *error = QStringLiteral("Content-Type must be multipart/form-data");
        return {};
    }
    const QByteArray *b = param(params, "boundary");
    if (!b || b->isEmpty()) {
        *error = QStringLiteral("Content-Type has no boundary parameter");
        return {};
    }
    if (b->size() > 70 || b->endsWith(' ') || !std::all_of(b->begin(), b->end(), isBoundaryChar)) {
        *error = QStringLiteral("the boundary must be 1 to 70 characters of RFC 2046 (letters, digits, "
                                "'()+_,-./:=? ), not ending in a space");
        return {};
    }
    return *b;
}

MultipartForm MultipartForm::parse(QByteArrayView contentType, QByteArrayView body, const MultipartLimits &limits)
{
    MultipartForm form;
    const QByteArray boundary = boundaryOf(contentType, &form.m_error);
    if (boundary.isEmpty())
        return form;
    return parseWithBoundary(boundary, body, limits);
}

MultipartForm MultipartForm::parseWithBoundary(QByteArrayView boundary, QByteArrayView body,
                                               const MultipartLimits &limits)
{
    MultipartForm form;
    if (boundary.isEmpty() || boundary.size() > 70) {
        form.m_error = QStringLiteral("the boundary must be 1 to 70 characters");
        return form;
    }
    const QByteArray delimiter = QByteArrayLiteral("\r\n--") + boundary.toByteArray();
    const QByteArrayMatcher matcher(delimiter);
    const auto find = [&](qsizetype from) { return matcher.indexIn(body.data(), body.size(), from); };

    // The first delimiter: "--boundary" at the very start, or after a preamble ending in CRLF.
    qsizetype next = -1;
    LineEnd end = LineEnd::NotDelimiter;
    if (body.startsWith(QByteArrayView(delimiter).sliced(2)))
        end = lineEnd(body, delimiter.size() - 2, &next);
    qsizetype at = 0;
    while (end == LineEnd::NotDelimiter) {
        at = find(at);
        if (at < 0) {
            form.m_error = QStringLiteral("no boundary line: the body must start with --<boundary>");
            return form;
        }
        end = lineEnd(body, at + delimiter.size(), &next);
        ++at;
    }

    int index = 0;
    while (end != LineEnd::Close) {
        if (end == LineEnd::Truncated) {
            form.m_error = QStringLiteral("the body ends inside a boundary line (missing final boundary)");
            return form;
        }
        ++index;
        if (index > limits.maxParts) {
            form.m_error = QStringLiteral("more than %1 parts").arg(limits.maxParts);
            return form;
        }
        MultipartPart part;
        // The header block ends at the first CRLF CRLF, or at once (CRLF) when the part has none.
        qsizetype bodyStart;
        if (body.sliced(next).startsWith("\r\n")) {
            form.m_error = partError(index, QStringLiteral("no Content-Disposition header"));
            return form;
        }
        const qsizetype window = qMin<qsizetype>(body.size() - next, qsizetype(limits.maxHeaderBytes) + 4);
        const qsizetype headerEnd = body.sliced(next, window).indexOf("\r\n\r\n");
        if (headerEnd < 0) {
            form.m_error =
                window < qsizetype(limits.maxHeaderBytes) + 4
                    ? partError(index, QStringLiteral("the headers do not end (no blank line; missing "
                                                      "final boundary?)"))
                    : partError(index, QStringLiteral("headers longer than %1 bytes").arg(limits.maxHeaderBytes));
            return form;
        }
        if (!parseHeaders(body.sliced(next, headerEnd), index, limits, &part, &form.m_error))
            return form;
        bodyStart = next + headerEnd + 4;

        at = bodyStart;
        end = LineEnd::NotDelimiter;
        qsizetype found = -1;
        while (end == LineEnd::NotDelimiter) {
            found = find(at);
            if (found < 0) {
                form.m_error = partError(index, QStringLiteral("missing final boundary"));
                return form;
            }
            end = lineEnd(body, found + delimiter.size(), &next);
            at = found + 1;
        }
        part.body = body.sliced(bodyStart, found - bodyStart);
        form.m_parts.append(std::move(part));
    }
    return form;
}

const MultipartPart *MultipartForm::part(QStringView name) const
{
    for (const MultipartPart &p : m_parts) {
        if (p.name == name)
            return &p;
    }
    return nullptr;
}

int MultipartForm::count(QStringView name) const
{
    return int(
        std::count_if(m_parts.begin(), m_parts.end(), [name](const MultipartPart &p) { return p.name == name; }));
}

namespace Multipart {
namespace {
QByteArray quoted(const QByteArray &v)
{
    QByteArray out = "\"";
    for (char c : v) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + '"';
}

bool printableAscii(const QByteArray &v)
{
    return std::all_of(v.begin(), v.end(), [](char c) { return uchar(c) >= 32 && uchar(c) < 127; });
}
} // namespace

QByteArray serialize(const QList<MultipartField> &fields, const QByteArray &boundary)
{
    QByteArray out;
    qsizetype total = 0;
    for (const MultipartField &f : fields)
        total += f.body.size() + 256;
    out.reserve(total + boundary.size() + 8);
    for (const MultipartField &f : fields) {
        out += "--" + boundary + "\r\nContent-Disposition: form-data; name=" + quoted(f.name.toUtf8());
        if (f.isFile) {
            const QByteArray name = f.filename.toUtf8();
            if (printableAscii(name))
                out += "; filename=" + quoted(name);
            else
                out += "; filename*=UTF-8''" + name.toPercentEncoding();
        }
        out += "\r\n";
        if (!f.contentType.isEmpty())
            out += "Content-Type: " + f.contentType + "\r\n";
        out += "\r\n";
        out += f.body;
        out += "\r\n";
    }
    out += "--" + boundary + "--\r\n";
    return out;
}

QByteArray makeBoundary()
{
    static const char chars[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    QByteArray b = "----LiaisonBoundary";
    for (int i = 0; i < 21; ++i)
        b += chars[QRandomGenerator::global()->bounded(62)];
    return b;
}
} // namespace Multipart
