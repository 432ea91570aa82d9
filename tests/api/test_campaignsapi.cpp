// The Campaigns area over real HTTPS on loopback: create and its refusals (types, required fields,
// unknown merge fields, unknown segments), list filters, changes only while DRAFT or SCHEDULED, the
// state machine (send, pause, resume, cancel, retry-failed, invalid moves 409), the audience frozen at
// send with every left-out contact counted by reason, statistics as the spec's bare object, the
// recipients list, test sends, the unsubscribe list and its admin-only removal, and the public links
// (open pixel, click redirect, unsubscribe page and RFC 8058 one-click POST). Sending itself is the
// senders' (messaging_campaignsender); outcomes are recorded here as a sender records them.
#include "model/campaigns/campaignrepository.h"
#include "model/core/database.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QUrlQuery>
#include <QtTest>

namespace {
QJsonObject tagRule(const QString &tag)
{
    return {{"logic", "AND"},
            {"rules", QJsonArray{QJsonObject{{"field", "tags"}, {"operator", "equals"}, {"value", tag}}}}};
}
} // namespace

class TestCampaignsApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ApiFixture> m_api;

    QString createContact(const QJsonObject &body)
    {
        const HttpResult r = m_api->client->post("/api/v1/contacts", body);
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value("id").toString();
    }

    QString createSegment(const QString &name, const QString &tag)
    {
        const HttpResult r =
            m_api->client->post("/api/v1/contacts/segments", {{"name", name}, {"filters", tagRule(tag)}});
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value("id").toString();
    }

    QString createCampaign(const QJsonObject &extra = {})
    {
        QJsonObject body{
            {"name", "Kasım indirimi"},
            {"type", "BROADCAST"},
            {"channel", "email"},
            {"subject", "Merhaba {{firstName|değerli müşterimiz}}"},
            {"htmlContent", "<p>Sevgili {{firstName}}, <a href=\"https://ornek.com.tr/kampanya\">indirim</a></p>"}};
        for (auto it = extra.begin(); it != extra.end(); ++it)
            body.insert(it.key(), it.value());
        const HttpResult r = m_api->client->post("/api/v1/campaigns", body);
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value("id").toString();
    }

    QStringList events(const QString &prefix) const
    {
        QStringList out;
        QSqlQuery q = Database::exec("SELECT event FROM outbox WHERE event LIKE ? ORDER BY seq", {prefix + "%"});
        while (q.next())
            out << q.value(0).toString();
        return out;
    }

    // Four contacts tagged "kasim" (and one not): two reachable by e-mail, one without an address,
    // one unsubscribed before (its address given in another case).
    QString audience()
    {
        createContact({{"firstName", "Ayşe"},
                       {"lastName", "Yılmaz"},
                       {"email", "ayse@ornek.com.tr"},
                       {"tags", QJsonArray{"kasim"}}});
        createContact({{"firstName", "Çağrı"}, {"email", "cagri@ornek.com.tr"}, {"tags", QJsonArray{"kasim"}}});
        createContact({{"firstName", "İsmail"}, {"phone", "+905321112233"}, {"tags", QJsonArray{"kasim"}}});
        createContact({{"firstName", "Oğuz"}, {"email", "oguz@ornek.com.tr"}, {"tags", QJsonArray{"diger"}}});
        createContact({{"firstName", "Şule"}, {"email", "sule@ornek.com.tr"}, {"tags", QJsonArray{"kasim"}}});
        const HttpResult u =
            m_api->client->post("/api/v1/unsubscribes", {{"channel", "email"}, {"address", "SULE@ornek.com.tr"}});
        if (u.status != 201)
            qWarning() << u.status << u.body;
        return createSegment("Kasım listesi", "kasim");
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        // Segments are made by a signed-in user.
        m_api = std::make_unique<ApiFixture>(ApiFixture::Client::None);
        m_api->client = m_api->server.signedInClient("yonetici@ornek.com.tr", "admin");
        QVERIFY(m_api->client);
    }

    void cleanup() { m_api.reset(); }

    void createsListsAndReads()
    {
        const QString id = createCampaign();
        QVERIFY(id.startsWith("cmp_"));
        HttpResult r = m_api->client->get("/api/v1/campaigns/" + id);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("DRAFT"));
        QCOMPARE(r.data().value("channel").toString(), QString("email"));
        QCOMPARE(r.data().value("stats").toObject().value("sent").toInt(), 0);

        createCampaign({{"name", "SMS duyurusu"}, {"channel", "sms"}, {"subject", ""}});
        r = m_api->client->get("/api/v1/campaigns?channel=sms");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("data").toArray().size(), 1);
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 1);
        r = m_api->client->get("/api/v1/campaigns?status=draft&type=BROADCAST");
        QCOMPARE(r.json.value("data").toArray().size(), 2);
        QCOMPARE(m_api->client->get("/api/v1/campaigns?status=WAITING").status, 400);
        QCOMPARE(m_api->client->get("/api/v1/campaigns/cmp_nope").status, 404);
    }

    void refusesBadCampaigns_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("field");
        const QJsonObject ok{
            {"name", "A"}, {"type", "BROADCAST"}, {"channel", "email"}, {"subject", "S"}, {"htmlContent", "<p>x</p>"}};
        auto with = [&](const char *key, const QJsonValue &v) {
            QJsonObject b = ok;
            if (v.isUndefined())
                b.remove(key);
            else
                b.insert(key, v);
            return b;
        };
        QTest::newRow("no name") << with("name", QJsonValue::Undefined) << 422 << "name";
        QTest::newRow("no channel") << with("channel", QJsonValue::Undefined) << 422 << "channel";
        QTest::newRow("unknown type") << with("type", "NEWSLETTER") << 400 << "type";
        QTest::newRow("unknown channel") << with("channel", "fax") << 400 << "channel";
        QTest::newRow("name not a string") << with("name", 5) << 400 << "name";
        QTest::newRow("email without subject") << with("subject", "") << 422 << "subject";
        QTest::newRow("no body") << with("htmlContent", QJsonValue::Undefined) << 422 << "htmlContent";
        QTest::newRow("bad schedule") << with("scheduledAt", "yarın") << 400 << "scheduledAt";
        QTest::newRow("past schedule") << with("scheduledAt", "2001-01-01T10:00:00Z") << 400 << "scheduledAt";
        QTest::newRow("drip without steps") << with("type", "DRIP") << 422 << "steps";
        QTest::newRow("bad step delay") << [&] {
            QJsonObject b = with("type", "DRIP");
            b.insert("steps", QJsonArray{QJsonObject{{"delayDays", -1}, {"subject", "a"}, {"htmlContent", "b"}}});
            return b;
        }() << 400 << "steps[0].delayDays";
    }

    void refusesBadCampaigns()
    {
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QFETCH(QString, field);
        const HttpResult r = m_api->client->post("/api/v1/campaigns", body);
        QCOMPARE(r.status, status);
        QCOMPARE(r.errorCode(), QString("VALIDATION_ERROR"));
        QVERIFY2(r.json.value("error").toObject().value("details").toObject().contains(field), r.body.constData());
        QCOMPARE(Database::rowCount("campaigns"), 0);
    }

    void refusesUnknownMergeFieldsAndSegments()
    {
        HttpResult r = m_api->client->post("/api/v1/campaigns", {{"name", "A"},
                                                                 {"type", "BROADCAST"},
                                                                 {"channel", "email"},
                                                                 {"subject", "{{firstNmae}}"},
                                                                 {"htmlContent", "<p>{{shoeSize|?}}</p>"}});
        QCOMPARE(r.status, 422);
        QCOMPARE(r.errorCode(), QString("UNKNOWN_MERGE_FIELD"));
        QVERIFY(r.json.value("error").toObject().value("message").toString().contains("firstNmae"));
        // A custom field some contact has is known.
        createContact(
            {{"firstName", "Ali"}, {"email", "ali@ornek.com.tr"}, {"customFields", QJsonObject{{"shoeSize", 42}}}});
        r = m_api->client->post("/api/v1/campaigns", {{"name", "A"},
                                                      {"type", "BROADCAST"},
                                                      {"channel", "email"},
                                                      {"subject", "{{firstName}}"},
                                                      {"htmlContent", "<p>{{shoeSize|?}}</p>"}});
        QCOMPARE(r.status, 201);
        r = m_api->client->post("/api/v1/campaigns", {{"name", "A"},
                                                      {"type", "BROADCAST"},
                                                      {"channel", "email"},
                                                      {"subject", "S"},
                                                      {"htmlContent", "x"},
                                                      {"broadcastListId", "seg_nope"}});
        QCOMPARE(r.status, 404);
    }

    void changesOnlyWhileDraftOrScheduled()
    {
        const QString segment = audience();
        const QString id = createCampaign({{"broadcastListId", segment}});
        const QString future = QDateTime::currentDateTimeUtc().addDays(2).toString(Qt::ISODate);
        HttpResult r = m_api->client->patch("/api/v1/campaigns/" + id, {{"scheduledAt", future}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("SCHEDULED"));
        r = m_api->client->patch("/api/v1/campaigns/" + id, {{"scheduledAt", QJsonValue::Null}});
        QCOMPARE(r.data().value("status").toString(), QString("DRAFT"));
        r = m_api->client->patch("/api/v1/campaigns/" + id, {{"name", "Yeni ad"}});
        QCOMPARE(r.data().value("name").toString(), QString("Yeni ad"));

        QCOMPARE(m_api->client->post("/api/v1/campaigns/" + id + "/send", {}).status, 200);
        r = m_api->client->patch("/api/v1/campaigns/" + id, {{"name", "Geç"}});
        QCOMPARE(r.status, 409);
        QCOMPARE(r.errorCode(), QString("CAMPAIGN_NOT_EDITABLE"));
        QCOMPARE(m_api->client->del("/api/v1/campaigns/" + id).status, 409);

        const QString draft = createCampaign();
        QCOMPARE(m_api->client->del("/api/v1/campaigns/" + draft).status, 200);
        QCOMPARE(m_api->client->get("/api/v1/campaigns/" + draft).status, 404);
    }

    void sendFreezesTheAudienceAndCountsWhoIsLeftOut()
    {
        const QString segment = audience();
        const QString id = createCampaign({{"broadcastListId", segment}});
        // The preview counts as send will.
        HttpResult r = m_api->client->get("/api/v1/campaigns/audience?segmentId=" + segment + "&channel=email");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("total").toInt(), 4);
        QCOMPARE(r.data().value("reachable").toInt(), 2);

        r = m_api->client->post("/api/v1/campaigns/" + id + "/send", {});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("SENDING"));
        QVERIFY(!r.data().value("startedAt").toString().isEmpty());
        const QJsonObject skipped = r.data().value("skipped").toObject();
        QCOMPARE(skipped.value("no_address").toInt(), 1);
        QCOMPARE(skipped.value("unsubscribed").toInt(), 1);
        QCOMPARE(events("campaign."), QStringList{"campaign.started"});

        // A contact tagged after the start is not in the frozen audience.
        createContact({{"firstName", "Geç"}, {"email", "gec@ornek.com.tr"}, {"tags", QJsonArray{"kasim"}}});
        r = m_api->client->get("/api/v1/campaigns/" + id + "/recipients?limit=100");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 4);
        r = m_api->client->get("/api/v1/campaigns/" + id + "/recipients?status=pending");
        QStringList pending;
        for (const QJsonValue &v : r.json.value("data").toArray())
            pending << v.toObject().value("address").toString();
        pending.sort();
        QCOMPARE(pending, (QStringList{"ayse@ornek.com.tr", "cagri@ornek.com.tr"}));
        r = m_api->client->get("/api/v1/campaigns/" + id + "/recipients?status=skipped");
        QCOMPARE(r.json.value("data").toArray().size(), 2);

        // Sending twice, or from a state that cannot: 409.
        r = m_api->client->post("/api/v1/campaigns/" + id + "/send", {});
        QCOMPARE(r.status, 409);
        QCOMPARE(r.errorCode(), QString("INVALID_TRANSITION"));
    }

    // A DRIP campaign needs its segment to start; its members enter, and each one's walk is listed
    // with the steps sent so far.
    void dripListsEachContactsWalk()
    {
        const QString segment = audience();
        const QJsonArray steps{QJsonObject{{"delayMinutes", 0}, {"subject", "Hoş geldin"}, {"htmlContent", "<p>1</p>"}},
                               QJsonObject{{"delayDays", 1}, {"subject", "Yarın"}, {"htmlContent", "<p>2</p>"}}};
        const QString lonely = createCampaign({{"type", "DRIP"}, {"steps", steps}});
        HttpResult r = m_api->client->post("/api/v1/campaigns/" + lonely + "/send", {});
        QCOMPARE(r.status, 422);
        QVERIFY2(r.json.value("error").toObject().value("details").toObject().contains("broadcastListId"), r.body);

        const QString id = createCampaign({{"type", "DRIP"}, {"steps", steps}, {"broadcastListId", segment}});
        r = m_api->client->post("/api/v1/campaigns/" + id + "/send", {});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("SENDING"));
        r = m_api->client->get("/api/v1/campaigns/" + id + "/enrolments");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 4);
        const QJsonObject first = r.json.value("data").toArray().first().toObject();
        QCOMPARE(first.value("status").toString(), QString("active"));
        QCOMPARE(first.value("nextStep").toInt(), 0);
        QCOMPARE(first.value("source").toString(), QString("audience"));

        QCOMPARE(CampaignRepository(testStore()).advanceDrips(100, QTimeZone::utc()), 2);
        r = m_api->client->get("/api/v1/campaigns/" + id + "/enrolments?status=exited");
        QStringList reasons;
        for (const QJsonValue &v : r.json.value("data").toArray())
            reasons << v.toObject().value("exitReason").toString();
        reasons.sort();
        QCOMPARE(reasons, (QStringList{"no_address", "unsubscribed"}));
        r = m_api->client->get("/api/v1/campaigns/" + id + "/enrolments?status=active");
        QCOMPARE(r.json.value("data").toArray().size(), 2);
        const QJsonObject walking = r.json.value("data").toArray().first().toObject();
        QCOMPARE(walking.value("nextStep").toInt(), 1);
        QCOMPARE(walking.value("steps").toArray().size(), 1);
        QCOMPARE(walking.value("steps").toArray().first().toObject().value("status").toString(), QString("pending"));
        r = m_api->client->get("/api/v1/campaigns/" + id +
                               "/enrolments?contactId=" + walking.value("contactId").toString());
        QCOMPARE(r.json.value("data").toArray().size(), 1);
        r = m_api->client->get("/api/v1/campaigns/" + id + "/recipients?status=pending");
        QCOMPARE(r.json.value("data").toArray().first().toObject().value("step").toInt(), 0);
        // By name, without case or accents.
        r = m_api->client->get("/api/v1/campaigns/" + id + "/enrolments?search=CAGRI");
        QCOMPARE(r.json.value("data").toArray().size(), 1);
        QCOMPARE(r.json.value("data").toArray().first().toObject().value("name").toString(), QString("Çağrı"));

        QCOMPARE(m_api->client->get("/api/v1/campaigns/" + id + "/enrolments?status=walking").status, 400);
        QCOMPARE(m_api->client->get("/api/v1/campaigns/cmp_nope/enrolments").status, 404);
    }

    void movesOfTheStateMachine()
    {
        const QString segment = audience();
        const QString id = createCampaign({{"broadcastListId", segment}});
        const QString base = "/api/v1/campaigns/" + id;
        QCOMPARE(m_api->client->post(base + "/pause", {}).status, 409);
        QCOMPARE(m_api->client->post(base + "/resume", {}).status, 409);
        QCOMPARE(m_api->client->post(base + "/send", {}).status, 200);
        HttpResult r = m_api->client->post(base + "/pause", {});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("PAUSED"));
        // A paused campaign gives no one to a sender.
        CampaignRepository repo(testStore());
        QVERIFY(repo.claim("email", 10, 60).isEmpty());
        r = m_api->client->post(base + "/resume", {});
        QCOMPARE(r.data().value("status").toString(), QString("SENDING"));
        const QVector<CampaignSend> claimed = repo.claim("email", 10, 60);
        QCOMPARE(claimed.size(), 2);
        // Merge fields come with the contact.
        QVERIFY(claimed.first().contact.firstName == "Ayşe" || claimed.first().contact.firstName == "Çağrı");
        // Claimed rows are not claimed again while their lease runs.
        QVERIFY(repo.claim("email", 10, 60).isEmpty());

        // One accepted, one refused for good: the campaign is SENT, the refused address suppressed.
        repo.record({{claimed.at(0).recipientId, CampaignSendResult::Sent, 250, "OK", "<m1@ornek>"},
                     {claimed.at(1).recipientId, CampaignSendResult::HardBounce, 550, "no such user", {}}},
                    {60});
        r = m_api->client->get(base);
        QCOMPARE(r.data().value("status").toString(), QString("SENT"));
        QCOMPARE(events("campaign."), (QStringList{"campaign.started", "campaign.completed"}));
        r = m_api->client->get(base + "/stats");
        QCOMPARE(r.status, 200);
        QVERIFY(!r.json.contains("success")); // the bare object, as the spec shows it
        QCOMPARE(r.json.value("sent").toInt(), 1);
        QCOMPARE(r.json.value("delivered").toInt(), 1);
        QCOMPARE(r.json.value("bounced").toInt(), 1);
        QCOMPARE(r.json.value("deliveryRate").toDouble(), 100.0);
        r = m_api->client->get("/api/v1/unsubscribes?channel=email");
        QCOMPARE(r.json.value("pagination").toObject().value("total").toInt(), 2); // Şule and the bounce

        // Nothing failed: retry-failed has no one; cancel of a SENT campaign: 409.
        r = m_api->client->post(base + "/retry-failed", {});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("retried").toInt(), 0);
        QCOMPARE(m_api->client->post(base + "/cancel", {}).status, 409);
    }

    void softFailuresAreRetriedThenFailAndCanBeRetried()
    {
        const QString segment = audience();
        const QString id = createCampaign({{"broadcastListId", segment}});
        QCOMPARE(m_api->client->post("/api/v1/campaigns/" + id + "/send", {}).status, 200);
        CampaignRepository repo(testStore());
        QVector<CampaignSend> claimed = repo.claim("email", 10, 60);
        QCOMPARE(claimed.size(), 2);
        // 451 with one retry left: pending again, after the delay (not due now).
        repo.record({{claimed.at(0).recipientId, CampaignSendResult::SoftFailure, 451, "try later", {}},
                     {claimed.at(1).recipientId, CampaignSendResult::Sent, 250, "OK", {}}},
                    {3600});
        QVERIFY(repo.claim("email", 10, 60).isEmpty());
        QCOMPARE(repo.get(id).status, QString("SENDING"));
        Database::exec(
            "UPDATE campaign_recipients SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE status = 'pending'");
        claimed = repo.claim("email", 10, 60);
        QCOMPARE(claimed.size(), 1);
        QCOMPARE(claimed.first().attempt, 2);
        repo.record({{claimed.at(0).recipientId, CampaignSendResult::SoftFailure, 451, "try later", {}}}, {3600});
        // The last try: a soft bounce; the campaign ends SENT (one was delivered).
        const CampaignStats s = repo.stats(id);
        QCOMPARE(s.bounced, 1);
        QCOMPARE(repo.get(id).status, QString("SENT"));
        HttpResult r = m_api->client->get("/api/v1/campaigns/" + id + "/recipients?status=bounced");
        QCOMPARE(r.json.value("data").toArray().first().toObject().value("bounceType").toString(), QString("soft"));

        r = m_api->client->post("/api/v1/campaigns/" + id + "/retry-failed", {});
        QCOMPARE(r.data().value("retried").toInt(), 1);
        QCOMPARE(r.data().value("campaign").toObject().value("status").toString(), QString("SENDING"));
        QCOMPARE(repo.claim("email", 10, 60).size(), 1);
    }

    void anAudienceNoOneCanReachFails()
    {
        createContact({{"firstName", "Telefonlu"}, {"phone", "+905321112299"}, {"tags", QJsonArray{"yok"}}});
        const QString id = createCampaign({{"broadcastListId", createSegment("Yok", "yok")}});
        const HttpResult r = m_api->client->post("/api/v1/campaigns/" + id + "/send", {});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("FAILED"));
        QVERIFY(!r.data().value("statusReason").toString().isEmpty());
        QCOMPARE(events("campaign."), (QStringList{"campaign.started", "campaign.failed"}));
    }

    void testSendsGoToTheGivenAddressesOnly()
    {
        const QString id = createCampaign();
        HttpResult r = m_api->client->post("/api/v1/campaigns/" + id + "/test",
                                           {{"addresses", QJsonArray{"deneme@ornek.com.tr"}}});
        QCOMPARE(r.status, 202);
        QCOMPARE(r.json.value("data").toArray().size(), 1);
        r = m_api->client->post("/api/v1/campaigns/" + id + "/test", {{"addresses", QJsonArray{"not-an-address"}}});
        QCOMPARE(r.status, 400);
        r = m_api->client->post("/api/v1/campaigns/" + id + "/test", {});
        QCOMPARE(r.status, 422);
        // A draft's test sends are claimed; they count in no statistic.
        CampaignRepository repo(testStore());
        const QVector<CampaignSend> claimed = repo.claim("email", 10, 60);
        QCOMPARE(claimed.size(), 1);
        QVERIFY(claimed.first().test);
        repo.record({{claimed.first().recipientId, CampaignSendResult::Sent, 250, "OK", {}}}, {});
        QCOMPARE(repo.stats(id).sent, 0);
        QCOMPARE(repo.get(id).status, QString("DRAFT"));
        r = m_api->client->get("/api/v1/campaigns/" + id + "/recipients?test=true");
        QCOMPARE(r.json.value("data").toArray().first().toObject().value("status").toString(), QString("sent"));
    }

    void unsubscribeListAddsAnyoneRemovesAdminsOnly()
    {
        HttpResult r =
            m_api->client->post("/api/v1/unsubscribes", {{"channel", "email"}, {"address", "X@Ornek.com.tr"}});
        QCOMPARE(r.status, 201);
        const QString id = r.data().value("id").toString();
        QCOMPARE(r.data().value("address").toString(), QString("x@ornek.com.tr"));
        // The same address again: the entry as it is.
        r = m_api->client->post("/api/v1/unsubscribes", {{"channel", "email"}, {"address", "x@ornek.com.tr"}});
        QCOMPARE(r.data().value("id").toString(), id);
        QCOMPARE(m_api->client->post("/api/v1/unsubscribes", {{"channel", "email"}, {"address", "bad"}}).status, 400);
        QCOMPARE(m_api->client->post("/api/v1/unsubscribes", {{"channel", "fax"}, {"address", "x@y.z"}}).status, 400);

        std::unique_ptr<ApiClient> agent = m_api->server.signedInClient("agent@example.com", "agent");
        QVERIFY(agent);
        QCOMPARE(agent->post("/api/v1/unsubscribes", {{"channel", "sms"}, {"address", "+905321234567"}}).status, 201);
        r = agent->del("/api/v1/unsubscribes/" + id);
        QCOMPARE(r.status, 403);
        // An agent creates and sends campaigns.
        QCOMPARE(agent
                     ->post("/api/v1/campaigns",
                            {{"name", "A"}, {"type", "BROADCAST"}, {"channel", "sms"}, {"htmlContent", "Merhaba"}})
                     .status,
                 201);
        ApiClient *admin = m_api->client.get();
        QCOMPARE(admin->del("/api/v1/unsubscribes/" + id).status, 200);
        QCOMPARE(admin->del("/api/v1/unsubscribes/" + id).status, 404);
    }

    void lateBouncesComeThroughTheBounceWebhook()
    {
        const QString segment = audience();
        const QString id = createCampaign({{"broadcastListId", segment}});
        QCOMPARE(m_api->client->post("/api/v1/campaigns/" + id + "/send", {}).status, 200);
        CampaignRepository repo(testStore());
        const QVector<CampaignSend> claimed = repo.claim("email", 10, 60);
        QCOMPARE(claimed.size(), 2);
        repo.record({{claimed.at(0).recipientId, CampaignSendResult::Sent, 250, "OK", {}},
                     {claimed.at(1).recipientId, CampaignSendResult::Sent, 250, "OK", {}}},
                    {});
        QCOMPARE(repo.stats(id).delivered, 2);
        // A hard bounce named by our Message-ID; a soft one by the VERP address it came back to.
        HttpResult r = m_api->client->post(
            "/webhooks/email/bounce", {{"messageId", "<" + id + "." + claimed.at(0).recipientId + "@ornek.com.tr>"},
                                       {"type", "hard"},
                                       {"reason", "550 5.1.1 user unknown"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("status").toString(), QString("bounced"));
        r = m_api->client->post("/webhooks/email/bounce",
                                {{"envelopeTo", "kampanya+" + claimed.at(1).recipientId + "@ornek.com.tr"},
                                 {"type", "soft"},
                                 {"reason", "452 mailbox full"}});
        QCOMPARE(r.status, 200);
        const CampaignStats s = repo.stats(id);
        QCOMPARE(s.bounced, 2);
        QCOMPARE(s.delivered, 0);
        QCOMPARE(s.sent, 2);
        SuppressionRepository suppressions(testStore());
        QVERIFY(suppressions.isSuppressed("email", claimed.at(0).address));
        QVERIFY(!suppressions.isSuppressed("email", claimed.at(1).address));
        // Refusals: no recipient named 422, an unknown one 404, a wrong type 400, no credential 401.
        QCOMPARE(m_api->client->post("/webhooks/email/bounce", {{"type", "hard"}}).status, 422);
        QCOMPARE(
            m_api->client
                ->post("/webhooks/email/bounce", {{"recipientId", "rcp_01kbx7y3z4a5b6c7d8e9f0g1h2"}, {"type", "hard"}})
                .status,
            404);
        QCOMPARE(m_api->client
                     ->post("/webhooks/email/bounce", {{"recipientId", claimed.at(0).recipientId}, {"type", "late"}})
                     .status,
                 400);
        ApiClient anonymous(m_api->server.baseUrl(), m_api->server.certificate());
        QCOMPARE(
            anonymous.post("/webhooks/email/bounce", {{"recipientId", claimed.at(0).recipientId}, {"type", "hard"}})
                .status,
            401);
    }

    void publicLinksTrackAndUnsubscribe()
    {
        const QString segment = audience();
        const QString id = createCampaign({{"broadcastListId", segment}});
        QCOMPARE(m_api->client->post("/api/v1/campaigns/" + id + "/send", {}).status, 200);
        CampaignRepository repo(testStore());
        const QVector<CampaignSend> claimed = repo.claim("email", 10, 60);
        repo.record({{claimed.at(0).recipientId, CampaignSendResult::Sent, 250, "OK", {}},
                     {claimed.at(1).recipientId, CampaignSendResult::Sent, 250, "OK", {}}},
                    {});
        const QByteArray key = repo.linkKey();
        const QString rid = claimed.at(0).recipientId;
        ApiClient anonymous(m_api->server.baseUrl(), m_api->server.certificate());
        const QList<QPair<QByteArray, QByteArray>> browser{
            {"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"}};

        // The pixel: a GIF, never cached; a proxy's fetch is kept apart; a bad token still gets the image.
        HttpResult r = anonymous.call("GET", "/t/o/" + CampaignLinks::token(key, "open", rid), {}, browser);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("content-type"), QByteArray("image/gif"));
        QVERIFY(r.header("cache-control").contains("no-store"));
        r = anonymous.call(
            "GET", "/t/o/" + CampaignLinks::token(key, "open", claimed.at(1).recipientId), {},
            {{"User-Agent",
              "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(anonymous.call("GET", "/t/o/" + rid + ".forged", {}, browser).status, 200);
        CampaignStats s = repo.stats(id);
        QCOMPARE(s.opened, 1);
        QCOMPARE(s.proxyOpens, 1);

        // A click: 307 to the signed URL only.
        const QString url = "https://ornek.com.tr/kampanya?x=1&y=ğ";
        r = anonymous.call(
            "GET", "/t/c/" + CampaignLinks::token(key, "click", rid, url) + "?u=" + QUrl::toPercentEncoding(url), {},
            browser);
        QCOMPARE(r.status, 307);
        QCOMPARE(QUrl::fromEncoded(r.header("location")).toString(), url);
        r = anonymous.call("GET",
                           "/t/c/" + CampaignLinks::token(key, "click", rid, url) +
                               "?u=" + QUrl::toPercentEncoding("https://evil.example"),
                           {}, browser);
        QCOMPARE(r.status, 404);
        s = repo.stats(id);
        QCOMPARE(s.clicked, 1);
        QCOMPARE(s.openRate(), 50.0);

        // Unsubscribe: GET changes nothing (a link scanner), POST does.
        const QString path = "/u/" + CampaignLinks::token(key, "unsubscribe", rid);
        r = anonymous.call("GET", path, {}, {{"Accept-Language", "tr-TR,tr;q=0.9"}});
        QCOMPARE(r.status, 200);
        QVERIFY(r.header("content-type").startsWith("text/html"));
        QVERIFY(QString::fromUtf8(r.body).contains("Abonelikten çık"));
        QCOMPARE(repo.stats(id).unsubscribed, 0);
        r = anonymous.call("POST", path, "List-Unsubscribe=One-Click",
                           {{"Content-Type", "application/x-www-form-urlencoded"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(repo.stats(id).unsubscribed, 1);
        SuppressionRepository suppressions(testStore());
        QVERIFY(suppressions.isSuppressed("email", claimed.at(0).address));
        QCOMPARE(anonymous.call("POST", "/u/" + rid + ".forged", "List-Unsubscribe=One-Click").status, 404);
    }
};

QTEST_MAIN(TestCampaignsApi)
#include "test_campaignsapi.moc"
