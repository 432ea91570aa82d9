// The send queue of the provider channels (ChannelDispatcher) with a scripted connector: pacing
// at the channel's per-second limit, agent sends before bulk ones, outcomes (sent, failed,
// retried, given up), a throttled channel, a provider down and back after a probe; and the
// ChannelSender's 503 and 429.
#include "messaging/channels/channeldispatcher.h"
#include "messaging/channels/channelregistry.h"
#include "messaging/channels/channelsender.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/databaseurl.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/inbox/conversationrepository.h"
#include "tests/support/scriptedconnector.h"
#include "tests/support/testsupport.h"

#include <QSqlQuery>
#include <QtTest>

namespace {
QString status(const QString &messageId)
{
    return ConversationRepository(testStore()).getMessage(messageId).delivery.status;
}
} // namespace

class TestChannelDispatcher : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    EventBus m_bus;
    QString m_conversation;

    std::shared_ptr<ChannelRegistry> registry(int perSecond, QList<int> delays = {0, 0})
    {
        ChannelsConfig c;
        c.whatsapp.phoneNumberId = QStringLiteral("1065");
        c.whatsapp.accessToken = QStringLiteral("token");
        c.whatsapp.sendPerSecond = perSecond;
        c.retryDelays = delays;
        c.pollIntervalMs = 50;
        return std::make_shared<ChannelRegistry>(c);
    }

    QString queue(ChannelSender &sender, const QString &text, int priority = 0)
    {
        MessageContent content;
        content.text = text;
        return sender
            .send(m_conversation, content, {QStringLiteral("api"), {}, QStringLiteral("test")}, {false, priority})
            .id;
    }

