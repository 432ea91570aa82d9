#pragma once

#include "model/accounts/userrepository.h"
#include "model/core/eventbus.h"
#include "model/core/store.h"
#include "model/tasks/taskrepository.h"
#include "ui/tasks/taskdialog.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class ImportDialog;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTabWidget;
class QTableView;
class NotificationCenter;
class QToolButton;
class TaskReminderNotifier;
class TaskTableModel;

// The Tasks area: Today, Overdue, Upcoming and All tabs with counts, a quick-add line, one-click
// done (the check box; a recurring task's next occurrence appears at once), New/Edit/Delete with
// the task dialog (reminder and recurrence). It follows the event bus: a task changed anywhere
// (the API, the scheduler) refreshes the tabs shortly after.
class TasksView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int RefreshDelayMs = 50;
    enum Tab
    {
        TodayTab,
        OverdueTab,
        UpcomingTab,
        AllTab,
        TabCount
    };

    TasksView(TaskRepository &tasks, const Store &store, QWidget *parent = nullptr);

    QTabWidget *tabs() const { return m_tabs; }
    TaskTableModel *model(int tab) const { return m_models.value(tab); }
    QTableView *table(int tab) const { return m_tables.value(tab); }
    QLineEdit *quickAddField() const { return m_quickAdd; }
    QComboBox *quickAddWhen() const { return m_quickWhen; }
    QLabel *statusLabel() const { return m_status; }
    // Writes the tasks the current tab and filters show to path as CSV; false with the reason under
    // the list when it cannot.
    bool exportTo(const QString &path);
    // The import dialog of tasks (window-modal, deleted when closed); returned for tests.
    ImportDialog *importTasks();
    TaskReminderNotifier *notifier() const { return m_notifier; }
    TaskDialog *openDialog() const { return m_dialog; }
    QString currentTaskId() const;
    bool selectTask(const QString &id);
    // The filter row (status, priority, type, assignee), applied to every tab and its count.
    QComboBox *filterCombo(const QString &name) const;
    QPushButton *reopenButton() const { return m_reopen; }
    // The search over the titles (every word begins a word of the title, folded as search folds
    // text) and the "Mine" toggle (the signed-in user's tasks: the assignee filter's "Assigned to me").
    QLineEdit *searchField() const { return m_search; }
    QToolButton *mineToggle() const { return m_mine; }
    // Waits this long after the last keystroke.
    static constexpr int SearchDelayMs = 200;
    // How many open tasks of the signed-in user are past due (TaskRepository::overdueCount), as of the
    // last refresh: the window's navigation shows it beside Tasks.
    int overdueCount() const { return m_overdue; }
    // Someone signed in: an agent starts on their own tasks ("Assigned to me"), an admin on everyone's.
    void startFor(const User &user);
    // A tab of the signed-in user's own tasks ("Mine"), the search and the other filters cleared
    // (what Home's figures open).
    void showMine(Tab tab);
    // A task reminder in the window's notification centre stays until dealt with and offers Open,
    // Done and Snooze (10 minutes, 1 hour, tomorrow at 9:00 in the tasks time zone).
    void handleReminders(NotificationCenter *center);
    // What a reminder's buttons do ("done", "snooze10", "snooze60", "tomorrow"); false with the
    // reason in the status line when refused (the task was closed meanwhile).
    bool reminderAction(const QString &taskId, const QString &action);

signals:
    // The count changed (a refresh after the bus's news: a task changed, became overdue; someone
    // else signed in).
    void overdueCountChanged(int count);

public slots:
    // Puts the cursor in the search field, its text selected (Ctrl+F).
    void focusSearch();
    // Puts the cursor in the quick-add line (Ctrl+N: type the task, Enter adds it).
    void focusQuickAdd();
    void quickAdd();
    void newTask();
    void editTask();
    // Opens the task dialog of this task (a click on its reminder).
    void openTask(const QString &id);
    void deleteTask();
    // Moves a completed or cancelled task back to pending.
    void reopenTask();
    void refresh();

private:
    void onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change);
    void onCompleted(const QString &id, const QString &nextId, const QString &previousStatus);
    void setHidden(const QStringList &ids);
    void showMessage(const QString &text, bool error = false);
    void updateCounts();
    void updateOverdue();
    // What each empty tab says and its one action (clear the search or the filters, show all, new task).
    void updateEmptyStates(const QString &search, const QStringList &active);
    void updateActions();
    void applyFilter();

    TaskRepository &m_tasks;
    Store m_importStore;
    UserRepository m_users;
    QTabWidget *m_tabs = nullptr;
    QVector<TaskTableModel *> m_models;
    QStringList m_hiddenIds; // deleted, but the delete can still be undone
    QVector<QTableView *> m_tables;
    QVector<QLabel *> m_emptyHints; // one a tab
    QLineEdit *m_quickAdd = nullptr;
    QComboBox *m_quickWhen = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_new = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_delete = nullptr;
    QPushButton *m_reopen = nullptr;
    QComboBox *m_statusFilter = nullptr;
    QComboBox *m_priorityFilter = nullptr;
    QComboBox *m_typeFilter = nullptr;
    QComboBox *m_assigneeFilter = nullptr;
    QLineEdit *m_search = nullptr;
    QToolButton *m_mine = nullptr;
    QTimer m_searchTimer;
    QLabel *m_status = nullptr;
    QTimer m_refreshTimer;
    QString m_selectAfterRefresh;
    TaskReminderNotifier *m_notifier = nullptr;
    QPointer<TaskDialog> m_dialog;
    QString m_userId; // the signed-in user (startFor), whose overdue tasks are counted
    int m_overdue = 0;
};
