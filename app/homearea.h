#pragma once

class InboxView;
class MainWindow;
class PipelineBoard;
class Store;
class TasksView;
class HomeView;

// The Home area in the window, first in the navigation (Alt+1, its icon): the day's figures
// (HomeView), counting the signed-in user's tasks and following who signs in. Returns the view
// (the window owns it); wireHome() connects its figures to the areas they open, once those exist.
HomeView *addHomeArea(MainWindow &window, const Store &store);
// A stage's figure opens the Deals list of that stage (won and lost: closed since the figure's
// start), the open deals the board; the tasks' figures Tasks' Today or Overdue tab with "Mine";
// the waiting conversations the Inbox's "Waiting" filter; a channel's bar the Inbox of the channel.
void wireHome(MainWindow &window, HomeView *home, PipelineBoard *deals, TasksView *tasks, InboxView *inbox);
