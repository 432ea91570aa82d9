// The window parts of deals beyond the board, offscreen over the real repositories: the deal
// dialog (every field, field-level validation, edit sends only the changes), the pipeline editor
// (add/rename/reorder stages, probability and rottenDays, the 409 of a stage holding deals, add and
// delete pipelines) and the deal detail's tasks (listed, added through the task dialog).
#include "model/deals/pipelinerepository.h"
#include "tests/ui/uitest.h"

#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/testsupport.h"
#include "ui/deals/dealcolumnmodel.h"
#include "ui/deals/dealdialogs.h"
#include "ui/deals/dealeditdialog.h"
#include "ui/deals/pipelineboard.h"
#include "ui/deals/pipelineeditor.h"
#include "ui/shell/amountedit.h"
#include "ui/tasks/taskdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>
#include <QTranslator>

using namespace UiTest;

class TestDealEditor final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    std::unique_ptr<PipelineBoard> m_board;

    void showBoard()
    {
        m_board = std::make_unique<PipelineBoard>(Store(*m_bus));
        m_board->resize(1300, 800);
        m_board->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_board.get()));
    }

    DealEditDialog *openNewDealDialog()
    {
        auto *button = m_board->findChild<QPushButton *>("newDealButton");
        if (!button)
            return nullptr;
        QTest::mouseClick(button, Qt::LeftButton);
        DealEditDialog *dialog = m_board->editDialog();
        return dialog && dialog->isVisible() ? dialog : nullptr;
    }

    static void chooseData(QComboBox *combo, const QString &data)
    {
        const int index = combo->findData(data);
        QVERIFY2(index >= 0, qPrintable(data));
        combo->setCurrentIndex(index);
        emit combo->activated(index); // as a user's choice does
    }

    PipelineEditorDialog *openEditor()
    {
        auto *button = m_board->findChild<QPushButton *>("editPipelinesButton");
        if (!button)
            return nullptr;
        QTest::mouseClick(button, Qt::LeftButton);
        PipelineEditorDialog *editor = m_board->pipelineEditor();
        return editor && editor->isVisible() ? editor : nullptr;
    }

    int rowOfStage(QTableWidget *table, const QString &key)
    {
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->item(r, 0)->data(PipelineEditorDialog::KeyRole).toString() == key)
                return r;
        }
        return -1;
    }

