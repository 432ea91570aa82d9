#pragma once

#include "model/core/errors.h"

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
    // For values filled in by code rather than read from a body (the checks of typed changes).
    FieldReader()
        : m_body(noBody())
    {
    }

    // Absent -> nullopt; null -> "" (when nullable); string -> trimmed; other -> error.
    std::optional<QString> string(const QString &name, int maxLength, bool nullable = true)
    {
        if (!m_body.contains(name))
            return std::nullopt;
        return stringValue(name, m_body.value(name), maxLength, nullable);
    }
    std::optional<QString> string(const char *key, int maxLength, bool nullable = true)
    {
        return string(QString(QLatin1String(key)), maxLength, nullable);
    }

    // The same rules for a value found elsewhere (an array element, a nested member); errors go
    // under `name`.
    std::optional<QString> stringValue(const QString &name, const QJsonValue &v, int maxLength, bool nullable = true)
    {
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

    // An enum member: null -> "" (the caller decides), other values must be listed.
    std::optional<QString> choice(const QString &name, const QStringList &values)
    {
        std::optional<QString> s = string(name, 64);
        among(s, name, values);
        return s;
    }

    // The enum rule of choice() for a value filled in by code: a non-empty value must be listed,
    // else it is dropped with an error.
    void among(std::optional<QString> &value, const QString &name, const QStringList &values)
    {
        if (value && !value->isEmpty() && !values.contains(*value)) {
            fail(name, oneOf(values));
            value.reset();
        }
    }

    // "must be one of a, b, c"
    static QString oneOf(const QStringList &values)
    {
        return QStringLiteral("must be one of ") + values.join(QStringLiteral(", "));
    }

    // The length rule of string() for a value filled in by code: trimmed, and dropped with an error
    // when longer than maxLength.
    void limit(std::optional<QString> &value, const QString &name, int maxLength)
    {
        if (!value)
            return;
        *value = value->trimmed();
        if (value->size() > maxLength) {
            fail(name, QStringLiteral("must be at most %1 characters").arg(maxLength));
            value.reset();
        }
    }

    // Throws what was collected: wrong values first (DomainError BadRequest, VALIDATION_ERROR), then
    // missing ones (Unprocessable); nothing when all is well.
    void throwIfAny() const;

    // The first problem of a field is kept.
    void fail(const QString &field, const QString &message)
    {
        if (!m_errors.contains(field))
            m_errors.insert(field, message);
    }

    // A required field that is absent (kept apart: a body with only missing fields is a 422, one with
    // a wrong field a 400).
    void missing(const QString &field) { m_missing.insert(field, QStringLiteral("is required")); }

    const QJsonObject &body() const { return m_body; }
    const QJsonObject &errors() const { return m_errors; }
    const QJsonObject &missingFields() const { return m_missing; }

private:
    static const QJsonObject &noBody()
    {
        static const QJsonObject empty;
        return empty;
    }

    const QJsonObject &m_body;
    QJsonObject m_errors;
    QJsonObject m_missing;
};

// "email is not a valid e-mail address; phone must be …" for an error message.
inline QString fieldErrorSummary(const QJsonObject &errors)
{
    QStringList parts;
    for (auto it = errors.begin(); it != errors.end(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.key(), it.value().toString());
    return parts.join(QStringLiteral("; "));
}

inline void FieldReader::throwIfAny() const
{
    if (!m_errors.isEmpty())
        throw DomainError::badRequest(QStringLiteral("Invalid data: ") + fieldErrorSummary(m_errors), m_errors);
    if (!m_missing.isEmpty())
        throw DomainError::unprocessable(QStringLiteral("Required field missing: ") + fieldErrorSummary(m_missing),
                                         m_missing);
}
