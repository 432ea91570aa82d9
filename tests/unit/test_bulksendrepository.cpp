// BulkSendRepository on the database of the pass: the recipients stored at once (phones in E.164,
// once each, a bad one with its error; a segment's members in one statement), the expansion into
// pending template messages in bounded batches (behind agent sends), recipients a channel cannot
// reach, and the progress the API answers.
#include "model/contacts/contactrepository.h"
#include "model/contacts/segment.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/inbox/bulksend.h"
#include "model/inbox/conversationrepository.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QtTest>

namespace {
const QDateTime kNow(QDate(2031, 3, 4), QTime(10, 0), Qt::UTC);

BulkRequest request(const QString &channel, const QStringList &recipients, const QString &segmentId = {})
{
    BulkRequest r;
    r.channel = channel;
    r.recipients = recipients;
    r.segmentId = segmentId;
    r.tpl.name = QStringLiteral("kampanya");
    r.tpl.language = QStringLiteral("tr");
    r.components = QJsonArray{QJsonObject{{"type", "body"}}};
    r.renderedText = QStringLiteral("Merhaba, kampanyamız başladı");
    r.createdBy = QStringLiteral("apikey_1");
    return r;
}

// recipient -> status of progress()'s first page.
QHash<QString, QString> statuses(const QJsonObject &progress)
{
    QHash<QString, QString> out;
    for (const QJsonValue &v : progress.value(QLatin1String("recipients")).toArray())
        out.insert(v[QLatin1String("recipient")].toString(), v[QLatin1String("status")].toString());
    return out;
}
} // namespace

class TestBulkSendRepository : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;
    EventBus m_bus;
    FakeClock m_clock;

    Store store() { return Store(m_bus, m_clock); }

