#pragma once

#include "server/api/apirequest.h"

#include <QDateTime>
#include <QStringList>

#include <optional>

// Query-string and body readers that turn bad input into 400 with the parameter named.
namespace Params {
struct Paging
{
    int page = 1;
    int limit = 20;
};
// page >= 1; limit >= 1; a limit above maxLimit is lowered to maxLimit (the applied value is
// what pagination.limit reports).
Paging paging(const ApiRequest &request, int defaultLimit = 20, int maxLimit = 100);
std::optional<QDateTime> dateTime(const ApiRequest &request, const QString &name);
// A query parameter that takes one of values: absent -> "", else 400 naming the accepted values.
QString oneOf(const ApiRequest &request, const QString &name, const QStringList &values);
// Comma-separated values of every occurrence of the parameters named.
QStringList list(const ApiRequest &request, const QStringList &names);
// A required string member of the body: 422 when absent or empty, 400 when not a string.
QString requiredString(const QJsonObject &body, const QString &name);
// An optional string member of the body, as given: absent or null -> "", 400 when not a string.
QString optionalString(const QJsonObject &body, const QString &name);
// The same, trimmed, and 400 when longer than maxLength characters.
QString optionalText(const QJsonObject &body, const QString &name, int maxLength = 20000);
// A string member that may be cleared: absent -> nullopt, null -> "", a string -> trimmed; 400
// ("must be a string or null") for other types.
std::optional<QString> nullableString(const QJsonObject &body, const QString &name);
// An array of strings: 422 when absent, 400 when not an array of strings.
QStringList requiredStringArray(const QJsonObject &body, const QString &name);
} // namespace Params
