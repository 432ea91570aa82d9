#include "jsonwriter.h"

#include <QJsonDocument>

JsonWriter &JsonWriter::value(const QJsonObject &object)
{
    return rawJson(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

JsonWriter &JsonWriter::value(const QJsonArray &array)
{
    return rawJson(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

void JsonWriter::appendString(const QString &s)
{
    static const char hex[] = "0123456789abcdef";
    const QByteArray utf8 = s.toUtf8();
    m_out.reserve(m_out.size() + utf8.size() + 2);
    m_out.append('"');
    const char *begin = utf8.constData();
    const char *end = begin + utf8.size();
    const char *run = begin; // start of the bytes not yet copied
    for (const char *p = begin; p != end; ++p) {
        const uchar c = uchar(*p);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        m_out.append(run, p - run);
        run = p + 1;
        m_out.append('\\');
        switch (c) {
        case '"':
            m_out.append('"');
            break;
        case '\\':
            m_out.append('\\');
            break;
        case '\b':
            m_out.append('b');
            break;
        case '\f':
            m_out.append('f');
            break;
        case '\n':
            m_out.append('n');
            break;
        case '\r':
            m_out.append('r');
            break;
        case '\t':
            m_out.append('t');
            break;
        default:
            m_out.append("u00").append(hex[c >> 4]).append(hex[c & 0xf]);
        }
    }
    m_out.append(run, end - run);
    m_out.append('"');
}
