// Conversations and messages on a real SQLite file: the status order of messages and the tone of a
// message (pure functions, data-driven), reopening on a new message, the contact's counters and
// sentiment, the first response time, and the outbox events written with each change.
#include "model/accounts/userrepository.h"
#include "model/assistant/sentiment.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/timeutil.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/widgetvisitorrepository.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QtTest>

#include <atomic>
#include <thread>

namespace {
int outboxCount(const QString &event)
{
    QSqlQuery q = Database::exec("SELECT count(*) FROM outbox WHERE event = ?", {event});
    q.next();
    return q.value(0).toInt();
}

QJsonObject lastEvent(const QString &event)
{
    QSqlQuery q = Database::exec("SELECT payload FROM outbox WHERE event = ? ORDER BY seq DESC LIMIT 1", {event});
    if (!q.next())
        return {};
    return QJsonDocument::fromJson(q.value(0).toByteArray()).object().value("data").toObject();
}

MessageContent textContent(const QString &text)
{
    MessageContent c;
    c.text = text;
    return c;
}
} // namespace

class TestConversationRepository : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;
    QString m_contactId;

private Q_SLOTS:
    void init()
    {
        // The tone rows read no database, and a database per row would cost them seconds.
        if (QByteArray(QTest::currentTestFunction()) == "sentimentReadsTheToneOfAMessage")
            return;
        m_db = std::make_unique<TempDatabase>();
        m_contactId = ContactRepository(testStore())
                          .create(ContactRules::parse(
                              {{"firstName", "Ayşe"}, {"lastName", "Yılmaz"}, {"phone", "+905321234567"}}))
                          .id;
    }
    void cleanup() { m_db.reset(); }

    // The Inbox's badge and the navigation's count: conversations with a message nobody read; an
    // answer or reading it takes the conversation out, a new message brings it back.
    void unreadConversationsCountsConversationsNotMessages()
    {
        ConversationRepository repo(testStore());
        QCOMPARE(repo.unreadConversations(), 0);
        const QString other =
            ContactRepository(testStore())
                .create(ContactRules::parse({{"firstName", "Burak"}, {"email", "burak@ornek.com.tr"}}))
                .id;
        const Conversation a = repo.findOrCreate(m_contactId, "whatsapp", "+905321234567");
        const Conversation b = repo.findOrCreate(other, "widget", "visitor_b");
        repo.findOrCreate(other, "telegram", "tg_b"); // no message: not unread
        repo.receive(a.id, textContent("Merhaba"));
        repo.receive(a.id, textContent("Fiyat alabilir miyim?"));
        QCOMPARE(repo.unreadConversations(), 1); // two messages, one conversation
        repo.receive(b.id, textContent("Teklif ne zaman gelir?"));
        QCOMPARE(repo.unreadConversations(), 2);
        repo.markRead(a.id);
        QCOMPARE(repo.unreadConversations(), 1);
        repo.addOutgoing(b.id, textContent("Yarın gönderiyoruz."), MessageSender{"agent", {}, "Liaison"}, "sent");
        QCOMPARE(repo.unreadConversations(), 0); // answered: read
        repo.receive(a.id, textContent("Bir sorum daha var"));
        QCOMPARE(repo.unreadConversations(), 1);
        const Conversation visitor = repo.createForVisitor("visitor_anon", "Website visitor 3F9K2A");
        repo.receive(visitor.id, textContent("Merhaba?"));
        QCOMPARE(repo.unreadConversations(), 2); // a visitor without a contact counts too
        ConversationQuery unread;
        unread.unreadOnly = true;
        QCOMPARE(repo.unreadConversations(), repo.list(unread).total);
    }

    void statusMovesOnlyForward_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("report");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QStringList>("reached");
        QTest::newRow("pending->sent") << "pending"
                                       << "sent"
                                       << "sent" << QStringList{"sent"};
        QTest::newRow("sent->delivered") << "sent"
                                         << "delivered"
                                         << "delivered" << QStringList{"delivered"};
        QTest::newRow("delivered->read") << "delivered"
                                         << "read"
                                         << "read" << QStringList{"read"};
        QTest::newRow("read before delivered") << "sent"
                                               << "read"
                                               << "read" << QStringList{"delivered", "read"};
        QTest::newRow("pending->read fills all") << "pending"
                                                 << "read"
                                                 << "read" << QStringList{"sent", "delivered", "read"};
        QTest::newRow("late delivered after read") << "read"
                                                   << "delivered"
                                                   << "read" << QStringList{};
        QTest::newRow("late sent after delivered") << "delivered"
                                                   << "sent"
                                                   << "delivered" << QStringList{};
        QTest::newRow("repeated") << "sent"
                                  << "sent"
                                  << "sent" << QStringList{};
        QTest::newRow("back to pending") << "sent"
                                         << "pending"
                                         << "sent" << QStringList{};
        QTest::newRow("sent->failed") << "sent"
                                      << "failed"
                                      << "failed" << QStringList{"failed"};
        QTest::newRow("pending->failed") << "pending"
                                         << "failed"
                                         << "failed" << QStringList{"failed"};
        QTest::newRow("read->failed") << "read"
                                      << "failed"
                                      << "failed" << QStringList{"failed"};
        QTest::newRow("failed is final") << "failed"
                                         << "read"
                                         << "failed" << QStringList{};
        QTest::newRow("failed twice") << "failed"
                                      << "failed"
                                      << "failed" << QStringList{};
        QTest::newRow("unknown status") << "sent"
                                        << "bogus"
                                        << "sent" << QStringList{};
    }

    void statusMovesOnlyForward()
    {
        QFETCH(QString, from);
        QFETCH(QString, report);
        QFETCH(QString, expected);
        QFETCH(QStringList, reached);
        MessageDelivery d;
        d.status = from;
        const MessageRules::Advance a = MessageRules::advance(d, report, "2026-03-01T10:00:00.000Z", "boom");
        QCOMPARE(a.delivery.status, expected);
        QCOMPARE(a.reached, reached);
        if (reached.contains("delivered"))
            QCOMPARE(a.delivery.deliveredAt, QString("2026-03-01T10:00:00.000Z"));
        if (reached.contains("read"))
            QCOMPARE(a.delivery.readAt, QString("2026-03-01T10:00:00.000Z"));
        if (reached.contains("failed"))
            QCOMPARE(a.delivery.failedReason, QString("boom"));
    }

    void lateStatusUpdateStoresAndEmitsNothing()
    {
        EventBus bus;
        ConversationRepository repo{Store(bus)};
        const Conversation v = repo.findOrCreate(m_contactId, "widget", "visitor_x");
        const Message m = repo.addOutgoing(v.id, textContent("Hello"), {"agent", "user_1", "Ali"});
        QCOMPARE(m.delivery.status, QString("pending"));
        repo.updateStatus(m.id, "read");
        QCOMPARE(outboxCount("message.delivered"), 1);
        QCOMPARE(outboxCount("message.read"), 1);
        QSignalSpy spy(&bus, &EventBus::changed);
        const int before = outboxCount("message.delivered") + outboxCount("message.sent");
        const Message late = repo.updateStatus(m.id, "delivered");
        QCOMPARE(late.delivery.status, QString("read"));
        QCOMPARE(outboxCount("message.delivered") + outboxCount("message.sent"), before);
        QCOMPARE(spy.count(), 0);
        const QJsonObject read = lastEvent("message.read");
        QCOMPARE(read.value("messageId").toString(), m.id);
        QCOMPARE(read.value("conversationId").toString(), v.id);
        QCOMPARE(read.value("status").toString(), QString("read"));
    }

    void createsConversationOnceWithEvent()
    {
        ConversationRepository repo(testStore());
        const Conversation a = repo.findOrCreate(m_contactId, "whatsapp", "+905321234567", "campaign");
        const Conversation b = repo.findOrCreate(m_contactId, "whatsapp", "+905321234567");
        QCOMPARE(a.id, b.id);
        QVERIFY(a.id.startsWith("conv_"));
        QCOMPARE(outboxCount("conversation.created"), 1);
        const QJsonObject e = lastEvent("conversation.created");
        QCOMPARE(e.value("conversationId").toString(), a.id);
        QCOMPARE(e.value("contactId").toString(), m_contactId);
        QCOMPARE(e.value("channel").toString(), QString("whatsapp"));
        QCOMPARE(e.value("source").toString(), QString("campaign"));
        QCOMPARE(e.value("contact").toObject().value("firstName").toString(), QString("Ayşe"));
        QCOMPARE(e.value("contact").toObject().value("phone").toString(), QString("+905321234567"));
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.findOrCreate(m_contactId, "fax", {}));
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.findOrCreate("contact_nope", "widget", {}));
    }

    void messageOnClosedConversationReopensIt_data()
    {
        QTest::addColumn<bool>("incoming");
        QTest::newRow("incoming") << true;
        QTest::newRow("outgoing") << false;
    }

    void messageOnClosedConversationReopensIt()
    {
        QFETCH(bool, incoming);
        ConversationRepository repo(testStore());
        const Conversation v = repo.findOrCreate(m_contactId, "widget", "visitor_1");
        QCOMPARE(repo.close(v.id).status, QString("closed"));
        QCOMPARE(outboxCount("conversation.closed"), 1);
        if (incoming)
            repo.receive(v.id, textContent("Are you there?"));
        else
            repo.addOutgoing(v.id, textContent("We are back"), {"agent", {}, "Ali"});
        QCOMPARE(repo.get(v.id).status, QString("open"));
        const QJsonObject e = lastEvent("conversation.updated");
        QCOMPARE(e.value("status").toString(), QString("open"));
        QCOMPARE(e.value("changedFields").toArray(), QJsonArray{"status"});
    }

    void keepsContactCountersAndUnread()
    {
        FakeClock clock(QDateTime(QDate(2026, 3, 1), QTime(9, 0), Qt::UTC));
        ConversationRepository repo(Store(testStore().bus(), clock));
        const Conversation v = repo.findOrCreate(m_contactId, "widget", "visitor_1");
        repo.receive(v.id, textContent("Hi"));
        clock.advance(90);
        repo.receive(v.id, textContent("Anyone?"));
        QCOMPARE(repo.get(v.id).unreadCount, 2);
        clock.advance(30);
        const Message reply = repo.addOutgoing(v.id, textContent("Yes, hello"), {"agent", {}, "Ali"}, "sent");
        QCOMPARE(reply.delivery.status, QString("sent"));
        QVERIFY(!reply.delivery.sentAt.isEmpty());
        QCOMPARE(outboxCount("message.sent"), 1);
        const Conversation after = repo.get(v.id);
        QCOMPARE(after.unreadCount, 0);
        QCOMPARE(after.totalMessages, 3);
        QCOMPARE(after.lastMessageText, QString("Yes, hello"));
        QCOMPARE(after.lastMessageDirection, QString("outgoing"));
        // From the first incoming message (09:00:00) to the first reply (09:02:00).
        QVERIFY(after.firstResponseSeconds.has_value());
        QCOMPARE(*after.firstResponseSeconds, qint64(120));
        clock.advance(600);
        repo.addOutgoing(v.id, textContent("Anything else?"), {"agent", {}, "Ali"}, "sent");
        QCOMPARE(*repo.get(v.id).firstResponseSeconds, qint64(120));

        const Contact c = ContactRepository(testStore()).get(m_contactId);
        QCOMPARE(c.totalMessages, 4);
        QCOMPARE(c.lastMessageAt, TimeUtil::iso(clock.now()));
        const QJsonArray list = ConversationRepository(testStore()).forContact(m_contactId);
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.at(0).toObject().value("lastMessage").toString(), TimeUtil::iso(clock.now()));
        QCOMPARE(list.at(0).toObject().value("status").toString(), QString("open"));
    }

    void receivedEventCarriesSpecPayload()
    {
        EventBus bus;
        QSignalSpy spy(&bus, &EventBus::changed);
        ConversationRepository repo{Store(bus)};
        const Conversation v = repo.findOrCreate(m_contactId, "widget", "visitor_1");
        const Message m = repo.receive(v.id, textContent("Merhaba"), "provider-1");
        const QJsonObject e = lastEvent("message.received");
        QCOMPARE(e.value("messageId").toString(), m.id);
        QCOMPARE(e.value("conversationId").toString(), v.id);
        QCOMPARE(e.value("contactId").toString(), m_contactId);
        QCOMPARE(e.value("channel").toString(), QString("widget"));
        QCOMPARE(e.value("text").toString(), QString("Merhaba"));
        QCOMPARE(e.value("direction").toString(), QString("incoming"));
        const QJsonObject sender = e.value("sender").toObject();
        QCOMPARE(sender.value("id").toString(), m_contactId);
        QCOMPARE(sender.value("name").toString(), QString("Ayşe Yılmaz"));
        QCOMPARE(sender.value("phone").toString(), QString("+905321234567"));
        QVERIFY(spy.count() >= 2);
        // A provider's retry of the same message is recorded once.
        const Message again = repo.receive(v.id, textContent("Merhaba"), "provider-1");
        QCOMPARE(again.id, m.id);
        QCOMPARE(outboxCount("message.received"), 1);
    }

    // The tone of an incoming message (model/assistant/sentiment.h): the label a support team would
    // give it, and the signed score stored on the message (docs/api.md, Conversations and messages).
    void sentimentReadsTheToneOfAMessage_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("score");
        auto row = [](const char *name, const char *text, const char *label, int score) {
            QTest::newRow(name) << QString::fromUtf8(text) << QString::fromLatin1(label) << score;
        };
        // English
        row("en praise", "Thanks, great service!", "positive", 2);
        row("en strong word, refund alone neutral", "This is terrible, I want a refund", "negative", -2);
        row("en not", "The product is not good", "negative", -1);
        row("en never intensifies its negation", "I'm never happy with your deliveries", "negative", -2);
        row("en didn't like", "I didn't like the colour", "negative", -1);
        row("en don't love: a strong word negated is mild", "I don't love it", "negative", -1);
        row("en isn't working", "The app isn't working", "negative", -1);
        row("en curly apostrophe", "The app isn\u2019t working", "negative", -1);
        row("en negation reaches three words", "I don't think it's good", "negative", -1);
        row("en still hasn't arrived", "It still hasn't arrived", "negative", -2);
        row("en still not arrived", "Still not arrived", "negative", -2);
        row("en still waiting", "Still waiting for my order", "negative", -2);
        row("en waiting alone", "Waiting for your answer", "neutral", 0);
        row("en where is my order", "Where is my order?", "neutral", 0);
        row("en question", "What time do you open?", "neutral", 0);
        row("en refund question", "How do I get a refund?", "neutral", 0);
        row("en cancel and return question", "Can I cancel my order and return the shoes?", "neutral", 0);
        row("en would like is not liking", "I would like to return this item", "neutral", 0);
        row("en not bad", "Not bad", "positive", 1);
        row("en not bad at all", "Not bad at all", "positive", 2);
        row("en not very good stays mild", "not very good", "negative", -1);
        row("en intensifier", "Very good", "positive", 2);
        row("en intensifiers double once", "really really bad", "negative", -2);
        row("en exclamations", "Excellent!!!", "positive", 4);
        row("en one exclamation", "Excellent!", "positive", 2);
        row("en two complaints", "The delivery was late and the box was damaged", "negative", -2);
        row("en no problem", "No problem, thanks", "positive", 2);
        row("en no thanks", "No thanks", "neutral", 0);
        row("en asking whether good", "Is it good?", "neutral", 0);
        row("en complaint asked", "Why is it so bad?", "negative", -2);
        row("en greeting is no praise", "Good morning, my order is broken", "negative", -1);
        row("en mixed", "good but slow", "neutral", 0);
        row("en word inside word", "goodness", "neutral", 0);
        row("en never again", "Never again!", "negative", -2);
        row("en nobody answered", "Nobody answered my emails", "negative", -1);
        row("en double negation", "Not unhappy with it", "positive", 1);
        row("en like with emoji", "I really like it \U0001F44D", "positive", 3);
        row("en angry emoji", "Where is my package \U0001F621", "negative", -2);
        // Turkish, with and without diacritics
        row("tr praise and thanks", "Çok memnunum, teşekkürler", "positive", 3);
        row("tr praise folded", "cok memnunum, tesekkurler", "positive", 3);
        row("tr upper case", "ÇOK MEMNUNUM", "positive", 2);
        row("tr değil", "Memnun değilim", "negative", -1);
        row("tr degil folded", "memnun degilim", "negative", -1);
        row("tr hiç intensifies değil", "Hiç memnun değilim", "negative", -2);
        row("tr beğendim", "Ürünü beğendim", "positive", 1);
        row("tr -me suffix", "Ürünü beğenmedim", "negative", -1);
        row("tr hiç with -me", "urunu hic begenmedim", "negative", -2);
        row("tr -eme suffix", "Hiç beğenemedim", "negative", -2);
        row("tr bayıldım", "Bayıldım!", "positive", 2);
        row("tr bayildim folded", "bayildim", "positive", 2);
        row("tr rezalet", "Rezalet bir hizmet", "negative", -2);
        row("tr two negatives upper case", "BERBAT bir deneyim, ŞİKAYET edeceğim", "negative", -3);
        row("tr kırık geldi", "Ürün kırık geldi", "negative", -1);
        row("tr geç kaldı", "Kargo geç kaldı", "negative", -1);
        row("tr en geç is not late", "En geç ne zaman gelir?", "neutral", 0);
        row("tr hâlâ gelmedi", "Siparişim hâlâ gelmedi", "negative", -2);
        row("tr hala gelmedi folded", "siparisim hala gelmedi", "negative", -2);
        row("tr gelmedi", "Kargo gelmedi", "negative", -1);
        row("tr çalışmıyor", "Uygulama çalışmıyor", "negative", -1);
        row("tr çalışıyor", "Uygulama çalışıyor", "neutral", 0);
        row("tr -ama suffix", "Sisteme giriş yapamıyorum", "negative", -1);
        row("tr memnun kalmadım", "Memnun kalmadım", "negative", -1);
        row("tr sevmedim", "Sevmedim", "negative", -1);
        row("tr çok sevdim", "Çok sevdim", "positive", 2);
        row("tr words with -me- inside are not negated", "Sevmek güzel, gelmeniz yeterli", "positive", 1);
        row("tr iyi değil", "İyi değil", "negative", -1);
        row("tr fena değil", "Fena değil", "positive", 1);
        row("tr sorun yok", "Sorun yok", "positive", 1);
        row("tr hiçbir sorun yok", "Hiçbir sorun yok, teşekkürler", "positive", 3);
        row("tr hiç sorun yaşamadım", "Hiç sorun yaşamadım", "positive", 2);
        row("tr sorun yaşadım", "Sorun yaşadım", "negative", -1);
        row("tr şikayetim yok", "Şikayetim yok", "positive", 1);
        row("tr double negation", "Beğenmedim değil", "positive", 1);
        row("tr double negation of a neutral verb", "Çalışmıyor değil", "neutral", 0);
        row("tr iade question", "Ürünü nasıl iade edebilirim?", "neutral", 0);
        row("tr iptal request", "Siparişimi iptal etmek istiyorum", "neutral", 0);
        row("tr iade and iptal terms", "İade ve iptal koşulları nelerdir", "neutral", 0);
        row("tr greeting and question", "İyi günler, siparişim nerede?", "neutral", 0);
        row("tr sign-off is no praise", "İyi çalışmalar, kargom kırık geldi", "negative", -1);
        row("tr question particle", "Bu ürün iyi mi", "neutral", 0);
        row("tr tag question is no negation", "Güzel değil mi?", "neutral", 0);
        row("tr asla tavsiye etmem", "Asla tavsiye etmem", "negative", -2);
        row("tr tavsiye ederim", "Kesinlikle tavsiye ederim", "positive", 2);
        row("tr asking for advice", "Bir tavsiye istiyorum", "neutral", 0);
        row("tr sağ olun", "Sağ olun, çok yardımcı oldunuz", "positive", 3);
        row("tr yardımcı olmadınız", "Hiç yardımcı olmadınız", "negative", -2);
        row("tr help asked", "Yardımcı olur musunuz?", "neutral", 0);
        row("tr intensified and plain", "Çok yavaş ve pahalı", "negative", -3);
        row("tr günlerdir cevap yok", "Günlerdir cevap yok", "negative", -2);
        row("tr hâlâ bekliyorum", "Hâlâ bekliyorum", "negative", -2);
        row("tr waiting alone", "Cevabınızı bekliyorum", "neutral", 0);
        row("tr teşekkürler", "Teşekkürler", "positive", 1);
        row("tr tşk", "tşk", "positive", 1);
        row("tr hayal kırıklığı", "Hayal kırıklığına uğradım", "negative", -2);
        row("tr clause after ama", "Ürün iyi ama kargo çok geç geldi", "negative", -1);
        row("tr solved", "Sorun çözüldü, teşekkürler", "positive", 1);
        row("tr not solved", "Sorun hâlâ çözülmedi", "negative", -3);
        row("tr emphasis", "Ödeme ekranı açılmıyor!!", "negative", -2);
        row("tr dotless i folded", "IYI DEGIL", "negative", -1);
        row("tr passive with -me", "Hâlâ kargoya verilmedi", "negative", -2);
        row("tr -mem as my doing", "Bunu yapmam lazım", "neutral", 0);
        row("tr words that start like a root", "Sevkiyat ne zaman, seviye 2 mi?", "neutral", 0);
        row("tr proper noun with apostrophe", "Hatay'a kargo var mı?", "neutral", 0);
        row("tr sorry to bother", "Rahatsız ettiğim için kusura bakmayın", "neutral", 0);
        row("tr not expected is no complaint", "Beklemediğim kadar iyi", "positive", 1);
    }

    void sentimentReadsTheToneOfAMessage()
    {
        QFETCH(QString, text);
        QFETCH(QString, label);
        QFETCH(int, score);
        const Sentiment::Result r = Sentiment::analyse(text);
        QStringList cues;
        for (const Sentiment::Cue &c : r.cues)
            cues << QStringLiteral("%1 %2").arg(c.word).arg(c.value);
        QVERIFY2(r.score == score && r.label == label,
                 qPrintable(QStringLiteral("%1 %2 (%3)").arg(r.label).arg(r.score).arg(cues.join(u", "))));
        QCOMPARE(MessageRules::sentimentScore(text), score);
        QCOMPARE(MessageRules::sentimentLabel(score), label);
    }

    // The contact's sentiment is its latest incoming message's (not a sum over earlier ones), set
    // in the message's transaction; each message keeps its own signed score.
    void contactSentimentIsTheLatestIncomingMessages()
    {
        ConversationRepository repo(testStore());
        const Conversation v = repo.findOrCreate(m_contactId, "widget", "visitor_1");
        auto sentiment = [&] { return ContactRepository(testStore()).get(m_contactId).sentiment; };
        repo.receive(v.id, textContent("Hello"));
        QCOMPARE(sentiment(), QString("neutral"));
        repo.receive(v.id, textContent("Harika, çok teşekkürler!"));
        repo.receive(v.id, textContent("Süper, bayıldım"));
        QCOMPARE(sentiment(), QString("positive"));
        // One complaint after praise: negative, however much praise came before.
        const Message complaint = repo.receive(v.id, textContent("Kargo hâlâ gelmedi"));
        QCOMPARE(complaint.sentimentScore, -2);
        QCOMPARE(sentiment(), QString("negative"));
        // Outgoing messages do not count.
        repo.addOutgoing(v.id, textContent("Thanks, great, perfect, wonderful"), {"agent", {}, "Ali"}, "sent");
        QCOMPARE(sentiment(), QString("negative"));
        // A neutral latest message sets neutral.
        repo.receive(v.id, textContent("Kargo takip numarası nedir?"));
        QCOMPARE(sentiment(), QString("neutral"));
        repo.receive(v.id, textContent("Rezalet, çok kötü"));
        QCOMPARE(sentiment(), QString("negative"));
        repo.receive(v.id, textContent("Sorun çözüldü, teşekkürler"));
        QCOMPARE(sentiment(), QString("positive"));
        // The stored rows: the signed score per incoming message, 0 on outgoing ones.
        QSqlQuery q = Database::exec("SELECT direction, sentiment_score FROM messages WHERE conversation_id = ? "
                                     "ORDER BY seq",
                                     {v.id});
        QList<int> scores;
        while (q.next())
            scores << (q.value(0).toString() == "incoming" ? q.value(1).toInt() : 100 + q.value(1).toInt());
        QCOMPARE(scores, (QList<int>{0, 4, 3, -2, 100, 0, -4, 1}));
        QSqlQuery c = Database::exec("SELECT sentiment FROM contacts WHERE id = ?", {m_contactId});
        QVERIFY(c.next());
        QCOMPARE(c.value(0).toString(), QString("positive"));
    }

    void updateAssignsClosesAndTags()
    {
        const User u = UserRepository(testStore()).create("ali@example.com", "Ali", "agent", "x");
        ConversationRepository repo(testStore());
        const Conversation v = repo.findOrCreate(m_contactId, "widget", "visitor_1");
        Conversation after = repo.update(v.id, QString("pending"), u.id);
        QCOMPARE(after.status, QString("pending"));
        QCOMPARE(after.assignedTo, u.id);
        QCOMPARE(after.assignedName, QString("Ali"));
        QCOMPARE(outboxCount("conversation.assigned"), 1);
        QCOMPARE(lastEvent("conversation.assigned").value("assignedTo").toObject().value("id").toString(), u.id);
        QCOMPARE(outboxCount("conversation.updated"), 1);
        // Unchanged: no event.
        repo.update(v.id, QString("pending"), u.id);
        QCOMPARE(outboxCount("conversation.updated"), 1);
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.assign(v.id, "user_nope"));
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.update(v.id, QString("archived"), std::nullopt));
        QCOMPARE(repo.assign(v.id, QString()).assignedTo, QString());
        after = repo.addTags(v.id, {"VIP", "vip", "billing"});
        QCOMPARE(after.tags, (QStringList{"VIP", "billing"}));
        after = repo.removeTag(v.id, "Vip");
        QCOMPARE(after.tags, QStringList{"billing"});
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.removeTag(v.id, "vip"));
        QCOMPARE(repo.reopen(v.id).status, QString("open"));
    }

    void assignIfUnassignedGivesItToOneOfTwoRacingAgents()
    {
        const User ali = UserRepository(testStore()).create("ali@example.com", "Ali", "agent", "x");
        const User selin = UserRepository(testStore()).create("selin@example.com", "Selin", "agent", "x");
        ConversationRepository repo(testStore());
        // Several rounds of two agents replying to the same new conversation at the same moment, each
        // thread on its own connection: exactly one of them gets it, with one assignment event.
        for (int round = 0; round < 8; ++round) {
            const Conversation v = repo.findOrCreate(m_contactId, "widget", QStringLiteral("visitor_r%1").arg(round));
            const int before = outboxCount("conversation.assigned");
            std::atomic<int> won{0};
            std::atomic<int> ready{0};
            auto agent = [&](const QString &userId) {
                ready.fetch_add(1);
                for (int spin = 0; ready.load() < 2 && spin < 10000000; ++spin) {
                }
                try {
                    if (ConversationRepository(testStore()).assignIfUnassigned(v.id, userId))
                        won.fetch_add(1);
                } catch (const std::exception &) {
                    // A busy database refused: this agent did not get it.
                }
                Database::closeThreadConnection();
            };
            std::thread a(agent, ali.id);
            std::thread b(agent, selin.id);
            a.join();
            b.join();
            QCOMPARE(won.load(), 1);
            const QString owner = repo.get(v.id).assignedTo;
            QVERIFY(owner == ali.id || owner == selin.id);
            QCOMPARE(outboxCount("conversation.assigned"), before + 1);
        }
        // Someone already has it: nothing changes, no event.
        const Conversation v = repo.findOrCreate(m_contactId, "widget", "visitor_taken");
        repo.assign(v.id, selin.id);
        const int before = outboxCount("conversation.assigned");
        QVERIFY(!repo.assignIfUnassigned(v.id, ali.id));
        QCOMPARE(repo.get(v.id).assignedTo, selin.id);
        QCOMPARE(outboxCount("conversation.assigned"), before);
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.assignIfUnassigned(v.id, "user_nope"));
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.assignIfUnassigned("conv_nope", ali.id));
    }

    void cursorsPageThroughThread()
    {
        ConversationRepository repo(testStore());
        const Conversation v = repo.findOrCreate(m_contactId, "widget", "visitor_1");
        QStringList ids;
        for (int i = 0; i < 7; ++i)
            ids << repo.receive(v.id, textContent(QString("m%1").arg(i))).id;
        MessageQuery q;
        q.limit = 3;
        MessagePage p = repo.messages(v.id, q);
        QCOMPARE(p.total, 7);
        QCOMPARE(p.items.first().id, ids.at(0));
        q.after = ids.at(4);
        p = repo.messages(v.id, q);
        QCOMPARE(p.items.size(), 2);
        QCOMPARE(p.items.first().id, ids.at(5));
        q.after.clear();
        q.before = ids.at(4);
        p = repo.messages(v.id, q);
        QCOMPARE(p.items.size(), 3);
        QCOMPARE(p.items.first().id, ids.at(1));
        QCOMPARE(p.items.last().id, ids.at(3));
        q.before = "msg_unknown";
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.messages(v.id, q));
        QCOMPARE(repo.latestMessages(v.id, 2).last().id, ids.at(6));
    }

    void widgetVisitorsGetTheirOwnConversation()
    {
        WidgetVisitorRepository visitors(testStore());
        const auto a = visitors.create("Zeynep", "zeynep@example.com");
        const auto b = visitors.create({}, "zeynep@example.com");
        QVERIFY(a.token.startsWith("wvt_"));
        QVERIFY(a.token.size() > 40);
        QCOMPARE(a.visitor.contactId, b.visitor.contactId); // same e-mail, same contact
        QVERIFY(a.visitor.conversationId != b.visitor.conversationId);
        QCOMPARE(visitors.authenticate(a.token)->conversationId, a.visitor.conversationId);
        QVERIFY(!visitors.authenticate("wvt_guess"));
        QVERIFY_THROWS_EXCEPTION(DomainError, visitors.create("x", "not-an-email"));
    }

    void anAnonymousVisitorIsNoContact()
    {
        ConversationRepository repo(testStore());
        const qint64 contactsBefore = ContactRepository(testStore()).count({});
        const auto anonymous = WidgetVisitorRepository(testStore()).create({}, {});
        QVERIFY(anonymous.visitor.contactId.isEmpty());
        QCOMPARE(ContactRepository(testStore()).count({}), contactsBefore);
        const QString shortId = anonymous.visitor.id.right(6).toUpper();
        Conversation v = repo.get(anonymous.visitor.conversationId);
        QVERIFY(!v.hasContact());
        QCOMPARE(v.externalId, anonymous.visitor.id);
        QCOMPARE(v.visitorName, "Website visitor " + shortId);
        QCOMPARE(v.contactName(), v.visitorName);
        // In the team's language where the app names one (channels/widget/visitorName).
        const auto turkish =
            WidgetVisitorRepository(testStore()).create({}, {}, QStringLiteral("Web sitesi ziyaretçisi"));
        QVERIFY(repo.get(turkish.visitor.conversationId).visitorName.startsWith("Web sitesi ziyaretçisi "));

        const QJsonObject created = lastEvent("conversation.created");
        QVERIFY(created.value("contactId").isNull());
        QVERIFY(created.value("contact").isNull());
        QCOMPARE(created.value("visitor").toObject().value("id").toString(), turkish.visitor.id);

        const Message m = repo.receive(v.id, textContent("merhaba, fiyat alabilir miyim?"));
        QVERIFY(m.contactId.isEmpty());
        QCOMPARE(m.sender.name, v.visitorName);
        QVERIFY(m.toJson().value("contactId").isNull());
        const QJsonObject received = lastEvent("message.received");
        QVERIFY(received.value("contactId").isNull());
        QVERIFY(received.value("sender").toObject().value("id").isNull());
        QCOMPARE(received.value("sender").toObject().value("name").toString(), v.visitorName);
        repo.addOutgoing(v.id, textContent("Tabii"), {QStringLiteral("agent"), {}, QStringLiteral("Ece")},
                         QStringLiteral("sent"));
        repo.close(v.id);
        QVERIFY(lastEvent("conversation.closed").value("contactId").isNull());

        // Listed and filtered as any conversation; the JSON says who it is without a contact.
        ConversationQuery all;
        all.limit = 100;
        bool listed = false;
        for (const Conversation &c : repo.list(all).items)
            listed = listed || c.id == v.id;
        QVERIFY(listed);
        ConversationQuery none;
        none.assignedTo = QStringLiteral("none");
        QVERIFY(repo.list(none).total >= 2);
        ConversationQuery byContact;
        byContact.contactId = m_contactId;
        QCOMPARE(repo.list(byContact).total, qint64(0));
        v = repo.get(v.id);
        const QJsonObject item = v.toListJson();
        QVERIFY(item.value("contactId").isNull());
        QVERIFY(item.value("contact").isNull());
        QCOMPARE(item.value("visitor").toObject().value("id").toString(), anonymous.visitor.id);
        QCOMPARE(item.value("visitor").toObject().value("name").toString(), v.visitorName);
        QVERIFY(v.toDetailJson().value("contact").isNull());
        QVERIFY(!repo.get(v.id).toDetailJson().contains("messages"));
        // A contact's conversation has its contactId and no visitor.
        const Conversation known = repo.findOrCreate(m_contactId, "whatsapp", "+905321234567");
        QCOMPARE(known.toListJson().value("contactId").toString(), m_contactId);
        QVERIFY(!known.toListJson().contains("visitor"));
    }

    void identifyCreatesTheContactAndAttachesTheConversation()
    {
        ConversationRepository repo(testStore());
        WidgetVisitorRepository visitors(testStore());
        const auto anonymous = visitors.create({}, {});
        repo.receive(anonymous.visitor.conversationId, textContent("Merhaba"));
        repo.receive(anonymous.visitor.conversationId, textContent("Kargo ne zaman gelir?"));
        const int contactsCreated = outboxCount("contact.created");
        const int updated = outboxCount("conversation.updated");

        const auto who =
            visitors.identifyVisitor(*visitors.find(anonymous.visitor.id), " Deniz Kaya ", "deniz@example.com", {});
        QVERIFY(who.created);
        QCOMPARE(who.contact.firstName, QString("Deniz Kaya"));
        QCOMPARE(who.contact.email, QString("deniz@example.com"));
        QCOMPARE(who.contact.source, QString("widget"));
        QCOMPARE(outboxCount("contact.created"), contactsCreated + 1);
        QCOMPARE(outboxCount("conversation.updated"), updated + 1);
        const QJsonObject event = lastEvent("conversation.updated");
        QCOMPARE(event.value("contactId").toString(), who.contact.id);
        QCOMPARE(event.value("changedFields").toArray(), QJsonArray{"contactId"});

        const Conversation v = repo.get(anonymous.visitor.conversationId);
        QCOMPARE(v.contactId, who.contact.id);
        QVERIFY(v.visitorName.isEmpty());
        QCOMPARE(v.contactName(), QString("Deniz Kaya"));
        for (const Message &m : repo.latestMessages(v.id)) {
            QCOMPARE(m.contactId, who.contact.id);
            QCOMPARE(m.sender.id, who.contact.id);
            QCOMPARE(m.sender.name, QString("Deniz Kaya"));
        }
        QCOMPARE(ContactRepository(testStore()).get(who.contact.id).totalMessages, 2);
        const WidgetVisitor after = *visitors.find(anonymous.visitor.id);
        QCOMPARE(after.contactId, who.contact.id);
        QCOMPARE(after.email, QString("deniz@example.com"));
        ConversationQuery byContact;
        byContact.contactId = who.contact.id;
        QCOMPARE(repo.list(byContact).total, qint64(1));
        // Later messages are the contact's.
        QCOMPARE(repo.receive(v.id, textContent("Teşekkürler")).contactId, who.contact.id);

        // Once only: another e-mail does not move the conversation to someone else.
        try {
            visitors.identifyVisitor(after, {}, "someone.else@example.com", {});
            QFAIL("a second identify was accepted");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Conflict);
            QCOMPARE(e.message(), QString("This visitor has already said who they are"));
        }
        QCOMPARE(repo.get(v.id).contactId, who.contact.id);
        QVERIFY(!ContactRepository(testStore()).findByEmail("someone.else@example.com"));
    }

    void identifyLinksAKnownEmailOrPhone()
    {
        ConversationRepository repo(testStore());
        WidgetVisitorRepository visitors(testStore());
        const int contactsCreated = outboxCount("contact.created");
        // The phone of Ayşe (made in init), typed the national way with spaces.
        const auto first = visitors.create({}, {});
        const auto byPhone = visitors.identifyVisitor(*visitors.find(first.visitor.id), {}, {}, "+90 532 123 45 67");
        QVERIFY(!byPhone.created);
        QCOMPARE(byPhone.contact.id, m_contactId);
        QCOMPARE(repo.get(first.visitor.conversationId).contactId, m_contactId);
        // An e-mail alone names the contact after the visitor's label.
        const auto second = visitors.create({}, {});
        const auto byEmail = visitors.identifyVisitor(*visitors.find(second.visitor.id), {}, "yeni@example.com", {});
        QVERIFY(byEmail.created);
        QCOMPARE(byEmail.contact.firstName, "Website visitor " + second.visitor.id.right(6).toUpper());
        // A third visitor with that e-mail (any case) joins the same contact.
        const auto third = visitors.create({}, {});
        const auto again = visitors.identify(third.visitor.conversationId, [] {
            ContactChanges c;
            c.email = QStringLiteral("YENI@example.com");
            return c;
        }());
        QVERIFY(!again.created);
        QCOMPARE(again.contact.id, byEmail.contact.id);
        QCOMPARE(outboxCount("contact.created"), contactsCreated + 1);
        ConversationQuery q;
        q.contactId = byEmail.contact.id;
        QCOMPARE(repo.list(q).total, qint64(2));
    }

    void identifyRefusesWhatIsNotAPerson_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("email");
        QTest::addColumn<QString>("phone");
        QTest::addColumn<int>("kind");
        QTest::newRow("nothing") << ""
                                 << ""
                                 << "" << int(DomainError::Unprocessable);
        QTest::newRow("blank") << "  "
                               << " "
                               << "" << int(DomainError::Unprocessable);
        QTest::newRow("bad e-mail") << ""
                                    << "not-an-email"
                                    << "" << int(DomainError::BadRequest);
        QTest::newRow("bad phone") << ""
                                   << ""
                                   << "12" << int(DomainError::BadRequest);
        QTest::newRow("long name") << QString(201, 'a') << ""
                                   << "" << int(DomainError::BadRequest);
    }

    void identifyRefusesWhatIsNotAPerson()
    {
        QFETCH(QString, name);
        QFETCH(QString, email);
        QFETCH(QString, phone);
        QFETCH(int, kind);
        WidgetVisitorRepository visitors(testStore());
        const auto v = visitors.create({}, {});
        const qint64 contacts = ContactRepository(testStore()).count({});
        try {
            visitors.identifyVisitor(*visitors.find(v.visitor.id), name, email, phone);
            QFAIL("accepted");
        } catch (const DomainError &e) {
            QCOMPARE(int(e.kind()), kind);
        }
        QCOMPARE(ContactRepository(testStore()).count({}), contacts);
        QVERIFY(!ConversationRepository(testStore()).get(v.visitor.conversationId).hasContact());
    }

    void twoIdentifyingAtOnceMakeOneContact()
    {
        // Two tabs of one visitor saying two different e-mails at the same moment, each thread on its
        // own connection: one wins; the other is refused and the contact it made is rolled back.
        for (int round = 0; round < 6; ++round) {
            const auto visitor = WidgetVisitorRepository(testStore()).create({}, {});
            const qint64 contacts = ContactRepository(testStore()).count({});
            std::atomic<int> won{0};
            std::atomic<int> ready{0};
            auto tab = [&](const QString &email) {
                ready.fetch_add(1);
                for (int spin = 0; ready.load() < 2 && spin < 10000000; ++spin) {
                }
                try {
                    ContactChanges person;
                    person.email = email;
                    WidgetVisitorRepository(testStore()).identify(visitor.visitor.conversationId, person);
                    won.fetch_add(1);
                } catch (const std::exception &) {
                    // Refused (409), or a busy database: this tab did not say it.
                }
                Database::closeThreadConnection();
            };
            std::thread a(tab, QStringLiteral("a%1@example.com").arg(round));
            std::thread b(tab, QStringLiteral("b%1@example.com").arg(round));
            a.join();
            b.join();
            QCOMPARE(won.load(), 1);
            QCOMPARE(ContactRepository(testStore()).count({}), contacts + 1);
            QVERIFY(ConversationRepository(testStore()).get(visitor.visitor.conversationId).hasContact());
        }
    }

    void attachContactRefusesAConversationThatHasOne()
    {
        ConversationRepository repo(testStore());
        const Conversation v = repo.findOrCreate(m_contactId, "whatsapp", "+905321234567");
        QCOMPARE(repo.attachContact(v.id, m_contactId).contactId, m_contactId); // nothing to do
        const QString other = ContactRepository(testStore())
                                  .create(ContactRules::parse({{"firstName", "Ali"}, {"email", "ali@example.com"}}))
                                  .id;
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.attachContact(v.id, other));
        const auto anonymous = WidgetVisitorRepository(testStore()).create({}, {});
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.attachContact(anonymous.visitor.conversationId, "contact_nope"));
    }

    void deletingTheContactLaterDeletesTheVisitorConversation()
    {
        WidgetVisitorRepository visitors(testStore());
        const auto v = visitors.create({}, {});
        const auto who = visitors.identifyVisitor(*visitors.find(v.visitor.id), "Sevgi", {}, {});
        ContactRepository(testStore()).remove(who.contact.id);
        QVERIFY(!ConversationRepository(testStore()).find(v.visitor.conversationId));
        QVERIFY(!visitors.find(v.visitor.id));
    }

    void aNewVisitorIsToldOnceWithItsContactAndConversation()
    {
        EventBus bus;
        QSignalSpy told(&bus, &EventBus::changed);
        const auto v = WidgetVisitorRepository(Store(bus)).create("Gülşen Ateş", "gulsen@example.com");
        QCOMPARE(told.count(), 2);
        QCOMPARE(told.at(0).at(0).value<EventBus::Entity>(), EventBus::Entity::Contact);
        QCOMPARE(told.at(0).at(1).toString(), v.visitor.contactId);
        QCOMPARE(told.at(1).at(0).value<EventBus::Entity>(), EventBus::Entity::Conversation);
        QCOMPARE(told.at(1).at(1).toString(), v.visitor.conversationId);
        const Contact c = ContactRepository(testStore()).get(v.visitor.contactId);
        QCOMPARE(c.firstName, QString("Gülşen Ateş"));
        QCOMPARE(c.source, QString("widget"));
        // Found by its words, as any contact.
        ContactQuery q;
        q.search = "gulsen";
        QCOMPARE(ContactRepository(testStore()).count(q), qint64(1));
        // A second visitor with the e-mail joins that contact: only its conversation is news.
        told.clear();
        const auto again = WidgetVisitorRepository(Store(bus)).create({}, "GULSEN@example.com");
        QCOMPARE(again.visitor.contactId, v.visitor.contactId);
        QCOMPARE(told.count(), 1);
        QCOMPARE(told.at(0).at(0).value<EventBus::Entity>(), EventBus::Entity::Conversation);
    }
};

QTEST_GUILESS_MAIN(TestConversationRepository)
#include "test_conversationrepository.moc"
