#pragma once

class MainWindow;
class Store;
class TaskRepository;
class TasksView;

// The Tasks area in the window: in the navigation (Alt+3, its icon, the signed-in user's overdue
// tasks counted beside it as the view refreshes on the bus's news), "Jump to" a task, the view
// following who signs in, and task reminders in the window's notification centre (Open shows the
// task). Returns the view (the window owns it).
TasksView *addTasksArea(MainWindow &window, TaskRepository &tasks, const Store &store);
