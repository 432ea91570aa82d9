// POST /webhooks/sms/status over real HTTPS on loopback: the SMS provider's delivery reports
// (Twilio's shape, form-encoded, X-Twilio-Signature) make campaign recipients delivered or failed
// and the statistics follow; a report signed over the server's own URL is good too; a missing or
// wrong signature is 403 in the error envelope and changes nothing; an unknown sid and a status
// other than delivered/undelivered/failed are answered 200 and change nothing; no auth token
// configured: 503. The recipients are sent as the SMS sender records them (messaging_smscampaign
// sends them through a fake Twilio).
#include "messaging/campaigns/smsclient.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QtTest>

namespace {
const QString kSmsToken = QStringLiteral("twilio-auth-token-ornek");
const QString kSmsPublicBase = QStringLiteral("https://crm.ornek.com.tr:8443");

QByteArray formBody(const QList<QPair<QString, QString>> &params)
{
    QByteArray out;
    for (const auto &p : params) {
        if (!out.isEmpty())
            out += '&';
        out += QUrl::toPercentEncoding(p.first) + '=' + QUrl::toPercentEncoding(p.second);
    }
    return out;
}
} // namespace

class TestSmsStatusApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<ApiClient> m_anonymous;
    QString m_campaign;
    QHash<QString, QString> m_recipientOf; // sid -> recipient id

    HttpResult report(const QList<QPair<QString, QString>> &params, const QByteArray &signature)
    {
        QList<QPair<QByteArray, QByteArray>> headers{{"Content-Type", "application/x-www-form-urlencoded"}};
        if (!signature.isEmpty())
            headers.append({"X-Twilio-Signature", signature});
        return m_anonymous->call("POST", "/webhooks/sms/status", formBody(params), headers);
    }
    HttpResult signedReport(const QList<QPair<QString, QString>> &params,
                            const QString &url = kSmsPublicBase + QStringLiteral("/webhooks/sms/status"))
    {
        return report(params, TwilioSignature::sign(kSmsToken, url, params));
    }
    static QList<QPair<QString, QString>> status(const QString &sid, const QString &messageStatus,
                                                 const QString &errorCode = {})
    {
        QList<QPair<QString, QString>> p{{"MessageSid", sid},
                                         {"SmsSid", sid},
                                         {"MessageStatus", messageStatus},
                                         {"AccountSid", "AC0123456789abcdef0123456789abcdef"},
                                         {"From", "+908501234567"},
                                         {"To", "+905321110001"},
                                         {"ApiVersion", "2010-04-01"}};
        if (!errorCode.isEmpty())
            p.append({"ErrorCode", errorCode});
        return p;
    }
    CampaignRecipient recipientOf(const QString &sid) const
    {
        return *CampaignRepository(testStore()).recipient(m_recipientOf.value(sid));
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
        m_server = std::make_unique<TestServer>(m_db->dir(), [](ServerConfig &c) {
            c.smsAuthToken = kSmsToken;
            c.smsPublicBaseUrl = kSmsPublicBase;
        });
        m_anonymous = m_server->client();
        // Three contacts with mobiles, an SMS campaign sent to them as the sender records it.
        ContactRepository contacts(testStore());
        for (int i = 1; i <= 3; ++i)
            contacts.create(ContactRules::parse({{"firstName", QStringLiteral("Gülşen %1").arg(i)},
                                                 {"phone", QStringLiteral("+90532111000%1").arg(i)},
                                                 {"tags", QJsonArray{"sms"}}}));
        const Segment s =
            SegmentRepository(testStore())
                .create(SegmentRules::parse(
                    {{"name", "SMS"},
                     {"filters",
                      QJsonObject{{"logic", "AND"},
                                  {"rules", QJsonArray{QJsonObject{
                                                {"field", "tags"}, {"operator", "equals"}, {"value", "sms"}}}}}}}));
        CampaignRepository repo(testStore());
        m_campaign = repo.create(CampaignRules::parse({{"name", "Kasım SMS"},
                                                       {"type", "BROADCAST"},
                                                       {"channel", "sms"},
                                                       {"htmlContent", "<p>Merhaba {{firstName}}</p>"},
                                                       {"broadcastListId", s.id}}))
                         .id;
        repo.send(m_campaign);
        const QVector<CampaignSend> claimed = repo.claim("sms", 10, 60);
        QCOMPARE(claimed.size(), 3);
        QVector<CampaignSendResult> results;
        m_recipientOf.clear();
        for (int i = 0; i < claimed.size(); ++i) {
            CampaignSendResult r;
            r.recipientId = claimed.at(i).recipientId;
            r.kind = CampaignSendResult::Sent;
            r.code = 201;
            r.providerId = QStringLiteral("SM%1").arg(i + 1, 32, 10, QLatin1Char('0'));
            m_recipientOf.insert(r.providerId, r.recipientId);
            results.append(r);
        }
        repo.record(results, {60});
        QCOMPARE(repo.stats(m_campaign).sent, 3);
        QCOMPARE(repo.stats(m_campaign).delivered, 0);
    }
    void cleanup()
    {
        m_anonymous.reset();
        m_server.reset();
        m_db.reset();
    }

    void deliveredAndFailedReportsUpdateRecipients()
    {
        const QString one = QStringLiteral("SM%1").arg(1, 32, 10, QLatin1Char('0'));
        const QString two = QStringLiteral("SM%1").arg(2, 32, 10, QLatin1Char('0'));
        const QString three = QStringLiteral("SM%1").arg(3, 32, 10, QLatin1Char('0'));
        HttpResult r = signedReport(status(one, "delivered"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("success").toBool(), true);
        QCOMPARE(r.data().value("recorded").toBool(), true);
        QCOMPARE(recipientOf(one).status, QString("delivered"));
        QVERIFY(!recipientOf(one).deliveredAt.isEmpty());

        r = signedReport(status(two, "undelivered", "30003"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("recorded").toBool(), true);
        QCOMPARE(recipientOf(two).status, QString("failed"));
        QVERIFY2(recipientOf(two).error.contains("30003"), qPrintable(recipientOf(two).error));

        // Signed over the server's own URL (no public base in between): good too.
        r = signedReport(status(three, "delivered"), m_server->baseUrl() + QStringLiteral("/webhooks/sms/status"));
        QCOMPARE(r.status, 200);
        QCOMPARE(recipientOf(three).status, QString("delivered"));

        const CampaignStats s = CampaignRepository(testStore()).stats(m_campaign);
        QCOMPARE(s.sent, 3);
        QCOMPARE(s.delivered, 2);
        QCOMPARE(s.failed, 1);
        // The statistics the API answers.
        auto admin = m_server->apiKeyClient();
        r = admin->get("/api/v1/campaigns/" + m_campaign + "/stats");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value("delivered").toInt(), 2);
    }

    void badOrMissingSignaturesAreRefused()
    {
        const QString one = QStringLiteral("SM%1").arg(1, 32, 10, QLatin1Char('0'));
        const QList<QPair<QString, QString>> params = status(one, "delivered");
        // Signed with another token, over another URL, or with a changed parameter.
        for (const QByteArray &signature :
             {TwilioSignature::sign("another-token", kSmsPublicBase + "/webhooks/sms/status", params),
              TwilioSignature::sign(kSmsToken, "https://elsewhere.example/webhooks/sms/status", params),
              TwilioSignature::sign(kSmsToken, kSmsPublicBase + "/webhooks/sms/status", status(one, "sent")),
              QByteArray("bm90IGEgc2lnbmF0dXJl")}) {
            const HttpResult r = report(params, signature);
            QCOMPARE(r.status, 403);
            QCOMPARE(r.json.value("success").toBool(), false);
            QCOMPARE(r.errorCode(), QString("FORBIDDEN"));
        }
        HttpResult r = report(params, {});
        QCOMPARE(r.status, 403);
        QVERIFY2(r.json.value("error").toObject().value("message").toString().contains("X-Twilio-Signature"),
                 r.body.constData());
        QCOMPARE(recipientOf(one).status, QString("sent"));
    }

    void unknownSidsAndOtherStatusesChangeNothing()
    {
        HttpResult r = signedReport(status("SM_not_ours_0000000000000000000000", "delivered"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("recorded").toBool(), false);
        const QString one = QStringLiteral("SM%1").arg(1, 32, 10, QLatin1Char('0'));
        for (const char *s : {"queued", "sent", "accepted"}) {
            r = signedReport(status(one, s));
            QCOMPARE(r.status, 200);
            QCOMPARE(r.data().value("recorded").toBool(), false);
        }
        QCOMPARE(recipientOf(one).status, QString("sent"));
        // Signed but not a status report: 400.
        r = signedReport({{"Body", "Merhaba"}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json.value("success").toBool(), false);
    }

    void withoutATokenTheCallbackIsUnavailable()
    {
        TestServer plain(m_db->dir());
        auto anonymous = plain.client();
        const QList<QPair<QString, QString>> params = status("SM1", "delivered");
        const HttpResult r =
            anonymous->call("POST", "/webhooks/sms/status", formBody(params),
                            {{"Content-Type", "application/x-www-form-urlencoded"},
                             {"X-Twilio-Signature", TwilioSignature::sign(QString(), plain.baseUrl(), params)}});
        QCOMPARE(r.status, 503);
        QCOMPARE(r.errorCode(), QString("CHANNEL_UNAVAILABLE"));
    }
};

QTEST_MAIN(TestSmsStatusApi)
#include "test_smsstatusapi.moc"