private Q_SLOTS:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_clock.set(kNow);
    }
    void cleanup() { m_db.reset(); }

    void storesPhonesOnceEachInE164_data()
    {
        QTest::addColumn<QStringList>("given");
        QTest::addColumn<QStringList>("stored"); // in order
        QTest::addColumn<int>("invalid");
        QTest::newRow("one number three ways")
            << QStringList{"+90 532 111 22 33", "+90 (532) 111-22-33", "+905321112233"} << QStringList{"+905321112233"} << 0;
        QTest::newRow("two numbers") << QStringList{"+905321112233", " +49 30 1234567 "}
                                     << QStringList{"+905321112233", "+49301234567"} << 0;
        QTest::newRow("a bad number is kept with its error")
            << QStringList{"telefon yok", "+905321112233"} << QStringList{"telefon yok", "+905321112233"} << 1;
        QTest::newRow("a bad number once") << QStringList{"x", "x "} << QStringList{"x"} << 1;
    }
    void storesPhonesOnceEachInE164()
    {
        QFETCH(QStringList, given);
        QFETCH(QStringList, stored);
        QFETCH(int, invalid);
        BulkSendRepository bulk(store());
        QSignalSpy spy(&m_bus, &EventBus::changed);
        const BulkSend b = bulk.create(request(QStringLiteral("whatsapp"), given));
        QCOMPARE(spy.size(), 1);
        QVERIFY(b.id.startsWith(QLatin1String("bulk_")));
        QCOMPARE(b.total, qint64(stored.size()));
        QCOMPARE(b.templateName, QStringLiteral("kampanya"));
        QCOMPARE(b.createdAt, QStringLiteral("2031-03-04T10:00:00.000Z"));
        const QJsonObject p = bulk.progress(b.id, 1, 50);
        QStringList read;
        for (const QJsonValue &v : p.value("recipients").toArray())
            read << v["recipient"].toString();
        QCOMPARE(read, stored);
        QCOMPARE(p.value("progress")["failed"].toInt(), invalid);
        QCOMPARE(p.value("progress")["queued"].toInt(), int(stored.size()) - invalid);
        QCOMPARE(p.value("status").toString(),
                 stored.size() > invalid ? QStringLiteral("in_progress") : QStringLiteral("completed"));
    }

    void expandsInBoundedBatchesIntoPendingTemplateMessages()
    {
        const Contact known = ContactRepository(store()).create(
            ContactRules::parse({{"firstName", "Ayşe"}, {"lastName", "Yılmaz"}, {"phone", "+90 532 111 22 33"}}));
        BulkSendRepository bulk(store());
        const BulkSend b = bulk.create(
            request(QStringLiteral("whatsapp"), {"+905321112233", "+905321112244", "+905321112255", "yanlış"}));
        QCOMPARE(b.total, 4);

        QCOMPARE(bulk.expand(2), 2);
        QJsonObject p = bulk.progress(b.id, 1, 50);
        QCOMPARE(p.value("progress")["queued"].toInt(), 3); // one waits, two pending messages
        QCOMPARE(bulk.expand(2), 1);                        // the bad number was never waiting
        QCOMPARE(bulk.expand(2), 0);

        p = bulk.progress(b.id, 1, 50);
        const QJsonArray recipients = p.value("recipients").toArray();
        QCOMPARE(recipients.size(), 4);
        // The known number reaches the known contact; the others became contacts of their own.
        QCOMPARE(recipients.at(0)["contactId"].toString(), known.id);
        QVERIFY(!recipients.at(1)["contactId"].toString().isEmpty());
        QVERIFY(recipients.at(1)["contactId"] != recipients.at(2)["contactId"]);
        QCOMPARE(recipients.at(3)["status"].toString(), QStringLiteral("failed"));
        QCOMPARE(recipients.at(3)["error"].toString(), QStringLiteral("Invalid phone"));
        QCOMPARE(recipients.at(3)["messageId"], QJsonValue());

        // Each message: a pending template message, behind what agents send.
        QSqlQuery q = Database::exec(
            QStringLiteral("SELECT type, status, text, send_priority, sender_id FROM messages WHERE id = ?"),
            {recipients.at(0)["messageId"].toString()});
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("template"));
        QCOMPARE(q.value(1).toString(), QStringLiteral("pending"));
        QCOMPARE(q.value(2).toString(), QStringLiteral("Merhaba, kampanyamız başladı"));
        QCOMPARE(q.value(3).toInt(), 1);
        QCOMPARE(q.value(4).toString(), QStringLiteral("apikey_1"));
        q.finish();

        QCOMPARE(p.value("progress")["queued"].toInt(), 3);
        QCOMPARE(p.value("progress")["done"].toInt(), 1);
        QCOMPARE(p.value("progress")["percent"].toInt(), 25);
        QCOMPARE(p.value("status").toString(), QStringLiteral("in_progress"));
        // Pages of the recipients.
        const QJsonObject second = bulk.progress(b.id, 2, 3);
        QCOMPARE(second.value("recipients").toArray().size(), 1);
        QCOMPARE(second.value("pagination")["totalPages"].toInt(), 2);
    }

    void reachesOnChatChannelsOnlyWhoWroteFirst()
    {
        // Telegram: a chat id that wrote to us before has a conversation; another has none.
        const Contact c = ContactRepository(store()).create(
            ContactRules::parse({{"firstName", "Ali"}, {"email", "ali@ornek.com.tr"}}));
        ConversationRepository(store()).findOrCreate(c.id, QStringLiteral("telegram"), QStringLiteral("7001"),
                                                     QStringLiteral("telegram"));
        BulkSendRepository bulk(store());
        const BulkSend b = bulk.create(request(QStringLiteral("telegram"), {"7001", "7002"}));
        QCOMPARE(bulk.expand(10), 2);
        const QJsonObject p = bulk.progress(b.id, 1, 50);
        QCOMPARE(statuses(p), (QHash<QString, QString>{{"7001", "pending"}, {"7002", "failed"}}));
        QCOMPARE(p.value("recipients").toArray().at(1)["error"].toString(),
                 QStringLiteral("No telegram conversation with this recipient"));
        QCOMPARE(p.value("progress")["failed"].toInt(), 1);
    }

    void aSegmentsMembersAreTakenAtOnce()
    {
        ContactRepository contacts(store());
        const Contact vip = contacts.create(
            ContactRules::parse({{"firstName", "Ayşe"}, {"phone", "+905321112233"}, {"tags", QJsonArray{"vip"}}}));
        const Contact noPhone = contacts.create(
            ContactRules::parse({{"firstName", "Şule"}, {"email", "sule@ornek.com.tr"}, {"tags", QJsonArray{"vip"}}}));
        contacts.create(ContactRules::parse({{"firstName", "Ali"}, {"phone", "+905321112244"}}));
        const Segment s = SegmentRepository(store()).create(SegmentRules::parse(
            {{"name", "VIP"},
             {"filters", QJsonObject{{"logic", "AND"},
                                     {"rules", QJsonArray{QJsonObject{
                                                   {"field", "tags"}, {"operator", "equals"}, {"value", "vip"}}}}}}}));
        BulkSendRepository bulk(store());
        const BulkSend b = bulk.create(request(QStringLiteral("whatsapp"), {}, s.id));
        QCOMPARE(b.total, 2);
        QCOMPARE(b.segmentId, s.id);
        // A member without a phone is stored by its id, and skipped when expanded.
        QCOMPARE(statuses(bulk.progress(b.id, 1, 50)),
                 (QHash<QString, QString>{{"+905321112233", "queued"}, {noPhone.id, "queued"}}));
        QCOMPARE(bulk.expand(10), 2);
        const QJsonObject p = bulk.progress(b.id, 1, 50);
        QCOMPARE(statuses(p), (QHash<QString, QString>{{"+905321112233", "pending"}, {noPhone.id, "failed"}}));
        QCOMPARE(p.value("recipients").toArray().at(0)["contactId"].toString(), vip.id);
        QCOMPARE(p.value("segmentId").toString(), s.id);

        QCOMPARE(
            refusalOf([&] { bulk.create(request(QStringLiteral("whatsapp"), {}, QStringLiteral("seg_none"))); }).second,
            int(DomainError::NotFound));
        QCOMPARE(refusalOf([&] { bulk.get(QStringLiteral("bulk_none")); }).second, int(DomainError::NotFound));
    }
};

QTEST_GUILESS_MAIN(TestBulkSendRepository)
#include "test_bulksendrepository.moc"
