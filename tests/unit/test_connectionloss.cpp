// A PostgreSQL connection that the server ends (a restart, a failover, pg_terminate_backend): the
// thread's next read or transaction makes a new connection by itself; a transaction that lost its
// connection commits nothing (nor does a savepoint of it), and no later statement of it runs on a
// new connection, where it would commit alone; a write outside a transaction is not run twice.
// SQLite has no such loss.
#include "model/core/database.h"
#include "model/core/errors.h"
#include "tests/support/modelsupport.h"

#include <QtTest>

namespace {
qint64 backendPid()
{
    QSqlQuery q = Database::exec(QStringLiteral("SELECT pg_backend_pid()"));
    return q.next() ? q.value(0).toLongLong() : 0;
}

int marks()
{
    QSqlQuery q = Database::exec(QStringLiteral("SELECT count(*) FROM schema_version WHERE version >= 9000"));
    return q.next() ? q.value(0).toInt() : -1;
}

void mark(int version)
{
    Database::exec(QStringLiteral("INSERT INTO schema_version (version, applied_at) VALUES (?, 'test')"), {version});
}
} // namespace

class TestConnectionLoss : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;

private Q_SLOTS:
    void init()
    {
        if (Database::dialect() != Database::Dialect::PostgreSQL &&
            qEnvironmentVariable("LIAISON_TEST_DATABASE") != QLatin1String("postgresql"))
            QSKIP("a lost connection is PostgreSQL's: SQLite is a file of this process");
        m_db = std::make_unique<TempDatabase>();
    }
    void cleanup() { m_db.reset(); }

    void anIdleConnectionEndedIsMadeAgainForAReadATransactionAndPing()
    {
        const qint64 first = backendPid();
        QVERIFY(endPostgresSession(first));
        QCOMPARE(marks(), 0); // a read
        const qint64 second = backendPid();
        QVERIFY(second != first);

        QVERIFY(endPostgresSession(second));
        {
            Transaction t; // its BEGIN finds the connection lost and makes a new one
            mark(9001);
            t.commit();
        }
        QCOMPARE(marks(), 1);

        QVERIFY(endPostgresSession(backendPid()));
        QString why;
        QVERIFY2(Database::ping(&why), qPrintable(why));
    }

    void aTransactionThatLostItsConnectionCommitsNothing()
    {
        {
            Transaction t;
            mark(9002);
            QVERIFY(endPostgresSession(backendPid()));
            QVERIFY_THROWS_EXCEPTION(DatabaseUnavailable, mark(9003));
            // A caller that goes on regardless: refused again, never run alone on a new connection.
            QVERIFY_THROWS_EXCEPTION(DatabaseUnavailable, mark(9004));
            QVERIFY_THROWS_EXCEPTION(DatabaseUnavailable, t.commit());
        }
        QCOMPARE(marks(), 0);
        {
            Transaction t;
            mark(9005);
            t.commit();
        }
        QCOMPARE(marks(), 1);
    }

    // A savepoint (a nested Transaction) that lost its connection: its commit says so instead of
    // releasing nothing, and so does the commit of the transaction around it; nothing is stored.
    void aSavepointThatLostItsConnectionCommitsNothing()
    {
        {
            Transaction t;
            mark(9008);
            Transaction inner;
            mark(9009);
            QVERIFY(endPostgresSession(backendPid()));
            QVERIFY_THROWS_EXCEPTION(DatabaseUnavailable, mark(9010));
            QVERIFY_THROWS_EXCEPTION(DatabaseUnavailable, inner.commit());
            QVERIFY_THROWS_EXCEPTION(DatabaseUnavailable, [] { Transaction another; }());
            QVERIFY_THROWS_EXCEPTION(DatabaseUnavailable, t.commit());
        }
        QCOMPARE(marks(), 0);
        {
            Transaction t;
            {
                Transaction inner;
                mark(9011);
                inner.commit();
            }
            t.commit();
        }
        QCOMPARE(marks(), 1);
    }

    void aWriteOutsideATransactionIsNotRunTwice()
    {
        QVERIFY(endPostgresSession(backendPid()));
        QVERIFY_THROWS_EXCEPTION(DatabaseUnavailable, mark(9006));
        QCOMPARE(marks(), 0);
        mark(9007);
        QCOMPARE(marks(), 1);
    }
};

QTEST_MAIN(TestConnectionLoss)
#include "test_connectionloss.moc"
