#pragma once

#include "model/core/errors.h"
#include "server/api/apirequest.h"

#include <QDateTime>
#include <QStringList>
#include <QTimeZone>

#include <optional>

// Reads the query string of a request (GET filters, paging). A parameter that cannot be read
// refuses the request at once, BadRequest with the parameter named: "Query parameter page must be
// a positive integer", details { page: "must be a positive integer" }. The body's members are read
// by the model's FieldReader; a query string is the transport's (the model never sees a URL), so
// its reader lives here, with the same refusals (DomainError, a ModelText and the field's problem).
class QueryReader
{
public:
    explicit QueryReader(const ApiRequest &request)
        : m_request(request)
    {
    }

    struct Paging
    {
        int page = 1;
        int limit = 20;
    };
    // page >= 1; limit >= 1; a limit above maxLimit is lowered to maxLimit (the applied value is
    // what pagination.limit reports).
    Paging paging(int defaultLimit = 20, int maxLimit = 100) const;
    // A date (start of its day, UTC) or an ISO 8601 date-time; absent -> nullopt.
    std::optional<QDateTime> dateTime(const QString &name) const;
    // The same, a date meaning the start of that day in tz.
    std::optional<QDateTime> instant(const QString &name, const QTimeZone &tz) const;
    // A date (YYYY-MM-DD); absent -> nullopt.
    std::optional<QDate> date(const QString &name) const;
    // One of values: absent -> "".
    QString oneOf(const QString &name, const QStringList &values) const;
    // Comma-separated values of every occurrence of the parameters named, trimmed, blanks dropped.
    QStringList list(const QStringList &names) const;
    // A finite number; absent -> nullopt.
    std::optional<double> number(const QString &name) const;
    // true/1 or false/0 (any case); absent -> nullopt.
    std::optional<bool> boolean(const QString &name) const;
    // The value as given ("" when absent).
    QString text(const QString &name) const { return m_request.queryValue(name); }
    bool has(const QString &name) const { return m_request.hasQuery(name); }

    // Refuses the request for the parameter: "Query parameter <name> <problem>" with the problem as
    // the parameter's detail (detail, when given, instead).
    [[noreturn]] static void refuse(const QString &name, const ModelText &problem, const ModelText &detail = {});

private:
    int positiveInt(const QString &name, int fallback) const;

    const ApiRequest &m_request;
};
