// The window's changes carry its signed-in user: a store acting as a user (Store::actingAs) has it
// recorded as the tasks' createdBy, completedBy and note author, the contact notes' author, the
// deal activities' user, a segment's creator and a new API key's owner when a call names nobody;
// a named actor still wins, and the server's stores (no acting user) record nobody.
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/deals/dealrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/modelsupport.h"

#include <QSqlQuery>
#include <QtTest>

class TestTaskActor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultActorIsRecorded()
    {
        TempDatabase db;
        const User desk = UserRepository(testStore())
                              .create(QStringLiteral("desk@example.com"), QStringLiteral("Desk"),
                                      QStringLiteral("admin"), QStringLiteral("x"));
        // The window's store acts as its signed-in user.
        const Store::Actor signedIn{desk.id, desk.name, desk.role};
        TaskRepository tasks(testStore().actingAs(signedIn));
        const Task t = tasks.create(TaskRules::parse({{QStringLiteral("title"), QStringLiteral("Call Ayşe")}}));
        tasks.addNote(t.id, QStringLiteral("Left a voicemail"));
        const Task done = tasks.setStatus(t.id, QStringLiteral("completed")).task;
        QCOMPARE(done.completedBy, desk.id);
        QSqlQuery q = Database::exec(QStringLiteral("SELECT created_by FROM tasks WHERE id = ?"), {t.id});
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), desk.id);
        QSqlQuery n = Database::exec(QStringLiteral("SELECT created_by FROM task_notes"));
        QVERIFY(n.next());
        QCOMPARE(n.value(0).toString(), desk.id);
        // A named actor wins over the default.
        const Task other = tasks.create(TaskRules::parse({{QStringLiteral("title"), QStringLiteral("Other")}}),
                                        QStringLiteral("apikey_1"));
        QSqlQuery o = Database::exec(QStringLiteral("SELECT created_by FROM tasks WHERE id = ?"), {other.id});
        QVERIFY(o.next());
        QCOMPARE(o.value(0).toString(), QStringLiteral("apikey_1"));
        // A store without an acting user (the server's): nobody.
        TaskRepository plain(testStore());
        const Task anonymous = plain.create(TaskRules::parse({{QStringLiteral("title"), QStringLiteral("Nobody")}}));
        QCOMPARE(plain.setStatus(anonymous.id, QStringLiteral("completed")).task.completedBy, QString());
        Database::closeThreadConnection();
    }

    void actingUserIsRecordedEverywhere()
    {
        TempDatabase db;
        const User agent = UserRepository(testStore())
                               .create(QStringLiteral("murat@ornek.com.tr"), QStringLiteral("Murat Çelik"),
                                       QStringLiteral("agent"), QStringLiteral("x"));
        Store::Actor signedIn{agent.id, agent.name, agent.role};
        const Store desk = testStore().actingAs(signedIn);

        ContactRepository contacts(desk);
        const Contact c =
            contacts.create(ContactRules::parse({{QStringLiteral("firstName"), QStringLiteral("Ayşe")},
                                                 {QStringLiteral("email"), QStringLiteral("ayse@ornek.com.tr")}}));
        QCOMPARE(contacts.addNote(c.id, QStringLiteral("Aradı")).createdBy, agent.id);
        QCOMPARE(contacts.notes(c.id).constFirst().createdBy, agent.id);

        DealRepository deals(desk);
        const Deal d = deals.create(DealRules::parse({{QStringLiteral("name"), QStringLiteral("Filo")}}));
        const QVector<DealActivity> created = deals.activities(d.id);
        QVERIFY(!created.isEmpty());
        QCOMPARE(created.constFirst().userId, agent.id);
        QCOMPARE(created.constFirst().userName, agent.name);
        QCOMPARE(deals.addActivity(d.id, QStringLiteral("call"), QStringLiteral("Görüştük")).userId, agent.id);

        SegmentRepository segments(desk);
        SegmentChanges sc;
        sc.name = QStringLiteral("Sabit");
        sc.isDynamic = false;
        QCOMPARE(segments.create(sc).createdBy, agent.id);

        // A key made in the window is the signed-in user's, within their role.
        ApiKeyRepository keys(desk);
        const NewApiKey key = keys.create(QStringLiteral("betik"), {QStringLiteral("contacts:read")});
        QCOMPARE(key.key.createdBy, agent.id);
        QCOMPARE(key.key.role(), QStringLiteral("agent"));

        // Someone else signs in: the same repositories write as them from now on.
        const User admin = UserRepository(testStore())
                               .create(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("Selin Aksoy"),
                                       QStringLiteral("admin"), QStringLiteral("x"));
        signedIn = {admin.id, admin.name, admin.role};
        QCOMPARE(contacts.addNote(c.id, QStringLiteral("Teklif gitti")).createdBy, admin.id);
        // A named actor wins; the server's store records nobody.
        QCOMPARE(contacts.addNote(c.id, QStringLiteral("API"), QStringLiteral("apikey_1")).createdBy,
                 QStringLiteral("apikey_1"));
        QCOMPARE(ContactRepository(testStore()).addNote(c.id, QStringLiteral("Sunucu")).createdBy, QString());
        // Signed out: nobody.
        signedIn = {};
        QCOMPARE(contacts.addNote(c.id, QStringLiteral("Kimse")).createdBy, QString());
        Database::closeThreadConnection();
    }
};

QTEST_GUILESS_MAIN(TestTaskActor)
#include "test_taskactor.moc"
