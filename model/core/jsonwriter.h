#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QVarLengthArray>

#include <charconv>
#include <string>

namespace Json {
// An optional text field of an answer: null when empty (what JsonWriter::valueOrNull writes).
inline QJsonValue nullable(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}
} // namespace Json

// Writes compact JSON straight into a byte array, for the answers on the hot paths (a contact, a
// page of contacts), where building a QJsonObject and serialising it cost more than the database
// look-up. Strings are escaped as QJsonDocument escapes them, so a writer that emits keys in sorted
// order gives the same bytes as QJsonDocument::toJson(QJsonDocument::Compact).
//
//     JsonWriter w;
//     w.beginObject().key("id").value(id).key("tags").beginArray();
//     for (const QString &t : tags) w.value(t);
//     w.endArray().endObject();
//     QByteArray json = w.take();
class JsonWriter
{
public:
    JsonWriter() { m_out.reserve(1024); }

    JsonWriter &beginObject()
    {
        separate();
        m_out.push_back('{');
        m_first.append(true);
        return *this;
    }
    JsonWriter &endObject()
    {
        m_out.push_back('}');
        m_first.removeLast();
        return *this;
    }
    JsonWriter &beginArray()
    {
        separate();
        m_out.push_back('[');
        m_first.append(true);
        return *this;
    }
    JsonWriter &endArray()
    {
        m_out.push_back(']');
        m_first.removeLast();
        return *this;
    }
    // The key of the next value; the name is written as is (plain ASCII names only).
    JsonWriter &key(const char *name)
    {
        separate();
        m_out.push_back('"');
        m_out.append(name);
        m_out.append("\":", 2);
        m_afterKey = true;
        return *this;
    }

    JsonWriter &value(const QString &s)
    {
        separate();
        appendString(s);
        return *this;
    }
    // An empty string is written as null (the spec's optional fields).
    JsonWriter &valueOrNull(const QString &s) { return s.isEmpty() ? null() : value(s); }
    JsonWriter &value(qint64 n)
    {
        separate();
        char digits[24];
        const auto r = std::to_chars(digits, digits + sizeof digits, n);
        m_out.append(digits, size_t(r.ptr - digits));
        return *this;
    }
    JsonWriter &value(int n) { return value(qint64(n)); }
    JsonWriter &value(bool b)
    {
        separate();
        m_out.append(b ? "true" : "false");
        return *this;
    }
    JsonWriter &null()
    {
        separate();
        m_out.append("null");
        return *this;
    }
    JsonWriter &value(const QStringList &strings)
    {
        beginArray();
        for (const QString &s : strings)
            value(s);
        return endArray();
    }
    // Values that are already JSON objects or arrays (small ones: address, custom fields).
    JsonWriter &value(const QJsonObject &object);
    JsonWriter &value(const QJsonArray &array);
    // Bytes that are already compact JSON (another writer's result).
    JsonWriter &rawJson(const QByteArray &json)
    {
        separate();
        m_out.append(json.constData(), size_t(json.size()));
        return *this;
    }

    QByteArray bytes() const { return QByteArray(m_out.data(), qsizetype(m_out.size())); }
    QByteArray take() { return bytes(); }

private:
    void separate()
    {
        if (m_afterKey) {
            m_afterKey = false;
            return;
        }
        if (m_first.isEmpty())
            return;
        if (m_first.last())
            m_first.last() = false;
        else
            m_out.push_back(',');
    }
    void appendString(const QString &s);
    void appendEscape(char16_t c);

    // A std::string rather than a QByteArray: its appends are inline, QByteArray's are not (half
    // the cost of writing a contact went to QByteArray::insert/append calls).
    std::string m_out;
    QVarLengthArray<bool, 8> m_first; // per open object/array: nothing written in it yet
    bool m_afterKey = false;
};
