#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

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
// The text of a file: UTF-8 (a byte order mark dropped), or Windows-1254 (what a Turkish Excel
// saves) when the bytes are not valid UTF-8.
QString decode(const QByteArray &bytes);
} // namespace Csv
