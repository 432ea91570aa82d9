// Live refresh across copies (ChangeFeed): the text of a change on the channel, and a real `liaison
// serve` process ($LIAISON_BINARY) on one database of the test run's cluster whose API writes reach
// this process's event bus within a second, also after the listening connection was cut.
#include "model/core/changefeed.h"
#include "model/core/database.h"
#include "tests/support/serveprocess.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

using namespace ServeTest;

class TestChangeFeed : public QObject
{
    Q_OBJECT

    struct Heard
    {
        EventBus::Entity entity;
        QString id;
        EventBus::Change change;
        qint64 atMs;
    };

private Q_SLOTS:
    void payloadReadsBack_data()
    {
        QTest::addColumn<int>("entity");
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("change");
        QTest::newRow("contact created") << int(EventBus::Entity::Contact) << "contact_01abc"
                                         << int(EventBus::Change::Created);
        QTest::newRow("several messages") << int(EventBus::Entity::Message) << "" << int(EventBus::Change::Status);
        QTest::newRow("incoming webhook deleted")
            << int(EventBus::Entity::IncomingWebhook) << "whi_1" << int(EventBus::Change::Deleted);
        QTest::newRow("task overdue") << int(EventBus::Entity::Task) << "task_9" << int(EventBus::Change::Overdue);
    }
    void payloadReadsBack()
    {
        QFETCH(int, entity);
        QFETCH(QString, id);
        QFETCH(int, change);
        const QString text = ChangeFeed::payload(EventBus::Entity(entity), id, EventBus::Change(change));
        const std::optional<ChangeFeed::News> news = ChangeFeed::parse(text);
        QVERIFY2(news, qPrintable(text));
        QCOMPARE(news->copy, Database::copyId());
        QCOMPARE(int(news->entity), entity);
        QCOMPARE(news->id, id);
        QCOMPARE(int(news->change), change);
    }

    void unreadablePayloadsAreRefused_data()
    {
        QTest::addColumn<QString>("payload");
        QTest::newRow("empty") << "";
        QTest::newRow("three parts") << "copy_1 Contact Created";
        QTest::newRow("five parts") << "copy_1 Contact Created a b";
        QTest::newRow("unknown entity") << "copy_1 Planet Created x";
        QTest::newRow("unknown change") << "copy_1 Contact Exploded x";
        QTest::newRow("no copy") << " Contact Created x";
    }
    void unreadablePayloadsAreRefused()
    {
        QFETCH(QString, payload);
        QVERIFY(!ChangeFeed::parse(payload));
    }

