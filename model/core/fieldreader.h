#pragma once

#include "model/core/errors.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

// The one reader of a body's members (a JSON request body, the text fields of an upload form).
//
// Two ways of reading, both naming the field and what is wrong with it:
//  - collecting (string(), choice(), …, then throwIfAny()): the rules of a create/update body read
//    every member and refuse once with every bad field, so that a client sees them all at once;
//  - at once (requiredString(), optionalText(), nullableString(), …): the members of an action
//    (a login, a stage move, a tag list) are read one after the other, and the first problem
//    refuses the request: "Required field missing: email" (Unprocessable) when a required member
//    is absent, "Invalid data: email must be a string" (BadRequest) when it has the wrong type.
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

    // Read at once: the first problem refuses (see the class comment).

    // Present in the body, null included.
    bool has(const QString &name) const { return m_body.contains(name); }
    // Present and not null.
    bool given(const QString &name) const;
    // Absent, null or a string: what a member that is optional and textual may be.
    bool stringOrNothing(const QString &name) const;
    // The member as it is, for a rule that checks it itself (a segment's filters, template components).
    QJsonValue value(const QString &name) const { return m_body.value(name); }
    // A non-empty string, as given: Unprocessable when absent, null or blank; BadRequest when not a string.
    QString requiredString(const QString &name) const;
    // A string as given; absent or null -> "". BadRequest with `wrong` (default "must be a string")
    // for another type.
    QString optionalString(const QString &name, const ModelText &wrong = mustBeString()) const;
    // The same, trimmed, and BadRequest when longer than maxLength characters.
    QString optionalText(const QString &name, int maxLength = 20000) const;
    // A member that may be cleared: absent -> nullopt, null -> "", a string -> trimmed; BadRequest
    // ("must be a string or null") for another type.
    std::optional<QString> nullableString(const QString &name) const;
    // A member that, when present, is a string (null is not): absent -> nullopt; as given.
    std::optional<QString> presentString(const QString &name) const;
    // A member that, when present, is true or false: absent -> nullopt.
    std::optional<bool> optionalBool(const QString &name) const;
    // An array of strings: Unprocessable when absent or null, BadRequest when not an array of strings.
    QStringList requiredStringArray(const QString &name) const;
    // A non-empty array of non-blank strings of at most maxLength characters each (tags to add):
    // the rules of requiredStringArray(), then BadRequest for a blank or long item, Unprocessable
    // ("must not be empty") for an empty array. The items as given.
    QStringList requiredWords(const QString &name, int maxLength) const;
    // An array of strings or nothing: absent or null -> {}; BadRequest when not an array ("must be
    // an array") or when an item is not a string ("must be an array of strings").
    QStringList optionalStringArray(const QString &name) const;

    // The problems of the readers above.
    static ModelText mustBeString() { return ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string")); }

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
