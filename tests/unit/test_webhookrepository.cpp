// Webhook rules and the delivery bookkeeping without a network: URL rules, the signature, fan-out
// from the outbox, the retry schedule up to disabling, per-subscription order and crash recovery.
#include "contactrepository.h"
#include "database.h"
#include "incomingwebhookrepository.h"
#include "outbox.h"
#include "testsupport.h"
#include "timeutil.h"
#include "webhookrepository.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QtTest>

class TestWebhookRepository : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;

    static void emitEvent(const QString &event)
    {
        Transaction tx;
        Outbox::append(event, {{"n", 1}});
        tx.commit();
    }

private Q_SLOTS:
    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    void checksUrls_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("insecureLocal");
        QTest::addColumn<bool>("ok");
        QTest::newRow("https") << "https://hooks.example.com/x" << false << true;
        QTest::newRow("https ip") << "https://203.0.113.5:8443/x" << false << true;
        QTest::newRow("http remote") << "http://hooks.example.com/x" << true << false;
        QTest::newRow("http loopback off") << "http://127.0.0.1:9000/x" << false << false;
        QTest::newRow("http loopback on") << "http://127.0.0.1:9000/x" << true << true;
        QTest::newRow("http localhost on") << "http://localhost:9000/x" << true << true;
        QTest::newRow("http ::1 on") << "http://[::1]:9000/x" << true << true;
        QTest::newRow("metadata") << "https://169.254.169.254/latest" << false << false;
        QTest::newRow("link-local v6") << "https://[fe80::1]/x" << false << false;
        QTest::newRow("mapped metadata") << "https://[::ffff:169.254.169.254]/x" << false << false;
        QTest::newRow("user info") << "https://u:p@example.com/x" << false << false;
        QTest::newRow("relative") << "/hooks" << false << false;
        QTest::newRow("ftp") << "ftp://example.com" << false << false;
    }

    void checksUrls()
    {
        QFETCH(QString, url);
        QFETCH(bool, insecureLocal);
        QFETCH(bool, ok);
        QCOMPARE(WebhookRules::checkUrl(url, insecureLocal).isEmpty(), ok);
    }

    void signsLikeOpenssl()
    {
        // echo -n "The quick brown fox jumps over the lazy dog" | openssl dgst -sha256 -hmac key
        const QByteArray body = "The quick brown fox jumps over the lazy dog";
        QCOMPARE(WebhookRules::signature("key", body),
                 QByteArray("sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"));
        QVERIFY(WebhookRules::verifySignature("key", body, WebhookRules::signature("key", body)));
        QVERIFY(!WebhookRules::verifySignature("key", body + " ", WebhookRules::signature("key", body)));
        QVERIFY(!WebhookRules::verifySignature("key", body, {}));
    }

    void everyEventHasASample()
    {
        for (const QString &e : WebhookEvents::all())
            QVERIFY2(!WebhookEvents::sample(e).isEmpty(), qPrintable(e));
        QCOMPARE(WebhookEvents::sample("task.completed").keys(), QStringList({"completedAt", "completedBy", "taskId"}));
    }

    void fansOutOnlyLaterMatchingEventsOnce()
    {
        emitEvent("contact.created"); // before the subscription: not delivered
        WebhookRepository repo;
        const QString id =
            repo.create({{"url", "https://example.com"}, {"events", QJsonArray{"contact.created"}}}).webhook.id;
        emitEvent("contact.created");
        emitEvent("deal.won");
        QCOMPARE(repo.fanOut(), 2);
        QCOMPARE(repo.fanOut(), 0);
        QSqlQuery q = Database::exec("SELECT count(*) FROM webhook_deliveries WHERE webhook_id = ?", {id});
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 1);
    }

    void retriesOnScheduleKeepsOrderAndDisables()
    {
        WebhookRepository repo;
        const QString id = repo.create({{"url", "https://example.com"}, {"events", QJsonArray{"*"}}}).webhook.id;
        emitEvent("contact.created");
        emitEvent("contact.updated");
        repo.fanOut();
        const QList<int> delays{60, 300, 1800, 7200, 86400};
        QDateTime now = QDateTime::currentDateTimeUtc();
        const WebhookAttemptResult fail{500, "HTTP 500", 5, {}, false};
        qint64 first = 0;
        for (int attempt = 1; attempt <= 6; ++attempt) {
            const QList<qint64> due = repo.dueDeliveries(now, 1, {}, 10);
            QCOMPARE(due.size(), 1); // only the head of the queue, never the later event
            if (attempt == 1)
                first = due.first();
            QCOMPARE(due.first(), first);
            const auto claim = repo.claim(due.first(), now);
            QVERIFY(claim);
            QCOMPARE(claim->attempt, attempt);
            QVERIFY(repo.dueDeliveries(now, 1, {{id, 1}}, 10).isEmpty()); // one in flight per subscription
            const WebhookFinish f = repo.finish(*claim, fail, delays, now);
            if (attempt <= 5) {
                QCOMPARE(f.nextRetryAt, TimeUtil::iso(now.addSecs(delays.at(attempt - 1))));
                QVERIFY(!f.webhookDisabled);
                QVERIFY(repo.dueDeliveries(now.addSecs(delays.at(attempt - 1) - 1), 1, {}, 10).isEmpty());
                now = now.addSecs(delays.at(attempt - 1));
            } else {
                QVERIFY(f.webhookDisabled);
            }
        }
        const WebhookSubscription w = repo.get(id);
        QVERIFY(!w.active);
        QCOMPARE(w.failureCount, 6);
        QSqlQuery q = Database::exec("SELECT state FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq", {id});
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QString("failed"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QString("failed"));
        QVERIFY(repo.dueDeliveries(now.addDays(2), 1, {}, 10).isEmpty());
        // Enabling resets the count; nothing old is resent.
        QCOMPARE(repo.setActive(id, true).failureCount, 0);
        QVERIFY(repo.dueDeliveries(now.addDays(2), 1, {}, 10).isEmpty());
    }

    void recoversDeliveriesLeftInFlight()
    {
        WebhookRepository repo;
        repo.create({{"url", "https://example.com"}, {"events", QJsonArray{"*"}}});
        emitEvent("contact.created");
        repo.fanOut();
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const auto claim = repo.claim(repo.dueDeliveries(now, 1, {}, 10).first(), now);
        QVERIFY(claim);
        QVERIFY(repo.dueDeliveries(now, 1, {}, 10).isEmpty());
        QCOMPARE(repo.recoverInterrupted(), 1);
        const QList<qint64> due = repo.dueDeliveries(QDateTime::currentDateTimeUtc(), 1, {}, 10);
        QCOMPARE(due, QList<qint64>{claim->deliverySeq});
        QCOMPARE(repo.claim(due.first(), now)->attempt, 2);
    }

    void contactUpsertMatchesByEmailThenPhone()
    {
        IncomingWebhookRepository incoming;
        const QString id = incoming.create({{"name", "Form"}, {"action", "contact.upsert"}}).endpoint.id;
        IncomingResult r =
            incoming.receive(id, R"({"event":"e","data":{"firstName":"A","phone":"+90 532 111 22 33"}})", {});
        QCOMPARE(r.status, 200);
        const QString contact = r.data.value("contactId").toString();
        r = incoming.receive(id, R"({"event":"e","data":{"phone":"+905321112233","company":"K"}})", {});
        QCOMPARE(r.data.value("result").toString(), QString("updated"));
        QCOMPARE(r.data.value("contactId").toString(), contact);
        QCOMPARE(ContactRepository().get(contact).company, QString("K"));
        QCOMPARE(incoming.receive("iwh_nope", "{}", {}).status, 404);
    }
};

QTEST_MAIN(TestWebhookRepository)
#include "test_webhookrepository.moc"
