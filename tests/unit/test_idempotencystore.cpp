// Idempotency keys: a key is claimed before its request's work starts, so that of simultaneous
// requests with one key exactly one runs (threads with connections of their own, as the server's
// threads and other copies have); the others see it running, later ones get its answer; a failed
// request gives its key back; answers are forgotten after their day, and a claim left by a copy
// that died is taken over once stale.
#include "model/core/database.h"
#include "model/core/idempotencystore.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QtTest>

#include <atomic>
#include <thread>
#include <vector>

namespace {
const QDateTime kNow(QDate(2031, 3, 4), QTime(10, 0), Qt::UTC);

StoredResponse answer(int status, const QByteArray &body)
{
    return {QStringLiteral("POST"), QStringLiteral("/api/v1/tasks"), status, {{"Location", "/x"}}, body};
}
} // namespace

class TestIdempotencyStore : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;
    EventBus m_bus;
    FakeClock m_clock;

    IdempotencyClaim claim(IdempotencyStore &s, const QString &key, const QString &path = "/api/v1/tasks")
    {
        const QDateTime now = m_clock.now();
        return s.claim(QStringLiteral("key:1"), key, QStringLiteral("POST"), path, now.addSecs(-24 * 3600),
                       now.addSecs(-120));
    }

private Q_SLOTS:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_clock.set(kNow);
    }
    void cleanup() { m_db.reset(); }

    void claimedThenRunningThenReplayed()
    {
        IdempotencyStore s(Store(m_bus, m_clock));
        QCOMPARE(claim(s, "k1").outcome, IdempotencyClaim::Claimed);
        const IdempotencyClaim running = claim(s, "k1");
        QCOMPARE(running.outcome, IdempotencyClaim::InProgress);
        QCOMPARE(running.stored.path, QStringLiteral("/api/v1/tasks"));
        s.save("key:1", "k1", answer(201, "{\"id\":\"tsk_1\"}"));
        const IdempotencyClaim stored = claim(s, "k1", "/api/v1/contacts");
        QCOMPARE(stored.outcome, IdempotencyClaim::Stored);
        QCOMPARE(stored.stored.status, 201);
        QCOMPARE(stored.stored.body, QByteArray("{\"id\":\"tsk_1\"}"));
        QCOMPARE(stored.stored.path, QStringLiteral("/api/v1/tasks")); // the caller refuses another path
        // Another credential's key of the same text is its own.
        QCOMPARE(s.claim("key:2", "k1", "POST", "/api/v1/tasks", kNow.addDays(-1), kNow.addSecs(-120)).outcome,
                 IdempotencyClaim::Claimed);
    }

    void aFailedRequestGivesItsKeyBack()
    {
        IdempotencyStore s(Store(m_bus, m_clock));
        QCOMPARE(claim(s, "k2").outcome, IdempotencyClaim::Claimed);
        s.release("key:1", "k2");
        QCOMPARE(claim(s, "k2").outcome, IdempotencyClaim::Claimed);
        s.save("key:1", "k2", answer(201, "{}"));
        s.release("key:1", "k2"); // a kept answer is not a claim: it stays
        QCOMPARE(claim(s, "k2").outcome, IdempotencyClaim::Stored);
    }

    void answersAreForgottenAfterADayAndStaleClaimsTakenOver()
    {
        IdempotencyStore s(Store(m_bus, m_clock));
        QCOMPARE(claim(s, "old").outcome, IdempotencyClaim::Claimed);
        s.save("key:1", "old", answer(201, "{}"));
        QCOMPARE(claim(s, "left").outcome, IdempotencyClaim::Claimed);
        m_clock.advance(119);
        QCOMPARE(claim(s, "left").outcome, IdempotencyClaim::InProgress);
        m_clock.advance(2);
        QCOMPARE(claim(s, "left").outcome, IdempotencyClaim::Claimed);
        m_clock.advance(24 * 3600);
        QCOMPARE(claim(s, "old").outcome, IdempotencyClaim::Claimed);
    }

    // What a second claim of a key finds, by how long after the first it comes: the claim (running,
    // taken over once stale) or the answer (forgotten after its day).
    void claimsByTheirAge_data()
    {
        QTest::addColumn<bool>("answered");
        QTest::addColumn<int>("secondsLater");
        QTest::addColumn<int>("outcome");
        QTest::newRow("running, at once") << false << 0 << int(IdempotencyClaim::InProgress);
        QTest::newRow("running, 119 s") << false << 119 << int(IdempotencyClaim::InProgress);
        QTest::newRow("running, 120 s: still") << false << 120 << int(IdempotencyClaim::InProgress);
        QTest::newRow("running, 121 s: stale, taken over") << false << 121 << int(IdempotencyClaim::Claimed);
        QTest::newRow("answered, at once") << true << 0 << int(IdempotencyClaim::Stored);
        QTest::newRow("answered, an hour") << true << 3600 << int(IdempotencyClaim::Stored);
        QTest::newRow("answered, a day less a second") << true << 24 * 3600 - 1 << int(IdempotencyClaim::Stored);
        QTest::newRow("answered, a day and a second: forgotten")
            << true << 24 * 3600 + 1 << int(IdempotencyClaim::Claimed);
    }
    void claimsByTheirAge()
    {
        QFETCH(bool, answered);
        QFETCH(int, secondsLater);
        QFETCH(int, outcome);
        IdempotencyStore s(Store(m_bus, m_clock));
        QCOMPARE(claim(s, "k").outcome, IdempotencyClaim::Claimed);
        if (answered)
            s.save("key:1", "k", answer(201, "{}"));
        m_clock.advance(secondsLater);
        QCOMPARE(int(claim(s, "k").outcome), outcome);
    }

    void anAnswerIsKeptWithItsHeadersUntilPurged()
    {
        IdempotencyStore s(Store(m_bus, m_clock));
        QCOMPARE(claim(s, "k").outcome, IdempotencyClaim::Claimed);
        QCOMPARE(s.find("key:1", "k", kNow.addDays(-1))->status, 0); // a claim: found as running
        StoredResponse a = answer(201, "{\"id\":\"tsk_9\"}");
        a.headers.append(qMakePair(QByteArray("Idempotent-Replayed"), QByteArray("false")));
        s.save("key:1", "k", a);
        const std::optional<StoredResponse> found = s.find("key:1", "k", kNow.addDays(-1));
        QVERIFY(found);
        QCOMPARE(found->method, QStringLiteral("POST"));
        QCOMPARE(found->status, 201);
        QCOMPARE(found->headers, a.headers);
        QCOMPARE(found->body, a.body);
        QVERIFY(!s.find("key:2", "k", kNow.addDays(-1))); // another credential's
        QVERIFY(!s.find("key:1", "k", kNow.addSecs(1)));  // older than asked for

        s.purgeOlderThan(kNow); // created at kNow: not older
        QVERIFY(s.find("key:1", "k", kNow.addDays(-1)));
        s.purgeOlderThan(kNow.addSecs(1));
        QVERIFY(!s.find("key:1", "k", kNow.addDays(-1)));
        QCOMPARE(claim(s, "k").outcome, IdempotencyClaim::Claimed);
    }

    void ofSimultaneousClaimsExactlyOneRuns()
    {
        constexpr int kThreads = 8;
        constexpr int kRounds = 5;
        for (int round = 0; round < kRounds; ++round) {
            const QString key = QStringLiteral("race-%1").arg(round);
            std::atomic<int> ready{0};
            std::atomic<int> claimed{0};
            std::atomic<int> running{0};
            std::atomic<int> failed{0};
            std::vector<std::thread> threads;
            for (int i = 0; i < kThreads; ++i) {
                threads.emplace_back([&] {
                    try {
                        IdempotencyStore s(Store(m_bus, m_clock));
                        Database::connection(); // connected before the start, so that all claim at once
                        ++ready;
                        while (ready.load() < kThreads)
                            std::this_thread::yield();
                        const IdempotencyClaim c = claim(s, key);
                        ++(c.outcome == IdempotencyClaim::Claimed ? claimed : running);
                    } catch (const std::exception &e) {
                        qWarning() << e.what();
                        ++failed;
                    }
                    Database::closeThreadConnection();
                });
            }
            for (std::thread &t : threads)
                t.join();
            QCOMPARE(failed.load(), 0);
            QCOMPARE(claimed.load(), 1);
            QCOMPARE(running.load(), kThreads - 1);
        }
    }
};

QTEST_GUILESS_MAIN(TestIdempotencyStore)
#include "test_idempotencystore.moc"
