#include "server/api/ratelimiter.h"

RateLimiter::RateLimiter(int limit, int windowSeconds)
    : m_limit(limit)
    , m_windowMs(qint64(windowSeconds) * 1000)
{
}

RateLimiter::Decision RateLimiter::decide(const Window &w, qint64 nowMs) const
{
    Decision d;
    d.limit = m_limit;
    d.allowed = w.count <= m_limit;
    d.remaining = qMax(0, m_limit - w.count);
    const qint64 left = w.startMs + m_windowMs - nowMs;
    d.resetSeconds = int(qMax<qint64>(0, (left + 999) / 1000));
    return d;
}

void RateLimiter::prune(qint64 nowMs)
{
    if (nowMs - m_lastPruneMs < m_windowMs)
        return;
    m_lastPruneMs = nowMs;
    for (auto it = m_windows.begin(); it != m_windows.end();) {
        if (nowMs - it->startMs >= m_windowMs)
            it = m_windows.erase(it);
        else
            ++it;
    }
}

RateLimiter::Decision RateLimiter::hit(const QString &key, const QDateTime &now)
{
    const qint64 nowMs = now.toMSecsSinceEpoch();
    if (m_limit <= 0)
        return Decision{};
    QMutexLocker lock(&m_mutex);
    prune(nowMs);
    Window &w = m_windows[key];
    if (w.count == 0 || nowMs - w.startMs >= m_windowMs) {
        w.startMs = nowMs;
        w.count = 0;
    }
    ++w.count;
    return decide(w, nowMs);
}

RateLimiter::Decision RateLimiter::peek(const QString &key, const QDateTime &now) const
{
    const qint64 nowMs = now.toMSecsSinceEpoch();
    if (m_limit <= 0)
        return Decision{};
    QMutexLocker lock(&m_mutex);
    auto it = m_windows.constFind(key);
    if (it == m_windows.constEnd() || nowMs - it->startMs >= m_windowMs)
        return Decision{true, m_limit, m_limit, int(m_windowMs / 1000)};
    return decide(*it, nowMs);
}

void RateLimiter::release(const QString &key, const QDateTime &now)
{
    if (m_limit <= 0)
        return;
    const qint64 nowMs = now.toMSecsSinceEpoch();
    QMutexLocker lock(&m_mutex);
    auto it = m_windows.find(key);
    if (it != m_windows.end() && it->count > 0 && nowMs - it->startMs < m_windowMs)
        --it->count;
}
