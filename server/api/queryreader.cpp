#include "server/api/queryreader.h"

#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/core/timeutil.h"

#include <cmath>

void QueryReader::refuse(const QString &name, const ModelText &problem, const ModelText &detail)
{
    throw DomainError::badRequest(
        ModelText(QT_TRANSLATE_NOOP("ModelError", "Query parameter %1 %2"), {ModelTextArg::field(name), problem}),
        {{name, detail.isNull() ? problem : detail}});
}

int QueryReader::positiveInt(const QString &name, int fallback) const
{
    if (!m_request.hasQuery(name))
        return fallback;
    bool ok = false;
    const qlonglong value = m_request.queryValue(name).toLongLong(&ok);
    if (!ok || value < 1)
        refuse(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a positive integer")));
    return int(qMin<qlonglong>(value, 1000000000));
}

QueryReader::Paging QueryReader::paging(int defaultLimit, int maxLimit) const
{
    Paging p;
    p.page = positiveInt(QStringLiteral("page"), 1);
    p.limit = qMin(positiveInt(QStringLiteral("limit"), defaultLimit), maxLimit);
    return p;
}

namespace {
[[noreturn]] void refuseQueryDateTime(const QString &name)
{
    QueryReader::refuse(
        name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a date (YYYY-MM-DD) or an ISO 8601 date-time")),
        ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a date or date-time")));
}
} // namespace

std::optional<QDateTime> QueryReader::dateTime(const QString &name) const
{
    if (!m_request.hasQuery(name))
        return std::nullopt;
    const auto t = TimeUtil::parse(m_request.queryValue(name));
    if (!t)
        refuseQueryDateTime(name);
    return t;
}

std::optional<QDateTime> QueryReader::instant(const QString &name, const QTimeZone &tz) const
{
    if (!m_request.hasQuery(name))
        return std::nullopt;
    const QString value = m_request.queryValue(name).trimmed();
    if (TimeUtil::isDate(value))
        return QDate::fromString(value, Qt::ISODate).startOfDay(tz).toUTC();
    if (const auto t = TimeUtil::parse(value))
        return t;
    refuseQueryDateTime(name);
}

std::optional<QDate> QueryReader::date(const QString &name) const
{
    if (!m_request.hasQuery(name))
        return std::nullopt;
    const QString day = m_request.queryValue(name).trimmed();
    if (!TimeUtil::isDate(day))
        refuse(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a date (YYYY-MM-DD)")));
    return QDate::fromString(day, Qt::ISODate);
}

QString QueryReader::oneOf(const QString &name, const QStringList &values) const
{
    if (!m_request.hasQuery(name))
        return {};
    const QString v = m_request.queryValue(name);
    if (!values.contains(v))
        refuse(name, FieldReader::oneOf(values));
    return v;
}

QStringList QueryReader::list(const QStringList &names) const
{
    QStringList out;
    for (const QString &name : names) {
        for (const QString &value : m_request.query.allQueryItemValues(name, QUrl::FullyDecoded)) {
            for (const QString &part : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                if (!part.trimmed().isEmpty())
                    out << part.trimmed();
            }
        }
    }
    return out;
}

std::optional<double> QueryReader::number(const QString &name) const
{
    if (!m_request.hasQuery(name))
        return std::nullopt;
    bool ok = false;
    const double d = m_request.queryValue(name).toDouble(&ok);
    if (!ok || !std::isfinite(d))
        refuse(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a number")));
    return d;
}

std::optional<bool> QueryReader::boolean(const QString &name) const
{
    if (!m_request.hasQuery(name))
        return std::nullopt;
    const QString v = m_request.queryValue(name).toLower();
    if (v == QLatin1String("true") || v == QLatin1String("1"))
        return true;
    if (v == QLatin1String("false") || v == QLatin1String("0"))
        return false;
    refuse(name, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be true or false")));
}
