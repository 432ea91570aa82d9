// The Tasks area's filter row (status, priority, type, assignee) applied to every tab and its
// count, Reopen for a done task, and the task dialog's deal and assignee fields; offscreen over the
// real repositories.
#include "tests/ui/uitest.h"

#include "model/accounts/userrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/testsupport.h"
#include "ui/tasks/taskdialog.h"
#include "ui/tasks/tasksview.h"
#include "ui/tasks/tasktablemodel.h"

#include <QComboBox>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace UiTest;

class TestTaskFilters final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    std::unique_ptr<TaskRepository> m_tasks;
    std::unique_ptr<TasksView> m_view;
    User m_ali;

    QString today() const { return m_tasks->today().toString(Qt::ISODate); }

    void choose(const char *filter, const QString &data)
    {
        QComboBox *combo = m_view->filterCombo(QLatin1String(filter));
        QVERIFY(combo);
        const int index = combo->findData(data);
        QVERIFY2(index >= 0, qPrintable(data));
        combo->setCurrentIndex(index);
    }

private slots:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
        m_tasks = std::make_unique<TaskRepository>(Store(*m_bus));
        m_ali = UserRepository(testStore()).create("ali@example.com", "Ali", "agent", "x");
        m_tasks->create(TaskRules::parse({{"title", "Urgent call"},
                                          {"type", "call"},
                                          {"priority", "urgent"},
                                          {"dueDate", today()},
                                          {"assignedTo", m_ali.id}}));
        m_tasks->create(TaskRules::parse({{"title", "Low task"}, {"priority", "low"}, {"dueDate", today()}}));
        m_tasks->create(TaskRules::parse({{"title", "Meeting later"},
                                          {"type", "meeting"},
                                          {"priority", "urgent"},
                                          {"dueDate", m_tasks->today().addDays(3).toString(Qt::ISODate)}}));
        m_view = std::make_unique<TasksView>(*m_tasks, Store(*m_bus));
        m_view->resize(1000, 600);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }

    void cleanup()
    {
        m_view.reset();
        m_tasks.reset();
        m_bus.reset();
        m_db.reset();
    }

    void filtersApplyToEveryTabAndItsCount()
    {
        QCOMPARE(m_view->tabs()->tabText(TasksView::TodayTab), QString("Today (2)"));
        QCOMPARE(m_view->tabs()->tabText(TasksView::AllTab), QString("All (3)"));
        choose("priorityFilter", "urgent");
        QCOMPARE(m_view->tabs()->tabText(TasksView::TodayTab), QString("Today (1)"));
        QCOMPARE(m_view->tabs()->tabText(TasksView::UpcomingTab), QString("Upcoming (1)"));
        QCOMPARE(m_view->tabs()->tabText(TasksView::AllTab), QString("All (2)"));
        QCOMPARE(m_view->model(TasksView::TodayTab)->taskAt(0).title, QString("Urgent call"));
        choose("typeFilter", "meeting");
        QCOMPARE(m_view->tabs()->tabText(TasksView::TodayTab), QString("Today (0)"));
        QCOMPARE(m_view->tabs()->tabText(TasksView::AllTab), QString("All (1)"));
        choose("typeFilter", QString());
        choose("priorityFilter", QString());
        choose("assigneeFilter", m_ali.id);
        QCOMPARE(m_view->tabs()->tabText(TasksView::AllTab), QString("All (1)"));
        QCOMPARE(m_view->model(TasksView::AllTab)->taskAt(0).title, QString("Urgent call"));
        choose("assigneeFilter", QString());
        QCOMPARE(m_view->tabs()->tabText(TasksView::AllTab), QString("All (3)"));
        // A task added elsewhere while a filter is on is filtered too.
        choose("priorityFilter", "low");
        m_tasks->create(TaskRules::parse({{"title", "Another low"}, {"priority", "low"}}));
        m_tasks->create(TaskRules::parse({{"title", "A high one"}, {"priority", "high"}}));
        QTRY_COMPARE(m_view->tabs()->tabText(TasksView::AllTab), QString("All (2)"));
    }

    void anAgentStartsOnTheirOwnTasks()
    {
        // The window's store acts as whoever signed in.
        Store::Actor actor;
        actor.id = m_ali.id;
        TaskRepository tasks(Store(*m_bus).actingAs(actor));
        TasksView view(tasks, Store(*m_bus).actingAs(actor));
        QComboBox *assignee = view.filterCombo("assigneeFilter");
        view.startFor(m_ali);
        QCOMPARE(assignee->currentData().toString(), QString("@me"));
        QCOMPARE(view.tabs()->tabText(TasksView::AllTab), QString("All (1)"));
        // Nothing of Ali's is upcoming: the empty tab names the filter that may hide the rest.
        const QString hint = view.table(TasksView::UpcomingTab)->findChild<QLabel *>("emptyHint")->text();
        QVERIFY2(hint.endsWith("The filters above (Assigned to me) may hide others."), qPrintable(hint));
        QCOMPARE(view.model(TasksView::AllTab)->taskAt(0).title, QString("Urgent call"));
        // An admin starts on everyone's.
        User admin = m_ali;
        admin.role = "admin";
        view.startFor(admin);
        QCOMPARE(assignee->currentData().toString(), QString());
        QCOMPARE(view.tabs()->tabText(TasksView::AllTab), QString("All (3)"));
    }

    void aRemindersButtonsSnoozeOrFinishTheTask()
    {
        const Task t =
            m_tasks->create(TaskRules::parse({{"title", "Ayşe Hanım'ı ara"},
                                              {"dueDate", m_tasks->now().addSecs(1800).toString(Qt::ISODate)},
                                              {"reminder", QJsonObject{{"before", 15}}}}));
        QVERIFY(m_view->reminderAction(t.id, "snooze60"));
        QSqlQuery q = Database::exec("SELECT remind_at FROM tasks WHERE id = ?", {t.id});
        QVERIFY(q.next());
        const QDateTime at = QDateTime::fromString(q.value(0).toString(), Qt::ISODateWithMs);
        QVERIFY2(qAbs(at.secsTo(m_tasks->now().addSecs(3600))) < 5, qPrintable(q.value(0).toString()));
        QVERIFY(m_view->reminderAction(t.id, "tomorrow"));
        QVERIFY(m_view->reminderAction(t.id, "done"));
        QCOMPARE(m_tasks->get(t.id).status, QString("completed"));
        // Done already: a snooze is refused in the status line, nothing else happens.
        QVERIFY(!m_view->reminderAction(t.id, "snooze10"));
        QVERIFY(!m_view->statusLabel()->text().isEmpty());
    }

    void reopenMovesADoneTaskBackToDo()
    {
        m_view->tabs()->setCurrentIndex(TasksView::AllTab);
        const Task t = m_view->model(TasksView::AllTab)->taskAt(1);
        QVERIFY(m_view->selectTask(t.id));
        QVERIFY(!m_view->reopenButton()->isEnabled()); // open: nothing to reopen
        m_tasks->setStatus(t.id, "completed");
        QTRY_VERIFY(m_view->reopenButton()->isEnabled());
        QCOMPARE(m_view->currentTaskId(), t.id);
        click(m_view->reopenButton());
        QCOMPARE(m_tasks->get(t.id).status, QString("pending"));
        QVERIFY(m_view->statusLabel()->text().contains("Reopened"));
        QTRY_VERIFY(!m_view->reopenButton()->isEnabled());
        // The status filter shows done tasks only.
        m_tasks->setStatus(t.id, "completed");
        choose("statusFilter", "completed");
        QTRY_COMPARE(m_view->tabs()->tabText(TasksView::AllTab), QString("All (1)"));
    }

    void dialogSetsDealAndAssignee()
    {
        const Deal d = DealRepository(testStore()).create(DealRules::parse({{"name", "Fleet deal"}}));
        m_view->newTask();
        TaskDialog *dialog = m_view->openDialog();
        QVERIFY(dialog);
        dialog->findChild<QLineEdit *>("titleEdit")->setText("Prepare the fleet offer");
        QVERIFY(pickRecord(dialog->findChild<RecordPicker *>("dealPicker"), "fleet", d.id));
        auto *assignee = dialog->findChild<QComboBox *>("assigneeCombo");
        assignee->setCurrentIndex(assignee->findData(m_ali.id));
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        QTRY_VERIFY(!m_view->openDialog());
        TaskQuery q;
        q.dealId = d.id;
        const TaskPage page = m_tasks->list(q);
        QCOMPARE(page.total, 1);
        QCOMPARE(page.items.first().assignedTo, m_ali.id);

        // Editing keeps both.
        auto *edit = new TaskDialog(*m_tasks, page.items.first(), m_view.get());
        QCOMPARE(edit->findChild<RecordPicker *>("dealPicker")->currentId(), d.id);
        QCOMPARE(edit->findChild<QComboBox *>("assigneeCombo")->currentData().toString(), m_ali.id);
        QVERIFY(!edit->changes().assignedTo); // unchanged: not set
        QCOMPARE(edit->changes().dealId, std::optional<QString>(d.id));
        delete edit;
    }
};

QTEST_MAIN(TestTaskFilters)
#include "test_taskfilters.moc"
