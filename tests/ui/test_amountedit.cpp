// Amounts typed into the window, offscreen in a Turkish window (QLocale tr_TR) over the real
// repositories: the field (AmountEdit) shows the amount it understood in the window's form with
// the currency, or why it refuses the text; leaving it rewrites the amount in the window's form;
// the deal form and the Won dialog store exactly the amount typed the English or the Turkish way,
// and refuse an ambiguous or malformed one without storing anything. In Turkish, with the
// compiled translation, the refusal reads in Turkish.
#include "tests/ui/uilayout.h"
#include "tests/ui/uitest.h"

#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "tests/support/testsupport.h"
#include "ui/deals/dealdialogs.h"
#include "ui/deals/dealeditdialog.h"
#include "ui/shell/amountedit.h"

#include <QAccessible>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTest>
#include <QVBoxLayout>

#include <memory>

using namespace UiTest;

namespace {

const QLocale kTurkish(QLocale::Turkish, QLocale::Turkey);

// Types into the field as a person would: focused, its text selected, then the keys.
void typeInto(QLineEdit *field, const QString &text)
{
    QVERIFY(field);
    field->window()->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(field->window()));
    field->setFocus();
    QTRY_VERIFY(field->hasFocus());
    field->selectAll();
    if (text.isEmpty())
        QTest::keyClick(field, Qt::Key_Delete);
    else
        QTest::keyClicks(field, text);
}

} // namespace

class TestAmountEdit final : public QObject
{
    Q_OBJECT

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    QLocale m_systemLocale;

    Deal createDeal(double value, const QString &currency = QStringLiteral("TRY"))
    {
        return DealRepository(Store(*m_bus))
            .create(DealRules::parse({{"name", "Acme"}, {"value", value}, {"currency", currency}}));
    }

