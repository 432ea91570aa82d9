// The Tasks area driven as a user would, offscreen: tabs with counts, quick-add, one-click done with
// the next occurrence of a recurring task, the edit dialog's reminder and recurrence, validation
// messages, bus-driven refresh, the reminder notifier and the contact detail pane's task list.

#include "tests/ui/uitest.h"

#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/testsupport.h"
#include "ui/contacts/contactdetailpane.h"
#include "ui/shell/importdialog.h"
#include "ui/shell/undobar.h"
#include "ui/tasks/taskdialog.h"
#include "ui/tasks/taskremindernotifier.h"
#include "ui/tasks/tasksview.h"
#include "ui/tasks/tasktablemodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace UiTest;

class TestTasksView final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    std::unique_ptr<TaskRepository> m_tasks;
    std::unique_ptr<TasksView> m_view;

    QString todayText() const { return m_tasks->today().toString(Qt::ISODate); }

private slots:
    void importDialogImportsTasksAndExportSavesTheTab()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("gorevler.csv");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("G\xF6rev;\xD6ncelik;T\xFCr;Son tarih\r\n"
                   "Teklif g\xF6nder;Y\xFCksek;E-posta;02.12.2026\r\n"
                   ";D\xFC\xFE\xFCk;;\r\n");
        file.close();
        ImportDialog *dialog = m_view->importTasks();
        QVERIFY(dialog->openFile(path));
        QCOMPARE(dialog->mapping(), (QStringList{"title", "priority", "type", "dueDate"}));
        QVERIFY(dialog->previewTable()->item(0, 1)->text().isEmpty());
        QVERIFY(!dialog->previewTable()->item(1, 1)->text().isEmpty()); // no title
        // Tasks may share a title: "create anyway" is offered.
        QCOMPARE(dialog->duplicatesBox()->count(), 3);
        QVERIFY(dialog->startImport());
        QTRY_VERIFY(!dialog->isImporting());
        QCOMPARE(dialog->report()->created, 1);
        QCOMPARE(dialog->report()->failed, 1);
        dialog->reject();
        m_view->tabs()->setCurrentIndex(TasksView::AllTab);
        const QString exported = dir.filePath("all.csv");
        QVERIFY(m_view->exportTo(exported));
        QFile out(exported);
        QVERIFY(out.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(out.readAll()).contains("Teklif gönder,email,high,pending,2026-12-02"));
    }

    // Due times never show seconds (the C locale's short date-time did, and wrapped in the column).
    void dueTextHasNoSeconds_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<QString>("time");
        QTest::newRow("C") << "C"
                           << "14:05";
        QTest::newRow("Turkish") << "tr_TR"
                                 << "14:05";
        QTest::newRow("German") << "de_DE"
                                << "14:05";
        QTest::newRow("US English") << "en_US"
                                    << "2:05";
    }

    void dueTextHasNoSeconds()
    {
        QFETCH(QString, locale);
        QFETCH(QString, time);
        const QDateTime due(QDate(2026, 11, 26), QTime(14, 5, 37));
        const QString text = TaskTableModel::dueText(due, QLocale(locale));
        QVERIFY2(text.contains(time), qPrintable(text));
        QVERIFY2(!text.contains("37"), qPrintable(text));
        QVERIFY2(!text.contains(":05:"), qPrintable(text));
    }

    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
        m_tasks = std::make_unique<TaskRepository>(Store(*m_bus));
        m_view = std::make_unique<TasksView>(*m_tasks, Store(*m_bus));
        m_view->resize(900, 600);
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

    void anEmptyTabSaysHowToFillIt()
    {
        auto *table = m_view->findChild<QTableView *>("tasksTable0");
        QLabel *hint = table->viewport()->findChild<QLabel *>("emptyHint");
        QVERIFY(hint);
        QTRY_VERIFY(hint->isVisible());
        QVERIFY(hint->text().contains("press Enter"));
        m_view->quickAddField()->setText("Call Ayşe");
        QTest::keyClick(m_view->quickAddField(), Qt::Key_Return);
        QTRY_VERIFY(!hint->isVisible());
    }

    // In the window the signed-in user's quick task is theirs: assigned to them and under "Assigned to
    // me"; a deactivated user is not offered as an assignee of a new task.
    void quickTasksAreTheSignedInUsers()
    {
        const User murat = UserRepository(Store(*m_bus))
                               .create(QStringLiteral("murat@ornek.com.tr"), QStringLiteral("Murat Çelik"),
                                       QStringLiteral("agent"), QStringLiteral("x"));
        const User gone = UserRepository(Store(*m_bus))
                              .create(QStringLiteral("eski@ornek.com.tr"), QStringLiteral("Eski Çalışan"),
                                      QStringLiteral("agent"), QStringLiteral("x"));
        UserRepository(Store(*m_bus)).setActive(gone.id, false);
        const Store::Actor signedIn{murat.id, murat.name, murat.role};
        TaskRepository desk(Store(*m_bus).actingAs(signedIn));
        TasksView view(desk, Store(*m_bus).actingAs(signedIn));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.quickAddField()->setText(QStringLiteral("Ayşe Hanım'ı ara"));
        QTest::keyClick(view.quickAddField(), Qt::Key_Return);
        const QVector<Task> all = desk.list(TaskQuery{}).items;
        QCOMPARE(all.size(), 1);
        QCOMPARE(all.first().assignedTo, murat.id);
        QCOMPARE(all.first().createdBy, murat.id);
        auto *filter = view.findChild<QComboBox *>(QStringLiteral("assigneeFilter"));
        const int mine = filter->findData(QStringLiteral("@me"));
        QVERIFY(mine > 0);
        filter->setCurrentIndex(mine);
        auto *table = view.findChild<QTableView *>(QStringLiteral("tasksTable0"));
        QTRY_COMPARE(table->model()->rowCount(), 1);
        TaskDialog dialog(desk);
        auto *assignee = dialog.findChild<QComboBox *>(QStringLiteral("assigneeCombo"));
        QCOMPARE(assignee->currentData().toString(), murat.id); // a new task is theirs unless changed
        QCOMPARE(assignee->findData(gone.id), -1);
    }

    void quickAddCreatesTaskDueTodayAndCounts()
    {
        QCOMPARE(m_view->tabs()->tabText(TasksView::TodayTab), QString("Today (0)"));
        m_view->quickAddField()->setText("Call Ayşe");
        QTest::keyClick(m_view->quickAddField(), Qt::Key_Return);
        QCOMPARE(m_view->quickAddField()->text(), QString());
        QCOMPARE(m_view->tabs()->tabText(TasksView::TodayTab), QString("Today (1)"));
        QCOMPARE(m_view->tabs()->tabText(TasksView::AllTab), QString("All (1)"));
        const Task t = m_view->model(TasksView::TodayTab)->taskAt(0);
        QCOMPARE(t.title, QString("Call Ayşe"));
        QCOMPARE(t.dueDate, todayText());
        QCOMPARE(m_view->currentTaskId(), t.id);

        m_view->quickAddWhen()->setCurrentIndex(1); // tomorrow
        QTest::keyClicks(m_view->quickAddField(), "Send offer");
        QTest::keyClick(m_view->quickAddField(), Qt::Key_Return);
        QCOMPARE(m_view->tabs()->tabText(TasksView::UpcomingTab), QString("Upcoming (1)"));
    }

    void tableNamesTheContactDealAndAssignee()
    {
        const Contact c =
            ContactRepository(testStore())
                .create(ContactRules::parse({{"firstName", "Nazlı"}, {"lastName", "Kaya"}, {"email", "n@k.example"}}));
        const Deal d = DealRepository(testStore()).create(DealRules::parse({{"name", "Filo kiralama"}, {"value", 10}}));
        const User u = UserRepository(testStore()).create("ali@example.com", "Ali Vural", "agent", "x");
        m_tasks->create(TaskRules::parse(
            {{"title", "Teklifi gönder"}, {"contactId", c.id}, {"dealId", d.id}, {"assignedTo", u.id}}));
        m_view->tabs()->setCurrentIndex(TasksView::AllTab);
        TaskTableModel *model = m_view->model(TasksView::AllTab);
        QTRY_COMPARE(model->rowCount(), 1);
        QCOMPARE(model->headerData(TaskTableModel::ContactColumn, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QString("Contact"));
        QCOMPARE(model->index(0, TaskTableModel::ContactColumn).data().toString(), QString("Nazlı Kaya"));
        QCOMPARE(model->index(0, TaskTableModel::DealColumn).data().toString(), QString("Filo kiralama"));
        QCOMPARE(model->index(0, TaskTableModel::AssigneeColumn).data().toString(), QString("Ali Vural"));
        // a renamed contact shows its new name after the next change
        ContactRepository(Store(*m_bus)).update(c.id, ContactRules::parse({{"lastName", "Kaya Demir"}}));
        m_tasks->create(TaskRules::parse({{"title", "Another"}}));
        QTRY_COMPARE(model->rowCount(), 2);
        bool renamed = false;
        for (int row = 0; row < model->rowCount(); ++row)
            renamed =
                renamed || model->index(row, TaskTableModel::ContactColumn).data().toString() == "Nazlı Kaya Demir";
        QVERIFY(renamed);
    }

    void oneClickDoneShowsNextOccurrence()
    {
        const Task t = m_tasks->create(TaskRules::parse(
            {{"title", "Daily check"}, {"dueDate", todayText()}, {"recurrence", QJsonObject{{"frequency", "daily"}}}}));
        QTRY_COMPARE(m_view->model(TasksView::TodayTab)->rowCount(), 1);
        QTableView *table = m_view->table(TasksView::TodayTab);
        const QRect cell = table->visualRect(m_view->model(TasksView::TodayTab)->index(0, TaskTableModel::TitleColumn));
        // The check box sits at the left of the title cell.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, QPoint(cell.left() + 10, cell.center().y()));
        QTRY_COMPARE(m_tasks->get(t.id).status, QString("completed"));
        const QString nextId = m_tasks->get(t.id).nextTaskId;
        QVERIFY(!nextId.isEmpty());
        QTRY_VERIFY(m_view->statusLabel()->text().contains("Next occurrence"));
        QTRY_COMPARE(m_view->tabs()->tabText(TasksView::UpcomingTab), QString("Upcoming (1)"));
        QCOMPARE(m_view->model(TasksView::UpcomingTab)->taskAt(0).id, nextId);
        QCOMPARE(m_view->tabs()->tabText(TasksView::TodayTab), QString("Today (0)"));
        // The done one stays on Today, checked.
        QCOMPARE(m_view->model(TasksView::TodayTab)
                     ->data(m_view->model(TasksView::TodayTab)->index(0, 0), Qt::CheckStateRole)
                     .toInt(),
                 int(Qt::Checked));
        m_view->tabs()->setCurrentIndex(TasksView::AllTab);
        QTRY_COMPARE(m_view->model(TasksView::AllTab)->rowCount(), 2);
    }

    void editDialogSetsReminderAndRecurrence()
    {
        const Task t = m_tasks->create(TaskRules::parse({{"title", "Review"}, {"dueDate", todayText()}}));
        QTRY_VERIFY(m_view->selectTask(t.id));
        m_view->editTask();
        TaskDialog *dialog = m_view->openDialog();
        QVERIFY(dialog);
        dialog->findChild<QCheckBox *>("remindCheck")->setChecked(true);
        dialog->findChild<QSpinBox *>("beforeSpin")->setValue(30);
        auto *frequency = dialog->findChild<QComboBox *>("frequencyCombo");
        frequency->setCurrentIndex(frequency->findData("weekly"));
        dialog->findChild<QCheckBox *>("mondayCheck")->setChecked(true);
        dialog->findChild<QCheckBox *>("fridayCheck")->setChecked(true);
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        QTRY_VERIFY(!m_view->openDialog());
        const Task saved = m_tasks->get(t.id);
        QVERIFY(saved.reminder.enabled);
        QCOMPARE(saved.reminder.before, 30);
        QCOMPARE(saved.recurrence.frequency, QString("weekly"));
        QCOMPARE(saved.recurrence.daysOfWeek, (QStringList{"monday", "friday"}));
        QCOMPARE(saved.dueDate, todayText());
    }

    void dialogShowsValidationMessageAndStaysOpen()
    {
        m_view->newTask();
        TaskDialog *dialog = m_view->openDialog();
        QVERIFY(dialog);
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->findChild<QLabel *>("formError")->isVisible());
        QVERIFY(dialog->findChild<QLabel *>("titleError")->isVisible());
        QCOMPARE(m_tasks->count({}), 0);
        dialog->findChild<QLineEdit *>("titleEdit")->setText("Now with a title");
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        QTRY_VERIFY(!m_view->openDialog());
        QCOMPARE(m_tasks->count({}), 1);
    }

    void changesElsewhereRefreshTheTabs()
    {
        // Another repository on the same bus: as the API server thread would write.
        TaskRepository api{Store(*m_bus)};
        api.create(
            TaskRules::parse({{"title", "Late"}, {"dueDate", m_tasks->today().addDays(-1).toString(Qt::ISODate)}}));
        QTRY_COMPARE(m_view->tabs()->tabText(TasksView::OverdueTab), QString("Overdue (1)"));
    }

    void deleteAsksForConfirmation()
    {
        const Task t = m_tasks->create(TaskRules::parse({{"title", "Obsolete"}, {"dueDate", todayText()}}));
        QTRY_VERIFY(m_view->selectTask(t.id));
        m_view->deleteTask();
        auto *box = modal<QMessageBox>();
        QVERIFY(box);
        click(box->button(QMessageBox::Yes));
        QVERIFY(!m_tasks->find(t.id));
        QCOMPARE(m_view->tabs()->tabText(TasksView::AllTab), QString("All (0)"));
    }

    void aDeleteCanBeUndone()
    {
        auto *undo = new UndoBar(m_view.get()); // the main window has one; this view stands alone
        const Task t = m_tasks->create(TaskRules::parse({{"title", "Obsolete"}, {"dueDate", todayText()}}));
        const Task other = m_tasks->create(TaskRules::parse({{"title", "Keep"}, {"dueDate", todayText()}}));
        QTRY_VERIFY(m_view->selectTask(t.id));
        m_view->deleteTask();
        click(modal<QMessageBox>()->button(QMessageBox::Yes));
        // Out of every tab at once; deleted only when the offer ends.
        QCOMPARE(m_view->tabs()->tabText(TasksView::AllTab), QString("All (1)"));
        QCOMPARE(m_view->model(TasksView::AllTab)->rowOf(t.id), -1);
        QVERIFY(undo->isVisible());
        QCOMPARE(undo->label()->text(), QString("Task “Obsolete” deleted."));
        QVERIFY(m_tasks->find(t.id));
        // A change elsewhere meanwhile does not bring it back.
        m_tasks->update(other.id, TaskRules::parse({{"title", "Keep it"}}));
        QTRY_COMPARE(m_view->model(TasksView::TodayTab)->taskAt(0).title, QString("Keep it"));
        QCOMPARE(m_view->model(TasksView::TodayTab)->rowOf(t.id), -1);
        // Ctrl+Z (or the button): back, selected.
        m_view->activateWindow();
        QTRY_VERIFY(m_view->isActiveWindow());
        QTest::keyClick(m_view->table(TasksView::TodayTab), Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(!undo->isVisible());
        QCOMPARE(m_view->tabs()->tabText(TasksView::AllTab), QString("All (2)"));
        QCOMPARE(m_view->currentTaskId(), t.id);
        QVERIFY(m_tasks->find(t.id));
        // Again, and the offer runs out: deleted.
        m_view->deleteTask();
        click(modal<QMessageBox>()->button(QMessageBox::Yes));
        undo->commitPending();
        QVERIFY(!m_tasks->find(t.id));
        QCOMPARE(m_view->tabs()->tabText(TasksView::AllTab), QString("All (1)"));
        QVERIFY(!undo->isVisible());
    }

    void completingCanBeUndone()
    {
        auto *undo = new UndoBar(m_view.get());
        const Task t = m_tasks->create(TaskRules::parse({{"title", "Daily check"},
                                                         {"dueDate", todayText()},
                                                         {"status", "in_progress"},
                                                         {"recurrence", QJsonObject{{"frequency", "daily"}}}}));
        QTRY_COMPARE(m_view->model(TasksView::TodayTab)->rowCount(), 1);
        QTableView *table = m_view->table(TasksView::TodayTab);
        const QRect cell = table->visualRect(m_view->model(TasksView::TodayTab)->index(0, TaskTableModel::TitleColumn));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, QPoint(cell.left() + 10, cell.center().y()));
        QTRY_COMPARE(m_tasks->get(t.id).status, QString("completed"));
        const QString nextId = m_tasks->get(t.id).nextTaskId;
        QVERIFY(m_tasks->find(nextId));
        QVERIFY(undo->isVisible());
        QCOMPARE(undo->label()->text(), QString("“Daily check” done."));
        click(undo->undoButton());
        // As it was: in progress again, and the next occurrence the completion made is gone.
        QCOMPARE(m_tasks->get(t.id).status, QString("in_progress"));
        QVERIFY(!m_tasks->find(nextId));
        QTRY_COMPARE(m_view->tabs()->tabText(TasksView::UpcomingTab), QString("Upcoming (0)"));
    }

    void rowsStayUnderTheMouseWhenTasksArrive()
    {
        const QDateTime base = QDateTime::currentDateTimeUtc().addDays(2);
        for (int i = 0; i < 60; ++i)
            m_tasks->create(TaskRules::parse(
                {{"title", QString("Görev %1").arg(i)}, {"dueDate", base.addSecs(600 * i).toString(Qt::ISODate)}}));
        m_view->tabs()->setCurrentIndex(TasksView::AllTab);
        QTableView *table = m_view->table(TasksView::AllTab);
        QTRY_COMPARE(m_view->model(TasksView::AllTab)->rowCount(), 60);
        // Scrolled again until it holds: a refresh of the earlier arrivals may still reset the view.
        const auto scrolled = [&] {
            table->scrollTo(m_view->model(TasksView::AllTab)->index(20, 0), QAbstractItemView::PositionAtTop);
            return table->verticalScrollBar()->value() > 0;
        };
        QTRY_VERIFY(scrolled());
        // The mouse rests on a row (about to click its check box).
        const QPoint at = table->visualRect(m_view->model(TasksView::AllTab)->index(25, 0)).center();
        QCursor::setPos(table->viewport()->mapToGlobal(at));
        QTest::mouseMove(table->viewport(), at);
        const QString aimed = table->indexAt(at).data(TaskTableModel::IdRole).toString();
        QVERIFY(!aimed.isEmpty());
        // Five tasks due earlier arrive (over the API, another window…): they sort above it.
        for (int i = 0; i < 5; ++i)
            m_tasks->create(TaskRules::parse(
                {{"title", QString("Erken %1").arg(i)}, {"dueDate", base.addSecs(-600).toString(Qt::ISODate)}}));
        QTRY_COMPARE(m_view->model(TasksView::AllTab)->rowCount(), 65);
        QCOMPARE(table->indexAt(at).data(TaskTableModel::IdRole).toString(), aimed);
    }

    void reminderReachesTheNotifier()
    {
        const Task t = m_tasks->create(TaskRules::parse({{"title", "Call the bank"}, {"dueDate", todayText()}}));
        QSignalSpy reminded(m_view->notifier(), &TaskReminderNotifier::reminded);
        m_bus->notify(EventBus::Entity::Task, t.id, EventBus::Change::Reminder);
        QCOMPARE(reminded.size(), 1);
        QVERIFY(m_view->notifier()->lastMessage().contains("Call the bank"));
    }

    void contactDetailPaneListsTheContactsTasks()
    {
        ContactRepository contacts(testStore());
        const Contact c = contacts.create(ContactRules::parse({{"firstName", "Deniz"}, {"email", "d@example.com"}}));
        m_tasks->create(TaskRules::parse({{"title", "Send brochure"}, {"contactId", c.id}, {"dueDate", todayText()}}));
        m_tasks->create(TaskRules::parse({{"title", "Someone else's"}}));
        ContactDetailPane pane(contacts);
        pane.showContact(c.id);
        auto *list = pane.findChild<QListWidget *>("contactTaskList");
        QVERIFY(list);
        QCOMPARE(list->count(), 1);
        QVERIFY(list->item(0)->text().startsWith("Send brochure"));
    }
};

QTEST_MAIN(TestTasksView)
#include "test_tasksview.moc"
