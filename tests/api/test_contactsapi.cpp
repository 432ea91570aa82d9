// The Contacts area over real HTTPS on loopback: every endpoint and every error status.
#include "model/contacts/contactrepository.h"
#include "server/api/multipart.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QtTest>

class TestContactsApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ApiFixture> m_api;

    QString createContact(const QJsonObject &body)
    {
        const HttpResult r = m_api->client->post(QStringLiteral("/api/v1/contacts"), body);
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value(QLatin1String("id")).toString();
    }

    // POST /api/v1/contacts/import with these parts (file first).
    HttpResult importCsv(const QByteArray &file, const QList<QPair<QString, QByteArray>> &fields = {},
                         ApiClient *client = nullptr)
    {
        const QByteArray boundary = Multipart::makeBoundary();
        QList<MultipartField> parts{MultipartField{"file", file, "kisiler.csv", true, "text/csv"}};
        for (const auto &f : fields)
            parts << MultipartField{f.first, f.second, {}, false, {}};
        return (client ? client : m_api->client.get())
            ->call("POST", "/api/v1/contacts/import", Multipart::serialize(parts, boundary),
                   {{"Content-Type", "multipart/form-data; boundary=" + boundary}});
    }

    // The job once it has ended (bounded: 20 s).
    QJsonObject finishedImport(const QString &id)
    {
        QJsonObject job;
        for (int i = 0; i < 400; ++i) {
            job = m_api->client->get("/api/v1/imports/" + id).data();
            const QString status = job.value("status").toString();
            if (status != "queued" && status != "running")
                return job;
            QTest::qWait(50);
        }
        return job;
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_api = std::make_unique<ApiFixture>();
    }

    void cleanup() { m_api.reset(); }

    void createsAndReadsContact()
    {
        const HttpResult r = m_api->client->post(QStringLiteral("/api/v1/contacts"),
                                                 {{"firstName", "Ayşe"},
                                                  {"lastName", "Yılmaz"},
                                                  {"email", "ayse@example.com"},
                                                  {"phone", "+90 532 123 45 67"},
                                                  {"tags", QJsonArray{"vip", "istanbul"}},
                                                  {"address", QJsonObject{{"city", "İstanbul"}, {"country", "TR"}}},
                                                  {"customFields", QJsonObject{{"referral", "fair"}}},
                                                  {"source", "web"},
                                                  {"leadScore", 70}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.json.value("success").toBool(), true);
        QVERIFY(!r.json.value("message").toString().isEmpty());
        const QString id = r.data().value("id").toString();
        QVERIFY(id.startsWith("contact_"));
        QVERIFY(r.data().value("createdAt").toString().endsWith('Z'));
        QVERIFY(!r.header("x-request-id").isEmpty());

        const HttpResult got = m_api->client->get("/api/v1/contacts/" + id);
        QCOMPARE(got.status, 200);
        const QJsonObject c = got.data();
        QCOMPARE(c.value("firstName").toString(), QString("Ayşe"));
        QCOMPARE(c.value("phone").toString(), QString("+90 532 123 45 67"));
        QCOMPARE(c.value("tags").toArray().size(), 2);
        QCOMPARE(c.value("address").toObject().value("city").toString(), QString("İstanbul"));
        QCOMPARE(c.value("customFields").toObject().value("referral").toString(), QString("fair"));
        QCOMPARE(c.value("leadScore").toInt(), 70);
        QCOMPARE(c.value("source").toString(), QString("web"));
        QVERIFY(c.value("conversations").isArray());
        QVERIFY(c.value("deals").isArray());
    }

    void rejectsMissingRequiredFieldsWith422_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::newRow("no name") << QJsonObject{{"email", "a@example.com"}};
        QTest::newRow("no email or phone") << QJsonObject{{"firstName", "A"}};
        QTest::newRow("empty body") << QJsonObject{};
        QTest::newRow("blank name") << QJsonObject{{"firstName", "  "}, {"email", "a@example.com"}};
    }
    void rejectsMissingRequiredFieldsWith422()
    {
        QFETCH(QJsonObject, body);
        const HttpResult r = m_api->client->post("/api/v1/contacts", body);
        QCOMPARE(r.status, 422);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QCOMPARE(r.errorCode(), QString("VALIDATION_ERROR"));
    }

    void rejectsBadFormatsWith400_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("field");
        QTest::newRow("tags not array") << QJsonObject{{"firstName", "A"}, {"email", "a@example.com"}, {"tags", "vip"}}
                                        << "tags";
        QTest::newRow("tags of numbers") << QJsonObject{{"firstName", "A"},
                                                        {"email", "a@example.com"},
                                                        {"tags", QJsonArray{1}}}
                                         << "tags";
        QTest::newRow("bad email") << QJsonObject{{"firstName", "A"}, {"email", "not-an-email"}} << "email";
        QTest::newRow("phone without plus") << QJsonObject{{"firstName", "A"}, {"phone", "05321234567"}} << "phone";
        QTest::newRow("phone letters") << QJsonObject{{"firstName", "A"}, {"phone", "+90abc"}} << "phone";
        QTest::newRow("name number") << QJsonObject{{"firstName", 5}, {"email", "a@example.com"}} << "firstName";
        QTest::newRow("lead score 101") << QJsonObject{{"firstName", "A"},
                                                       {"email", "a@example.com"},
                                                       {"leadScore", 101}}
                                        << "leadScore";
        QTest::newRow("address string") << QJsonObject{{"firstName", "A"}, {"email", "a@example.com"}, {"address", "x"}}
                                        << "address";
        QTest::newRow("customFields array")
            << QJsonObject{{"firstName", "A"}, {"email", "a@example.com"}, {"customFields", QJsonArray{}}}
            << "customFields";
    }
    void rejectsBadFormatsWith400()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, field);
        const HttpResult r = m_api->client->post("/api/v1/contacts", body);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorCode(), QString("VALIDATION_ERROR"));
        QVERIFY2(r.json.value("error").toObject().value("details").toObject().contains(field), r.body);
    }

    void rejectsDuplicatesWith409()
    {
        createContact({{"firstName", "A"}, {"email", "Dup@Example.com"}, {"phone", "+90 532 000 00 01"}});
        HttpResult r = m_api->client->post("/api/v1/contacts", {{"firstName", "B"}, {"email", "dup@example.COM"}});
        QCOMPARE(r.status, 409);
        r = m_api->client->post("/api/v1/contacts", {{"firstName", "B"}, {"phone", "+905320000001"}});
        QCOMPARE(r.status, 409);
        const QString other = createContact({{"firstName", "C"}, {"email", "c@example.com"}});
        r = m_api->client->patch("/api/v1/contacts/" + other, {{"email", "DUP@example.com"}});
        QCOMPARE(r.status, 409);
    }

    void updatesPartiallyWithPutAndPatch()
    {
        const QString id = createContact({{"firstName", "A"}, {"lastName", "B"}, {"email", "ab@example.com"}});
        HttpResult r = m_api->client->patch("/api/v1/contacts/" + id, {{"company", "Acme"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("company").toString(), QString("Acme"));
        QCOMPARE(r.data().value("lastName").toString(), QString("B"));
        r = m_api->client->put("/api/v1/contacts/" + id, {{"position", "CEO"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("company").toString(), QString("Acme"));
        QCOMPARE(r.data().value("position").toString(), QString("CEO"));
        r = m_api->client->patch("/api/v1/contacts/" + id, {{"email", "bad"}});
        QCOMPARE(r.status, 400);
        r = m_api->client->patch("/api/v1/contacts/" + id, {{"email", QJsonValue::Null}});
        QCOMPARE(r.status, 422); // no e-mail and no phone left
        r = m_api->client->patch("/api/v1/contacts/contact_unknown", {{"company", "X"}});
        QCOMPARE(r.status, 404);
    }

    // Unbounded custom fields once took a 9 MiB value or 100,000 fields, and a page of 20 such
    // contacts answered 10.9 MB. Create and update refuse them alike, and nothing is stored.
    void boundsCustomFields_data()
    {
        QTest::addColumn<QJsonObject>("fields");
        QJsonObject many;
        for (int i = 0; i < 100000; ++i)
            many.insert(QStringLiteral("k%1").arg(i), 1);
        QTest::newRow("a value of 9 MiB") << QJsonObject{{"not", QString(9 * 1024 * 1024, 'x')}};
        QTest::newRow("100,000 fields") << many;
        QTest::newRow("a name of 65 characters") << QJsonObject{{QString(65, 'k'), "v"}};
    }
    void boundsCustomFields()
    {
        QFETCH(QJsonObject, fields);
        HttpResult r = m_api->client->post(
            "/api/v1/contacts", {{"firstName", "Ayşe"}, {"email", "sinir@example.com"}, {"customFields", fields}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorCode(), QStringLiteral("VALIDATION_ERROR"));
        QVERIFY(r.json.value("error").toObject().value("details").toObject().contains("customFields"));
        const QString id = createContact({{"firstName", "Ayşe"}, {"email", "sinir@example.com"}});
        r = m_api->client->patch("/api/v1/contacts/" + id, {{"customFields", fields}});
        QCOMPARE(r.status, 400);
        QCOMPARE(m_api->client->get("/api/v1/contacts/" + id).data().value("customFields").toObject(), QJsonObject());
        QCOMPARE(m_api->client->get("/api/v1/contacts").json.value("pagination").toObject().value("total").toInt(), 1);
    }

    void deletes()
    {
        const QString id = createContact({{"firstName", "A"}, {"email", "del@example.com"}});
        HttpResult r = m_api->client->del("/api/v1/contacts/" + id);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("success").toBool(), true);
        QVERIFY(!r.json.value("message").toString().isEmpty());
        QCOMPARE(m_api->client->get("/api/v1/contacts/" + id).status, 404);
        QCOMPARE(m_api->client->del("/api/v1/contacts/" + id).status, 404);
    }

    void addsAndRemovesTags()
    {
        const QString id =
            createContact({{"firstName", "A"}, {"email", "tags@example.com"}, {"tags", QJsonArray{"vip"}}});
        HttpResult r =
            m_api->client->post("/api/v1/contacts/" + id + "/tags", {{"tags", QJsonArray{"VIP", "lead", "lead"}}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("tags").toArray(), (QJsonArray{"vip", "lead"}));
        r = m_api->client->post("/api/v1/contacts/" + id + "/tags", {{"tags", QJsonArray{"lead"}}});
        QCOMPARE(r.data().value("tags").toArray().size(), 2);
        QCOMPARE(m_api->client->post("/api/v1/contacts/" + id + "/tags", {{"tags", "x"}}).status, 400);
        QCOMPARE(m_api->client->post("/api/v1/contacts/" + id + "/tags", {}).status, 422);
        r = m_api->client->del("/api/v1/contacts/" + id + "/tags/VIP");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("tags").toArray(), (QJsonArray{"lead"}));
        QCOMPARE(m_api->client->del("/api/v1/contacts/" + id + "/tags/vip").status, 404);
        QCOMPARE(m_api->client->post("/api/v1/contacts/contact_x/tags", {{"tags", QJsonArray{"a"}}}).status, 404);
    }

    void tagWithSpaceInPath()
    {
        const QString id =
            createContact({{"firstName", "A"}, {"email", "sp@example.com"}, {"tags", QJsonArray{"key account"}}});
        QCOMPARE(m_api->client->del("/api/v1/contacts/" + id + "/tags/key%20account").status, 200);
    }

    void addsNotes()
    {
        const QString id = createContact({{"firstName", "A"}, {"email", "notes@example.com"}});
        HttpResult r = m_api->client->post("/api/v1/contacts/" + id + "/notes", {{"content", "Called, wants a demo"}});
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("content").toString(), QString("Called, wants a demo"));
        QCOMPARE(m_api->client->post("/api/v1/contacts/" + id + "/notes", {}).status, 422);
        QCOMPARE(m_api->client->post("/api/v1/contacts/" + id + "/notes", {{"content", 3}}).status, 400);
        QCOMPARE(m_api->client->post("/api/v1/contacts/contact_x/notes", {{"content", "x"}}).status, 404);
        r = m_api->client->get("/api/v1/contacts/" + id);
        QCOMPARE(r.data().value("notes").toArray().size(), 1);
    }

    void listsWithPaginationAndFilters()
    {
        for (int i = 0; i < 25; ++i) {
            createContact({{"firstName", QString("Person%1").arg(i)},
                           {"email", QString("p%1@example.com").arg(i)},
                           {"source", i % 2 ? "web" : "whatsapp"},
                           {"tags", i % 5 == 0 ? QJsonArray{"vip"} : QJsonArray{}}});
        }
        HttpResult r = m_api->client->get("/api/v1/contacts");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("data").toArray().size(), 20);
        QJsonObject p = r.json.value("pagination").toObject();
        QCOMPARE(p.value("page").toInt(), 1);
        QCOMPARE(p.value("limit").toInt(), 20);
        QCOMPARE(p.value("total").toInt(), 25);
        QCOMPARE(p.value("totalPages").toInt(), 2);
        r = m_api->client->get("/api/v1/contacts?page=2&limit=20");
        QCOMPARE(r.json.value("data").toArray().size(), 5);
        r = m_api->client->get("/api/v1/contacts?limit=500");
        QCOMPARE(r.json.value("pagination").toObject().value("limit").toInt(), 100);
        QCOMPARE(m_api->client->get("/api/v1/contacts?page=0").status, 400);
        QCOMPARE(m_api->client->get("/api/v1/contacts?limit=abc").status, 400);
        r = m_api->client->get("/api/v1/contacts?tag=VIP");
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 5);
        r = m_api->client->get("/api/v1/contacts?tags=vip");
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 5);
        r = m_api->client->get("/api/v1/contacts?source=web");
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 12);
        r = m_api->client->get("/api/v1/contacts?createdAfter=2000-01-01&createdBefore=2999-01-01");
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 25);
        r = m_api->client->get("/api/v1/contacts?createdAfter=2999-01-01");
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 0);
        QCOMPARE(m_api->client->get("/api/v1/contacts?createdAfter=yesterday").status, 400);
    }

    // sort: name, company or createdAt, "-" for descending; names compared without case or accents.
    void sortsTheList()
    {
        createContact({{"firstName", "Zeynep"}, {"email", "z@example.com"}, {"company", "Anadolu"}});
        createContact({{"firstName", "Çağla"}, {"email", "c@example.com"}});
        createContact({{"firstName", "ahmet"}, {"email", "a@example.com"}, {"company", "Öz Gıda"}});
        auto names = [this](const QString &query) {
            QStringList out;
            for (const QJsonValue &v : m_api->client->get("/api/v1/contacts" + query).json.value("data").toArray())
                out << v.toObject().value("firstName").toString();
            return out;
        };
        QCOMPARE(names(""), (QStringList{"ahmet", "Çağla", "Zeynep"})); // newest first
        QCOMPARE(names("?sort=-createdAt"), (QStringList{"ahmet", "Çağla", "Zeynep"}));
        QCOMPARE(names("?sort=createdAt"), (QStringList{"Zeynep", "Çağla", "ahmet"}));
        QCOMPARE(names("?sort=name"), (QStringList{"ahmet", "Çağla", "Zeynep"}));
        QCOMPARE(names("?sort=-name&limit=2"), (QStringList{"Zeynep", "Çağla"}));
        QCOMPARE(names("?sort=company"), (QStringList{"Zeynep", "ahmet", "Çağla"})); // no company last
        QCOMPARE(names("?sort=name&search=zeynep"), QStringList{"Zeynep"});
        const HttpResult bad = m_api->client->get("/api/v1/contacts?sort=email");
        QCOMPARE(bad.status, 400);
        QCOMPARE(bad.errorCode(), QStringLiteral("VALIDATION_ERROR"));
        QVERIFY(bad.json.value("error").toObject().value("details").toObject().contains("sort"));
    }

    void searchesNameEmailAndPhone()
    {
        createContact({{"firstName", "Şükrü"},
                       {"lastName", "Öztürk"},
                       {"email", "sukru@firma.com.tr"},
                       {"phone", "+90 532 765 43 21"}});
        createContact({{"firstName", "John"}, {"lastName", "Smith"}, {"email", "john@example.com"}});
        auto total = [this](const QString &q) {
            return m_api->client->get("/api/v1/contacts?search=" + QUrl::toPercentEncoding(q))
                .json.value("pagination")
                .toObject()
                .value("total")
                .toInt();
        };
        QCOMPARE(total("sukru"), 1);
        QCOMPARE(total("ŞÜKRÜ"), 1);
        QCOMPARE(total("öztü"), 1);
        QCOMPARE(total("firma"), 1);
        QCOMPARE(total("532 765"), 1);
        QCOMPARE(total("7654321"), 1);
        QCOMPARE(total("john smith"), 1);
        QCOMPARE(total("JOHN"), 1);
        QCOMPARE(total("nobody"), 0);
        QCOMPARE(total("\"*"), 0);
    }

    void malformedJsonIs400()
    {
        const HttpResult r = m_api->client->call("POST", "/api/v1/contacts", "{\"firstName\": ");
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QCOMPARE(m_api->client->call("POST", "/api/v1/contacts", "[1,2]").status, 400);
    }

    void unknownPathIs404AndWrongMethodIs405()
    {
        HttpResult r = m_api->client->get("/api/v1/nothing");
        QCOMPARE(r.status, 404);
        QCOMPARE(r.json.value("success").toBool(true), false);
        r = m_api->client->call("PATCH", "/api/v1/contacts", "{}");
        QCOMPARE(r.status, 405);
        QVERIFY(r.header("allow").contains("GET"));
        QVERIFY(r.header("allow").contains("POST"));
    }

    void bodyOver10MiBIs413()
    {
        QByteArray big = "{\"firstName\":\"" + QByteArray(11 * 1024 * 1024, 'a') + "\"}";
        const HttpResult r = m_api->client->call("POST", "/api/v1/contacts", big);
        QCOMPARE(r.status, 413);
    }

    void engineRefusalsUseTheEnvelope()
    {
        // Refused by the HTTP engine before any route sees it, yet answered like the API's own errors.
        const HttpResult r =
            m_api->client->call("GET", "/api/v1/contacts", {}, {{"X-Big", QByteArray(70 * 1024, 'a')}});
        QCOMPARE(r.status, 431);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QCOMPARE(r.errorCode(), QString("HEADERS_TOO_LARGE"));
        QCOMPARE(r.header("content-type"), QByteArray("application/json; charset=utf-8"));
        QCOMPARE(m_api->client->get("/api/v1/contacts").status, 200);
    }

    void needsCredentials()
    {
        ApiClient anonymous(m_api->server.baseUrl(), m_api->server.certificate());
        HttpResult r = anonymous.get("/api/v1/contacts");
        QCOMPARE(r.status, 401);
        QCOMPARE(r.json.value("success").toBool(true), false);
        anonymous.setToken("lk_wrong");
        QCOMPARE(anonymous.get("/api/v1/contacts").status, 401);
        anonymous.setToken("a.b.c");
        QCOMPARE(anonymous.get("/api/v1/contacts").status, 401);
    }

    void scopesGive403()
    {
        ApiClient reader(m_api->server.baseUrl(), m_api->server.certificate());
        reader.setToken(m_api->server.createApiKey({"contacts:read"}));
        QCOMPARE(reader.get("/api/v1/contacts").status, 200);
        const HttpResult r = reader.post("/api/v1/contacts", {{"firstName", "A"}, {"email", "x@example.com"}});
        QCOMPARE(r.status, 403);
        QCOMPARE(r.json.value("success").toBool(true), false);
    }

    void openApiListsEveryRoute()
    {
        ApiClient anonymous(m_api->server.baseUrl(), m_api->server.certificate());
        const HttpResult r = anonymous.get("/api/v1/openapi.json");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("openapi").toString(), QString("3.1.0"));
        const QJsonObject paths = r.json.value("paths").toObject();
        for (const Route &route : m_api->server.server().router().routes()) {
            QString path = route.pattern;
            path.replace(QRegularExpression(":([A-Za-z]+)"), "{\\1}");
            QVERIFY2(paths.value(path).toObject().contains(QString::fromLatin1(route.method).toLower()),
                     qPrintable(route.method + " " + path));
        }
        // The openapi_* tests lint this document and build a typed client from it (tests/openapi):
        // the fixture openapi_document runs this function with LIAISON_OPENAPI_DUMP set.
        const QString dump = qEnvironmentVariable("LIAISON_OPENAPI_DUMP");
        if (!dump.isEmpty()) {
            QFile out(dump);
            QVERIFY2(out.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(out.errorString()));
            QCOMPARE(out.write(r.body), qint64(r.body.size()));
        }
    }

    // Clients generated from the document name each operation by its operationId: every operation
    // has one, camelCase and unique, and a summary of one line (of at most 100 characters). Lists
    // every operation that has not.
    void openApiOperationsHaveUniqueIdsAndSummaries()
    {
        ApiClient anonymous(m_api->server.baseUrl(), m_api->server.certificate());
        const QJsonObject paths = anonymous.get("/api/v1/openapi.json").json.value("paths").toObject();
        static const QRegularExpression camelCase("^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*$");
        QHash<QString, QString> seen; // operationId -> "METHOD path"
        QStringList wrong;
        int operations = 0;
        for (auto p = paths.begin(); p != paths.end(); ++p) {
            const QJsonObject item = p.value().toObject();
            for (auto o = item.begin(); o != item.end(); ++o) {
                ++operations;
                const QString where = o.key().toUpper() + " " + p.key();
                const QJsonObject operation = o.value().toObject();
                const QString id = operation.value("operationId").toString();
                const QString summary = operation.value("summary").toString();
                if (!camelCase.match(id).hasMatch())
                    wrong << where + ": operationId \"" + id + "\" missing or not camelCase";
                else if (seen.contains(id))
                    wrong << where + ": operationId \"" + id + "\" also on " + seen.value(id);
                seen.insert(id, where);
                if (summary.trimmed().isEmpty() || summary.contains('\n') || summary.size() > RouteDoc::kMaxSummary)
                    wrong << where + ": no summary of one line of at most 100 characters";
            }
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join('\n')));
        QCOMPARE(operations, m_api->server.server().router().routes().size());
        // The names clients rely on (docs/api.md, "The OpenAPI document").
        QCOMPARE(seen.value("listContacts"), QString("GET /api/v1/contacts"));
        QCOMPARE(seen.value("createContact"), QString("POST /api/v1/contacts"));
        QCOMPARE(seen.value("updateContact"), QString("PUT /api/v1/contacts/{id}"));
        QCOMPARE(seen.value("patchContact"), QString("PATCH /api/v1/contacts/{id}"));
        QCOMPARE(seen.value("moveDealStage"), QString("PATCH /api/v1/deals/{id}/stage"));
        // What a summary leaves out is the operation's description.
        const QJsonObject events = paths.value("/widget/v1/events").toObject().value("get").toObject();
        QCOMPARE(events.value("summary").toString(), QString("Live replies to the visitor as server-sent events"));
        QVERIFY(events.value("description").toString().contains("Last-Event-ID"));
    }

    // NUL and lone surrogates are refused with 400 before SQL, on both databases, with or without a
    // credential, in the body, a path parameter or the query; nothing is stored.
    void unstorableTextIsRefused_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("field");
        QTest::newRow("NUL in a name") << QByteArray("POST") << QStringLiteral("/api/v1/contacts")
                                       << QByteArray(R"({"firstName":"A\u0000B","email":"nul@example.com"})")
                                       << QStringLiteral("firstName");
        QTest::newRow("lone surrogate in a custom field")
            << QByteArray("POST") << QStringLiteral("/api/v1/contacts")
            << QByteArray(R"({"firstName":"A","email":"s@example.com","customFields":{"note":"x\ud800"}})")
            << QStringLiteral("customFields.note");
        QTest::newRow("low surrogate first")
            << QByteArray("POST") << QStringLiteral("/api/v1/contacts")
            << QByteArray(R"({"firstName":"\udc00\ud800","email":"l@example.com"})") << QStringLiteral("firstName");
        QTest::newRow("NUL in a key")
            << QByteArray("POST") << QStringLiteral("/api/v1/contacts")
            << QByteArray(R"({"firstName":"A","email":"k@example.com","customFields":{"a\u0000":"1"}})")
            << QStringLiteral("customFields");
        QTest::newRow("NUL in the query") << QByteArray("GET") << QStringLiteral("/api/v1/contacts?search=a%00b")
                                          << QByteArray() << QStringLiteral("search");
        QTest::newRow("NUL in the path") << QByteArray("GET") << QStringLiteral("/api/v1/contacts/contact_%00")
                                         << QByteArray() << QStringLiteral("id");
        QTest::newRow("login e-mail, no credential")
            << QByteArray("POST") << QStringLiteral("/api/v1/auth/login")
            << QByteArray(R"({"email":"a\u0000@example.com","password":"x"})") << QStringLiteral("email");
    }
    void unstorableTextIsRefused()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QByteArray, body);
        QFETCH(QString, field);
        const HttpResult r = m_api->client->call(method, path, body);
        QVERIFY2(r.status == 400, r.body.constData());
        QCOMPARE(r.errorCode(), QStringLiteral("VALIDATION_ERROR"));
        QVERIFY2(r.json.value("error").toObject().value("details").toObject().contains(field), r.body.constData());
        QCOMPARE(m_api->client->get("/api/v1/contacts").json.value("pagination").toObject().value("total").toInt(), 0);
        // A surrogate pair as it should be is stored as the one character it is.
        const HttpResult ok = m_api->client->call(
            "POST", "/api/v1/contacts", QByteArray(R"({"firstName":"G\ud83d\ude00","email":"pair@example.com"})"));
        QCOMPARE(ok.status, 201);
        QCOMPARE(ok.data().value("firstName").toString(), QString::fromUtf8("G\xF0\x9F\x98\x80"));
    }

    void idempotencyKeyReplaysFirstAnswer()
    {
        const QByteArray body =
            QJsonDocument(QJsonObject{{"firstName", "Idem"}, {"email", "idem@example.com"}}).toJson();
        const HttpResult first = m_api->client->call("POST", "/api/v1/contacts", body, {{"Idempotency-Key", "abc-1"}});
        QCOMPARE(first.status, 201);
        const HttpResult second = m_api->client->call("POST", "/api/v1/contacts", body, {{"Idempotency-Key", "abc-1"}});
        QCOMPARE(second.status, 201);
        QCOMPARE(second.data().value("id"), first.data().value("id"));
        QCOMPARE(second.header("idempotent-replayed"), QByteArray("true"));
        QCOMPARE(m_api->client->get("/api/v1/contacts?search=idem")
                     .json.value("pagination")
                     .toObject()
                     .value("total")
                     .toInt(),
                 1);
        const HttpResult third = m_api->client->call("POST", "/api/v1/contacts", body, {{"Idempotency-Key", "abc-2"}});
        QCOMPARE(third.status, 409); // a new key: acts, and the duplicate e-mail is refused
    }

    void findsDuplicatesAndMerges()
    {
        const QString kept = createContact({{"firstName", "Işık"},
                                            {"lastName", "Çelik"},
                                            {"company", "Anadolu Yazılım"},
                                            {"email", "isik@anadolu.com.tr"}});
        const QString other = createContact({{"firstName", "ISIK"},
                                             {"lastName", "CELIK"},
                                             {"company", "ANADOLU YAZILIM"},
                                             {"phone", "+905321234567"},
                                             {"tags", QJsonArray{"fuar"}}});
        createContact({{"firstName", "Işık"}, {"lastName", "Çelik"}, {"company", "Ege"}, {"email", "isik@ege.com"}});
        QVERIFY(m_api->client->post("/api/v1/contacts/" + other + "/notes", {{"content", "Aradı"}}).status == 201);
        const HttpResult deal =
            m_api->client->post("/api/v1/deals", {{"name", "Lisans"}, {"value", 100}, {"contactId", other}});
        QCOMPARE(deal.status, 201);

        const HttpResult found = m_api->client->get("/api/v1/contacts/duplicates");
        QCOMPARE(found.status, 200);
        QCOMPARE(found.json.value("pagination").toObject().value("total").toInt(), 1);
        const QJsonObject group = found.json.value("data").toArray().at(0).toObject();
        QCOMPARE(group.value("suggestedKeepId").toString(), kept);
        QCOMPARE(group.value("contacts").toArray().size(), 2);
        QCOMPARE(group.value("contacts").toArray().at(1).toObject().value("id").toString(), other);
        const QJsonObject match = group.value("matches").toArray().at(0).toObject();
        QCOMPARE(match.value("rule").toString(), QString("name"));
        QCOMPARE(match.value("contactIds").toArray(), QJsonArray({kept, other}));
        QCOMPARE(m_api->client->get("/api/v1/contacts/duplicates?page=2").json.value("data").toArray().size(), 0);
        // As the other lists: a larger limit is read as 100, one that is not a positive number refused.
        QCOMPARE(m_api->client->get("/api/v1/contacts/duplicates?limit=500")
                     .json.value("pagination")
                     .toObject()
                     .value("limit")
                     .toInt(),
                 100);
        QCOMPARE(m_api->client->get("/api/v1/contacts/duplicates?limit=x").status, 400);

        const HttpResult merged =
            m_api->client->post("/api/v1/contacts/" + kept + "/merge", {{"otherIds", QJsonArray{other}}});
        QCOMPARE(merged.status, 200);
        QCOMPARE(merged.json.value("success").toBool(), true);
        const QString mergeId = merged.data().value("mergeId").toString();
        QVERIFY(mergeId.startsWith("merge_"));
        QCOMPARE(merged.data().value("contact").toObject().value("phone").toString(), QString("+905321234567"));
        QCOMPARE(merged.data().value("removedIds").toArray(), QJsonArray{other});
        QCOMPARE(merged.data().value("moved").toObject().value("notes").toInt(), 1);
        QCOMPARE(merged.data().value("moved").toObject().value("deals").toInt(), 1);
        const HttpResult gone = m_api->client->get("/api/v1/contacts/" + other);
        QCOMPARE(gone.status, 404);
        QCOMPARE(gone.json.value("error").toObject().value("details").toObject().value("mergedInto").toString(), kept);
        const QJsonObject detail = m_api->client->get("/api/v1/contacts/" + kept).data();
        QCOMPARE(detail.value("deals").toArray().size(), 1);
        QCOMPARE(detail.value("notes").toArray().size(), 1);
        QCOMPARE(m_api->client->get("/api/v1/contacts/duplicates").json.value("data").toArray().size(), 0);

        // The removed contact named again: 409 saying where it went.
        const HttpResult again =
            m_api->client->post("/api/v1/contacts/" + other + "/merge", {{"otherIds", QJsonArray{kept}}});
        QCOMPARE(again.status, 409);
        QCOMPARE(again.errorCode(), QString("CONFLICT"));
        QCOMPARE(again.json.value("error").toObject().value("details").toObject().value("mergedInto").toString(), kept);

        const HttpResult undone = m_api->client->post("/api/v1/contacts/merges/" + mergeId + "/undo", {});
        QCOMPARE(undone.status, 200);
        QCOMPARE(undone.data().value("restored").toArray().at(0).toObject().value("id").toString(), other);
        QCOMPARE(m_api->client->get("/api/v1/contacts/" + other).data().value("deals").toArray().size(), 1);
        QCOMPARE(m_api->client->post("/api/v1/contacts/merges/" + mergeId + "/undo", {}).status, 409);
        QCOMPARE(m_api->client->post("/api/v1/contacts/merges/merge_nobody/undo", {}).status, 404);
    }

    void mergeRefusesBadRequests_data()
    {
        QTest::addColumn<QString>("keep");
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QJsonArray many;
        for (int i = 0; i < 21; ++i)
            many.append(QStringLiteral("contact_%1").arg(i));
        QTest::newRow("no otherIds") << "a" << QJsonObject{} << 422 << "VALIDATION_ERROR";
        QTest::newRow("empty list") << "a" << QJsonObject{{"otherIds", QJsonArray{}}} << 422 << "VALIDATION_ERROR";
        QTest::newRow("not a list") << "a" << QJsonObject{{"otherIds", "b"}} << 400 << "VALIDATION_ERROR";
        QTest::newRow("not strings") << "a" << QJsonObject{{"otherIds", QJsonArray{1, 2}}} << 400 << "VALIDATION_ERROR";
        QTest::newRow("too many") << "a" << QJsonObject{{"otherIds", many}} << 400 << "VALIDATION_ERROR";
        QTest::newRow("the kept one") << "a" << QJsonObject{{"otherIds", QJsonArray{"a"}}} << 400 << "VALIDATION_ERROR";
        QTest::newRow("twice") << "a" << QJsonObject{{"otherIds", QJsonArray{"b", "b"}}} << 400 << "VALIDATION_ERROR";
        QTest::newRow("unknown other") << "a" << QJsonObject{{"otherIds", QJsonArray{"contact_nobody"}}} << 422
                                       << "VALIDATION_ERROR";
        QTest::newRow("unknown kept") << "nobody" << QJsonObject{{"otherIds", QJsonArray{"b"}}} << 404 << "NOT_FOUND";
    }
    void mergeRefusesBadRequests()
    {
        QFETCH(QString, keep);
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        const QString a = createContact({{"firstName", "A"}, {"email", "a@example.com"}});
        const QString b = createContact({{"firstName", "B"}, {"email", "b@example.com"}});
        // "a" and "b" stand for the two contacts' ids.
        QJsonArray others;
        for (const QJsonValue &v : body.value("otherIds").toArray())
            others.append(v == QJsonValue("a") ? QJsonValue(a) : v == QJsonValue("b") ? QJsonValue(b) : v);
        if (body.value("otherIds").isArray())
            body.insert("otherIds", others);
        const QString path = "/api/v1/contacts/" + (keep == "a" ? a : QStringLiteral("contact_nobody")) + "/merge";
        const HttpResult r = m_api->client->post(path, body);
        QCOMPARE(r.status, status);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QCOMPARE(r.errorCode(), code);
        QVERIFY(!r.json.value("error").toObject().value("message").toString().isEmpty());
        QCOMPARE(m_api->client->get("/api/v1/contacts").json.value("pagination").toObject().value("total").toInt(), 2);
    }

    void mergeNeedsWriteScopeAndAgentsMayMerge()
    {
        const QString a = createContact({{"firstName", "A"}, {"email", "a@example.com"}});
        const QString b = createContact({{"firstName", "B"}, {"email", "b@example.com"}});
        ApiClient reader(m_api->server.baseUrl(), m_api->server.certificate());
        reader.setToken(m_api->server.createApiKey({"contacts:read"}));
        QCOMPARE(reader.get("/api/v1/contacts/duplicates").status, 200);
        QCOMPARE(reader.post("/api/v1/contacts/" + a + "/merge", {{"otherIds", QJsonArray{b}}}).status, 403);
        const std::unique_ptr<ApiClient> agent = m_api->server.signedInClient("agent@example.com", "agent");
        QVERIFY(agent);
        QCOMPARE(agent->post("/api/v1/contacts/" + a + "/merge", {{"otherIds", QJsonArray{b}}}).status, 200);
    }

    void twoMergesAtOnceOneWins()
    {
        // Two clients merge the same contact into two others at the same moment: one 200, the other a
        // clear 409 in the error envelope, and the contact's note is on exactly one of them.
        const QString x = createContact({{"firstName", "X"}, {"email", "x@example.com"}});
        const QString y = createContact({{"firstName", "Y"}, {"email", "y@example.com"}});
        const QString o = createContact({{"firstName", "O"}, {"email", "o@example.com"}});
        QCOMPARE(m_api->client->post("/api/v1/contacts/" + o + "/notes", {{"content", "not"}}).status, 201);
        const std::unique_ptr<ApiClient> second = m_api->server.apiKeyClient();
        const QList<HttpResult> answers = sendAtOnce(
            {{m_api->client.get(), "POST", "/api/v1/contacts/" + x + "/merge", {{"otherIds", QJsonArray{o}}}},
             {second.get(), "POST", "/api/v1/contacts/" + y + "/merge", {{"otherIds", QJsonArray{o}}}}});
        QList<int> statuses{answers.at(0).status, answers.at(1).status};
        std::sort(statuses.begin(), statuses.end());
        QCOMPARE(statuses, QList<int>({200, 409}));
        const HttpResult &loser = answers.at(0).status == 409 ? answers.at(0) : answers.at(1);
        QCOMPARE(loser.errorCode(), QString("CONFLICT"));
        const int notes = m_api->client->get("/api/v1/contacts/" + x).data().value("notes").toArray().size() +
                          m_api->client->get("/api/v1/contacts/" + y).data().value("notes").toArray().size();
        QCOMPARE(notes, 1);
    }

    void liveEventReachesBus()
    {
        QSignalSpy spy(&m_api->server.bus(), &EventBus::changed);
        createContact({{"firstName", "Bus"}, {"email", "bus@example.com"}});
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<EventBus::Entity>(), EventBus::Entity::Contact);
        QCOMPARE(spy.at(0).at(2).value<EventBus::Change>(), EventBus::Change::Created);
    }

    void importsCsvAsAJob()
    {
        createContact({{"firstName", "Eski"}, {"email", "eski@example.com"}});
        // What a Turkish Excel saves: Windows-1254, ";".
        const QByteArray file = "Ad Soyad;E-posta;Telefon;\xDEirket;Sekt\xF6r\r\n"
                                "Ay\xFE"
                                "e Y\xFDlmaz;ayse@example.com;+90 532 123 45 67;A\xF0\x61\xE7 Ltd;Tekstil\r\n"
                                "Eski Ki\xFE"
                                "i;ESKI@example.com;;;\r\n"
                                "\xDDpek;ipek@;;;\r\n";
        const HttpResult r =
            importCsv(file, {{"mapping", R"({"Sektör": "customFields.sektor"})"}, {"duplicates", "skip"}});
        QCOMPARE(r.status, 202);
        QCOMPARE(r.json.value("success").toBool(), true);
        const QString id = r.data().value("id").toString();
        QVERIFY(id.startsWith("imp_"));
        QCOMPARE(r.header("location"), "/api/v1/imports/" + id.toUtf8());
        QCOMPARE(r.data().value("progress").toObject().value("total").toInt(), 3);
        QCOMPARE(r.data().value("mapping").toObject().value("E-posta").toString(), QString("email"));

        const QJsonObject job = finishedImport(id);
        QCOMPARE(job.value("status").toString(), QString("completed"));
        const QJsonObject counts = job.value("counts").toObject();
        QCOMPARE(counts.value("created").toInt(), 1);
        QCOMPARE(counts.value("skipped").toInt(), 1);
        QCOMPARE(counts.value("failed").toInt(), 1);
        QCOMPARE(job.value("progress").toObject().value("percent").toInt(), 100);
        const QJsonArray report = job.value("report").toArray();
        QCOMPARE(report.size(), 3);
        QCOMPARE(report.at(0).toObject().value("outcome").toString(), QString("created"));
        QCOMPARE(report.at(1).toObject().value("outcome").toString(), QString("skipped"));
        QCOMPARE(report.at(1).toObject().value("code").toString(), QString("DUPLICATE"));
        QCOMPARE(report.at(2).toObject().value("line").toInt(), 4);
        QCOMPARE(report.at(2).toObject().value("field").toString(), QString("email"));
        QVERIFY(!report.at(2).toObject().value("reason").toString().isEmpty());

        const QJsonObject ayse =
            m_api->client->get("/api/v1/contacts/" + report.at(0).toObject().value("id").toString()).data();
        QCOMPARE(ayse.value("lastName").toString(), QString("Yılmaz"));
        QCOMPARE(ayse.value("company").toString(), QString("Ağaç Ltd"));
        QCOMPARE(ayse.value("customFields").toObject().value("sektor").toString(), QString("Tekstil"));
    }

    void twoImportsAtOnce()
    {
        QByteArray a = "name,email\r\n", b = "name,email\r\n";
        for (int i = 0; i < 700; ++i) {
            a += "Kişi A" + QByteArray::number(i) + ",a" + QByteArray::number(i) + "@example.com\r\n";
            b += "Kişi B" + QByteArray::number(i) + ",b" + QByteArray::number(i) + "@example.com\r\n";
        }
        const HttpResult first = importCsv(a);
        const HttpResult second = importCsv(b);
        QCOMPARE(first.status, 202);
        QCOMPARE(second.status, 202);
        for (const HttpResult &r : {first, second}) {
            const QJsonObject job = finishedImport(r.data().value("id").toString());
            QCOMPARE(job.value("status").toString(), QString("completed"));
            QCOMPARE(job.value("counts").toObject().value("created").toInt(), 700);
        }
        QCOMPARE(
            m_api->client->get("/api/v1/contacts?limit=1").json.value("pagination").toObject().value("total").toInt(),
            1400);
    }

    void updatesDuplicatesWhenAsked()
    {
        const QString id = createContact({{"firstName", "Ali"}, {"phone", "+905551112233"}});
        const HttpResult r =
            importCsv("Telefon,Ad,Firma\r\n+90 (555) 111 22 33,Ali,Yeni AŞ\r\n", {{"duplicates", "update"}});
        QCOMPARE(r.status, 202);
        const QJsonObject job = finishedImport(r.data().value("id").toString());
        QCOMPARE(job.value("counts").toObject().value("updated").toInt(), 1);
        QCOMPARE(m_api->client->get("/api/v1/contacts/" + id).data().value("company").toString(), QString("Yeni AŞ"));
    }

    void importRefusesBadInput_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("part");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<int>("status");
        const QByteArray csv = "name,email\r\nAli,ali@example.com\r\n";
        QTest::newRow("mapping not JSON") << csv << "mapping" << QByteArray("{email") << 400;
        QTest::newRow("mapping names no column") << csv << "mapping" << QByteArray(R"({"Nope": "email"})") << 400;
        QTest::newRow("mapping names no field") << csv << "mapping" << QByteArray(R"({"name": "salary"})") << 400;
        QTest::newRow("mapping leaves no e-mail") << csv << "mapping" << QByteArray(R"({"email": null})") << 422;
        QTest::newRow("duplicates unknown") << csv << "duplicates" << QByteArray("merge") << 400;
        QTest::newRow("encoding unknown") << csv << "encoding" << QByteArray("latin-9") << 400;
        QTest::newRow("not text") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\0\0\0\0\0", 16) << "" << QByteArray() << 422;
        QTest::newRow("no header") << QByteArray("\r\n\r\n") << "" << QByteArray() << 422;
        QTest::newRow("no name column") << QByteArray("email\r\na@example.com\r\n") << "" << QByteArray() << 422;
    }
    void importRefusesBadInput()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, part);
        QFETCH(QByteArray, value);
        QFETCH(int, status);
        QList<QPair<QString, QByteArray>> fields;
        if (!part.isEmpty())
            fields << qMakePair(part, value);
        const HttpResult r = importCsv(file, fields);
        QCOMPARE(r.status, status);
        QCOMPARE(r.json.value("success").toBool(true), false);
        QVERIFY(!r.errorCode().isEmpty());
    }

    void importNeedsMultipartAndAccess()
    {
        HttpResult r =
            m_api->client->call("POST", "/api/v1/contacts/import", "name,email\r\n", {{"Content-Type", "text/csv"}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorCode(), QString("INVALID_MULTIPART"));
        const std::unique_ptr<ApiClient> reader = m_api->server.apiKeyClient({"contacts:read"});
        r = importCsv("name,email\r\nAli,ali@example.com\r\n", {}, reader.get());
        QCOMPARE(r.status, 403);
        // An agent may import.
        const std::unique_ptr<ApiClient> agent = m_api->server.signedInClient("ajan@example.com", "agent");
        QVERIFY(agent);
        r = importCsv("name,email\r\nAli,ali@example.com\r\n", {}, agent.get());
        QCOMPARE(r.status, 202);
        QCOMPARE(finishedImport(r.data().value("id").toString()).value("counts").toObject().value("created").toInt(),
                 1);
        QCOMPARE(m_api->client->get("/api/v1/imports/imp_nope").status, 404);
        QCOMPARE(m_api->client->call("POST", "/api/v1/imports/imp_nope/cancel").status, 404);
        // A job that has ended is left as it is by a cancel.
        const HttpResult cancelled =
            m_api->client->call("POST", "/api/v1/imports/" + r.data().value("id").toString() + "/cancel");
        QCOMPARE(cancelled.status, 200);
        QCOMPARE(cancelled.data().value("status").toString(), QString("completed"));
    }

    void exportsTheFilteredListAsCsv()
    {
        createContact({{"firstName", "Ayşe"},
                       {"email", "ayse@example.com"},
                       {"tags", QJsonArray{"vip"}},
                       {"customFields", QJsonObject{{"sektor", "Gıda"}}}});
        createContact({{"firstName", "Veli"}, {"phone", "+905321112233"}, {"tags", QJsonArray{"vip"}}});
        createContact({{"firstName", "Can"}, {"email", "can@example.com"}});
        const HttpResult r = m_api->client->get("/api/v1/contacts/export?tag=vip&sort=name");
        QCOMPARE(r.status, 200);
        QVERIFY(r.header("content-type").startsWith("text/csv"));
        QVERIFY(r.header("content-disposition").contains("contacts-"));
        QVERIFY(r.body.startsWith("\xEF\xBB\xBF"));
        const QStringList lines = QString::fromUtf8(r.body.mid(3)).split("\r\n", Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines.at(0).startsWith("id,firstName,lastName,email,phone"));
        QVERIFY(lines.at(0).contains("customFields.sektor"));
        QVERIFY(lines.at(1).contains("Ayşe"));
        QVERIFY(lines.at(1).contains("Gıda"));
        QVERIFY(lines.at(2).contains("+905321112233"));
        // The export imported again changes nothing.
        const HttpResult again = importCsv(r.body, {{"duplicates", "update"}});
        QCOMPARE(again.status, 202);
        const QJsonObject job = finishedImport(again.data().value("id").toString());
        QCOMPARE(job.value("counts").toObject().value("skipped").toInt(), 2);
        QCOMPARE(job.value("counts").toObject().value("updated").toInt(), 0);
        QCOMPARE(m_api->client->get("/api/v1/contacts/export?segmentId=seg_nope").status, 404);
        QCOMPARE(m_api->client->get("/api/v1/contacts/export?sort=salary").status, 400);
    }

    void exportsManyContactsInPieces()
    {
        QVector<QJsonObject> bodies;
        for (int i = 0; i < 2600; ++i)
            bodies << QJsonObject{{"firstName", QStringLiteral("Kişi %1").arg(i)},
                                  {"email", QStringLiteral("k%1@example.com").arg(i)}};
        ContactRepository(m_api->server.store()).insertBulk(bodies);
        const HttpResult r = m_api->client->get("/api/v1/contacts/export");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-total-count"), QByteArray("2600"));
        QCOMPARE(r.body.count("\r\n"), 2601);
    }
};

QTEST_GUILESS_MAIN(TestContactsApi)
#include "test_contactsapi.moc"
