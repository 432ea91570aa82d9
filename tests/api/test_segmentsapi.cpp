// The Segments area over real HTTPS on loopback: every endpoint, every status (201, 200, 400, 401,
// 403, 404, 409, 422), the {data, total} list without success, static membership, snapshots, and
// the router keeping /contacts/segments apart from /contacts/:id.
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QtTest>

namespace {
QJsonObject rule(const QString &field, const QString &op, const QJsonValue &value = QJsonValue::Undefined)
{
    QJsonObject r{{"field", field}, {"operator", op}};
    if (!value.isUndefined())
        r.insert("value", value);
    return r;
}

QJsonObject filters(const QJsonArray &rules, const QString &logic = "AND")
{
    return {{"logic", logic}, {"rules", rules}};
}

const QString kBase = QStringLiteral("/api/v1/contacts/segments");
} // namespace

class TestSegmentsApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ApiFixture> m_api; // its client: signed in as a user (JWT)
    QString m_apiKey;

    QString createContact(const QJsonObject &body)
    {
        const HttpResult r = m_api->client->post("/api/v1/contacts", body);
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value("id").toString();
    }

    QString createSegment(const QJsonObject &body)
    {
        const HttpResult r = m_api->client->post(kBase, body);
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value("id").toString();
    }

    QStringList memberEmails(const QString &segmentId)
    {
        const HttpResult r = m_api->client->get(kBase + "/" + segmentId + "/contacts?limit=100");
        QStringList out;
        for (const QJsonValue &c : r.json.value("data").toArray())
            out << c.toObject().value("email").toString();
        out.sort();
        return out;
    }

    std::unique_ptr<ApiClient> clientWith(const QString &token)
    {
        auto c = std::make_unique<ApiClient>(m_api->server.baseUrl(), m_api->server.certificate());
        c->setToken(token);
        return c;
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_api = std::make_unique<ApiFixture>(ApiFixture::Client::None);
        m_api->client = m_api->server.signedInClient("ayse@example.com");
        QVERIFY(m_api->client);
        m_apiKey = m_api->server.createApiKey();

        createContact(
            {{"firstName", "Ali"}, {"email", "ali@example.com"}, {"tags", QJsonArray{"vip"}}, {"leadScore", 90}});
        createContact({{"firstName", "Bora"}, {"email", "bora@example.com"}, {"source", "web"}, {"leadScore", 50}});
        createContact(
            {{"firstName", "Cem"}, {"email", "cem@example.com"}, {"tags", QJsonArray{"VIP"}}, {"leadScore", 10}});
    }

    void cleanup() { m_api.reset(); }

    void createsDynamicSegmentAndListsItWithCount()
    {
        const HttpResult r = m_api->client->post(
            kBase,
            {{"name", "VIPs"}, {"description", "Tagged vip"}, {"filters", filters({rule("tags", "equals", "vip")})}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.json.value("success").toBool(), true);
        QVERIFY(!r.json.value("message").toString().isEmpty());
        const QJsonObject s = r.data();
        QVERIFY(s.value("id").toString().startsWith("seg_"));
        QCOMPARE(s.value("isDynamic").toBool(), true); // the default
        QCOMPARE(s.value("contactCount").toInt(), 2);
        QCOMPARE(s.value("filters").toObject().value("logic").toString(), QString("AND"));
        QVERIFY(s.value("createdAt").toString().endsWith('Z'));

        const HttpResult list = m_api->client->get(kBase);
        QCOMPARE(list.status, 200);
        // Exactly { data, total }: no success flag, no pagination.
        QCOMPARE(list.json.keys(), (QStringList{"data", "total"}));
        QCOMPARE(list.json.value("total").toInt(), 1);
        const QJsonObject item = list.json.value("data").toArray().at(0).toObject();
        QCOMPARE(item.value("name").toString(), QString("VIPs"));
        QCOMPARE(item.value("contactCount").toInt(), 2);

        // Dynamic: a new matching contact is a member at the next query.
        createContact({{"firstName", "Deniz"}, {"email", "deniz@example.com"}, {"tags", QJsonArray{"Vip"}}});
        QCOMPARE(memberEmails(s.value("id").toString()),
                 (QStringList{"ali@example.com", "cem@example.com", "deniz@example.com"}));
        const HttpResult detail = m_api->client->get(kBase + "/" + s.value("id").toString());
        QCOMPARE(detail.status, 200);
        QCOMPARE(detail.data().value("contactCount").toInt(), 3);
    }

    void segmentsPathIsNotAContactId()
    {
        // GET /contacts/segments is the segment list, not the contact "segments".
        const HttpResult list = m_api->client->get(kBase);
        QCOMPARE(list.status, 200);
        QVERIFY(list.json.value("data").isArray());
        QVERIFY(!list.json.contains("success"));
        // /contacts/:id still answers for a contact, and an unknown id is a 404 about a contact.
        const QString id = createContact({{"firstName", "Eda"}, {"email", "eda@example.com"}});
        QCOMPARE(m_api->client->get("/api/v1/contacts/" + id).status, 200);
        QCOMPARE(m_api->client->get("/api/v1/contacts/contact_unknown").status, 404);
        // A method only /contacts/:id has is not allowed on the literal path.
        QCOMPARE(m_api->client->del(kBase).status, 405);
    }

    void contactsOfSegmentArePaged()
    {
        const QString id =
            createSegment({{"name", "All with e-mail"}, {"filters", filters({rule("email", "isNotEmpty")})}});
        const HttpResult first = m_api->client->get(kBase + "/" + id + "/contacts?page=1&limit=2");
        QCOMPARE(first.status, 200);
        QCOMPARE(first.json.value("success").toBool(), true);
        QCOMPARE(first.json.value("data").toArray().size(), 2);
        const QJsonObject p = first.json.value("pagination").toObject();
        QCOMPARE(p.value("page").toInt(), 1);
        QCOMPARE(p.value("limit").toInt(), 2);
        QCOMPARE(p.value("total").toInt(), 3);
        QCOMPARE(p.value("totalPages").toInt(), 2);
        const HttpResult second = m_api->client->get(kBase + "/" + id + "/contacts?page=2&limit=2");
        QCOMPARE(second.json.value("data").toArray().size(), 1);
        // Default limit 20.
        QCOMPARE(m_api->client->get(kBase + "/" + id + "/contacts")
                     .json.value("pagination")
                     .toObject()
                     .value("limit")
                     .toInt(),
                 20);
        QCOMPARE(m_api->client->get(kBase + "/" + id + "/contacts?page=0").status, 400);
        QCOMPARE(m_api->client->get(kBase + "/seg_unknown/contacts").status, 404);
    }

    void invalidRulesAre400NamingTheRule_data()
    {
        QTest::addColumn<QJsonValue>("filters");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown field") << QJsonValue(filters({rule("age", "equals", 3)}))
                                       << "rules[0]: unknown field age";
        QTest::newRow("unknown operator")
            << QJsonValue(filters({rule("name", "like", "a")})) << "rules[0]: unknown operator like";
        QTest::newRow("operator for type")
            << QJsonValue(filters({rule("name", "isEmpty"), filters({rule("leadScore", "contains", 5)}, "OR")}))
            << "rules[1].rules[0]: operator contains is not valid for leadScore (number)";
        QTest::newRow("wrong type") << QJsonValue(filters({rule("leadScore", "greaterThan", "high")}))
                                    << "rules[0]: value for leadScore must be a number";
        QTest::newRow("between one value") << QJsonValue(filters({rule("leadScore", "between", QJsonArray{1})}))
                                           << "rules[0]: between needs a value [low, high] with two values";
        QTest::newRow("empty rules") << QJsonValue(filters({})) << "rules: must not be empty";
        QTest::newRow("unknown logic") << QJsonValue(filters({rule("name", "isEmpty")}, "XOR"))
                                       << "logic: unknown logic XOR";
        QTest::newRow("not an object") << QJsonValue("tags = vip") << "filters: must be an object";
    }

    void invalidRulesAre400NamingTheRule()
    {
        QFETCH(QJsonValue, filters);
        QFETCH(QString, message);
        const HttpResult r = m_api->client->post(kBase, {{"name", "Bad"}, {"filters", filters}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QCOMPARE(r.errorCode(), QString("VALIDATION_ERROR"));
        const QString got = r.json.value("error").toObject().value("message").toString();
        QVERIFY2(got.startsWith(message), qPrintable(got));
        QVERIFY(!r.json.value("error").toObject().value("details").toObject().isEmpty());
        // Nothing was stored.
        QCOMPARE(m_api->client->get(kBase).json.value("total").toInt(), 0);
    }

    void badFieldTypesAre400AndMissingFieldsAre422()
    {
        QCOMPARE(m_api->client->post(kBase, {{"name", 5}, {"filters", filters({rule("name", "isEmpty")})}}).status,
                 400);
        QCOMPARE(
            m_api->client
                ->post(kBase, {{"name", "X"}, {"isDynamic", "yes"}, {"filters", filters({rule("name", "isEmpty")})}})
                .status,
            400);
        QCOMPARE(m_api->client->post(kBase, {{"filters", filters({rule("name", "isEmpty")})}}).status, 422);
        QCOMPARE(m_api->client->post(kBase, {{"name", "   "}, {"filters", filters({rule("name", "isEmpty")})}}).status,
                 422);
        const HttpResult noFilters = m_api->client->post(kBase, {{"name", "No rules"}});
        QCOMPARE(noFilters.status, 422);
        QVERIFY(noFilters.json.value("error").toObject().value("details").toObject().contains("filters"));
        const HttpResult malformed =
            m_api->client->call("POST", kBase, "{\"name\": ", {{"Content-Type", "application/json"}});
        QCOMPARE(malformed.status, 400);
    }

    void duplicateNameIs409CaseInsensitive()
    {
        const QString id =
            createSegment({{"name", "Hot Leads"}, {"filters", filters({rule("leadScore", "greaterThan", 70)})}});
        const HttpResult dup =
            m_api->client->post(kBase, {{"name", "  hot leads "}, {"filters", filters({rule("name", "isNotEmpty")})}});
        QCOMPARE(dup.status, 409);
        QCOMPARE(dup.json.value("success").toBool(true), false);
        const QString other =
            createSegment({{"name", "Cold"}, {"filters", filters({rule("leadScore", "lessThan", 20)})}});
        QCOMPARE(m_api->client->patch(kBase + "/" + other, {{"name", "HOT LEADS"}}).status, 409);
        // Renaming a segment to another case of its own name is fine.
        QCOMPARE(m_api->client->patch(kBase + "/" + id, {{"name", "HOT LEADS"}}).status, 200);
    }

    void patchIsPartialAndRevalidatesRules()
    {
        const QString id = createSegment({{"name", "Scored"},
                                          {"description", "keep me"},
                                          {"filters", filters({rule("leadScore", "greaterThan", 40)})}});
        const HttpResult r =
            m_api->client->patch(kBase + "/" + id, {{"filters", filters({rule("leadScore", "greaterThan", 60)})}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("description").toString(), QString("keep me"));
        QCOMPARE(r.data().value("name").toString(), QString("Scored"));
        QCOMPARE(r.data().value("contactCount").toInt(), 1);
        const HttpResult bad =
            m_api->client->patch(kBase + "/" + id, {{"filters", filters({rule("leadScore", "startsWith", "4")})}});
        QCOMPARE(bad.status, 400);
        QVERIFY(
            bad.json.value("error").toObject().value("message").toString().startsWith("rules[0]: operator startsWith"));
        QCOMPARE(m_api->client->get(kBase + "/" + id).data().value("contactCount").toInt(), 1); // unchanged
        QCOMPARE(m_api->client->patch(kBase + "/" + id, {{"filters", QJsonValue::Null}}).status,
                 422); // dynamic needs rules
        QCOMPARE(m_api->client->patch(kBase + "/seg_unknown", {{"name", "x"}}).status, 404);
    }

    void deleteRemovesSegmentButNotContacts()
    {
        const QString id = createSegment({{"name", "Web"}, {"filters", filters({rule("source", "equals", "web")})}});
        const HttpResult r = m_api->client->del(kBase + "/" + id);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("success").toBool(), true);
        QCOMPARE(m_api->client->get(kBase + "/" + id).status, 404);
        QCOMPARE(m_api->client->del(kBase + "/" + id).status, 404);
        QCOMPARE(m_api->client->get("/api/v1/contacts").json.value("pagination").toObject().value("total").toInt(), 3);
    }

    void staticSegmentWithFiltersSnapshotsOnce()
    {
        const QString id = createSegment(
            {{"name", "VIP list"}, {"isDynamic", false}, {"filters", filters({rule("tags", "equals", "vip")})}});
        QCOMPARE(memberEmails(id), (QStringList{"ali@example.com", "cem@example.com"}));
        createContact({{"firstName", "Deniz"}, {"email", "deniz@example.com"}, {"tags", QJsonArray{"vip"}}});
        QCOMPARE(memberEmails(id), (QStringList{"ali@example.com", "cem@example.com"})); // not re-evaluated
        const HttpResult s = m_api->client->get(kBase + "/" + id);
        QCOMPARE(s.data().value("isDynamic").toBool(), false);
        QCOMPARE(s.data().value("contactCount").toInt(), 2);
    }

    void staticMembershipAddAndRemove()
    {
        const HttpResult created = m_api->client->post(kBase, {{"name", "Hand picked"}, {"isDynamic", false}});
        QCOMPARE(created.status, 201);
        QVERIFY(created.data().value("filters").isNull());
        QCOMPARE(created.data().value("contactCount").toInt(), 0);
        const QString id = created.data().value("id").toString();
        const QJsonArray contacts = m_api->client->get("/api/v1/contacts").json.value("data").toArray();
        const QString a = contacts.at(0).toObject().value("id").toString();
        const QString b = contacts.at(1).toObject().value("id").toString();

        const HttpResult add =
            m_api->client->post(kBase + "/" + id + "/contacts", {{"contactIds", QJsonArray{a, b, a}}});
        QCOMPARE(add.status, 200);
        QCOMPARE(add.data().value("contactCount").toInt(), 2);
        // Again: idempotent.
        QCOMPARE(m_api->client->post(kBase + "/" + id + "/contacts", {{"contactIds", QJsonArray{a}}})
                     .data()
                     .value("contactCount")
                     .toInt(),
                 2);

        // Unknown ids: 404 naming every one, nothing added.
        const HttpResult unknown = m_api->client->post(
            kBase + "/" + id + "/contacts", {{"contactIds", QJsonArray{"contact_nope1", a, "contact_nope2"}}});
        QCOMPARE(unknown.status, 404);
        const QString message = unknown.json.value("error").toObject().value("message").toString();
        QVERIFY2(message.contains("contact_nope1") && message.contains("contact_nope2"), qPrintable(message));
        QCOMPARE(
            unknown.json.value("error").toObject().value("details").toObject().value("contactIds").toArray().size(), 2);

        QCOMPARE(m_api->client->post(kBase + "/" + id + "/contacts", {{"contactIds", "x"}}).status, 400);
        QCOMPARE(m_api->client->post(kBase + "/" + id + "/contacts", {{"contactIds", QJsonArray{1}}}).status, 400);
        QCOMPARE(m_api->client->post(kBase + "/" + id + "/contacts", QJsonObject{}).status, 422);
        QCOMPARE(m_api->client->post(kBase + "/" + id + "/contacts", {{"contactIds", QJsonArray{}}}).status, 422);
        QCOMPARE(m_api->client->post(kBase + "/seg_unknown/contacts", {{"contactIds", QJsonArray{a}}}).status, 404);

        // The contacts list filtered by segmentId shows the members.
        const HttpResult filtered = m_api->client->get("/api/v1/contacts?segmentId=" + id);
        QCOMPARE(filtered.status, 200);
        QCOMPARE(filtered.json.value("pagination").toObject().value("total").toInt(), 2);
        QCOMPARE(m_api->client->get("/api/v1/contacts?segmentId=seg_unknown").status, 404);

        const HttpResult removed = m_api->client->del(kBase + "/" + id + "/contacts/" + a);
        QCOMPARE(removed.status, 200);
        QCOMPARE(removed.data().value("contactCount").toInt(), 1);
        QCOMPARE(m_api->client->del(kBase + "/" + id + "/contacts/" + a).status, 404); // no longer a member
        QCOMPARE(m_api->client->del(kBase + "/" + id + "/contacts/contact_unknown").status, 404);

        // A deleted contact leaves the segment.
        QCOMPARE(m_api->client->del("/api/v1/contacts/" + b).status, 200);
        QCOMPARE(m_api->client->get(kBase + "/" + id).data().value("contactCount").toInt(), 0);
    }

    void membershipEndpointsRefuseDynamicSegments()
    {
        const QString id =
            createSegment({{"name", "Dyn"}, {"filters", filters({rule("leadScore", "greaterThan", 0)})}});
        const QString contact =
            m_api->client->get("/api/v1/contacts").json.value("data").toArray().at(0).toObject().value("id").toString();
        const HttpResult add =
            m_api->client->post(kBase + "/" + id + "/contacts", {{"contactIds", QJsonArray{contact}}});
        QCOMPARE(add.status, 400);
        QVERIFY(add.json.value("error").toObject().value("message").toString().contains("dynamic"));
        QCOMPARE(m_api->client->del(kBase + "/" + id + "/contacts/" + contact).status, 400);
    }

    void snapshotMakesStaticCopyOfCurrentMembers()
    {
        const QString id =
            createSegment({{"name", "Scored"}, {"filters", filters({rule("leadScore", "greaterThan", 40)})}});
        const HttpResult snap = m_api->client->post(kBase + "/" + id + "/snapshot", QJsonObject{});
        QCOMPARE(snap.status, 201);
        const QJsonObject s = snap.data();
        QCOMPARE(s.value("isDynamic").toBool(), false);
        QVERIFY(s.value("name").toString().startsWith("Scored (snapshot "));
        QCOMPARE(s.value("contactCount").toInt(), 2);
        QCOMPARE(s.value("filters").toObject(),
                 m_api->client->get(kBase + "/" + id).data().value("filters").toObject());
        // Later changes reach the dynamic segment only.
        createContact({{"firstName", "Deniz"}, {"email", "deniz@example.com"}, {"leadScore", 99}});
        QCOMPARE(m_api->client->get(kBase + "/" + id).data().value("contactCount").toInt(), 3);
        QCOMPARE(m_api->client->get(kBase + "/" + s.value("id").toString()).data().value("contactCount").toInt(), 2);
        // A second snapshot in the same minute gets another name; a given name must be free.
        const HttpResult again = m_api->client->post(kBase + "/" + id + "/snapshot", QJsonObject{});
        QCOMPARE(again.status, 201);
        QVERIFY(again.data().value("name").toString() != s.value("name").toString());
        QCOMPARE(m_api->client->post(kBase + "/" + id + "/snapshot", {{"name", "Scored"}}).status, 409);
        QCOMPARE(
            m_api->client->post(kBase + "/" + id + "/snapshot", {{"name", "May list"}}).data().value("name").toString(),
            QString("May list"));
        QCOMPARE(m_api->client->post(kBase + "/seg_unknown/snapshot", QJsonObject{}).status, 404);
    }

    void previewCountsWithoutSaving()
    {
        const HttpResult r =
            m_api->client->post(kBase + "/preview", {{"filters", filters({rule("tags", "contains", "vip")})}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("count").toInt(), 2);
        QCOMPARE(m_api->client->post(kBase + "/preview", {{"filters", filters({rule("x", "equals", 1)})}}).status, 400);
        QCOMPARE(m_api->client->post(kBase + "/preview", QJsonObject{}).status, 422);
        QCOMPARE(m_api->client->get(kBase).json.value("total").toInt(), 0);
    }

    void everyEndpointNeedsAUserToken_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::newRow("list") << QByteArray("GET") << kBase;
        QTest::newRow("create") << QByteArray("POST") << kBase;
        QTest::newRow("preview") << QByteArray("POST") << kBase + "/preview";
        QTest::newRow("detail") << QByteArray("GET") << kBase + "/seg_x";
        QTest::newRow("update") << QByteArray("PATCH") << kBase + "/seg_x";
        QTest::newRow("delete") << QByteArray("DELETE") << kBase + "/seg_x";
        QTest::newRow("contacts") << QByteArray("GET") << kBase + "/seg_x/contacts";
        QTest::newRow("add contacts") << QByteArray("POST") << kBase + "/seg_x/contacts";
        QTest::newRow("remove contact") << QByteArray("DELETE") << kBase + "/seg_x/contacts/contact_x";
        QTest::newRow("snapshot") << QByteArray("POST") << kBase + "/seg_x/snapshot";
    }

    void everyEndpointNeedsAUserToken()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        const QByteArray body = method == "GET" || method == "DELETE" ? QByteArray() : QByteArray("{}");
        const HttpResult anonymous = clientWith(QString())->call(method, path, body);
        QCOMPARE(anonymous.status, 401);
        QCOMPARE(anonymous.json.value("success").toBool(true), false);
        const HttpResult key = clientWith(m_apiKey)->call(method, path, body);
        QCOMPARE(key.status, 403);
        QVERIFY(key.json.value("error").toObject().value("message").toString().contains("user token"));
        // The same request with the user's token gets past authentication.
        const HttpResult user = m_api->client->call(method, path, body);
        QVERIFY2(user.status != 401 && user.status != 403, qPrintable(QString::number(user.status)));
    }

    void openApiDocumentsEverySegmentRoute()
    {
        const QJsonObject paths = m_api->client->get("/api/v1/openapi.json").json.value("paths").toObject();
        for (const QString &p :
             {QString("/api/v1/contacts/segments"), QString("/api/v1/contacts/segments/{id}"),
              QString("/api/v1/contacts/segments/{id}/contacts"),
              QString("/api/v1/contacts/segments/{id}/contacts/{contactId}"),
              QString("/api/v1/contacts/segments/{id}/snapshot"), QString("/api/v1/contacts/segments/preview")})
            QVERIFY2(paths.contains(p), qPrintable(p));
        QVERIFY(paths.value("/api/v1/contacts/segments")
                    .toObject()
                    .value("get")
                    .toObject()
                    .value("x-requires-user-token")
                    .toBool());
    }
};

QTEST_MAIN(TestSegmentsApi)
#include "test_segmentsapi.moc"
