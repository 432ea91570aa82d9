// Window figures offscreen on a temporary database: the Inbox (conversation list with filters and
// unread badge, opening a conversation with its thread and contact side panel, a live incoming
// message), the deal board with many open deals (build, refresh, the deal detail with tasks) and
// the Tasks area with its filter row.
// Usage: bench_window [conversations] [deals] [tasks] (default 2000 10000 10000). Prints its figures.
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/bench/benchtiming.h"
#include "tests/support/testsupport.h"
#include "ui/deals/dealdialogs.h"
#include "ui/deals/pipelineboard.h"
#include "ui/inbox/inboxview.h"
#include "ui/tasks/tasksview.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QListWidget>
#include <QStandardPaths>

#include <cstdio>

namespace {
void drain()
{
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
}
} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const int conversations = argc > 1 ? qMax(10, atoi(argv[1])) : 2000;
    const int deals = argc > 2 ? qMax(10, atoi(argv[2])) : 10000;
    const int tasks = argc > 3 ? qMax(10, atoi(argv[3])) : 10000;
    TempDatabase db;

    QElapsedTimer seed;
    seed.start();
    QStringList contactIds;
    {
        EventBus quiet;
        ContactRepository contacts{Store(quiet)};
        ConversationRepository repo{Store(quiet)};
        Transaction tx;
        for (int i = 0; i < conversations; ++i) {
            const QString id =
                contacts
                    .create(ContactRules::parse({{"firstName", QStringLiteral("Contact %1").arg(i)},
                                                 {"phone", QStringLiteral("+90532%1").arg(1000000 + i)}}))
                    .id;
            contactIds << id;
            const QString conv = repo.findOrCreate(id, "widget", QStringLiteral("visitor_%1").arg(i)).id;
            MessageContent c;
            c.text = QStringLiteral("Hello, message from %1").arg(i);
            repo.receive(conv, c);
            c.text = QStringLiteral("Any news?");
            repo.receive(conv, c);
        }
        tx.commit();
        QVector<QJsonObject> dealBodies;
        static const char *stages[] = {"lead", "contact", "proposal", "negotiation"};
        for (int i = 0; i < deals; ++i)
            dealBodies.append({{"name", QStringLiteral("Deal %1").arg(i)},
                               {"value", 100 + i % 5000},
                               {"stage", QLatin1String(stages[i % 4])},
                               {"contactId", contactIds.at(i % contactIds.size())}});
        DealRepository(testStore()).insertBulk(dealBodies);
        QVector<QJsonObject> taskBodies;
        static const char *priorities[] = {"low", "medium", "high", "urgent"};
        const QDate today = QDate::currentDate();
        for (int i = 0; i < tasks; ++i)
            taskBodies.append({{"title", QStringLiteral("Task %1").arg(i)},
                               {"priority", QLatin1String(priorities[i % 4])},
                               {"dueDate", today.addDays(i % 30 - 10).toString(Qt::ISODate)},
                               {"contactId", contactIds.at(i % contactIds.size())}});
        TaskRepository(testStore()).insertBulk(taskBodies);
    }
    std::printf("seeded %d conversations (2 messages each), %d open deals, %d tasks in %.0f ms\n", conversations, deals,
                tasks, ms(seed));

    EventBus bus;
    ConversationRepository repo{Store(bus)};
    {
        QElapsedTimer t;
        t.start();
        InboxView inbox(repo, Store(bus));
        inbox.resize(1200, 700);
        inbox.show();
        drain();
        std::printf("inbox: open the view (list of %d, badge, panel) %.1f ms\n", InboxView::kListLimit, ms(t));
        auto *list = inbox.findChild<QListWidget *>("conversationList");
        const double reload = averageMs(20, [&] { inbox.reload(); });
        std::printf("inbox: reload list + thread %.2f ms (avg of 20)\n", reload);
        auto *unread = inbox.findChild<QCheckBox *>("unreadFilter");
        const double filtered = averageMs(20, [&] { unread->toggle(); });
        std::printf("inbox: toggle the unread filter %.2f ms (avg of 20)\n", filtered);
        int row = 0;
        const double open = averageMs(50, [&] {
            list->setCurrentRow(row++ % list->count()); // marks read, thread, contact panel
        });
        std::printf("inbox: open a conversation (mark read, thread, contact panel with deals and tasks) %.2f ms "
                    "(avg of 50)\n",
                    open);
        const QString conv = repo.list({}).items.last().id;
        QElapsedTimer live;
        live.start();
        MessageContent c;
        c.text = QStringLiteral("Live one");
        repo.receive(conv, c);
        while (!list->item(0)->text().contains(QLatin1String("Live one")) && live.elapsed() < 5000)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 10);
        std::printf("inbox: incoming message stored and shown at the top of the list %.1f ms (incl. 50 ms "
                    "coalescing)\n",
                    ms(live));
    }
    {
        QElapsedTimer t;
        t.start();
        PipelineBoard board{Store(bus)};
        board.resize(1400, 800);
        board.show();
        drain();
        std::printf("board: open with %d open deals %.1f ms\n", deals, ms(t));
        const double refresh = averageMs(10, [&] { board.refresh(); });
        std::printf("board: refresh (columns, headers, chart) %.2f ms (avg of 10)\n", refresh);
        const DealPage page = board.deals().list({});
        TaskRepository(Store(bus))
            .create(TaskRules::parse({{"title", "Follow up"}, {"dealId", page.items.first().id}}));
        const double detail = averageMs(20, [&] {
            auto *d = new DealDetailDialog(board.deals(), Store(bus), page.items.first().id, &board);
            d->show();
            delete d;
        });
        std::printf("board: open a deal detail (activities, tasks) %.2f ms (avg of 20)\n", detail);
    }
    {
        TaskRepository taskRepo{Store(bus)};
        QElapsedTimer t;
        t.start();
        TasksView view(taskRepo, Store(bus));
        view.resize(1000, 600);
        view.show();
        drain();
        std::printf("tasks: open the view with %d tasks %.1f ms\n", tasks, ms(t));
        QComboBox *priority = view.filterCombo(QStringLiteral("priorityFilter"));
        int i = 0;
        const double filter = averageMs(20, [&] { priority->setCurrentIndex(1 + (i++ % 4)); });
        std::printf("tasks: change the priority filter (4 tabs and counts) %.2f ms (avg of 20)\n", filter);
    }
    return 0;
}
