#include "model/core/csv.h"

#include "model/core/errors.h"

#include <QStringDecoder>

QString Csv::field(const QString &value, QChar separator)
{
    bool quote = false;
    for (QChar c : value) {
        if (c == separator || c == QLatin1Char('"') || c == QLatin1Char('\n') || c == QLatin1Char('\r')) {
            quote = true;
            break;
        }
    }
    if (!quote)
        return value;
    QString out = value;
    out.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

QString Csv::line(const QStringList &fields, QChar separator)
{
    QString out;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i)
            out += separator;
        out += field(fields.at(i), separator);
    }
    out += QLatin1String("\r\n");
    return out;
}

QVector<QStringList> Csv::parse(const QString &text, QChar separator, QVector<int> *lines)
{
    QVector<QStringList> rows;
    QStringList row;
    QString cur;
    bool inQuotes = false;
    bool fieldStarted = false; // something was read into this row (a field, a separator)
    int line = 1;
    int rowLine = 1;
    const qsizetype n = text.size();
    auto endRow = [&] {
        if (fieldStarted || !cur.isEmpty()) {
            row.append(cur);
            rows.append(row);
            if (lines)
                lines->append(rowLine);
        }
        row.clear();
        cur.clear();
        fieldStarted = false;
    };
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = text.at(i);
        if (inQuotes) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < n && text.at(i + 1) == QLatin1Char('"')) {
                    cur += QLatin1Char('"');
                    ++i;
                } else {
                    inQuotes = false;
                }
            } else {
                if (c == QLatin1Char('\n'))
                    ++line;
                cur += c;
            }
            continue;
        }
        if (c == QLatin1Char('"') && cur.isEmpty()) {
            inQuotes = true;
            fieldStarted = true;
        } else if (c == separator) {
            row.append(cur);
            cur.clear();
            fieldStarted = true;
        } else if (c == QLatin1Char('\r') || c == QLatin1Char('\n')) {
            if (c == QLatin1Char('\r') && i + 1 < n && text.at(i + 1) == QLatin1Char('\n'))
                ++i;
            endRow();
            ++line;
            rowLine = line;
        } else {
            cur += c;
        }
    }
    endRow();
    return rows;
}

QChar Csv::guessSeparator(const QString &text)
{
    const qsizetype end = text.indexOf(QLatin1Char('\n'));
    const QString first = end < 0 ? text : text.left(end);
    int comma = 0, semicolon = 0, tab = 0;
    bool inQuotes = false;
    for (QChar c : first) {
        if (c == QLatin1Char('"'))
            inQuotes = !inQuotes;
        else if (!inQuotes && c == QLatin1Char(','))
            ++comma;
        else if (!inQuotes && c == QLatin1Char(';'))
            ++semicolon;
        else if (!inQuotes && c == QLatin1Char('\t'))
            ++tab;
    }
    if (tab > comma && tab >= semicolon)
        return QLatin1Char('\t');
    if (semicolon > comma)
        return QLatin1Char(';');
    return QLatin1Char(',');
}

bool Csv::hasByteOrderMark(const QByteArray &bytes)
{
    return bytes.startsWith("\xEF\xBB\xBF");
}

Csv::Encoding Csv::detect(const QByteArray &bytes)
{
    QByteArrayView data(bytes);
    if (hasByteOrderMark(bytes))
        data = data.sliced(3);
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString decoded = utf8.decode(data); // decoding happens in the conversion
    return utf8.hasError() ? Encoding::Windows1254 : Encoding::Utf8;
}

QString Csv::decode(const QByteArray &bytes)
{
    return decode(bytes, Encoding::Auto);
}

QString Csv::decode(const QByteArray &bytes, Encoding encoding)
{
    QByteArrayView data(bytes);
    if (encoding != Encoding::Windows1254 && hasByteOrderMark(bytes))
        data = data.sliced(3);
    if (encoding != Encoding::Windows1254) {
        QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        QString text = utf8.decode(data);
        if (!utf8.hasError() || encoding == Encoding::Utf8)
            return text;
    }
    QString text;
    // Windows-1254: Latin-1 but for six Turkish letters, and Windows' punctuation in 0x80–0x9F.
    static const char16_t high[32] = {0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                      0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0xFFFD, 0xFFFD,
                                      0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                      0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0xFFFD, 0x0178};
    text.clear();
    text.reserve(data.size());
    for (char ch : data) {
        const auto b = static_cast<unsigned char>(ch);
        char16_t u = b;
        if (b >= 0x80 && b < 0xA0)
            u = high[b - 0x80];
        else if (b == 0xD0)
            u = 0x011E; // Ğ
        else if (b == 0xDD)
            u = 0x0130; // İ
        else if (b == 0xDE)
            u = 0x015E; // Ş
        else if (b == 0xF0)
            u = 0x011F; // ğ
        else if (b == 0xFD)
            u = 0x0131; // ı
        else if (b == 0xFE)
            u = 0x015F; // ş
        text.append(QChar(u));
    }
    return text;
}

bool Csv::looksLikeText(const QString &text)
{
    qsizetype controls = 0;
    for (const QChar c : text) {
        if (c.unicode() == 0)
            return false;
        if (c.unicode() < 0x20 && c != QLatin1Char('\t') && c != QLatin1Char('\n') && c != QLatin1Char('\r'))
            ++controls;
    }
    return controls == 0 || controls * 100 < text.size();
}

Csv::Table Csv::read(const QByteArray &file, Encoding encoding, QChar separator)
{
    Table t;
    t.encoding = encoding == Encoding::Auto ? detect(file) : encoding;
    t.byteOrderMark = hasByteOrderMark(file);
    const QString text = decode(file, t.encoding);
    if (!looksLikeText(text))
        throw DomainError::unprocessable(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "The file is not a CSV text file")),
            {{QStringLiteral("file"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be CSV text"))}});
    t.separator = separator.isNull() ? guessSeparator(text) : separator;
    QVector<int> lines;
    QVector<QStringList> rows = parse(text, t.separator, &lines);
    if (rows.isEmpty())
        throw DomainError::unprocessable(ModelText(QT_TRANSLATE_NOOP("ModelError", "The file holds no rows")));
    for (const QString &name : rows.first())
        t.header << name.trimmed();
    rows.removeFirst();
    lines.removeFirst();
    t.rows = std::move(rows);
    t.lines = std::move(lines);
    return t;
}

QString Csv::encodingName(Encoding encoding)
{
    switch (encoding) {
    case Encoding::Auto:
        return QStringLiteral("auto");
    case Encoding::Utf8:
        return QStringLiteral("utf-8");
    case Encoding::Windows1254:
        break;
    }
    return QStringLiteral("windows-1254");
}

std::optional<Csv::Encoding> Csv::encodingFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n.isEmpty() || n == QLatin1String("auto"))
        return Encoding::Auto;
    if (n == QLatin1String("utf-8") || n == QLatin1String("utf8"))
        return Encoding::Utf8;
    if (n == QLatin1String("windows-1254") || n == QLatin1String("cp1254"))
        return Encoding::Windows1254;
    return std::nullopt;
}
