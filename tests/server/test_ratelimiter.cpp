// RateLimiter's arithmetic: a fixed one-minute window per key, the remaining count and the reset
// time, release of a counted hit, peek without counting, keys apart, no limit for 0.
#include "server/api/ratelimiter.h"

#include <QtTest>

namespace {
QDateTime at(int seconds, int ms = 0)
{
    return QDateTime(QDate(2026, 11, 26), QTime(10, 0), QTimeZone::utc()).addMSecs(qint64(seconds) * 1000 + ms);
}
} // namespace

class TestRateLimiter final : public QObject
{
    Q_OBJECT

private slots:
    void countsDownWithinTheWindow_data()
    {
        QTest::addColumn<int>("limit");
        QTest::addColumn<int>("hits");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<int>("remaining");
        QTest::newRow("first of 3") << 3 << 1 << true << 2;
        QTest::newRow("last of 3") << 3 << 3 << true << 0;
        QTest::newRow("one over") << 3 << 4 << false << 0;
        QTest::newRow("many over") << 3 << 10 << false << 0;
        QTest::newRow("limit 1") << 1 << 1 << true << 0;
        QTest::newRow("no limit") << 0 << 1000 << true << 0;
    }

    void countsDownWithinTheWindow()
    {
        QFETCH(int, limit);
        QFETCH(int, hits);
        QFETCH(bool, allowed);
        QFETCH(int, remaining);
        RateLimiter limiter(limit);
        RateLimiter::Decision d;
        for (int i = 0; i < hits; ++i)
            d = limiter.hit("key", at(10, i));
        QCOMPARE(d.allowed, allowed);
        QCOMPARE(d.remaining, remaining);
        if (limit > 0) {
            QCOMPARE(d.limit, limit);
            QVERIFY2(d.resetSeconds >= 1 && d.resetSeconds <= 60, qPrintable(QString::number(d.resetSeconds)));
        }
    }

    void theWindowEndsAndTheLimitIsBack()
    {
        RateLimiter limiter(2, 60);
        QVERIFY(limiter.hit("k", at(0)).allowed);
        QVERIFY(limiter.hit("k", at(1)).allowed);
        const RateLimiter::Decision refused = limiter.hit("k", at(30));
        QVERIFY(!refused.allowed);
        QCOMPARE(refused.resetSeconds, 30); // the window opened at 0 s and lasts 60 s
        QVERIFY(!limiter.hit("k", at(59, 900)).allowed);
        const RateLimiter::Decision again = limiter.hit("k", at(60));
        QVERIFY(again.allowed);
        QCOMPARE(again.remaining, 1);
    }

    void keysAreCountedApart()
    {
        RateLimiter limiter(1);
        QVERIFY(limiter.hit("a", at(0)).allowed);
        QVERIFY(!limiter.hit("a", at(1)).allowed);
        QVERIFY(limiter.hit("b", at(1)).allowed);
    }

    void peekDoesNotCountAndReleaseGivesBack()
    {
        RateLimiter limiter(2);
        QCOMPARE(limiter.peek("k", at(0)).remaining, 2);
        QCOMPARE(limiter.peek("k", at(0)).remaining, 2);
        limiter.hit("k", at(0));
        limiter.hit("k", at(1));
        QCOMPARE(limiter.peek("k", at(2)).remaining, 0);
        limiter.release("k", at(2)); // a hit that turned out not to count (a right password)
        QCOMPARE(limiter.peek("k", at(2)).remaining, 1);
        QVERIFY(limiter.hit("k", at(3)).allowed);
        // Released below zero: never more than the full limit.
        RateLimiter fresh(2);
        fresh.release("x", at(0));
        QCOMPARE(fresh.peek("x", at(0)).remaining, 2);
    }
};

QTEST_MAIN(TestRateLimiter)
#include "test_ratelimiter.moc"
