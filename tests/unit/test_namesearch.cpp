// The lists' search by name (the window's search boxes and "Jump to"): a task query's search over
// the title, a deal query's over the name, a conversation query's contactSearch over the contact's
// name. Every word typed begins a word (at the start or after a space), folded as the contacts'
// search folds text (case, accents, the Turkish dotted and dotless i); the total counts the same
// rows as the page. Runs on SQLite and, as unit_namesearch_pg, on PostgreSQL.
#include "model/contacts/contactrepository.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/modelsupport.h"

#include <QtTest>

class TestNameSearch : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;

    static QStringList taskTitles(const QString &search)
    {
        TaskQuery q;
        q.search = search;
        q.limit = 100;
        const TaskPage page = TaskRepository(testStore()).list(q);
        QStringList titles;
        for (const Task &t : page.items)
            titles << t.title;
        titles.sort();
        if (page.total != titles.size())
            titles << QStringLiteral("total %1").arg(page.total);
        return titles;
    }

    static QStringList dealNames(const QString &search)
    {
        DealQuery q;
        q.search = search;
        q.limit = 100;
        const DealPage page = DealRepository(testStore()).list(q);
        QStringList names;
        for (const Deal &d : page.items)
            names << d.name;
        names.sort();
        if (page.total != names.size())
            names << QStringLiteral("total %1").arg(page.total);
        return names;
    }

    static QStringList conversationNames(const QString &search)
    {
        ConversationQuery q;
        q.contactSearch = search;
        q.limit = 100;
        const ConversationPage page = ConversationRepository(testStore()).list(q);
        QStringList names;
        for (const Conversation &v : page.items)
            names << v.contactName();
        names.sort();
        if (page.total != names.size())
            names << QStringLiteral("total %1").arg(page.total);
        return names;
    }

private Q_SLOTS:
    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    void tasksByTitle()
    {
        TaskRepository tasks(testStore());
        for (const char *title :
             {"Şükrü Bey'i ara", "Aramayı planla", "Teklif gönder", "İZMİR ziyareti", "Kararı bekle"})
            tasks.create(TaskRules::parse({{"title", QString::fromUtf8(title)}}));
        QCOMPARE(taskTitles(""),
                 QStringList({"Aramayı planla", "Kararı bekle", "Teklif gönder", "İZMİR ziyareti", "Şükrü Bey'i ara"}));
        // A word's start, not its middle: "ara" is not in "Kararı".
        QCOMPARE(taskTitles("ara"), QStringList({"Aramayı planla", "Şükrü Bey'i ara"}));
        QCOMPARE(taskTitles("sukru"), QStringList{"Şükrü Bey'i ara"});
        QCOMPARE(taskTitles("ŞÜKRÜ ARA"), QStringList{"Şükrü Bey'i ara"});
        QCOMPARE(taskTitles("izmir"), QStringList{"İZMİR ziyareti"});
        QCOMPARE(taskTitles("ızmır"), QStringList{"İZMİR ziyareti"});
        QCOMPARE(taskTitles("teklif planla"), QStringList());
        QCOMPARE(taskTitles("%"), QStringList({"Aramayı planla", "Kararı bekle", "Teklif gönder", "İZMİR ziyareti",
                                               "Şükrü Bey'i ara"}));                    // no word: no condition
        QCOMPARE(taskTitles("a_"), QStringList({"Aramayı planla", "Şükrü Bey'i ara"})); // "_" is no wildcard
    }

    void dealsByName()
    {
        DealRepository deals(testStore());
        for (const char *name : {"Danışmanlık", "Demirci lisans yenileme", "Lisans ek paket"})
            deals.create(DealRules::parse({{"name", QString::fromUtf8(name)}, {"value", 100}}));
        QCOMPARE(dealNames("lisans"), QStringList({"Demirci lisans yenileme", "Lisans ek paket"}));
        QCOMPARE(dealNames("DANIS"), QStringList{"Danışmanlık"});
        QCOMPARE(dealNames("lisans dem"), QStringList{"Demirci lisans yenileme"});
        QCOMPARE(dealNames("isans"), QStringList());
    }

    void conversationsByContactName()
    {
        ContactRepository contacts(testStore());
        ConversationRepository conversations(testStore());
        const QString sukru = contacts
                                  .create(ContactRules::parse(
                                      {{"firstName", "Şükrü"}, {"lastName", "Demirci"}, {"email", "s@ornek.com.tr"}}))
                                  .id;
        const QString ayse =
            contacts.create(ContactRules::parse({{"firstName", "Ayşe"}, {"phone", "+905321234567"}})).id;
        conversations.findOrCreate(sukru, "whatsapp", "+905320000001");
        conversations.findOrCreate(sukru, "widget", "visitor_1");
        conversations.findOrCreate(ayse, "telegram", "42");
        QCOMPARE(conversationNames("demirci"), QStringList({"Şükrü Demirci", "Şükrü Demirci"}));
        QCOMPARE(conversationNames("AYSE"), QStringList{"Ayşe"});
        QCOMPARE(conversationNames("sukru dem"), QStringList({"Şükrü Demirci", "Şükrü Demirci"}));
        QCOMPARE(conversationNames("emirci"), QStringList());
        QCOMPARE(conversationNames("ornek"), QStringList()); // the name, not the e-mail
    }
};

QTEST_GUILESS_MAIN(TestNameSearch)
#include "test_namesearch.moc"
