// The window's tasks carry its user: a TaskRepository with a default actor records it as
// createdBy, completedBy and note author when a call names nobody; a named actor still wins.
#include "model/accounts/userrepository.h"
#include "model/core/database.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/testsupport.h"

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
        TaskRepository tasks(testStore());
        tasks.setDefaultActor(desk.id);
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
        // Without a default, nobody.
        TaskRepository plain(testStore());
        const Task anonymous = plain.create(TaskRules::parse({{QStringLiteral("title"), QStringLiteral("Nobody")}}));
        QCOMPARE(plain.setStatus(anonymous.id, QStringLiteral("completed")).task.completedBy, QString());
        Database::closeThreadConnection();
    }
};

QTEST_GUILESS_MAIN(TestTaskActor)
#include "test_taskactor.moc"