    // The other copy is a real process; this one listens as an open window would.
    void anotherCopysWritesArriveWithinASecond()
    {
        const QString binary = qEnvironmentVariable("LIAISON_BINARY");
        QVERIFY2(!binary.isEmpty(), "LIAISON_BINARY is not set (CTest sets it)");
        TempPostgresDatabase database(QStringLiteral("feed"));
        QVERIFY2(database.available(), qPrintable(database.why()));
        QTemporaryDir dir;
        const QStringList settings{QStringLiteral("--set"), QStringLiteral("database/url=") + database.url()};
        const ProgramRun key =
            runProgram(binary, QStringList{QStringLiteral("apikey"), QStringLiteral("create"), QStringLiteral("--name"),
                                           QStringLiteral("feed"), QStringLiteral("--data-dir"), dir.path()} +
                                   settings);
        QVERIFY2(key.exitCode == 0, qPrintable(key.err));
        ServeProcess other(binary, dir.path(), freePort(), settings);
        QVERIFY2(other.start(), other.describe());
        QFile pem(dir.filePath(QStringLiteral("tls/cert.pem")));
        QVERIFY(pem.open(QIODevice::ReadOnly));
        ApiClient client(other.baseUrl(), QSslCertificate(pem.readAll(), QSsl::Pem));
        client.setToken(key.outLines().constLast().trimmed());

        QString why;
        const std::optional<DatabaseUrl> url = DatabaseUrl::parse(database.url(), &why);
        QVERIFY2(url, qPrintable(why));
        Database::setPostgres(*url, QString());
        EventBus bus;
        QList<Heard> heard;
        QElapsedTimer clock;
        clock.start();
        connect(&bus, &EventBus::changed, this, [&](EventBus::Entity e, const QString &id, EventBus::Change c) {
            heard << Heard{e, id, c, clock.elapsed()};
        });
        ChangeFeed feed(bus);
        QVERIFY(feed.listening());
        auto contactHeard = [&](const QString &id) -> std::optional<qint64> {
            for (const Heard &h : std::as_const(heard)) {
                if (h.entity == EventBus::Entity::Contact && h.id == id && h.change == EventBus::Change::Created)
                    return h.atMs;
            }
            return std::nullopt;
        };

        QList<qint64> delays;
        for (int i = 0; i < 5; ++i) {
            const qint64 before = clock.elapsed();
            const HttpResult r = client.post(QStringLiteral("/api/v1/contacts"),
                                             {{"firstName", QStringLiteral("Şule %1").arg(i)},
                                              {"email", QStringLiteral("sule%1@feed.example").arg(i)}});
            QCOMPARE(r.status, 201);
            const QString id = r.data().value("id").toString();
            QTRY_VERIFY_WITH_TIMEOUT(contactHeard(id).has_value(), 1000);
            delays << *contactHeard(id) - before;
        }
        qInfo() << "a contact created through the other copy's API was heard after" << delays << "ms";

        // The listening connection is cut (a server restart, a network break): the feed connects
        // again, tells the bus to reload everything, and hears the next change.
        feed.setCheckIntervalMs(100);
        QSignalSpy caughtUp(&feed, &ChangeFeed::caughtUp);
        const qint64 pid = feed.backendPid();
        QVERIFY(pid > 0);
        Database::exec(QStringLiteral("SELECT pg_terminate_backend(?)"), {pid});
        QTRY_COMPARE_WITH_TIMEOUT(caughtUp.size(), 1, 5000);
        QVERIFY(feed.backendPid() != pid);
        bool reloaded = false;
        for (const Heard &h : std::as_const(heard))
            reloaded = reloaded || (h.entity == EventBus::Entity::Deal && h.id.isEmpty());
        QVERIFY(reloaded);
        const HttpResult r = client.post(QStringLiteral("/api/v1/contacts"),
                                         {{"firstName", QStringLiteral("Ilgın")}, {"email", "ilgin@feed.example"}});
        QCOMPARE(r.status, 201);
        QTRY_VERIFY_WITH_TIMEOUT(contactHeard(r.data().value("id").toString()).has_value(), 1000);

        // The database refuses new connections for a while (a server still starting, a network
        // partition): the feed tries again every interval without leaving a connection of its name
        // behind each time (Qt warned "duplicate connection name" at every attempt after the first),
        // and listens again once the database takes connections.
        QTest::failOnWarning(QRegularExpression(QStringLiteral("duplicate connection name")));
        const QString name = QUrl(database.url()).path().mid(1);
        QVERIFY(allowPostgresConnections(name, false));
        struct Allow
        {
            QString name;
            ~Allow() { allowPostgresConnections(name, true); }
        } allowAtTheEnd{name};
        QVERIFY(endPostgresSession(feed.backendPid()));
        QTRY_VERIFY_WITH_TIMEOUT(!feed.listening(), 5000);
        QTest::qWait(500); // several attempts at the 100 ms interval, each refused
        QVERIFY(!feed.listening());
        QVERIFY(allowPostgresConnections(name, true));
        QTRY_COMPARE_WITH_TIMEOUT(caughtUp.size(), 2, 5000);
        QVERIFY(feed.listening());
        Database::closeThreadConnection();
    }
};

QTEST_MAIN(TestChangeFeed)
#include "test_changefeed.moc"
