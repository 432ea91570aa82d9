#include "server/api/loginthrottle.h"

#include "server/http/httptypes.h"

#include <algorithm>

LoginThrottle::LoginThrottle(const Limits &limits)
    : m_pairs(limits.perAccountAndAddress, limits.windowSeconds)
    , m_accounts(limits.perAccount, limits.windowSeconds)
    , m_addresses(limits.perAddress, limits.windowSeconds)
{
}

bool LoginThrottle::isKnown(const QString &pairKey, qint64 nowMs) const
{
    QMutexLocker lock(&m_knownMutex);
    const auto it = m_known.constFind(pairKey);
    return it != m_known.constEnd() && nowMs - *it < qint64(kKnownClientDays) * 24 * 3600 * 1000;
}

LoginThrottle::Attempt LoginThrottle::begin(const QString &account, const QHostAddress &address, const QDateTime &now)
{
    Attempt a;
    a.accountKey = account.trimmed().toCaseFolded();
    a.addressKey = QString::fromLatin1(httpClientKey(address, true));
    a.pairKey = a.accountKey + QLatin1Char('\n') + a.addressKey;
    const RateLimiter::Decision pair = m_pairs.hit(a.pairKey, now);
    const RateLimiter::Decision perAccount = m_accounts.hit(a.accountKey, now);
    const RateLimiter::Decision perAddress = m_addresses.hit(a.addressKey, now);
    const bool known = isKnown(a.pairKey, now.toMSecsSinceEpoch());
    int retry = 0;
    if (!pair.allowed)
        retry = std::max(retry, pair.resetSeconds);
    if (!known && !perAccount.allowed)
        retry = std::max(retry, perAccount.resetSeconds);
    if (!known && !perAddress.allowed)
        retry = std::max(retry, perAddress.resetSeconds);
    a.allowed = pair.allowed && (known || (perAccount.allowed && perAddress.allowed));
    if (!a.allowed) {
        a.retryAfterSeconds = std::max(1, retry);
        // no password was checked: the refusal is not a guess
        m_pairs.release(a.pairKey, now);
        m_accounts.release(a.accountKey, now);
        m_addresses.release(a.addressKey, now);
    }
    return a;
}

void LoginThrottle::succeeded(const Attempt &attempt, const QDateTime &now)
{
    m_pairs.release(attempt.pairKey, now);
    m_accounts.release(attempt.accountKey, now);
    m_addresses.release(attempt.addressKey, now);
    const qint64 nowMs = now.toMSecsSinceEpoch();
    QMutexLocker lock(&m_knownMutex);
    if (m_known.size() >= kMaxKnownClients && !m_known.contains(attempt.pairKey)) {
        // forget the clients not seen for longest (rare: as many sign-ins from distinct places)
        const qint64 horizon = nowMs - qint64(kKnownClientDays) * 24 * 3600 * 1000;
        m_known.removeIf([horizon](const auto &it) { return it.value() < horizon; });
        if (m_known.size() >= kMaxKnownClients)
            m_known.erase(m_known.begin());
    }
    m_known.insert(attempt.pairKey, nowMs);
}
