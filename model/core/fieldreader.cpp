#include "model/core/fieldreader.h"

#include <QJsonArray>

bool FieldReader::given(const QString &name) const
{
    const QJsonValue v = m_body.value(name);
    return !v.isUndefined() && !v.isNull();
}

bool FieldReader::stringOrNothing(const QString &name) const
{
    const QJsonValue v = m_body.value(name);
    return v.isUndefined() || v.isNull() || v.isString();
}

QString FieldReader::requiredString(const QString &name) const
{
    const QJsonValue v = m_body.value(name);
    if (v.isUndefined() || v.isNull() || (v.isString() && v.toString().trimmed().isEmpty()))
        throw DomainError::missingFields({{name, DomainError::isRequired()}});
    if (!v.isString())
        throw DomainError::invalid(name, mustBeString());
    return v.toString();
}

QString FieldReader::optionalString(const QString &name, const ModelText &wrong) const
{
    const QJsonValue v = m_body.value(name);
    if (v.isUndefined() || v.isNull())
        return {};
    if (!v.isString())
        throw DomainError::invalid(name, wrong);
    return v.toString();
}

QString FieldReader::optionalText(const QString &name, int maxLength) const
{
    const QString s = optionalString(name).trimmed();
    if (s.size() > maxLength)
        throw DomainError::invalid(name, atMost(maxLength));
    return s;
}

std::optional<QString> FieldReader::nullableString(const QString &name) const
{
    const QJsonValue v = m_body.value(name);
    if (v.isUndefined())
        return std::nullopt;
    if (v.isNull())
        return QString();
    if (!v.isString())
        throw DomainError::invalid(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string or null")));
    return v.toString().trimmed();
}

std::optional<QString> FieldReader::presentString(const QString &name) const
{
    const QJsonValue v = m_body.value(name);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isString())
        throw DomainError::invalid(name, mustBeString());
    return v.toString();
}

std::optional<bool> FieldReader::optionalBool(const QString &name) const
{
    const QJsonValue v = m_body.value(name);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isBool())
        throw DomainError::invalid(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a boolean")));
    return v.toBool();
}

namespace {
// The strings of an array; false when v is not an array of strings.
bool fieldReaderStrings(const QJsonValue &v, QStringList &out)
{
    if (!v.isArray())
        return false;
    const QJsonArray items = v.toArray();
    for (const QJsonValue &item : items) {
        if (!item.isString())
            return false;
        out << item.toString();
    }
    return true;
}
} // namespace

QStringList FieldReader::requiredStringArray(const QString &name) const
{
    const QJsonValue v = m_body.value(name);
    if (v.isUndefined() || v.isNull())
        throw DomainError::missingFields({{name, DomainError::isRequired()}});
    QStringList out;
    if (!fieldReaderStrings(v, out))
        throw DomainError::invalid(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of strings")));
    return out;
}

QStringList FieldReader::optionalStringArray(const QString &name) const
{
    const QJsonValue v = m_body.value(name);
    if (v.isUndefined() || v.isNull())
        return {};
    if (!v.isArray())
        throw DomainError::invalid(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array")));
    QStringList out;
    if (!fieldReaderStrings(v, out))
        throw DomainError::invalid(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of strings")));
    return out;
}

QStringList FieldReader::requiredWords(const QString &name, int maxLength) const
{
    const QStringList items = requiredStringArray(name);
    for (const QString &item : items) {
        if (item.trimmed().isEmpty() || item.trimmed().size() > maxLength)
            throw DomainError::invalid(
                name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be non-empty strings of at most %1 characters"),
                                {maxLength}));
    }
    if (items.isEmpty())
        throw DomainError::missing(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must not be empty")));
    return items;
}
