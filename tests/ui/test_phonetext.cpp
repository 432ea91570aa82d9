// Phone numbers as the window shows them: grouped by their country's rules, the stored text never
// changed for a number without "+" or one that cannot be a phone number.
#include "ui/shell/phonetext.h"

#include <QTest>

class TestPhoneText final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void groupsAsPeopleReadThem_data()
    {
        QTest::addColumn<QString>("stored");
        QTest::addColumn<QString>("shown");
        QTest::newRow("Turkish mobile") << "+905321234567"
                                        << "+90 532 123 45 67";
        QTest::newRow("Istanbul landline") << "+902121234567"
                                           << "+90 212 123 45 67";
        QTest::newRow("already grouped") << "+90 532 123 45 67"
                                         << "+90 532 123 45 67";
        QTest::newRow("United States") << "+14155550100"
                                       << "+1 415-555-0100";
        QTest::newRow("London") << "+442071838750"
                                << "+44 20 7183 8750";
        QTest::newRow("Berlin") << "+4930123456"
                                << "+49 30 123456";
        QTest::newRow("kept as typed (no country set)") << "0532 123 45 67"
                                                        << "0532 123 45 67";
        QTest::newRow("too short to be a number") << "+90123"
                                                  << "+90123";
        QTest::newRow("not a number") << "+abc"
                                      << "+abc";
        QTest::newRow("empty") << ""
                               << "";
    }

    void groupsAsPeopleReadThem()
    {
        QFETCH(QString, stored);
        QFETCH(QString, shown);
        QCOMPARE(PhoneText::display(stored), shown);
    }
};

QTEST_GUILESS_MAIN(TestPhoneText)
#include "test_phonetext.moc"
