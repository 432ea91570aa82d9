// liaison db migrate-to and db check, run as the built executable against the test run's cluster:
// a data directory with records of every area is copied into an empty PostgreSQL database, every
// table's rows arrive, the copied contacts keep their custom fields, new rows get seqs after the
// copied ones, and what must be refused is refused in one line with exit code 1.
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/mediarepository.h"
#include "model/inbox/widgetvisitorrepository.h"
#include "model/tasks/taskrepository.h"
#include "model/webhooks/webhookrepository.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

class TestMigrateTo : public QObject
{
    Q_OBJECT

    QString m_binary;
    DatabaseUrl m_cluster;
    QString m_database; // the empty database made for this run
    QTemporaryDir m_dataDir;
    QString m_mediaId;       // an upload whose file is in DATA/media
    QByteArray m_mediaBytes; // its bytes

    // One statement on the cluster's own database (databases are made and dropped from there).
    bool admin(const QString &sql)
    {
        bool ok = false;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("admin"));
            db.setHostName(m_cluster.host);
            db.setPort(m_cluster.port);
            db.setDatabaseName(m_cluster.dbname);
            db.setUserName(m_cluster.user);
            db.setConnectOptions(QStringLiteral("options='-cclient_min_messages=warning'"));
            ok = db.open() && QSqlQuery(db).exec(sql);
            if (!ok)
                qWarning() << sql << db.lastError().text();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("admin"));
        return ok;
    }

    QString targetUrl() const
    {
        DatabaseUrl u = m_cluster;
        u.dbname = m_database;
        return u.toString();
    }

    ProgramRun liaison(const QStringList &args)
    {
        return runProgram(m_binary, QStringList{QStringLiteral("--data-dir"), m_dataDir.path()} + args);
    }

    static QMap<QString, qint64> counts()
    {
        QMap<QString, qint64> out;
        for (const QString &table : Database::tables())
            out.insert(table, Database::rowCount(table));
        return out;
    }

