// LoginThrottle: failed password checks counted per account and client address, per account and per
// address; loopback addresses as one client, IPv6 by /64; a known client passing the per-account
// and per-address locks with the right password but not its own; refusals not counted as guesses.
#include "server/api/loginthrottle.h"

#include <QtTest>

namespace {
QDateTime at(int seconds)
{
    return QDateTime(QDate(2026, 11, 26), QTime(10, 0), QTimeZone::utc()).addSecs(seconds);
}

QHostAddress ip(const char *text)
{
    return QHostAddress(QString::fromLatin1(text));
}

// n failed checks of account from the addresses, in turn; how many were let through.
int fail(LoginThrottle &t, const QString &account, const QList<QHostAddress> &from, int n, int second = 0)
{
    int allowed = 0;
    for (int i = 0; i < n; ++i)
        allowed += t.begin(account, from.at(i % from.size()), at(second)).allowed ? 1 : 0;
    return allowed;
}

QList<QHostAddress> range(const char *prefix, int count)
{
    QList<QHostAddress> out;
    for (int i = 1; i <= count; ++i)
        out.append(QHostAddress(QString::fromLatin1(prefix) + QString::number(i)));
    return out;
}
} // namespace

class TestLoginThrottle final : public QObject
{
    Q_OBJECT

private slots:
    void oneAccountFromOneAddress()
    {
        LoginThrottle t({10, 1000, 1000, 900});
        QCOMPARE(fail(t, "a@example.com", {ip("192.0.2.1")}, 10), 10);
        const LoginThrottle::Attempt refused = t.begin("a@example.com", ip("192.0.2.1"), at(1));
        QVERIFY(!refused.allowed);
        QVERIFY(refused.retryAfterSeconds >= 1 && refused.retryAfterSeconds <= 900);
        // the e-mail's case does not make another account
        QVERIFY(!t.begin("A@Example.COM ", ip("192.0.2.1"), at(1)).allowed);
        // another account from that address, that account from another address: not locked
        QVERIFY(t.begin("b@example.com", ip("192.0.2.1"), at(1)).allowed);
        QVERIFY(t.begin("a@example.com", ip("192.0.2.2"), at(1)).allowed);
        // the window ends
        QVERIFY(t.begin("a@example.com", ip("192.0.2.1"), at(900)).allowed);
    }

    void loopbackAddressesAreOneClient_data()
    {
        QTest::addColumn<QList<QHostAddress>>("from");
        QTest::newRow("127.0.0.0/8") << range("127.0.0.", 200);
        QTest::newRow("127.x.y.z") << QList<QHostAddress>{ip("127.1.2.3"), ip("127.200.0.1"), ip("127.0.0.1")};
        QTest::newRow("::1 and 127.0.0.1") << QList<QHostAddress>{ip("::1"), ip("127.0.0.1")};
        QTest::newRow("IPv4-mapped") << QList<QHostAddress>{ip("::ffff:127.0.0.1"), ip("127.0.0.9")};
        QTest::newRow("one IPv6 /64") << QList<QHostAddress>{ip("2001:db8:0:1::1"), ip("2001:db8:0:1:ffff::9"),
                                                             ip("2001:db8:0:1:1234:5678:9abc:def0")};
    }

    void loopbackAddressesAreOneClient()
    {
        QFETCH(QList<QHostAddress>, from);
        LoginThrottle t({10, 1000, 1000, 900});
        // rotating the source address does not give more guesses
        QCOMPARE(fail(t, "a@example.com", from, 200), 10);
    }

    void guessesSpreadOverAddresses()
    {
        // per account from any address: 5
        LoginThrottle t({10, 5, 1000, 900});
        t.succeeded(t.begin("a@example.com", ip("198.51.100.7"), at(0)), at(0)); // the user's own client
        QCOMPARE(fail(t, "a@example.com", range("203.0.113.", 100), 100), 5);
        QVERIFY(!t.begin("a@example.com", ip("192.0.2.99"), at(1)).allowed);
        // the account's lock does not lock others
        QVERIFY(t.begin("b@example.com", ip("192.0.2.99"), at(1)).allowed);
        // the user's known client passes it (the right password then ends the check)
        const LoginThrottle::Attempt own = t.begin("a@example.com", ip("198.51.100.7"), at(2));
        QVERIFY(own.allowed);
        t.succeeded(own, at(2));
        QVERIFY(t.begin("a@example.com", ip("198.51.100.7"), at(3)).allowed);
    }

    void manyAccountsFromOneAddress()
    {
        // per address for any account: 5
        LoginThrottle t({10, 1000, 5, 900});
        t.succeeded(t.begin("known@example.com", ip("192.0.2.1"), at(0)), at(0));
        int allowed = 0;
        for (int i = 0; i < 50; ++i)
            allowed += t.begin(QStringLiteral("u%1@example.com").arg(i), ip("192.0.2.1"), at(1)).allowed ? 1 : 0;
        QCOMPARE(allowed, 5);
        QVERIFY(!t.begin("new@example.com", ip("192.0.2.1"), at(1)).allowed);
        QVERIFY(t.begin("known@example.com", ip("192.0.2.1"), at(1)).allowed);
        QVERIFY(t.begin("new@example.com", ip("192.0.2.2"), at(1)).allowed);
    }

    void aKnownClientIsStillHeldByItsOwnLock()
    {
        LoginThrottle t({3, 1000, 1000, 900});
        t.succeeded(t.begin("a@example.com", ip("192.0.2.1"), at(0)), at(0));
        QCOMPARE(fail(t, "a@example.com", {ip("192.0.2.1")}, 10, 1), 3);
        QVERIFY(!t.begin("a@example.com", ip("192.0.2.1"), at(2)).allowed);
    }

    void rightPasswordsAreNotFailures()
    {
        LoginThrottle t({3, 3, 3, 900});
        for (int i = 0; i < 20; ++i) {
            const LoginThrottle::Attempt a = t.begin("a@example.com", ip("192.0.2.1"), at(i));
            QVERIFY(a.allowed);
            t.succeeded(a, at(i));
        }
    }

    void refusalsAreNotGuesses()
    {
        // A client held by its own lock keeps trying: that does not use up the account's or the
        // address's count.
        LoginThrottle t({2, 5, 5, 900});
        QCOMPARE(fail(t, "a@example.com", {ip("192.0.2.1")}, 100), 2);
        QCOMPARE(fail(t, "a@example.com", {ip("192.0.2.2")}, 100), 2);
        QVERIFY(t.begin("a@example.com", ip("192.0.2.3"), at(1)).allowed);
        QVERIFY(t.begin("b@example.com", ip("192.0.2.1"), at(1)).allowed);
    }

    void zeroTurnsALimitOff()
    {
        LoginThrottle t({0, 0, 0, 900});
        QCOMPARE(fail(t, "a@example.com", {ip("192.0.2.1")}, 500), 500);
    }
};

QTEST_MAIN(TestLoginThrottle)
#include "test_loginthrottle.moc"
