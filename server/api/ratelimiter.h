#pragma once

#include <QDateTime>
#include <QHash>
#include <QMutex>
#include <QString>

// A fixed one-minute window per key (a credential, or a client address for failed logins).
// Shared by the server threads: every call takes a mutex.
class RateLimiter
{
public:
    struct Decision
    {
        bool allowed = true;
        int limit = 0;
        int remaining = 0;
        int resetSeconds = 0; // seconds until the current window ends and the full limit is back
    };

    // limit <= 0: no limit.
    RateLimiter(int limit, int windowSeconds = 60);
    // Counts one request for key at now and says whether it may proceed.
    Decision hit(const QString &key, const QDateTime &now);
    // Takes back one counted hit of key (one that turned out not to count, as a right password).
    void release(const QString &key, const QDateTime &now);
    // Looks without counting.
    Decision peek(const QString &key, const QDateTime &now) const;
    int limit() const { return m_limit; }

private:
    struct Window
    {
        qint64 startMs = 0;
        int count = 0;
    };
    Decision decide(const Window &w, qint64 nowMs) const;
    void prune(qint64 nowMs);

    mutable QMutex m_mutex;
    int m_limit;
    qint64 m_windowMs;
    QHash<QString, Window> m_windows;
    qint64 m_lastPruneMs = 0;
};
