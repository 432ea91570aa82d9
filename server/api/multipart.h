#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>
#include <QString>

// multipart/form-data (RFC 7578 over the RFC 2046 framing), parsed without copying the part bodies:
// each part's body is a view into the buffer given to parse(), which must outlive the result.
//
// Strict where a lenient reading could be exploited or would hide a client bug: CRLF line ends
// only, every part needs Content-Disposition: form-data with a name, a header may appear once per
// part, obsolete header folding is refused, Content-Transfer-Encoding other than 7bit/8bit/binary
// is refused, and the body must end with the close delimiter. A line that starts with the
// delimiter but goes on with other bytes ("--boundaryX") is body data, as RFC 2046 §5.1.1 reads.

struct MultipartLimits
{
    int maxParts = 64;
    int maxHeaderBytes = 8 * 1024; // the header block of one part, CRLFs included
    int maxHeadersPerPart = 16;
};

struct MultipartPart
{
    QString name;     // of Content-Disposition, UTF-8 decoded, backslash escapes applied
    QString filename; // filename*=UTF-8''… (RFC 5987) when given, else filename; raw (no path stripping)
    bool hasFilename = false;
    QByteArray contentType; // the part's Content-Type value as sent (trimmed); empty when absent
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArrayView body;

    // The media type of contentType, lower case, without parameters ("image/png"); empty when absent.
    QByteArray mimeType() const;
    QByteArray header(QByteArrayView name) const;
};

class MultipartForm
{
public:
    // contentType: the request's Content-Type value ("multipart/form-data; boundary=…").
    static MultipartForm parse(QByteArrayView contentType, QByteArrayView body, const MultipartLimits &limits = {});
    static MultipartForm parseWithBoundary(QByteArrayView boundary, QByteArrayView body,
                                           const MultipartLimits &limits = {});
    // The boundary parameter of a multipart/form-data Content-Type (quoted or bare, 1 to 70 of
    // RFC 2046's bchars, not ending in a space); empty with *error on failure.
    static QByteArray boundaryOf(QByteArrayView contentType, QString *error);
    // True when the Content-Type names multipart/form-data (parameters not checked).
    static bool isMultipart(QByteArrayView contentType);

    bool isValid() const { return m_error.isEmpty(); }
    // Why the body was refused, for a 400 message ("missing final boundary", …).
    const QString &errorString() const { return m_error; }
    const QList<MultipartPart> &parts() const { return m_parts; }
    // The first part of that name, or null.
    const MultipartPart *part(QStringView name) const;
    int count(QStringView name) const;

private:
    QString m_error;
    QList<MultipartPart> m_parts;
};

// What a client sends; serialize() is used by tests, the fuzzer and the benchmark.
struct MultipartField
{
    QString name;
    QByteArray body;
    QString filename; // with isFile: sent as filename (ASCII) or filename* (otherwise)
    bool isFile = false;
    QByteArray contentType;
};

namespace Multipart {
// Body for these fields with this boundary (the caller makes sure no body contains the delimiter).
QByteArray serialize(const QList<MultipartField> &fields, const QByteArray &boundary);
// A random boundary of 40 characters.
QByteArray makeBoundary();
} // namespace Multipart
