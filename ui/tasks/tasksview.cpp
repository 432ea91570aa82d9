#include "ui/tasks/tasksview.h"
#include "model/tasks/taskimporter.h"
#include "ui/shell/importdialog.h"

#include "model/accounts/userrepository.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/notificationcenter.h"
#include "ui/shell/rowanchor.h"
#include "ui/shell/uikit.h"
#include "ui/shell/undobar.h"
#include "ui/tasks/taskdialog.h"
#include "ui/tasks/taskremindernotifier.h"
#include "ui/tasks/tasktablemodel.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QShortcut>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace {
// What an empty tab says, a tab each (TasksView::Tab).
const char *const kEmptyHints[] = {
    QT_TRANSLATE_NOOP("TasksView", "Nothing due today. Type a task in the line above and press Enter."),
    QT_TRANSLATE_NOOP("TasksView", "No overdue tasks: everything due is done."),
    QT_TRANSLATE_NOOP("TasksView", "Nothing coming up. Tasks with a later due date show here."),
    QT_TRANSLATE_NOOP("TasksView", "No tasks yet. Type one in the line above and press Enter, or add one with its "
                                   "due date, reminder and contact."),
};
} // namespace

TasksView::TasksView(TaskRepository &tasks, const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_tasks(tasks)
    , m_importStore(store)
    , m_users(tasks.store())
{
    setObjectName(QStringLiteral("tasksView"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::M, UiKit::Space::M, UiKit::Space::M, UiKit::Space::S);
    layout->setSpacing(UiKit::Space::S);

    auto *quickRow = new QHBoxLayout;
    m_quickAdd = new QLineEdit(this);
    m_quickAdd->setObjectName(QStringLiteral("quickAddEdit"));
    m_quickAdd->setAccessibleName(tr("Quick add a task"));
    m_quickAdd->setPlaceholderText(tr("Add a task and press Enter…"));
    m_quickWhen = new QComboBox(this);
    m_quickWhen->setObjectName(QStringLiteral("quickAddWhen"));
    m_quickWhen->addItem(tr("Today"), 0);
    m_quickWhen->addItem(tr("Tomorrow"), 1);
    m_quickWhen->addItem(tr("No date"), -1);
    m_add = new QPushButton(tr("Add"), this);
    m_add->setObjectName(QStringLiteral("quickAddButton"));
    quickRow->addWidget(m_quickAdd, 1);
    quickRow->addWidget(m_quickWhen);
    quickRow->addWidget(m_add);
    m_new = new QPushButton(tr("New…"), this);
    m_new->setObjectName(QStringLiteral("newTaskButton"));
    m_edit = new QPushButton(tr("Edit…"), this);
    m_edit->setObjectName(QStringLiteral("editTaskButton"));
    m_delete = new QPushButton(tr("Delete"), this);
    m_delete->setObjectName(QStringLiteral("deleteTaskButton"));
    quickRow->addSpacing(12);
    quickRow->addWidget(m_new);
    quickRow->addWidget(m_edit);
    quickRow->addWidget(m_delete);
    m_reopen = new QPushButton(tr("Reopen"), this);
    m_reopen->setObjectName(QStringLiteral("reopenTaskButton"));
    m_reopen->setToolTip(tr("Move a done or cancelled task back to To do"));
    quickRow->addWidget(m_reopen);
    auto *exportTasks = new QPushButton(tr("Export…"), this);
    exportTasks->setObjectName(QStringLiteral("exportTasksButton"));
    exportTasks->setToolTip(tr("Save the tasks this tab and the filters show as a CSV file"));
    auto *importButton = new QPushButton(tr("Import…"), this);
    importButton->setObjectName(QStringLiteral("importTasksButton"));
    importButton->setToolTip(tr("Import tasks from a CSV file"));
    quickRow->addWidget(importButton);
    connect(importButton, &QPushButton::clicked, this, &TasksView::importTasks);
    quickRow->addWidget(exportTasks);
    connect(exportTasks, &QPushButton::clicked, this, [this] {
        askCsvExportPath(this, tr("Export tasks to CSV"), tr("tasks.csv"),
                         [this](const QString &path) { exportTo(path); });
    });
    layout->addLayout(quickRow);

    auto *filterRow = new QHBoxLayout;
    auto combo = [this](const QString &name, const QString &anyText,
                        std::initializer_list<std::pair<QString, QString>> items) {
        auto *c = new QComboBox(this);
        c->setObjectName(name);
        c->addItem(anyText, QString());
        for (const auto &item : items)
            c->addItem(item.first, item.second);
        connect(c, &QComboBox::currentIndexChanged, this, &TasksView::applyFilter);
        return c;
    };
    m_statusFilter = combo(QStringLiteral("statusFilter"), tr("Any status"),
                           {{tr("To do"), QStringLiteral("pending")},
                            {tr("In progress"), QStringLiteral("in_progress")},
                            {tr("Done"), QStringLiteral("completed")},
                            {tr("Cancelled"), QStringLiteral("cancelled")}});
    m_priorityFilter = combo(QStringLiteral("priorityFilter"), tr("Any priority"),
                             {{tr("Low"), QStringLiteral("low")},
                              {tr("Medium"), QStringLiteral("medium")},
                              {tr("High"), QStringLiteral("high")},
                              {tr("Urgent"), QStringLiteral("urgent")}});
    m_typeFilter = combo(QStringLiteral("typeFilter"), tr("Any type"),
                         {{tr("Task"), QStringLiteral("task")},
                          {tr("Call"), QStringLiteral("call")},
                          {tr("Meeting"), QStringLiteral("meeting")},
                          {tr("E-mail"), QStringLiteral("email")},
                          {tr("Follow-up"), QStringLiteral("followup")}});
    m_assigneeFilter = combo(QStringLiteral("assigneeFilter"), tr("Anyone"), {});
    try {
        const QSignalBlocker block(m_assigneeFilter);
        // "Me": whoever is signed in when the filter applies (the window's store acts as them).
        if (m_tasks.store().actingUser())
            m_assigneeFilter->addItem(tr("Assigned to me"), QStringLiteral("@me"));
        for (const User &u : m_users.list())
            m_assigneeFilter->addItem(u.name.isEmpty() ? u.email : u.name, u.id);
    } catch (const std::exception &) {
        // No users: the filter offers "Anyone" only.
    }
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("taskSearchEdit"));
    m_search->setPlaceholderText(tr("Search tasks…"));
    m_search->setAccessibleName(tr("Search tasks"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(fontMetrics().averageCharWidth() * 24);
    m_mine = new QToolButton(this);
    m_mine->setObjectName(QStringLiteral("mineToggle"));
    m_mine->setText(tr("Mine"));
    m_mine->setAccessibleName(tr("Mine"));
    m_mine->setToolTip(tr("Only the tasks assigned to you"));
    m_mine->setCheckable(true);
    m_mine->setEnabled(m_assigneeFilter->findData(QStringLiteral("@me")) >= 0);
    filterRow->addWidget(m_search, 1);
    filterRow->addWidget(m_mine);
    filterRow->addSpacing(12);
    filterRow->addWidget(new QLabel(tr("Show:"), this));
    for (QComboBox *c : {m_statusFilter, m_priorityFilter, m_typeFilter, m_assigneeFilter})
        filterRow->addWidget(c);
    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(SearchDelayMs);
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchTimer.start(); });
    connect(&m_searchTimer, &QTimer::timeout, this, &TasksView::applyFilter);
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        m_searchTimer.stop();
        applyFilter();
        if (QTableView *table = m_tables.value(m_tabs->currentIndex())) {
            table->setFocus(Qt::OtherFocusReason);
            if (!table->selectionModel()->hasSelection() && table->model()->rowCount() > 0)
                table->selectRow(0);
        }
    });
    // "Mine" is the assignee filter's "Assigned to me": either one moves the other.
    connect(m_mine, &QToolButton::toggled, this, [this](bool on) {
        const int mine = m_assigneeFilter->findData(QStringLiteral("@me"));
        const int wanted = on ? mine : 0;
        if (wanted >= 0 && m_assigneeFilter->currentIndex() != wanted)
            m_assigneeFilter->setCurrentIndex(wanted); // applies the filter
    });
    layout->addLayout(filterRow);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("tasksTabs"));
    const TaskTableModel::Mode modes[] = {TaskTableModel::Mode::Today, TaskTableModel::Mode::Overdue,
                                          TaskTableModel::Mode::Upcoming, TaskTableModel::Mode::All};
    for (int i = 0; i < TabCount; ++i) {
        auto *model = new TaskTableModel(tasks, modes[i], this);
        auto *table = new QTableView(m_tabs);
        table->setObjectName(QStringLiteral("tasksTable%1").arg(i));
        table->setAccessibleName(tr("Tasks"));
        table->setModel(model);
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->setSelectionMode(QAbstractItemView::SingleSelection);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->verticalHeader()->hide();
        table->horizontalHeader()->setSectionResizeMode(TaskTableModel::TitleColumn, QHeaderView::Stretch);
        // One line per task: the due time fits its column instead of wrapping.
        table->setWordWrap(false);
        table->horizontalHeader()->setSectionResizeMode(TaskTableModel::DueColumn, QHeaderView::ResizeToContents);
        for (int column : {TaskTableModel::ContactColumn, TaskTableModel::DealColumn, TaskTableModel::AssigneeColumn})
            table->horizontalHeader()->resizeSection(column, column == TaskTableModel::AssigneeColumn ? 120 : 160);
        table->setTextElideMode(Qt::ElideRight);
        table->setAlternatingRowColors(true);
        m_models << model;
        m_tables << table;
        new RowAnchor(table, TaskTableModel::IdRole); // live inserts do not move the row under the mouse
        m_emptyHints << installEmptyHint(table, tr(kEmptyHints[i]));
        m_tabs->addTab(table, QString());
        connect(model, &TaskTableModel::taskCompleted, this, &TasksView::onCompleted);
        connect(model, &TaskTableModel::errorOccurred, this, [this](const QString &m) { showMessage(m, true); });
        connect(table, &QTableView::doubleClicked, this, &TasksView::editTask);
        connect(table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &TasksView::updateActions);
        auto *deleteShortcut = new QShortcut(QKeySequence::Delete, table);
        deleteShortcut->setContext(Qt::WidgetShortcut);
        connect(deleteShortcut, &QShortcut::activated, this, &TasksView::deleteTask);
    }
    layout->addWidget(m_tabs, 1);

    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_status->setObjectName(QStringLiteral("tasksStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    m_notifier = new TaskReminderNotifier(tasks, store, this);

    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(RefreshDelayMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &TasksView::refresh);
    connect(&store.bus(), &EventBus::changed, this, &TasksView::onBusChanged);
    connect(m_quickAdd, &QLineEdit::returnPressed, this, &TasksView::quickAdd);
    connect(m_add, &QPushButton::clicked, this, &TasksView::quickAdd);
    connect(m_new, &QPushButton::clicked, this, &TasksView::newTask);
    connect(m_edit, &QPushButton::clicked, this, &TasksView::editTask);
    connect(m_delete, &QPushButton::clicked, this, &TasksView::deleteTask);
    connect(m_reopen, &QPushButton::clicked, this, &TasksView::reopenTask);
    connect(m_tabs, &QTabWidget::currentChanged, this, &TasksView::updateActions);

    updateEmptyStates({}, {});
    refresh();
}

void TasksView::onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change)
{
    Q_UNUSED(id);
    if (entity == EventBus::Entity::Task && change != EventBus::Change::Reminder)
        m_refreshTimer.start();
}

