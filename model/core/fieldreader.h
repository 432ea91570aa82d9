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
            fail(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string")));
            return std::nullopt;
        }
        const QString s = v.toString().trimmed();
        if (s.size() > maxLength) {
            fail(name, atMost(maxLength));
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
    static ModelText oneOf(const QStringList &values)
    {
        return ModelText(QT_TRANSLATE_NOOP("ModelError", "must be one of %1"), {values.join(QStringLiteral(", "))});
    }
    // "must be at most 200 characters"
    static ModelText atMost(int maxLength)
    {
        return ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {maxLength});
    }

    // The length rule of string() for a value filled in by code: trimmed, and dropped with an error
    // when longer than maxLength.
    void limit(std::optional<QString> &value, const QString &name, int maxLength)
    {
        if (!value)
            return;
        *value = value->trimmed();
        if (value->size() > maxLength) {
            fail(name, atMost(maxLength));
            value.reset();
        }
    }

    // Throws what was collected: wrong values first (DomainError::invalid, BadRequest), then
    // missing ones (DomainError::missing, Unprocessable); nothing when all is well.
    void throwIfAny() const
    {
        if (!m_errors.isEmpty())
            throw DomainError::invalid(m_errors);
        if (!m_missing.isEmpty())
            throw DomainError::missing(m_missing);
    }

    // The first problem of a field is kept.
    void fail(const QString &field, const ModelText &problem)
    {
        if (!m_errors.contains(field))
            m_errors.insert(field, problem);
    }

    // A required field that is absent (kept apart: a body with only missing fields is unprocessable,
    // one with a wrong field malformed).
    void missing(const QString &field) { m_missing.insert(field, DomainError::isRequired()); }

    const QJsonObject &body() const { return m_body; }
    const FieldProblems &errors() const { return m_errors; }
    const FieldProblems &missingFields() const { return m_missing; }

private:
    static const QJsonObject &noBody()
    {
        static const QJsonObject empty;
        return empty;
    }

    const QJsonObject &m_body;
    FieldProblems m_errors;
    FieldProblems m_missing;
};
