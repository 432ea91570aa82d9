// Dashboard (the Home area's figures) over a temporary database (SQLite, and PostgreSQL as
// unit_dashboard_pg) with an injected clock: each row of a table makes its own deals, tasks or
// conversations and checks the figure it counts in. The funnel weights a stage's value by the
// stage's probability and keeps currencies apart; won and lost fall in the 30- and 90-day windows
// by their day in the tasks' time zone; tasks count as the Tasks area's Today and Overdue tabs with
// "Mine"; a conversation waits when its last message came in and it is not closed; messages count
// on their local day.
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/dashboard/dashboard.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipelinerepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QtTest>

namespace {
QDateTime utc(int y, int mo, int d, int h = 0, int mi = 0)
{
    return QDateTime(QDate(y, mo, d), QTime(h, mi), QTimeZone::utc());
}

const QTimeZone kIstanbul("Europe/Istanbul");
} // namespace

class TestDashboard final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    FakeClock m_clock;
    EventBus m_bus;
    // Now: Monday 2 March 2026, 10:00 UTC (13:00 in Istanbul).
    const QDateTime m_now = utc(2026, 3, 2, 10, 0);

    Store store() { return Store(m_bus, m_clock); }
    DashboardFigures figures(const QTimeZone &tz = QTimeZone::utc(), const QString &user = {}, int days = 14)
    {
        m_clock.set(m_now);
        DashboardRequest r;
        r.userId = user;
        r.days = days;
        return Dashboard(store(), tz).figures(r);
    }
    QString deal(const QString &stage, const QString &currency, double value)
    {
        return DealRepository(store())
            .create(DealRules::parse({{"name", QStringLiteral("Deal %1 %2").arg(stage, currency)},
                                      {"value", value},
                                      {"currency", currency},
                                      {"stage", stage}}))
            .id;
    }
    QString contact(const QString &name)
    {
        static int n = 0;
        return ContactRepository(store())
            .create(
                ContactRules::parse({{"firstName", name}, {"email", QStringLiteral("kisi%1@ornek.com.tr").arg(++n)}}))
            .id;
    }

