// The Deals area driven as a user would: the pipeline board over the real repositories and a
// temporary SQLite database, offscreen. Cards are dropped with synthesized drop events carrying
// the board's own MIME data, and the stored stage is checked.

#include "model/deals/pipelinerepository.h"
#include "tests/ui/uitest.h"

#include "model/accounts/apikeyrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "tests/support/testsupport.h"
#include "tests/ui/composedwindow.h"
#include "ui/deals/dealcolumnmodel.h"
#include "ui/deals/dealdialogs.h"
#include "ui/deals/pipelineboard.h"
#include "ui/shell/amountedit.h"
#include "ui/shell/mainwindow.h"

#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>

#include <memory>

using namespace UiTest;

class TestDealBoard final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    std::unique_ptr<PipelineBoard> m_board;

    // Drops the card of dealId on the column of stage, as a drag from another column ends.
    void drop(const QString &dealId, const QString &stage)
    {
        StageListView *view = m_board->column(stage);
        QVERIFY(view);
        QMimeData mime;
        mime.setData(QString::fromLatin1(DealColumnModel::kMimeType), dealId.toUtf8());
        const QPointF at = view->viewport()->rect().center();
        QDragEnterEvent enter(at.toPoint(), Qt::MoveAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent dropEvent(at, Qt::MoveAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &dropEvent);
        QVERIFY(dropEvent.isAccepted());
    }

    int headerCount(const QString &stage)
    {
        // "<b>Lead</b> · 3<br>…"
        const QString text = m_board->columnHeader(stage)->text();
        return text.section(QStringLiteral(" · "), 1).section(QStringLiteral("<br>"), 0, 0).toInt();
    }

private slots:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
    }

    void cleanup()
    {
        m_board.reset();
        m_bus.reset();
        m_db.reset();
    }

    void showsOneColumnPerStageWithCountsAndTotals()
    {
        DealRepository deals{Store(*m_bus)};
        ContactRepository contacts{Store(*m_bus)};
        const Contact c = contacts.create(ContactRules::parse({{"firstName", "Ayşe"}, {"email", "ayse@example.com"}}));
        deals.create(DealRules::parse(
            {{"name", "A"}, {"value", 1000}, {"contactId", c.id}, {"expectedCloseDate", "2026-05-01"}}));
        deals.create(DealRules::parse({{"name", "B"}, {"value", 500}}));
        deals.create(DealRules::parse({{"name", "C"}, {"value", 70}, {"currency", "USD"}, {"stage", "proposal"}}));
        m_board = std::make_unique<PipelineBoard>(Store(*m_bus));
        m_board->resize(1400, 800);
        m_board->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_board.get()));
        for (const char *stage : {"lead", "contact", "proposal", "negotiation", "won", "lost"})
            QVERIFY2(m_board->column(QLatin1String(stage)), stage);
        QCOMPARE(headerCount("lead"), 2);
        QCOMPARE(headerCount("proposal"), 1);
        QVERIFY(m_board->columnHeader("lead")->text().contains("1,500 TRY"));
        QVERIFY(m_board->columnHeader("proposal")->text().contains("70 USD"));
        QCOMPARE(m_board->columnModel("lead")->rowCount(), 2);
        // Cards carry what the delegate paints.
        const QModelIndex first = m_board->columnModel("lead")->index(0);
        QCOMPARE(first.data(Qt::DisplayRole).toString(), QString("A")); // earliest close date first
        QCOMPARE(first.data(DealColumnModel::ContactRole).toString(), QString("Ayşe"));
        QCOMPARE(first.data(DealColumnModel::CloseDateRole).toString(), QString("2026-05-01"));
        QVERIFY(!m_board->grab().isNull());
        // The chart: one currency at a time (the reporting one first), a bar per stage.
        auto series = [this] { return qobject_cast<QBarSeries *>(m_board->chart()->chart()->series().value(0)); };
        QVERIFY(series());
        QCOMPARE(series()->count(), 1);
        QCOMPARE(series()->barSets().at(0)->label(), QString("TRY"));
        QCOMPARE(series()->barSets().at(0)->count(), 6);
        QCOMPARE(series()->barSets().at(0)->at(0), 1500.0);
        QCOMPARE(series()->barSets().at(0)->at(2), 0.0); // the USD deal is not added to TRY
        QCOMPARE(m_board->chart()->chart()->title(), QString("Value per stage (TRY)"));
        QLabel *summary = m_board->findChild<QLabel *>("pipelineSummaryLabel");
        // Three open deals in all, two of them in TRY: the figures are the TRY ones and say so.
        QVERIFY2(summary->text().startsWith("Open: 3 deal(s); in TRY (2): 1,500 TRY"), qPrintable(summary->text()));
        // The other currency is a choice away.
        QComboBox *currency = m_board->chartCurrency();
        QCOMPARE(currency->count(), 2);
        QVERIFY(currency->isVisible());
        QCOMPARE(currency->currentText(), QString("TRY"));
        currency->setCurrentIndex(currency->findText("USD"));
        emit currency->activated(currency->currentIndex());
        QCOMPARE(series()->barSets().at(0)->label(), QString("USD"));
        QCOMPARE(series()->barSets().at(0)->at(2), 70.0);
        QCOMPARE(series()->barSets().at(0)->at(0), 0.0);
        QVERIFY2(summary->text().startsWith("Open: 3 deal(s); in USD (1): 70 USD"), qPrintable(summary->text()));
        // and it stays chosen when the board refreshes.
        m_board->refresh();
        QCOMPARE(series()->barSets().at(0)->label(), QString("USD"));
    }

    void chartAxisIsRoundAndLocalised_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("locale");
        QTest::addColumn<QString>("expected");
        QTest::newRow("small") << 950.0 << "en_US"
                               << "950";
        QTest::newRow("grouped") << 9500.0 << "en_US"
                                 << "9,500";
        QTest::newRow("thousands") << 250000.0 << "en_US"
                                   << "250 K";
        QTest::newRow("millions") << 12194212.0 << "en_US"
                                  << "12.2 M";
        QTest::newRow("Turkish millions") << 1500000.0 << "tr_TR"
                                          << "1,5 M";
        QTest::newRow("Turkish grouped") << 9500.0 << "tr_TR"
                                         << "9.500";
    }

    void chartAxisIsRoundAndLocalised()
    {
        QFETCH(double, value);
        QFETCH(QString, locale);
        QFETCH(QString, expected);
        QCOMPARE(PipelineBoard::compactAmount(value, QLocale(locale)), expected);
    }

    void chartTicksAreRound()
    {
        DealRepository deals{Store(*m_bus)};
        deals.create(DealRules::parse({{"name", "Big"}, {"value", 12194212}}));
        m_board = std::make_unique<PipelineBoard>(Store(*m_bus));
        m_board->resize(1200, 700);
        m_board->show();
        auto *axis = qobject_cast<QCategoryAxis *>(m_board->chart()->chart()->axes(Qt::Vertical).value(0));
        QVERIFY(axis);
        QCOMPARE(axis->categoriesLabels(), QStringList({"5 M", "10 M", "15 M"}));
        QCOMPARE(axis->max(), 15000000.0);
        // An empty pipeline: one round tick, never 1, 1, 1, 0, 0.
        deals.remove(deals.list(DealQuery()).items.first().id);
        m_board->refresh();
        axis = qobject_cast<QCategoryAxis *>(m_board->chart()->chart()->axes(Qt::Vertical).value(0));
        QCOMPARE(axis->categoriesLabels().size(), 1);
    }

    void theChartFoldsAwayAndComesBack()
    {
        m_board = std::make_unique<PipelineBoard>(Store(*m_bus));
        m_board->resize(1200, 800);
        m_board->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_board.get()));
        auto *toggle = m_board->findChild<QToolButton *>("chartToggle");
        // A header over the columns (the splitter's first pane), compact: the columns keep most of
        // the height.
        auto *splitter = m_board->findChild<QSplitter *>("boardHeaderSplitter");
        QVERIFY(toggle && splitter);
        QCOMPARE(splitter->widget(0), static_cast<QWidget *>(m_board->chart()));
        QVERIFY(m_board->isChartVisible());
        QVERIFY(toggle->isChecked());
        QVERIFY2(splitter->sizes().at(0) * 3 <= splitter->sizes().at(1),
                 qPrintable(QString::number(splitter->sizes().at(0))));
        const int columnsHeight = splitter->sizes().at(1);
        click(toggle);
        QVERIFY(!m_board->isChartVisible());
        QCOMPARE(splitter->sizes().at(0), 0);
        QVERIFY(splitter->sizes().at(1) > columnsHeight);
        // Hidden, the currency box still picks the summary's currency.
        QVERIFY(m_board->findChild<QComboBox *>("chartCurrencyCombo")->isEnabled());
        click(toggle);
        QVERIFY(m_board->isChartVisible());
        QVERIFY(splitter->sizes().at(0) >= m_board->chart()->minimumHeight());
        // Folded by the splitter (as the window's saved state restores it): the button follows.
        splitter->setSizes({0, splitter->sizes().at(0) + splitter->sizes().at(1)});
        emit splitter->splitterMoved(0, 1);
        QVERIFY(!toggle->isChecked());
    }

    void draggingCardToOpenStageStoresStage()
    {
        DealRepository deals{Store(*m_bus)};
        const Deal d = deals.create(DealRules::parse({{"name", "Drag me"}, {"value", 10}}));
        m_board = std::make_unique<PipelineBoard>(Store(*m_bus));
        m_board->show();
        // The card is dragged out with the model's own MIME data.
        DealColumnModel *lead = m_board->columnModel("lead");
        std::unique_ptr<QMimeData> mime(lead->mimeData({lead->index(0)}));
        QCOMPARE(QString::fromUtf8(mime->data(QString::fromLatin1(DealColumnModel::kMimeType))), d.id);
        QVERIFY(lead->flags(lead->index(0)) & Qt::ItemIsDragEnabled);

        drop(d.id, "proposal");
        QCOMPARE(deals.get(d.id).stage, QString("proposal"));
        QCOMPARE(deals.activities(d.id).first().to, QString("proposal"));
        QTRY_COMPARE(m_board->columnModel("proposal")->rowCount(), 1);
        QCOMPARE(m_board->columnModel("lead")->rowCount(), 0);
        QCOMPARE(headerCount("proposal"), 1);
        QCOMPARE(headerCount("lead"), 0);
    }

    void droppingOnWonAsksForClosedValue()
    {
        DealRepository deals{Store(*m_bus)};
        const Deal d = deals.create(DealRules::parse({{"name", "Win me"}, {"value", 100}}));
        m_board = std::make_unique<PipelineBoard>(Store(*m_bus));
        m_board->show();
        drop(d.id, "won");
        QCOMPARE(deals.get(d.id).stage, QString("lead")); // not before the dialog is answered
        WonDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = m_board->findChild<WonDialog *>()) && dialog->isVisible());
        auto *value = dialog->findChild<AmountEdit *>("closedValueSpin");
        QCOMPARE(value->value(), std::optional<double>(100.0));
        value->setText("95");
        dialog->findChild<QPlainTextEdit *>("noteEdit")->setPlainText("signed");
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        const Deal won = deals.get(d.id);
        QCOMPARE(won.stage, QString("won"));
        QCOMPARE(*won.closedValue, 95.0);
        QCOMPARE(deals.activities(d.id).first().content, QString("signed"));
        QTRY_COMPARE(m_board->columnModel("won")->rowCount(), 1);
    }

    void droppingOnLostNeedsReasonAndCancelKeepsStage()
    {
        DealRepository deals{Store(*m_bus)};
        const Deal d = deals.create(DealRules::parse({{"name", "Lose me"}, {"value", 100}}));
        m_board = std::make_unique<PipelineBoard>(Store(*m_bus));
        m_board->show();
        drop(d.id, "lost");
        LostDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = m_board->findChild<LostDialog *>()) && dialog->isVisible());
        click(dialogButton(dialog, QDialogButtonBox::Ok)); // no reason yet
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->findChild<QLabel *>("errorLabel")->isVisible());
        QCOMPARE(deals.get(d.id).stage, QString("lead"));
        auto *reason = dialog->findChild<QComboBox *>("reasonCombo");
        reason->setCurrentIndex(reason->findData("competitor"));
        dialog->findChild<QLineEdit *>("competitorEdit")->setText("Globex");
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        const Deal lost = deals.get(d.id);
        QCOMPARE(lost.stage, QString("lost"));
        QCOMPARE(lost.lostReason, QString("competitor"));
        QCOMPARE(lost.competitorName, QString("Globex"));

        // Dropped back on Won, then cancelled: nothing changes.
        drop(d.id, "won");
        WonDialog *won = nullptr;
        QTRY_VERIFY((won = m_board->findChild<WonDialog *>()) && won->isVisible());
        click(dialogButton(won, QDialogButtonBox::Cancel));
        QCOMPARE(deals.get(d.id).stage, QString("lost"));
    }

    void followsChangesMadeElsewhere()
    {
        m_board = std::make_unique<PipelineBoard>(Store(*m_bus));
        m_board->show();
        QCOMPARE(m_board->columnModel("negotiation")->rowCount(), 0);
        DealRepository api{Store(*m_bus)}; // as the API server would, through the same bus
        const Deal d = api.create(DealRules::parse({{"name", "From API"}, {"stage", "negotiation"}}));
        QTRY_COMPARE(m_board->columnModel("negotiation")->rowCount(), 1);
        QTRY_COMPARE(headerCount("negotiation"), 1);
        api.moveStage(d.id, "contact");
        QTRY_COMPARE(m_board->columnModel("contact")->rowCount(), 1);
        QCOMPARE(m_board->columnModel("negotiation")->rowCount(), 0);
    }

    void detailDialogShowsTimelineAndAddsNote()
    {
        DealRepository deals{Store(*m_bus)};
        const Deal d = deals.create(DealRules::parse({{"name", "Detail"}}));
        deals.moveStage(d.id, "proposal", "offer sent");
        m_board = std::make_unique<PipelineBoard>(Store(*m_bus));
        m_board->show();
        m_board->openDeal(d.id);
        DealDetailDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = m_board->findChild<DealDetailDialog *>()) && dialog->isVisible());
        QCOMPARE(dialog->timeline()->count(), 2);
        QVERIFY(dialog->timeline()->item(0)->text().contains("offer sent"));
        dialog->findChild<QPlainTextEdit *>("noteEdit")->setPlainText("Called, they like it");
        click(dialog->findChild<QPushButton *>("addNoteButton"));
        QCOMPARE(deals.activities(d.id).first().type, QString("note"));
        QCOMPARE(deals.activities(d.id).first().content, QString("Called, they like it"));
        QTRY_COMPARE(dialog->timeline()->count(), 3);
        QVERIFY(dialog->timeline()->item(0)->text().contains("Called, they like it"));
    }

    void pipelineSwitcherShowsOtherStages()
    {
        PipelineRepository pipelines{Store(*m_bus)};
        m_board = std::make_unique<PipelineBoard>(Store(*m_bus));
        m_board->show();
        const Pipeline p = pipelines.create(PipelineRules::parse(
            {{"name", "Partners"},
             {"stages", QJsonArray{QJsonObject{{"name", "Qualified"}}, QJsonObject{{"name", "Pilot"}}}}},
            true));
        auto *combo = m_board->findChild<QComboBox *>("pipelineCombo");
        QTRY_COMPARE(combo->count(), 2);
        m_board->showPipeline(p.id);
        QCOMPARE(m_board->pipelineId(), p.id);
        QVERIFY(m_board->column("qualified"));
        QVERIFY(m_board->column("pilot"));
        QVERIFY(!m_board->column("lead"));
        DealRepository deals{Store(*m_bus)};
        const Deal d = deals.create(DealRules::parse({{"name", "P"}, {"pipelineId", p.id}, {"stage", "qualified"}}));
        QTRY_COMPARE(m_board->columnModel("qualified")->rowCount(), 1);
        drop(d.id, "pilot");
        QCOMPARE(deals.get(d.id).stage, QString("pilot"));
    }

    void tenThousandDealsLoadLazily()
    {
        QVector<QJsonObject> bodies;
        for (int i = 0; i < 10000; ++i)
            bodies.append({{"name", QString("Deal %1").arg(i)}, {"value", i}});
        DealRepository(Store(*m_bus)).insertBulk(bodies);
        QElapsedTimer t;
        t.start();
        m_board = std::make_unique<PipelineBoard>(Store(*m_bus));
        m_board->resize(1400, 800);
        m_board->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_board.get()));
        DealColumnModel *lead = m_board->columnModel("lead");
        QCOMPARE(lead->total(), qint64(10000));
        QVERIFY(lead->rowCount() <= DealColumnModel::kPage * 2);
        QCOMPARE(headerCount("lead"), 10000);
        qInfo("board with 10,000 deals shown in %lld ms", t.elapsed());
        // Scrolling to the end fetches more pages, never all at once.
        const int before = lead->rowCount();
        lead->fetchMore({});
        QCOMPARE(lead->rowCount(), before + DealColumnModel::kPage);
        // A refresh (what every change triggers) stays quick with 10,000 deals.
        t.restart();
        m_board->refresh();
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
    }

    void mainWindowHasDealsArea()
    {
        ContactRepository contacts{Store(*m_bus)};
        ApiKeyRepository keys{Store(*m_bus)};
        ComposedWindow window(contacts, keys, Store(*m_bus));
        QVERIFY(window.findChild<PipelineBoard *>());
        auto *nav = window.findChild<QListWidget *>("navigation");
        QVERIFY(!nav->findItems(QObject::tr("Deals"), Qt::MatchExactly).isEmpty());
    }
};

QTEST_MAIN(TestDealBoard)
#include "test_dealboard.moc"