QString TasksView::currentTaskId() const
{
    QTableView *table = m_tables.value(m_tabs->currentIndex());
    if (!table || !table->selectionModel()->hasSelection())
        return {};
    return table->selectionModel()->selectedRows().value(0).data(TaskTableModel::IdRole).toString();
}

bool TasksView::selectTask(const QString &id)
{
    const int tab = m_tabs->currentIndex();
    const int row = m_models.at(tab)->rowOf(id);
    if (row < 0)
        return false;
    m_tables.at(tab)->selectRow(row);
    return true;
}

void TasksView::refresh()
{
    const QString keep = m_selectAfterRefresh.isEmpty() ? currentTaskId() : m_selectAfterRefresh;
    m_selectAfterRefresh.clear();
    for (TaskTableModel *model : std::as_const(m_models))
        model->reload();
    updateCounts();
    updateOverdue();
    if (!keep.isEmpty())
        selectTask(keep);
    updateActions();
}

void TasksView::updateOverdue()
{
    int overdue = 0;
    try {
        overdue = m_userId.isEmpty() ? 0 : int(qMin<qint64>(m_tasks.overdueCount(m_userId), INT_MAX));
    } catch (const std::exception &) {
        overdue = m_overdue; // not counted this time: the last count stays
    }
    if (overdue != m_overdue) {
        m_overdue = overdue;
        emit overdueCountChanged(overdue);
    }
}

