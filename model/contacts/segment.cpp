#include "model/contacts/segment.h"

#include "model/contacts/segmentrules.h"
#include "model/core/errors.h"

namespace {
[[noreturn]] void badRequest(const QString &field, const ModelText &problem)
{
    throw DomainError::invalid(field, problem);
}

[[noreturn]] void missing(const QString &field, const ModelText &problem)
{
    throw DomainError::missing(field, problem);
}

QString checkName(const QString &given)
{
    const QString name = given.trimmed();
    if (name.isEmpty())
        missing(QStringLiteral("name"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must not be empty")));
    if (name.size() > SegmentRules::MaxNameLength)
        badRequest(QStringLiteral("name"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"),
                                                     {SegmentRules::MaxNameLength}));
    return name;
}

QString checkDescription(const QString &given)
{
    const QString d = given.trimmed();
    if (d.size() > SegmentRules::MaxDescriptionLength)
        badRequest(QStringLiteral("description"),
                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"),
                             {SegmentRules::MaxDescriptionLength}));
    return d;
}

QJsonValue checkFilters(const QJsonValue &filters)
{
    return filters.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(SegmentRules::validate(filters));
}

// A string field of a body (null reads as empty); a wrong type is refused.
QString stringField(const QJsonObject &body, const QString &field)
{
    const QJsonValue v = body.value(field);
    if (!v.isString() && !v.isNull())
        badRequest(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string")));
    return v.toString();
}
} // namespace

QJsonObject Segment::toJson() const
{
    QJsonObject o{
        {QStringLiteral("id"), id},
        {QStringLiteral("name"), name},
        {QStringLiteral("description"), description},
        {QStringLiteral("filters"), filters},
        {QStringLiteral("isDynamic"), isDynamic},
        {QStringLiteral("createdAt"), createdAt},
        {QStringLiteral("updatedAt"), updatedAt},
    };
    if (contactCount >= 0)
        o.insert(QStringLiteral("contactCount"), double(contactCount));
    return o;
}

SegmentChanges SegmentRules::parse(const QJsonObject &body)
{
    SegmentChanges c;
    if (body.contains(QLatin1String("name")))
        c.name = checkName(stringField(body, QStringLiteral("name")));
    if (body.contains(QLatin1String("description")))
        c.description = checkDescription(stringField(body, QStringLiteral("description")));
    if (body.contains(QLatin1String("isDynamic"))) {
        const QJsonValue v = body.value(QLatin1String("isDynamic"));
        if (!v.isBool())
            badRequest(QStringLiteral("isDynamic"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be true or false")));
        c.isDynamic = v.toBool();
    }
    if (body.contains(QLatin1String("filters")))
        c.filters = checkFilters(body.value(QLatin1String("filters")));
    return c;
}

void SegmentRules::check(SegmentChanges &changes)
{
    if (changes.name)
        changes.name = checkName(*changes.name);
    if (changes.description)
        changes.description = checkDescription(*changes.description);
    if (changes.filters)
        changes.filters = checkFilters(*changes.filters);
}
