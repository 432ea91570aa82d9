// WebhookSender against a real HTTPS receiver on loopback (tests/support/webhookreceiver.h): the
// signed request and its X-Service-* headers, what each answer counts as, the whole-attempt
// deadline, addresses the policy refuses (never contacted), an untrusted certificate, a name
// resolved and its addresses checked before the request, and requests abandoned without a callback.
#include "messaging/webhooks/webhooksender.h"
#include "model/core/timeutil.h"
#include "tests/support/fakeclock.h"
#include "tests/support/webhookreceiver.h"

#include <QtTest>

#include <memory>
#include <optional>

namespace {
const QDateTime kNow(QDate(2031, 3, 4), QTime(10, 0), Qt::UTC);
const QString kSecret = QStringLiteral("whsec_test-secret-0123456789");

// A receiver on loopback trusted as a CA: the production checks (TLS verified) stay on.
WebhookConfig trusting(const WebhookReceiver &receiver, int timeoutSeconds = 10)
{
    WebhookConfig c;
    c.allowedTargets = WebhookTargets::Local;
    c.caCertificates = {receiver.certificate()};
    c.timeoutSeconds = timeoutSeconds;
    return c;
}

// Sends once and waits (bounded) for the one callback (a late one, after a failed wait, writes to
// state of its own).
std::optional<WebhookAttemptResult> sendAndWait(WebhookSender &sender, const QString &url,
                                                const QByteArray &body = R"({"event":"contact.created"})",
                                                int timeoutMs = 15000)
{
    struct State
    {
        std::optional<WebhookAttemptResult> result;
        int calls = 0;
    };
    const auto state = std::make_shared<State>();
    sender.send(url, body, kSecret, QStringLiteral("contact.created"), QStringLiteral("dlv_1"),
                [state](const WebhookAttemptResult &r) {
                    ++state->calls;
                    state->result = r;
                });
    if (!QTest::qWaitFor([&] { return state->calls > 0; }, timeoutMs))
        return std::nullopt;
    return state->result;
}
} // namespace

class TestWebhookSender : public QObject
{
    Q_OBJECT
    FakeClock m_clock{kNow};

private Q_SLOTS:
    void sendsASignedRequest()
    {
        WebhookReceiver receiver(kSecret);
        WebhookSender sender(trusting(receiver), m_clock);
        const QByteArray body = R"({"id":"evt_1","event":"contact.created","data":{"contactId":"contact_1"}})";
        const std::optional<WebhookAttemptResult> r = sendAndWait(sender, receiver.url(), body);
        QVERIFY(r);
        QVERIFY2(r->success, qPrintable(r->error));
        QCOMPARE(r->statusCode, 200);
        QCOMPARE(r->error, QString());
        QCOMPARE(r->responseExcerpt, QStringLiteral("{\"ok\":true}"));
        QVERIFY(r->latencyMs >= 0);
        QCOMPARE(sender.inFlight(), 0);

        QCOMPARE(receiver.requests.size(), 1);
        const WebhookReceiver::Request &got = receiver.requests.constFirst();
        QCOMPARE(got.method, QByteArray("POST"));
        QCOMPARE(got.path, QByteArray("/hook"));
        QCOMPARE(got.body, body);
        QVERIFY(got.signatureOk);
        QCOMPARE(got.header("X-Service-Signature"), WebhookRules::signature(kSecret, body));
        QCOMPARE(got.header("X-Service-Event"), QByteArray("contact.created"));
        QCOMPARE(got.header("X-Service-Delivery"), QByteArray("dlv_1"));
        QCOMPARE(got.header("X-Service-Timestamp"), TimeUtil::iso(kNow).toLatin1());
        QCOMPARE(got.header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(got.header("User-Agent"), QByteArray("Liaison-Webhooks/1.0"));
    }

    void eachAnswerCounts_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("success");
        QTest::addColumn<QString>("error");
        QTest::newRow("200") << 200 << true << "";
        QTest::newRow("204") << 204 << true << "";
        QTest::newRow("299") << 299 << true << "";
        QTest::newRow("a redirect is not followed") << 301 << false << "HTTP 301: redirect to  not followed";
        QTest::newRow("404") << 404 << false << "HTTP 404";
        QTest::newRow("410") << 410 << false << "HTTP 410";
        QTest::newRow("500") << 500 << false << "HTTP 500";
        QTest::newRow("503") << 503 << false << "HTTP 503";
    }
    void eachAnswerCounts()
    {
        QFETCH(int, status);
        QFETCH(bool, success);
        QFETCH(QString, error);
        WebhookReceiver receiver(kSecret);
        receiver.statuses() = {status};
        WebhookSender sender(trusting(receiver), m_clock);
        const std::optional<WebhookAttemptResult> r = sendAndWait(sender, receiver.url());
        QVERIFY(r);
        QCOMPARE(r->statusCode, status);
        QCOMPARE(r->success, success);
        QCOMPARE(r->error, error);
        QCOMPARE(receiver.requests.size(), 1); // once: nothing retried or followed here
    }

