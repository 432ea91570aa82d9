// SegmentRepository over a temporary database: outbox events written with each change, bus
// notifications after the commit, static membership kept across changes, freezing a dynamic
// segment into a static one and back, and the cascade when a contact is deleted.
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QtTest>

#include <optional>

namespace {
QJsonObject vipRules()
{
    return {{"logic", "AND"},
            {"rules", QJsonArray{QJsonObject{{"field", "tags"}, {"operator", "equals"}, {"value", "vip"}}}}};
}

// The outbox events, oldest first: (event, data).
QVector<QPair<QString, QJsonObject>> events()
{
    QVector<QPair<QString, QJsonObject>> out;
    QSqlQuery q = Database::exec("SELECT event, payload FROM outbox ORDER BY seq");
    while (q.next())
        out.append({q.value(0).toString(),
                    QJsonDocument::fromJson(q.value(1).toByteArray()).object().value("data").toObject()});
    return out;
}

QStringList eventNames()
{
    QStringList out;
    for (const auto &e : events())
        out << e.first;
    return out;
}
} // namespace

class TestSegmentRepository : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    EventBus m_bus;
    QStringList m_contacts;

private slots:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        ContactRepository contacts(testStore());
        m_contacts.clear();
        m_contacts << contacts
                          .create(ContactRules::parse(
                              {{"firstName", "A"}, {"email", "a@example.com"}, {"tags", QJsonArray{"vip"}}}))
                          .id;
        m_contacts << contacts.create(ContactRules::parse({{"firstName", "B"}, {"email", "b@example.com"}})).id;
        m_contacts << contacts
                          .create(ContactRules::parse(
                              {{"firstName", "C"}, {"email", "c@example.com"}, {"tags", QJsonArray{"VIP"}}}))
                          .id;
        Database::exec("DELETE FROM outbox");
    }

    void cleanup() { m_db.reset(); }

    // The segment dialog's typed changes meet the rules of a request body: the same values typed
    // and as JSON are refused on the same field with the same kind, or stored alike.
    void segmentChangesMeetTheBodyRules_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("description");
        QTest::addColumn<QJsonValue>("filters");
        QTest::addColumn<QString>("badField"); // empty: accepted
        QTest::addColumn<int>("kind");
        const int bad = DomainError::BadRequest, missing = DomainError::Unprocessable;
        const QJsonValue none(QJsonValue::Null);
        QTest::newRow("trimmed name, rules") << "  VIP  "
                                             << " müşteriler " << QJsonValue(vipRules()) << "" << -1;
        QTest::newRow("static without rules") << "Elle"
                                              << "" << none << "" << -1;
        QTest::newRow("blank name") << "   "
                                    << "" << none << "name" << missing;
        QTest::newRow("name too long") << QString(101, QLatin1Char('a')) << "" << none << "name" << bad;
        QTest::newRow("description too long")
            << "Uzun" << QString(1001, QLatin1Char('a')) << none << "description" << bad;
        QTest::newRow("empty rules") << "Boş"
                                     << "" << QJsonValue(QJsonObject{{"rules", QJsonArray{}}}) << "rules" << bad;
        QTest::newRow("unknown field")
            << "Bilinmeyen"
            << ""
            << QJsonValue(QJsonObject{
                   {"rules", QJsonArray{QJsonObject{{"field", "shoeSize"}, {"operator", "equals"}, {"value", 42}}}}})
            << "rules[0]" << bad;
    }
    void segmentChangesMeetTheBodyRules()
    {
        QFETCH(QString, name);
        QFETCH(QString, description);
        QFETCH(QJsonValue, filters);
        QFETCH(QString, badField);
        QFETCH(int, kind);
        SegmentChanges typed;
        typed.name = name;
        typed.description = description;
        typed.filters = filters;
        typed.isDynamic = filters.isObject();
        QCOMPARE(refusalOf([&] { SegmentRules::check(typed); }), qMakePair(badField, kind));
        std::optional<SegmentChanges> parsed;
        QCOMPARE(refusalOf([&] {
                     parsed = SegmentRules::parse({{"name", name},
                                                   {"description", description},
                                                   {"filters", filters},
                                                   {"isDynamic", filters.isObject()}});
                 }),
                 qMakePair(badField, kind));
        if (badField.isEmpty()) {
            SegmentRepository segments(testStore());
            const Segment a = segments.create(typed);
            parsed->name = *typed.name + QStringLiteral(" 2");
            const Segment b = segments.create(*parsed);
            QCOMPARE(a.name, name.trimmed());
            QCOMPARE(b.description, a.description);
            QCOMPARE(b.filters, a.filters);
            QCOMPARE(b.contactCount, a.contactCount);
        }
    }

    void createWritesEventAndNotifiesAfterCommit()
    {
        QSignalSpy spy(&m_bus, &EventBus::changed);
        const Segment s = SegmentRepository(Store(m_bus))
                              .create(SegmentRules::parse({{"name", "VIP"}, {"filters", vipRules()}}), "user_1");
        QCOMPARE(s.contactCount, qint64(2));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<EventBus::Entity>(), EventBus::Entity::Segment);
        QCOMPARE(spy.at(0).at(1).toString(), s.id);
        QCOMPARE(spy.at(0).at(2).value<EventBus::Change>(), EventBus::Change::Created);
        const auto e = events();
        QCOMPARE(e.size(), 1);
        QCOMPARE(e.at(0).first, QString("segment.created"));
        QCOMPARE(e.at(0).second.value("segmentId").toString(), s.id);
        QCOMPARE(e.at(0).second.value("name").toString(), QString("VIP"));
        QCOMPARE(e.at(0).second.value("filters").toObject(), vipRules());
    }

    void failedChangesLeaveNothing()
    {
        SegmentRepository repo{Store(m_bus)};
        repo.create(SegmentRules::parse({{"name", "VIP"}, {"filters", vipRules()}}));
        QSignalSpy spy(&m_bus, &EventBus::changed);
        QVERIFY_THROWS_EXCEPTION(DomainError,
                                 repo.create(SegmentRules::parse({{"name", "vip"}, {"filters", vipRules()}})));
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.create(SegmentRules::parse(
                                                  {{"name", "X"}, {"filters", QJsonObject{{"rules", QJsonArray{}}}}})));
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.addContacts(repo.list().at(0).id, {m_contacts.at(0)}));
        QCOMPARE(spy.count(), 0);
        QCOMPARE(eventNames(), QStringList{"segment.created"});
        QCOMPARE(repo.list().size(), 1);
    }

    void updateWithoutChangeWritesNoEvent()
    {
        SegmentRepository repo{Store(m_bus)};
        const Segment s = repo.create(SegmentRules::parse({{"name", "VIP"}, {"filters", vipRules()}}));
        repo.update(s.id, SegmentRules::parse({{"name", "VIP"}, {"filters", vipRules()}}));
        QCOMPARE(eventNames(), QStringList{"segment.created"});
        repo.update(s.id, SegmentRules::parse({{"description", "tagged"}}));
        QCOMPARE(eventNames(), (QStringList{"segment.created", "segment.updated"}));
        QCOMPARE(events().last().second.value("changedFields").toArray(), QJsonArray{"description"});
    }

    void membershipEventsCarryTheContactIds()
    {
        SegmentRepository repo{Store(m_bus)};
        const Segment s = repo.create(SegmentRules::parse({{"name", "Picked"}, {"isDynamic", false}}));
        int added = -1;
        const Segment after = repo.addContacts(s.id, {m_contacts.at(0), m_contacts.at(1)}, {}, &added);
        QCOMPARE(added, 2);
        QCOMPARE(after.contactCount, qint64(2));
        repo.addContacts(s.id, {m_contacts.at(0)}, {}, &added);
        QCOMPARE(added, 0);
        repo.removeContact(s.id, m_contacts.at(1));
        QCOMPARE(eventNames(), (QStringList{"segment.created", "segment.contacts_added", "segment.contacts_removed"}));
        QCOMPARE(events().at(1).second.value("contactIds").toArray(), (QJsonArray{m_contacts.at(0), m_contacts.at(1)}));
        QCOMPARE(events().at(2).second.value("contactIds").toArray(), QJsonArray{m_contacts.at(1)});
    }

    void deletedContactLeavesStaticSegments()
    {
        SegmentRepository repo{Store(m_bus)};
        const Segment one =
            repo.create(SegmentRules::parse({{"name", "One"}, {"isDynamic", false}, {"filters", vipRules()}}));
        const Segment two = repo.create(SegmentRules::parse({{"name", "Two"}, {"isDynamic", false}}));
        repo.addContacts(two.id, {m_contacts.at(0), m_contacts.at(1)});
        QCOMPARE(repo.get(one.id).contactCount, qint64(2));
        ContactRepository(testStore()).remove(m_contacts.at(0));
        QCOMPARE(repo.get(one.id).contactCount, qint64(1));
        QCOMPARE(repo.get(two.id).contactCount, qint64(1));
        QCOMPARE(Database::exec("SELECT count(*) FROM segment_members").next(), true);
    }

    void freezingAndThawing()
    {
        SegmentRepository repo{Store(m_bus)};
        const Segment s = repo.create(SegmentRules::parse({{"name", "VIP"}, {"filters", vipRules()}}));
        Segment frozen = repo.update(s.id, SegmentRules::parse({{"isDynamic", false}}));
        QCOMPARE(frozen.isDynamic, false);
        QCOMPARE(frozen.contactCount, qint64(2));
        ContactRepository(testStore())
            .create(ContactRules::parse({{"firstName", "D"}, {"email", "d@example.com"}, {"tags", QJsonArray{"vip"}}}));
        QCOMPARE(repo.get(s.id).contactCount, qint64(2)); // frozen
        repo.removeContact(s.id, m_contacts.at(0));
        const Segment thawed = repo.update(s.id, SegmentRules::parse({{"isDynamic", true}}));
        QCOMPARE(thawed.contactCount, qint64(3)); // the rules again, not the stored members
        QSqlQuery q = Database::exec("SELECT count(*) FROM segment_members");
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        // A static segment without rules cannot become dynamic.
        const Segment bare = repo.create(SegmentRules::parse({{"name", "Bare"}, {"isDynamic", false}}));
        try {
            repo.update(bare.id, SegmentRules::parse({{"isDynamic", true}}));
            QFAIL("accepted");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Unprocessable);
        }
    }

    void listIsSortedByNameWithCounts()
    {
        SegmentRepository repo(testStore());
        repo.create(SegmentRules::parse({{"name", "beta"}, {"filters", vipRules()}}));
        repo.create(SegmentRules::parse({{"name", "Alpha"}, {"isDynamic", false}}));
        const QVector<Segment> list = repo.list();
        QCOMPARE(list.size(), 2);
        QCOMPARE(list.at(0).name, QString("Alpha"));
        QCOMPARE(list.at(0).contactCount, qint64(0));
        QCOMPARE(list.at(1).contactCount, qint64(2));
        QCOMPARE(repo.countMatching(vipRules()), qint64(2));
    }
};

QTEST_GUILESS_MAIN(TestSegmentRepository)
#include "test_segmentrepository.moc"
