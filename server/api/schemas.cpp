#include "server/api/schemas.h"

#include <climits>

QJsonObject Schema::string(const QString &format)
{
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("string")}};
    if (!format.isEmpty())
        o.insert(QStringLiteral("format"), format);
    return o;
}

QJsonObject Schema::integer(int minimum, int maximum)
{
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("integer")}};
    if (minimum != INT_MIN)
        o.insert(QStringLiteral("minimum"), minimum);
    if (maximum != INT_MAX)
        o.insert(QStringLiteral("maximum"), maximum);
    return o;
}

QJsonObject Schema::number()
{
    return {{QStringLiteral("type"), QStringLiteral("number")}};
}

QJsonObject Schema::boolean()
{
    return {{QStringLiteral("type"), QStringLiteral("boolean")}};
}

QJsonObject Schema::array(const QJsonObject &items)
{
    return {{QStringLiteral("type"), QStringLiteral("array")}, {QStringLiteral("items"), items}};
}

QJsonObject Schema::object(const QJsonObject &properties, const QStringList &required)
{
    // Without properties: any keys (customFields, details), said outright: generated clients read an
    // object without additionalProperties as one that holds only the properties listed.
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("object")}};
    if (properties.isEmpty())
        o.insert(QStringLiteral("additionalProperties"), true);
    else
        o.insert(QStringLiteral("properties"), properties);
    if (!required.isEmpty())
        o.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    return o;
}

QJsonObject Schema::nullable(QJsonObject schema)
{
    schema.insert(QStringLiteral("type"), QJsonArray{schema.value(QStringLiteral("type")), QStringLiteral("null")});
    return schema;
}

QJsonObject Schema::ref(const QString &component)
{
    return {{QStringLiteral("$ref"), QStringLiteral("#/components/schemas/") + component}};
}

QJsonObject Schema::envelope(const QJsonObject &data)
{
    return object(
        {{QStringLiteral("success"), boolean()}, {QStringLiteral("data"), data}, {QStringLiteral("message"), string()}},
        {QStringLiteral("success"), QStringLiteral("data")});
}

QJsonObject Schema::pageOf(const QJsonObject &item)
{
    return object({{QStringLiteral("success"), boolean()},
                   {QStringLiteral("data"), array(item)},
                   {QStringLiteral("pagination"), ref(QStringLiteral("Pagination"))}},
                  {QStringLiteral("success"), QStringLiteral("data"), QStringLiteral("pagination")});
}

QJsonObject Schema::messageOnly()
{
    return object({{QStringLiteral("success"), boolean()}, {QStringLiteral("message"), string()}},
                  {QStringLiteral("success"), QStringLiteral("message")});
}
