// DRIP and TRIGGERED campaigns on the database of the pass: who enters (a segment's members at the
// start and as they join; the outbox's events that match a trigger, once each), how each step is
// released (its delay, the send window, one recipient row per contact and step whatever repeats,
// restarts or races), who leaves and why (unsubscribed, bounced, replied, a deal won, deleted, no
// address, cancelled), and that a claimed step carries its own subject and body. And WhatsApp
// campaigns, which go through the inbox: each recipient a template message queued once, marked
// delivered or failed by the provider's reports read from the outbox.
#include "model/campaigns/campaignrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/templaterepository.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QThread>
#include <QtTest>

namespace {
// A Saturday, 10:00 in Istanbul.
const QDateTime kNow(QDate(2026, 11, 28), QTime(7, 0), Qt::UTC);
const QTimeZone kIstanbul("Europe/Istanbul");

QJsonObject tagRule(const QString &tag)
{
    return {{"logic", "AND"},
            {"rules", QJsonArray{QJsonObject{{"field", "tags"}, {"operator", "equals"}, {"value", tag}}}}};
}

QJsonArray twoSteps()
{
    return QJsonArray{QJsonObject{{"delayMinutes", 0},
                                  {"subject", "Hoş geldin {{firstName}}"},
                                  {"htmlContent", "<p>Birinci adım</p>"}},
                      QJsonObject{{"delayDays", 2}, {"subject", "İkinci gün"}, {"htmlContent", "<p>İkinci adım</p>"}}};
}
} // namespace

class TestCampaignDrip : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;
    EventBus m_bus;
    FakeClock m_clock;

    Store store() { return Store(m_bus, m_clock); }

    Contact contact(const QString &first, const QString &email, const QString &tag, const QString &phone = {})
    {
        QJsonObject body{{"firstName", first}, {"lastName", "Yılmaz"}, {"tags", QJsonArray{tag}}};
        if (!email.isEmpty())
            body.insert("email", email);
        if (!phone.isEmpty())
            body.insert("phone", phone);
        return ContactRepository(store()).create(ContactRules::parse(body));
    }

    Segment segment(const QString &tag)
    {
        return SegmentRepository(store()).create(SegmentRules::parse({{"name", tag}, {"filters", tagRule(tag)}}));
    }

    Campaign drip(const QString &segmentId, const QJsonObject &extra = {})
    {
        QJsonObject body{{"name", "Hoş geldin serisi"},
                         {"type", "DRIP"},
                         {"channel", "email"},
                         {"broadcastListId", segmentId},
                         {"steps", twoSteps()}};
        for (auto it = extra.begin(); it != extra.end(); ++it)
            body.insert(it.key(), it.value());
        CampaignRepository campaigns(store());
        return campaigns.send(campaigns.create(CampaignRules::parse(body)).id);
    }

    // contact id -> the enrolment
    QHash<QString, CampaignEnrolment> enrolments(const QString &campaignId)
    {
        EnrolmentQuery q;
        q.limit = 200;
        QHash<QString, CampaignEnrolment> out;
        for (const CampaignEnrolment &e : CampaignRepository(store()).enrolments(campaignId, q).items)
            out.insert(e.contactId, e);
        return out;
    }

    qint64 stepRows(const QString &campaignId) { return CampaignRepository(store()).stats(campaignId).total; }