    void theWholeAttemptHasADeadline()
    {
        WebhookReceiver receiver(kSecret);
        receiver.hang = true;
        WebhookSender sender(trusting(receiver, 1), m_clock);
        const std::optional<WebhookAttemptResult> r = sendAndWait(sender, receiver.url());
        QVERIFY(r);
        QVERIFY(!r->success);
        QCOMPARE(r->statusCode, 0);
        QCOMPARE(r->error, QStringLiteral("timeout after 1 s"));
        QCOMPARE(receiver.requests.size(), 1);
        QCOMPARE(sender.inFlight(), 0);
    }

    void refusedAddressesAreNeverContacted_data()
    {
        QTest::addColumn<int>("targets");
        QTest::addColumn<bool>("insecureLocal");
        QTest::addColumn<QString>("url"); // %1: the receiver's port
        QTest::newRow("loopback under the public policy")
            << int(WebhookTargets::Public) << false << "https://127.0.0.1:%1/hook";
        QTest::newRow("loopback under the private policy")
            << int(WebhookTargets::Private) << false << "https://127.0.0.1:%1/hook";
        QTest::newRow("loopback as a decimal number")
            << int(WebhookTargets::Public) << false << "https://2130706433:%1/hook";
        QTest::newRow("localhost by name") << int(WebhookTargets::Public) << false << "https://localhost:%1/hook";
        QTest::newRow("plain http without allowInsecureLocal")
            << int(WebhookTargets::Local) << false << "http://127.0.0.1:%1/hook";
    }
    void refusedAddressesAreNeverContacted()
    {
        QFETCH(int, targets);
        QFETCH(bool, insecureLocal);
        QFETCH(QString, url);
        WebhookReceiver receiver(kSecret);
        WebhookConfig config = trusting(receiver);
        config.allowedTargets = WebhookTargets(targets);
        config.allowInsecureLocal = insecureLocal;
        WebhookSender sender(config, m_clock);
        const std::optional<WebhookAttemptResult> r = sendAndWait(sender, url.arg(receiver.serverPort()));
        QVERIFY(r);
        QVERIFY(!r->success);
        QCOMPARE(r->statusCode, 0);
        QCOMPARE(r->error, WebhookRules::refusedTargetMessage());
        QCOMPARE(receiver.requests.size(), 0);
    }

    void aNameIsResolvedAndItsAddressesChecked()
    {
        // localhost resolves to loopback addresses, which the local policy allows: the request goes
        // to one of them with the name kept for Host and the certificate check.
        WebhookReceiver receiver(kSecret);
        WebhookSender sender(trusting(receiver), m_clock);
        const QString url = QStringLiteral("https://localhost:%1/hook").arg(receiver.serverPort());
        const std::optional<WebhookAttemptResult> r = sendAndWait(sender, url);
        QVERIFY(r);
        QVERIFY2(r->success, qPrintable(r->error));
        QCOMPARE(receiver.requests.constFirst().header("Host"),
                 QStringLiteral("localhost:%1").arg(receiver.serverPort()).toLatin1());
        QCOMPARE(receiver.requests.size(), 1);
    }

    void anUntrustedCertificateFails()
    {
        WebhookReceiver receiver(kSecret);
        WebhookConfig config = trusting(receiver);
        config.caCertificates.clear();
        WebhookSender sender(config, m_clock);
        const std::optional<WebhookAttemptResult> r = sendAndWait(sender, receiver.url());
        QVERIFY(r);
        QVERIFY(!r->success);
        QCOMPARE(r->statusCode, 0);
        QVERIFY(!r->error.isEmpty());
        QCOMPARE(receiver.requests.size(), 0);
        // verifyTls=false (for testing only) takes it.
        config.verifyTls = false;
        WebhookSender lax(config, m_clock);
        const std::optional<WebhookAttemptResult> accepted = sendAndWait(lax, receiver.url());
        QVERIFY(accepted);
        QVERIFY2(accepted->success, qPrintable(accepted->error));
    }

    void abandonedRequestsCallNothingBack()
    {
        WebhookReceiver receiver(kSecret);
        receiver.hang = true;
        WebhookSender sender(trusting(receiver), m_clock);
        int calls = 0;
        for (int i = 0; i < 3; ++i)
            sender.send(receiver.url(), "{}", kSecret, QStringLiteral("e"), QStringLiteral("dlv_%1").arg(i),
                        [&](const WebhookAttemptResult &) { ++calls; });
        QCOMPARE(sender.inFlight(), 3);
        QTRY_COMPARE(receiver.requests.size(), 3);
        sender.abandonAll();
        QCOMPARE(sender.inFlight(), 0);
        // Nothing may come back later: the aborted replies and the deadlines are gone.
        QTest::qWait(300);
        QCOMPARE(calls, 0);
    }
};

QTEST_GUILESS_MAIN(TestWebhookSender)
#include "test_webhooksender.moc"
