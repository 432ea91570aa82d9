// A full disk under the database, over real HTTPS: a write answers 507 STORAGE_FULL in the API's
// envelope (never 500 "Internal server error"), reads and an API key's use go on, the log says so
// once a minute rather than once a refused write, the window is told (StorageHealth::changed), and
// once space is freed the next write succeeds by itself.
//
// The disk is made full without a mount (tests/support/fulldisk.h); docs/architecture.md says how
// the same refusal went on a real full tmpfs.
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/storagehealth.h"
#include "tests/support/fulldisk.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QtTest>

namespace {
// The lines of the log per category while a test runs (the previous handler still gets them).
QHash<QString, int> g_lines;
QStringList g_serverErrors;
QtMessageHandler g_previous = nullptr;

void countLines(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QString category = QString::fromLatin1(context.category ? context.category : "default");
    ++g_lines[category];
    if (type == QtCriticalMsg && category == QLatin1String("liaison.http"))
        g_serverErrors << message;
    if (g_previous)
        g_previous(type, context, message);
}

} // namespace

class TestStorageFull : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ApiFixture> m_api;
    QString m_contact;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        g_previous = qInstallMessageHandler(countLines);
    }

    void cleanupTestCase() { qInstallMessageHandler(g_previous); }

    void init()
    {
        m_api = std::make_unique<ApiFixture>();
        if (Database::dialect() == Database::Dialect::PostgreSQL)
            QSKIP("PRAGMA max_page_count is SQLite's; PostgreSQL's disk_full (53100) is mapped the same way");
        m_api->server.createUser(QStringLiteral("ayse@ornek.com.tr"), QStringLiteral("correct horse battery"));
        const HttpResult created =
            m_api->client->post("/api/v1/contacts", {{"firstName", "Ayşe"}, {"email", "ayse@ornek.com.tr"}});
        QCOMPARE(created.status, 201);
        m_contact = created.data().value("id").toString();
        StorageHealth::reset();
        g_lines.clear();
        g_serverErrors.clear();
    }

    void cleanup()
    {
        if (m_api && Database::dialect() == Database::Dialect::SQLite)
            FullDisk::free();
        m_api.reset();
    }

    void writesAnswer507AndReadsGoOn_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::newRow("create a contact") << QByteArray("POST") << QStringLiteral("/api/v1/contacts");
        QTest::newRow("update a contact") << QByteArray("PATCH") << QStringLiteral("/api/v1/contacts/{id}");
        QTest::newRow("add a note") << QByteArray("POST") << QStringLiteral("/api/v1/contacts/{id}/notes");
    }

    void writesAnswer507AndReadsGoOn()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        path.replace(QStringLiteral("{id}"), m_contact);
        const QJsonObject body = path.endsWith(QLatin1String("/notes"))
                                     ? QJsonObject{{"content", QString(12000, QLatin1Char('n'))}}
                                     : QJsonObject{{"firstName", "Barış"},
                                                   {"email", "baris@ornek.com.tr"},
                                                   {"customFields", FullDisk::bigCustomFields()}};
        QSignalSpy told(&StorageHealth::instance(), &StorageHealth::changed);
        const int refusedBefore = StorageHealth::refusedWrites();
        const QString unusedKey = m_api->server.createApiKey(); // first used while the disk is full
        QVERIFY(FullDisk::fill());

        // Twenty refused writes: each a 507 in the envelope, one line in the log, no 500.
        for (int i = 0; i < 20; ++i) {
            const HttpResult r = method == "POST" ? m_api->client->post(path, body) : m_api->client->patch(path, body);
            QCOMPARE(r.status, 507);
            QCOMPARE(r.errorCode(), QStringLiteral("STORAGE_FULL"));
            const QString message = r.json.value("error").toObject().value("message").toString();
            QVERIFY2(message.contains(QLatin1String("disk holding the database is full")), qPrintable(message));
            QVERIFY(!r.header("x-request-id").isEmpty());
        }
        QCOMPARE(StorageHealth::refusedWrites() - refusedBefore, 20);
        QVERIFY(StorageHealth::isFull());
        QCOMPARE(g_lines.value(QStringLiteral("liaison.db.storage")), 1);
        QVERIFY2(g_serverErrors.isEmpty(), qPrintable(g_serverErrors.join('\n')));
        QCOMPARE(told.count(), 1);
        QCOMPARE(told.at(0).at(0).toBool(), true);
        // A transaction that changes nothing commits on a full disk too: it does not end the state
        // (workers open such ones all the time; the status bar would come and go).
        {
            Transaction nothing;
            nothing.commit();
        }
        QVERIFY(StorageHealth::isFull());

        // Reads go on: a list, one contact, a search, with the API key (whose use is noted once a
        // minute: a write that must not refuse the read).
        const HttpResult list = m_api->client->get("/api/v1/contacts?limit=20");
        QCOMPARE(list.status, 200);
        QCOMPARE(list.json.value("data").toArray().size(), 1);
        QCOMPARE(m_api->client->get("/api/v1/contacts/" + m_contact).status, 200);
        QCOMPARE(m_api->client->get("/api/v1/contacts?search=Ay%C5%9Fe").status, 200);
        QCOMPARE(m_api->server.client(unusedKey)->get("/api/v1/contacts").status, 200);
        // Signing in stores a refresh token: it succeeds while the row fits, else it is a 507 too.
        const HttpResult login = m_api->server.client()->post(
            "/api/v1/auth/login", {{"email", "ayse@ornek.com.tr"}, {"password", "correct horse battery"}});
        QVERIFY2(login.status == 200 || (login.status == 507 && login.errorCode() == QLatin1String("STORAGE_FULL")),
                 login.body.constData());
        QVERIFY2(g_serverErrors.isEmpty(), qPrintable(g_serverErrors.join('\n')));

        // Space is freed: the same write succeeds, the state ends and the window is told.
        FullDisk::free();
        const HttpResult again = method == "POST" ? m_api->client->post(path, body) : m_api->client->patch(path, body);
        QCOMPARE(again.status, method == "POST" ? 201 : 200);
        QVERIFY(!StorageHealth::isFull());
        QCOMPARE(told.count(), 2);
        QCOMPARE(told.at(1).at(0).toBool(), false);
        QCOMPARE(g_lines.value(QStringLiteral("liaison.db.storage")), 2); // and "takes writes again", once
    }
};

QTEST_GUILESS_MAIN(TestStorageFull)
#include "test_storagefull.moc"