private slots:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
    }

    void cleanup()
    {
        m_board.reset();
        m_bus.reset();
        m_db.reset();
    }

    void newDealDialogStoresEveryField()
    {
        const Contact c = ContactRepository(testStore())
                              .create(ContactRules::parse(
                                  {{"firstName", "Ayşe"}, {"company", "Acme"}, {"email", "ayse@acme.example"}}));
        const User u = UserRepository(testStore()).create("ali@example.com", "Ali", "agent", "x");
        showBoard();
        DealEditDialog *dialog = openNewDealDialog();
        QVERIFY(dialog);
        dialog->findChild<QLineEdit *>("nameEdit")->setText("Acme renewal");
        dialog->findChild<AmountEdit *>("valueSpin")->setText("12500");
        dialog->findChild<QComboBox *>("currencyCombo")->setCurrentText("USD");
        chooseData(dialog->findChild<QComboBox *>("stageCombo"), "proposal");
        // Choosing a stage takes its default probability (Proposal: 50).
        auto *probability = dialog->findChild<QSpinBox *>("probabilitySpin");
        QCOMPARE(probability->value(), 50);
        probability->setValue(60);
        QVERIFY(pickRecord(dialog->findChild<RecordPicker *>("contactPicker"), c.firstName.left(3), c.id));
        chooseData(dialog->findChild<QComboBox *>("ownerCombo"), u.id);
        dialog->findChild<QCheckBox *>("hasCloseDateCheck")->setChecked(true);
        dialog->findChild<QDateEdit *>("closeDateEdit")->setDate(QDate(2026, 6, 30));
        dialog->findChild<QPlainTextEdit *>("descriptionEdit")->setPlainText("Three-year term");
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        QTRY_VERIFY(!m_board->editDialog());

        const DealPage page = m_board->deals().list({});
        QCOMPARE(page.total, 1);
        const Deal d = page.items.first();
        QCOMPARE(d.name, QString("Acme renewal"));
        QCOMPARE(d.value, 12500.0);
        QCOMPARE(d.currency, QString("USD"));
        QCOMPARE(d.stage, QString("proposal"));
        QCOMPARE(d.probability, 60);
        QCOMPARE(d.contactId, c.id);
        QCOMPARE(d.assignedTo, u.id);
        QCOMPARE(d.expectedCloseDate, QString("2026-06-30"));
        QCOMPARE(d.description, QString("Three-year term"));
        QTRY_COMPARE(m_board->columnModel("proposal")->rowCount(), 1);
    }

    void validationMessagesAppearUnderTheirFields()
    {
        showBoard();
        DealEditDialog *dialog = openNewDealDialog();
        QVERIFY(dialog);
        dialog->findChild<QLineEdit *>("nameEdit")->setText("Bad currency");
        dialog->findChild<QComboBox *>("currencyCombo")->setCurrentText("XYZ");
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        QVERIFY(dialog->isVisible());
        auto *currencyError = dialog->findChild<QLabel *>("currencyError");
        QVERIFY(currencyError->isVisible());
        QVERIFY2(currencyError->text().contains("ISO 4217"), qPrintable(currencyError->text()));
        QVERIFY(dialog->findChild<QLabel *>("formError")->isVisible());
        QVERIFY(!dialog->findChild<QLabel *>("nameError")->isVisible());

        dialog->findChild<QComboBox *>("currencyCombo")->setCurrentText("EUR");
        dialog->findChild<QLineEdit *>("nameEdit")->clear();
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->findChild<QLabel *>("nameError")->isVisible());
        QVERIFY(!currencyError->isVisible());
        QCOMPARE(m_board->deals().list({}).total, 0);
        click(dialogButton(dialog, QDialogButtonBox::Cancel));
    }

    void editFromTheDetailSendsOnlyChanges()
    {
        DealRepository deals{Store(*m_bus)};
        const Deal d = deals.create(DealRules::parse({{"name", "Old name"}, {"value", 100}, {"currency", "EUR"}}));
        showBoard();
        m_board->openDeal(d.id);
        DealDetailDialog *detail = m_board->detailDialog();
        QVERIFY(detail);
        click(detail->findChild<QPushButton *>("editDealButton"));
        DealEditDialog *edit = nullptr;
        QTRY_VERIFY((edit = detail->findChild<DealEditDialog *>()) && edit->isVisible());
        QCOMPARE(edit->findChild<QLineEdit *>("nameEdit")->text(), QString("Old name"));
        QCOMPARE(edit->findChild<QComboBox *>("currencyCombo")->currentText(), QString("EUR"));
        QVERIFY(edit->changes().isEmpty());
        edit->findChild<QLineEdit *>("nameEdit")->setText("New name");
        DealChanges onlyName;
        onlyName.name = QStringLiteral("New name");
        QVERIFY(edit->changes() == onlyName);
        // Meanwhile the API changes the value: the edit keeps it.
        deals.update(d.id, DealRules::parse({{"value", 250}}));
        click(dialogButton(edit, QDialogButtonBox::Ok));
        const Deal after = deals.get(d.id);
        QCOMPARE(after.name, QString("New name"));
        QCOMPARE(after.value, 250.0);
        QTRY_VERIFY(detail->findChild<QLabel *>("dealSummaryLabel")->text().contains("New name"));
        // The value as the cards write it: amount then currency, no currency symbol glued on.
        QVERIFY2(detail->findChild<QLabel *>("dealSummaryLabel")->text().contains("Value: 250 EUR"),
                 qPrintable(detail->findChild<QLabel *>("dealSummaryLabel")->text()));
    }

    void detailListsTasksAndAddsOneLinkedToTheDeal()
    {
        const Contact c = ContactRepository(testStore())
                              .create(ContactRules::parse({{"firstName", "Bora"}, {"phone", "+905551112233"}}));
        DealRepository deals{Store(*m_bus)};
        const Deal d = deals.create(DealRules::parse({{"name", "Fleet"}, {"value", 5}, {"contactId", c.id}}));
        TaskRepository tasks{Store(*m_bus)};
        tasks.create(TaskRules::parse({{"title", "Send the offer"}, {"dealId", d.id}}));
        tasks.create(TaskRules::parse({{"title", "Unrelated"}}));
        showBoard();
        m_board->openDeal(d.id);
        DealDetailDialog *detail = m_board->detailDialog();
        QVERIFY(detail);
        QCOMPARE(detail->taskList()->count(), 1);
        QVERIFY(detail->taskList()->item(0)->text().contains("Send the offer"));

        click(detail->findChild<QPushButton *>("addTaskButton"));
        TaskDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = detail->findChild<TaskDialog *>()) && dialog->isVisible());
        QCOMPARE(dialog->findChild<RecordPicker *>("dealPicker")->currentId(), d.id);
        QCOMPARE(dialog->findChild<RecordPicker *>("contactPicker")->currentId(), c.id);
        QCOMPARE(dialog->findChild<RecordPicker *>("contactPicker")->lineEdit()->text(), QString("Bora"));
        dialog->findChild<QLineEdit *>("titleEdit")->setText("Call Bora");
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        QTRY_COMPARE(detail->taskList()->count(), 2);
        TaskQuery q;
        q.dealId = d.id;
        const TaskPage page = tasks.list(q);
        QCOMPARE(page.total, 2);
        bool found = false;
        for (const Task &t : page.items)
            found |= t.title == "Call Bora" && t.contactId == c.id;
        QVERIFY(found);
    }

    void stageNamesOfTheBuiltInStagesAreTranslatedOthersKept_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("shown");
        QTest::newRow("built-in") << "proposal"
                                  << "Proposal"
                                  << "Proposal";
        QTest::newRow("built-in contact") << "contact"
                                          << "Contact"
                                          << "Contact";
        QTest::newRow("renamed built-in") << "proposal"
                                          << "Teklif verildi"
                                          << "Teklif verildi";
        QTest::newRow("own stage") << "demo"
                                   << "Demo"
                                   << "Demo";
        QTest::newRow("no name") << "demo"
                                 << ""
                                 << "demo";
    }

    void stageNamesOfTheBuiltInStagesAreTranslatedOthersKept()
    {
        QFETCH(QString, key);
        QFETCH(QString, name);
        QFETCH(QString, shown);
        PipelineStage stage;
        stage.key = key;
        stage.name = name;
        QCOMPARE(DealText::stageName(stage), shown);
    }

    void detailShowsStageNamesAndRecordsCallsAndMeetings()
    {
        const Deal d = DealRepository(Store(*m_bus))
                           .create(DealRules::parse({{"name", "Filo"},
                                                     {"value", 1250.5},
                                                     {"currency", "TRY"},
                                                     {"stage", "proposal"},
                                                     {"expectedCloseDate", "2020-03-01"}}));
        showBoard();
        m_board->openDeal(d.id);
        DealDetailDialog *detail = m_board->detailDialog();
        QVERIFY(detail);
        const QString summary = detail->findChild<QLabel *>("dealSummaryLabel")->text();
        QVERIFY2(summary.contains("Stage: Proposal"), qPrintable(summary)); // its name, not the key "proposal"
        QVERIFY2(summary.contains("(past)"), qPrintable(summary));
        QVERIFY2(!summary.contains("2020-03-01"), qPrintable(summary)); // the locale's date, not ISO
        QVERIFY2(detail->timeline()->item(0)->text().contains("Created in Proposal"),
                 qPrintable(detail->timeline()->item(0)->text()));

        auto *type = detail->findChild<QComboBox *>("activityTypeCombo");
        QVERIFY(type);
        chooseData(type, "call");
        QTest::keyClicks(detail->findChild<QPlainTextEdit *>("noteEdit"), "Wants three vans");
        click(detail->findChild<QPushButton *>("addNoteButton"));
        chooseData(type, "meeting");
        QTest::keyClicks(detail->findChild<QPlainTextEdit *>("noteEdit"), "Visit on Monday");
        click(detail->findChild<QPushButton *>("addNoteButton"));
        const QVector<DealActivity> activities = DealRepository(testStore()).activities(d.id);
        QCOMPARE(activities.size(), 3);
        QCOMPARE(activities.at(0).type, QString("meeting")); // newest first
        QCOMPARE(activities.at(1).type, QString("call"));
        QTRY_VERIFY(detail->timeline()->item(0)->text().contains("Meeting"));
        QVERIFY(detail->timeline()->item(1)->text().contains("Call"));
    }

    void deleteFromTheDetailAsksFirst()
    {
        DealRepository deals{Store(*m_bus)};
        const Deal d = deals.create(DealRules::parse({{"name", "Short-lived"}, {"value", 10}}));
        showBoard();
        QTRY_COMPARE(m_board->columnModel("lead")->rowCount(), 1);
        m_board->openDeal(d.id);
        DealDetailDialog *detail = m_board->detailDialog();
        QVERIFY(detail);
        click(detail->findChild<QPushButton *>("deleteDealButton"));
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = modal<QMessageBox>()));
        click(box->button(QMessageBox::No));
        QVERIFY(deals.find(d.id));
        click(detail->findChild<QPushButton *>("deleteDealButton"));
        QTRY_VERIFY((box = modal<QMessageBox>()));
        click(box->button(QMessageBox::Yes));
        QVERIFY(!deals.find(d.id));
        QTRY_VERIFY(!m_board->detailDialog());
        QTRY_COMPARE(m_board->columnModel("lead")->rowCount(), 0);
    }

    void pipelineEditorAddsReordersAndTunesStages()
    {
        showBoard();
        PipelineEditorDialog *editor = openEditor();
        QVERIFY(editor);
        QTableWidget *table = editor->stagesTable();
        QCOMPARE(table->rowCount(), 6);
        click(editor->findChild<QPushButton *>("addStageButton"));
        QCOMPARE(table->rowCount(), 7);
        QCOMPARE(table->currentRow(), 4); // after the open stages, before Won and Lost
        table->item(4, PipelineEditorDialog::NameColumn)->setText("Demo");
        table->item(4, PipelineEditorDialog::ProbabilityColumn)->setData(Qt::EditRole, 40);
        table->item(4, PipelineEditorDialog::RottenColumn)->setData(Qt::EditRole, 7);
        QVERIFY(!editor->findChild<QPushButton *>("moveDownButton")->isEnabled()); // Won stays last
        click(editor->findChild<QPushButton *>("moveUpButton"));
        QCOMPARE(table->currentRow(), 3);
        // Rename an existing stage; the closing stages cannot be removed.
        table->item(rowOfStage(table, "lead"), 0)->setText("Inbound lead");
        table->setCurrentCell(rowOfStage(table, "won"), 0);
        QVERIFY(!editor->findChild<QPushButton *>("removeStageButton")->isEnabled());
        click(editor->findChild<QPushButton *>("savePipelineButton"));
        QVERIFY(!editor->errorLabel()->isVisible());

        const Pipeline p = PipelineRepository(testStore()).defaultPipeline();
        QCOMPARE(p.stageKeys(), QStringList({"lead", "contact", "proposal", "demo", "negotiation", "won", "lost"}));
        QCOMPARE(p.stage("demo")->probability, 40);
        QCOMPARE(p.stage("demo")->rottenDays, 7);
        QCOMPARE(p.stage("lead")->name, QString("Inbound lead"));
        QTRY_VERIFY(m_board->column("demo"));
    }

    void pipelineEditorShowsBuiltInNamesTranslatedAndKeepsThemWhenUntouched()
    {
        // A translator that writes "Lead" and "Sales" of DealText in another language.
        class Translator final : public QTranslator
        {
        public:
            QString translate(const char *context, const char *source, const char *, int) const override
            {
                if (QByteArray(context) != "DealText")
                    return {};
                if (QByteArray(source) == "Lead")
                    return QStringLiteral("Aday");
                if (QByteArray(source) == "Sales")
                    return QStringLiteral("Satış");
                return {};
            }
            bool isEmpty() const override { return false; }
        } translator;
        QCoreApplication::installTranslator(&translator);
        const auto uninstall = qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });

        showBoard();
        PipelineEditorDialog *editor = openEditor();
        QVERIFY(editor);
        QTableWidget *table = editor->stagesTable();
        QCOMPARE(table->item(rowOfStage(table, "lead"), 0)->text(), QString("Aday"));
        QCOMPARE(editor->findChild<QLineEdit *>("pipelineNameEdit")->text(), QString("Satış"));
        QVERIFY(editor->findChild<QListWidget *>("pipelineList")->item(0)->text().startsWith("Satış"));
        // Saved untouched: the stored names stay (the API and other languages still read "Lead").
        table->item(rowOfStage(table, "proposal"), PipelineEditorDialog::ProbabilityColumn)->setData(Qt::EditRole, 55);
        QVERIFY(editor->save());
        Pipeline p = PipelineRepository(testStore()).defaultPipeline();
        QCOMPARE(p.name, QString("Sales"));
        QCOMPARE(p.stage("lead")->name, QString("Lead"));
        QCOMPARE(p.stage("proposal")->probability, 55);
        // Renamed by the user: their text is stored.
        table->item(rowOfStage(table, "lead"), 0)->setText("Sıcak aday");
        QVERIFY(editor->save());
        p = PipelineRepository(testStore()).defaultPipeline();
        QCOMPARE(p.stage("lead")->name, QString("Sıcak aday"));
    }

    void removingAStageThatHoldsDealsShowsTheRefusal()
    {
        DealRepository(Store(*m_bus)).create(DealRules::parse({{"name", "Stuck"}, {"stage", "contact"}}));
        showBoard();
        PipelineEditorDialog *editor = openEditor();
        QVERIFY(editor);
        QTableWidget *table = editor->stagesTable();
        table->setCurrentCell(rowOfStage(table, "contact"), 0);
        click(editor->findChild<QPushButton *>("removeStageButton"));
        QCOMPARE(rowOfStage(table, "contact"), -1);
        QVERIFY(!editor->save());
        QVERIFY(editor->errorLabel()->isVisible());
        QVERIFY2(editor->errorLabel()->text().contains("cannot be removed"), qPrintable(editor->errorLabel()->text()));
        QVERIFY(editor->errorLabel()->text().contains("contact"));
        QVERIFY(PipelineRepository(testStore()).defaultPipeline().stage("contact"));

        // An empty stage goes.
        editor->showPipeline(editor->pipelineId());
        table->setCurrentCell(rowOfStage(table, "negotiation"), 0);
        click(editor->findChild<QPushButton *>("removeStageButton"));
        QVERIFY(editor->save());
        QVERIFY(!PipelineRepository(testStore()).defaultPipeline().stage("negotiation"));
        QTRY_VERIFY(!m_board->column("negotiation"));
    }

    void addsAndDeletesPipelines()
    {
        showBoard();
        PipelineEditorDialog *editor = openEditor();
        QVERIFY(editor);
        QTest::keyClicks(editor->findChild<QLineEdit *>("newPipelineEdit"), "Enterprise");
        click(editor->findChild<QPushButton *>("addPipelineButton"));
        QCOMPARE(editor->findChild<QListWidget *>("pipelineList")->count(), 2);
        QVERIFY(editor->pipelineId() != "pipeline_default");
        const QString id = editor->pipelineId();
        QCOMPARE(PipelineRepository(testStore()).get(id).stageKeys(),
                 QStringList({"lead", "proposal", "negotiation", "won", "lost"}));
        // The board's switcher offers it at once.
        auto *switcher = m_board->findChild<QComboBox *>("pipelineCombo");
        QTRY_VERIFY(switcher->findData(id) >= 0);

        // A second pipeline of the same name: the model's 409 in the dialog.
        QTest::keyClicks(editor->findChild<QLineEdit *>("newPipelineEdit"), "Enterprise");
        click(editor->findChild<QPushButton *>("addPipelineButton"));
        QVERIFY(editor->errorLabel()->isVisible());
        QVERIFY(editor->errorLabel()->text().contains("already exists"));

        click(editor->findChild<QPushButton *>("deletePipelineButton"));
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = modal<QMessageBox>()));
        click(box->button(QMessageBox::Yes));
        QVERIFY(!PipelineRepository(testStore()).find(id));
        QCOMPARE(editor->findChild<QListWidget *>("pipelineList")->count(), 1);
        QTRY_VERIFY(switcher->findData(id) < 0);
        // The default pipeline cannot be deleted.
        click(editor->findChild<QPushButton *>("deletePipelineButton"));
        QTRY_VERIFY((box = modal<QMessageBox>()));
        click(box->button(QMessageBox::Yes));
        QVERIFY(editor->errorLabel()->isVisible());
        QVERIFY(PipelineRepository(testStore()).find("pipeline_default"));
    }
};

QTEST_MAIN(TestDealEditor)
#include "test_dealeditor.moc"
