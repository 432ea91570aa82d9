// The contact repository on a real SQLite file: writes with their outbox events in one
// transaction, search, filters, tags, notes, and the schema pragmas.
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QtTest>

#include <thread>

namespace {
int outboxCount(const QString &event)
{
    QSqlQuery q = Database::exec("SELECT count(*) FROM outbox WHERE event = ?", {event});
    q.next();
    return q.value(0).toInt();
}
} // namespace

class TestContactRepository : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;

private Q_SLOTS:
    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    void usesWalAndForeignKeys()
    {
        // Foreign keys hold on either database: a tag of a contact that does not exist is refused.
        QVERIFY_THROWS_EXCEPTION(
            DatabaseError,
            Database::exec("INSERT INTO contact_tags (contact_seq, tag_norm, tag) VALUES (999999, 'x', 'x')"));
        if (Database::dialect() == Database::Dialect::PostgreSQL)
            return; // its durability is the server's own configuration, not the connection's
        QSqlQuery q = Database::exec("PRAGMA journal_mode");
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QString("wal"));
        q = Database::exec("PRAGMA foreign_keys");
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 1);
        q = Database::exec("PRAGMA synchronous");
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 2); // FULL
    }

    void migrationsAreIdempotent()
    {
        const int v = Database::migrate();
        QCOMPARE(Database::migrate(), v);
        QVERIFY(v >= 1);
    }

    void writesEventInSameTransaction()
    {
        EventBus bus;
        QSignalSpy spy(&bus, &EventBus::changed);
        ContactRepository repo{Store(bus)};
        const Contact c = repo.create(ContactRules::parse({{"firstName", "A"}, {"email", "a@example.com"}}));
        QCOMPARE(outboxCount("contact.created"), 1);
        QCOMPARE(spy.count(), 1);
        repo.update(c.id, ContactRules::parse({{"company", "Acme"}}));
        QCOMPARE(outboxCount("contact.updated"), 1);
        repo.update(c.id, ContactRules::parse({{"company", "Acme"}})); // no change: no event
        QCOMPARE(outboxCount("contact.updated"), 1);
        repo.remove(c.id);
        QCOMPARE(outboxCount("contact.deleted"), 1);
        QSqlQuery q = Database::exec("SELECT payload FROM outbox WHERE event = 'contact.created'");
        QVERIFY(q.next());
        const QJsonObject envelope = QJsonDocument::fromJson(q.value(0).toByteArray()).object();
        QVERIFY(envelope.value("id").toString().startsWith("evt_"));
        QCOMPARE(envelope.value("data").toObject().value("contactId").toString(), c.id);
        QVERIFY(envelope.value("timestamp").toString().endsWith('Z'));
    }

    void failedWriteLeavesNothing()
    {
        ContactRepository repo(testStore());
        repo.create(ContactRules::parse({{"firstName", "A"}, {"email", "same@example.com"}}));
        QVERIFY_THROWS_EXCEPTION(DomainError,
                                 repo.create(ContactRules::parse({{"firstName", "B"}, {"email", "SAME@example.com"}})));
        QCOMPARE(repo.count({}), 1);
        QCOMPARE(outboxCount("contact.created"), 1);
    }

    void rollsBackOnDatabaseError()
    {
        ContactRepository repo(testStore());
        const Contact c = repo.create(ContactRules::parse({{"firstName", "A"}, {"email", "rb@example.com"}}));
        {
            Transaction tx;
            Database::exec("UPDATE contacts SET company = 'X' WHERE id = ?", {c.id});
            // tx not committed: rolled back when it goes out of scope
        }
        QCOMPARE(repo.get(c.id).company, QString());
    }

    void searchesWithFolding()
    {
        ContactRepository repo(testStore());
        repo.create(
            ContactRules::parse({{"firstName", "İlker"}, {"lastName", "Işık"}, {"email", "ilker@example.com"}}));
        repo.create(
            ContactRules::parse({{"firstName", "Ilse"}, {"email", "ilse@example.com"}, {"phone", "+49 30 1234567"}}));
        ContactQuery q;
        q.search = "isik";
        QCOMPARE(repo.count(q), 1);
        q.search = "il";
        QCOMPARE(repo.count(q), 2);
        q.search = "30 123";
        QCOMPARE(repo.count(q), 1);
        q.search = "ilker@example.com";
        QCOMPARE(repo.count(q), 1);
    }

    void searchFollowsUpdatesAndDeletes()
    {
        ContactRepository repo(testStore());
        const Contact c = repo.create(ContactRules::parse({{"firstName", "Old"}, {"email", "o@example.com"}}));
        repo.update(c.id, ContactRules::parse({{"firstName", "Newname"}}));
        ContactQuery q;
        q.search = "old";
        QCOMPARE(repo.count(q), 0);
        q.search = "newname";
        QCOMPARE(repo.count(q), 1);
        repo.remove(c.id);
        QCOMPARE(repo.count(q), 0);
    }

    // The index written again from the contacts (db migrate-to builds PostgreSQL's this way).
    void searchIndexIsRebuilt()
    {
        ContactRepository repo(testStore());
        repo.create(ContactRules::parse({{"firstName", "Şükrü"}, {"lastName", "Öztürk"}, {"phone", "+905321234567"}}));
        repo.create(ContactRules::parse(
            {{"firstName", "Ayşe"}, {"email", "ayse@ege.com.tr"}, {"company", "Ege Tekstil A.Ş."}}));
        Database::exec(Database::dialect() == Database::Dialect::PostgreSQL ? "DELETE FROM contact_words"
                                                                            : "DELETE FROM contacts_fts");
        ContactQuery q;
        q.search = "şükrü öz";
        QCOMPARE(repo.count(q), 0);
        QCOMPARE(ContactRepository::rebuildSearch(), 2);
        QCOMPARE(repo.count(q), 1);
        q.search = "532 123";
        QCOMPARE(repo.count(q), 1);
        q.search = "ege teks";
        QCOMPARE(repo.count(q), 1);
        QCOMPARE(ContactRepository::rebuildSearch(), 2); // again: the same index, no repeats
        q.search = "ayse";
        QCOMPARE(repo.count(q), 1);
    }

    void filtersByTagsAllOfThem()
    {
        ContactRepository repo(testStore());
        repo.create(
            ContactRules::parse({{"firstName", "A"}, {"email", "a@example.com"}, {"tags", QJsonArray{"vip", "b2b"}}}));
        repo.create(ContactRules::parse({{"firstName", "B"}, {"email", "b@example.com"}, {"tags", QJsonArray{"VIP"}}}));
        ContactQuery q;
        q.tags = {"vip"};
        QCOMPARE(repo.count(q), 2);
        q.tags = {"vip", "b2b"};
        QCOMPARE(repo.count(q), 1);
        const auto counts = repo.tagCounts();
        QCOMPARE(counts.first().second, 2);
    }

    void notesAreKeptInOrder()
    {
        ContactRepository repo(testStore());
        const Contact c = repo.create(ContactRules::parse({{"firstName", "A"}, {"email", "n@example.com"}}));
        repo.addNote(c.id, "first", "user_x");
        repo.addNote(c.id, "second");
        const auto notes = repo.notes(c.id);
        QCOMPARE(notes.size(), 2);
        QCOMPARE(notes.at(0).content, QString("first"));
        QCOMPARE(notes.at(0).createdBy, QString("user_x"));
        QVERIFY_THROWS_EXCEPTION(DomainError, repo.addNote(c.id, "   "));
        repo.remove(c.id);
        QSqlQuery q = Database::exec("SELECT count(*) FROM contact_notes");
        q.next();
        QCOMPARE(q.value(0).toInt(), 0);
    }

    void pagesAreStableNewestFirst()
    {
        ContactRepository repo(testStore());
        QStringList ids;
        for (int i = 0; i < 7; ++i)
            ids.prepend(repo.create(ContactRules::parse({{"firstName", QString::number(i)},
                                                         {"email", QString("p%1@example.com").arg(i)}}))
                            .id);
        ContactQuery q;
        q.limit = 3;
        QStringList seen;
        for (q.page = 1; q.page <= 3; ++q.page) {
            for (const Contact &c : repo.list(q).items)
                seen << c.id;
        }
        QCOMPARE(seen, ids);
    }

    // listPage() is list() without the count. Given the count (knownTotal), a large result is
    // walked along contacts_created instead of sorted; either way the pages are the same, newest
    // first, ties broken by seq.
    void listPageMatchesListWhicheverPlan()
    {
        ContactRepository repo(testStore());
        QVector<QJsonObject> bodies;
        for (int i = 0; i < 60; ++i) {
            QJsonObject b{{"firstName", QString::number(i)},
                          {"email", QString("w%1@example.com").arg(i)},
                          {"createdAt", QString("2026-01-%1T10:00:00Z").arg(1 + i / 3, 2, 10, QChar('0'))}};
            if (i % 3 != 2)
                b.insert("tags", QJsonArray{"many"});
            if (i % 20 == 0)
                b.insert("tags", QJsonArray{"few"});
            bodies << b;
        }
        repo.insertBulk(bodies);
        for (const QString &tag : {QStringLiteral("many"), QStringLiteral("few")}) {
            ContactQuery q;
            q.tags = {tag};
            q.limit = 7;
            const qint64 total = repo.count(q);
            QVERIFY(total > 0);
            QStringList viaList, unknownTotal, knownTotal;
            for (q.page = 1; (q.page - 1) * q.limit < total + q.limit; ++q.page) {
                q.knownTotal = -1;
                for (const Contact &c : repo.list(q).items)
                    viaList << c.id;
                for (const Contact &c : repo.listPage(q))
                    unknownTotal << c.id;
                q.knownTotal = total;
                for (const Contact &c : repo.listPage(q))
                    knownTotal << c.id;
            }
            QCOMPARE(viaList.size(), int(total));
            QCOMPARE(unknownTotal, viaList);
            QCOMPARE(knownTotal, viaList);
        }
    }

    // The list's orders: names and companies compared as search folds them (Ç among the C's, İ and
    // I as i), blanks last in ascending order, equal keys by creation; every page of an order
    // agrees with one read of the whole order.
    void sortsByNameCompanyAndCreation_data()
    {
        QTest::addColumn<int>("sort");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("newest") << int(ContactSort::Newest)
                                << QStringList{"ismail", "Zeynep", "ahmet", "İbrahim", "Çağla", "Cem", "Ayşe"};
        QTest::newRow("oldest") << int(ContactSort::Oldest)
                                << QStringList{"Ayşe", "Cem", "Çağla", "İbrahim", "ahmet", "Zeynep", "ismail"};
        QTest::newRow("name a-z") << int(ContactSort::NameAscending)
                                  << QStringList{"ahmet", "Ayşe", "Çağla", "Cem", "İbrahim", "ismail", "Zeynep"};
        QTest::newRow("name z-a") << int(ContactSort::NameDescending)
                                  << QStringList{"Zeynep", "ismail", "İbrahim", "Cem", "Çağla", "Ayşe", "ahmet"};
        // Companies: Öz (Ayşe, Cem: equal keys by creation), Anadolu (İbrahim), zirve (Zeynep),
        // none (the rest, last).
        QTest::newRow("company a-z") << int(ContactSort::CompanyAscending)
                                     << QStringList{"İbrahim", "Ayşe", "Cem", "Zeynep", "Çağla", "ahmet", "ismail"};
        QTest::newRow("company z-a") << int(ContactSort::CompanyDescending)
                                     << QStringList{"ismail", "ahmet", "Çağla", "Zeynep", "Cem", "Ayşe", "İbrahim"};
    }
    void sortsByNameCompanyAndCreation()
    {
        QFETCH(int, sort);
        QFETCH(QStringList, expected);
        ContactRepository repo(testStore());
        const QList<std::pair<QString, QString>> people = {
            {"Ayşe", "Öz Gıda"}, {"Cem", "oz gida"},  {"Çağla", ""},        {"İbrahim", "Anadolu"},
            {"ahmet", "  "},     {"Zeynep", "zirve"}, {"ismail", QString()}};
        QVector<QJsonObject> bodies;
        for (int i = 0; i < people.size(); ++i)
            bodies << QJsonObject{{"firstName", people[i].first},
                                  {"company", people[i].second},
                                  {"email", QString("s%1@example.com").arg(i)},
                                  {"createdAt", QString("2026-01-0%1T10:00:00Z").arg(i + 1)}};
        repo.insertBulk(bodies);
        ContactQuery q;
        q.sort = ContactSort(sort);
        q.limit = 100;
        QStringList names;
        for (const Contact &c : repo.list(q).items)
            names << c.firstName;
        QCOMPARE(names, expected);
        // Page by page (the view reads blocks): the same order.
        QStringList paged;
        q.limit = 2;
        for (q.page = 1; q.page <= 4; ++q.page) {
            for (const Contact &c : repo.listPage(q))
                paged << c.firstName;
        }
        QCOMPARE(paged, expected);
        // An update keeps the key current: Zeynep renamed Ada comes first by name.
        if (ContactSort(sort) == ContactSort::NameAscending) {
            QString id;
            for (const Contact &c : repo.list(ContactQuery{}).items) {
                if (c.firstName == "Zeynep")
                    id = c.id;
            }
            QVERIFY(!id.isEmpty());
            repo.update(id, ContactRules::parse({{"firstName", "Ada"}}));
            q.page = 1;
            q.limit = 1;
            QCOMPARE(repo.listPage(q).value(0).firstName, QString("Ada"));
        }
    }

    void readTransactionSeesOneState()
    {
        ContactRepository repo(testStore());
        repo.create(ContactRules::parse({{"firstName", "A"}, {"email", "a@example.com"}}));
        auto countAll = [] {
            QSqlQuery q = Database::exec("SELECT count(*) FROM contacts");
            q.next();
            return q.value(0).toInt();
        };
        // Another thread's write after the snapshot began is not seen until it ends.
        {
            const ReadTransaction snapshot;
            QCOMPARE(countAll(), 1);
            std::thread writer([] {
                ContactRepository(testStore())
                    .create(ContactRules::parse({{"firstName", "B"}, {"email", "b@example.com"}}));
                Database::closeThreadConnection();
            });
            writer.join();
            QCOMPARE(countAll(), 1);
            QCOMPARE(repo.list(ContactQuery{}).total, 1); // nested: the same snapshot
            // A write transaction cannot start inside it.
            QVERIFY_THROWS_EXCEPTION(DatabaseError, Transaction());
        }
        QCOMPARE(countAll(), 2);
        // Inside a write transaction it changes nothing, and the write commits.
        {
            Transaction tx;
            repo.create(ContactRules::parse({{"firstName", "C"}, {"email", "c@example.com"}}));
            {
                const ReadTransaction inner;
                QCOMPARE(countAll(), 3);
            }
            tx.commit();
        }
        QCOMPARE(countAll(), 3);
    }

    // list() reads a search's matches once when they are at most 1,000 and runs the full-text query
    // inside the count and the page otherwise: both give the same totals and pages.
    void searchFindsFewAndManyAlike()
    {
        ContactRepository repo(testStore());
        QVector<QJsonObject> bodies;
        for (int i = 0; i < 1003; ++i) {
            QJsonObject b{{"firstName", "Toplu"},
                          {"lastName", QString::number(i)},
                          {"email", QString("toplu%1@example.com").arg(i)},
                          {"createdAt", QString("2026-02-%1T10:00:00Z").arg(1 + i % 28, 2, 10, QChar('0'))}};
            if (i % 100 == 0)
                b.insert("tags", QJsonArray{"seyrek"});
            bodies << b;
        }
        repo.insertBulk(bodies);
        repo.create(ContactRules::parse({{"firstName", "Nadir"}, {"email", "nadir@example.com"}}));

        auto ids = [&repo](ContactQuery q) {
            QStringList out;
            for (q.page = 1; q.page <= 200; ++q.page) {
                const ContactPage page = repo.list(q);
                for (const Contact &c : page.items)
                    out << c.id;
                if (page.items.isEmpty() || out.size() >= page.total)
                    break;
            }
            return out;
        };
        ContactQuery many;
        many.search = "toplu";
        many.limit = 100;
        QCOMPARE(repo.list(many).total, 1003); // more than 1,000: the full-text path
        const QStringList manyIds = ids(many);
        QCOMPARE(manyIds.size(), 1003);
        QCOMPARE(QSet<QString>(manyIds.cbegin(), manyIds.cend()).size(), 1003);

        ContactQuery manyTagged = many; // the full-text path with a tag: 11 matches
        manyTagged.tags = {"seyrek"};
        QCOMPARE(repo.list(manyTagged).total, 11);
        ContactQuery byTag; // the same contacts without a search
        byTag.tags = {"seyrek"};
        byTag.limit = 100;
        QCOMPARE(ids(manyTagged), ids(byTag));

        ContactQuery few; // "toplu 10": last names 10, 100-109, 1000-1002, the few path
        few.search = "toplu 10";
        few.limit = 5;
        QCOMPARE(repo.list(few).total, 14);
        QCOMPARE(ids(few).size(), 14);
        few.tags = {"seyrek"}; // and with a tag: 100 and 1000
        QStringList names;
        for (const Contact &c : repo.list(few).items)
            names << c.lastName;
        names.sort();
        QCOMPARE(names, QStringList({"100", "1000"}));

        // A rare word's few documents checked for the other words, or the full query when no word is rare.
        for (const auto &[search, total] : {std::pair<QString, int>{"nadir 10", 0},
                                            {"10 toplu", 14},
                                            {"nadir example", 1},
                                            {"toplu example", 1003},
                                            {"TOPLU 1002", 1}}) {
            ContactQuery q;
            q.search = search;
            QCOMPARE(repo.list(q).total, total);
        }

        ContactQuery one;
        one.search = "nadir";
        QCOMPARE(repo.list(one).total, 1);
        one.search = "yok";
        QCOMPARE(repo.list(one).total, 0);
        QVERIFY(repo.list(one).items.isEmpty());
        many.page = 11; // past the end
        QCOMPARE(repo.list(many).items.size(), 3);
    }
};

QTEST_GUILESS_MAIN(TestContactRepository)
#include "test_contactrepository.moc"