private Q_SLOTS:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        const Contact c =
            ContactRepository(testStore())
                .create(ContactRules::parse({{QStringLiteral("firstName"), QStringLiteral("Ayşe")},
                                             {QStringLiteral("phone"), QStringLiteral("+905321112233")}}));
        m_conversation = ConversationRepository(testStore())
                             .findOrCreate(c.id, QStringLiteral("whatsapp"), QStringLiteral("+905321112233"))
                             .id;
    }

    void cleanup()
    {
        Database::closeThreadConnection();
        m_db.reset();
    }

    void sentRecordsProviderId()
    {
        auto reg = registry(0);
        ChannelSender sender(Store(m_bus), reg);
        const QString id = queue(sender, QStringLiteral("merhaba"));
        QCOMPARE(status(id), QStringLiteral("pending"));
        ChannelDispatcher dispatcher(reg, Store(m_bus));
        auto *connector = new ScriptedConnector;
        dispatcher.setConnector(connector);
        QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("sent"), 5000);
        QCOMPARE(connector->sends.size(), 1);
        QCOMPARE(connector->sends.first().to, QStringLiteral("+905321112233"));
        QCOMPARE(ConversationRepository(testStore()).getMessage(id).providerId, QStringLiteral("wamid.") + id);
        // Sent once: no second send of a message already sent.
        QTest::qWait(200);
        QCOMPARE(connector->sends.size(), 1);
    }

    void pacedAtTheChannelLimit()
    {
        auto reg = registry(5);
        ChannelSender sender(Store(m_bus), reg);
        QStringList ids;
        for (int i = 0; i < 12; ++i)
            ids << queue(sender, QStringLiteral("m%1").arg(i));
        ChannelDispatcher dispatcher(reg, Store(m_bus));
        auto *connector = new ScriptedConnector;
        dispatcher.setConnector(connector);
        QTRY_COMPARE_WITH_TIMEOUT(connector->sends.size(), 12, 10000);
        // No one-second window holds more than five sends, and they went in order.
        for (int i = 0; i < connector->sends.size(); ++i) {
            QCOMPARE(connector->sends.at(i).messageId, ids.at(i));
            int inWindow = 0;
            for (const auto &s : std::as_const(connector->sends))
                inWindow += s.atMs >= connector->sends.at(i).atMs && s.atMs < connector->sends.at(i).atMs + 1000;
            QVERIFY2(inWindow <= 5, qPrintable(QStringLiteral("%1 sends in one second").arg(inWindow)));
        }
        QTRY_COMPARE_WITH_TIMEOUT(status(ids.last()), QStringLiteral("sent"), 5000);
    }

    // Two copies on one database (two dispatchers here, each with its own connector): every
    // message goes out once, and the channel's rate holds for both together.
    void twoCopiesSendEachMessageOnceAtTheSharedRate()
    {
        auto reg = registry(5);
        ChannelSender sender(Store(m_bus), reg);
        QStringList ids;
        for (int i = 0; i < 16; ++i)
            ids << queue(sender, QStringLiteral("m%1").arg(i));
        ChannelDispatcher a(reg, Store(m_bus));
        ChannelDispatcher b(reg, Store(m_bus));
        auto *ca = new ScriptedConnector;
        auto *cb = new ScriptedConnector;
        ca->delayMs = 30;
        cb->delayMs = 30;
        a.setConnector(ca);
        b.setConnector(cb);
        QTRY_COMPARE_WITH_TIMEOUT(ca->sends.size() + cb->sends.size(), 16, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(status(ids.last()), QStringLiteral("sent"), 5000);
        QTest::qWait(300); // negative check: no message is sent twice
        QList<ScriptedConnector::Sent> all = ca->sends + cb->sends;
        QCOMPARE(all.size(), 16);
        QStringList sent;
        for (const auto &s : std::as_const(all))
            sent << s.messageId;
        sent.sort();
        ids.sort();
        QCOMPARE(sent, ids);
        for (const auto &first : std::as_const(all)) {
            int inWindow = 0;
            for (const auto &s : std::as_const(all))
                inWindow += s.atMs >= first.atMs && s.atMs < first.atMs + 1000;
            QVERIFY2(inWindow <= 5, qPrintable(QStringLiteral("%1 sends in one second").arg(inWindow)));
        }
    }

    // A copy that stops with a send in flight: another copy sends it once the lease has ended.
    void aSendLeftByAStoppedCopyIsSentByAnotherAfterItsLease()
    {
        auto reg = registry(0);
        ChannelSender sender(Store(m_bus), reg);
        const QString id = queue(sender, QStringLiteral("merhaba"));
        ConversationRepository conversations(testStore());
        const QDateTime now = QDateTime::currentDateTimeUtc();
        QVERIFY(conversations.claimSend(id, now, 1)); // the stopped copy's claim
        QVERIFY(!conversations.claimSend(id, now, 1));
        QVERIFY(conversations.dueSends(QStringLiteral("whatsapp"), now, 10).isEmpty());
        ChannelDispatcher other(reg, Store(m_bus));
        auto *connector = new ScriptedConnector;
        other.setConnector(connector);
        if (Database::dialect() == Database::Dialect::PostgreSQL) {
            QTest::qWait(300); // negative check: the claim is still the other copy's
            QCOMPARE(connector->sends.size(), 0);
        }
        // SQLite releases the last run's claims at start; PostgreSQL waits for the lease (1 s).
        QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("sent"), 5000);
        QCOMPARE(connector->sends.size(), 1);
    }

    // The provider answers while the database is away (a restart): the answer is kept and recorded
    // once the database is back, and the message is not sent a second time, although its lease
    // ended meanwhile. Before, the answer was dropped and the message sent again after its lease.
    void anAnswerWhileTheDatabaseIsAwayIsRecordedOnceItIsBack()
    {
        if (Database::dialect() != Database::Dialect::PostgreSQL)
            QSKIP("the database goes away on PostgreSQL (its connection ends)");
        ChannelsConfig c = registry(0)->config();
        c.timeoutSeconds = 1;
        c.leaseMarginSeconds = 1; // a lease of 2 s
        auto reg = std::make_shared<ChannelRegistry>(c);
        ChannelSender sender(Store(m_bus), reg);
        const QString id = queue(sender, QStringLiteral("merhaba"));
        QSqlQuery current = Database::exec(QStringLiteral("SELECT current_schema()"));
        QVERIFY(current.next());
        const QString schema = current.value(0).toString();
        QString why;
        const std::optional<DatabaseUrl> here =
            DatabaseUrl::parse(qEnvironmentVariable("LIAISON_TEST_POSTGRES_URL"), &why);
        QVERIFY2(here, qPrintable(why));
        // Nothing listens on port 1 of loopback: a connection there is refused at once.
        const std::optional<DatabaseUrl> away =
            DatabaseUrl::parse(QStringLiteral("postgresql://liaison@127.0.0.1:1/liaison"), &why);
        QVERIFY2(away, qPrintable(why));

        ChannelDispatcher dispatcher(reg, Store(m_bus));
        auto *connector = new ScriptedConnector;
        connector->delayMs = 300;
        dispatcher.setConnector(connector);
        QTRY_COMPARE_WITH_TIMEOUT(connector->sends.size(), 1, 5000);
        // The database goes away while the provider is answering (and comes back however the test ends).
        struct Back
        {
            const DatabaseUrl &url;
            const QString &schema;
            ~Back() { Database::setPostgres(url, QString(), schema); }
        } back{*here, schema};
        Database::setPostgres(*away, QString(), schema);
        try {
            Database::exec(QStringLiteral("SELECT pg_terminate_backend(pg_backend_pid())"));
        } catch (const std::exception &) {
        }
        QTest::qWait(3000); // the answer comes and cannot be stored; the 2 s lease ends
        Database::setPostgres(*here, QString(), schema);
        QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("sent"), 5000);
        QCOMPARE(ConversationRepository(testStore()).getMessage(id).providerId, QStringLiteral("wamid.") + id);
        QTest::qWait(500); // a poll round or more after it is stored
        QCOMPARE(connector->sends.size(), 1);
    }

    void agentSendsBeforeBulk()
    {
        auto reg = registry(0);
        ChannelSender sender(Store(m_bus), reg);
        const QString bulk1 = queue(sender, QStringLiteral("bulk 1"), 1);
        const QString bulk2 = queue(sender, QStringLiteral("bulk 2"), 1);
        const QString agent = queue(sender, QStringLiteral("agent"), 0);
        ChannelDispatcher dispatcher(reg, Store(m_bus));
        auto *connector = new ScriptedConnector;
        dispatcher.setConnector(connector);
        QTRY_COMPARE_WITH_TIMEOUT(connector->sends.size(), 3, 5000);
        QCOMPARE(connector->sends.at(0).messageId, agent);
        QCOMPARE(connector->sends.at(1).messageId, bulk1);
        QCOMPARE(connector->sends.at(2).messageId, bulk2);
    }

    void failedKeepsTheReason()
    {
        auto reg = registry(0);
        ChannelSender sender(Store(m_bus), reg);
        const QString id = queue(sender, QStringLiteral("late"));
        ChannelDispatcher dispatcher(reg, Store(m_bus));
        auto *connector = new ScriptedConnector;
        connector->script.push_back(SendOutcome::failed(QStringLiteral("131047: re-engagement")));
        dispatcher.setConnector(connector);
        QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("failed"), 5000);
        QCOMPARE(ConversationRepository(testStore()).getMessage(id).delivery.failedReason,
                 QStringLiteral("131047: re-engagement"));
        QCOMPARE(connector->sends.size(), 1);
    }

    void retriedThenSent()
    {
        auto reg = registry(0, {0, 0, 0});
        ChannelSender sender(Store(m_bus), reg);
        const QString id = queue(sender, QStringLiteral("again"));
        ChannelDispatcher dispatcher(reg, Store(m_bus));
        auto *connector = new ScriptedConnector;
        connector->script.push_back(SendOutcome::retry(QStringLiteral("130429 throughput")));
        connector->script.push_back(SendOutcome::retry(QStringLiteral("500")));
        dispatcher.setConnector(connector);
        QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("sent"), 5000);
        QCOMPARE(connector->sends.size(), 3);
    }

    void givesUpAfterTheLastRetry()
    {
        auto reg = registry(0, {0, 0});
        ChannelSender sender(Store(m_bus), reg);
        const QString id = queue(sender, QStringLiteral("never"));
        ChannelDispatcher dispatcher(reg, Store(m_bus));
        auto *connector = new ScriptedConnector;
        for (int i = 0; i < 5; ++i)
            connector->script.push_back(SendOutcome::retry(QStringLiteral("503 from provider")));
        dispatcher.setConnector(connector);
        QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("failed"), 5000);
        QCOMPARE(connector->sends.size(), 3); // the first send and two retries
        QVERIFY(ConversationRepository(testStore())
                    .getMessage(id)
                    .delivery.failedReason.contains(QLatin1String("503 from provider")));
    }

    void retryWaitsForTheProviderDelay()
    {
        auto reg = registry(0, {0, 0});
        ChannelSender sender(Store(m_bus), reg);
        const QString id = queue(sender, QStringLiteral("throttled"));
        const QString other = queue(sender, QStringLiteral("other"));
        ChannelDispatcher dispatcher(reg, Store(m_bus));
        auto *connector = new ScriptedConnector;
        SendOutcome throttled = SendOutcome::retry(QStringLiteral("429 retry after 1"), 1);
        throttled.channelThrottled = true;
        connector->script.push_back(throttled);
        connector->delayMs = 10;
        dispatcher.setConnector(connector);
        QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("sent"), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(status(other), QStringLiteral("sent"), 5000);
        // The whole channel waited: nothing was sent within the second after the 429.
        QVERIFY(connector->sends.size() >= 2);
        const qint64 first = connector->sends.first().atMs;
        for (int i = 1; i < connector->sends.size(); ++i) {
            const qint64 at = connector->sends.at(i).atMs;
            QVERIFY2(at >= first + 950 || (i == 1 && at < first + 10),
                     qPrintable(QStringLiteral("send %1 after %2 ms").arg(i).arg(at - first)));
        }
    }

    void providerDownAndBack()
    {
        auto reg = registry(0, {1, 0, 0, 0}); // down for the second before the retry
        ChannelSender sender(Store(m_bus), reg);
        const QString id = queue(sender, QStringLiteral("hello"));
        ChannelDispatcher dispatcher(reg, Store(m_bus));
        auto *connector = new ScriptedConnector;
        connector->script.push_back(SendOutcome::down(QStringLiteral("connection refused")));
        connector->delayMs = 20;
        connector->probeOk = false;
        dispatcher.setConnector(connector);
        QTRY_VERIFY_WITH_TIMEOUT(!reg->isAvailable(QStringLiteral("whatsapp")), 5000);
        QCOMPARE(reg->downReason(QStringLiteral("whatsapp")), QStringLiteral("connection refused"));
        // New sends are refused while it is down.
        MessageContent content;
        content.text = QStringLiteral("refused");
        try {
            sender.send(m_conversation, content, {QStringLiteral("api"), {}, {}});
            QFAIL("no 503");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Unavailable);
        }
        // The retry succeeds (the script is empty): the channel is up again.
        QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("sent"), 5000);
        QVERIFY(reg->isAvailable(QStringLiteral("whatsapp")));
        // A probe brings a down channel back too.
        reg->setDown(QStringLiteral("whatsapp"), QStringLiteral("timed out"));
        connector->probeOk = true;
        QSignalSpy probed(&dispatcher, &ChannelDispatcher::probed);
        dispatcher.probe(QStringLiteral("whatsapp"));
        QCOMPARE(probed.size(), 1);
        QVERIFY(reg->isAvailable(QStringLiteral("whatsapp")));
    }

    void senderRefusesUnconfiguredAndRateLimits()
    {
        // Not configured: 503, nothing stored.
        ChannelSender unconfigured(Store(m_bus), ChannelRegistry::defaults());
        MessageContent content;
        content.text = QStringLiteral("x");
        auto count = []() {
            QSqlQuery q = Database::exec(QStringLiteral("SELECT count(*) FROM messages"));
            q.next();
            return q.value(0).toInt();
        };
        try {
            unconfigured.send(m_conversation, content, {QStringLiteral("api"), {}, {}});
            QFAIL("no 503");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Unavailable);
            QCOMPARE(e.message(), QStringLiteral("Channel unavailable"));
        }
        QCOMPARE(count(), 0);
        // Three a second: the fourth direct send within the second is refused with 429.
        auto reg = registry(3);
        ChannelSender sender(Store(m_bus), reg);
        for (int i = 0; i < 3; ++i)
            sender.send(m_conversation, content, {QStringLiteral("api"), {}, {}});
        try {
            sender.send(m_conversation, content, {QStringLiteral("api"), {}, {}});
            QFAIL("no 429");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::RateLimited);
            QCOMPARE(e.message(), QStringLiteral("Rate limited"));
            QVERIFY(e.details().value(QLatin1String("retryAfter")).toInt() >= 1);
        }
        QCOMPARE(count(), 3);
        // A queued (bulk) send is not refused.
        queue(sender, QStringLiteral("bulk"), 1);
        QCOMPARE(count(), 4);
    }

    void registryWindowSlides()
    {
        auto reg = registry(2);
        const QString wa = QStringLiteral("whatsapp");
        qint64 retry = 0;
        QVERIFY(reg->tryAcquireSend(wa, 1000));
        QVERIFY(reg->tryAcquireSend(wa, 1500));
        QVERIFY(!reg->tryAcquireSend(wa, 1999, &retry));
        QCOMPARE(retry, 1);
        QVERIFY(reg->tryAcquireSend(wa, 2000)); // the send at 1000 left the window
        QVERIFY(!reg->tryAcquireSend(wa, 2400, &retry));
        QCOMPARE(retry, 100);
        // Unlimited channels never refuse.
        for (int i = 0; i < 1000; ++i)
            QVERIFY(reg->tryAcquireSend(QStringLiteral("widget"), 5000));
    }
};

QTEST_GUILESS_MAIN(TestChannelDispatcher)
#include "test_channeldispatcher.moc"
