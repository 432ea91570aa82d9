#include "model/core/timeutil.h"

#include <QRegularExpression>
#include <QTimeZone>

QString TimeUtil::iso(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ"));
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
    t = t.toUTC();
    // An offset can carry 9999-12-31T23:30-02:00 into the year 10000 (stored as "10000-01-01…",
    // which no later parse reads back): such a time is refused here, for every caller.
    if (t.date().year() < 1 || t.date().year() > 9999)
        return std::nullopt;
    return t;
}

const Clock &Clock::system()
{
    static const Clock c;
    return c;
}
