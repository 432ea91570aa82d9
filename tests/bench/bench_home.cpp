// The Home area at a sales team's size: seeds contacts, deals (open, won and lost over 120 days),
// tasks, conversations and messages (over 45 days) in a temporary database, then prints the time of
// Dashboard::figures (the first read and the average of the following ones, 14 and 30 days of
// messages), each query's plan, and the view's open time offscreen: from making the view and
// showing it to its figures painted (the figures read in its worker thread), and a refresh.
// Usage: bench_home [contacts] [deals] [conversations] [messages] [tasks]
//        (default 100000 20000 20000 200000 20000). Prints its figures.
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/core/ids.h"
#include "model/dashboard/dashboard.h"
#include "model/deals/dealrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/bench/benchtiming.h"
#include "tests/support/testsupport.h"
#include "ui/home/homeview.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>

#include <cstdio>

namespace {
void printPlan(const char *what, const QString &sql, const QVariantList &values = {})
{
    std::printf("plan %s:\n", what);
    for (const QString &line : Database::queryPlan(sql, values))
        std::printf("    %s\n", qPrintable(line));
}
} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const int contacts = argc > 1 ? qMax(10, atoi(argv[1])) : 100000;
    const int deals = argc > 2 ? qMax(10, atoi(argv[2])) : 20000;
    const int conversations = argc > 3 ? qMax(10, qMin(contacts, atoi(argv[3]))) : qMin(contacts, 20000);
    const int messages = argc > 4 ? qMax(10, atoi(argv[4])) : 200000;
    const int tasks = argc > 5 ? qMax(10, atoi(argv[5])) : 20000;
    TempDatabase db;
    EventBus bus;
    const Store store(bus);
    const QDateTime now = QDateTime::currentDateTimeUtc();

    QElapsedTimer seed;
    seed.start();
    {
        QVector<QJsonObject> bodies;
        bodies.reserve(contacts);
        for (int i = 0; i < contacts; ++i)
            bodies.append({{"firstName", QStringLiteral("Kişi %1").arg(i)},
                           {"email", QStringLiteral("kisi%1@ornek.com.tr").arg(i)}});
        ContactRepository(store).insertBulk(bodies);
    }
    QStringList contactIds;
    {
        QSqlQuery q = Database::exec(QStringLiteral("SELECT id FROM contacts ORDER BY seq LIMIT ?"), {conversations});
        while (q.next())
            contactIds << q.value(0).toString();
    }
    {
        // Open deals in every stage; won and lost closed over the last 120 days; three currencies.
        static const char *stages[] = {"lead", "contact", "proposal", "negotiation", "won", "lost"};
        static const char *currencies[] = {"TRY", "TRY", "TRY", "USD", "EUR"};
        QVector<QJsonObject> bodies;
        for (int i = 0; i < deals; ++i)
            bodies.append({{"name", QStringLiteral("Fırsat %1").arg(i)},
                           {"value", 1000 + (i * 37) % 50000},
                           {"currency", QLatin1String(currencies[i % 5])},
                           {"stage", QLatin1String(stages[i % 6])},
                           {"contactId", contactIds.at(i % contactIds.size())},
                           {"createdAt", TimeUtil::iso(now.addSecs(-qint64(i % 120) * 86400 - i % 3600))}});
        DealRepository(store).insertBulk(bodies);
    }
    {
        QVector<QJsonObject> bodies;
        const QDate today = QDate::currentDate();
        for (int i = 0; i < tasks; ++i)
            bodies.append({{"title", QStringLiteral("Görev %1").arg(i)},
                           {"dueDate", today.addDays(i % 40 - 20).toString(Qt::ISODate)},
                           {"contactId", contactIds.at(i % contactIds.size())}});
        TaskRepository(store).insertBulk(bodies);
    }
    {
        // Conversations on four channels, a quarter of them closed; messages spread over 45 days,
        // each conversation's last message in its row.
        static const char *channels[] = {"whatsapp", "telegram", "instagram", "widget"};
        Transaction tx;
        QVector<qint64> seqs;
        QStringList ids;
        for (int i = 0; i < conversations; ++i) {
            const QString id = Ids::make(u"conv");
            const QString at = TimeUtil::iso(now.addSecs(-qint64(i % (45 * 24)) * 3600));
            ids << id;
            seqs << Database::insert(
                QStringLiteral("INSERT INTO conversations (id, contact_id, channel, status, last_message_direction, "
                               "last_message_at, last_message_text, total_messages, last_activity_at, created_at, "
                               "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                {id, contactIds.at(i), QLatin1String(channels[i % 4]),
                 i % 4 == 3 ? QStringLiteral("closed") : QStringLiteral("open"),
                 i % 3 == 0 ? QStringLiteral("outgoing") : QStringLiteral("incoming"), at, QStringLiteral("Merhaba"),
                 messages / conversations, at, at, at});
        }
        for (int i = 0; i < messages; ++i) {
            const int c = i % conversations;
            Database::execCached(
                QStringLiteral("INSERT INTO messages (id, conversation_seq, conversation_id, contact_id, channel, "
                               "direction, text, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                {Ids::make(u"msg"), seqs.at(c), ids.at(c), contactIds.at(c), QLatin1String(channels[c % 4]),
                 i % 2 ? QStringLiteral("incoming") : QStringLiteral("outgoing"), QStringLiteral("Merhaba"),
                 QStringLiteral("delivered"), TimeUtil::iso(now.addSecs(-qint64(i % (45 * 24 * 60)) * 60))});
        }
        tx.commit();
    }
    std::printf("seeded %d contacts, %d deals, %d tasks, %d conversations, %d messages in %.0f ms\n", contacts, deals,
                tasks, conversations, messages, ms(seed));

    const QString user = QStringLiteral("user_nobody");
    Dashboard dashboard(store, QTimeZone::systemTimeZone());
    for (int days : {14, 30}) {
        DashboardRequest request;
        request.userId = user;
        request.days = days;
        QElapsedTimer first;
        first.start();
        DashboardFigures f = dashboard.figures(request);
        const double firstMs = ms(first);
        const double avg = averageMs(20, [&] { f = dashboard.figures(request); });
        qint64 open = 0;
        for (const DashboardFigures::Stage &s : f.funnel)
            open += s.deals;
        std::printf("figures (%d days of messages): first %.1f ms, then %.2f ms (avg of 20); open %lld, won 30/90 "
                    "%lld/%lld, lost 30/90 %lld/%lld, waiting %lld, messages %lld\n",
                    days, firstMs, avg, open, f.won30.deals, f.won90.deals, f.lost30.deals, f.lost90.deals, f.waiting,
                    f.messagesTotal);
    }
    {
        // Each part on its own (the same statements as Dashboard's).
        auto part = [](const char *what, const QString &sql, const QVariantList &values) {
            const double t = averageMs(10, [&] { Database::select(sql, values, [](const SqlRow &) {}); });
            std::printf("part %s: %.2f ms (avg of 10)\n", what, t);
        };
        part("funnel", QStringLiteral("SELECT stage, currency, deals, value FROM deal_totals WHERE pipeline_id = ?"),
             {QStringLiteral("pipeline_default")});
        const QString since30 = TimeUtil::iso(now.addDays(-29)), since90 = TimeUtil::iso(now.addDays(-89));
        part("won and lost",
             QStringLiteral("SELECT stage, currency, CASE WHEN closed_at >= ? THEN 1 ELSE 0 END, count(*), "
                            "sum(CASE WHEN stage = ? AND closed_value IS NOT NULL THEN closed_value ELSE value END) "
                            "FROM deals WHERE pipeline_id = ? AND stage IN (?, ?) AND closed_at >= ? "
                            "GROUP BY stage, currency, 3"),
             {since30, QStringLiteral("won"), QStringLiteral("pipeline_default"), QStringLiteral("won"),
              QStringLiteral("lost"), since90});
        part("waiting",
             QStringLiteral("SELECT count(*), min(last_message_at) FROM conversations "
                            "WHERE last_message_direction = 'incoming' AND status != 'closed'"),
             {});
        TaskRepository taskRepo(store);
        const double taskMs = averageMs(10, [&] {
            TaskQuery today;
            today.dueOn = taskRepo.today();
            today.openOnly = true;
            today.assignedTo = user;
            taskRepo.count(today);
            taskRepo.overdueCount(user);
        });
        std::printf("part tasks: %.2f ms (avg of 10)\n", taskMs);
        for (int days : {14, 30}) {
            DashboardFigures f;
            const double t = averageMs(10, [&] { dashboard.messagesPerDay(days, f); });
            std::printf("part messages per day (%d days, %lld messages): %.2f ms (avg of 10)\n", days, f.messagesTotal,
                        t);
        }
        // What a GROUP BY channel over the period costs (the first way: a sort of every message).
        part("messages grouped by day and channel in one statement (14 days, not used)",
             QStringLiteral("SELECT substr(created_at, 1, 10), channel, count(*) FROM messages WHERE created_at >= ? "
                            "GROUP BY 1, 2"),
             {TimeUtil::iso(now.addDays(-14))});
        const double counts = averageMs(10, [&] {
            DashboardRequest request;
            request.userId = user;
            dashboard.counts(request);
        });
        std::printf("counts (every figure but the messages): %.2f ms (avg of 10)\n", counts);
    }
    printPlan("won and lost",
              QStringLiteral("SELECT stage, currency, CASE WHEN closed_at >= ? THEN 1 ELSE 0 END, count(*), "
                             "sum(CASE WHEN stage = ? AND closed_value IS NOT NULL THEN closed_value ELSE value END) "
                             "FROM deals WHERE pipeline_id = ? AND stage IN (?, ?) AND closed_at >= ? "
                             "GROUP BY stage, currency, 3"),
              {TimeUtil::iso(now.addDays(-29)), QStringLiteral("won"), QStringLiteral("pipeline_default"),
               QStringLiteral("won"), QStringLiteral("lost"), TimeUtil::iso(now.addDays(-89))});
    printPlan("waiting", QStringLiteral("SELECT count(*), min(last_message_at) FROM conversations "
                                        "WHERE last_message_direction = 'incoming' AND status != 'closed'"));
    printPlan("messages of a day",
              QStringLiteral("SELECT count(*), sum(CASE WHEN channel = ? THEN 1 ELSE 0 END) FROM messages "
                             "WHERE created_at >= ? AND created_at < ?"),
              {QStringLiteral("whatsapp"), TimeUtil::iso(now.addDays(-1)), TimeUtil::iso(now)});

    {
        QElapsedTimer t;
        t.start();
        HomeView home{store};
        home.setUser(user);
        QSignalSpy shown(&home, &HomeView::shown);
        QSignalSpy countsShown(&home, &HomeView::countsShown);
        home.resize(1160, 680);
        home.show();
        const double constructed = ms(t);
        while (countsShown.isEmpty() && t.elapsed() < 10000)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        QCoreApplication::processEvents(); // painted
        const double countsAt = ms(t);
        while (shown.isEmpty() && t.elapsed() < 10000)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        QCoreApplication::processEvents(); // painted
        std::printf("view: open: made and shown %.1f ms, its counts read in its worker and shown %.1f ms, the chart "
                    "too %.1f ms\n",
                    constructed, countsAt, ms(t));
        QElapsedTimer r;
        r.start();
        for (int i = 0; i < 10; ++i) {
            home.refresh();
            while (shown.count() < i + 2 && r.elapsed() < 20000)
                QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        }
        std::printf("view: refresh (read in the worker, shown) %.1f ms (avg of 10)\n", ms(r) / 10);
        home.periodChoice()->setCurrentIndex(1);
        QElapsedTimer p;
        p.start();
        while (shown.count() < 12 && p.elapsed() < 10000)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        std::printf("view: 30 days of messages chosen, shown %.1f ms\n", ms(p));
    }
    return 0;
}
