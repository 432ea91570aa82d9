#include "timeutil.h"

#include <QRegularExpression>
#include <QTimeZone>

QString TimeUtil::iso(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ"));
}

QString TimeUtil::nowIso()
{
    return iso(QDateTime::currentDateTimeUtc());
}

bool TimeUtil::isDate(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\d{4}-\\d{2}-\\d{2}$"));
    return re.match(text).hasMatch() && QDate::fromString(text, Qt::ISODate).isValid();
}

std::optional<QDateTime> TimeUtil::parse(const QString &text)
{
    if (isDate(text))
        return QDateTime(QDate::fromString(text, Qt::ISODate), QTime(0, 0), QTimeZone::utc());
    static const QRegularExpression re(
        QStringLiteral("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})$"));
    if (!re.match(text).hasMatch())
        return std::nullopt;
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(text, Qt::ISODate);
    if (!t.isValid())
        return std::nullopt;
    return t.toUTC();
}

const Clock &Clock::system()
{
    static const Clock c;
    return c;
}
