#include "messaging/channels/recipients.h"
#include "model/contacts/contact.h"

#include <QtTest>

// A direct send's `to` on a phone channel: the contacts' E.164 rules, with no default country and
// with any white space and brackets tolerated.
class TestRecipients : public QObject
{
    Q_OBJECT

private slots:
    void readsE164_data()
    {
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("e164"); // empty: refused
        QTest::newRow("plain") << "+905321234567"
                               << "+905321234567";
        QTest::newRow("spaced") << "+90 532 123 45 67"
                                << "+905321234567";
        QTest::newRow("dashes, dots, brackets") << "+1 (415) 555-01.23"
                                                << "+14155550123";
        QTest::newRow("tab and newline") << "+90\t532 123\n45 67"
                                         << "+905321234567";
        QTest::newRow("bracket before the plus") << "(+90) 532 123 45 67"
                                                 << "+905321234567";
        QTest::newRow("seven digits") << "+1234567"
                                      << "+1234567";
        QTest::newRow("fifteen digits") << "+123456789012345"
                                        << "+123456789012345";
        QTest::newRow("six digits") << "+123456"
                                    << "";
        QTest::newRow("sixteen digits") << "+1234567890123456"
                                        << "";
        QTest::newRow("country code 0") << "+0532123456"
                                        << "";
        QTest::newRow("national, no default country") << "0532 123 45 67"
                                                      << "";
        QTest::newRow("international prefix 00") << "0090 532 123 45 67"
                                                 << "";
        QTest::newRow("letters") << "+90 532 ABC 45 67"
                                 << "";
        QTest::newRow("two plus signs") << "++905321234567"
                                        << "";
        QTest::newRow("empty") << ""
                               << "";
    }
    void readsE164()
    {
        QFETCH(QString, to);
        QFETCH(QString, e164);
        QCOMPARE(Recipients::e164(to), e164);
    }

    // A default country for contacts does not reach direct sends: their numbers must be whole.
    void ignoresTheContactsDefaultCountry()
    {
        ContactRules::setDefaultCallingCode(QStringLiteral("90"));
        QCOMPARE(Recipients::e164(QStringLiteral("0532 123 45 67")), QString());
        QCOMPARE(ContactRules::toE164(QStringLiteral("0532 123 45 67")), QStringLiteral("+905321234567"));
        ContactRules::setDefaultCallingCode(QString());
    }
};

QTEST_GUILESS_MAIN(TestRecipients)
#include "test_recipients.moc"
