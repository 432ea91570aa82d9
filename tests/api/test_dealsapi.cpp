// The Deals and Pipelines areas over real HTTPS on loopback: every endpoint and every error status.
#include "tests/support/testsupport.h"

#include "model/accounts/userrepository.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QtTest>

#include "model/core/database.h"

class TestDealsApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ApiFixture> m_api;

    QString createDeal(const QJsonObject &body)
    {
        const HttpResult r = m_api->client->post(QStringLiteral("/api/v1/deals"), body);
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value(QLatin1String("id")).toString();
    }

    QString createContact()
    {
        const HttpResult r = m_api->client->post(
            "/api/v1/contacts",
            {{"firstName", "Ayşe"}, {"lastName", "Yılmaz"}, {"company", "Anadolu"}, {"email", "ayse@example.com"}});
        return r.data().value("id").toString();
    }

    QString createUser()
    {
        m_api->server.createUser("owner@example.com", "correct horse battery");
        return UserRepository(testStore()).findForLogin("owner@example.com")->first.id;
    }

    std::unique_ptr<ApiClient> clientWithScopes(const QStringList &scopes)
    {
        return m_api->server.apiKeyClient(scopes);
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_api = std::make_unique<ApiFixture>();
    }

    void cleanup() { m_api.reset(); }

    void createsAndReadsDetail()
    {
        const QString contactId = createContact();
        const QString userId = createUser();
        const HttpResult r = m_api->client->post("/api/v1/deals", {{"name", "Fleet renewal"},
                                                                   {"value", 250000},
                                                                   {"currency", "TRY"},
                                                                   {"stage", "proposal"},
                                                                   {"probability", 60},
                                                                   {"contactId", contactId},
                                                                   {"assignedTo", userId},
                                                                   {"expectedCloseDate", "2026-03-31"},
                                                                   {"description", "40 vans"},
                                                                   {"customFields", QJsonObject{{"source", "fair"}}}});
        QCOMPARE(r.status, 201);
        QVERIFY(!r.json.value("message").toString().isEmpty());
        const QJsonObject created = r.data();
        const QString id = created.value("id").toString();
        QVERIFY(id.startsWith("deal_"));
        QCOMPARE(created.value("name").toString(), QString("Fleet renewal"));
        QCOMPARE(created.value("value").toDouble(), 250000.0);
        QCOMPARE(created.value("stage").toString(), QString("proposal"));
        QVERIFY(created.value("createdAt").toString().endsWith('Z'));

        const HttpResult got = m_api->client->get("/api/v1/deals/" + id);
        QCOMPARE(got.status, 200);
        const QJsonObject d = got.data();
        QCOMPARE(d.value("probability").toInt(), 60);
        QCOMPARE(d.value("expectedCloseDate").toString(), QString("2026-03-31"));
        QCOMPARE(d.value("pipelineId").toString(), QString("pipeline_default"));
        const QJsonObject contact = d.value("contact").toObject();
        QCOMPARE(contact.value("id").toString(), contactId);
        QCOMPARE(contact.value("name").toString(), QString("Ayşe Yılmaz"));
        QCOMPARE(contact.value("firstName").toString(), QString("Ayşe"));
        QCOMPARE(contact.value("lastName").toString(), QString("Yılmaz"));
        QCOMPARE(contact.value("company").toString(), QString("Anadolu"));
        QCOMPARE(contact.value("email").toString(), QString("ayse@example.com"));
        QCOMPARE(d.value("assignedTo").toObject().value("id").toString(), userId);
        QVERIFY(!d.value("assignedTo").toObject().value("name").toString().isEmpty());
        QVERIFY(d.value("activities").isArray());
        QCOMPARE(d.value("tasks").toArray().size(), 0);
        QCOMPARE(d.value("isRotten").toBool(true), false);

        // The contact detail lists its deals.
        const QJsonArray deals = m_api->client->get("/api/v1/contacts/" + contactId).data().value("deals").toArray();
        QCOMPARE(deals.size(), 1);
        QCOMPARE(deals.at(0).toObject().value("id").toString(), id);
        QCOMPARE(deals.at(0).toObject().value("stage").toString(), QString("proposal"));
        QCOMPARE(deals.at(0).toObject().value("value").toDouble(), 250000.0);
    }

    void rejectsBadInput_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("field");
        QTest::newRow("no name") << QJsonObject{{"value", 10}} << 422 << "name";
        QTest::newRow("negative value") << QJsonObject{{"name", "A"}, {"value", -5}} << 400 << "value";
        QTest::newRow("value text") << QJsonObject{{"name", "A"}, {"value", "5"}} << 400 << "value";
        QTest::newRow("bad currency") << QJsonObject{{"name", "A"}, {"currency", "DOLLAR"}} << 400 << "currency";
        QTest::newRow("probability -1") << QJsonObject{{"name", "A"}, {"probability", -1}} << 400 << "probability";
        QTest::newRow("bad date") << QJsonObject{{"name", "A"}, {"expectedCloseDate", "next week"}} << 400
                                  << "expectedCloseDate";
        QTest::newRow("unknown stage") << QJsonObject{{"name", "A"}, {"stage", "qualified"}} << 422 << "stage";
        QTest::newRow("unknown contact") << QJsonObject{{"name", "A"}, {"contactId", "contact_x"}} << 422
                                         << "contactId";
        QTest::newRow("unknown user") << QJsonObject{{"name", "A"}, {"assignedTo", "user_x"}} << 422 << "assignedTo";
        QTest::newRow("unknown pipeline") << QJsonObject{{"name", "A"}, {"pipelineId", "p"}} << 422 << "pipelineId";
    }
    void rejectsBadInput()
    {
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QFETCH(QString, field);
        const HttpResult r = m_api->client->post("/api/v1/deals", body);
        QCOMPARE(r.status, status);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QCOMPARE(r.errorCode(), QString("VALIDATION_ERROR"));
        QVERIFY2(r.json.value("error").toObject().value("details").toObject().contains(field), r.body.constData());
        QCOMPARE(m_api->client->get("/api/v1/deals").json.value("pagination").toObject().value("total").toInt(), 0);
    }

    void malformedJsonAndEmptyBody()
    {
        QCOMPARE(m_api->client->call("POST", "/api/v1/deals", "{\"name\": ").status, 400);
        QCOMPARE(m_api->client->call("POST", "/api/v1/deals", "[1]").status, 400);
        QCOMPARE(m_api->client->call("POST", "/api/v1/deals", "").status, 422);
    }

    void listsWithPaginationAndFilters()
    {
        const QString contactId = createContact();
        const QString userId = createUser();
        for (int i = 0; i < 5; ++i)
            createDeal({{"name", QString("Lead %1").arg(i)}, {"value", 100 * (i + 1)}});
        createDeal({{"name", "Mine"},
                    {"value", 5000},
                    {"stage", "negotiation"},
                    {"assignedTo", userId},
                    {"contactId", contactId}});
        HttpResult r = m_api->client->get("/api/v1/deals?page=2&limit=4");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("data").toArray().size(), 2);
        const QJsonObject pagination = r.json.value("pagination").toObject();
        QCOMPARE(pagination.value("total").toInt(), 6);
        QCOMPARE(pagination.value("page").toInt(), 2);
        QCOMPARE(pagination.value("limit").toInt(), 4);
        QCOMPARE(m_api->client->get("/api/v1/deals?stage=negotiation").json.value("data").toArray().size(), 1);
        QCOMPARE(m_api->client->get("/api/v1/deals?stage=lead,negotiation").json.value("data").toArray().size(), 6);
        QCOMPARE(m_api->client->get("/api/v1/deals?assignedTo=" + userId).json.value("data").toArray().size(), 1);
        QCOMPARE(m_api->client->get("/api/v1/deals?contactId=" + contactId).json.value("data").toArray().size(), 1);
        QCOMPARE(m_api->client->get("/api/v1/deals?minValue=300&maxValue=500").json.value("data").toArray().size(), 3);
        QCOMPARE(m_api->client->get("/api/v1/deals?rotten=true").json.value("data").toArray().size(), 0);
        const QJsonObject first =
            m_api->client->get("/api/v1/deals?contactId=" + contactId).json.value("data").toArray().at(0).toObject();
        QCOMPARE(first.value("contact").toObject().value("name").toString(), QString("Ayşe Yılmaz"));
        QCOMPARE(first.value("assignedTo").toObject().value("id").toString(), userId);
        QCOMPARE(m_api->client->get("/api/v1/deals?minValue=abc").status, 400);
        QCOMPARE(m_api->client->get("/api/v1/deals?rotten=maybe").status, 400);
        QCOMPARE(m_api->client->get("/api/v1/deals?page=0").status, 400);
    }

    void pipelineIsLiteralSegmentAndSummarises()
    {
        createDeal({{"name", "A"}, {"value", 1000}, {"probability", 10}});
        createDeal({{"name", "B"}, {"value", 3000}, {"stage", "negotiation"}, {"probability", 50}});
        createDeal({{"name", "C"}, {"value", 99}, {"currency", "USD"}});
        const HttpResult r = m_api->client->get("/api/v1/deals/pipeline");
        QCOMPARE(r.status, 200);
        const QJsonObject d = r.data();
        QCOMPARE(d.value("currency").toString(), QString("TRY"));
        QCOMPARE(d.value("currencies").toArray(), QJsonArray({"TRY", "USD"}));
        const QJsonArray stages = d.value("stages").toArray();
        QCOMPARE(stages.size(), 6);
        QCOMPARE(stages.at(0).toObject().value("stage").toString(), QString("lead"));
        QCOMPARE(stages.at(0).toObject().value("count").toInt(), 1);
        QCOMPARE(stages.at(0).toObject().value("value").toDouble(), 1000.0);
        QCOMPARE(stages.at(3).toObject().value("value").toDouble(), 3000.0);
        const QJsonObject s = d.value("summary").toObject();
        QCOMPARE(s.value("totalDeals").toInt(), 2);
        QCOMPARE(s.value("totalValue").toDouble(), 4000.0);
        QCOMPARE(s.value("weightedValue").toDouble(), 1600.0);
        QCOMPARE(s.value("avgDealSize").toDouble(), 2000.0);
        QCOMPARE(d.value("allCurrencies").toObject().value("openDeals").toInt(), 3);

        const QJsonObject usd = m_api->client->get("/api/v1/deals/pipeline?currency=usd").data();
        QCOMPARE(usd.value("summary").toObject().value("totalValue").toDouble(), 99.0);
        QCOMPARE(m_api->client->get("/api/v1/deals/pipeline?currency=ZZZ").status, 400);
        QCOMPARE(m_api->client->get("/api/v1/deals/pipeline?pipelineId=pipeline_x").status, 422);
        QCOMPARE(m_api->client->get("/api/v1/deals/pipeline?pipelineId=pipeline_default").status, 200);
        // Other methods on the literal are not read as /deals/:id either.
        QCOMPARE(m_api->client->del("/api/v1/deals/pipeline").status, 405);
    }

    void updatesWithPutAndPatch()
    {
        const QString id = createDeal({{"name", "A"}, {"value", 10}});
        HttpResult r = m_api->client->put("/api/v1/deals/" + id, {{"value", 20}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("value").toDouble(), 20.0);
        QCOMPARE(r.data().value("name").toString(), QString("A"));
        r = m_api->client->patch("/api/v1/deals/" + id, {{"name", "B"}, {"stage", "contact"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("name").toString(), QString("B"));
        QCOMPARE(r.data().value("stage").toString(), QString("contact"));
        QCOMPARE(m_api->client->patch("/api/v1/deals/" + id, {{"name", ""}}).status, 422);
        QCOMPARE(m_api->client->patch("/api/v1/deals/" + id, {{"value", -1}}).status, 400);
        QCOMPARE(m_api->client->patch("/api/v1/deals/deal_nope", {{"value", 1}}).status, 404);
        const QJsonArray acts = m_api->client->get("/api/v1/deals/" + id).data().value("activities").toArray();
        QCOMPARE(acts.at(0).toObject().value("type").toString(), QString("stage_change"));
        QCOMPARE(acts.at(0).toObject().value("from").toString(), QString("lead"));
        QCOMPARE(acts.at(0).toObject().value("to").toString(), QString("contact"));
    }

    void deletes()
    {
        const QString id = createDeal({{"name", "A"}});
        const HttpResult r = m_api->client->del("/api/v1/deals/" + id);
        QCOMPARE(r.status, 200);
        QVERIFY(!r.json.value("message").toString().isEmpty());
        QCOMPARE(m_api->client->get("/api/v1/deals/" + id).status, 404);
        QCOMPARE(m_api->client->del("/api/v1/deals/" + id).status, 404);
        QCOMPARE(m_api->client->get("/api/v1/deals/" + id).errorCode(), QString("NOT_FOUND"));
    }

    void movesStageWithNoteAndUser()
    {
        const QString id = createDeal({{"name", "A"}});
        HttpResult r =
            m_api->client->patch("/api/v1/deals/" + id + "/stage", {{"stage", "proposal"}, {"note", "sent"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("stage").toString(), QString("proposal"));
        QCOMPARE(r.data().value("probability").toInt(), 50);
        const QJsonObject act =
            m_api->client->get("/api/v1/deals/" + id).data().value("activities").toArray().at(0).toObject();
        QCOMPARE(act.value("type").toString(), QString("stage_change"));
        QCOMPARE(act.value("from").toString(), QString("lead"));
        QCOMPARE(act.value("to").toString(), QString("proposal"));
        QCOMPARE(act.value("content").toString(), QString("sent"));
        QVERIFY(act.value("user").toObject().value("id").toString().startsWith("apikey_"));
        QCOMPARE(m_api->client->patch("/api/v1/deals/" + id + "/stage", QJsonObject{}).status, 422);
        QCOMPARE(m_api->client->patch("/api/v1/deals/" + id + "/stage", {{"stage", 3}}).status, 400);
        r = m_api->client->patch("/api/v1/deals/" + id + "/stage", {{"stage", "qualified"}});
        QCOMPARE(r.status, 422);
        QVERIFY(r.json.value("error").toObject().value("details").toObject().contains("stage"));
        QCOMPARE(m_api->client->patch("/api/v1/deals/deal_nope/stage", {{"stage", "lead"}}).status, 404);
        QCOMPARE(m_api->client->patch("/api/v1/deals/" + id + "/stage", {{"stage", "lead"}, {"note", 5}}).status, 400);
    }

    void wonAndLost()
    {
        const QString id = createDeal({{"name", "A"}, {"value", 100}});
        HttpResult r = m_api->client->post("/api/v1/deals/" + id + "/won", {{"closedValue", 90}, {"note", "signed"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("stage").toString(), QString("won"));
        QCOMPARE(r.data().value("probability").toInt(), 100);
        QCOMPARE(r.data().value("closedValue").toDouble(), 90.0);
        QCOMPARE(m_api->client->post("/api/v1/deals/" + id + "/won", {}).status, 409);
        QCOMPARE(m_api->client->post("/api/v1/deals/" + id + "/won", {{"closedValue", -3}}).status, 400);
        QCOMPARE(m_api->client->post("/api/v1/deals/deal_nope/won", {}).status, 404);

        QCOMPARE(m_api->client->post("/api/v1/deals/" + id + "/lost", {{"competitorName", "X"}}).status, 422);
        QCOMPARE(m_api->client->post("/api/v1/deals/" + id + "/lost", {{"reason", "weather"}}).status, 400);
        r = m_api->client->post("/api/v1/deals/" + id + "/lost",
                                {{"reason", "competitor"}, {"competitorName", "Globex"}, {"note", "cheaper"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("stage").toString(), QString("lost"));
        QCOMPARE(r.data().value("probability").toInt(), 0);
        QCOMPARE(r.data().value("lostReason").toString(), QString("competitor"));
        QCOMPARE(r.data().value("competitorName").toString(), QString("Globex"));
        QCOMPARE(m_api->client->post("/api/v1/deals/" + id + "/lost", {{"reason", "price"}}).status, 409);
        // Reopen: allowed and recorded.
        r = m_api->client->patch("/api/v1/deals/" + id + "/stage", {{"stage", "negotiation"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("lostReason").isNull(), true);
        const QJsonArray acts = m_api->client->get("/api/v1/deals/" + id).data().value("activities").toArray();
        QCOMPARE(acts.at(0).toObject().value("from").toString(), QString("lost"));
        QCOMPARE(acts.at(1).toObject().value("to").toString(), QString("lost"));
        QCOMPARE(acts.at(2).toObject().value("to").toString(), QString("won"));
    }

    void addsActivities()
    {
        const QString id = createDeal({{"name", "A"}});
        HttpResult r =
            m_api->client->post("/api/v1/deals/" + id + "/activities", {{"type", "note"}, {"content", "Hello"}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("type").toString(), QString("note"));
        QCOMPARE(r.data().value("content").toString(), QString("Hello"));
        QCOMPARE(m_api->client->get("/api/v1/deals/" + id)
                     .data()
                     .value("activities")
                     .toArray()
                     .at(0)
                     .toObject()
                     .value("content")
                     .toString(),
                 QString("Hello"));
        QCOMPARE(m_api->client->post("/api/v1/deals/" + id + "/activities", {{"type", "note"}}).status, 422);
        QCOMPARE(m_api->client->post("/api/v1/deals/" + id + "/activities", {{"content", "x"}}).status, 422);
        QCOMPARE(m_api->client->post("/api/v1/deals/" + id + "/activities", {{"type", "fax"}, {"content", "x"}}).status,
                 400);
        QCOMPARE(m_api->client->post("/api/v1/deals/" + id + "/activities", {{"type", "note"}, {"content", 1}}).status,
                 400);
        QCOMPARE(m_api->client->post("/api/v1/deals/deal_nope/activities", {{"type", "note"}, {"content", "x"}}).status,
                 404);
    }

    void pipelinesCrud()
    {
        HttpResult r = m_api->client->get("/api/v1/pipelines");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("data").toArray().size(), 1);
        QCOMPARE(r.json.value("data").toArray().at(0).toObject().value("isDefault").toBool(), true);

        r = m_api->client->post(
            "/api/v1/pipelines",
            {{"name", "Partners"},
             {"stages", QJsonArray{QJsonObject{{"name", "Qualified"}, {"probability", 25}, {"rottenDays", 5}},
                                   QJsonObject{{"name", "Pilot"}}}}});
        QCOMPARE(r.status, 201);
        const QString pid = r.data().value("id").toString();
        QVERIFY(pid.startsWith("pipeline_"));
        const QJsonArray stages = r.data().value("stages").toArray();
        QCOMPARE(stages.size(), 4);
        QCOMPARE(stages.at(0).toObject().value("key").toString(), QString("qualified"));
        QCOMPARE(stages.at(0).toObject().value("rottenDays").toInt(), 5);
        QCOMPARE(stages.at(3).toObject().value("key").toString(), QString("lost"));
        QCOMPARE(m_api->client->get("/api/v1/pipelines/" + pid).status, 200);
        QCOMPARE(m_api->client->get("/api/v1/pipelines/pipeline_nope").status, 404);

        QCOMPARE(
            m_api->client
                ->post("/api/v1/pipelines", {{"name", "partners"}, {"stages", QJsonArray{QJsonObject{{"name", "x"}}}}})
                .status,
            409);
        QCOMPARE(m_api->client->post("/api/v1/pipelines", {{"stages", QJsonArray{QJsonObject{{"name", "x"}}}}}).status,
                 422);
        QCOMPARE(m_api->client->post("/api/v1/pipelines", {{"name", "N"}}).status, 422);
        QCOMPARE(m_api->client->post("/api/v1/pipelines", {{"name", "N"}, {"stages", "x"}}).status, 400);
        QCOMPARE(m_api->client
                     ->post("/api/v1/pipelines",
                            {{"name", "N"}, {"stages", QJsonArray{QJsonObject{{"name", "x"}, {"probability", 200}}}}})
                     .status,
                 400);

        // The example of the spec: a deal in stage `qualified` of another pipeline.
        const QString dealId = createDeal({{"name", "Pilot deal"}, {"pipelineId", pid}, {"stage", "qualified"}});
        QVERIFY(!dealId.isEmpty());
        QCOMPARE(m_api->client->get("/api/v1/deals/pipeline?pipelineId=" + pid)
                     .data()
                     .value("summary")
                     .toObject()
                     .value("totalDeals")
                     .toInt(),
                 1);

        r = m_api->client->patch("/api/v1/pipelines/" + pid, {{"stages", QJsonArray{QJsonObject{{"key", "pilot"}}}}});
        QCOMPARE(r.status, 409);
        QVERIFY(r.json.value("error").toObject().value("details").toObject().contains("qualified"));
        r = m_api->client->patch("/api/v1/pipelines/" + pid,
                                 {{"name", "Partner deals"},
                                  {"isDefault", true},
                                  {"stages", QJsonArray{QJsonObject{{"key", "qualified"}, {"name", "Qualified!"}},
                                                        QJsonObject{{"name", "Contract"}}}}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("name").toString(), QString("Partner deals"));
        QCOMPARE(r.data().value("isDefault").toBool(), true);
        QCOMPARE(r.data().value("stages").toArray().at(1).toObject().value("key").toString(), QString("contract"));
        // A deal created without pipelineId goes to the (new) default pipeline.
        const QString other = createDeal({{"name", "Default"}});
        QCOMPARE(m_api->client->get("/api/v1/deals/" + other).data().value("pipelineId").toString(), pid);
        QCOMPARE(m_api->client->patch("/api/v1/pipelines/pipeline_nope", {{"name", "x"}}).status, 404);

        QCOMPARE(m_api->client->del("/api/v1/pipelines/" + pid).status, 409); // default and holds deals
        QCOMPARE(m_api->client->patch("/api/v1/pipelines/pipeline_default", {{"isDefault", true}}).status, 200);
        QCOMPARE(m_api->client->del("/api/v1/pipelines/" + pid).status, 409); // holds deals
        QCOMPARE(m_api->client->del("/api/v1/deals/" + dealId).status, 200);
        QCOMPARE(m_api->client->del("/api/v1/deals/" + other).status, 200);
        QCOMPARE(m_api->client->del("/api/v1/pipelines/" + pid).status, 200);
        QCOMPARE(m_api->client->del("/api/v1/pipelines/" + pid).status, 404);
    }

    void deletingContactUnlinksItsDeals()
    {
        const QString contactId = createContact();
        const QString id = createDeal({{"name", "A"}, {"contactId", contactId}});
        QCOMPARE(m_api->client->del("/api/v1/contacts/" + contactId).status, 200);
        const QJsonObject d = m_api->client->get("/api/v1/deals/" + id).data();
        QVERIFY(d.value("contact").isNull());
        QVERIFY(d.value("contactId").isNull());
    }

    void needsCredentialsAndScopes()
    {
        ApiClient anonymous(m_api->server.baseUrl(), m_api->server.certificate());
        QCOMPARE(anonymous.get("/api/v1/deals").status, 401);
        QCOMPARE(anonymous.get("/api/v1/deals/pipeline").status, 401);
        const QString id = createDeal({{"name", "A"}});
        auto reader = clientWithScopes({"deals:read"});
        QCOMPARE(reader->get("/api/v1/deals").status, 200);
        QCOMPARE(reader->get("/api/v1/deals/pipeline").status, 200);
        QCOMPARE(reader->get("/api/v1/pipelines").status, 200);
        QCOMPARE(reader->post("/api/v1/deals", {{"name", "B"}}).status, 403);
        QCOMPARE(reader->patch("/api/v1/deals/" + id + "/stage", {{"stage", "won"}}).status, 403);
        QCOMPARE(reader->post("/api/v1/pipelines", {{"name", "P"}}).status, 403);
        auto contactsOnly = clientWithScopes({"contacts:*"});
        QCOMPARE(contactsOnly->get("/api/v1/deals").status, 403);
        auto writer = clientWithScopes({"deals:write"});
        QCOMPARE(writer->post("/api/v1/deals/" + id + "/won", {}).status, 200);
        QCOMPARE(writer->get("/api/v1/deals/" + id).status, 200);
    }

    void eventsGoToOutboxAndBus()
    {
        QSignalSpy spy(&m_api->server.bus(), &EventBus::changed);
        const QString id = createDeal({{"name", "A"}});
        m_api->client->patch("/api/v1/deals/" + id, {{"value", 5}});
        m_api->client->patch("/api/v1/deals/" + id + "/stage", {{"stage", "proposal"}});
        m_api->client->post("/api/v1/deals/" + id + "/won", {});
        m_api->client->post("/api/v1/deals/" + id + "/lost", {{"reason", "price"}});
        QSqlQuery q = Database::exec("SELECT event FROM outbox WHERE event LIKE 'deal.%' ORDER BY seq");
        QStringList events;
        while (q.next())
            events << q.value(0).toString();
        QCOMPARE(events, QStringList({"deal.created", "deal.updated", "deal.stage_changed", "deal.stage_changed",
                                      "deal.won", "deal.stage_changed", "deal.lost"}));
        QCOMPARE(spy.count(), 5);
        QCOMPARE(spy.at(0).at(0).value<EventBus::Entity>(), EventBus::Entity::Deal);
        QCOMPARE(spy.at(0).at(1).toString(), id);
    }

    void openApiDocumentsEveryDealRoute()
    {
        ApiClient anonymous(m_api->server.baseUrl(), m_api->server.certificate());
        const QJsonObject paths = anonymous.get("/api/v1/openapi.json").json.value("paths").toObject();
        for (const char *p : {"/api/v1/deals", "/api/v1/deals/pipeline", "/api/v1/deals/{id}",
                              "/api/v1/deals/{id}/stage", "/api/v1/deals/{id}/won", "/api/v1/deals/{id}/lost",
                              "/api/v1/deals/{id}/activities", "/api/v1/pipelines", "/api/v1/pipelines/{id}"})
            QVERIFY2(paths.contains(QLatin1String(p)), p);
        QVERIFY(paths.value("/api/v1/deals/{id}").toObject().contains("put"));
        QVERIFY(paths.value("/api/v1/deals/{id}").toObject().contains("patch"));
        QVERIFY(paths.value("/api/v1/pipelines/{id}").toObject().contains("delete"));
    }
};

QTEST_GUILESS_MAIN(TestDealsApi)
#include "test_dealsapi.moc"