void TasksView::updateCounts()
{
    const QString names[] = {tr("Today"), tr("Overdue"), tr("Upcoming"), tr("All")};
    for (int i = 0; i < TabCount; ++i)
        m_tabs->setTabText(i, tr("%1 (%2)").arg(names[i]).arg(m_models.at(i)->openCount()));
}

void TasksView::updateActions()
{
    const QString id = currentTaskId();
    const bool selected = !id.isEmpty();
    m_edit->setEnabled(selected);
    m_delete->setEnabled(selected);
    bool closed = false;
    if (selected) {
        QTableView *table = m_tables.value(m_tabs->currentIndex());
        const int row = table->selectionModel()->selectedRows().value(0).row();
        const Task t = m_models.at(m_tabs->currentIndex())->taskAt(row);
        closed = t.id == id && !t.isOpen();
    }
    m_reopen->setEnabled(closed);
}

QComboBox *TasksView::filterCombo(const QString &name) const
{
    for (QComboBox *c : {m_statusFilter, m_priorityFilter, m_typeFilter, m_assigneeFilter}) {
        if (c->objectName() == name)
            return c;
    }
    return nullptr;
}

void TasksView::handleReminders(NotificationCenter *center)
{
    center->setActions(QStringLiteral("task"), {{QStringLiteral("open"), tr("Open")},
                                                {QStringLiteral("done"), tr("Done")},
                                                {QStringLiteral("snooze10"), tr("10 min")},
                                                {QStringLiteral("snooze60"), tr("1 hour")},
                                                {QStringLiteral("tomorrow"), tr("Tomorrow 9:00")}});
    connect(center, &NotificationCenter::actionTriggered, this,
            [this](const QString &kind, const QString &id, const QString &action) {
                if (kind == QLatin1String("task"))
                    reminderAction(id, action);
            });
}

