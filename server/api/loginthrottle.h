#pragma once

#include "server/api/ratelimiter.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QHostAddress>
#include <QMutex>
#include <QString>

// Password guesses (POST /auth/login, POST /users/me/password), counted three ways in fixed
// 15-minute windows and shared by the server threads:
// - per account and client address together: a client guessing one account's password is stopped
//   there, and no other account nor another client of that account is;
// - per account from any address: guesses spread over many addresses;
// - per client address for any account: one address trying many accounts.
// The client address is httpClientKey(address, loopbackAsOne = true): every loopback address is one
// client (a machine can send from all of 127.0.0.0/8), an IPv6 address counts by its /64.
// A check is counted before the password is verified and given back when it was right, so checks in
// parallel cannot pass together a count none of them has raised yet; an attempt refused with 429 is
// given back too (no password was checked). A known client (one that signed in to the account from
// that address with the right password within kKnownClientDays, since this process started) is not
// held by the per-account or per-address lock: someone else guessing cannot lock a user out of the
// clients they use. The per-account-and-address lock holds for everyone.
class LoginThrottle
{
public:
    struct Limits
    {
        int perAccountAndAddress = 10; // 0: no limit
        int perAccount = 30;
        int perAddress = 100;
        int windowSeconds = 15 * 60;
    };
    static constexpr int kKnownClientDays = 30;
    static constexpr int kMaxKnownClients = 100000;

    // A check under way: begin() counts it, succeeded() gives it back.
    struct Attempt
    {
        bool allowed = true;
        int retryAfterSeconds = 0; // when refused: until the lock that refused it ends
        QString pairKey;
        QString accountKey;
        QString addressKey;
    };

    explicit LoginThrottle(const Limits &limits);
    // account: the e-mail the check is for (compared case-insensitively).
    Attempt begin(const QString &account, const QHostAddress &address, const QDateTime &now);
    // The password was right: the attempt is not a failure, and the client is known for the account.
    void succeeded(const Attempt &attempt, const QDateTime &now);

private:
    bool isKnown(const QString &pairKey, qint64 nowMs) const;

    RateLimiter m_pairs;
    RateLimiter m_accounts;
    RateLimiter m_addresses;
    mutable QMutex m_knownMutex;
    QHash<QString, qint64> m_known; // pair key -> last right password (ms since epoch)
};
