#pragma once

#include <QDateTime>
#include <QString>
#include <optional>

namespace TimeUtil {
// ISO 8601 UTC with milliseconds and "Z": 2026-11-25T22:54:17.123Z. Sorts as text.
QString iso(const QDateTime &t);
// Parses a date (YYYY-MM-DD, read as 00:00 UTC) or a date-time with Z or an offset.
std::optional<QDateTime> parse(const QString &text);
bool isDate(const QString &text);
} // namespace TimeUtil

// The one source of "now" for the model, so that tests can move time (reminders, expiry, rate windows).
class Clock
{
public:
    virtual ~Clock() = default;
    virtual QDateTime now() const { return QDateTime::currentDateTimeUtc(); }
    static const Clock &system();
};
