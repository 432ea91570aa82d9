// The segments list and the rule builder driven as a user would, offscreen: the real MainWindow
// over a temporary database; selecting a segment filters the lazy contacts table, the rule builder
// offers only valid operators and counts live, "Add to segment…" works on a multi-selection.
#include "tests/ui/uitest.h"

#include "model/accounts/apikeyrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/contacts/segmentrules.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "tests/support/testsupport.h"
#include "tests/ui/composedwindow.h"
#include "ui/contacts/contactdetailpane.h"
#include "ui/contacts/contactsview.h"
#include "ui/contacts/contacttablemodel.h"
#include "ui/contacts/segmentdialog.h"
#include "ui/contacts/segmentspanel.h"
#include "ui/shell/backgroundcounter.h"
#include "ui/shell/mainwindow.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

using namespace UiTest;

namespace {
QJsonObject vipRules()
{
    return {{"logic", "AND"},
            {"rules", QJsonArray{QJsonObject{{"field", "tags"}, {"operator", "equals"}, {"value", "vip"}}}}};
}
} // namespace

class TestSegmentsPanel final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        Database::closeThreadConnection();
        Database::setPath(m_dir.filePath(QStringLiteral("segments-%1.db").arg(++m_databases)));
        QVERIFY(Database::migrate() > 0);
        m_bus = std::make_unique<EventBus>();
        m_contacts = std::make_unique<ContactRepository>(Store(*m_bus));
        m_keys = std::make_unique<ApiKeyRepository>(Store(*m_bus));
        m_contacts->create(ContactRules::parse(
            {{"firstName", "Ahmet"}, {"email", "ahmet@example.com"}, {"tags", QJsonArray{"vip"}}, {"leadScore", 90}}));
        m_contacts->create(ContactRules::parse(
            {{"firstName", "Ayşe"}, {"email", "ayse@example.com"}, {"tags", QJsonArray{"VIP"}}, {"leadScore", 30}}));
        m_contacts->create(
            ContactRules::parse({{"firstName", "John"}, {"email", "john@example.com"}, {"leadScore", 60}}));
        m_contacts->create(ContactRules::parse({{"firstName", "Mary"}, {"email", "mary@example.com"}}));
        m_window = std::make_unique<ComposedWindow>(*m_contacts, *m_keys, Store(*m_bus));
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup()
    {
        if (QWidget *modal = QApplication::activeModalWidget())
            modal->close();
        m_window.reset();
        m_keys.reset();
        m_contacts.reset();
        m_bus.reset();
        Database::closeThreadConnection();
    }

    void selectingASegmentFiltersTheTable()
    {
        QCOMPARE(panel()->list()->count(), 1); // "All contacts"
        QCOMPARE(model()->rowCount(), 4);
        const Segment s =
            SegmentRepository(Store(*m_bus)).create(SegmentRules::parse({{"name", "VIP"}, {"filters", vipRules()}}));
        // Created elsewhere (another thread, the API): the list follows the bus.
        QTRY_COMPARE(panel()->list()->count(), 2);
        // The count comes from the worker thread, shortly after the list.
        QTRY_VERIFY(panel()->list()->item(1)->text().contains("VIP (2)"));
        QTRY_VERIFY(!panel()->counting());
        QVERIFY(panel()->selectSegment(s.id));
        QTRY_COMPARE(model()->rowCount(), 2);
        QCOMPARE(view()->findChild<QLabel *>("countLabel")->text(), QString("2 contacts"));
        // A new matching contact joins the dynamic segment's table.
        m_contacts->create(
            ContactRules::parse({{"firstName", "Deniz"}, {"email", "deniz@example.com"}, {"tags", QJsonArray{"vip"}}}));
        QTRY_COMPARE(model()->rowCount(), 3);
        QTRY_VERIFY(panel()->list()->item(1)->text().contains("VIP (3)"));
        // Changed rules apply at once.
        SegmentRepository(Store(*m_bus))
            .update(s.id, SegmentRules::parse(
                              {{"filters", QJsonObject{{"rules", QJsonArray{QJsonObject{{"field", "leadScore"},
                                                                                        {"operator", "greaterThan"},
                                                                                        {"value", 50}}}}}}}));
        QTRY_COMPARE(model()->rowCount(), 2);
        QVERIFY(panel()->selectSegment(QString()));
        QTRY_COMPARE(model()->rowCount(), 5);
        // Deleting the shown segment shows every contact again.
        QVERIFY(panel()->selectSegment(s.id));
        QTRY_COMPARE(model()->rowCount(), 2);
        SegmentRepository(Store(*m_bus)).remove(s.id);
        QTRY_COMPARE(panel()->list()->count(), 1);
        QTRY_COMPARE(model()->rowCount(), 5);
    }

    void searchSaysWhereItLooksAndWidensInOneClick()
    {
        const Segment s =
            SegmentRepository(Store(*m_bus)).create(SegmentRules::parse({{"name", "VIP"}, {"filters", vipRules()}}));
        QTRY_COMPARE(panel()->list()->count(), 2);
        QVERIFY(panel()->selectSegment(s.id));
        QTRY_COMPARE(model()->rowCount(), 2);
        QWidget *scope = view()->searchScope();
        QVERIFY(!scope->isVisible()); // no search: the segment's list is all there is
        // John is not VIP: searching for him in the segment finds nobody, and says why.
        auto *search = view()->findChild<QLineEdit *>("searchEdit");
        QTest::keyClicks(search, "john");
        QTRY_VERIFY(scope->isVisible());
        QTRY_COMPARE(model()->rowCount(), 0);
        const QString said = view()->findChild<QLabel *>("searchScopeLabel")->text();
        QVERIFY2(said.contains("segment “VIP”") && said.contains("(1 in all contacts)"), qPrintable(said));
        const auto hints = view()->findChildren<QLabel *>();
        bool hinted = false;
        for (const QLabel *l : hints)
            hinted = hinted || l->text().startsWith("No contact in segment “VIP” matches “john”");
        QVERIFY(hinted);
        // One click: every contact, the search kept, John found, the panel on All contacts.
        click(view()->findChild<QPushButton *>("searchAllButton"));
        QTRY_COMPARE(model()->rowCount(), 1);
        QCOMPARE(search->text(), QString("john"));
        QCOMPARE(panel()->currentSegmentId(), QString());
        QVERIFY(!scope->isVisible());
        // A tag limits the search too, and is said the same way.
        search->clear();
        QComboBox *tags = view()->tagFilter();
        QVERIFY(tags->count() > 1);
        tags->setCurrentIndex(1); // the first tag: vip
        QTest::keyClicks(search, "mary");
        QTRY_VERIFY(scope->isVisible());
        QVERIFY(view()->findChild<QLabel *>("searchScopeLabel")->text().contains("tag “"));
        click(view()->findChild<QPushButton *>("searchAllButton"));
        QTRY_COMPARE(model()->rowCount(), 1);
        QCOMPARE(tags->currentIndex(), 0);
    }

    void aSegmentsTableRefreshesThroughTheWorker()
    {
        const Segment s =
            SegmentRepository(Store(*m_bus)).create(SegmentRules::parse({{"name", "VIP"}, {"filters", vipRules()}}));
        QTRY_COMPARE(panel()->list()->count(), 2);
        auto *label = view()->findChild<QLabel *>("countLabel");
        auto rowOf = [&](const QString &firstName) {
            for (int row = 0; row < model()->rowCount(); ++row) {
                if (model()->contactAt(row)->firstName == firstName)
                    return row;
            }
            return -1;
        };
        // John (no tag) is shown; choosing the segment counts in the worker ("Counting…"), and
        // as John is not a member the pane is cleared when the rows arrive.
        view()->table()->selectRow(rowOf("John"));
        QCOMPARE(view()->detailPane()->contactId(), model()->idAt(rowOf("John")));
        QVERIFY(panel()->selectSegment(s.id));
        QVERIFY(model()->counting());
        QCOMPARE(label->text(), QString("Counting…"));
        QTRY_COMPARE(model()->rowCount(), 2);
        QCOMPARE(label->text(), QString("2 contacts"));
        QVERIFY(view()->detailPane()->contactId().isEmpty());
        // A member stays shown across All contacts (counted at once) and back.
        view()->table()->selectRow(rowOf("Ahmet"));
        const QString ahmet = view()->detailPane()->contactId();
        QVERIFY(!ahmet.isEmpty());
        QVERIFY(panel()->selectSegment(QString()));
        QVERIFY(!model()->counting());
        QCOMPARE(model()->rowCount(), 4);
        QCOMPARE(model()->idAt(view()->table()->currentIndex().row()), ahmet);
        QVERIFY(panel()->selectSegment(s.id));
        QTRY_COMPARE(model()->rowCount(), 2);
        QCOMPARE(model()->idAt(view()->table()->currentIndex().row()), ahmet);
        QCOMPARE(view()->detailPane()->contactId(), ahmet);
        view()->table()->selectRow(1);
        const QString selected = model()->idAt(1);
        // Written on a bus the window does not hear, then refreshed by hand: the count comes from the worker, and
        // the rows (and the count label) follow its answer; the selected contact stays selected.
        ContactRepository(testStore())
            .create(ContactRules::parse(
                {{"firstName", "Zafer"}, {"email", "zafer@example.com"}, {"tags", QJsonArray{"vip"}}}));
        model()->refresh();
        QVERIFY(model()->counting());
        QCOMPARE(model()->rowCount(), 2);
        QTRY_COMPARE(model()->rowCount(), 3);
        QVERIFY(!model()->counting());
        QCOMPARE(label->text(), QString("3 contacts"));
        QCOMPARE(model()->idAt(view()->table()->currentIndex().row()), selected);
        // Every contact again: counted at once, in the window's thread.
        QVERIFY(panel()->selectSegment(QString()));
        QTRY_COMPARE(model()->rowCount(), 5);
        ContactRepository(testStore())
            .create(ContactRules::parse({{"firstName", "Yasin"}, {"email", "yasin@example.com"}}));
        model()->refresh();
        QVERIFY(!model()->counting());
        QCOMPARE(model()->rowCount(), 6);
    }

    void aFailedCountInTheWorkerSaysSo()
    {
        auto *label = view()->findChild<QLabel *>("countLabel");
        view()->setSegmentFilter("no_such_column = 1", {});
        QVERIFY(model()->counting());
        QCOMPARE(label->text(), QString("Counting…"));
        QTRY_VERIFY2(label->text().startsWith("Could not read contacts:"), qPrintable(label->text()));
        QVERIFY(!model()->counting());
        QCOMPARE(model()->rowCount(), 0);
        view()->setSegmentFilter(QString(), {});
        QCOMPARE(label->text(), QString("4 contacts"));
    }

    void countsArriveOnlyForTheLastRequest()
    {
        BackgroundCounter counter(testStore());
        QSignalSpy counted(&counter, &BackgroundCounter::counted);
        QSignalSpy failed(&counter, &BackgroundCounter::failed);
        QSignalSpy finished(&counter, &BackgroundCounter::finished);
        const SegmentRepository repo(testStore());
        using Job = BackgroundCounter::Job;
        const int first = counter.request({Job::of("old", repo.matching(vipRules())), Job::of("older", {"1", {}})});
        // A second request before the first answered: the first one's answers never arrive.
        const int second = counter.request({Job::of("vip", repo.matching(vipRules())), Job::of("all", {"1", {}}),
                                            Job::of("broken", {"no_such_column = 1", {}})});
        QVERIFY(second != first);
        QVERIFY(counter.busy());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).toInt(), second);
        QVERIFY(!counter.busy());
        QHash<QString, qint64> counts;
        for (const QList<QVariant> &args : std::as_const(counted)) {
            QCOMPARE(args.at(0).toInt(), second);
            counts.insert(args.at(1).toString(), args.at(2).toLongLong());
        }
        QCOMPARE(counts, (QHash<QString, qint64>{{"vip", 2}, {"all", 4}}));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.at(0).at(1).toString(), QString("broken"));
        QVERIFY(failed.at(0).at(2).toString().contains("no_such_column"));
        // An empty request finishes too; cancel() drops what is queued.
        const int empty = counter.request({});
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.last().at(0).toInt(), empty);
        counter.request({Job::of("all", {"1", {}})});
        counter.cancel();
        QVERIFY(!counter.busy());
        const int last = counter.request({Job::of("all", {"1", {}})});
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.last().at(0).toInt(), last);
        QCOMPARE(counted.last().at(0).toInt(), last);
        QCOMPARE(counted.count(), 3);
    }

    void operatorsFollowTheFieldType()
    {
        RuleRowWidget row;
        for (const QString &field : SegmentRules::fields()) {
            row.fieldBox()->setCurrentIndex(row.fieldBox()->findData(field));
            SegmentRules::FieldType type = SegmentRules::FieldType::Any;
            if (!field.endsWith('.'))
                QVERIFY(SegmentRules::fieldType(field, &type));
            QStringList offered;
            for (int i = 0; i < row.operatorBox()->count(); ++i)
                offered << row.operatorBox()->itemData(i).toString();
            QCOMPARE(offered, SegmentRules::operatorsFor(type));
            QCOMPARE(row.customKey()->isVisibleTo(&row), field.endsWith('.'));
        }
        // Value widgets: a number box for numbers, none for isEmpty, two for between.
        row.fieldBox()->setCurrentIndex(row.fieldBox()->findData("leadScore"));
        QVERIFY(row.numberValue()->isVisibleTo(&row));
        QVERIFY(!row.textValue()->isVisibleTo(&row));
        QCOMPARE(row.numberValue()->maximum(), 100);
        row.operatorBox()->setCurrentIndex(row.operatorBox()->findData("between"));
        row.numberValue()->setValue(20);
        row.findChild<QSpinBox *>("secondNumberValue")->setValue(70);
        QCOMPARE(row.toJson().value("value").toArray(), (QJsonArray{20, 70}));
        row.operatorBox()->setCurrentIndex(row.operatorBox()->findData("isEmpty"));
        QVERIFY(!row.numberValue()->isVisibleTo(&row));
        QVERIFY(!row.toJson().contains("value"));
        row.fieldBox()->setCurrentIndex(row.fieldBox()->findData("sentiment"));
        row.operatorBox()->setCurrentIndex(row.operatorBox()->findData("equals"));
        QVERIFY(row.sentimentValue()->isVisibleTo(&row));
        QCOMPARE(row.toJson().value("value").toString(), QString("positive"));
    }

    void ruleBuilderCountsLiveAndSaves()
    {
        UiTest::click(panel()->findChild<QPushButton *>("newSegmentButton"));
        SegmentDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = modal<SegmentDialog>()));
        dialog->nameField()->setText("High score VIPs");
        auto *row = qobject_cast<RuleRowWidget *>(dialog->rules()->items().at(0));
        QVERIFY(row);
        row->fieldBox()->setCurrentIndex(row->fieldBox()->findData("tags"));
        row->operatorBox()->setCurrentIndex(row->operatorBox()->findData("equals"));
        QTest::keyClicks(row->textValue(), "vip");
        QTRY_COMPARE(dialog->countLabel()->text(), QString("2 contacts match now"));
        // (vip) AND (leadScore > 50 OR no e-mail): a nested group.
        RuleGroupWidget *group = dialog->rules()->addGroup();
        QVERIFY(group);
        group->logicBox()->setCurrentIndex(group->logicBox()->findData("OR"));
        auto *inner = qobject_cast<RuleRowWidget *>(group->items().at(0));
        inner->fieldBox()->setCurrentIndex(inner->fieldBox()->findData("leadScore"));
        inner->operatorBox()->setCurrentIndex(inner->operatorBox()->findData("greaterThan"));
        inner->numberValue()->setValue(50);
        RuleRowWidget *second = group->addRule();
        second->fieldBox()->setCurrentIndex(second->fieldBox()->findData("email"));
        second->operatorBox()->setCurrentIndex(second->operatorBox()->findData("isEmpty"));
        QTRY_COMPARE(dialog->countLabel()->text(), QString("1 contact matches now"));
        // A rule still being written asks for its text, without a refusal before anything is typed;
        RuleRowWidget *unfinished = dialog->rules()->addRule();
        unfinished->fieldBox()->setCurrentIndex(unfinished->fieldBox()->findData("name"));
        QTRY_COMPARE(dialog->countLabel()->text(), QString("Fill in each rule to see how many contacts match."));
        // a wrong value says what is wrong instead of a count.
        unfinished->fieldBox()->setCurrentIndex(unfinished->fieldBox()->findData("createdAt"));
        unfinished->operatorBox()->setCurrentIndex(unfinished->operatorBox()->findData("greaterThan"));
        QTest::keyClicks(unfinished->textValue(), "yesterday");
        QTRY_VERIFY2(
            dialog->countLabel()->text().startsWith("Incomplete rule: Rule 3: value for Created must be a date"),
            qPrintable(dialog->countLabel()->text()));
        UiTest::click(unfinished->findChild<QToolButton *>("removeButton"));
        QTRY_COMPARE(dialog->countLabel()->text(), QString("1 contact matches now"));

        UiTest::click(dialogButton(dialog, QDialogButtonBox::Save));
        QTRY_VERIFY(!modal<SegmentDialog>());
        const QVector<Segment> segments = SegmentRepository(testStore()).list();
        QCOMPARE(segments.size(), 1);
        QCOMPARE(segments.at(0).name, QString("High score VIPs"));
        QCOMPARE(segments.at(0).contactCount, qint64(1));
        QCOMPARE(segments.at(0).filters.toObject().value("rules").toArray().at(1).toObject().value("logic").toString(),
                 QString("OR"));
        // The new segment is chosen and the table shows its one member.
        QCOMPARE(panel()->currentSegmentId(), segments.at(0).id);
        QTRY_COMPARE(model()->rowCount(), 1);
        QCOMPARE(model()->contactAt(0)->firstName, QString("Ahmet"));

        // Editing shows the stored rules again.
        UiTest::click(panel()->findChild<QPushButton *>("editSegmentButton"));
        QTRY_VERIFY((dialog = modal<SegmentDialog>()));
        QCOMPARE(dialog->filters().toObject(), segments.at(0).filters.toObject());
        dialog->reject();
    }

    void refusalsStayInTheDialog()
    {
        SegmentRepository(Store(*m_bus)).create(SegmentRules::parse({{"name", "VIP"}, {"filters", vipRules()}}));
        UiTest::click(panel()->findChild<QPushButton *>("newSegmentButton"));
        SegmentDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = modal<SegmentDialog>()));
        dialog->nameField()->setText("vip");
        auto *row = qobject_cast<RuleRowWidget *>(dialog->rules()->items().at(0));
        row->operatorBox()->setCurrentIndex(row->operatorBox()->findData("isNotEmpty"));
        UiTest::click(dialogButton(dialog, QDialogButtonBox::Save));
        QVERIFY(modal<SegmentDialog>() == dialog);
        QVERIFY(dialog->errorLabel()->isVisibleTo(dialog));
        QVERIFY2(dialog->errorLabel()->text().contains("already exists"), qPrintable(dialog->errorLabel()->text()));
        dialog->reject();
    }

    void addToStaticSegmentFromMultiSelection()
    {
        const Segment s =
            SegmentRepository(Store(*m_bus)).create(SegmentRules::parse({{"name", "Picked"}, {"isDynamic", false}}));
        QTRY_COMPARE(panel()->list()->count(), 2);
        QTableView *table = view()->table();
        QCOMPARE(table->selectionMode(), QAbstractItemView::ExtendedSelection);
        QVERIFY(table->actions().contains(panel()->addToSegmentAction()));
        table->selectionModel()->select(model()->index(0, 0),
                                        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        table->selectionModel()->select(model()->index(2, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        const QStringList picked{model()->idAt(0), model()->idAt(2)};
        panel()->addToSegmentAction()->trigger();
        QDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = modal<QDialog>()) && dialog->objectName() == "addToSegmentDialog");
        QCOMPARE(dialog->findChild<QComboBox *>("segmentChoice")->currentData().toString(), s.id);
        UiTest::click(dialogButton(dialog, QDialogButtonBox::Ok));
        QTRY_VERIFY(!QApplication::activeModalWidget());
        QCOMPARE(SegmentRepository(testStore()).get(s.id).contactCount, qint64(2));
        QTRY_VERIFY(panel()->list()->item(1)->text().contains("(2, static)"));
        QVERIFY(panel()->selectSegment(s.id));
        QTRY_COMPARE(model()->rowCount(), 2);
        QStringList shown{model()->idAt(0), model()->idAt(1)};
        shown.sort();
        QStringList expected = picked;
        expected.sort();
        QCOMPARE(shown, expected);
    }

    // A snapshot is named in the window's words and local time, numbered when taken twice a minute.
    void snapshotsAreNamedInTheWindowsWords()
    {
        const Segment s =
            SegmentRepository(Store(*m_bus)).create(SegmentRules::parse({{"name", "VIP"}, {"filters", vipRules()}}));
        QTRY_COMPARE(panel()->list()->count(), 2);
        QVERIFY(panel()->selectSegment(s.id));
        auto *button = panel()->findChild<QPushButton *>("snapshotSegmentButton");
        UiTest::click(button);
        QTRY_COMPARE(panel()->list()->count(), 3);
        QVERIFY(panel()->selectSegment(s.id));
        UiTest::click(button);
        QTRY_COMPARE(panel()->list()->count(), 4);
        // "VIP (snapshot <local short date and time>)", the second with " 2" (unless a minute passed).
        static const QRegularExpression shape(QStringLiteral("^VIP \\(snapshot (.+)\\)( 2)?$"));
        int snapshots = 0;
        for (const Segment &seg : SegmentRepository(testStore()).list(false)) {
            if (seg.id == s.id)
                continue;
            const QRegularExpressionMatch m = shape.match(seg.name);
            QVERIFY2(m.hasMatch(), qPrintable(seg.name));
            QVERIFY2(QLocale().toDateTime(m.captured(1), QLocale::ShortFormat).isValid(), qPrintable(seg.name));
            QCOMPARE(SegmentRepository(testStore()).get(seg.id).contactCount, qint64(2)); // the members then
            ++snapshots;
        }
        QCOMPARE(snapshots, 2);
    }

private:
    SegmentsPanel *panel() const { return m_window->findChild<SegmentsPanel *>(); }
    ContactsView *view() const { return m_window->findChild<ContactsView *>(); }
    ContactTableModel *model() const { return view()->model(); }

    QTemporaryDir m_dir;
    int m_databases = 0;
    std::unique_ptr<EventBus> m_bus;
    std::unique_ptr<ContactRepository> m_contacts;
    std::unique_ptr<ApiKeyRepository> m_keys;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestSegmentsPanel)
#include "test_segmentspanel.moc"
