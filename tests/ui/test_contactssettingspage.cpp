// Settings > Contacts as an admin uses it: the calling code for local numbers with a live example,
// the system country's code offered, a malformed code refused before saving, and Save handing the
// code to the app (which applies it: a contact saved afterwards with "0532 …" gets +90).
#include "model/contacts/contact.h"
#include "ui/settings/contactssettingspage.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QtTest>

class TestContactsSettingsPage final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { ContactRules::setDefaultCallingCode(QString()); }

    void callingCodeOfACountry_data()
    {
        QTest::addColumn<QLocale::Territory>("territory");
        QTest::addColumn<QString>("code");
        QTest::newRow("Türkiye") << QLocale::Turkey << "90";
        QTest::newRow("Germany") << QLocale::Germany << "49";
        QTest::newRow("United States") << QLocale::UnitedStates << "1";
        QTest::newRow("Azerbaijan") << QLocale::Azerbaijan << "994";
        QTest::newRow("Finland") << QLocale::Finland << "358";
        QTest::newRow("not in the table") << QLocale::Antarctica << "";
        QTest::newRow("any") << QLocale::AnyTerritory << "";
    }

    void callingCodeOfACountry()
    {
        QFETCH(QLocale::Territory, territory);
        QFETCH(QString, code);
        QCOMPARE(ContactsSettingsPage::callingCodeOf(territory), code);
        if (!code.isEmpty())
            QVERIFY(ContactRules::isCallingCode(code));
    }

    void showsTheExampleAndOffersTheSystemCountry()
    {
        ContactsSettingsPage page(QString(), QLocale(QLocale::Turkish, QLocale::Turkey));
        page.show();
        QVERIFY(page.exampleLabel()->text().contains("refused"));
        QVERIFY(page.suggestionButton()->isVisible());
        QVERIFY(page.suggestionButton()->text().contains("+90"));
        QVERIFY2(page.suggestionButton()->text().contains(QString::fromUtf8("Türkiye")),
                 qPrintable(page.suggestionButton()->text())); // the country in its own language
        QTest::mouseClick(page.suggestionButton(), Qt::LeftButton);
        QCOMPARE(page.callingCodeEdit()->text(), QString("90"));
        QVERIFY2(page.exampleLabel()->text().contains("+905321234567"), qPrintable(page.exampleLabel()->text()));

        // Typed by hand: the validator keeps digits only, at most three.
        page.callingCodeEdit()->clear();
        QTest::keyClicks(page.callingCodeEdit(), "4a9x12");
        QCOMPARE(page.callingCodeEdit()->text(), QString("491"));
        QVERIFY(page.exampleLabel()->text().contains("+4915321234567"));

        // A country the table lacks: no suggestion button.
        ContactsSettingsPage other(QString("44"), QLocale(QLocale::Amharic, QLocale::Ethiopia));
        other.show();
        QVERIFY(!other.suggestionButton()->isVisible());
        QCOMPARE(other.callingCodeEdit()->text(), QString("44"));
    }

    void saveHandsTheCodeOverAndRefusesAMalformedOne()
    {
        ContactsSettingsPage page(QString(), QLocale(QLocale::Turkish, QLocale::Turkey));
        QStringList saved;
        page.setSaveFunction([&saved](const QString &code, QString *) {
            saved << code;
            ContactRules::setDefaultCallingCode(code);
            return true;
        });
        page.callingCodeEdit()->setText("0"); // not typed: setText passes the validator by
        QTest::mouseClick(page.saveButton(), Qt::LeftButton);
        QVERIFY(saved.isEmpty());
        QVERIFY(page.statusLabel()->text().contains("1 to 3 digits"));

        page.callingCodeEdit()->setText("90");
        QTest::mouseClick(page.saveButton(), Qt::LeftButton);
        QCOMPARE(saved, QStringList{"90"});
        QVERIFY(page.statusLabel()->text().contains("+90"));
        QCOMPARE(ContactRules::toE164("0532 123 45 67"), QString("+905321234567"));

        page.callingCodeEdit()->clear();
        QTest::mouseClick(page.saveButton(), Qt::LeftButton);
        QCOMPARE(saved, QStringList({"90", ""}));
        QCOMPARE(ContactRules::toE164("0532 123 45 67"), QString());

        // A save function that fails: its reason is shown.
        page.setSaveFunction([](const QString &, QString *why) {
            *why = "liaison.ini cannot be written";
            return false;
        });
        QTest::mouseClick(page.saveButton(), Qt::LeftButton);
        QVERIFY(page.statusLabel()->text().contains("cannot be written"));
    }
};

QTEST_MAIN(TestContactsSettingsPage)
#include "test_contactssettingspage.moc"
