#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

// Comma-separated values as RFC 4180 writes them (and spreadsheets read them): fields with the
// separator, a quote or a line break are quoted, a quote doubled inside; lines end with CRLF.
namespace Csv {

// One field as written.
QString field(const QString &value, QChar separator = QLatin1Char(','));
// One line of fields, ending with CRLF.
QString line(const QStringList &fields, QChar separator = QLatin1Char(','));

// Reads a whole text (without a byte order mark) into rows of fields: quoted fields may hold line
// breaks; a quote inside an unquoted field is kept as it is; CRLF, LF and CR end a row; blank lines
// are skipped. lines, when given, receives each row's first line number (1-based).
QVector<QStringList> parse(const QString &text, QChar separator = QLatin1Char(','), QVector<int> *lines = nullptr);

// The separator a file most likely uses, from its first line: ',', ';' or a tab.
QChar guessSeparator(const QString &text);

} // namespace Csv

namespace Csv {
// The text encodings a CSV file is read in: what spreadsheets save in Turkey.
enum class Encoding
{
    Auto, // UTF-8 when the bytes are valid UTF-8, else Windows-1254
    Utf8,
    Windows1254
};
// The encoding of these bytes: Utf8 when they are valid UTF-8 (a byte order mark or not), else
// Windows-1254 (what a Turkish Excel saves).
Encoding detect(const QByteArray &bytes);
// Whether the bytes start with UTF-8's byte order mark.
bool hasByteOrderMark(const QByteArray &bytes);
// The text of a file: UTF-8 (a byte order mark dropped), or Windows-1254 (what a Turkish Excel
// saves) when the bytes are not valid UTF-8.
QString decode(const QByteArray &bytes);
// The text in the given encoding (Auto: as above); invalid UTF-8 becomes U+FFFD.
QString decode(const QByteArray &bytes, Encoding encoding);
// Whether a decoded text looks like a spreadsheet's: no NUL, and control characters (other than tab
// and line ends) in less than 1% of it; a picture, a PDF or an .xlsx workbook is full of them.
bool looksLikeText(const QString &text);

// A CSV file read for an import: the header row's names, the rows below it and each one's first
// line in the file (1-based; the header is line 1), with the encoding and separator used.
struct Table
{
    QStringList header;
    QVector<QStringList> rows;
    QVector<int> lines;
    Encoding encoding = Encoding::Utf8;
    bool byteOrderMark = false;
    QChar separator = QLatin1Char(',');
};
// Reads a file into a Table: encoding Auto detects it, a null separator guesses it (',', ';' or tab).
// Throws DomainError Unprocessable (VALIDATION_ERROR, field "file") when it is not text, or holds
// no header row. Header names are trimmed.
Table read(const QByteArray &file, Encoding encoding = Encoding::Auto, QChar separator = QChar());
// "utf-8" / "windows-1254" (the API's words), and back (nullopt for another word; "auto" is Auto).
QString encodingName(Encoding encoding);
std::optional<Encoding> encodingFromName(const QString &name);
} // namespace Csv