private slots:
    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_clock.set(m_now);
    }
    void cleanup() { m_db.reset(); }

    // Every (stage, currency) of the same deals: the count, the value and the value weighted by the
    // stage's probability (lead 10, contact 20, proposal 50, negotiation 80), never added across
    // currencies; won and lost are no part of the funnel.
    void funnelWeightsByTheStagesProbability_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("currency");
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("weighted");
        QTest::addColumn<int>("stageDeals"); // in every currency
        QTest::newRow("lead TRY") << "lead"
                                  << "TRY" << 3000.0 << 300.0 << 3;
        QTest::newRow("lead USD") << "lead"
                                  << "USD" << 500.0 << 50.0 << 3;
        QTest::newRow("contact, empty") << "contact"
                                        << "TRY" << 0.0 << 0.0 << 0;
        QTest::newRow("proposal EUR") << "proposal"
                                      << "EUR" << 1000.0 << 500.0 << 1;
        QTest::newRow("negotiation TRY") << "negotiation"
                                         << "TRY" << 10000.0 << 8000.0 << 2;
        QTest::newRow("negotiation USD") << "negotiation"
                                         << "USD" << 250.0 << 200.0 << 2;
        QTest::newRow("no EUR in negotiation") << "negotiation"
                                               << "EUR" << 0.0 << 0.0 << 2;
    }
    void funnelWeightsByTheStagesProbability()
    {
        QFETCH(QString, stage);
        QFETCH(QString, currency);
        QFETCH(double, value);
        QFETCH(double, weighted);
        QFETCH(int, stageDeals);
        deal("lead", "TRY", 1000);
        deal("lead", "TRY", 2000);
        deal("lead", "USD", 500);
        deal("proposal", "EUR", 1000);
        deal("negotiation", "TRY", 10000);
        deal("negotiation", "USD", 250);
        deal("won", "TRY", 99999);
        deal("lost", "USD", 99999);
        const DashboardFigures f = figures();
        QStringList keys;
        for (const DashboardFigures::Stage &s : f.funnel)
            keys << s.key;
        QCOMPARE(keys, QStringList({"lead", "contact", "proposal", "negotiation"}));
        const auto it = std::find_if(f.funnel.cbegin(), f.funnel.cend(),
                                     [&stage](const DashboardFigures::Stage &s) { return s.key == stage; });
        QVERIFY(it != f.funnel.cend());
        QCOMPARE(it->deals, qint64(stageDeals));
        QCOMPARE(it->value.contains(currency), value > 0);
        QCOMPARE(it->value.value(currency, 0), value);
        QCOMPARE(it->weighted.value(currency, 0), weighted);
        // The open totals per currency: each currency's own sum, won and lost left out.
        QCOMPARE(f.openWeighted.keys(), QStringList({"EUR", "TRY", "USD"}));
        QCOMPARE(f.openWeighted.value("TRY"), 8300.0);
        QCOMPARE(f.openWeighted.value("USD"), 250.0);
        QCOMPARE(f.openValue.value("TRY"), 13000.0);
        QCOMPARE(f.openValue.value("USD"), 750.0);
    }

    // A stage's own probability weighs its deals, whatever a deal's probability was set to.
    void funnelUsesTheStageProbabilityNotTheDeals()
    {
        const Deal d = DealRepository(store()).create(
            DealRules::parse({{"name", "Set by hand"}, {"value", 1000}, {"currency", "TRY"}, {"stage", "proposal"}}));
        DealChanges ch;
        ch.probability = 90;
        DealRepository(store()).update(d.id, ch);
        const DashboardFigures f = figures();
        QCOMPARE(f.funnel.at(2).key, QString("proposal"));
        QCOMPARE(f.funnel.at(2).weighted.value("TRY"), 500.0);
    }

    // A deal closed `daysAgo` days before today (at `hour` UTC), in the tasks' zone `zone`.
    void wonAndLostWindows_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("daysAgo");
        QTest::addColumn<int>("hour");
        QTest::addColumn<QString>("zone");
        QTest::addColumn<QString>("currency");
        QTest::addColumn<double>("closedValue"); // 0: none given (the deal's value, 1000)
        QTest::addColumn<bool>("in30");
        QTest::addColumn<bool>("in90");
        QTest::newRow("won today") << "won" << 0 << 9 << "UTC"
                                   << "TRY" << 0.0 << true << true;
        QTest::newRow("won with a closed value") << "won" << 3 << 12 << "UTC"
                                                 << "USD" << 1500.0 << true << true;
        QTest::newRow("won on the 30 days' first day") << "won" << 29 << 0 << "UTC"
                                                       << "TRY" << 0.0 << true << true;
        QTest::newRow("won the day before") << "won" << 30 << 23 << "UTC"
                                            << "TRY" << 0.0 << false << true;
        QTest::newRow("won on the 90 days' first day") << "won" << 89 << 0 << "UTC"
                                                       << "EUR" << 0.0 << false << true;
        QTest::newRow("won before the 90 days") << "won" << 90 << 23 << "UTC"
                                                << "TRY" << 0.0 << false << false;
        QTest::newRow("lost today") << "lost" << 0 << 8 << "UTC"
                                    << "TRY" << 0.0 << true << true;
        QTest::newRow("lost 45 days ago") << "lost" << 45 << 12 << "UTC"
                                          << "USD" << 0.0 << false << true;
        QTest::newRow("lost before the 90 days") << "lost" << 120 << 12 << "UTC"
                                                 << "USD" << 0.0 << false << false;
        // 21:30 UTC 30 days back is 00:30 of the next day, the window's first, in Istanbul: inside
        // there, not in UTC.
        QTest::newRow("won, Istanbul's day") << "won" << 30 << 21 << "Europe/Istanbul"
                                             << "TRY" << 0.0 << true << true;
        QTest::newRow("won, the same moment in UTC") << "won" << 30 << 21 << "UTC"
                                                     << "TRY" << 0.0 << false << true;
    }
    void wonAndLostWindows()
    {
        QFETCH(QString, kind);
        QFETCH(int, daysAgo);
        QFETCH(int, hour);
        QFETCH(QString, zone);
        QFETCH(QString, currency);
        QFETCH(double, closedValue);
        QFETCH(bool, in30);
        QFETCH(bool, in90);
        const QString id = deal("proposal", currency, 1000);
        deal("negotiation", "TRY", 5000); // open: counts in neither
        m_clock.set(QDateTime(m_now.date().addDays(-daysAgo), QTime(hour, 30), QTimeZone::utc()));
        DealRepository deals(store());
        if (kind == "won")
            deals.markWon(id, closedValue > 0 ? std::optional<double>(closedValue) : std::nullopt);
        else
            deals.markLost(id, "price", {});
        const DashboardFigures f = figures(QTimeZone(zone.toLatin1()));
        const DashboardFigures::Closed &w30 = kind == "won" ? f.won30 : f.lost30;
        const DashboardFigures::Closed &w90 = kind == "won" ? f.won90 : f.lost90;
        const DashboardFigures::Closed &other90 = kind == "won" ? f.lost90 : f.won90;
        const double value = closedValue > 0 ? closedValue : 1000.0;
        QCOMPARE(w30.deals, in30 ? 1 : 0);
        QCOMPARE(w90.deals, in90 ? 1 : 0);
        const CurrencyAmounts amounts{{currency, value}};
        QCOMPARE(w30.value, in30 ? amounts : CurrencyAmounts());
        QCOMPARE(w90.value, in90 ? amounts : CurrencyAmounts());
        QCOMPARE(other90.deals, 0);
    }

    // One task of the signed-in user (or another's) and where it counts, in Istanbul's days: now is
    // 13:00 there.
    void tasksDueTodayAndOverdue_data()
    {
        QTest::addColumn<QString>("due");
        QTest::addColumn<QString>("status");
        QTest::addColumn<bool>("mine");
        QTest::addColumn<int>("today");
        QTest::addColumn<int>("overdue");
        QTest::newRow("later today") << "2026-03-02T12:00:00.000Z"
                                     << "" << true << 1 << 0;
        QTest::newRow("earlier today: today and late") << "2026-03-02T08:00:00.000Z"
                                                       << "" << true << 1 << 1;
        QTest::newRow("all day today") << "2026-03-02"
                                       << "" << true << 1 << 0;
        QTest::newRow("all day yesterday") << "2026-03-01"
                                           << "" << true << 0 << 1;
        QTest::newRow("yesterday, in progress") << "2026-03-01T09:00:00.000Z"
                                                << "in_progress" << true << 0 << 1;
        // 22:30 UTC on the 1st is 01:30 on the 2nd in Istanbul: today there.
        QTest::newRow("Istanbul's today") << "2026-03-01T22:30:00.000Z"
                                          << "" << true << 1 << 1;
        QTest::newRow("tomorrow") << "2026-03-03"
                                  << "" << true << 0 << 0;
        QTest::newRow("done today") << "2026-03-02T08:00:00.000Z"
                                    << "completed" << true << 0 << 0;
        QTest::newRow("cancelled, late") << "2026-02-27"
                                         << "cancelled" << true << 0 << 0;
        QTest::newRow("no due date") << ""
                                     << "" << true << 0 << 0;
        QTest::newRow("someone else's, late") << "2026-03-01"
                                              << "" << false << 0 << 0;
    }
    void tasksDueTodayAndOverdue()
    {
        QFETCH(QString, due);
        QFETCH(QString, status);
        QFETCH(bool, mine);
        QFETCH(int, today);
        QFETCH(int, overdue);
        UserRepository users(testStore());
        const QString me = users.create("selin@ornek.com.tr", "Selin Aksoy", "agent", "x").id;
        const QString other = users.create("murat@ornek.com.tr", "Murat Çelik", "agent", "x").id;
        TaskRepository tasks(store(), kIstanbul);
        QJsonObject body{{"title", "Call back"}, {"assignedTo", mine ? me : other}};
        if (!due.isEmpty())
            body.insert("dueDate", due);
        const Task t = tasks.create(TaskRules::parse(body));
        if (!status.isEmpty())
            tasks.setStatus(t.id, status);
        const DashboardFigures f = figures(kIstanbul, me);
        QCOMPARE(f.tasksDueToday, qint64(today));
        QCOMPARE(f.tasksOverdue, qint64(overdue));
        // Nobody signed in: nobody's tasks.
        const DashboardFigures nobody = figures(kIstanbul);
        QCOMPARE(nobody.tasksDueToday + nobody.tasksOverdue, qint64(0));
    }

    // A conversation's messages in order ("in", "out") and whether it is closed: whether it waits.
    void waitingConversations_data()
    {
        QTest::addColumn<QStringList>("messages");
        QTest::addColumn<bool>("closed");
        QTest::addColumn<bool>("waits");
        QTest::newRow("a question") << QStringList{"in"} << false << true;
        QTest::newRow("answered") << QStringList{"in", "out"} << false << false;
        QTest::newRow("asked again") << QStringList{"in", "out", "in"} << false << true;
        QTest::newRow("ours first, then theirs") << QStringList{"out", "in"} << false << true;
        QTest::newRow("only ours") << QStringList{"out"} << false << false;
        QTest::newRow("a question, closed") << QStringList{"in"} << true << false;
        QTest::newRow("no message") << QStringList{} << false << false;
    }
    void waitingConversations()
    {
        QFETCH(QStringList, messages);
        QFETCH(bool, closed);
        QFETCH(bool, waits);
        ConversationRepository conversations(store());
        const QString id = conversations.findOrCreate(contact("Ayşe"), "whatsapp", "+905321112233").id;
        for (const QString &m : messages) {
            m_clock.set(m_clock.now().addSecs(60));
            MessageContent c;
            c.text = m;
            if (m == "in")
                conversations.receive(id, c);
            else
                conversations.addOutgoing(id, c, {"agent", {}, "Selin"}, "sent");
        }
        if (closed)
            conversations.close(id);
        const DashboardFigures f = figures();
        QCOMPARE(f.waiting, waits ? 1 : 0);
        QCOMPARE(f.oldestWaitingId, waits ? id : QString());
        QCOMPARE(f.oldestWaitSince.isValid(), waits);
        // The Inbox's "Waiting" filter lists the same conversations.
        ConversationQuery q;
        q.waitingOnly = true;
        QCOMPARE(conversations.list(q).total, f.waiting);
    }

    // The longest wait is the oldest incoming last message among those waiting.
    void oldestWaitIsTheLongestWaiting()
    {
        ConversationRepository conversations(store());
        MessageContent c;
        c.text = "Merhaba";
        m_clock.set(m_now.addSecs(-3 * 3600));
        const QString answered = conversations.findOrCreate(contact("Ali"), "telegram", "1").id;
        conversations.receive(answered, c);
        m_clock.set(m_now.addSecs(-2 * 3600));
        const QString oldest = conversations.findOrCreate(contact("Ayşe"), "whatsapp", "+905321112233").id;
        conversations.receive(oldest, c);
        m_clock.set(m_now.addSecs(-3600));
        conversations.addOutgoing(answered, c, {"agent", {}, "Selin"}, "sent");
        m_clock.set(m_now.addSecs(-600));
        conversations.receive(conversations.findOrCreate(contact("Can"), "instagram", "2").id, c);
        const DashboardFigures f = figures();
        QCOMPARE(f.waiting, 2);
        QCOMPARE(f.oldestWaitingId, oldest);
        QCOMPARE(f.oldestWaitSince, m_now.addSecs(-2 * 3600));
    }

    // A message at a moment (hours back from now) on a channel: the day it counts on, 13 the last
    // of 14 (today), -1 outside; the days are Istanbul's (UTC+3).
    void messagesPerChannelPerDay_data()
    {
        QTest::addColumn<int>("hoursBack");
        QTest::addColumn<QString>("channel");
        QTest::addColumn<int>("day");
        QTest::newRow("now") << 0 << "whatsapp" << 13;
        QTest::newRow("today's first hour there") << 12 << "telegram" << 13;    // 01:00 in Istanbul
        QTest::newRow("yesterday's last hour there") << 14 << "telegram" << 12; // 23:00 the day before
        QTest::newRow("a week back") << 7 * 24 << "instagram" << 6;
        QTest::newRow("the first day") << 13 * 24 + 12 << "widget" << 0;
        QTest::newRow("before the first day") << 13 * 24 + 14 << "widget" << -1;
    }
    void messagesPerChannelPerDay()
    {
        QFETCH(int, hoursBack);
        QFETCH(QString, channel);
        QFETCH(int, day);
        ConversationRepository conversations(store());
        m_clock.set(m_now.addSecs(-hoursBack * 3600));
        const QString id = conversations.findOrCreate(contact("Ayşe"), channel, "x1").id;
        MessageContent c;
        c.text = "Merhaba";
        conversations.receive(id, c);
        conversations.addOutgoing(id, c, {"agent", {}, "Selin"}, "sent");
        const DashboardFigures f = figures(kIstanbul);
        QCOMPARE(f.days.size(), 14);
        QCOMPARE(f.days.last(), QDate(2026, 3, 2));
        QCOMPARE(f.days.first(), QDate(2026, 2, 17));
        if (day < 0) {
            QVERIFY(f.messagesPerDay.isEmpty());
            QCOMPARE(f.messagesTotal, 0);
            return;
        }
        QCOMPARE(f.messagesPerDay.keys(), QStringList{channel});
        QVector<qint64> expected(14, 0);
        expected[day] = 2; // both directions
        QCOMPARE(f.messagesPerDay.value(channel), expected);
        QCOMPARE(f.messagesTotal, 2);
        // 30 days hold the same messages, today last.
        const DashboardFigures month = figures(kIstanbul, {}, 30);
        QCOMPARE(month.days.size(), 30);
        QCOMPARE(month.messagesPerDay.value(channel).at(day + 16), 2);
    }

    // Another pipeline's deals count in its own funnel and windows only.
    void anotherPipelinesDeals()
    {
        PipelineChanges ch;
        ch.name = QStringLiteral("Renewals");
        ch.stages = QVector<PipelineStageChange>{{"due", "Due", 40, std::nullopt}};
        const Pipeline renewals = PipelineRepository(store()).create(ch);
        DealRepository(store()).create(DealRules::parse(
            {{"name", "Renewal"}, {"value", 100}, {"currency", "TRY"}, {"pipelineId", renewals.id}, {"stage", "due"}}));
        deal("lead", "TRY", 1000);
        DashboardRequest r;
        r.pipelineId = renewals.id;
        const DashboardFigures f = Dashboard(store(), QTimeZone::utc()).figures(r);
        QCOMPARE(f.pipeline.id, renewals.id);
        QCOMPARE(f.pipelines.size(), 2);
        QCOMPARE(f.funnel.size(), 1);
        QCOMPARE(f.funnel.at(0).weighted.value("TRY"), 40.0);
        QCOMPARE(f.openValue, CurrencyAmounts({{"TRY", 100.0}}));
        const DashboardFigures byDefault = figures();
        QCOMPARE(byDefault.pipeline.id, QString("pipeline_default"));
        QCOMPARE(byDefault.openValue, CurrencyAmounts({{"TRY", 1000.0}}));
    }
};

QTEST_GUILESS_MAIN(TestDashboard)
#include "test_dashboard.moc"
