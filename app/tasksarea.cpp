#include "app/tasksarea.h"

#include "model/tasks/taskrepository.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/notificationcenter.h"
#include "ui/tasks/taskremindernotifier.h"
#include "ui/tasks/tasksview.h"

TasksView *addTasksArea(MainWindow &window, TaskRepository &tasks, const Store &store)
{
    auto *tasksView = new TasksView(tasks, store);
    window.addArea(TasksView::tr("Tasks"), tasksView,
                   {[tasksView] { tasksView->focusSearch(); }, [tasksView] { tasksView->focusQuickAdd(); }},
                   QStringLiteral("tasks"));
    // The navigation's count: the signed-in user's overdue tasks, counted when the view refreshes
    // on the bus's news (a task changed; the scheduler's "overdue" when one passes its due time).
    QObject::connect(tasksView, &TasksView::overdueCountChanged, &window, [&window, tasksView](int count) {
        window.setAreaCount(tasksView, count, MainWindow::CountKind::Overdue);
    });
    window.setRecordOpener(JumpBox::Task, [&window, tasksView](const QString &id) {
        window.showArea(tasksView);
        tasksView->openTask(id);
    });
    tasksView->startFor(window.signedInUser());
    window.setAreaCount(tasksView, tasksView->overdueCount(), MainWindow::CountKind::Overdue);
    tasksView->handleReminders(window.notifications());
    QObject::connect(&window, &MainWindow::signedInUserChanged, tasksView, &TasksView::startFor);
    QObject::connect(tasksView->notifier(), &TaskReminderNotifier::reminded, window.notifications(),
                     [&window](const QString &taskId, const QString &message) {
                         window.notifications()->post(QStringLiteral("task"), taskId, TasksView::tr("Task reminder"),
                                                      message);
                     });
    QObject::connect(window.notifications(), &NotificationCenter::activated, tasksView,
                     [&window, tasksView](const QString &kind, const QString &id) {
                         if (kind != QLatin1String("task"))
                             return;
                         window.showArea(tasksView);
                         tasksView->openTask(id);
                     });
    return tasksView;
}
