#include "model/core/jsonwriter.h"

#include <QJsonDocument>

JsonWriter &JsonWriter::value(const QJsonObject &object)
{
    if (object.isEmpty()) { // most contacts' custom fields
        separate();
        m_out.append("{}", 2);
        return *this;
    }
    return rawJson(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

JsonWriter &JsonWriter::value(const QJsonArray &array)
{
    if (array.isEmpty()) {
        separate();
        m_out.append("[]", 2);
        return *this;
    }
    return rawJson(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

void JsonWriter::appendEscape(char16_t c)
{
    static const char hex[] = "0123456789abcdef";
    m_out.push_back('\\');
    switch (c) {
    case '"':
        m_out.push_back('"');
        break;
    case '\\':
        m_out.push_back('\\');
        break;
    case '\b':
        m_out.push_back('b');
        break;
    case '\f':
        m_out.push_back('f');
        break;
    case '\n':
        m_out.push_back('n');
        break;
    case '\r':
        m_out.push_back('r');
        break;
    case '\t':
        m_out.push_back('t');
        break;
    default: // the other control characters, and surrogates without their pair
        m_out.push_back('u');
        m_out.push_back(hex[(c >> 12) & 0xf]);
        m_out.push_back(hex[(c >> 8) & 0xf]);
        m_out.push_back(hex[(c >> 4) & 0xf]);
        m_out.push_back(hex[c & 0xf]);
    }
}

void JsonWriter::appendString(const QString &s)
{
    // UTF-16 to UTF-8 in one pass, escaping as QJsonDocument does: '"', '\\', the control
    // characters, and a surrogate without its pair (as \uXXXX).
    const char16_t *u = reinterpret_cast<const char16_t *>(s.utf16());
    const qsizetype n = s.size();
    m_out.reserve(m_out.size() + size_t(n) + 2);
    m_out.push_back('"');
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t c = u[i];
        if (c < 0x80) {
            if (c >= 0x20 && c != '"' && c != '\\')
                m_out.push_back(char(c));
            else
                appendEscape(c);
        } else if (c < 0x800) {
            m_out.push_back(char(0xc0 | (c >> 6)));
            m_out.push_back(char(0x80 | (c & 0x3f)));
        } else if (QChar::isHighSurrogate(c) && i + 1 < n && QChar::isLowSurrogate(u[i + 1])) {
            const char32_t cp = QChar::surrogateToUcs4(c, u[++i]);
            m_out.push_back(char(0xf0 | (cp >> 18)));
            m_out.push_back(char(0x80 | ((cp >> 12) & 0x3f)));
            m_out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
            m_out.push_back(char(0x80 | (cp & 0x3f)));
        } else if (QChar::isSurrogate(c)) {
            appendEscape(c);
        } else {
            m_out.push_back(char(0xe0 | (c >> 12)));
            m_out.push_back(char(0x80 | ((c >> 6) & 0x3f)));
            m_out.push_back(char(0x80 | (c & 0x3f)));
        }
    }
    m_out.push_back('"');
}
