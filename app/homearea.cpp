#include "app/homearea.h"

#include "ui/deals/pipelineboard.h"
#include "ui/home/homeview.h"
#include "ui/inbox/inboxview.h"
#include "ui/shell/mainwindow.h"
#include "ui/tasks/tasksview.h"

HomeView *addHomeArea(MainWindow &window, const Store &store)
{
    auto *home = new HomeView(store);
    window.addArea(HomeView::tr("Home"), home, {}, QStringLiteral("home"));
    home->setUser(window.signedInUser().id);
    QObject::connect(&window, &MainWindow::signedInUserChanged, home,
                     [home](const User &user) { home->setUser(user.id); });
    return home;
}

void wireHome(MainWindow &window, HomeView *home, PipelineBoard *deals, TasksView *tasks, InboxView *inbox)
{
    QObject::connect(home, &HomeView::stageRequested, deals,
                     [&window, deals](const QString &pipelineId, const QString &stage, const QDateTime &since) {
                         window.showArea(deals);
                         deals->showStage(pipelineId, stage, since);
                     });
    QObject::connect(home, &HomeView::pipelineRequested, deals, [&window, deals](const QString &pipelineId) {
        window.showArea(deals);
        deals->setListShown(false);
        deals->showPipeline(pipelineId);
    });
    QObject::connect(home, &HomeView::tasksRequested, tasks, [&window, tasks](bool overdue) {
        window.showArea(tasks);
        tasks->showMine(overdue ? TasksView::OverdueTab : TasksView::TodayTab);
    });
    QObject::connect(home, &HomeView::waitingRequested, inbox, [&window, inbox] {
        window.showArea(inbox);
        inbox->showFiltered(true);
    });
    QObject::connect(home, &HomeView::channelRequested, inbox, [&window, inbox](const QString &channel) {
        window.showArea(inbox);
        inbox->showFiltered(false, channel);
    });
}