    // A new deal named "Acme" with `typed` in its value field, saved; the dialog stays open on a refusal.
    std::unique_ptr<DealEditDialog> saveNewDeal(DealRepository &deals, const QString &typed)
    {
        auto dialog = std::make_unique<DealEditDialog>(deals, QString());
        dialog->show();
        if (!QTest::qWaitForWindowExposed(dialog.get()))
            return nullptr;
        dialog->findChild<QLineEdit *>("nameEdit")->setText("Acme");
        dialog->findChild<QComboBox *>("currencyCombo")->setCurrentText("TRY");
        typeInto(dialog->findChild<AmountEdit *>("valueSpin"), typed);
        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        return dialog;
    }

private slots:
    void initTestCase() { m_systemLocale = QLocale(); }

    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(kTurkish);
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
    }

    void cleanup()
    {
        m_bus.reset();
        m_db.reset();
        QLocale::setDefault(m_systemLocale);
    }

    void showsWhatItUnderstood_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("shown"); // the reading label's text
        QTest::addColumn<bool>("refused");
        QTest::newRow("English decimals") << "1250.50"
                                          << "= 1.250,50 TRY" << false;
        QTest::newRow("English grouped") << "1,250.50"
                                         << "= 1.250,50 TRY" << false;
        QTest::newRow("Turkish grouped") << "1.250,50"
                                         << "= 1.250,50 TRY" << false;
        QTest::newRow("Turkish thousands") << "1.250"
                                           << "= 1.250,00 TRY" << false;
        QTest::newRow("ambiguous") << "1,250"
                                   << "“1,250” is ambiguous: write 1.250 or 1,25." << true;
        QTest::newRow("ambiguous, one reading") << "1,255"
                                                << "“1,255” is ambiguous: write 1.255 (an amount has at most two "
                                                   "decimals)."
                                                << true;
        QTest::newRow("too many decimals") << "12,345.678"
                                           << "“12,345.678” has more than two decimals." << true;
        QTest::newRow("letters") << "12 TL"
                                 << "“12 TL” is not an amount: leave out “T” and write digits as in 1.234.567,89."
                                 << true;
        QTest::newRow("trailing mark") << "1250,"
                                       << "“1250,” is not an amount: a mark goes between digits, as in 1.234.567,89."
                                       << true;
        QTest::newRow("grouping") << "1.25.0"
                                  << "“1.25.0” is not an amount: group the digits in threes with one kind of mark, "
                                     "as in 1.234.567,89."
                                  << true;
        QTest::newRow("negative") << "-5"
                                  << "An amount cannot be negative." << true;
        QTest::newRow("too large") << "10000000000000,01"
                                   << "“10000000000000,01” is too large: at most 10.000.000.000.000." << true;
        QTest::newRow("empty") << ""
                               << "Enter an amount." << true;
    }

    void showsWhatItUnderstood()
    {
        QFETCH(QString, typed);
        QFETCH(QString, shown);
        QFETCH(bool, refused);
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *field = new AmountEdit(&window);
        field->setObjectName("amountEdit");
        field->setCurrency("TRY");
        layout->addWidget(field);
        layout->addWidget(field->readingLabel());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        typeInto(field, typed);
        QLabel *label = window.findChild<QLabel *>("amountEditReading");
        QCOMPARE(label, field->readingLabel());
        QCOMPARE(label->text(), shown);
        QVERIFY(label->isVisible());
        QCOMPARE(label->styleSheet().contains("#c0392b"), refused); // refusals in red
        QCOMPARE(field->value().has_value(), !refused);
        QCOMPARE(field->refusalText(), refused ? shown : QString());
        // A screen reader hears it with the field.
        QCOMPARE(field->accessibleDescription(), shown);
    }

    // Leaving the field writes an amount it read in the window's form; a refused text stays as typed.
    void rewritesOnFocusOut()
    {
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *field = new AmountEdit(&window);
        auto *other = new QLineEdit(&window);
        layout->addWidget(field);
        layout->addWidget(field->readingLabel());
        layout->addWidget(other);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        typeInto(field, "1250.5");
        QCOMPARE(field->text(), QString("1250.5"));
        other->setFocus();
        QTRY_VERIFY(other->hasFocus());
        QCOMPARE(field->text(), QString("1.250,50"));
        QCOMPARE(field->value(), std::optional<double>(1250.5));

        typeInto(field, "1,250");
        other->setFocus();
        QTRY_VERIFY(other->hasFocus());
        QCOMPARE(field->text(), QString("1,250"));
        QCOMPARE(field->value(), std::optional<double>());
    }

    // A value set by code comes back exactly, even with more decimals than the field shows.
    void givesBackTheValueSet()
    {
        AmountEdit field;
        field.setValue(12.345);
        QCOMPARE(field.text(), QString("12,35"));
        QCOMPARE(field.value(), std::optional<double>(12.345));
        field.setText("12,35");
        field.setText("12,3");
        QCOMPARE(field.value(), std::optional<double>(12.3));
        field.setText("");
        QCOMPARE(field.value(), std::optional<double>());
        field.setEmptyValue(0);
        QCOMPARE(field.value(), std::optional<double>(0));
    }

    void dealFormStoresWhatWasTyped_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<double>("stored");
        QTest::newRow("English decimals") << "1250.50" << 1250.5;
        QTest::newRow("English grouped") << "1,250.50" << 1250.5;
        QTest::newRow("Turkish grouped") << "1.250,50" << 1250.5;
        QTest::newRow("Turkish thousands") << "1.250" << 1250.0;
        QTest::newRow("Turkish millions") << "1.250.000" << 1250000.0;
        QTest::newRow("comma decimal") << "1,5" << 1.5;
        QTest::newRow("spaces") << "1 250,75" << 1250.75;
        QTest::newRow("empty") << "" << 0.0;
    }

    void dealFormStoresWhatWasTyped()
    {
        QFETCH(QString, typed);
        QFETCH(double, stored);
        DealRepository deals{Store(*m_bus)};
        const std::unique_ptr<DealEditDialog> dialog = saveNewDeal(deals, typed);
        QVERIFY(dialog);
        QVERIFY2(!dialog->isVisible(), qPrintable(dialog->findChild<QLabel *>("formError")->text()));
        const DealPage page = deals.list({});
        QCOMPARE(page.total, 1);
        QCOMPARE(page.items.first().value, stored);
        QCOMPARE(page.items.first().currency, QString("TRY"));
    }

    void dealFormRefusesAndStoresNothing_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("message");
        QTest::newRow("ambiguous") << "1,250"
                                   << "“1,250” is ambiguous: write 1.250 or 1,25.";
        QTest::newRow("too many decimals") << "12,345.678"
                                           << "“12,345.678” has more than two decimals.";
        QTest::newRow("doubled mark") << "1..5"
                                      << "“1..5” is not an amount: a mark goes between digits, as in 1.234.567,89.";
    }

    void dealFormRefusesAndStoresNothing()
    {
        QFETCH(QString, typed);
        QFETCH(QString, message);
        DealRepository deals{Store(*m_bus)};
        const std::unique_ptr<DealEditDialog> dialog = saveNewDeal(deals, typed);
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        auto *formError = dialog->findChild<QLabel *>("formError");
        QVERIFY(formError->isVisible());
        QCOMPARE(formError->text(), message);
        auto *reading = dialog->findChild<QLabel *>("valueSpinReading");
        QVERIFY(reading->isVisible());
        QCOMPARE(reading->text(), message);
        QCOMPARE(deals.list({}).total, 0);

        // Corrected, the message on top goes, and it saves.
        typeInto(dialog->findChild<AmountEdit *>("valueSpin"), "1.250");
        QVERIFY(!formError->isVisible());
        QCOMPARE(reading->text(), QString("= 1.250,00 TRY"));
        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY(!dialog->isVisible());
        QCOMPARE(deals.list({}).items.value(0).value, 1250.0);
    }

    // The understood amount follows the deal's currency; the field is named for screen readers.
    void dealFormShowsTheChosenCurrency()
    {
        const Deal d = createDeal(1250.5, "EUR");
        DealRepository deals{Store(*m_bus)};
        DealEditDialog dialog(deals, d);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *field = dialog.findChild<AmountEdit *>("valueSpin");
        QCOMPARE(field->text(), QString("1.250,50"));
        auto *reading = dialog.findChild<QLabel *>("valueSpinReading");
        QCOMPARE(reading->text(), QString("= 1.250,50 EUR"));
        // Opened and left as it is, the value is no change.
        QVERIFY(dialog.changes().isEmpty());
        dialog.findChild<QComboBox *>("currencyCombo")->setCurrentText("USD");
        QCOMPARE(reading->text(), QString("= 1.250,50 USD"));
        QCOMPARE(field->accessibleName(), QString("Value"));
        QAccessibleInterface *a = QAccessible::queryAccessibleInterface(field);
        QVERIFY(a);
        QCOMPARE(a->text(QAccessible::Name), QString("Value"));
    }

    void wonDialogStoresWhatWasTyped_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<double>("stored");
        QTest::newRow("English decimals") << "1250.50" << 1250.5;
        QTest::newRow("English grouped") << "1,250.50" << 1250.5;
        QTest::newRow("Turkish grouped") << "1.250,50" << 1250.5;
        QTest::newRow("Turkish thousands") << "1.250" << 1250.0;
    }

    void wonDialogStoresWhatWasTyped()
    {
        QFETCH(QString, typed);
        QFETCH(double, stored);
        const Deal d = createDeal(100);
        DealRepository deals{Store(*m_bus)};
        WonDialog dialog(deals, d.id);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *field = dialog.findChild<AmountEdit *>("closedValueSpin");
        QCOMPARE(field->text(), QString("100,00"));
        QCOMPARE(dialog.findChild<QLabel *>("closedValueSpinReading")->text(), QString("= 100,00 TRY"));
        QCOMPARE(field->accessibleName(), QString("Closed value"));
        typeInto(field, typed);
        QTest::mouseClick(dialogButton(&dialog, QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY2(!dialog.isVisible(), qPrintable(dialog.findChild<QLabel *>("errorLabel")->text()));
        const Deal won = deals.get(d.id);
        QCOMPARE(won.stage, QString("won"));
        QVERIFY(won.closedValue);
        QCOMPARE(*won.closedValue, stored);
    }

    void wonDialogRefusesAndStoresNothing_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("message");
        QTest::newRow("ambiguous") << "1,250"
                                   << "“1,250” is ambiguous: write 1.250 or 1,25.";
        QTest::newRow("empty") << ""
                               << "Enter an amount.";
        QTest::newRow("negative") << "-100"
                                  << "An amount cannot be negative.";
    }

    void wonDialogRefusesAndStoresNothing()
    {
        QFETCH(QString, typed);
        QFETCH(QString, message);
        const Deal d = createDeal(100);
        DealRepository deals{Store(*m_bus)};
        WonDialog dialog(deals, d.id);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        typeInto(dialog.findChild<AmountEdit *>("closedValueSpin"), typed);
        QTest::mouseClick(dialogButton(&dialog, QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY(dialog.isVisible());
        auto *error = dialog.findChild<QLabel *>("errorLabel");
        QVERIFY(error->isVisible());
        QCOMPARE(error->text(), message);
        QCOMPARE(dialog.findChild<QLabel *>("closedValueSpinReading")->text(), message);
        const Deal after = deals.get(d.id);
        QCOMPARE(after.stage, QString("lead"));
        QVERIFY(!after.closedValue);

        // Typed again, the refusal under the buttons goes; the label under the field tells the rest.
        typeInto(dialog.findChild<AmountEdit *>("closedValueSpin"), "95");
        QVERIFY(!error->isVisible());
    }

    // In the Turkish window with its translation the refusal and the reading read in Turkish.
    void speaksTurkish()
    {
        const UiTest::ScopedTurkish turkish;
        QVERIFY2(turkish.ok(), UiTest::ScopedTurkish::missing);

        const Deal d = createDeal(100);
        DealRepository deals{Store(*m_bus)};
        WonDialog dialog(deals, d.id);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *field = dialog.findChild<AmountEdit *>("closedValueSpin");
        auto *reading = dialog.findChild<QLabel *>("closedValueSpinReading");
        QCOMPARE(field->accessibleName(), QString("Kapanış tutarı"));
        typeInto(field, "1,250");
        QCOMPARE(reading->text(), QString("“1,250” belirsiz: 1.250 ya da 1,25 yazın."));
        typeInto(field, "1250.5");
        QCOMPARE(reading->text(), QString("= 1.250,50 TRY"));
    }
};

QTEST_MAIN(TestAmountEdit)
#include "test_amountedit.moc"
