#pragma once

#include <QJsonArray>
#include <QJsonObject>

// Small JSON Schema builders for the OpenAPI document.
namespace Schema {
QJsonObject string(const QString &format = {});
QJsonObject integer(int minimum = INT_MIN, int maximum = INT_MAX);
QJsonObject number();
QJsonObject boolean();
QJsonObject array(const QJsonObject &items);
QJsonObject object(const QJsonObject &properties, const QStringList &required = {}); // {}: any keys
QJsonObject nullable(QJsonObject schema);
QJsonObject ref(const QString &component); // {"$ref": "#/components/schemas/<component>"}
// { success, data: <data>, message? }
QJsonObject envelope(const QJsonObject &data);
// { success, data: [<item>], pagination }
QJsonObject pageOf(const QJsonObject &item);
QJsonObject messageOnly();
} // namespace Schema
