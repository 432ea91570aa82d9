// Webhook rules and the delivery bookkeeping without a network: URL rules, the signature, fan-out
// from the outbox, the retry schedule up to disabling, per-subscription order and crash recovery.
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/outbox.h"
#include "model/core/timeutil.h"
#include "model/webhooks/webhookrepository.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QtTest>

#include <optional>

class TestWebhookRepository : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;

    static void emitEvent(const QString &event)
    {
        Transaction tx;
        Outbox::append(event, {{"n", 1}}, TimeUtil::iso(QDateTime::currentDateTimeUtc()));
        tx.commit();
    }

private Q_SLOTS:
    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    // The webhook dialogs' typed changes meet the rules of a request body: the same values typed
    // and as JSON are refused on the same fields with the same kind, or stored alike.
    void webhookChangesMeetTheBodyRules_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QStringList>("events");
        QTest::addColumn<QString>("secret"); // empty: not given
        QTest::addColumn<QString>("badFields");
        QTest::addColumn<int>("kind");
        const int bad = DomainError::BadRequest, missing = DomainError::Unprocessable;
        QTest::newRow("one event") << " https://example.com/hook " << QStringList{"deal.won"} << ""
                                   << "" << -1;
        QTest::newRow("repeats and star")
            << "https://example.com/hook" << QStringList{"deal.won", " deal.won", "*"} << ""
            << "" << -1;
        QTest::newRow("own secret") << "https://example.com/hook" << QStringList{"*"} << "0123456789abcdef"
                                    << "" << -1;
        QTest::newRow("plain http") << "http://example.com/hook" << QStringList{"*"} << ""
                                    << "url" << bad;
        QTest::newRow("loopback") << "https://127.0.0.1/hook" << QStringList{"*"} << ""
                                  << "url" << bad;
        QTest::newRow("unknown event and short secret")
            << "https://example.com/hook" << QStringList{"deal.sold"} << "short"
            << "events,secret" << bad;
        QTest::newRow("no url") << "  " << QStringList{"*"} << ""
                                << "url" << missing;
        QTest::newRow("no events") << "https://example.com/hook" << QStringList{} << ""
                                   << "events" << missing;
    }
    void webhookChangesMeetTheBodyRules()
    {
        QFETCH(QString, url);
        QFETCH(QStringList, events);
        QFETCH(QString, secret);
        QFETCH(QString, badFields);
        QFETCH(int, kind);
        const WebhookPolicy policy;
        WebhookChanges typed;
        typed.url = url;
        typed.events = events;
        QJsonObject body{{"url", url}, {"events", QJsonArray::fromStringList(events)}};
        if (!secret.isEmpty()) {
            typed.secret = secret;
            body.insert("secret", secret);
        }
        QCOMPARE(refusalOf([&] { WebhookRules::check(typed, policy, true); }), qMakePair(badFields, kind));
        QCOMPARE(refusalOf([&] {
                     WebhookChanges parsed = WebhookRules::parse(body, policy);
                     WebhookRules::check(parsed, policy, true);
                 }),
                 qMakePair(badFields, kind));
        if (badFields.isEmpty()) {
            WebhookRepository webhooks(testStore(), policy);
            const WebhookSubscription a = webhooks.create(typed).webhook;
            const WebhookSubscription b = webhooks.create(WebhookRules::parse(body, policy)).webhook;
            QCOMPARE(a.url, url.trimmed());
            QCOMPARE(b.url, a.url);
            QCOMPARE(b.events, a.events);
            QCOMPARE(a.secret == secret, !secret.isEmpty());
        }
    }

    void checksUrls_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("targets");
        QTest::addColumn<bool>("insecureLocal");
        QTest::addColumn<bool>("ok");
        QTest::newRow("https") << "https://hooks.example.com/x"
                               << "public" << false << true;
        QTest::newRow("https ip") << "https://203.0.113.5:8443/x"
                                  << "public" << false << true;
        QTest::newRow("http remote") << "http://hooks.example.com/x"
                                     << "local" << true << false;
        QTest::newRow("http loopback off") << "http://127.0.0.1:9000/x"
                                           << "local" << false << false;
        QTest::newRow("http loopback on") << "http://127.0.0.1:9000/x"
                                          << "public" << true << true;
        QTest::newRow("http localhost on") << "http://localhost:9000/x"
                                           << "public" << true << true;
        QTest::newRow("http ::1 on") << "http://[::1]:9000/x"
                                     << "public" << true << true;
        QTest::newRow("http 127.1 on") << "http://127.1:9000/x"
                                       << "public" << true << true;
        QTest::newRow("http private on") << "http://10.0.0.5/x"
                                         << "private" << true << false;
        QTest::newRow("metadata") << "https://169.254.169.254/latest"
                                  << "local" << false << false;
        QTest::newRow("metadata name") << "https://metadata.google.internal/x"
                                       << "local" << false << false;
        QTest::newRow("link-local v6") << "https://[fe80::1]/x"
                                       << "local" << false << false;
        QTest::newRow("mapped metadata") << "https://[::ffff:169.254.169.254]/x"
                                         << "local" << false << false;
        QTest::newRow("multicast") << "https://224.0.0.1/x"
                                   << "local" << false << false;
        QTest::newRow("broadcast") << "https://255.255.255.255/x"
                                   << "local" << false << false;
        QTest::newRow("user info") << "https://u:p@example.com/x"
                                   << "public" << false << false;
        QTest::newRow("relative") << "/hooks"
                                  << "public" << false << false;
        QTest::newRow("ftp") << "ftp://example.com"
                             << "public" << false << false;
        // Every way of writing this machine: refused unless loopback is allowed.
        const char *const loopback[] = {"127.0.0.1",
                                        "127.9.9.9",
                                        "[::1]",
                                        "0.0.0.0",
                                        "0",
                                        "2130706433",
                                        "017700000001",
                                        "0x7f000001",
                                        "0x7f.1",
                                        "127.1",
                                        "127.0.1",
                                        "[::ffff:127.0.0.1]",
                                        "[::ffff:7f00:1]",
                                        "[0:0:0:0:0:0:0:1]",
                                        "[::]",
                                        "[::127.0.0.1]",
                                        "[64:ff9b::127.0.0.1]",
                                        "[2002:7f00:1::1]",
                                        "localhost",
                                        "LocalHost.",
                                        "api.localhost"};
        for (const char *host : loopback) {
            const QString url = QStringLiteral("https://%1:8443/h").arg(QLatin1String(host));
            QTest::addRow("%s public", host) << url << "public" << false << false;
            QTest::addRow("%s private", host) << url << "private" << true << false;
            QTest::addRow("%s local", host) << url << "local" << false << true;
        }
        const char *const lan[] = {"10.1.2.3",   "172.16.0.1", "172.31.255.255", "192.168.1.10",
                                   "100.64.0.1", "198.18.0.1", "[fd12::1]",      "[::ffff:10.0.0.1]",
                                   "167772161",  "0xa000001",  "012.0.0.1",      "[fec0::1]"};
        for (const char *host : lan) {
            const QString url = QStringLiteral("https://%1/h").arg(QLatin1String(host));
            QTest::addRow("%s public", host) << url << "public" << false << false;
            QTest::addRow("%s private", host) << url << "private" << false << true;
            QTest::addRow("%s local", host) << url << "local" << false << true;
        }
        // Near the edges, public
        const char *const outside[] = {"172.32.0.1",  "172.15.255.255",    "11.0.0.1", "192.169.0.1",
                                       "100.128.0.1", "[2001:4860::8888]", "8.8.8.8",  "1.2.3.4.example.com"};
        for (const char *host : outside) {
            const QString url = QStringLiteral("https://%1/h").arg(QLatin1String(host));
            QTest::addRow("%s public", host) << url << "public" << false << true;
        }
    }

    void checksUrls()
    {
        QFETCH(QString, url);
        QFETCH(QString, targets);
        QFETCH(bool, insecureLocal);
        QFETCH(bool, ok);
        WebhookPolicy policy;
        QVERIFY(WebhookRules::parseTargets(targets, &policy.targets));
        policy.allowInsecureLocal = insecureLocal;
        const QString problem = WebhookRules::checkUrl(url, policy);
        QVERIFY2(problem.isEmpty() == ok, qPrintable(problem));
    }

    void refusalSaysNothingAboutTheTarget()
    {
        // One message whatever the address, the form or the port.
        const QString a = WebhookRules::checkUrl("https://127.0.0.1:22/h");
        QCOMPARE(a, WebhookRules::refusedTargetMessage());
        QCOMPARE(WebhookRules::checkUrl("https://[::1]:5432/h"), a);
        QCOMPARE(WebhookRules::checkUrl("https://10.0.0.1:6379/h"), a);
        QCOMPARE(WebhookRules::checkUrl("https://localhost/h"), a);
        QVERIFY(!a.contains("127") && !a.contains("22"));
    }

    void readsLiteralAddresses_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("address"); // empty: a name
        QTest::newRow("dotted") << "192.0.2.1"
                                << "192.0.2.1";
        QTest::newRow("one number") << "3221225985"
                                    << "192.0.2.1";
        QTest::newRow("hex") << "0xc0000201"
                             << "192.0.2.1";
        QTest::newRow("octal") << "030000001001"
                               << "192.0.2.1";
        QTest::newRow("two parts") << "192.513"
                                   << "192.0.2.1";
        QTest::newRow("three parts") << "192.0.513"
                                     << "192.0.2.1";
        QTest::newRow("mixed") << "0300.0x0.02.1"
                               << "192.0.2.1";
        QTest::newRow("zero") << "0"
                              << "0.0.0.0";
        QTest::newRow("v6 bracketed") << "[2001:db8::1]"
                                      << "2001:db8::1";
        QTest::newRow("v6 long") << "2001:0db8:0000:0000:0000:0000:0000:0001"
                                 << "2001:db8::1";
        QTest::newRow("v6 mapped") << "[::ffff:192.0.2.1]"
                                   << "192.0.2.1";
        QTest::newRow("trailing dot") << "127.0.0.1."
                                      << "127.0.0.1";
        QTest::newRow("name") << "example.com"
                              << "";
        QTest::newRow("hex-looking name") << "cafe.example"
                                          << "";
        QTest::newRow("too big") << "4294967296"
                                 << "";
        QTest::newRow("part too big") << "256.0.0.1"
                                      << "";
        QTest::newRow("five parts") << "1.2.3.4.5"
                                    << "";
        QTest::newRow("bad octal") << "09.0.0.1"
                                   << "";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("zone") << "[fe80::1%25eth0]"
                              << "";
    }

    void readsLiteralAddresses()
    {
        QFETCH(QString, host);
        QFETCH(QString, address);
        const std::optional<IpAddress> a = WebhookRules::literalAddress(host);
        QCOMPARE(a ? a->toString() : QString(), address);
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
            QVERIFY2(!WebhookEvents::sample(e, "2026-11-27T10:00:00.000Z").isEmpty(), qPrintable(e));
        QCOMPARE(WebhookEvents::sample("task.completed", "2026-11-27T10:00:00.000Z").keys(),
                 QStringList({"completedAt", "completedBy", "taskId"}));
    }

    void fansOutOnlyLaterMatchingEventsOnce()
    {
        emitEvent("contact.created"); // before the subscription: not delivered
        WebhookRepository repo(testStore());
        const QString id =
            repo.create(webhookChanges({{"url", "https://example.com"}, {"events", QJsonArray{"contact.created"}}}))
                .webhook.id;
        emitEvent("contact.created");
        emitEvent("deal.won");
        QCOMPARE(repo.fanOut(), 2);
        QCOMPARE(repo.fanOut(), 0);
        QSqlQuery q = Database::exec("SELECT count(*) FROM webhook_deliveries WHERE webhook_id = ?", {id});
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 1);
    }

    // What is due is read through the open deliveries' own indexes, never by walking the delivery
    // log: a subscription's delivered history grows without end (the soak's dispatcher slowed from
    // 7,000 deliveries a minute to 400 when the first query walked it).
    void dueDeliveriesReadOnlyTheOpenOnes()
    {
        WebhookRepository repo(testStore());
        const QString id =
            repo.create(webhookChanges({{"url", "https://example.com"}, {"events", QJsonArray{"contact.created"}}}))
                .webhook.id;
        QStringList plan;
        if (Database::dialect() == Database::Dialect::PostgreSQL) {
            // PostgreSQL plans by cost, and a test's few rows read fastest without an index. With
            // table scans priced out, a plan still holds one only when no index serves the read.
            Database::exec(QStringLiteral("SET enable_seqscan = off"));
            plan = repo.dueQueryPlan(id, testStore().now());
            Database::exec(QStringLiteral("RESET enable_seqscan"));
            const QString text = plan.join(QLatin1Char('\n'));
            QVERIFY2(!text.contains(QLatin1String("Seq Scan")), qPrintable(text));
            QVERIFY2(text.contains(QLatin1String("webhook_deliveries_queue")), qPrintable(text));
            return;
        }
        plan = repo.dueQueryPlan(id, testStore().now());
        const QString text = plan.join(QLatin1Char('\n'));
        for (const QString &line : std::as_const(plan)) {
            // "SCAN webhook_deliveries" alone reads the whole log.
            QVERIFY2(!line.endsWith(QLatin1String("SCAN webhook_deliveries")), qPrintable(text));
        }
        QVERIFY2(text.contains(QLatin1String("queue: SEARCH webhook_deliveries USING INDEX webhook_deliveries_queue")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("manual: SCAN webhook_deliveries USING INDEX webhook_deliveries_manual")),
                 qPrintable(text));
        QVERIFY2(
            text.contains(QLatin1String("lease: SCAN webhook_deliveries USING INDEX webhook_deliveries_in_flight")),
            qPrintable(text));
    }

    void retriesOnScheduleKeepsOrderAndDisables()
    {
        WebhookRepository repo(testStore());
        const QString id =
            repo.create(webhookChanges({{"url", "https://example.com"}, {"events", QJsonArray{"*"}}})).webhook.id;
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
        WebhookRepository repo(testStore());
        repo.create(webhookChanges({{"url", "https://example.com"}, {"events", QJsonArray{"*"}}}));
        emitEvent("contact.created");
        repo.fanOut();
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const auto claim = repo.claim(repo.dueDeliveries(now, 1, {}, 10).first(), now);
        QVERIFY(claim);
        QVERIFY(repo.dueDeliveries(now, 1, {}, 10).isEmpty());
        if (Database::dialect() == Database::Dialect::PostgreSQL) {
            // Another copy may be sending it: left alone until its lease ends.
            QCOMPARE(repo.recoverInterrupted(), 0);
            QVERIFY(repo.dueDeliveries(now, 1, {}, 10).isEmpty());
            return;
        }
        QCOMPARE(repo.recoverInterrupted(), 1); // SQLite: one process per file, so it was the last run's
        const QList<qint64> due = repo.dueDeliveries(QDateTime::currentDateTimeUtc(), 1, {}, 10);
        QCOMPARE(due, QList<qint64>{claim->deliverySeq});
        QCOMPARE(repo.claim(due.first(), now)->attempt, 2);
    }

    // Copies sharing one database: a delivery in flight is due again only when its lease has ended
    // (its copy stopped), one copy takes it over, and the first copy's late answer changes nothing.
    void aDeliveryIsTakenOverOnceWhenItsLeaseEnds()
    {
        WebhookRepository repo(testStore());
        const QString id =
            repo.create(webhookChanges({{"url", "https://example.com"}, {"events", QJsonArray{"*"}}})).webhook.id;
        emitEvent("contact.created");
        repo.fanOut();
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const auto first = repo.claim(repo.dueDeliveries(now, 1, {}, 10).first(), now, 90);
        QVERIFY(first);
        QVERIFY(!repo.claim(first->deliverySeq, now.addSecs(89), 90)); // still the first copy's
        QVERIFY(repo.dueDeliveries(now.addSecs(89), 1, {}, 10).isEmpty());
        const QDateTime later = now.addSecs(91);
        QCOMPARE(repo.dueDeliveries(later, 1, {}, 10), QList<qint64>{first->deliverySeq});
        const auto second = repo.claim(first->deliverySeq, later, 90);
        QVERIFY(second);
        QCOMPARE(second->attempt, 2);
        QVERIFY(!repo.claim(first->deliverySeq, later, 90)); // taken once
        auto attempts = [&] {
            QStringList out;
            QSqlQuery a = Database::exec("SELECT attempt, coalesce(error, ''), coalesce(status_code, 0) FROM "
                                         "webhook_attempts WHERE delivery_seq = ? ORDER BY attempt",
                                         {first->deliverySeq});
            while (a.next())
                out << QStringLiteral("%1 %2 %3")
                           .arg(a.value(0).toInt())
                           .arg(a.value(2).toInt())
                           .arg(a.value(1).toString());
            return out;
        };
        QCOMPARE(attempts(), (QStringList{"1 0 interrupted: the copy sending it stopped; sent again", "2 0 "}));
        // The first copy's answer arrives after all: logged on its attempt, the delivery stays the second's.
        WebhookAttemptResult ok;
        ok.statusCode = 200;
        ok.success = true;
        repo.finish(*first, ok, {60}, later);
        QSqlQuery q =
            Database::exec("SELECT state, attempts FROM webhook_deliveries WHERE seq = ?", {first->deliverySeq});
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QString("in_flight"));
        QCOMPARE(q.value(1).toInt(), 2);
        q.finish();
        repo.finish(*second, ok, {60}, later);
        const std::optional<WebhookDelivery> done = repo.findDelivery(second->deliveryId);
        QVERIFY(done);
        QCOMPARE(done->state, QString("succeeded"));
        QCOMPARE(done->webhookId, id);
        // The first copy's answer is logged on its own attempt.
        QCOMPARE(attempts(), (QStringList{"1 200 ", "2 200 "}));
    }
};

QTEST_MAIN(TestWebhookRepository)
#include "test_webhookrepository.moc"