bool TasksView::reminderAction(const QString &taskId, const QString &action)
{
    try {
        if (action == QLatin1String("done")) {
            m_tasks.setStatus(taskId, QStringLiteral("completed"));
            showMessage(tr("Task done."));
            return true;
        }
        QDateTime until;
        const QDateTime now = m_tasks.now();
        if (action == QLatin1String("snooze10"))
            until = now.addSecs(10 * 60);
        else if (action == QLatin1String("snooze60"))
            until = now.addSecs(60 * 60);
        else if (action == QLatin1String("tomorrow"))
            until = QDateTime(m_tasks.today().addDays(1), QTime(9, 0), m_tasks.timeZone());
        if (!until.isValid())
            return false;
        m_tasks.snoozeReminder(taskId, until);
        showMessage(tr("Reminded again at %1.").arg(QLocale().toString(until.toLocalTime(), QLocale::ShortFormat)));
        return true;
    } catch (const std::exception &e) {
        showMessage(ErrorText::of(e), true);
        return false;
    }
}

void TasksView::startFor(const User &user)
{
    m_userId = user.id;
    int mine = m_assigneeFilter->findData(QStringLiteral("@me"));
    if (mine < 0 && !user.id.isEmpty()) {
        const QSignalBlocker block(m_assigneeFilter);
        m_assigneeFilter->insertItem(1, tr("Assigned to me"), QStringLiteral("@me"));
        mine = 1;
    }
    m_assigneeFilter->setCurrentIndex(user.role == QLatin1String("agent") && mine >= 0 ? mine : 0);
    applyFilter();
    updateOverdue();
}

