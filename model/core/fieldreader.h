#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

// Reads the members of a create/update body and collects every problem per field, so that a
// client sees all bad fields of one request at once (DomainError details).
class FieldReader
{
public:
    explicit FieldReader(const QJsonObject &body)
        : m_body(body)
    {
    }

    // Absent -> nullopt; null -> "" (when nullable); string -> trimmed; other -> error.
    std::optional<QString> string(const char *key, int maxLength, bool nullable = true)
    {
        const QString name = QLatin1String(key);
        if (!m_body.contains(name))
            return std::nullopt;
        const QJsonValue v = m_body.value(name);
        if (v.isNull() && nullable)
            return QString();
        if (!v.isString()) {
            fail(name, QStringLiteral("must be a string"));
            return std::nullopt;
        }
        const QString s = v.toString().trimmed();
        if (s.size() > maxLength) {
            fail(name, QStringLiteral("must be at most %1 characters").arg(maxLength));
            return std::nullopt;
        }
        return s;
    }

    // The first problem of a field is kept.
    void fail(const QString &field, const QString &message)
    {
        if (!m_errors.contains(field))
            m_errors.insert(field, message);
    }

    const QJsonObject &body() const { return m_body; }
    const QJsonObject &errors() const { return m_errors; }

private:
    const QJsonObject &m_body;
    QJsonObject m_errors;
};

// "email is not a valid e-mail address; phone must be …" for an error message.
inline QString fieldErrorSummary(const QJsonObject &errors)
{
    QStringList parts;
    for (auto it = errors.begin(); it != errors.end(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.key(), it.value().toString());
    return parts.join(QStringLiteral("; "));
}