private Q_SLOTS:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_clock.set(kNow);
    }
    void cleanup() { m_db.reset(); }

    void walksTheStepsWithTheirDelays()
    {
        const Contact ayse = contact("Ayşe", "ayse@ornek.com.tr", "yeni");
        const Contact nomail = contact("Postasız", {}, "yeni", "+905321112233");
        const Contact gone = contact("Giden", "giden@ornek.com.tr", "yeni");
        SuppressionRepository(store()).add("email", "giden@ornek.com.tr", "manual");
        const Campaign c = drip(segment("yeni").id);
        QCOMPARE(c.status, QString("SENDING"));
        QCOMPARE(enrolments(c.id).size(), 3);

        CampaignRepository campaigns(store());
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 1);
        QHash<QString, CampaignEnrolment> e = enrolments(c.id);
        QCOMPARE(e.value(ayse.id).status, QString("active"));
        QCOMPARE(e.value(ayse.id).nextStep, 1);
        QCOMPARE(e.value(ayse.id).nextAt, TimeUtil::iso(kNow.addDays(2)));
        QCOMPARE(e.value(ayse.id).steps.size(), 1);
        QCOMPARE(e.value(nomail.id).status, QString("exited"));
        QCOMPARE(e.value(nomail.id).exitReason, QString("no_address"));
        QCOMPARE(e.value(gone.id).exitReason, QString("unsubscribed"));

        // The claimed step carries its own subject and body.
        const QVector<CampaignSend> claimed = campaigns.claim("email", 10, 60);
        QCOMPARE(claimed.size(), 1);
        QCOMPARE(claimed.first().subject, QString("Hoş geldin {{firstName}}"));
        QCOMPARE(claimed.first().htmlContent, QString("<p>Birinci adım</p>"));
        campaigns.record({{claimed.first().recipientId, CampaignSendResult::Sent, 250, {}, "<m1@x>"}}, {});

        // Nothing more until the second step's delay has passed; then it goes, and the walk ends.
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 0);
        m_clock.set(kNow.addDays(2).addSecs(-60));
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 0);
        m_clock.set(kNow.addDays(2));
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 1);
        const QVector<CampaignSend> second = campaigns.claim("email", 10, 60);
        QCOMPARE(second.size(), 1);
        QCOMPARE(second.first().subject, QString("İkinci gün"));
        e = enrolments(c.id);
        QCOMPARE(e.value(ayse.id).status, QString("completed"));
        QCOMPARE(e.value(ayse.id).steps.size(), 2);
        QCOMPARE(e.value(ayse.id).steps.at(0).status, QString("sent"));
        QCOMPARE(e.value(ayse.id).steps.at(1).step, 1);
        // A drip campaign stays SENDING: new members may come.
        QCOMPARE(campaigns.get(c.id).status, QString("SENDING"));
        QCOMPARE(stepRows(c.id), 2);
    }

    void letsInNewMembersOnce()
    {
        contact("Ayşe", "ayse@ornek.com.tr", "yeni");
        const Campaign c = drip(segment("yeni").id);
        CampaignRepository campaigns(store());
        QCOMPARE(campaigns.enrolNewMembers(), 0);
        const Contact later = contact("Mehmet", "mehmet@ornek.com.tr", "yeni");
        contact("Başka", "baska@ornek.com.tr", "eski");
        QCOMPARE(campaigns.enrolNewMembers(), 1);
        QCOMPARE(campaigns.enrolNewMembers(), 0);
        QVERIFY(enrolments(c.id).contains(later.id));
        QCOMPARE(enrolments(c.id).size(), 2);
        // Its segment deleted, no one new enters, and those in it walk on.
        SegmentRepository(store()).remove(c.broadcastListId);
        contact("Sonra", "sonra@ornek.com.tr", "yeni");
        QCOMPARE(campaigns.enrolNewMembers(), 0);
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 2);
    }

    void stepsWaitForTheSendWindow()
    {
        const Contact ayse = contact("Ayşe", "ayse@ornek.com.tr", "yeni");
        // Weekdays 9 to 18 in Istanbul; now is Saturday 10:00 there.
        const Campaign c =
            drip(segment("yeni").id,
                 {{"sendWindow", QJsonObject{{"fromHour", 9}, {"toHour", 18}, {"days", QJsonArray{1, 2, 3, 4, 5}}}}});
        CampaignRepository campaigns(store());
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 0);
        const QString monday = "2026-11-30T06:00:00.000Z";
        QCOMPARE(QDateTime::fromString(enrolments(c.id).value(ayse.id).nextAt, Qt::ISODateWithMs),
                 QDateTime::fromString(monday, Qt::ISODateWithMs));
        m_clock.set(QDateTime::fromString(monday, Qt::ISODateWithMs));
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 1);
    }

    void contactsLeaveOnAReplyAWonDealOrDeletion()
    {
        const Contact replies = contact("Cevap", "cevap@ornek.com.tr", "yeni", "+905321110001");
        const Contact buys = contact("Alıcı", "alici@ornek.com.tr", "yeni");
        const Contact deleted = contact("Silinen", "silinen@ornek.com.tr", "yeni");
        const Contact stays = contact("Kalan", "kalan@ornek.com.tr", "yeni");
        const Campaign c = drip(segment("yeni").id);
        CampaignRepository campaigns(store());
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 4);

        m_clock.set(kNow.addSecs(3600));
        ConversationRepository inbox(store());
        const Conversation conv = inbox.findOrCreate(replies.id, "whatsapp", "905321110001");
        MessageContent text;
        text.text = "Teşekkürler, ilgileniyorum";
        inbox.receive(conv.id, text);
        DealRepository deals(store());
        const Deal d = deals.create(DealRules::parse(
            {{"name", "Yıllık paket"}, {"value", 12000}, {"currency", "TRY"}, {"contactId", buys.id}}));
        deals.moveStage(d.id, "won");
        ContactRepository(store()).remove(deleted.id);

        m_clock.set(kNow.addDays(2));
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 1);
        const QHash<QString, CampaignEnrolment> e = enrolments(c.id);
        QCOMPARE(e.value(replies.id).exitReason, QString("replied"));
        QCOMPARE(e.value(buys.id).exitReason, QString("deal_won"));
        QCOMPARE(e.value(deleted.id).exitReason, QString("contact_deleted"));
        QCOMPARE(e.value(stays.id).status, QString("completed"));
        QCOMPARE(e.value(replies.id).steps.size(), 1); // the first step, before the reply, stays in the log
    }

    void pausedWaitsCancelledLeaves()
    {
        const Contact ayse = contact("Ayşe", "ayse@ornek.com.tr", "yeni");
        const Campaign c = drip(segment("yeni").id);
        CampaignRepository campaigns(store());
        campaigns.pause(c.id);
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 0);
        campaigns.resume(c.id);
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 1);
        campaigns.cancel(c.id);
        QCOMPARE(enrolments(c.id).value(ayse.id).exitReason, QString("cancelled"));
        m_clock.set(kNow.addDays(3));
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 0);
    }

    void triggersLetInContactsOnceFromTheStartOn()
    {
        const Contact before = contact("Önceki", "onceki@ornek.com.tr", "vip");
        CampaignRepository campaigns(store());
        const Campaign c = campaigns.send(
            campaigns
                .create(CampaignRules::parse({{"name", "VIP karşılama"},
                                              {"type", "TRIGGERED"},
                                              {"channel", "email"},
                                              {"trigger", QJsonObject{{"event", "contact.tagged"}, {"tag", "VIP"}}},
                                              {"steps", twoSteps()}}))
                .id);
        QCOMPARE(campaigns.processTriggers(), 0); // the first read: the events so far start nothing
        m_clock.set(kNow.addSecs(60));
        const Contact tagged = contact("Yeni", "yeni@ornek.com.tr", "VIP");
        const Contact other = contact("Diğer", "diger@ornek.com.tr", "standart");
        QCOMPARE(campaigns.processTriggers(), 1);
        QCOMPARE(campaigns.processTriggers(), 0);
        // Tagged by an update: enters; tagged again later: not a second time.
        ContactRepository contacts(store());
        contacts.update(other.id, ContactRules::parse({{"tags", QJsonArray{"standart", "vip"}}}));
        contacts.update(tagged.id, ContactRules::parse({{"tags", QJsonArray{"VIP", "yeni"}}}));
        QCOMPARE(campaigns.processTriggers(), 1);
        const QHash<QString, CampaignEnrolment> e = enrolments(c.id);
        QCOMPARE(e.size(), 2);
        QVERIFY(!e.contains(before.id));
        QCOMPARE(e.value(tagged.id).source, QString("contact.tagged"));
        QCOMPARE(campaigns.advanceDrips(100, kIstanbul), 2);
    }

    // Two rounds at once (two threads, each with its own connection: two copies on PostgreSQL, the
    // write lock on SQLite), then a "restart" (a new repository): every due step is one row.
    void noStepIsReleasedTwice()
    {
        constexpr int kContacts = 120;
        {
            Transaction tx;
            ContactRepository contacts(store());
            for (int i = 0; i < kContacts; ++i)
                contacts.create(ContactRules::parse({{"firstName", QStringLiteral("Müşteri %1").arg(i)},
                                                     {"email", QStringLiteral("m%1@ornek.com.tr").arg(i)},
                                                     {"tags", QJsonArray{"yeni"}}}));
            tx.commit();
        }
        const Campaign c = drip(segment("yeni").id);
        const Store shared = store();
        const QTimeZone zone = kIstanbul;
        std::atomic<int> released{0};
        QList<QThread *> threads;
        for (int t = 0; t < 2; ++t) {
            threads << QThread::create([&released, shared, zone] {
                for (int round = 0; round < 10; ++round) {
                    for (int attempt = 0; attempt < 20; ++attempt) {
                        try {
                            released += CampaignRepository(shared).advanceDrips(25, zone);
                            break;
                        } catch (const DatabaseError &) {
                            QThread::msleep(20); // busy: the other round holds the write lock
                        }
                    }
                }
                Database::closeThreadConnection();
            });
        }
        for (QThread *t : std::as_const(threads))
            t->start();
        for (QThread *t : std::as_const(threads)) {
            QVERIFY(t->wait(120000));
            delete t;
        }
        QVERIFY2(released.load() > 0, "the rounds in the threads released nothing: nothing was raced");
        QCOMPARE(CampaignRepository(store()).advanceDrips(1000, kIstanbul), kContacts - released.load());
        QCOMPARE(CampaignRepository(store()).advanceDrips(1000, kIstanbul), 0);
        QCOMPARE(stepRows(c.id), qint64(kContacts));
    }

    void whatsAppGoesThroughTheInbox()
    {
        CampaignRepository campaigns(store());
        campaigns.processTriggers(); // the outbox is followed from here on (the sender does it from its start)
        TemplateRepository(store()).create(TemplateRules::parse({{"name", "kasim_indirimi"},
                                                                 {"language", "tr"},
                                                                 {"body", "Kasım indirimi başladı!"},
                                                                 {"category", "marketing"},
                                                                 {"status", "approved"}},
                                                                true));
        const Contact ayse = contact("Ayşe", {}, "wa", "+905321110001");
        const Contact mehmet = contact("Mehmet", {}, "wa", "+905321110002");
        contact("Postalı", "posta@ornek.com.tr", "wa");
        const QString audience = segment("wa").id;
        const Campaign c = campaigns.send(campaigns
                                              .create(CampaignRules::parse({{"name", "Kasım WhatsApp"},
                                                                            {"type", "BROADCAST"},
                                                                            {"channel", "whatsapp"},
                                                                            {"templateName", "kasim_indirimi"},
                                                                            {"templateLanguage", "tr"},
                                                                            {"broadcastListId", audience}}))
                                              .id);
        QCOMPARE(campaigns.stats(c.id).skipped, 1); // no phone
        QCOMPARE(campaigns.handToWhatsApp(10), 2);
        QCOMPARE(campaigns.handToWhatsApp(10), 0);
        QCOMPARE(campaigns.get(c.id).status, QString("SENT"));

        ConversationRepository inbox(store());
        QHash<QString, QString> messageOf; // contact -> its message
        for (const Contact &k : {ayse, mehmet}) {
            const std::optional<Conversation> v = inbox.findFor(k.id, "whatsapp");
            QVERIFY(v);
            const QVector<Message> messages = inbox.latestMessages(v->id);
            QCOMPARE(messages.size(), 1);
            QCOMPARE(messages.first().type, QString("template"));
            QCOMPARE(messages.first().delivery.status, QString("pending"));
            QCOMPARE(messages.first().text, QString("Kasım indirimi başladı!"));
            messageOf.insert(k.id, messages.first().id);
        }
        inbox.updateStatus(messageOf.value(ayse.id), "sent", {}, "wamid.1");
        inbox.updateStatus(messageOf.value(ayse.id), "delivered");
        inbox.updateStatus(messageOf.value(mehmet.id), "failed", "(#131026) Message undeliverable");
        campaigns.processTriggers();
        const CampaignStats st = campaigns.stats(c.id);
        QCOMPARE(st.sent, 2);
        QCOMPARE(st.delivered, 1);
        QCOMPARE(st.failed, 1);

        // A template with parameters: each recipient's, from merge fields with their fallbacks.
        TemplateRepository(store()).create(TemplateRules::parse({{"name", "kisisel"},
                                                                 {"language", "tr"},
                                                                 {"body", "Merhaba {{1}}, {{2}} indirimi başladı!"},
                                                                 {"category", "marketing"},
                                                                 {"status", "approved"}},
                                                                true));
        contact("", {}, "isimsiz", "+905321110009");
        ContactRepository(store()).update(ayse.id, ContactRules::parse({{"tags", QJsonArray{"wa", "isimsiz"}}}));
        const Campaign personal = campaigns.send(
            campaigns
                .create(CampaignRules::parse({{"name", "Kişisel"},
                                              {"type", "BROADCAST"},
                                              {"channel", "whatsapp"},
                                              {"templateName", "kisisel"},
                                              {"templateLanguage", "tr"},
                                              {"templateParams", QJsonArray{"{{firstName|Müşterimiz}}", "Kasım"}},
                                              {"broadcastListId", segment("isimsiz").id}}))
                .id);
        QCOMPARE(campaigns.get(personal.id).templateParams, (QStringList{"{{firstName|Müşterimiz}}", "Kasım"}));
        QCOMPARE(campaigns.handToWhatsApp(10), 2);
        QStringList texts;
        QSqlQuery sent = Database::exec("SELECT text FROM messages WHERE text LIKE 'Merhaba %' ORDER BY text");
        while (sent.next())
            texts << sent.value(0).toString();
        sent.finish();
        QCOMPARE(texts,
                 (QStringList{"Merhaba Ayşe, Kasım indirimi başladı!", "Merhaba Müşterimiz, Kasım indirimi başladı!"}));
        // An unknown merge field in a parameter is refused when the campaign is saved.
        QString refused;
        try {
            campaigns.create(CampaignRules::parse({{"name", "Hatalı"},
                                                   {"type", "BROADCAST"},
                                                   {"channel", "whatsapp"},
                                                   {"templateName", "kisisel"},
                                                   {"templateParams", QJsonArray{"{{yokAlan}}"}}}));
        } catch (const DomainError &e) {
            refused = e.code();
        }
        QCOMPARE(refused, QString("UNKNOWN_MERGE_FIELD"));

        // A template that is not approved fails its recipients with the reason.
        const Campaign bad = campaigns.send(campaigns
                                                .create(CampaignRules::parse({{"name", "Onaysız"},
                                                                              {"type", "BROADCAST"},
                                                                              {"channel", "whatsapp"},
                                                                              {"templateName", "yok"},
                                                                              {"templateLanguage", "tr"},
                                                                              {"broadcastListId", audience}}))
                                                .id);
        QCOMPARE(campaigns.handToWhatsApp(10), 2);
        QCOMPARE(campaigns.get(bad.id).status, QString("FAILED"));
        RecipientQuery q;
        q.statuses = {"failed"};
        QVERIFY2(campaigns.recipients(bad.id, q).items.first().error.contains("yok"),
                 qPrintable(campaigns.recipients(bad.id, q).items.first().error));
    }
};

QTEST_MAIN(TestCampaignDrip)
#include "test_campaigndrip.moc"
