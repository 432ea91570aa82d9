// Deals and pipelines on a real SQLite file: stage moves with their activities and events,
// won/lost, rotting with a moved clock, validation, pipelines, and the summary arithmetic.
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/timeutil.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipelinerepository.h"
#include "tests/support/fakeclock.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QtTest>

namespace {
int outboxCount(const QString &event)
{
    QSqlQuery q = Database::exec("SELECT count(*) FROM outbox WHERE event = ?", {event});
    q.next();
    return q.value(0).toInt();
}

QJsonObject lastEvent(const QString &event)
{
    QSqlQuery q = Database::exec("SELECT payload FROM outbox WHERE event = ? ORDER BY seq DESC LIMIT 1", {event});
    if (!q.next())
        return {};
    return QJsonDocument::fromJson(q.value(0).toByteArray()).object().value("data").toObject();
}

DomainError::Kind kindOf(const std::function<void()> &f)
{
    try {
        f();
    } catch (const DomainError &e) {
        return e.kind();
    }
    return DomainError::Kind(-1);
}
} // namespace

class TestDealRepository : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;

private Q_SLOTS:
    // What the window's deal form fills in meets the rules of a request body: the typed changes and
    // the same values as JSON are refused on the same field, or stored alike.
    void checkAppliesTheBodyRulesToTypedChanges_data()
    {
        QTest::addColumn<QString>("currency");
        QTest::addColumn<QString>("closeDate");
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("probability");
        QTest::addColumn<QString>("badField"); // empty: accepted
        QTest::newRow("ok, lower-case currency") << "usd"
                                                 << "2026-12-31T22:30:00Z" << 1500.0 << 40 << "";
        QTest::newRow("unknown currency") << "XYZ"
                                          << "" << 0.0 << 0 << "currency";
        QTest::newRow("bad close date") << "TRY"
                                        << "31.12.2026" << 0.0 << 0 << "expectedCloseDate";
        QTest::newRow("negative value") << "TRY"
                                        << "" << -1.0 << 0 << "value";
        QTest::newRow("probability over 100") << "TRY"
                                              << "" << 0.0 << 101 << "probability";
    }
    void checkAppliesTheBodyRulesToTypedChanges()
    {
        QFETCH(QString, currency);
        QFETCH(QString, closeDate);
        QFETCH(double, value);
        QFETCH(int, probability);
        QFETCH(QString, badField);
        DealChanges typed;
        typed.name = QStringLiteral("Filo yenileme");
        typed.currency = currency;
        typed.expectedCloseDate = closeDate;
        typed.value = value;
        typed.probability = probability;
        QCOMPARE(refusalOf([&] { DealRules::check(typed); }).first, badField);
        std::optional<DealChanges> parsed;
        QCOMPARE(refusalOf([&] {
                     parsed = DealRules::parse({{"name", "Filo yenileme"},
                                                {"currency", currency},
                                                {"expectedCloseDate", closeDate},
                                                {"value", value},
                                                {"probability", probability}});
                 }).first,
                 badField);
        if (badField.isEmpty()) {
            QCOMPARE(*typed.currency, QString("USD"));
            QCOMPARE(*typed.expectedCloseDate, QString("2026-12-31"));
            QVERIFY(typed == *parsed);
        }
    }

    // The pipeline editor's typed changes meet the rules of a request body: one stage as typed and
    // as JSON is refused on the same field with the same kind, or stored alike.
    void pipelineChangesMeetTheBodyRules_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("probability");  // -1: not set
        QTest::addColumn<int>("rottenDays");   // -1: not set
        QTest::addColumn<QString>("badField"); // empty: accepted
        QTest::addColumn<int>("kind");
        const int bad = DomainError::BadRequest, missing = DomainError::Unprocessable;
        QTest::newRow("named only") << ""
                                    << "Teklif Verildi" << -1 << -1 << "" << -1;
        QTest::newRow("key and numbers") << "demo"
                                         << "Demo" << 30 << 7 << "" << -1;
        QTest::newRow("no name, no key") << ""
                                         << "" << -1 << -1 << "stages[0].name" << missing;
        QTest::newRow("key with a capital") << "Demo"
                                            << "Demo" << -1 << -1 << "stages[0].key" << bad;
        QTest::newRow("probability over 100") << "demo"
                                              << "Demo" << 101 << -1 << "stages[0].probability" << bad;
        QTest::newRow("rotting too long") << "demo"
                                          << "Demo" << -1 << 3651 << "stages[0].rottenDays" << bad;
        QTest::newRow("closing stages only") << "won"
                                             << "Kazanıldı" << -1 << -1 << "stages" << missing;
    }
    void pipelineChangesMeetTheBodyRules()
    {
        QFETCH(QString, key);
        QFETCH(QString, name);
        QFETCH(int, probability);
        QFETCH(int, rottenDays);
        QFETCH(QString, badField);
        QFETCH(int, kind);
        PipelineStageChange stage{key, name, std::nullopt, std::nullopt};
        QJsonObject json{{"key", key}, {"name", name}};
        if (probability >= 0) {
            stage.probability = probability;
            json.insert("probability", probability);
        }
        if (rottenDays >= 0) {
            stage.rottenDays = rottenDays;
            json.insert("rottenDays", rottenDays);
        }
        PipelineChanges typed;
        typed.name = QStringLiteral("Kurumsal");
        typed.stages = QVector<PipelineStageChange>{stage};
        QCOMPARE(refusalOf([&] { PipelineRules::check(typed, true); }), qMakePair(badField, kind));
        std::optional<PipelineChanges> parsed;
        QCOMPARE(refusalOf([&] {
                     parsed = PipelineRules::parse({{"name", "Kurumsal"}, {"stages", QJsonArray{json}}}, true);
                 }),
                 qMakePair(badField, kind));
        if (badField.isEmpty()) {
            PipelineRepository pipelines(testStore());
            const Pipeline a = pipelines.create(typed);
            typed.name = QStringLiteral("Kurumsal 2");
            parsed->name = QStringLiteral("Kurumsal 3");
            const Pipeline b = pipelines.create(*parsed);
            QCOMPARE(a.stages.size(), 3); // won and lost added
            QCOMPARE(b.stages.size(), a.stages.size());
            QCOMPARE(b.stages.first().key, a.stages.first().key);
            QCOMPARE(b.stages.first().probability, a.stages.first().probability);
            QCOMPARE(b.stages.first().rottenDays, a.stages.first().rottenDays);
        }
    }

    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    void migrationSeedsDefaultPipeline()
    {
        const Pipeline p = PipelineRepository(testStore()).defaultPipeline();
        QCOMPARE(p.id, QString("pipeline_default"));
        QCOMPARE(p.stageKeys(), QStringList({"lead", "contact", "proposal", "negotiation", "won", "lost"}));
        QCOMPARE(p.stage("won")->probability, 100);
        QCOMPARE(p.stage("lost")->probability, 0);
        QVERIFY(p.stage("lead")->probability < p.stage("negotiation")->probability);
    }

    void createsWithDefaultsEventAndFirstActivity()
    {
        EventBus bus;
        QSignalSpy spy(&bus, &EventBus::changed);
        DealRepository repo{Store(bus)};
        const Deal d = repo.create(DealRules::parse({{"name", "Big order"}, {"value", 1000}}));
        QVERIFY(d.id.startsWith("deal_"));
        QCOMPARE(d.pipelineId, QString("pipeline_default"));
        QCOMPARE(d.stage, QString("lead"));
        QCOMPARE(d.probability, 10);
        QCOMPARE(d.currency, QString("TRY"));
        QCOMPARE(outboxCount("deal.created"), 1);
        QCOMPARE(lastEvent("deal.created").value("dealId").toString(), d.id);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<EventBus::Entity>(), EventBus::Entity::Deal);
        QCOMPARE(repo.activities(d.id).size(), 1);
    }

    void stageMoves_data()
    {
        QTest::addColumn<QStringList>("path");
        QTest::addColumn<int>("probability");
        QTest::addColumn<int>("stageChangedEvents");
        QTest::addColumn<int>("wonEvents");
        QTest::addColumn<int>("lostEvents");
        QTest::newRow("forward") << QStringList{"contact", "proposal"} << 50 << 2 << 0 << 0;
        QTest::newRow("backward") << QStringList{"negotiation", "contact"} << 20 << 2 << 0 << 0;
        QTest::newRow("to won") << QStringList{"won"} << 100 << 1 << 1 << 0;
        QTest::newRow("to lost") << QStringList{"lost"} << 0 << 1 << 0 << 1;
        QTest::newRow("won back to open") << QStringList{"won", "proposal"} << 50 << 2 << 1 << 0;
        QTest::newRow("same stage is no move") << QStringList{"lead"} << 10 << 0 << 0 << 0;
    }
    void stageMoves()
    {
        QFETCH(QStringList, path);
        QFETCH(int, probability);
        QFETCH(int, stageChangedEvents);
        QFETCH(int, wonEvents);
        QFETCH(int, lostEvents);
        DealRepository repo(testStore());
        const Deal d = repo.create(DealRules::parse({{"name", "D"}, {"value", 10}}));
        QString from = d.stage;
        for (const QString &stage : path)
            repo.moveStage(d.id, stage, "moved to " + stage);
        const Deal after = repo.get(d.id);
        QCOMPARE(after.stage, path.last());
        QCOMPARE(after.probability, probability);
        QCOMPARE(outboxCount("deal.stage_changed"), stageChangedEvents);
        QCOMPARE(outboxCount("deal.won"), wonEvents);
        QCOMPARE(outboxCount("deal.lost"), lostEvents);
        // Activities: newest first, one stage_change per move plus the one of creation.
        const QVector<DealActivity> acts = repo.activities(d.id);
        QCOMPARE(acts.size(), 1 + stageChangedEvents);
        if (stageChangedEvents > 0) {
            QCOMPARE(acts.first().type, QString("stage_change"));
            QCOMPARE(acts.first().to, path.last());
            QCOMPARE(acts.first().content, "moved to " + path.last());
            QCOMPARE(lastEvent("deal.stage_changed").value("to").toString(), path.last());
            QCOMPARE(lastEvent("deal.stage_changed").value("dealId").toString(), d.id);
        }
        if (after.stage != "won" && after.stage != "lost")
            QVERIFY(after.closedAt.isEmpty());
    }

    void wonAndLostRecordClosingData()
    {
        UserRepository users(testStore());
        const User u = users.create("owner@example.com", "Olivia Owner", "agent", "x");
        DealRepository repo(testStore());
        const Deal d = repo.create(DealRules::parse({{"name", "D"}, {"value", 100}, {"currency", "usd"}}), u.id);
        QCOMPARE(d.currency, QString("USD"));
        QCOMPARE(d.assignedTo, u.id); // a user who creates a deal owns it
        QCOMPARE(d.assignedName, QString("Olivia Owner"));
        const Deal won = repo.markWon(d.id, 120.5, "signed", u.id);
        QCOMPARE(won.stage, QString("won"));
        QCOMPARE(won.probability, 100);
        QCOMPARE(*won.closedValue, 120.5);
        QVERIFY(!won.closedAt.isEmpty());
        QCOMPARE(kindOf([&] { repo.markWon(d.id, std::nullopt); }), DomainError::Conflict);
        const DealActivity act = repo.activities(d.id).first();
        QCOMPARE(act.from, QString("lead"));
        QCOMPARE(act.to, QString("won"));
        QCOMPARE(act.userName, QString("Olivia Owner"));
        QCOMPARE(lastEvent("deal.won").value("closedValue").toDouble(), 120.5);

        const Deal lost = repo.markLost(d.id, "competitor", "Globex", "went elsewhere", u.id);
        QCOMPARE(lost.stage, QString("lost"));
        QCOMPARE(lost.probability, 0);
        QCOMPARE(lost.lostReason, QString("competitor"));
        QCOMPARE(lost.competitorName, QString("Globex"));
        QVERIFY(!lost.closedValue);
        QCOMPARE(lastEvent("deal.lost").value("reason").toString(), QString("competitor"));
        QCOMPARE(kindOf([&] { repo.markLost(d.id, "price", {}); }), DomainError::Conflict);

        // Reopening clears the closing data; the move is recorded.
        const Deal reopened = repo.moveStage(d.id, "negotiation");
        QVERIFY(reopened.lostReason.isEmpty());
        QVERIFY(reopened.closedAt.isEmpty());
        QCOMPARE(repo.activities(d.id).first().from, QString("lost"));
    }

    void lostReasonIsChecked_data()
    {
        QTest::addColumn<QString>("reason");
        QTest::addColumn<int>("kind");
        QTest::newRow("missing") << "" << int(DomainError::Unprocessable);
        QTest::newRow("unknown") << "weather" << int(DomainError::BadRequest);
    }
    void lostReasonIsChecked()
    {
        QFETCH(QString, reason);
        QFETCH(int, kind);
        DealRepository repo(testStore());
        const Deal d = repo.create(DealRules::parse({{"name", "D"}}));
        QCOMPARE(int(kindOf([&] { repo.markLost(d.id, reason, {}); })), kind);
        QCOMPARE(repo.get(d.id).stage, QString("lead"));
        QCOMPARE(outboxCount("deal.lost"), 0);
    }

    void validation_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("field");
        QTest::newRow("no name") << QJsonObject{{"value", 1}} << int(DomainError::Unprocessable) << "name";
        QTest::newRow("blank name") << QJsonObject{{"name", "  "}} << int(DomainError::Unprocessable) << "name";
        QTest::newRow("negative value") << QJsonObject{{"name", "A"}, {"value", -1}} << int(DomainError::BadRequest)
                                        << "value";
        QTest::newRow("value string") << QJsonObject{{"name", "A"}, {"value", "10"}} << int(DomainError::BadRequest)
                                      << "value";
        QTest::newRow("bad currency") << QJsonObject{{"name", "A"}, {"currency", "XXX"}} << int(DomainError::BadRequest)
                                      << "currency";
        QTest::newRow("probability 101") << QJsonObject{{"name", "A"}, {"probability", 101}}
                                         << int(DomainError::BadRequest) << "probability";
        QTest::newRow("probability fraction")
            << QJsonObject{{"name", "A"}, {"probability", 12.5}} << int(DomainError::BadRequest) << "probability";
        QTest::newRow("bad date") << QJsonObject{{"name", "A"}, {"expectedCloseDate", "2026-13-01"}}
                                  << int(DomainError::BadRequest) << "expectedCloseDate";
        QTest::newRow("unknown stage") << QJsonObject{{"name", "A"}, {"stage", "qualified"}}
                                       << int(DomainError::Unprocessable) << "stage";
        QTest::newRow("unknown contact") << QJsonObject{{"name", "A"}, {"contactId", "contact_nope"}}
                                         << int(DomainError::Unprocessable) << "contactId";
        QTest::newRow("unknown user") << QJsonObject{{"name", "A"}, {"assignedTo", "user_nope"}}
                                      << int(DomainError::Unprocessable) << "assignedTo";
        QTest::newRow("unknown pipeline") << QJsonObject{{"name", "A"}, {"pipelineId", "pipeline_nope"}}
                                          << int(DomainError::Unprocessable) << "pipelineId";
        QTest::newRow("custom fields array") << QJsonObject{{"name", "A"}, {"customFields", QJsonArray{}}}
                                             << int(DomainError::BadRequest) << "customFields";
    }
    void validation()
    {
        QFETCH(QJsonObject, body);
        QFETCH(int, kind);
        QFETCH(QString, field);
        try {
            DealRepository(testStore()).create(DealRules::parse(body));
            QFAIL("no error");
        } catch (const DomainError &e) {
            QCOMPARE(int(e.kind()), kind);
            QVERIFY2(e.details().contains(field), qPrintable(e.message()));
        }
        QCOMPARE(outboxCount("deal.created"), 0);
    }

    void updateWithStageRecordsMoveAndChangedFields()
    {
        DealRepository repo(testStore());
        const Deal d = repo.create(DealRules::parse({{"name", "D"}, {"value", 10}}));
        const Deal u =
            repo.update(d.id, DealRules::parse({{"value", 20}, {"stage", "proposal"}, {"note", "sent offer"}}));
        QCOMPARE(u.value, 20.0);
        QCOMPARE(u.stage, QString("proposal"));
        QCOMPARE(u.probability, 50);
        const QJsonArray changed = lastEvent("deal.updated").value("changedFields").toArray();
        QVERIFY(changed.contains("value"));
        QVERIFY(changed.contains("stage"));
        QCOMPARE(outboxCount("deal.stage_changed"), 1);
        QCOMPARE(repo.activities(d.id).first().content, QString("sent offer"));
        // Same values again: nothing stored, no event.
        repo.update(d.id, DealRules::parse({{"value", 20}}));
        QCOMPARE(outboxCount("deal.updated"), 1);
        // Explicit probability wins over the stage default.
        QCOMPARE(repo.update(d.id, DealRules::parse({{"probability", 65}})).probability, 65);
    }

    void activitiesUpdateDealAndEmit()
    {
        EventBus bus;
        DealRepository repo{Store(bus)};
        const Deal d = repo.create(DealRules::parse({{"name", "D"}}));
        QSignalSpy spy(&bus, &EventBus::changed);
        const DealActivity a = repo.addActivity(d.id, "call", "  Called the buyer ");
        QCOMPARE(a.content, QString("Called the buyer"));
        QCOMPARE(repo.activities(d.id).first().id, a.id);
        QCOMPARE(lastEvent("deal.updated").value("activity").toObject().value("type").toString(), QString("call"));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(kindOf([&] { repo.addActivity(d.id, "stage_change", "x"); }), DomainError::BadRequest);
        QCOMPARE(kindOf([&] { repo.addActivity(d.id, "note", "  "); }), DomainError::Unprocessable);
        QCOMPARE(kindOf([&] { repo.addActivity("deal_nope", "note", "x"); }), DomainError::NotFound);
    }

    void rottingFollowsStageDaysAndActivity()
    {
        PipelineRepository pipelines(testStore());
        const Pipeline p = pipelines.create(
            PipelineRules::parse({{"name", "Fast"},
                                  {"stages", QJsonArray{QJsonObject{{"name", "Qualified"}, {"rottenDays", 3}},
                                                        QJsonObject{{"name", "Demo"}}}}},
                                 true));
        FakeClock clock;
        DealRepository repo(Store(testStore().bus(), clock));
        const Deal d = repo.create(DealRules::parse({{"name", "Slow"}, {"pipelineId", p.id}, {"stage", "qualified"}}));
        const Deal e = repo.create(DealRules::parse({{"name", "Other"}, {"pipelineId", p.id}, {"stage", "demo"}}));
        QVERIFY(!repo.get(d.id).isRotten);
        clock.advance(4 * 24 * 3600);
        QVERIFY(repo.get(d.id).isRotten);
        QVERIFY(!repo.get(e.id).isRotten); // demo does not rot
        DealQuery rotten;
        rotten.rotten = true;
        QCOMPARE(repo.list(rotten).total, 1);
        QCOMPARE(repo.list(rotten).items.first().id, d.id);
        rotten.rotten = false;
        QCOMPARE(repo.list(rotten).total, 1);
        repo.addActivity(d.id, "note", "still alive");
        QVERIFY(!repo.get(d.id).isRotten);
    }

    void listFilters()
    {
        DealRepository repo(testStore());
        ContactRepository contacts(testStore());
        const Contact c = contacts.create(ContactRules::parse({{"firstName", "Ann"}, {"email", "ann@example.com"}}));
        repo.create(DealRules::parse({{"name", "A"}, {"value", 10}, {"contactId", c.id}}));
        repo.create(DealRules::parse({{"name", "B"}, {"value", 500}, {"stage", "proposal"}}));
        repo.create(DealRules::parse({{"name", "C"}, {"value", 1000}, {"stage", "proposal"}, {"currency", "EUR"}}));
        DealQuery q;
        QCOMPARE(repo.list(q).total, 3);
        q.stages = {"proposal"};
        QCOMPARE(repo.list(q).total, 2);
        q.minValue = 600;
        QCOMPARE(repo.list(q).total, 1);
        q = {};
        q.maxValue = 500;
        QCOMPARE(repo.list(q).total, 2);
        q = {};
        q.contactId = c.id;
        const DealPage page = repo.list(q);
        QCOMPARE(page.total, 1);
        QCOMPARE(page.items.first().contactName, QString("Ann"));
    }

    void summaryArithmetic_data()
    {
        // Each deal: stage, currency, value, probability (-1: the stage default).
        QTest::addColumn<QJsonArray>("deals");
        QTest::addColumn<QString>("currency");
        QTest::addColumn<QString>("reporting");
        QTest::addColumn<int>("totalDeals");
        QTest::addColumn<double>("totalValue");
        QTest::addColumn<double>("weightedValue");
        QTest::addColumn<double>("avgDealSize");
        QTest::addColumn<int>("currencies");
        QTest::newRow("empty pipeline") << QJsonArray{} << QString() << QString() << 0 << 0.0 << 0.0 << 0.0 << 0;
        QTest::newRow("mixed probabilities")
            << QJsonArray{QJsonArray{"lead", "TRY", 1000, 10}, QJsonArray{"proposal", "TRY", 2000, 50},
                          QJsonArray{"negotiation", "TRY", 3000, 75}}
            << QString() << "TRY" << 3 << 6000.0 << (100.0 + 1000.0 + 2250.0) << 2000.0 << 1;
        QTest::newRow("won and lost stay out of the open totals")
            << QJsonArray{QJsonArray{"lead", "USD", 100, -1}, QJsonArray{"won", "USD", 900, -1},
                          QJsonArray{"lost", "USD", 50, -1}}
            << QString() << "USD" << 1 << 100.0 << 10.0 << 100.0 << 1;
        QTest::newRow("currencies are not added: most used wins")
            << QJsonArray{QJsonArray{"lead", "TRY", 1000, 20}, QJsonArray{"lead", "USD", 10, 20},
                          QJsonArray{"contact", "USD", 30, 40}}
            << QString() << "USD" << 2 << 40.0 << 14.0 << 20.0 << 2;
        QTest::newRow("currencies: the asked one")
            << QJsonArray{QJsonArray{"lead", "TRY", 1000, 20}, QJsonArray{"lead", "USD", 10, 20},
                          QJsonArray{"contact", "USD", 30, 40}}
            << QString("TRY") << "TRY" << 1 << 1000.0 << 200.0 << 1000.0 << 2;
        QTest::newRow("currency with no deals gives zeros") << QJsonArray{QJsonArray{"lead", "TRY", 1000, 20}}
                                                            << QString("EUR") << "EUR" << 0 << 0.0 << 0.0 << 0.0 << 1;
        QTest::newRow("cents add up") << QJsonArray{QJsonArray{"lead", "EUR", 0.1, 100},
                                                    QJsonArray{"lead", "EUR", 0.2, 100}}
                                      << QString() << "EUR" << 2 << 0.3 << 0.3 << 0.15 << 1;
    }
    void summaryArithmetic()
    {
        QFETCH(QJsonArray, deals);
        QFETCH(QString, currency);
        QFETCH(QString, reporting);
        QFETCH(int, totalDeals);
        QFETCH(double, totalValue);
        QFETCH(double, weightedValue);
        QFETCH(double, avgDealSize);
        QFETCH(int, currencies);
        DealRepository repo(testStore());
        for (const QJsonValue &v : deals) {
            const QJsonArray row = v.toArray();
            QJsonObject body{{"name", "D"}, {"currency", row.at(1)}, {"value", row.at(2)}};
            const Deal d = repo.create(DealRules::parse(body));
            if (row.at(0).toString() == "won")
                repo.markWon(d.id, std::nullopt);
            else if (row.at(0).toString() == "lost")
                repo.markLost(d.id, "price", {});
            else
                repo.moveStage(d.id, row.at(0).toString());
            if (row.at(3).toInt() >= 0)
                repo.update(d.id, DealRules::parse({{"probability", row.at(3)}}));
        }
        const QJsonObject json = repo.summary({}, currency).toJson();
        const QJsonObject s = json.value("summary").toObject();
        QCOMPARE(json.value("currency").toString(), reporting);
        QCOMPARE(s.value("totalDeals").toInt(), totalDeals);
        QCOMPARE(s.value("totalValue").toDouble(), totalValue);
        QCOMPARE(s.value("weightedValue").toDouble(), weightedValue);
        QCOMPARE(s.value("avgDealSize").toDouble(), avgDealSize);
        QCOMPARE(json.value("currencies").toArray().size(), currencies);
        QCOMPARE(json.value("stages").toArray().size(), 6);
        // The per-stage values add up to the open total.
        double sum = 0;
        for (const QJsonValue &st : json.value("stages").toArray()) {
            if (st.toObject().value("type").toString() == "open")
                sum += st.toObject().value("value").toDouble();
        }
        QCOMPARE(sum, totalValue);
    }

    void runningTotalsMatchARecount()
    {
        // Random writes of every kind; the totals kept on the way equal a recount from the deals.
        DealRepository repo(testStore());
        QRandomGenerator rng(11);
        const QStringList stages{"lead", "contact", "proposal", "negotiation"};
        const QStringList currencies{"TRY", "USD", "EUR"};
        QStringList ids;
        for (int i = 0; i < 300; ++i) {
            const int op = ids.isEmpty() ? 0 : int(rng.bounded(7));
            const QString id = ids.isEmpty() ? QString() : ids.at(int(rng.bounded(ids.size())));
            if (op == 0)
                ids << repo.create(DealRules::parse({{"name", "D"},
                                                     {"value", double(rng.bounded(1, 100000)) / 100.0},
                                                     {"currency", currencies.at(int(rng.bounded(3)))}}))
                           .id;
            else if (op == 1)
                repo.moveStage(id, stages.at(int(rng.bounded(4))));
            else if (op == 2 && repo.get(id).stage != "won")
                repo.markWon(id, rng.bounded(2) ? std::optional<double>(rng.bounded(1, 500)) : std::nullopt);
            else if (op == 3 && repo.get(id).stage != "lost")
                repo.markLost(id, "price", {});
            else if (op == 4) {
                QJsonObject body{{"value", double(rng.bounded(1, 100000)) / 100.0},
                                 {"currency", currencies.at(int(rng.bounded(3)))}};
                if (stages.contains(repo.get(id).stage))
                    body.insert("probability", int(rng.bounded(101)));
                repo.update(id, DealRules::parse(body));
            } else if (op == 5) {
                repo.remove(id);
                ids.removeOne(id);
            }
        }
        const QJsonObject kept = repo.summary().toJson();
        DealRepository::rebuildTotals();
        QCOMPARE(repo.summary().toJson(), kept);
        QVERIFY(kept.value("byCurrency").toArray().size() > 1);
    }

    void summaryCountsWonAtClosedValue()
    {
        DealRepository repo(testStore());
        const Deal d = repo.create(DealRules::parse({{"name", "D"}, {"value", 100}}));
        repo.markWon(d.id, 80);
        const QJsonObject s = repo.summary().toJson().value("summary").toObject();
        QCOMPARE(s.value("wonDeals").toInt(), 1);
        QCOMPARE(s.value("wonValue").toDouble(), 80.0);
    }

    void pipelinesCrudAndStageRemovalGuard()
    {
        PipelineRepository pipelines(testStore());
        DealRepository deals(testStore());
        const Pipeline p = pipelines.create(
            PipelineRules::parse({{"name", "Partners"},
                                  {"stages", QJsonArray{QJsonObject{{"name", "Qualified"}, {"probability", 30}},
                                                        QJsonObject{{"key", "pilot"}, {"name", "Pilot"}}}}},
                                 true));
        QCOMPARE(p.stageKeys(), QStringList({"qualified", "pilot", "won", "lost"}));
        QCOMPARE(p.stage("qualified")->probability, 30);
        QCOMPARE(kindOf([&] {
                     pipelines.create(PipelineRules::parse(
                         {{"name", "partners"}, {"stages", QJsonArray{QJsonObject{{"name", "x"}}}}}, true));
                 }),
                 DomainError::Conflict);
        QCOMPARE(kindOf([&] {
                     pipelines.create(PipelineRules::parse({{"name", "Empty"}, {"stages", QJsonArray{}}}, true));
                 }),
                 DomainError::Unprocessable);
        const Deal d = deals.create(DealRules::parse({{"name", "D"}, {"pipelineId", p.id}, {"stage", "pilot"}}));
        QCOMPARE(d.probability, p.stage("pilot")->probability);
        // Removing the stage that holds the deal: 409, nothing changed.
        QCOMPARE(kindOf([&] {
                     pipelines.update(p.id, PipelineRules::parse(
                                                {{"stages", QJsonArray{QJsonObject{{"key", "qualified"}}}}}, false));
                 }),
                 DomainError::Conflict);
        QCOMPARE(pipelines.get(p.id).stages.size(), 4);
        // Adding, renaming and reordering keeps the deal's stage.
        const Pipeline u = pipelines.update(
            p.id, PipelineRules::parse(
                      {{"name", "Partner deals"},
                       {"stages", QJsonArray{QJsonObject{{"key", "pilot"}, {"name", "Pilot run"}, {"rottenDays", 7}},
                                             QJsonObject{{"key", "qualified"}}, QJsonObject{{"name", "Contract"}}}}},
                      false));
        QCOMPARE(u.name, QString("Partner deals"));
        QCOMPARE(u.stageKeys(), QStringList({"pilot", "qualified", "contract", "won", "lost"}));
        QCOMPARE(u.stage("pilot")->rottenDays, 7);
        QCOMPARE(kindOf([&] { pipelines.remove(p.id); }), DomainError::Conflict); // holds a deal
        QCOMPARE(kindOf([&] { pipelines.remove("pipeline_default"); }), DomainError::Conflict);
        deals.remove(d.id);
        pipelines.remove(p.id);
        QVERIFY(!pipelines.find(p.id));
        QCOMPARE(outboxCount("deal.deleted"), 1);
    }

    void movingToAnotherPipelineKeepsOrResetsStage()
    {
        PipelineRepository pipelines(testStore());
        DealRepository deals(testStore());
        const Pipeline p = pipelines.create(
            PipelineRules::parse({{"name", "Other"}, {"stages", QJsonArray{QJsonObject{{"name", "Intro"}}}}}, true));
        const Deal d = deals.create(DealRules::parse({{"name", "D"}, {"stage", "proposal"}}));
        const Deal moved = deals.update(d.id, DealRules::parse({{"pipelineId", p.id}}));
        QCOMPARE(moved.pipelineId, p.id);
        QCOMPARE(moved.stage, QString("intro"));
        QCOMPARE(kindOf([&] {
                     deals.update(d.id, DealRules::parse({{"stage", "proposal"}}));
                 }),
                 DomainError::Unprocessable);
    }

    void deletingContactUnlinksDeals()
    {
        EventBus bus;
        QSignalSpy spy(&bus, &EventBus::changed);
        ContactRepository contacts{Store(bus)};
        DealRepository deals{Store(bus)};
        const Contact c = contacts.create(ContactRules::parse({{"firstName", "Ann"}, {"email", "ann@example.com"}}));
        const Deal d = deals.create(DealRules::parse({{"name", "D"}, {"contactId", c.id}}));
        QCOMPARE(deals.forContact(c.id).size(), 1);
        spy.clear();
        contacts.remove(c.id);
        const Deal after = deals.get(d.id);
        QVERIFY(after.contactId.isEmpty());
        QCOMPARE(lastEvent("deal.updated").value("previousContactId").toString(), c.id);
        bool dealNotified = false;
        for (const auto &args : spy)
            dealNotified |=
                args.at(0).value<EventBus::Entity>() == EventBus::Entity::Deal && args.at(1).toString() == d.id;
        QVERIFY(dealNotified);
    }
};

QTEST_GUILESS_MAIN(TestDealRepository)
#include "test_dealrepository.moc"