void TasksView::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void TasksView::focusQuickAdd()
{
    m_quickAdd->setFocus(Qt::ShortcutFocusReason);
    m_quickAdd->selectAll();
}

void TasksView::showMine(Tab tab)
{
    {
        const QSignalBlocker search(m_search);
        m_search->clear();
    }
    for (QComboBox *c : {m_statusFilter, m_priorityFilter, m_typeFilter, m_assigneeFilter}) {
        const QSignalBlocker block(c);
        c->setCurrentIndex(0);
    }
    {
        const QSignalBlocker block(m_assigneeFilter);
        m_assigneeFilter->setCurrentIndex(qMax(0, m_assigneeFilter->findData(QStringLiteral("@me"))));
    }
    applyFilter();
    m_tabs->setCurrentIndex(tab);
}

void TasksView::applyFilter()
{
    m_searchTimer.stop();
    {
        const QSignalBlocker block(m_mine);
        m_mine->setEnabled(m_assigneeFilter->findData(QStringLiteral("@me")) >= 0);
        m_mine->setChecked(m_assigneeFilter->currentData().toString() == QLatin1String("@me"));
    }
    TaskTableModel::Filter f;
    f.search = m_search->text().trimmed();
    f.status = m_statusFilter->currentData().toString();
    f.priority = m_priorityFilter->currentData().toString();
    f.type = m_typeFilter->currentData().toString();
    f.assignedTo = m_assigneeFilter->currentData().toString();
    if (f.assignedTo == QLatin1String("@me"))
        f.assignedTo = m_tasks.store().actorOr({});
    for (TaskTableModel *model : std::as_const(m_models))
        model->setFilter(f);
    // An empty tab says why: the search found nothing, or the filters (an agent's "Assigned to me" by
    // default) may hide tasks.
    QStringList active;
    for (QComboBox *c : {m_statusFilter, m_priorityFilter, m_typeFilter, m_assigneeFilter}) {
        if (c->currentIndex() > 0)
            active << c->currentText();
    }
    updateEmptyStates(f.search, active);
    updateCounts();
    updateActions();
}

void TasksView::updateEmptyStates(const QString &search, const QStringList &active)
{
    for (int i = 0; i < m_emptyHints.size() && i < TabCount; ++i) {
        m_emptyHints[i]->setText(
            !search.isEmpty() ? tr("No task here matches “%1”: change or clear the search.").arg(search)
            : active.isEmpty()
                ? tr(kEmptyHints[i])
                : tr(kEmptyHints[i]) + QLatin1Char(' ') +
                      tr("The filters above (%1) may hide others.").arg(active.join(QStringLiteral(", "))));
        // One action: what most likely fills the tab.
        if (!search.isEmpty()) {
            setEmptyHintIcon(m_emptyHints[i], QStringLiteral("search"));
            setEmptyHintAction(m_emptyHints[i], tr("Clear the search"), [this] {
                m_search->clear();
                applyFilter();
            });
        } else if (!active.isEmpty()) {
            setEmptyHintIcon(m_emptyHints[i], QStringLiteral("search"));
            setEmptyHintAction(m_emptyHints[i], tr("Clear the filters"), [this] {
                for (QComboBox *c : {m_statusFilter, m_priorityFilter, m_typeFilter, m_assigneeFilter}) {
                    const QSignalBlocker block(c);
                    c->setCurrentIndex(0);
                }
                applyFilter();
            });
        } else if (i == OverdueTab) {
            setEmptyHintIcon(m_emptyHints[i], QStringLiteral("tasks"));
            setEmptyHintAction(m_emptyHints[i], tr("Show all tasks"), [this] { m_tabs->setCurrentIndex(AllTab); });
        } else {
            setEmptyHintIcon(m_emptyHints[i], QStringLiteral("tasks"));
            setEmptyHintAction(m_emptyHints[i], tr("New task…"), [this] { newTask(); });
        }
    }
}

