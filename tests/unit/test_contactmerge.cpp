// Duplicates and merge: the matching rules (Turkish names, accents, e-mail case, phone forms), the
// groups found in the store, a merge moving every kind of row with its events, its undo, its
// refusals, and two merges of the same contact at once.
#include "model/contacts/contactmerge.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/duplicatefinder.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QtTest>

#include <atomic>
#include <thread>

Q_DECLARE_METATYPE(Contact)

namespace {
Contact person(const QString &first, const QString &last, const QString &company, const QString &email = {},
               const QString &phone = {})
{
    Contact c;
    c.firstName = first;
    c.lastName = last;
    c.company = company;
    c.email = email;
    c.phone = phone;
    return c;
}

Contact create(const QJsonObject &body)
{
    return ContactRepository(testStore()).create(ContactRules::parse(body));
}

QVector<QJsonObject> outboxData(const QString &event)
{
    QVector<QJsonObject> out;
    QSqlQuery q = Database::exec("SELECT payload FROM outbox WHERE event = ? ORDER BY seq", {event});
    while (q.next())
        out.append(QJsonDocument::fromJson(q.value(0).toByteArray()).object().value("data").toObject());
    return out;
}

qint64 scalar(const QString &sql, const QVariantList &values = {})
{
    QSqlQuery q = Database::exec(sql, values);
    return q.next() ? q.value(0).toLongLong() : -1;
}

QString text(const QString &sql, const QVariantList &values = {})
{
    QSqlQuery q = Database::exec(sql, values);
    return q.next() ? q.value(0).toString() : QString();
}

QStringList ids(const QVector<Contact> &contacts)
{
    QStringList out;
    for (const Contact &c : contacts)
        out << c.id;
    return out;
}
} // namespace

class TestContactMerge : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;

