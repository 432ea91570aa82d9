#pragma once

#include "model/core/timeutil.h"

#include <QDateTime>

#include <optional>

// The one clock tests set by hand, handed to whatever takes a Clock (repositories, the scheduler,
// the API's token checks). Built without a time it follows the system clock (plus any offset);
// built with one, or after set(), it stands still until set or advanced again.
class FakeClock final : public Clock
{
public:
    FakeClock() = default;
    explicit FakeClock(const QDateTime &at)
        : m_at(at)
    {
    }

    QDateTime now() const override { return (m_at ? *m_at : QDateTime::currentDateTimeUtc()).addSecs(m_offsetSeconds); }
    // Stands still at this time from now on.
    void set(const QDateTime &at)
    {
        m_at = at;
        m_offsetSeconds = 0;
    }
    // This many seconds ahead of the base time (the set time, or the system's).
    void setOffset(qint64 seconds) { m_offsetSeconds = seconds; }
    void advance(qint64 seconds) { m_offsetSeconds += seconds; }

private:
    std::optional<QDateTime> m_at;
    qint64 m_offsetSeconds = 0;
};
