// Tasks figures on a temporary database: bulk seeding, the Today/Overdue/filtered list queries over
// N tasks, single writes with their outbox events, completing recurring tasks, and one scheduler
// round firing many due reminders. Usage: bench_tasks [N] (default 100000). Prints its figures.
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/tasks/taskrepository.h"
#include "model/tasks/taskscheduler.h"
#include "tests/bench/benchtiming.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QRandomGenerator>

#include <cstdio>
#include <utility>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? qMax(1000, atoi(argv[1])) : 100000;
    TempDatabase db;
    EventBus bus;
    TaskRepository tasks(Store(bus), QTimeZone::systemTimeZone());
    QRandomGenerator rng(42);
    const QDate today = tasks.today();
    const QStringList statuses{"pending", "pending", "in_progress", "completed", "cancelled"};
    const QStringList priorities = TaskRules::Priorities;

    QVector<QJsonObject> bodies;
    bodies.reserve(n);
    for (int i = 0; i < n; ++i) {
        QJsonObject b{{"title", QStringLiteral("Task %1").arg(i)},
                      {"status", statuses.at(int(rng.bounded(statuses.size())))},
                      {"priority", priorities.at(int(rng.bounded(priorities.size())))}};
        const int offset = int(rng.bounded(120)) - 60; // due within two months either way
        if (i % 3 == 0)
            b.insert("dueDate", today.addDays(offset).toString(Qt::ISODate));
        else
            b.insert("dueDate", TimeUtil::iso(today.addDays(offset).startOfDay().addSecs(rng.bounded(86400))));
        if (i % 4 == 0)
            b.insert("reminder", QJsonObject{{"enabled", true}, {"before", 15}});
        bodies.append(b);
    }
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < n; i += 10000)
        tasks.insertBulk(bodies.mid(i, 10000));
    const double seedMs = ms(t);
    std::printf("tasks: %d seeded in %.0f ms (%.0f rows/s)\n", n, seedMs, n / (seedMs / 1000.0));

    std::printf("GET /tasks/today equivalent (first 100): %.2f ms avg\n",
                averageMs(50, [&] { tasks.dueToday(1, 100); }));
    std::printf("GET /tasks/overdue equivalent (first 100): %.2f ms avg (total %lld)\n",
                averageMs(20, [&] { tasks.overdue(1, 100); }), tasks.overdue(1, 1).total);
    // The window's navigation counts the signed-in user's overdue tasks at every refresh of Tasks:
    // one user's (none here: the index answers at once) and everyone's (every open task past due).
    std::printf("overdue count of one user (the navigation's): %.3f ms avg; of everyone: %.2f ms avg (%lld)\n",
                averageMs(200, [&] { tasks.overdueCount(QStringLiteral("user_bench")); }),
                averageMs(20, [&] { tasks.overdueCount(QString()); }), tasks.overdueCount(QString()));
    TaskQuery filtered;
    filtered.statuses = {"pending"};
    filtered.priorities = {"urgent"};
    filtered.dueAfter = today.startOfDay();
    std::printf("list status=pending&priority=urgent&dueAfter=today (first 20): %.2f ms avg\n",
                averageMs(50, [&] { tasks.list(filtered); }));
    TaskQuery page;
    page.page = 200;
    std::printf("list page 200 of all: %.2f ms avg\n", averageMs(20, [&] { tasks.list(page); }));
    // Which index serves each list (EXPLAIN QUERY PLAN of its page and count statements).
    TaskQuery dueToday;
    dueToday.dueOn = tasks.today();
    dueToday.excludeCancelled = true;
    dueToday.openFirst = true;
    TaskQuery overdue;
    overdue.overdueOnly = true;
    for (const auto &[name, query] : {std::pair{"today", dueToday}, std::pair{"overdue", overdue},
                                      std::pair{"filtered", filtered}, std::pair{"page 200", page}}) {
        for (const QString &step : tasks.queryPlan(query))
            std::printf("  plan %-8s %s\n", name, qPrintable(step));
    }

    const int writes = 500;
    QStringList created;
    const double createMs = averageMs(writes, [&] {
        created << tasks
                       .create(TaskRules::parse({{"title", "Bench"},
                                                 {"dueDate", today.toString(Qt::ISODate)},
                                                 {"recurrence", QJsonObject{{"frequency", "weekly"}}}}))
                       .id;
    });
    std::printf("create (transaction + task.created): %.3f ms avg over %d\n", createMs, writes);
    int index = 0;
    const double completeMs = averageMs(writes, [&] { tasks.setStatus(created.at(index++), "completed"); });
    std::printf("complete recurring (task.completed + next occurrence + task.created): %.3f ms avg over %d\n",
                completeMs, writes);

    TaskScheduler scheduler(Store(bus), QTimeZone::systemTimeZone());
    t.restart();
    const int fired = scheduler.checkNow();
    const double roundMs = ms(t);
    std::printf("scheduler catch-up round: %d events (reminders + overdue) in %.0f ms (%.0f events/s)\n", fired,
                roundMs, fired / qMax(0.001, roundMs / 1000.0));
    t.restart();
    const int again = scheduler.checkNow();
    std::printf("scheduler idle round: %d events in %.2f ms; next wake in %d ms\n", again, ms(t),
                scheduler.timerIntervalMs());
    return 0;
}