private Q_SLOTS:
    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    void matchingRules_data()
    {
        QTest::addColumn<Contact>("a");
        QTest::addColumn<Contact>("b");
        QTest::addColumn<QString>("rules");
        const QString anadolu = QStringLiteral("Anadolu Yazılım");
        QTest::newRow("dotless ı and Ç against capitals")
            << person("Işık", "Çelik", anadolu) << person("ISIK", "CELIK", "ANADOLU YAZILIM") << "name";
        QTest::newRow("dotted İ against i")
            << person("İsmail", "Şahin", "Ege Tekstil") << person("ismail", "sahin", "ege tekstil") << "name";
        QTest::newRow("Turkish capitals both ways")
            << person("IŞIK", "ÇELİK", anadolu) << person("ışık", "çelik", "anadolu yazılım") << "name";
        QTest::newRow("accents") << person("José", "Núñez", "Acme") << person("Jose", "Nunez", "ACME") << "name";
        QTest::newRow("punctuation and legal form") << person("Ayşe", "Yılmaz", "Anadolu Yazılım A.Ş.")
                                                    << person("Ayse", "Yilmaz", "anadolu yazilim AŞ") << "name";
        QTest::newRow("name split differently")
            << person("Ayşe Nur", "Yılmaz", anadolu) << person("Ayşe", "Nur Yılmaz", anadolu) << "name";
        QTest::newRow("other company") << person("Işık", "Çelik", anadolu) << person("Işık", "Çelik", "Ege Tekstil")
                                       << "";
        QTest::newRow("no company is no match") << person("Ahmet", "Yılmaz", "") << person("Ahmet", "Yılmaz", "") << "";
        QTest::newRow("one letter apart") << person("Işık", "Çelik", anadolu) << person("Işıl", "Çelik", anadolu) << "";
        QTest::newRow("e-mail without case")
            << person("A", "", "", "Ayse@Example.com") << person("B", "", "", "ayse@example.COM ") << "email";
        QTest::newRow("other e-mail") << person("A", "", "", "ayse@example.com")
                                      << person("A", "", "", "ayse@example.org") << "";
        QTest::newRow("phone written two ways")
            << person("A", "", "", {}, "+90 (532) 123-45-67") << person("B", "", "", {}, "+905321234567") << "phone";
        QTest::newRow("other phone") << person("A", "", "", {}, "+905321234567")
                                     << person("B", "", "", {}, "+905321234568") << "";
        QTest::newRow("all three") << person("Işık", "Çelik", anadolu, "isik@anadolu.com.tr", "+905321234567")
                                   << person("ISIK", "CELIK", anadolu, "ISIK@anadolu.com.tr", "+90 532 123 45 67")
                                   << "email,phone,name";
    }
    void matchingRules()
    {
        QFETCH(Contact, a);
        QFETCH(Contact, b);
        QFETCH(QString, rules);
        QCOMPARE(DuplicateRules::matches(a, b).join(','), rules);
        QCOMPARE(DuplicateRules::matches(b, a).join(','), rules); // either way round
    }

    void findsGroupsInTheStore()
    {
        const Contact a = create({{"firstName", "Işık"},
                                  {"lastName", "Çelik"},
                                  {"company", "Anadolu Yazılım"},
                                  {"email", "isik@anadolu.com.tr"}});
        create({{"firstName", "Işık"}, {"lastName", "Çelik"}, {"company", "Ege Tekstil"}, {"email", "isik@ege.com"}});
        const Contact b = create(
            {{"firstName", "ISIK"}, {"lastName", "CELIK"}, {"company", "anadolu yazilim"}, {"phone", "+905321234567"}});
        const Contact c = create(
            {{"firstName", "Zeynep"}, {"lastName", "Kaya"}, {"company", "Kuzey"}, {"email", "zeynep@kuzey.com"}});
        const Contact d =
            create({{"firstName", "zeynep"}, {"lastName", "kaya"}, {"company", "KUZEY"}, {"email", "zk@kuzey.com"}});
        create({{"firstName", "Ahmet"}, {"lastName", "Yılmaz"}, {"email", "ahmet1@example.com"}});
        create({{"firstName", "Ahmet"}, {"lastName", "Yılmaz"}, {"email", "ahmet2@example.com"}});
        const DuplicateFinder finder(testStore());
        QVector<DuplicateGroup> groups = finder.groups();
        QCOMPARE(groups.size(), 2);
        // The newest contact's group first; each group's contacts oldest first.
        QCOMPARE(groups.at(0).contactIds, QStringList({c.id, d.id}));
        QCOMPARE(groups.at(1).contactIds, QStringList({a.id, b.id}));
        QCOMPARE(groups.at(1).suggestedKeepId(), a.id);
        QCOMPARE(groups.at(1).matches.size(), 1);
        QCOMPARE(groups.at(1).matches.at(0).rule, QString("name"));
        // Loading reads them as they are now: a contact deleted since leaves, and its group with it.
        ContactRepository(testStore()).remove(d.id);
        finder.load(groups);
        QCOMPARE(groups.size(), 1);
        QCOMPARE(ids(groups.at(0).contacts), QStringList({a.id, b.id}));
        QCOMPARE(groups.at(0).contacts.at(1).firstName, QString("ISIK"));
        // A name match is shown as the first of its contacts writes it.
        QCOMPARE(groups.at(0).matches.at(0).value, QString("Işık Çelik · Anadolu Yazılım"));
    }

    void mergeMovesEveryKindAndUndoPutsItBack()
    {
        const Store store = testStore();
        ContactRepository contacts(store);
        const Contact kept = create({{"firstName", "Işık"},
                                     {"lastName", "Çelik"},
                                     {"company", "Anadolu Yazılım"},
                                     {"email", "isik@anadolu.com.tr"},
                                     {"tags", QJsonArray{"vip"}},
                                     {"customFields", QJsonObject{{"source", "fuar"}}}});
        const Contact other = create({{"firstName", "ISIK"},
                                      {"lastName", "CELIK"},
                                      {"company", "anadolu yazilim"},
                                      {"email", "isik.celik@example.com"},
                                      {"phone", "+905321234567"},
                                      {"position", "Satın alma"},
                                      {"address", QJsonObject{{"city", "İzmir"}}},
                                      {"tags", QJsonArray{"VIP", "fuar-2026"}},
                                      {"customFields", QJsonObject{{"source", "web"}, {"referral", "Ali"}}},
                                      {"leadScore", 70}});
        contacts.addNote(other.id, "İlk görüşme");
        contacts.addNote(other.id, "Teklif istedi");
        contacts.addNote(kept.id, "Eski not");
        const Deal deal = DealRepository(store).create(
            DealRules::parse({{"name", "Lisans"}, {"value", 1000}, {"contactId", other.id}}));
        const Task task = TaskRepository(store).create(TaskRules::parse({{"title", "Ara"}, {"contactId", other.id}}));
        ConversationRepository conversations(store);
        const Conversation conv = conversations.findOrCreate(other.id, "whatsapp", "+905321234567");
        conversations.receive(conv.id,
                              MessageContent{QStringLiteral("text"), QStringLiteral("Merhaba"), {}, {}, {}, {}});
        Database::exec("INSERT INTO widget_visitors (id, token_hash, contact_id, conversation_id, created_at) VALUES "
                       "('visitor_1', 'h1', ?, ?, '2026-01-01T00:00:00.000Z')",
                       {other.id, conv.id});
        SegmentRepository segments(store);
        SegmentChanges s;
        s.name = QStringLiteral("Fuar");
        s.isDynamic = false;
        const Segment segment = segments.create(s);
        segments.addContacts(segment.id, {other.id});
        Database::exec("INSERT INTO campaign_suppressions (id, channel, address, address_norm, reason, contact_id, "
                       "created_at) VALUES ('sup_1', 'email', 'x@example.com', 'x@example.com', 'manual', ?, "
                       "'2026-01-01T00:00:00.000Z')",
                       {other.id});
        // Campaign history: a bulk send's recipient row, and enrolments in two drip campaigns, one of
        // which the kept contact walks too (one enrolment per campaign and contact).
        Database::exec("INSERT INTO bulk_sends (id, channel, template_name, template_language, created_at) VALUES "
                       "('bulk_1', 'whatsapp', 'hello', 'tr', '2026-01-01T00:00:00.000Z')");
        Database::exec("INSERT INTO bulk_recipients (bulk_seq, recipient, contact_id) SELECT seq, '+905321234567', ? "
                       "FROM bulk_sends WHERE id = 'bulk_1'",
                       {other.id});
        for (const char *campaign : {"camp_a", "camp_b"})
            Database::exec(
                "INSERT INTO campaigns (id, name, type, channel, status, created_at, updated_at) VALUES (?, ?, "
                "'DRIP', 'email', 'SENDING', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
                {campaign, campaign});
        const auto enrol = [](const QString &campaign, const QString &contact) {
            Database::exec("INSERT INTO campaign_enrolments (campaign_seq, contact_id, status, entered_at, source, "
                           "updated_at) SELECT seq, ?, 'active', '2026-01-01T00:00:00.000Z', 'audience', "
                           "'2026-01-01T00:00:00.000Z' FROM campaigns WHERE id = ?",
                           {contact, campaign});
        };
        enrol("camp_a", other.id);
        enrol("camp_b", other.id);
        enrol("camp_a", kept.id);
        const qint64 outboxBefore = scalar("SELECT count(*) FROM outbox");

        const MergeResult r = ContactMerge(store).merge(kept.id, {other.id}, "user_x");
        QVERIFY(r.mergeId.startsWith("merge_"));
        QCOMPARE(r.removedIds, QStringList{other.id});
        QCOMPARE(r.moved.notes, 2);
        QCOMPARE(r.moved.deals, 1);
        QCOMPARE(r.moved.tasks, 1);
        QCOMPARE(r.moved.conversations, 1);
        QCOMPARE(r.moved.segments, 1);
        QCOMPARE(r.moved.campaigns, 3); // the suppression, the bulk recipient, camp_b's enrolment
        QVERIFY(!contacts.find(other.id));
        const Contact k = contacts.get(kept.id);
        // Filled: what it lacked; kept: what it had (its e-mail, its customFields.source).
        QCOMPARE(k.email, kept.email);
        QCOMPARE(k.phone, QString("+905321234567"));
        QCOMPARE(k.position, QString("Satın alma"));
        QCOMPARE(k.address.value("city").toString(), QString("İzmir"));
        QCOMPARE(k.tags, QStringList({"vip", "fuar-2026"}));
        QCOMPARE(k.customFields, QJsonObject({{"source", "fuar"}, {"referral", "Ali"}}));
        QCOMPARE(k.leadScore, 70);
        QCOMPARE(k.totalMessages, 1);
        QCOMPARE(contacts.notes(kept.id).size(), 3);
        QCOMPARE(DealRepository(store).get(deal.id).contactId, kept.id);
        QCOMPARE(TaskRepository(store).get(task.id).contactId, kept.id);
        QCOMPARE(conversations.get(conv.id).contactId, kept.id);
        QCOMPARE(scalar("SELECT count(*) FROM messages WHERE contact_id = ?", {other.id}), 0);
        QCOMPARE(text("SELECT sender_id FROM messages WHERE conversation_id = ?", {conv.id}), kept.id);
        QCOMPARE(text("SELECT contact_id FROM widget_visitors WHERE id = 'visitor_1'"), kept.id);
        QCOMPARE(
            scalar("SELECT count(*) FROM segment_members m JOIN contacts c ON c.seq = m.contact_seq WHERE c.id = ?",
                   {kept.id}),
            1);
        QCOMPARE(text("SELECT contact_id FROM campaign_suppressions WHERE id = 'sup_1'"), kept.id);
        QCOMPARE(text("SELECT contact_id FROM bulk_recipients"), kept.id);
        const QString enrolled = "SELECT e.contact_id FROM campaign_enrolments e JOIN campaigns c ON c.seq = "
                                 "e.campaign_seq WHERE c.id = ? ORDER BY e.seq";
        QCOMPARE(text(enrolled, {"camp_b"}), kept.id);
        QCOMPARE(scalar("SELECT count(*) FROM campaign_enrolments WHERE contact_id = ?", {other.id}), 1); // camp_a's
        // Search finds the kept contact by the phone it took.
        ContactQuery q;
        q.search = QStringLiteral("532 123 45 67");
        QCOMPARE(ids(contacts.list(q).items), QStringList{kept.id});
        // The events, all in the outbox: each moved row's, then the removed and the kept contact's.
        QCOMPARE(scalar("SELECT count(*) FROM outbox") - outboxBefore, 5);
        const QJsonObject deleted = outboxData("contact.deleted").constLast();
        QCOMPARE(deleted.value("contactId").toString(), other.id);
        QCOMPARE(deleted.value("mergedInto").toString(), kept.id);
        QCOMPARE(deleted.value("mergeId").toString(), r.mergeId);
        const QJsonObject updated = outboxData("contact.updated").constLast();
        QCOMPARE(updated.value("contactId").toString(), kept.id);
        QCOMPARE(updated.value("mergedFrom").toArray(), QJsonArray{other.id});
        QVERIFY(updated.value("changedFields").toArray().contains(QJsonValue("phone")));
        QVERIFY(updated.value("changedFields").toArray().contains(QJsonValue("notes")));
        QCOMPARE(outboxData("deal.updated").constLast().value("previousContactId").toString(), other.id);
        QCOMPARE(outboxData("task.updated").constLast().value("contactId").toString(), kept.id);
        QCOMPARE(outboxData("conversation.updated").constLast().value("contactId").toString(), kept.id);
        // The removed id now says where it went.
        QCOMPARE(ContactMerge(store).mergedInto(other.id), kept.id);

        const MergeUndone u = ContactMerge(store).undo(r.mergeId);
        QCOMPARE(ids(u.restored), QStringList{other.id});
        const Contact back = contacts.get(other.id);
        QCOMPARE(back.email, other.email);
        QCOMPARE(back.phone, other.phone);
        QCOMPARE(back.tags, other.tags);
        QCOMPARE(back.customFields, other.customFields);
        QCOMPARE(back.createdAt, other.createdAt);
        QCOMPARE(back.totalMessages, 1);
        const Contact k2 = contacts.get(kept.id);
        QCOMPARE(k2.phone, QString());
        QCOMPARE(k2.position, QString());
        QCOMPARE(k2.tags, kept.tags);
        QCOMPARE(k2.customFields, kept.customFields);
        QCOMPARE(k2.leadScore, 0);
        QCOMPARE(k2.totalMessages, 0);
        QCOMPARE(contacts.notes(kept.id).size(), 1);
        QCOMPARE(contacts.notes(other.id).size(), 2);
        QCOMPARE(DealRepository(store).get(deal.id).contactId, other.id);
        QCOMPARE(TaskRepository(store).get(task.id).contactId, other.id);
        QCOMPARE(conversations.get(conv.id).contactId, other.id);
        QCOMPARE(scalar("SELECT count(*) FROM messages WHERE contact_id = ?", {other.id}), 1);
        QCOMPARE(text("SELECT sender_id FROM messages WHERE conversation_id = ?", {conv.id}), other.id);
        QCOMPARE(text("SELECT contact_id FROM widget_visitors WHERE id = 'visitor_1'"), other.id);
        QCOMPARE(
            scalar("SELECT count(*) FROM segment_members m JOIN contacts c ON c.seq = m.contact_seq WHERE c.id = ?",
                   {kept.id}),
            0);
        QCOMPARE(
            scalar("SELECT count(*) FROM segment_members m JOIN contacts c ON c.seq = m.contact_seq WHERE c.id = ?",
                   {other.id}),
            1);
        QCOMPARE(text("SELECT contact_id FROM campaign_suppressions WHERE id = 'sup_1'"), other.id);
        QCOMPARE(text("SELECT contact_id FROM bulk_recipients"), other.id);
        QCOMPARE(text(enrolled, {"camp_b"}), other.id);
        QCOMPARE(scalar("SELECT count(*) FROM campaign_enrolments WHERE contact_id = ?", {other.id}), 2);
        QCOMPARE(scalar("SELECT count(*) FROM campaign_enrolments WHERE contact_id = ?", {kept.id}), 1);
        q.search = QStringLiteral("532 123 45 67");
        QCOMPARE(ids(contacts.list(q).items), QStringList{other.id});
        QCOMPARE(outboxData("contact.created").constLast().value("unmergedFrom").toString(), kept.id);
        QCOMPARE(ContactMerge(store).mergedInto(other.id), QString());
        // Once only.
        QCOMPARE(refusalOf([&] { ContactMerge(store).undo(r.mergeId); }).second, int(DomainError::Conflict));
    }

    void undoKeepsWhatChangedSince()
    {
        const Store store = testStore();
        ContactRepository contacts(store);
        const Contact kept = create({{"firstName", "Ali"}, {"lastName", "Kaya"}, {"email", "ali@kuzey.com"}});
        const Contact other =
            create({{"firstName", "Ali"}, {"lastName", "Kaya"}, {"phone", "+905551112233"}, {"company", "Kuzey"}});
        const MergeResult r = ContactMerge(store).merge(kept.id, {other.id});
        QCOMPARE(r.filledFields, QStringList({"phone", "company"}));
        ContactChanges ch;
        ch.company = QStringLiteral("Kuzey Lojistik"); // a person's change after the merge stays
        contacts.update(kept.id, ch);
        contacts.addNote(kept.id, "Sonradan");
        ContactMerge(store).undo(r.mergeId);
        const Contact k = contacts.get(kept.id);
        QCOMPARE(k.company, QString("Kuzey Lojistik"));
        QCOMPARE(k.phone, QString());
        QCOMPARE(contacts.notes(kept.id).size(), 1);
        QCOMPARE(contacts.get(other.id).phone, QString("+905551112233"));
    }

    void refusals()
    {
        const Store store = testStore();
        ContactMerge merge(store);
        const Contact a = create({{"firstName", "A"}, {"email", "a@example.com"}});
        const Contact b = create({{"firstName", "B"}, {"email", "b@example.com"}});
        const Contact c = create({{"firstName", "C"}, {"email", "c@example.com"}});
        const auto refusal = [&](const QString &keep, const QStringList &others) {
            return refusalOf([&] { merge.merge(keep, others); });
        };
        QCOMPARE(refusal(a.id, {}), qMakePair(QString("otherIds"), int(DomainError::Unprocessable)));
        QCOMPARE(refusal(a.id, {a.id}), qMakePair(QString("otherIds"), int(DomainError::BadRequest)));
        QCOMPARE(refusal(a.id, {b.id, b.id}), qMakePair(QString("otherIds"), int(DomainError::BadRequest)));
        QCOMPARE(refusal(a.id, {""}), qMakePair(QString("otherIds"), int(DomainError::BadRequest)));
        QStringList many;
        for (int i = 0; i <= ContactMerge::kMaxOthers; ++i)
            many << QStringLiteral("contact_%1").arg(i);
        QCOMPARE(refusal(a.id, many), qMakePair(QString("otherIds"), int(DomainError::BadRequest)));
        QCOMPARE(refusal(a.id, {"contact_nobody"}), qMakePair(QString("otherIds"), int(DomainError::Unprocessable)));
        QCOMPARE(refusal("contact_nobody", {b.id}).second, int(DomainError::NotFound));
        // Nothing was written by any of them.
        QCOMPARE(scalar("SELECT count(*) FROM contacts"), 3);
        QCOMPARE(scalar("SELECT count(*) FROM contact_merges"), 0);

        const MergeResult r = merge.merge(a.id, {b.id});
        // A contact merged away: Conflict naming where it went, as the kept one or as another.
        try {
            merge.merge(b.id, {c.id});
            QFAIL("merged a removed contact");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Conflict);
            QCOMPARE(e.data().value("mergedInto").toString(), a.id);
        }
        QCOMPARE(refusal(c.id, {b.id}).second, int(DomainError::Conflict));
        QCOMPARE(refusalOf([&] { merge.undo("merge_nobody"); }).second, int(DomainError::NotFound));
        // The removed contact's e-mail taken by a new contact since: the undo is refused, nothing changes.
        const Contact taker = create({{"firstName", "D"}, {"email", "b@example.com"}});
        QCOMPARE(refusalOf([&] { merge.undo(r.mergeId); }).second, int(DomainError::Conflict));
        QVERIFY(!ContactRepository(store).find(b.id));
        QCOMPARE(merge.mergedInto(b.id), a.id);
        ContactRepository(store).remove(taker.id);
        // The kept contact deleted since: nothing to put the rows back from.
        ContactRepository(store).remove(a.id);
        QCOMPARE(refusalOf([&] { merge.undo(r.mergeId); }).second, int(DomainError::Conflict));
    }

    void twoMergesOfOneContactAtOnce()
    {
        // Rounds of two threads (each its own connection) merging the same contact into two others
        // at the same moment: one wins, the other is refused, and nothing is half-moved.
        for (int round = 0; round < 4; ++round) {
            const QString n = QString::number(round);
            const Contact x = create({{"firstName", "X" + n}, {"email", "x" + n + "@example.com"}});
            const Contact y = create({{"firstName", "Y" + n}, {"email", "y" + n + "@example.com"}});
            const Contact o = create({{"firstName", "O" + n}, {"email", "o" + n + "@example.com"}});
            for (int i = 0; i < 3; ++i)
                ContactRepository(testStore()).addNote(o.id, "not " + QString::number(i));
            std::atomic<int> ready{0};
            std::atomic<int> won{0};
            std::atomic<int> refused{0};
            auto run = [&](const QString &keep) {
                ++ready;
                while (ready.load() < 2) {
                }
                try {
                    ContactMerge(testStore()).merge(keep, {o.id});
                    ++won;
                } catch (const DomainError &e) {
                    if (e.kind() == DomainError::Conflict || e.kind() == DomainError::NotFound ||
                        e.kind() == DomainError::Unprocessable)
                        ++refused;
                }
                Database::closeThreadConnection();
            };
            std::thread t1(run, x.id);
            std::thread t2(run, y.id);
            t1.join();
            t2.join();
            QCOMPARE(won.load(), 1);
            QCOMPARE(refused.load(), 1);
            const qint64 onX = scalar("SELECT count(*) FROM contact_notes n JOIN contacts c ON c.seq = n.contact_seq "
                                      "WHERE c.id = ?",
                                      {x.id});
            const qint64 onY = scalar("SELECT count(*) FROM contact_notes n JOIN contacts c ON c.seq = n.contact_seq "
                                      "WHERE c.id = ?",
                                      {y.id});
            QCOMPARE(onX + onY, 3);
            QVERIFY(onX == 0 || onY == 0);
            QVERIFY(!ContactRepository(testStore()).find(o.id));
        }
    }

    void previewSaysWhatWouldMove()
    {
        const Store store = testStore();
        const Contact kept = create({{"firstName", "Ayşe"}, {"lastName", "Yılmaz"}, {"email", "ayse@example.com"}});
        const Contact other = create({{"firstName", "Ayse"}, {"lastName", "Yilmaz"}, {"phone", "+905321112233"}});
        ContactRepository(store).addNote(other.id, "Not");
        DealRepository(store).create(DealRules::parse({{"name", "D"}, {"value", 5}, {"contactId", other.id}}));
        const MergePreview p = ContactMerge(store).preview(kept.id, {other.id});
        QCOMPARE(p.moves.notes, 1);
        QCOMPARE(p.moves.deals, 1);
        QCOMPARE(p.moves.total(), 2);
        QCOMPARE(p.filledFields, QStringList{"phone"});
        QCOMPARE(p.result.phone, QString("+905321112233"));
        QCOMPARE(p.notKept, QStringList()); // the other had no e-mail, and its phone is taken
        const Contact third = create({{"firstName", "Ayşe"}, {"lastName", "Yılmaz"}, {"email", "ay@example.org"}});
        QCOMPARE(ContactMerge(store).preview(kept.id, {other.id, third.id}).notKept, QStringList{"ay@example.org"});
        QVERIFY(ContactRepository(store).find(other.id)); // nothing written
    }
};

QTEST_GUILESS_MAIN(TestContactMerge)
#include "test_contactmerge.moc"
