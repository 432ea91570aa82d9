// The Tasks area over real HTTPS on loopback: every endpoint and its errors.
#include "model/accounts/userrepository.h"
#include "model/core/database.h"
#include "model/core/timeutil.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QTimeZone>
#include <QtTest>

class TestTasksApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ApiFixture> m_api;

    QString createTask(const QJsonObject &body)
    {
        const HttpResult r = m_api->client->post(QStringLiteral("/api/v1/tasks"), body);
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value(QLatin1String("id")).toString();
    }

    QString today() const { return QDate::currentDate().toString(Qt::ISODate); }
    QString dayOffset(int days) const { return QDate::currentDate().addDays(days).toString(Qt::ISODate); }

    QStringList titles(const HttpResult &r) const
    {
        QStringList out;
        for (const QJsonValue &v : r.json.value("data").toArray())
            out << v.toObject().value("title").toString();
        return out;
    }

    QStringList eventNames() const
    {
        QStringList out;
        QSqlQuery q = Database::exec("SELECT event FROM outbox WHERE event LIKE 'task.%' ORDER BY seq");
        while (q.next())
            out << q.value(0).toString();
        return out;
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        // The server's tasks time zone is the machine's (default), as QDate::currentDate() here.
        m_api = std::make_unique<ApiFixture>();
    }

    void cleanup() { m_api.reset(); }

    void createsAndReadsTaskDetail()
    {
        const User u = UserRepository(testStore()).create("ali@example.com", "Ali Veli", "agent", "x");
        const HttpResult contact = m_api->client->post(
            "/api/v1/contacts", {{"firstName", "Ayşe"}, {"lastName", "Yılmaz"}, {"phone", "+905321234567"}});
        const QString contactId = contact.data().value("id").toString();
        const HttpResult r =
            m_api->client->post("/api/v1/tasks", {{"title", "Call Ayşe"},
                                                  {"description", "About the offer"},
                                                  {"type", "call"},
                                                  {"priority", "high"},
                                                  {"dueDate", dayOffset(1) + "T09:30:00Z"},
                                                  {"assignedTo", u.id},
                                                  {"contactId", contactId},
                                                  {"reminder", QJsonObject{{"enabled", true}, {"before", 15}}}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.json.value("message").toString(), QString("Task created"));
        const QString id = r.data().value("id").toString();
        QVERIFY(id.startsWith("task_"));

        const HttpResult got = m_api->client->get("/api/v1/tasks/" + id);
        QCOMPARE(got.status, 200);
        const QJsonObject t = got.data();
        QCOMPARE(t.value("title").toString(), QString("Call Ayşe"));
        QCOMPARE(t.value("type").toString(), QString("call"));
        QCOMPARE(t.value("status").toString(), QString("pending"));
        QCOMPARE(t.value("dueDate").toString(), dayOffset(1) + "T09:30:00.000Z");
        QCOMPARE(t.value("assignedTo").toObject().value("email").toString(), QString("ali@example.com"));
        QCOMPARE(t.value("assignedTo").toObject().value("name").toString(), QString("Ali Veli"));
        QCOMPARE(t.value("contact").toObject().value("firstName").toString(), QString("Ayşe"));
        QCOMPARE(t.value("contact").toObject().value("phone").toString(), QString("+905321234567"));
        QCOMPARE(t.value("contact").toObject().value("name").toString(), QString("Ayşe Yılmaz"));
        QVERIFY(t.value("deal").isNull());
        QCOMPARE(t.value("reminder").toObject().value("before").toInt(), 15);
        QVERIFY(t.value("reminder").toObject().value("sentAt").isNull());
        QVERIFY(t.value("notes").isArray());
        QCOMPARE(eventNames(), QStringList{"task.created"});

        // The list shows the short objects.
        const HttpResult list = m_api->client->get("/api/v1/tasks");
        QCOMPARE(list.status, 200);
        const QJsonObject item = list.json.value("data").toArray().at(0).toObject();
        QCOMPARE(item.value("assignedTo").toObject().value("name").toString(), QString("Ali Veli"));
        QVERIFY(!item.value("assignedTo").toObject().contains("email"));
        QCOMPARE(list.json.value("pagination").toObject().value("total").toInt(), 1);
    }

    void rejectsBadBodiesWith400_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("field");
        QTest::newRow("type") << QJsonObject{{"title", "t"}, {"type", "lunch"}} << "type";
        QTest::newRow("priority") << QJsonObject{{"title", "t"}, {"priority", "p1"}} << "priority";
        QTest::newRow("status") << QJsonObject{{"title", "t"}, {"status", "open"}} << "status";
        QTest::newRow("dueDate") << QJsonObject{{"title", "t"}, {"dueDate", "next week"}} << "dueDate";
        QTest::newRow("reminder.before") << QJsonObject{{"title", "t"}, {"reminder", QJsonObject{{"before", "10"}}}}
                                         << "reminder.before";
        QTest::newRow("recurrence.interval")
            << QJsonObject{{"title", "t"}, {"recurrence", QJsonObject{{"frequency", "daily"}, {"interval", 0}}}}
            << "recurrence.interval";
        QTest::newRow("recurrence.daysOfWeek")
            << QJsonObject{{"title", "t"},
                           {"recurrence", QJsonObject{{"frequency", "weekly"}, {"daysOfWeek", QJsonArray{"Mondai"}}}}}
            << "recurrence.daysOfWeek";
        QTest::newRow("recurrence.endDate")
            << QJsonObject{{"title", "t"}, {"recurrence", QJsonObject{{"frequency", "daily"}, {"endDate", "soon"}}}}
            << "recurrence.endDate";
    }
    void rejectsBadBodiesWith400()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, field);
        const HttpResult r = m_api->client->post("/api/v1/tasks", body);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorCode(), QString("VALIDATION_ERROR"));
        QVERIFY2(r.json.value("error").toObject().value("details").toObject().contains(field), r.body.constData());
        QVERIFY(eventNames().isEmpty());
    }

    void rejectsMissingOrUnknownWith422_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("field");
        QTest::newRow("no title") << QJsonObject{{"type", "call"}} << "title";
        QTest::newRow("blank title") << QJsonObject{{"title", "  "}} << "title";
        QTest::newRow("empty body") << QJsonObject{} << "title";
        QTest::newRow("no frequency") << QJsonObject{{"title", "t"}, {"recurrence", QJsonObject{{"interval", 2}}}}
                                      << "recurrence.frequency";
        QTest::newRow("unknown contact") << QJsonObject{{"title", "t"}, {"contactId", "contact_nope"}} << "contactId";
        QTest::newRow("unknown deal") << QJsonObject{{"title", "t"}, {"dealId", "deal_nope"}} << "dealId";
        QTest::newRow("unknown user") << QJsonObject{{"title", "t"}, {"assignedTo", "user_nope"}} << "assignedTo";
    }
    void rejectsMissingOrUnknownWith422()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, field);
        const HttpResult r = m_api->client->post("/api/v1/tasks", body);
        QCOMPARE(r.status, 422);
        QCOMPARE(r.errorCode(), QString("VALIDATION_ERROR"));
        QVERIFY2(r.json.value("error").toObject().value("details").toObject().contains(field), r.body.constData());
        QVERIFY(r.json.value("error").toObject().value("message").toString().contains(field));
        QCOMPARE(m_api->client->get("/api/v1/tasks").json.value("pagination").toObject().value("total").toInt(), 0);
    }

    void malformedJsonIs400()
    {
        const HttpResult r = m_api->client->call("POST", "/api/v1/tasks", "{\"title\": ");
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json.value("success").toBool(true), false);
    }

    void listFiltersByStatusVariantsPriorityAndDates()
    {
        const QString a = createTask({{"title", "A"}, {"priority", "high"}, {"dueDate", today()}});
        const QString b = createTask({{"title", "B"}, {"priority", "low"}, {"dueDate", dayOffset(3)}});
        createTask({{"title", "C"}, {"priority", "low"}});
        createTask({{"title", "D"}, {"dueDate", dayOffset(-2)}, {"status", "in_progress"}});
        QCOMPARE(m_api->client->patch("/api/v1/tasks/" + b + "/status", {{"status", "completed"}}).status, 200);

        QCOMPARE(titles(m_api->client->get("/api/v1/tasks")), (QStringList{"D", "A", "B", "C"}));
        QCOMPARE(titles(m_api->client->get("/api/v1/tasks?status=todo")), (QStringList{"A", "C"}));
        QCOMPARE(titles(m_api->client->get("/api/v1/tasks?status=done")), (QStringList{"B"}));
        QCOMPARE(titles(m_api->client->get("/api/v1/tasks?status=todo,in_progress")), (QStringList{"D", "A", "C"}));
        QCOMPARE(titles(m_api->client->get("/api/v1/tasks?priority=low")), (QStringList{"B", "C"}));
        QCOMPARE(titles(m_api->client->get("/api/v1/tasks?dueDate=" + today())), (QStringList{"A"}));
        QCOMPARE(titles(m_api->client->get("/api/v1/tasks?dueAfter=" + dayOffset(1))), (QStringList{"B"}));
        QCOMPARE(titles(m_api->client->get("/api/v1/tasks?dueBefore=" + today())), (QStringList{"D"}));
        QCOMPARE(titles(m_api->client->get("/api/v1/tasks?limit=2&page=2")), (QStringList{"B", "C"}));
        Q_UNUSED(a);

        for (const char *bad : {"status=open", "priority=p0", "dueDate=tomorrow", "dueBefore=x", "page=0", "type=x"}) {
            const HttpResult r = m_api->client->get(QStringLiteral("/api/v1/tasks?") + bad);
            QVERIFY2(r.status == 400, bad);
        }
    }

    void listFiltersByContactAndAssignee()
    {
        const User u = UserRepository(testStore()).create("b@example.com", "B", "agent", "x");
        const QString contactId =
            m_api->client->post("/api/v1/contacts", {{"firstName", "X"}, {"email", "x@example.com"}})
                .data()
                .value("id")
                .toString();
        createTask({{"title", "mine"}, {"assignedTo", u.id}});
        createTask({{"title", "theirs"}, {"contactId", contactId}});
        QCOMPARE(titles(m_api->client->get("/api/v1/tasks?assignedTo=" + u.id)), QStringList{"mine"});
        QCOMPARE(titles(m_api->client->get("/api/v1/tasks?contactId=" + contactId)), QStringList{"theirs"});
        QCOMPARE(titles(m_api->client->get("/api/v1/tasks?dealId=deal_none")), QStringList{});
    }

    void todayAndOverdueAreLiteralSegments()
    {
        createTask({{"title", "today"}, {"dueDate", today()}});
        createTask({{"title", "yesterday"}, {"dueDate", dayOffset(-1)}});
        createTask(
            {{"title", "past hour"}, {"dueDate", TimeUtil::iso(QDateTime::currentDateTimeUtc().addSecs(-3600))}});
        createTask({{"title", "tomorrow"}, {"dueDate", dayOffset(1)}});
        const QString done = createTask({{"title", "done yesterday"}, {"dueDate", dayOffset(-1)}});
        m_api->client->patch("/api/v1/tasks/" + done + "/status", {{"status", "completed"}});

        const HttpResult t = m_api->client->get("/api/v1/tasks/today");
        QCOMPARE(t.status, 200);
        QVERIFY(titles(t).contains("today"));
        QVERIFY(!titles(t).contains("tomorrow"));
        QVERIFY(!titles(t).contains("yesterday"));
        QVERIFY(t.json.contains("pagination"));

        const HttpResult o = m_api->client->get("/api/v1/tasks/overdue");
        QCOMPARE(o.status, 200);
        QVERIFY(titles(o).contains("yesterday"));
        QVERIFY(titles(o).contains("past hour"));
        QVERIFY(!titles(o).contains("today"));
        QVERIFY(!titles(o).contains("done yesterday"));
        for (const QJsonValue &v : o.json.value("data").toArray())
            QVERIFY(v.toObject().value("isOverdue").toBool());

        QCOMPARE(m_api->client->del("/api/v1/tasks/today").status, 405);
    }

    void updatesWithPutAndPatchPartially()
    {
        const QString id = createTask({{"title", "Old"}, {"priority", "low"}, {"description", "keep me"}});
        HttpResult r = m_api->client->put("/api/v1/tasks/" + id, {{"title", "New"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("title").toString(), QString("New"));
        QCOMPARE(r.data().value("description").toString(), QString("keep me"));
        QCOMPARE(r.data().value("priority").toString(), QString("low"));
        r = m_api->client->patch(
            "/api/v1/tasks/" + id,
            {{"priority", "urgent"},
             {"dueDate", dayOffset(2)},
             {"recurrence", QJsonObject{{"frequency", "weekly"}, {"daysOfWeek", QJsonArray{"fri"}}}}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("priority").toString(), QString("urgent"));
        QCOMPARE(r.data().value("recurrence").toObject().value("daysOfWeek").toArray().at(0).toString(),
                 QString("friday"));
        r = m_api->client->patch("/api/v1/tasks/" + id,
                                 {{"recurrence", QJsonValue::Null}, {"dueDate", QJsonValue::Null}});
        QVERIFY(r.data().value("recurrence").isNull());
        QVERIFY(r.data().value("dueDate").isNull());
        QCOMPARE(m_api->client->patch("/api/v1/tasks/" + id, {{"title", ""}}).status, 422);
        QCOMPARE(m_api->client->patch("/api/v1/tasks/" + id, {{"priority", "p9"}}).status, 400);
        QCOMPARE(m_api->client->patch("/api/v1/tasks/" + id, {{"contactId", "contact_x"}}).status, 422);
        QCOMPARE(m_api->client->put("/api/v1/tasks/task_missing", {{"title", "x"}}).status, 404);
        QCOMPARE(eventNames(), (QStringList{"task.created", "task.updated", "task.updated", "task.updated"}));
    }

    void statusTransitionsNotesAndRecurrence()
    {
        const QString id = createTask(
            {{"title", "Weekly call"}, {"dueDate", today()}, {"recurrence", QJsonObject{{"frequency", "weekly"}}}});
        HttpResult r = m_api->client->patch("/api/v1/tasks/" + id + "/status", {{"status", "in_progress"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("in_progress"));
        r = m_api->client->patch("/api/v1/tasks/" + id + "/status", {{"status", "completed"}, {"note", "Went well"}});
        QCOMPARE(r.status, 200);
        QVERIFY(!r.data().value("completedAt").toString().isEmpty());
        const QJsonObject next = r.data().value("nextTask").toObject();
        QCOMPARE(next.value("dueDate").toString(), dayOffset(7));
        QCOMPARE(next.value("previousTaskId").toString(), id);
        QCOMPARE(r.data().value("nextTaskId").toString(), next.value("id").toString());
        QCOMPARE(r.data().value("notes").toArray().at(0).toObject().value("content").toString(), QString("Went well"));

        r = m_api->client->patch("/api/v1/tasks/" + id + "/status", {{"status", "in_progress"}});
        QCOMPARE(r.status, 409);
        QVERIFY(r.json.value("error").toObject().value("message").toString().contains("completed"));
        QVERIFY(r.json.value("error").toObject().value("message").toString().contains("in_progress"));
        QCOMPARE(m_api->client->patch("/api/v1/tasks/" + id + "/status", {}).status, 422);
        QCOMPARE(m_api->client->patch("/api/v1/tasks/" + id + "/status", {{"status", "finished"}}).status, 400);
        QCOMPARE(m_api->client->patch("/api/v1/tasks/" + id + "/status", {{"status", 3}}).status, 400);
        QCOMPARE(m_api->client->patch("/api/v1/tasks/" + id + "/status", {{"status", "pending"}, {"note", 5}}).status,
                 400);
        QCOMPARE(m_api->client->patch("/api/v1/tasks/task_missing/status", {{"status", "pending"}}).status, 404);
        QCOMPARE(eventNames(), (QStringList{"task.created", "task.updated", "task.completed", "task.created"}));
    }

    void assignsAndUnassigns()
    {
        const User u = UserRepository(testStore()).create("c@example.com", "Cem", "agent", "x");
        const QString id = createTask({{"title", "t"}});
        HttpResult r = m_api->client->patch("/api/v1/tasks/" + id + "/assign", {{"assignedTo", u.id}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("assignedTo").toObject().value("id").toString(), u.id);
        QCOMPARE(m_api->client->patch("/api/v1/tasks/" + id + "/assign", {{"assignedTo", "user_nope"}}).status, 422);
        QCOMPARE(m_api->client->patch("/api/v1/tasks/" + id + "/assign", {}).status, 422);
        QCOMPARE(m_api->client->patch("/api/v1/tasks/" + id + "/assign", {{"assignedTo", 7}}).status, 400);
        QCOMPARE(m_api->client->patch("/api/v1/tasks/task_missing/assign", {{"assignedTo", u.id}}).status, 404);
        r = m_api->client->patch("/api/v1/tasks/" + id + "/assign", {{"assignedTo", QJsonValue::Null}});
        QCOMPARE(r.status, 200);
        QVERIFY(r.data().value("assignedTo").isNull());
    }

    void addsNotes()
    {
        const QString id = createTask({{"title", "t"}});
        const HttpResult r = m_api->client->post("/api/v1/tasks/" + id + "/notes", {{"content", "First"}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("content").toString(), QString("First"));
        QVERIFY(r.data().value("createdBy").toString().startsWith("apikey_"));
        QCOMPARE(m_api->client->post("/api/v1/tasks/" + id + "/notes", {{"content", " "}}).status, 422);
        QCOMPARE(m_api->client->post("/api/v1/tasks/" + id + "/notes", {{"content", 1}}).status, 400);
        QCOMPARE(m_api->client->post("/api/v1/tasks/task_missing/notes", {{"content", "x"}}).status, 404);
        QCOMPARE(m_api->client->get("/api/v1/tasks/" + id).data().value("notes").toArray().size(), 1);
    }

    void deletes()
    {
        const QString id = createTask({{"title", "t"}});
        const HttpResult r = m_api->client->del("/api/v1/tasks/" + id);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("message").toString(), QString("Task deleted"));
        QCOMPARE(m_api->client->get("/api/v1/tasks/" + id).status, 404);
        QCOMPARE(m_api->client->del("/api/v1/tasks/" + id).status, 404);
    }

    void scopesAreEnforced()
    {
        const QString id = createTask({{"title", "t"}});
        ApiClient reader(m_api->server.baseUrl(), m_api->server.certificate());
        reader.setToken(m_api->server.createApiKey({"tasks:read"}));
        QCOMPARE(reader.get("/api/v1/tasks").status, 200);
        QCOMPARE(reader.get("/api/v1/tasks/today").status, 200);
        QCOMPARE(reader.post("/api/v1/tasks", {{"title", "x"}}).status, 403);
        QCOMPARE(reader.patch("/api/v1/tasks/" + id + "/status", {{"status", "completed"}}).status, 403);
        ApiClient other(m_api->server.baseUrl(), m_api->server.certificate());
        other.setToken(m_api->server.createApiKey({"contacts:read"}));
        QCOMPARE(other.get("/api/v1/tasks").status, 403);
        ApiClient anonymous(m_api->server.baseUrl(), m_api->server.certificate());
        QCOMPARE(anonymous.get("/api/v1/tasks/overdue").status, 401);
    }

    void everyTaskRouteIsDocumented()
    {
        const QJsonObject paths = m_api->server.server().openApi().value("paths").toObject();
        for (const char *p : {"/api/v1/tasks", "/api/v1/tasks/{id}", "/api/v1/tasks/today", "/api/v1/tasks/overdue",
                              "/api/v1/tasks/{id}/status", "/api/v1/tasks/{id}/assign", "/api/v1/tasks/{id}/notes"})
            QVERIFY2(paths.contains(p), p);
        const QJsonObject schemas =
            m_api->server.server().openApi().value("components").toObject().value("schemas").toObject();
        for (const char *s : {"Task", "TaskDetail", "TaskInput", "TaskNote", "TaskReminder", "TaskRecurrence"})
            QVERIFY2(schemas.contains(s), s);
    }
};

QTEST_GUILESS_MAIN(TestTasksApi)
#include "test_tasksapi.moc"