void TasksView::reopenTask()
{
    const QString id = currentTaskId();
    if (id.isEmpty())
        return;
    try {
        const TaskStatusResult r = m_tasks.setStatus(id, QStringLiteral("pending"));
        m_selectAfterRefresh = id;
        showMessage(tr("Reopened “%1”.").arg(r.task.title));
        refresh();
    } catch (const std::exception &e) {
        showMessage(ErrorText::of(e), true);
    }
}

void TasksView::showMessage(const QString &text, bool error)
{
    m_status->setText(text);
    UiKit::setTone(m_status, error ? UiKit::Tone::Danger : UiKit::Tone::Normal);
}

void TasksView::quickAdd()
{
    const QString title = m_quickAdd->text().trimmed();
    if (title.isEmpty())
        return;
    TaskChanges quick;
    quick.title = title;
    const int offset = m_quickWhen->currentData().toInt();
    if (offset >= 0)
        quick.dueDate = m_tasks.today().addDays(offset).toString(Qt::ISODate);
    try {
        // The quick line's task is the signed-in user's, as the dialog's is unless changed there.
        const Task t = m_tasks.create(quick, {}, true);
        m_quickAdd->clear();
        m_selectAfterRefresh = t.id;
        showMessage(tr("Added “%1”.").arg(t.title));
        refresh();
    } catch (const std::exception &e) {
        showMessage(ErrorText::of(e), true);
    }
}

void TasksView::setHidden(const QStringList &ids)
{
    m_hiddenIds = ids;
    for (TaskTableModel *model : std::as_const(m_models))
        model->setHiddenIds(ids);
    updateCounts();
    updateActions();
}

void TasksView::onCompleted(const QString &id, const QString &nextId, const QString &previousStatus)
{
    if (UndoBar *bar = UndoBar::of(this)) {
        const std::optional<Task> t = m_tasks.find(id);
        bar->offer(tr("“%1” done.").arg(t ? t->title : QString()), [this, id, nextId, previousStatus] {
            try {
                // Back as it was; a recurring task's next occurrence made by the completion goes.
                // A completed task reopens to "pending" (the transition table), then goes on as it was.
                m_tasks.setStatus(id, QStringLiteral("pending"));
                if (!previousStatus.isEmpty() && previousStatus != QLatin1String("pending"))
                    m_tasks.setStatus(id, previousStatus);
                if (!nextId.isEmpty())
                    m_tasks.remove(nextId);
                m_selectAfterRefresh = id;
                showMessage(tr("Undone."));
                refresh();
            } catch (const std::exception &e) {
                showMessage(ErrorText::of(e), true);
            }
        });
    }
    if (nextId.isEmpty()) {
        showMessage(tr("Task done."));
        return;
    }
    // Refreshed right after the check box's click returns (not after the bus delay; not inside the
    // view's setData call) so that the next occurrence shows at once, selected.
    m_selectAfterRefresh = nextId;
    QTimer::singleShot(0, this, &TasksView::refresh);
    const std::optional<Task> next = m_tasks.find(nextId);
    if (next) {
        const QString due =
            next->isAllDay() || next->dueDate.isEmpty()
                ? QLocale().toString(next->dueDay(m_tasks.timeZone()), QLocale::ShortFormat)
                : QLocale().toString(next->dueInstant(m_tasks.timeZone()).toTimeZone(m_tasks.timeZone()),
                                     QLocale::ShortFormat);
        showMessage(tr("Task done. Next occurrence: %1.").arg(due));
    }
}

void TasksView::newTask()
{
    auto *dialog = new TaskDialog(m_tasks, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &TaskDialog::taskSaved, this, [this](const QString &id) {
        m_selectAfterRefresh = id;
        refresh();
    });
    m_dialog = dialog;
    dialog->open();
}

void TasksView::editTask()
{
    openTask(currentTaskId());
}

void TasksView::openTask(const QString &id)
{
    if (id.isEmpty())
        return;
    std::optional<Task> t = m_tasks.find(id);
    if (!t)
        return;
    auto *dialog = new TaskDialog(m_tasks, *t, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &TaskDialog::taskSaved, this, [this](const QString &savedId) {
        m_selectAfterRefresh = savedId;
        refresh();
    });
    m_dialog = dialog;
    dialog->open();
}

