// A refused write must leave nothing behind on the server thread's connection: no open read
// snapshot, no statement holding a row. Once, a 409 for a duplicate e-mail left a cached statement
// with an unread row, so the thread's next writes failed with "database is locked" as soon as another
// connection had written, and its reads saw a frozen state. Each row below makes one refused write
// over real HTTPS; then a write from another connection (another thread, as a second server thread
// or another process would) must be seen by the API at once, the API's own write must succeed, and
// new client connections must agree on the data.
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QtTest>

#include <thread>

class TestRefusedWrites : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ApiFixture> m_api; // its client: an API key
    std::unique_ptr<ApiClient> m_user; // JWT (segments)
    QHash<QString, QString> m_ids;     // {contactA}, {contactB}, {deal}, {task}, {incoming}, ...
    int m_outside = 0;
    int m_leaksAtStart = 0;

    QString created(const HttpResult &r)
    {
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value(QLatin1String("id")).toString();
    }

    // A contact written through another connection, as another server thread or process does.
    QString writeFromAnotherConnection()
    {
        const QString email = QStringLiteral("outside%1@example.com").arg(++m_outside);
        QString id;
        QString error;
        std::thread writer([&] {
            try {
                ContactRepository contacts(testStore());
                id = contacts.create(ContactRules::parse({{"firstName", "Dışarıdan"}, {"email", email}})).id;
            } catch (const std::exception &e) {
                error = QString::fromUtf8(e.what());
            }
            Database::closeThreadConnection();
        });
        writer.join();
        if (!error.isEmpty())
            qWarning() << "the other connection could not write:" << error;
        return id;
    }

    QString expand(QString path) const
    {
        for (auto it = m_ids.cbegin(); it != m_ids.cend(); ++it)
            path.replace(QStringLiteral("{%1}").arg(it.key()), it.value());
        return path;
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_api = std::make_unique<ApiFixture>();
        m_user = m_api->server.signedInClient("admin@example.com");
        QVERIFY(m_user);

        m_ids.clear();
        m_ids["contactA"] = created(m_api->client->post(
            "/api/v1/contacts", {{"firstName", "Ayşe"}, {"email", "ayse@example.com"}, {"phone", "+905321112233"}}));
        m_ids["contactB"] = created(m_api->client->post(
            "/api/v1/contacts", {{"firstName", "Barış"}, {"email", "baris@example.com"}, {"phone", "+905329998877"}}));
        m_ids["deal"] = created(m_api->client->post(
            "/api/v1/deals",
            {{"name", "Kurulum"}, {"value", 1000}, {"currency", "TRY"}, {"contactId", m_ids["contactA"]}}));
        m_ids["task"] =
            created(m_api->client->post("/api/v1/tasks", {{"title", "Ara"}, {"contactId", m_ids["contactA"]}}));
        m_ids["webhook"] = created(m_api->client->post(
            "/api/v1/webhooks", {{"url", "https://hooks.example.com/in"}, {"events", QJsonArray{"*"}}}));
        const HttpResult incoming =
            m_api->client->post("/api/v1/webhooks/incoming", {{"name", "Form"}, {"action", "contact.upsert"}});
        QCOMPARE(incoming.status, 201);
        m_ids["incoming"] = incoming.data().value("id").toString();
        m_ids["segment"] = created(m_user->post(
            "/api/v1/contacts/segments",
            {{"name", "VIP"},
             {"filters", QJsonObject{{"operator", "AND"},
                                     {"rules", QJsonArray{QJsonObject{
                                                   {"field", "tags"}, {"operator", "contains"}, {"value", "vip"}}}}}},
             {"isDynamic", true}}));
        for (const QString &key : m_ids.keys())
            QVERIFY2(!m_ids.value(key).isEmpty(), qPrintable(key));
        m_leaksAtStart = Database::leakedSnapshots();
    }

    void cleanup()
    {
        if (!QTest::currentTestFailed() && !QByteArray(QTest::currentTestFunction()).contains("Snapshot"))
            QCOMPARE(Database::leakedSnapshots(), m_leaksAtStart);
        m_user.reset();
        m_api.reset();
    }

    void everyConnectionSeesEveryWriteAfterARefusedWrite_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("asUser");
        QTest::addColumn<int>("status");

        auto row = [](const char *name, const char *method, const char *path, const char *body, int status,
                      bool asUser = false) {
            QTest::newRow(name) << QByteArray(method) << QString::fromUtf8(path) << QByteArray(body) << asUser
                                << status;
        };
        // Contacts
        row("contact: duplicate e-mail", "POST", "/api/v1/contacts",
            "{\"firstName\":\"A\",\"email\":\"AYSE@example.com\"}", 409);
        row("contact: duplicate phone", "POST", "/api/v1/contacts",
            "{\"firstName\":\"A\",\"phone\":\"+90 532 111 22 33\"}", 409);
        row("contact: PATCH onto another's phone", "PATCH", "/api/v1/contacts/{contactB}",
            "{\"phone\":\"+905321112233\"}", 409);
        row("contact: PUT onto another's e-mail", "PUT", "/api/v1/contacts/{contactB}",
            "{\"email\":\"ayse@example.com\"}", 409);
        row("contact: missing name", "POST", "/api/v1/contacts", "{\"email\":\"x@example.com\"}", 422);
        row("contact: malformed JSON", "POST", "/api/v1/contacts", "{\"firstName\":", 400);
        row("contact: wrong type", "POST", "/api/v1/contacts", "{\"firstName\":5,\"email\":\"y@example.com\"}", 400);
        row("contact: unknown id", "PATCH", "/api/v1/contacts/contact_nope", "{\"firstName\":\"Q\"}", 404);
        row("contact: delete unknown", "DELETE", "/api/v1/contacts/contact_nope", "", 404);
        row("contact: note without content", "POST", "/api/v1/contacts/{contactA}/notes", "{}", 422);
        row("contact: tags not an array", "POST", "/api/v1/contacts/{contactA}/tags", "{\"tags\":\"vip\"}", 400);
        // Segments
        row("segment: bad rule", "POST", "/api/v1/contacts/segments",
            "{\"name\":\"X\",\"filters\":{\"operator\":\"AND\",\"rules\":[{\"field\":\"nope\",\"operator\":\"equals\","
            "\"value\":1}]}}",
            400, true);
        row("segment: unknown id", "PATCH", "/api/v1/contacts/segments/segment_nope", "{\"name\":\"Y\"}", 404, true);
        // Deals
        row("deal: unknown contact", "POST", "/api/v1/deals",
            "{\"name\":\"D\",\"value\":5,\"contactId\":\"contact_nope\"}", 422);
        row("deal: negative value", "POST", "/api/v1/deals", "{\"name\":\"D\",\"value\":-5}", 400);
        row("deal: unknown stage", "PATCH", "/api/v1/deals/{deal}/stage", "{\"stage\":\"nope\"}", 422);
        row("deal: unknown id", "PUT", "/api/v1/deals/deal_nope", "{\"name\":\"Q\"}", 404);
        row("deal: bad lost reason", "POST", "/api/v1/deals/{deal}/lost", "{\"reason\":\"nope\"}", 400);
        // Tasks
        row("task: no title", "POST", "/api/v1/tasks", "{\"description\":\"x\"}", 422);
        row("task: unknown contact", "POST", "/api/v1/tasks", "{\"title\":\"T\",\"contactId\":\"contact_nope\"}", 422);
        row("task: bad status", "PATCH", "/api/v1/tasks/{task}/status", "{\"status\":\"nope\"}", 400);
        row("task: unknown assignee", "PATCH", "/api/v1/tasks/{task}/assign", "{\"assignedTo\":\"user_nope\"}", 422);
        // Webhooks
        row("webhook: bad URL", "POST", "/api/v1/webhooks", "{\"url\":\"ftp://x\",\"events\":[\"*\"]}", 400);
        row("webhook: unknown event", "POST", "/api/v1/webhooks",
            "{\"url\":\"https://a.example.com\",\"events\":[\"nope\"]}", 400);
        row("webhook: unknown id", "DELETE", "/api/v1/webhooks/webhook_nope", "", 404);
        // The public incoming endpoint: contact.upsert colliding on e-mail and phone, and no body
        row("incoming: upsert collides", "POST", "/webhooks/incoming/{incoming}",
            "{\"event\":\"form\",\"data\":{\"firstName\":\"C\",\"email\":\"ayse@example.com\",\"phone\":\"+"
            "905329998877\"}}",
            409);
        row("incoming: empty body", "POST", "/webhooks/incoming/{incoming}", "", 400);
        // Conversations and messages
        row("message: unknown conversation", "POST", "/api/v1/messages/send",
            "{\"conversationId\":\"conv_nope\",\"content\":\"x\",\"type\":\"text\"}", 404);
    }

    void everyConnectionSeesEveryWriteAfterARefusedWrite()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QByteArray, body);
        QFETCH(bool, asUser);
        QFETCH(int, status);

        const int leaksBefore = Database::leakedSnapshots();
        ApiClient &client = asUser ? *m_user : *m_api->client;
        const HttpResult refused = client.call(method, expand(path), body, {{"Content-Type", "application/json"}});
        QVERIFY2(refused.status == status, refused.body.constData());
        QVERIFY(!refused.json.value("success").toBool(true));
        QVERIFY(!refused.errorCode().isEmpty());
        // The server's thread holds no snapshot after the answer, and none had to be released.
        QVERIFY(!Database::holdsSnapshot());
        QCOMPARE(Database::leakedSnapshots(), leaksBefore);

        for (int round = 0; round < 3; ++round) {
            // Another connection writes; the API sees it at once, from new client connections too.
            const QString outside = writeFromAnotherConnection();
            QVERIFY(!outside.isEmpty());
            QCOMPARE(m_api->client->get("/api/v1/contacts/" + outside).status, 200);
            const std::unique_ptr<ApiClient> fresh = m_api->server.apiKeyClient();
            QCOMPARE(fresh->get("/api/v1/contacts/" + outside).status, 200);
            // The API's own writes succeed, and every connection counts the same contacts.
            const HttpResult mine = m_api->client->post(
                "/api/v1/contacts",
                {{"firstName", "Zeynep"}, {"email", QStringLiteral("z%1-%2@example.com").arg(round).arg(m_outside)}});
            QCOMPARE(mine.status, 201);
            const HttpResult a = m_api->client->get("/api/v1/contacts?limit=1");
            const HttpResult b = fresh->get("/api/v1/contacts?limit=1");
            QCOMPARE(a.status, 200);
            const int total = a.json.value("pagination").toObject().value("total").toInt();
            QCOMPARE(b.json.value("pagination").toObject().value("total").toInt(), total);
            QCOMPARE(total, 2 + 2 * (round + 1));
        }
        QVERIFY(!Database::holdsSnapshot());
        QCOMPARE(Database::leakedSnapshots(), leaksBefore);
    }

    // An empty body is refused as any malformed one, and the call is logged.
    void anEmptyIncomingCallIsRefusedAndLogged()
    {
        const HttpResult r = m_api->client->call("POST", expand("/webhooks/incoming/{incoming}"), QByteArray(),
                                                 {{"Content-Type", "application/json"}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorCode(), QString("INVALID_JSON"));
        const HttpResult calls = m_api->client->get(expand("/api/v1/webhooks/incoming/{incoming}/calls"));
        QCOMPARE(calls.status, 200);
        const QJsonArray list = calls.json.value("data").toArray();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().toObject().value("outcome").toString(), QString("rejected"));
        QCOMPARE(list.first().toObject().value("statusCode").toInt(), 400);
    }

    // The guard itself: a statement left active between units of work is found, logged, counted and
    // released, so that the connection sees other connections' writes again.
    void releaseSnapshotEndsALeftOverStatement()
    {
        const int before = Database::leakedSnapshots();
        QSqlQuery leaked = Database::exec(QStringLiteral("SELECT id FROM contacts"));
        QVERIFY(leaked.next()); // an unread row: SQLite's read snapshot stays open
        if (Database::dialect() == Database::Dialect::PostgreSQL) {
            // PostgreSQL hands the whole result over and ends the statement's snapshot with it
            // (autocommit): an unread row holds nothing, and there is nothing to release.
            QVERIFY(!Database::holdsSnapshot());
            QVERIFY(!Database::releaseSnapshot());
            QCOMPARE(Database::leakedSnapshots(), before);
            return;
        }
        QVERIFY(Database::holdsSnapshot());
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression("read snapshot outlived its unit of work"));
        QVERIFY(Database::releaseSnapshot());
        QCOMPARE(Database::leakedSnapshots(), before + 1);
        QVERIFY(!Database::holdsSnapshot());
        QVERIFY(!Database::releaseSnapshot());
    }

    void theWatchdogReportsASnapshotHeldTooLong()
    {
        const int before = Database::leakedSnapshots();
        CachedQuery held = Database::execCached(QStringLiteral("SELECT id FROM contacts"));
        QVERIFY(held.next());
        if (Database::dialect() == Database::Dialect::PostgreSQL) {
            // As above: nothing is held on PostgreSQL, so the watchdog has nothing to report.
            Database::watchSnapshot(1);
            QTest::qWait(1100); // negative check: past the limit, still nothing to report
            Database::watchSnapshot(1);
            QCOMPARE(Database::leakedSnapshots(), before);
            return;
        }
        Database::watchSnapshot(1); // first sighting
        QCOMPARE(Database::leakedSnapshots(), before);
        QTest::qWait(1100); // the time itself: the snapshot must be held past the 1 s limit
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression("held a read snapshot for more than 1 s"));
        Database::watchSnapshot(1);
        QCOMPARE(Database::leakedSnapshots(), before + 1);
        QVERIFY(!Database::holdsSnapshot());
    }
};

QTEST_GUILESS_MAIN(TestRefusedWrites)
#include "test_refusedwrites.moc"
