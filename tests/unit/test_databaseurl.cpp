#include "model/core/databaseurl.h"

#include <QtTest>

// database/url: what team mode reads, and the one-sentence refusals of what it does not.
class TestDatabaseUrl : public QObject
{
    Q_OBJECT

private slots:
    void reads_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("dbname");
        QTest::addColumn<QString>("options");
        QTest::newRow("whole") << "postgresql://crm@db.ornek.com.tr:6432/satis?sslmode=require&connect_timeout=5"
                               << "crm"
                               << "db.ornek.com.tr" << 6432 << "satis"
                               << "sslmode=require;connect_timeout=5";
        QTest::newRow("defaults") << "postgresql://10.0.0.5/liaison"
                                  << ""
                                  << "10.0.0.5" << 5432 << "liaison"
                                  << "sslmode=prefer;connect_timeout=10";
        QTest::newRow("short scheme, spaces") << "  postgres://ayse@localhost/crm  "
                                              << "ayse"
                                              << "localhost" << 5432 << "crm"
                                              << "sslmode=prefer;connect_timeout=10";
        QTest::newRow("IPv6") << "postgresql://crm@[::1]:5433/crm?sslmode=disable"
                              << "crm"
                              << "::1" << 5433 << "crm"
                              << "sslmode=disable;connect_timeout=10";
        QTest::newRow("encoded user and name") << "postgresql://sat%C4%B1%C5%9F@db/m%C3%BC%C5%9Fteri"
                                               << "satış"
                                               << "db" << 5432 << "müşteri"
                                               << "sslmode=prefer;connect_timeout=10";
    }
    void reads()
    {
        QFETCH(QString, text);
        QString error;
        const std::optional<DatabaseUrl> url = DatabaseUrl::parse(text, &error);
        QVERIFY2(url, qPrintable(error));
        QTEST(url->user, "user");
        QTEST(url->host, "host");
        QTEST(url->port, "port");
        QTEST(url->dbname, "dbname");
        QTEST(url->connectOptions(), "options");
        // Written again, it reads the same.
        const std::optional<DatabaseUrl> again = DatabaseUrl::parse(url->toString(), &error);
        QVERIFY2(again, qPrintable(error));
        QCOMPARE(again->toString(), url->toString());
    }

    void refuses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("a file") << "/var/lib/liaison/liaison.db"
                                << "not a PostgreSQL URL (postgresql://user@host:port/dbname)";
        QTest::newRow("another database") << "mysql://crm@db/crm"
                                          << "not a PostgreSQL URL (postgresql://user@host:port/dbname)";
        QTest::newRow("a password") << "postgresql://crm:gizli@db/crm"
                                    << "the URL holds a password: put it in the secret store (database.password) "
                                       "instead";
        QTest::newRow("no host") << "postgresql:///crm"
                                 << "the URL names no host";
        QTest::newRow("no database") << "postgresql://crm@db"
                                     << "the URL names no database (…/dbname)";
        QTest::newRow("no database after the slash") << "postgresql://crm@db/"
                                                     << "the URL names no database (…/dbname)";
        QTest::newRow("port 0") << "postgresql://crm@db:0/crm"
                                << "the port must be from 1 to 65535";
        QTest::newRow("port too high") << "postgresql://crm@db:70000/crm"
                                       << "not a PostgreSQL URL (postgresql://user@host:port/dbname)";
        QTest::newRow("unknown sslmode") << "postgresql://crm@db/crm?sslmode=always"
                                         << "sslmode must be one of disable, allow, prefer, require, verify-ca, "
                                            "verify-full";
        QTest::newRow("timeout zero") << "postgresql://crm@db/crm?connect_timeout=0"
                                      << "connect_timeout must be a number of seconds from 1 to 600";
        QTest::newRow("unknown parameter") << "postgresql://crm@db/crm?target_session_attrs=any"
                                           << "unknown URL parameter target_session_attrs (sslmode and "
                                              "connect_timeout are read)";
    }
    void refuses()
    {
        QFETCH(QString, text);
        QString error;
        QVERIFY(!DatabaseUrl::parse(text, &error));
        QTEST(error, "error");
    }
};

QTEST_GUILESS_MAIN(TestDatabaseUrl)
#include "test_databaseurl.moc"