void TasksView::deleteTask()
{
    const QString id = currentTaskId();
    if (id.isEmpty())
        return;
    const std::optional<Task> t = m_tasks.find(id);
    if (!t)
        return;
    MessageBoxes::confirm(this, tr("Delete task"), tr("Delete the task “%1” and its notes?").arg(t->title),
                          tr("Delete"), [this, id, title = t->title] {
                              // Carried out even when the window is closing (the view may be gone).
                              auto remove = [self = QPointer<TasksView>(this), &tasks = m_tasks, id] {
                                  QString error;
                                  try {
                                      tasks.remove(id);
                                  } catch (const DomainError &e) {
                                      if (e.kind() != DomainError::NotFound) // gone meanwhile: fine
                                          error = ErrorText::of(e);
                                  } catch (const std::exception &e) {
                                      error = ErrorText::of(e);
                                  }
                                  if (!self)
                                      return;
                                  if (!error.isEmpty())
                                      self->showMessage(error, true);
                                  QStringList hidden = self->m_hiddenIds;
                                  hidden.removeAll(id);
                                  self->setHidden(hidden);
                              };
                              UndoBar *bar = UndoBar::of(this);
                              if (!bar) {
                                  remove();
                                  showMessage(tr("Task deleted."));
                                  return;
                              }
                              // Out of sight now, deleted when the Undo offer ends.
                              setHidden(m_hiddenIds + QStringList{id});
                              showMessage(tr("Task deleted."));
                              bar->offer(
                                  tr("Task “%1” deleted.").arg(title),
                                  [this, id] {
                                      QStringList hidden = m_hiddenIds;
                                      hidden.removeAll(id);
                                      m_selectAfterRefresh = id;
                                      setHidden(hidden);
                                      selectTask(id);
                                      showMessage(tr("Undone."));
                                  },
                                  remove);
                          });
}

bool TasksView::exportTo(const QString &path)
{
    const TaskTableModel *model = m_models.value(m_tabs->currentIndex());
    if (!model)
        return false;
    QString error;
    qint64 count = 0;
    try {
        const TaskQuery q = model->exportQuery();
        const QByteArray bytes = m_tasks.exportCsv(q);
        count = bytes.count("\r\n") - 1;
        error = writeCsvFile(path, bytes);
    } catch (const std::exception &e) {
        error = ErrorText::of(e);
    }
    if (!error.isEmpty()) {
        showMessage(tr("%1 was not saved: %2").arg(QFileInfo(path).fileName(), error), true);
        return false;
    }
    showMessage(tr("%1 tasks saved to %2.").arg(QLocale().toString(count), QDir::toNativeSeparators(path)));
    return true;
}

ImportDialog *TasksView::importTasks()
{
    ImportTarget target;
    target.objectName = QStringLiteral("taskImportDialog");
    target.title = tr("Import tasks");
    target.duplicateRule = tr("A task with the same title, due date and contact exists:");
    target.fields = TaskImporter::fields();
    target.label = [](const QString &key) {
        return key == QLatin1String("contactEmail") ? tr("Contact's e-mail") : ErrorText::fieldLabel(key);
    };
    target.duplicates = {CsvImport::Duplicates::Skip, CsvImport::Duplicates::Update, CsvImport::Duplicates::Create};
    const QTimeZone tz = m_tasks.timeZone();
    const Store store = m_importStore;
    target.check = [store, tz](const QStringList &row, const CsvImport::Mapping &mapping) {
        TaskImporter(store, tz).rowBody(row, mapping);
    };
    target.run = [tz](const Store &workerStore, const Csv::Table &table, const CsvImport::Mapping &mapping,
                      CsvImport::Duplicates duplicates, const QString &actor,
                      const std::function<bool(const CsvImport::Report &)> &progress) {
        return TaskImporter(workerStore, tz).run(table, mapping, duplicates, progress, actor);
    };
    auto *dialog = new ImportDialog(std::move(target), m_importStore, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    return dialog;
}
