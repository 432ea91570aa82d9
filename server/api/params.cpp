#include "server/api/params.h"

#include "model/core/timeutil.h"
#include "server/api/apierror.h"

#include <QJsonArray>

namespace {
int positiveInt(const ApiRequest &request, const QString &name, int fallback)
{
    if (!request.hasQuery(name))
        return fallback;
    bool ok = false;
    const QString text = request.queryValue(name);
    const qlonglong value = text.toLongLong(&ok);
    if (!ok || value < 1)
        throw ApiError::badRequest(QStringLiteral("Query parameter %1 must be a positive integer").arg(name),
                                   {{name, QStringLiteral("must be a positive integer")}});
    return int(qMin<qlonglong>(value, 1000000000));
}
} // namespace

Params::Paging Params::paging(const ApiRequest &request, int defaultLimit, int maxLimit)
{
    Paging p;
    p.page = positiveInt(request, QStringLiteral("page"), 1);
    p.limit = qMin(positiveInt(request, QStringLiteral("limit"), defaultLimit), maxLimit);
    return p;
}

std::optional<QDateTime> Params::dateTime(const ApiRequest &request, const QString &name)
{
    if (!request.hasQuery(name))
        return std::nullopt;
    const auto t = TimeUtil::parse(request.queryValue(name));
    if (!t)
        throw ApiError::badRequest(
            QStringLiteral("Query parameter %1 must be a date (YYYY-MM-DD) or an ISO 8601 date-time").arg(name),
            {{name, QStringLiteral("must be a date or date-time")}});
    return t;
}

QStringList Params::list(const ApiRequest &request, const QStringList &names)
{
    QStringList out;
    for (const QString &name : names) {
        for (const QString &value : request.query.allQueryItemValues(name, QUrl::FullyDecoded)) {
            for (const QString &part : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                if (!part.trimmed().isEmpty())
                    out << part.trimmed();
            }
        }
    }
    return out;
}

QString Params::requiredString(const QJsonObject &body, const QString &name)
{
    const QJsonValue v = body.value(name);
    if (v.isUndefined() || v.isNull() || (v.isString() && v.toString().trimmed().isEmpty()))
        throw ApiError::unprocessable(QStringLiteral("Required field missing: %1").arg(name),
                                      {{name, QStringLiteral("is required")}});
    if (!v.isString())
        throw ApiError::badRequest(QStringLiteral("Invalid data: %1 must be a string").arg(name),
                                   {{name, QStringLiteral("must be a string")}});
    return v.toString();
}

QString Params::optionalString(const QJsonObject &body, const QString &name)
{
    const QJsonValue v = body.value(name);
    if (v.isUndefined() || v.isNull())
        return {};
    if (!v.isString())
        throw ApiError::badRequest(QStringLiteral("Invalid data: %1 must be a string").arg(name),
                                   {{name, QStringLiteral("must be a string")}});
    return v.toString();
}

QString Params::optionalText(const QJsonObject &body, const QString &name, int maxLength)
{
    const QString s = optionalString(body, name).trimmed();
    if (s.size() > maxLength)
        throw ApiError::badRequest(
            QStringLiteral("Invalid data: %1 must be at most %2 characters").arg(name).arg(maxLength),
            {{name, QStringLiteral("must be at most %1 characters").arg(maxLength)}});
    return s;
}

std::optional<QString> Params::nullableString(const QJsonObject &body, const QString &name)
{
    const QJsonValue v = body.value(name);
    if (v.isUndefined())
        return std::nullopt;
    if (v.isNull())
        return QString();
    if (!v.isString())
        throw ApiError::badRequest(QStringLiteral("Invalid data: %1 must be a string or null").arg(name),
                                   {{name, QStringLiteral("must be a string or null")}});
    return v.toString().trimmed();
}

QStringList Params::requiredStringArray(const QJsonObject &body, const QString &name)
{
    const QJsonValue v = body.value(name);
    if (v.isUndefined() || v.isNull())
        throw ApiError::unprocessable(QStringLiteral("Required field missing: %1").arg(name),
                                      {{name, QStringLiteral("is required")}});
    QStringList out;
    bool ok = v.isArray();
    for (const QJsonValue &item : v.toArray()) {
        if (!item.isString()) {
            ok = false;
            break;
        }
        out << item.toString();
    }
    if (!ok)
        throw ApiError::badRequest(QStringLiteral("Invalid data: %1 must be an array of strings").arg(name),
                                   {{name, QStringLiteral("must be an array of strings")}});
    return out;
}

QString Params::oneOf(const ApiRequest &request, const QString &name, const QStringList &values)
{
    if (!request.hasQuery(name))
        return {};
    const QString v = request.queryValue(name);
    if (!values.contains(v))
        throw ApiError::badRequest(
            QStringLiteral("Query parameter %1 must be one of %2").arg(name, values.join(QStringLiteral(", "))),
            {{name, QStringLiteral("must be one of %1").arg(values.join(QStringLiteral(", ")))}});
    return v;
}