private slots:
    void initTestCase()
    {
        m_binary = qEnvironmentVariable("LIAISON_BINARY");
        QVERIFY2(!m_binary.isEmpty(), "LIAISON_BINARY is not set (CTest sets it)");
        QString why;
        const std::optional<DatabaseUrl> url =
            DatabaseUrl::parse(qEnvironmentVariable("LIAISON_TEST_POSTGRES_URL"), &why);
        QVERIFY2(url, qPrintable(QStringLiteral("LIAISON_TEST_POSTGRES_URL: %1 (run through ctest)").arg(why)));
        m_cluster = *url;
        m_database = QStringLiteral("migrate_%1").arg(QCoreApplication::applicationPid());
        QVERIFY(admin(QStringLiteral("DROP DATABASE IF EXISTS %1").arg(m_database)));
        QVERIFY(admin(QStringLiteral("CREATE DATABASE %1").arg(m_database)));

        // A data directory with records of every area, on its SQLite file.
        Database::setPath(QDir(m_dataDir.path()).filePath(QStringLiteral("liaison.db")));
        Database::migrate();
        const Store store = testStore();
        ContactRepository contacts(store);
        QStringList ids;
        for (int i = 0; i < 450; ++i) // more than one statement's worth of rows
            ids << contacts
                       .create(ContactRules::parse(
                           {{"firstName", QStringLiteral("Ayşe %1").arg(i)},
                            {"lastName", "Yılmaz"},
                            {"email", QStringLiteral("ayse%1@ornek.com.tr").arg(i)},
                            {"tags", QJsonArray{"müşteri", i % 2 ? "vip" : "yeni"}},
                            {"customFields", QJsonObject{{"şehir", "İzmir"}, {"puan", i}, {"aktif", i % 3 == 0}}}}))
                       .id;
        contacts.addNote(ids.first(), QStringLiteral("İlk görüşme yapıldı"));
        DealRepository deals(store);
        deals.create(DealRules::parse(
            {{"name", "Filo yenileme"}, {"value", 125000.5}, {"currency", "TRY"}, {"contactId", ids.first()}}));
        TaskRepository(store, QTimeZone::utc())
            .create(TaskRules::parse({{"title", "Teklifi ara"}, {"contactId", ids.at(1)}}));
        // Widget conversations of visitors without a contact (the conversations table, rebuilt by
        // migration 18, comes after the messages that refer to it in the file and is copied first).
        WidgetVisitorRepository visitors(store);
        ConversationRepository conversations(store);
        MessageContent hello;
        hello.text = QStringLiteral("Merhaba");
        conversations.receive(visitors.create({}, {}).visitor.conversationId, hello);
        conversations.receive(visitors.create({}, {}).visitor.conversationId, hello);
        WebhookRepository(store).create(
            webhookChanges({{"url", "https://hooks.ornek.com.tr/crm"}, {"events", QJsonArray{"contact.created"}}}));
        // Two uploads in DATA/media; the second's file is gone (a row without its file stays without).
        MediaRepository media(store, QDir(m_dataDir.path()).filePath(QStringLiteral("media")));
        const QByteArray pdf = QByteArray("%PDF-1.4\n") + QByteArray(70000, 'x');
        m_mediaId = media.store({pdf, QStringLiteral("teklif.pdf"), "application/pdf", {}, {}, 30}).id;
        const QString gone = media.store({QByteArray("%PDF-1.4\nkısa"), QStringLiteral("eski.pdf"), {}, {}, {}, 30}).id;
        QFile::remove(QDir(m_dataDir.path()).filePath(QStringLiteral("media/") + gone));
        m_mediaBytes = pdf;
        Database::closeThreadConnection();
    }

    void cleanupTestCase()
    {
        Database::closeThreadConnection();
        admin(QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_database));
    }

    void copiesEveryTableIntoAnEmptyDatabase()
    {
        Database::setPath(QDir(m_dataDir.path()).filePath(QStringLiteral("liaison.db")));
        const QMap<QString, qint64> sqlite = counts();
        Database::closeThreadConnection();
        QCOMPARE(sqlite.value("contacts"), 450);
        QCOMPARE(sqlite.value("messages"), 2);

        const ProgramRun r = liaison({QStringLiteral("db"), QStringLiteral("migrate-to"), targetUrl()});
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(r.out.contains(QStringLiteral("every table's rows match")), r.describe());

        Database::setPostgres(*DatabaseUrl::parse(targetUrl(), nullptr), QString());
        QMap<QString, qint64> postgres = counts();
        // PostgreSQL's search words are built from the contacts (SQLite's index is not a table here).
        QVERIFY(postgres.take(QStringLiteral("contact_words")) >= 3 * 450);
        // The uploads' bytes moved into the database with them: every copy serves them.
        QCOMPARE(postgres.take(QStringLiteral("media_contents")), 1);
        QVERIFY2(r.out.contains(QStringLiteral("and 1 media files")), r.describe());
        QCOMPARE(MediaRepository(testStore(), QStringLiteral("/nonexistent")).content(m_mediaId), m_mediaBytes);
        QCOMPARE(postgres, sqlite);
        // The custom fields arrived as jsonb, with the rows the segment rules read.
        QSqlQuery q = Database::exec(QStringLiteral("SELECT c.custom_fields ->> 'şehir', f.value_num FROM contacts c "
                                                    "JOIN contact_custom_fields f ON f.contact_seq = c.seq AND f.key = "
                                                    "'puan' WHERE c.email = 'ayse7@ornek.com.tr'"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("İzmir"));
        QCOMPARE(q.value(1).toDouble(), 7.0);
        q.finish();
        // A new contact takes the seq after the copied ones, and the trigger keeps its fields.
        QSqlQuery added = Database::exec(
            QStringLiteral("INSERT INTO contacts (id, first_name, custom_fields, created_at, updated_at) VALUES "
                           "('contact_new', 'Yeni', '{\"puan\": 1}', 'x', 'x') RETURNING seq"));
        QVERIFY(added.next());
        QCOMPARE(added.value(0).toLongLong(), sqlite.value("contacts") + 1);
        added.finish();
        QCOMPARE(Database::exec(QStringLiteral("SELECT count(*) FROM contact_custom_fields f JOIN contacts c ON c.seq "
                                               "= f.contact_seq WHERE c.id = 'contact_new'"))
                     .next(),
                 true);
        Database::closeThreadConnection();

        // db check reads it through database/url.
        const ProgramRun check = liaison({QStringLiteral("db"), QStringLiteral("check"), QStringLiteral("--set"),
                                          QStringLiteral("database/url=") + targetUrl()});
        QVERIFY2(check.exitCode == 0, check.describe());
        QVERIFY2(check.outLines().value(0).startsWith(QStringLiteral("database: PostgreSQL ")), check.describe());
        QVERIFY2(check.out.contains(QRegularExpression(QStringLiteral("\\n  contacts +451\\n"))), check.describe());
    }

    void refusesADatabaseThatHoldsData()
    {
        const ProgramRun r = liaison({QStringLiteral("db"), QStringLiteral("migrate-to"), targetUrl()});
        QCOMPARE(r.exitCode, 1);
        const QStringList lines = r.errLines().filter(QRegularExpression(QStringLiteral("^liaison: ")));
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.first().contains(QStringLiteral("already holds data")), r.describe());
    }

    void refusesWhatItCannotUse_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("error");
        QTest::newRow("no server") << QStringList{"db", "migrate-to", "postgresql://liaison@127.0.0.1:1/x"} << 1
                                   << "liaison: db migrate-to: cannot connect to PostgreSQL at "
                                      "postgresql://liaison@127.0.0.1:1/x?sslmode=prefer: ";
        QTest::newRow("not a URL") << QStringList{"db", "migrate-to", "liaison.db"} << 2
                                   << "liaison: db migrate-to: not a PostgreSQL URL";
        QTest::newRow("a password in the setting")
            << QStringList{"db", "check", "--set", "database/url=postgresql://a:b@h/d"} << 1
            << "liaison: setting database/url: the URL holds a password";
        QTest::newRow("serve, no server")
            << QStringList{"serve", "--set", "database/url=postgresql://liaison@127.0.0.1:1/x"} << 1
            << "liaison: database: cannot connect to PostgreSQL at postgresql://liaison@127.0.0.1:1/x?sslmode=prefer: ";
    }
    void refusesWhatItCannotUse()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, error);
        args.replaceInStrings(QStringLiteral("=URL"), QStringLiteral("=") + targetUrl());
        const ProgramRun r = liaison(args);
        QVERIFY2(r.finished, r.describe());
        QCOMPARE(r.exitCode, exitCode);
        const QStringList lines = r.errLines().filter(QRegularExpression(QStringLiteral("^liaison: ")));
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.first().startsWith(error), r.describe());
    }
};

QTEST_GUILESS_MAIN(TestMigrateTo)
#include "test_migrateto.moc"
