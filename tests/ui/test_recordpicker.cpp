// The contact and deal pickers of the deal and task dialogs, offscreen: every record of the table
// can be found (the dialogs once offered the newest 1,000 contacts and 500 deals only), namesakes
// are told apart, the search folds case, accents and Turkish i, and the field never holds text that
// names no choice.

#include "tests/ui/uitest.h"

#include "model/contacts/contactrepository.h"
#include "model/deals/dealrepository.h"
#include "tests/support/testsupport.h"
#include "ui/shell/recordpicker.h"

#include <QAbstractItemView>
#include <QDialog>
#include <QJsonObject>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTest>
#include <QVBoxLayout>

using namespace UiTest;

class TestRecordPicker final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<QWidget> m_window;
    QStringList m_kayas; // the three Nazlı Kaya

    QStringList offered(RecordPicker *picker, const QString &text)
    {
        picker->lineEdit()->setText(text);
        picker->searchNow();
        QStringList rows;
        for (int row = 0; row < picker->choices()->rowCount(); ++row)
            rows << picker->choices()->item(row)->text();
        return rows;
    }

private slots:
    void initTestCase()
    {
        m_db = std::make_unique<TempDatabase>();
        QVector<QJsonObject> bodies;
        const char *const first[] = {"Ayşe", "Mehmet", "Zeynep", "Emre", "Elif", "Burak", "Gökhan", "Şule"};
        const char *const last[] = {"Yılmaz", "Demir", "Şahin", "Çelik", "Öztürk", "Aydın"};
        for (int i = 0; i < 2000; ++i)
            bodies.append({{"firstName", QString::fromUtf8(first[i % 8])},
                           {"lastName", QString::fromUtf8(last[i % 6])},
                           {"email", QString("kisi%1@example.com").arg(i)}});
        QCOMPARE(ContactRepository(testStore()).insertBulk(bodies), 2000);
        // The oldest contact of all, far beyond any first page.
        ContactRepository contacts(testStore());
        for (const char *company : {"Kale A.Ş.", "Deniz Lojistik", "Ada Yazılım"}) {
            const Contact c =
                contacts.create(ContactRules::parse({{"firstName", QString::fromUtf8("Nazlı")},
                                                     {"lastName", "Kaya"},
                                                     {"email", QString("nazli.%1@example.com").arg(m_kayas.size())},
                                                     {"company", QString::fromUtf8(company)}}));
            m_kayas << c.id;
        }
        QVector<QJsonObject> deals;
        for (int i = 0; i < 700; ++i)
            deals.append({{"name", QString("Filo %1").arg(i)}, {"value", 1000 + i}});
        DealRepository(testStore()).insertBulk(deals);
        DealRepository(testStore())
            .create(DealRules::parse({{"name", "Kiralama"}, {"value", 5}, {"contactId", m_kayas.at(1)}}));
        m_window = std::make_unique<QWidget>();
        m_window->resize(500, 300);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanupTestCase()
    {
        m_window.reset();
        m_db.reset();
    }

    void namesakesAreToldApart()
    {
        RecordPicker *picker = createContactPicker(ContactRepository(testStore()), m_window.get());
        const QStringList rows = offered(picker, QString::fromUtf8("nazlı ka"));
        QCOMPARE(rows.size(), 3);
        for (int i = 0; i < 3; ++i)
            QVERIFY2(rows.filter(QString("nazli.%1@example.com").arg(i)).size() == 1, qPrintable(rows.join('\n')));
        QVERIFY(rows.join('\n').contains(QString::fromUtf8("Deniz Lojistik")));
        // typed as a user would, and clicked
        QSignalSpy changed(picker, &RecordPicker::currentChanged);
        QVERIFY(pickRecord(picker, QString::fromUtf8("nazlı kaya"), m_kayas.at(1)));
        QCOMPARE(picker->lineEdit()->text(), QString::fromUtf8("Nazlı Kaya"));
        QCOMPARE(changed.size(), 1);
        delete picker;
    }

    void foldsCaseAccentsAndTurkishI_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::newRow("upper dotless") << "NAZLI KAYA";
        QTest::newRow("no accents") << "nazli kaya";
        QTest::newRow("Turkish upper") << QString::fromUtf8("NAZLI KAYA");
        QTest::newRow("company") << "deniz";
        QTest::newRow("e-mail") << "nazli.1";
    }

    void foldsCaseAccentsAndTurkishI()
    {
        QFETCH(QString, typed);
        RecordPicker *picker = createContactPicker(ContactRepository(testStore()), m_window.get());
        const QStringList rows = offered(picker, typed);
        QVERIFY2(!rows.isEmpty(), qPrintable(typed));
        QVERIFY2(rows.filter("nazli.1@example.com").size() == 1, qPrintable(rows.join('\n')));
        delete picker;
    }

    void theOldestContactIsFound()
    {
        // kisi0 was inserted first of 2,003: past the old first page of 1,000
        RecordPicker *picker = createContactPicker(ContactRepository(testStore()), m_window.get());
        const QStringList rows = offered(picker, "kisi0@");
        QCOMPARE(rows.size(), 1);
        QVERIFY(rows.first().contains("kisi0@example.com"));
        delete picker;
    }

    void typedTextSettlesOnAChoice()
    {
        RecordPicker *picker = createContactPicker(ContactRepository(testStore()), m_window.get());
        picker->setCurrent(m_kayas.at(0), QString::fromUtf8("Nazlı Kaya"));
        // the only match is chosen
        picker->lineEdit()->setText("kisi1999@");
        emit picker->lineEdit()->editingFinished();
        QVERIFY(!picker->currentId().isEmpty());
        QVERIFY(picker->currentId() != m_kayas.at(0));
        const QString only = picker->currentId();
        // several matches: the field goes back to the current choice
        picker->lineEdit()->setText("nazli");
        emit picker->lineEdit()->editingFinished();
        QCOMPARE(picker->currentId(), only);
        QCOMPARE(picker->lineEdit()->text(), picker->currentTitle());
        // no match: back as well
        picker->lineEdit()->setText("zzzz");
        emit picker->lineEdit()->editingFinished();
        QCOMPARE(picker->currentId(), only);
        // cleared: none
        picker->lineEdit()->clear();
        emit picker->lineEdit()->editingFinished();
        QVERIFY(picker->currentId().isEmpty());
        delete picker;
    }

    void everyDealIsFoundByItsNameOrContact()
    {
        RecordPicker *picker = createDealPicker(DealRepository(testStore()), m_window.get());
        QStringList rows = offered(picker, "filo 3");
        QCOMPARE(rows.size(), RecordPicker::kMaxChoices); // Filo 3, 30-39, 300-399: the first 30
        QCOMPARE(rows.filter(QRegularExpression("^Filo 3")).size(), rows.size());
        rows = offered(picker, "filo 699");
        QCOMPARE(rows.size(), 1);
        // by its contact's name and company
        rows = offered(picker, "kaya kiral");
        QCOMPARE(rows.size(), 1);
        QVERIFY(rows.first().contains(QString::fromUtf8("Nazlı Kaya")));
        rows = offered(picker, "deniz");
        QCOMPARE(rows.size(), 1);
        delete picker;
    }

    void worksInAWindowModalDialog()
    {
        auto *dialog = new QDialog(m_window.get());
        auto *layout = new QVBoxLayout(dialog);
        RecordPicker *picker = createContactPicker(ContactRepository(testStore()), dialog);
        layout->addWidget(picker);
        dialog->open();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QVERIFY(pickRecord(picker, "nazli", m_kayas.at(2)));
        delete dialog;
    }

    void searchSyntaxNeverFails()
    {
        RecordPicker *picker = createContactPicker(ContactRepository(testStore()), m_window.get());
        for (const char *typed : {"\"", "a\" OR", "*", "NEAR(", "-", "'); DROP", "(((", "^"})
            offered(picker, QString::fromUtf8(typed)); // no exception, no crash
        delete picker;
    }
};

QTEST_MAIN(TestRecordPicker)
#include "test_recordpicker.moc"
