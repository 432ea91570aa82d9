// What a new deal starts with in the window: the signed-in user as its owner (an agent's and an
// admin's alike), and its card selected and scrolled into view in its column once saved, however
// many deals the column holds.
#include "tests/ui/uitest.h"

#include "model/accounts/userrepository.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipelinerepository.h"
#include "tests/support/testsupport.h"
#include "ui/deals/dealcolumnmodel.h"
#include "ui/deals/dealeditdialog.h"
#include "ui/deals/pipelineboard.h"

#include <QComboBox>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

#include <memory>

class TestDealDefaults final : public QObject
{
    Q_OBJECT

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
    }

    void cleanup()
    {
        m_bus.reset();
        m_db.reset();
    }

    void aNewDealIsTheSignedInUsersAndShowsWhereItLanded_data()
    {
        QTest::addColumn<QString>("role");
        QTest::newRow("agent") << "agent";
        QTest::newRow("admin") << "admin";
    }

    void aNewDealIsTheSignedInUsersAndShowsWhereItLanded()
    {
        QFETCH(QString, role);
        const User murat = UserRepository(testStore()).create("murat@ornek.com.tr", "Murat Çelik", role, "x");
        UserRepository(testStore()).create("selin@ornek.com.tr", "Selin Aksoy", "admin", "x");
        // A full first column: the new card is far from the top when the column is sorted otherwise.
        DealRepository seedDeals(testStore());
        const Pipeline pipeline = PipelineRepository(testStore()).defaultPipeline();
        const QString firstStage = pipeline.stages.first().key;
        for (int i = 0; i < 120; ++i)
            seedDeals.create(DealRules::parse({{"name", QStringLiteral("Teklif %1").arg(i)}, {"value", 1000 + i}}));

        Store::Actor actor;
        actor.id = murat.id;
        actor.name = murat.name;
        actor.role = role;
        PipelineBoard board(Store(*m_bus).actingAs(actor));
        board.resize(1366, 700);
        board.show();
        QVERIFY(QTest::qWaitForWindowExposed(&board));
        QTest::mouseClick(board.findChild<QPushButton *>("newDealButton"), Qt::LeftButton);
        DealEditDialog *dialog = board.editDialog();
        QVERIFY(dialog && dialog->isVisible());
        auto *owner = dialog->findChild<QComboBox *>("ownerCombo");
        QCOMPARE(owner->currentData().toString(), murat.id);
        dialog->findChild<QLineEdit *>("nameEdit")->setText("Anadolu Lojistik yıllık bakım");
        dialog->accept();
        const Deal saved = dialog->savedDeal();
        QVERIFY(!saved.id.isEmpty());
        QCOMPARE(DealRepository(testStore()).get(saved.id).assignedTo, murat.id);

        QListView *column = board.column(firstStage);
        QVERIFY(column);
        const QModelIndex current = column->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(current.data(DealColumnModel::IdRole).toString(), saved.id);
        QVERIFY(column->selectionModel()->isSelected(current));
        QTRY_VERIFY(column->viewport()->rect().intersects(column->visualRect(current)));
    }
};

QTEST_MAIN(TestDealDefaults)
#include "test_dealdefaults.moc"
