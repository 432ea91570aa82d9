// PipelineRepository on the database of the pass: the stages stored from a list (won and lost last,
// probabilities spread by position), the order of list(), one default pipeline at a time, names
// unique without case, stages matched by key on an update, what holds deals cannot go, and the
// bus's news of each write. The body rules of a stage are in unit_dealrepository.
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipelinerepository.h"
#include "tests/support/modelsupport.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QtTest>

namespace {
const QString kDefault = QStringLiteral("pipeline_default");

PipelineChanges named(const QString &name, const QStringList &stageNames)
{
    PipelineChanges c;
    c.name = name;
    QVector<PipelineStageChange> stages;
    for (const QString &s : stageNames)
        stages.append({QString(), s, std::nullopt, std::nullopt});
    c.stages = stages;
    return c;
}

int kindOf(const std::function<void()> &call)
{
    return refusalOf(call).second;
}

QStringList namesOf(const QVector<Pipeline> &pipelines)
{
    QStringList out;
    for (const Pipeline &p : pipelines)
        out << p.name;
    return out;
}
} // namespace

class TestPipelineRepository : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;
    EventBus m_bus;

private Q_SLOTS:
    void init() { m_db = std::make_unique<TempDatabase>(); }
    void cleanup() { m_db.reset(); }

    void storesTheStagesOfAList_data()
    {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QVariantList>("probabilities"); // given, or an invalid QVariant for none
        QTest::addColumn<QStringList>("keys");
        QTest::addColumn<QList<int>>("stored");
        QTest::newRow("one open stage: half way") << QStringList{"Lead"} << QVariantList{QVariant()}
                                                  << QStringList{"lead", "won", "lost"} << QList<int>{50, 100, 0};
        QTest::newRow("spread evenly by position")
            << QStringList{"Lead", "Proposal Made", "Negotiation"} << QVariantList{QVariant(), QVariant(), QVariant()}
            << QStringList{"lead", "proposal_made", "negotiation", "won", "lost"} << QList<int>{25, 50, 75, 100, 0};
        QTest::newRow("a given probability stays, the others by position")
            << QStringList{"Lead", "Demo"} << QVariantList{QVariant(), 90} << QStringList{"lead", "demo", "won", "lost"}
            << QList<int>{33, 90, 100, 0};
        QTest::newRow("Turkish names: keys in plain Latin letters")
            << QStringList{"İlk görüşme", "Sözleşme İmzalandı", "ÇIKIŞ"}
            << QVariantList{QVariant(), QVariant(), QVariant()}
            << QStringList{"ilk_gorusme", "sozlesme_imzalandi", "cikis", "won", "lost"}
            << QList<int>{25, 50, 75, 100, 0};
        QTest::newRow("won and lost named in the list go last")
            << QStringList{"won", "Lead", "lost"} << QVariantList{QVariant(), QVariant(), QVariant()}
            << QStringList{"lead", "won", "lost"} << QList<int>{50, 100, 0};
    }
    void storesTheStagesOfAList()
    {
        QFETCH(QStringList, names);
        QFETCH(QVariantList, probabilities);
        QFETCH(QStringList, keys);
        QFETCH(QList<int>, stored);
        PipelineChanges c = named(QStringLiteral("Kurumsal"), names);
        for (int i = 0; i < names.size(); ++i) {
            if (probabilities.at(i).isValid())
                (*c.stages)[i].probability = probabilities.at(i).toInt();
        }
        const Pipeline p = PipelineRepository(testStore()).create(c);
        QCOMPARE(p.stageKeys(), keys);
        QList<int> read;
        for (int i = 0; i < p.stages.size(); ++i) {
            QCOMPARE(p.stages.at(i).position, i);
            read << p.stages.at(i).probability;
        }
        QCOMPARE(read, stored);
        QCOMPARE(p.stages.constLast().kind, QStringLiteral("lost"));
        QCOMPARE(p.stages.at(p.stages.size() - 2).kind, QStringLiteral("won"));
        QVERIFY(p.stages.constFirst().isOpen());
        // What create() answered is what a later read finds.
        QCOMPARE(PipelineRepository(testStore()).get(p.id).toJson(), p.toJson());
    }

    void listsTheDefaultFirstThenByNameWithoutCase()
    {
        PipelineRepository pipelines(testStore());
        pipelines.create(named(QStringLiteral("zeytin"), {QStringLiteral("A")}));
        pipelines.create(named(QStringLiteral("Bayi"), {QStringLiteral("A")}));
        pipelines.create(named(QStringLiteral("armatör"), {QStringLiteral("A")}));
        const QString seeded = pipelines.get(kDefault).name;
        QCOMPARE(namesOf(pipelines.list()), (QStringList{seeded, "armatör", "Bayi", "zeytin"}));
        QCOMPARE(pipelines.defaultPipeline().id, kDefault);
    }

    void oneDefaultAtATime()
    {
        PipelineRepository pipelines(testStore());
        PipelineChanges c = named(QStringLiteral("Bayi"), {QStringLiteral("Teklif")});
        c.isDefault = true;
        const Pipeline bayi = pipelines.create(c);
        QVERIFY(bayi.isDefault);
        QVERIFY(!pipelines.get(kDefault).isDefault);
        QCOMPARE(pipelines.defaultPipeline().id, bayi.id);
        QCOMPARE(pipelines.list().constFirst().id, bayi.id);

        // Unsetting the default directly is refused; making another the default moves it.
        PipelineChanges unset;
        unset.isDefault = false;
        QCOMPARE(kindOf([&] { pipelines.update(bayi.id, unset); }), int(DomainError::Conflict));
        QVERIFY(pipelines.get(bayi.id).isDefault);
        PipelineChanges back;
        back.isDefault = true;
        pipelines.update(kDefault, back);
        QVERIFY(pipelines.get(kDefault).isDefault);
        QVERIFY(!pipelines.get(bayi.id).isDefault);
        // Unsetting a pipeline that is not the default changes nothing.
        pipelines.update(bayi.id, unset);
        QCOMPARE(pipelines.defaultPipeline().id, kDefault);
        QCOMPARE(kindOf([&] { pipelines.remove(kDefault); }), int(DomainError::Conflict));
        pipelines.remove(bayi.id);
        QVERIFY(!pipelines.find(bayi.id));
    }

    void namesAreUniqueWithoutCase()
    {
        PipelineRepository pipelines(testStore());
        const Pipeline a = pipelines.create(named(QStringLiteral("Kurumsal"), {QStringLiteral("A")}));
        const Pipeline b = pipelines.create(named(QStringLiteral("Bireysel"), {QStringLiteral("A")}));
        const QPair<QString, int> again =
            refusalOf([&] { pipelines.create(named(QStringLiteral("KURUMSAL"), {QStringLiteral("A")})); });
        QCOMPARE(again, qMakePair(QStringLiteral("existingId,name"), int(DomainError::Conflict))); // and which one
        PipelineChanges rename;
        rename.name = QStringLiteral("  kurumsal ");
        QCOMPARE(refusalOf([&] { pipelines.update(b.id, rename); }),
                 qMakePair(QStringLiteral("existingId,name"), int(DomainError::Conflict)));
        // Its own name in another case is a rename, not a duplicate.
        rename.name = QStringLiteral("KURUMSAL");
        QCOMPARE(pipelines.update(a.id, rename).name, QStringLiteral("KURUMSAL"));
        QCOMPARE(pipelines.list().size(), 3);
    }

    void updatesMatchStagesByKey()
    {
        PipelineRepository pipelines(testStore());
        DealRepository deals(testStore());
        const Pipeline p =
            pipelines.create(named(QStringLiteral("Bayi"), {QStringLiteral("Ön görüşme"), QStringLiteral("Teklif")}));
        QCOMPARE(p.stageKeys(), (QStringList{"on_gorusme", "teklif", "won", "lost"}));
        const Deal d =
            deals.create(DealRules::parse({{"name", "Sözleşme"}, {"pipelineId", p.id}, {"stage", "teklif"}}));
        QCOMPARE(pipelines.dealCounts(p.id), (QHash<QString, qint64>{{"teklif", 1}}));

        // The stage that holds the deal cannot go; the refusal names it, and nothing changed.
        PipelineChanges without;
        without.stages = QVector<PipelineStageChange>{{QStringLiteral("on_gorusme"), QString(), std::nullopt, 10}};
        QCOMPARE(refusalOf([&] { pipelines.update(p.id, without); }),
                 qMakePair(QStringLiteral("teklif"), int(DomainError::Conflict)));
        QCOMPARE(pipelines.get(p.id).toJson(), p.toJson());
        QCOMPARE(kindOf([&] { pipelines.remove(p.id); }), int(DomainError::Conflict));

        // Kept by key (renamed, moved), one added, one removed: the deal stays where it was.
        PipelineChanges reorder;
        reorder.stages = QVector<PipelineStageChange>{
            {QStringLiteral("teklif"), QStringLiteral("Teklif verildi"), std::nullopt, std::nullopt},
            {QString(), QStringLiteral("Kapanış"), std::nullopt, std::nullopt}};
        const Pipeline u = pipelines.update(p.id, reorder);
        QCOMPARE(u.stageKeys(), (QStringList{"teklif", "kapanis", "won", "lost"}));
        QCOMPARE(u.stage("teklif")->name, QStringLiteral("Teklif verildi"));
        QCOMPARE(u.stage("teklif")->position, 0);
        QCOMPARE(deals.get(d.id).stage, QStringLiteral("teklif"));
        QCOMPARE(pipelines.dealCounts(p.id).value("teklif"), 1);
    }

    void refusesWhatItCannotFind()
    {
        PipelineRepository pipelines(testStore());
        QVERIFY(!pipelines.find(QStringLiteral("pipeline_none")));
        QCOMPARE(kindOf([&] { pipelines.get(QStringLiteral("pipeline_none")); }), int(DomainError::NotFound));
        PipelineChanges rename;
        rename.name = QStringLiteral("X");
        QCOMPARE(kindOf([&] { pipelines.update(QStringLiteral("pipeline_none"), rename); }),
                 int(DomainError::NotFound));
        QCOMPARE(kindOf([&] { pipelines.remove(QStringLiteral("pipeline_none")); }), int(DomainError::NotFound));
        QVERIFY(pipelines.dealCounts(QStringLiteral("pipeline_none")).isEmpty());
    }

    void tellsTheBusAfterEachWrite()
    {
        PipelineRepository pipelines{Store(m_bus)};
        QSignalSpy spy(&m_bus, &EventBus::changed);
        const Pipeline p = pipelines.create(named(QStringLiteral("Bayi"), {QStringLiteral("A")}));
        PipelineChanges rename;
        rename.name = QStringLiteral("Bayiler");
        pipelines.update(p.id, rename);
        QCOMPARE(kindOf([&] { pipelines.remove(kDefault); }), int(DomainError::Conflict)); // no news
        pipelines.remove(p.id);
        QCOMPARE(spy.size(), 3);
        const QList<EventBus::Change> expected{EventBus::Change::Created, EventBus::Change::Updated,
                                               EventBus::Change::Deleted};
        for (int i = 0; i < spy.size(); ++i) {
            QCOMPARE(spy.at(i).at(0).value<EventBus::Entity>(), EventBus::Entity::Pipeline);
            QCOMPARE(spy.at(i).at(1).toString(), p.id);
            QCOMPARE(spy.at(i).at(2).value<EventBus::Change>(), expected.at(i));
        }
    }
};

QTEST_GUILESS_MAIN(TestPipelineRepository)
#include "test_pipelinerepository.moc"
