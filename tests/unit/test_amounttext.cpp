// Reading typed amounts (AmountText::read) in a Turkish and an English window: every form the rules
// accept gives the same amount in both, a single mark before three digits groups only when it is
// the window's group separator, and everything else is refused with its kind, never read as
// another number.
#include "model/core/amounttext.h"

#include <QtTest>

#include <cmath>

namespace {

using AmountText::Refusal;

const QString kTr = QStringLiteral("tr_TR");
const QString kEn = QStringLiteral("en_US");
const double kNone = std::nan("");

} // namespace

Q_DECLARE_METATYPE(AmountText::Refusal)

class TestAmountText : public QObject
{
    Q_OBJECT

    // One row per locale: the same text read the same way in both windows.
    static void both(const char *name, const QString &text, Refusal refusal, double value = 0)
    {
        for (const QString &locale : {kTr, kEn})
            QTest::addRow("%s %s", qPrintable(locale), name) << locale << text << refusal << value << kNone << kNone;
    }
    static void in(const QString &locale, const char *name, const QString &text, Refusal refusal, double value = 0,
                   double grouped = kNone, double decimal = kNone)
    {
        QTest::addRow("%s %s", qPrintable(locale), name) << locale << text << refusal << value << grouped << decimal;
    }

private slots:
    void reads_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<QString>("text");
        QTest::addColumn<Refusal>("refusal");
        QTest::addColumn<double>("value");   // Refusal::None: the amount
        QTest::addColumn<double>("grouped"); // Refusal::Ambiguous: the amount when the mark groups
        QTest::addColumn<double>("decimal"); // Refusal::Ambiguous: when it is the decimal mark (NaN: none)

        // Plain and the window's own forms.
        both("integer", "1250", Refusal::None, 1250);
        both("zero", "0", Refusal::None, 0);
        both("leading zeros", "007", Refusal::None, 7);
        both("spaces around", "  1250  ", Refusal::None, 1250);
        in(kTr, "own form", "1.250,50", Refusal::None, 1250.5);
        in(kEn, "own form", "1,250.50", Refusal::None, 1250.5);

        // A single mark before one or two digits is the decimal mark, whichever it is.
        both("dot decimals", "1250.50", Refusal::None, 1250.5);
        both("comma decimals", "1250,50", Refusal::None, 1250.5);
        both("dot one decimal", "1.5", Refusal::None, 1.5);
        both("comma one decimal", "1,5", Refusal::None, 1.5);
        both("cents", "0,05", Refusal::None, 0.05);
        both("cents dot", "0.05", Refusal::None, 0.05);

        // Both marks: the last one is the decimal mark, the other groups in threes.
        both("English grouped", "1,250.50", Refusal::None, 1250.5);
        both("Turkish grouped", "1.250,50", Refusal::None, 1250.5);
        both("English millions", "1,250,000.75", Refusal::None, 1250000.75);
        both("Turkish millions", "1.250.000,5", Refusal::None, 1250000.5);

        // A mark occurring several times groups.
        both("dots group", "1.250.000", Refusal::None, 1250000);
        both("commas group", "1,250,000", Refusal::None, 1250000);

        // Spaces group in threes too: U+0020, U+00A0, U+202F.
        both("space groups", "1 250", Refusal::None, 1250);
        both("space groups, comma decimals", "1 250,50", Refusal::None, 1250.5);
        both("no-break space groups", QStringLiteral("1\u00a0250.50"), Refusal::None, 1250.5);
        both("narrow no-break space groups", QStringLiteral("1\u202f250\u202f000"), Refusal::None, 1250000);
        both("mixed spaces group", QStringLiteral("1 250\u00a0000"), Refusal::None, 1250000);
        both("space not in threes", "12 50", Refusal::BadGrouping);
        both("space then decimal in threes", "1 250.000", Refusal::TooManyDecimals);

        // A single mark before exactly three digits: the window's group separator groups, the other
        // is ambiguous (1250 or 1.25).
        in(kTr, "dot before three", "1.250", Refusal::None, 1250);
        in(kEn, "dot before three", "1.250", Refusal::Ambiguous, 0, 1250, 1.25);
        in(kEn, "comma before three", "1,250", Refusal::None, 1250);
        in(kTr, "comma before three", "1,250", Refusal::Ambiguous, 0, 1250, 1.25);
        in(kTr, "comma before 255", "1,255", Refusal::Ambiguous, 0, 1255, kNone); // 1.255: too many decimals
        in(kEn, "comma before 255", "1,255", Refusal::None, 1255);
        in(kTr, "dot before 999", "999.999", Refusal::None, 999999);
        in(kEn, "dot before 999", "999.999", Refusal::Ambiguous, 0, 999999, kNone);
        in(kTr, "comma before 100", "12,100", Refusal::Ambiguous, 0, 12100, 12.1);
        // No grouping can be: more than two decimals.
        both("four digits before three", "1250.505", Refusal::TooManyDecimals);
        both("four digits before three, comma", "1250,000", Refusal::TooManyDecimals);
        both("zero before three", "0,250", Refusal::TooManyDecimals);
        both("zero before three, dot", "0.250", Refusal::TooManyDecimals);

        // More than two decimals.
        both("three decimals after grouping", "12,345.678", Refusal::TooManyDecimals);
        both("three decimals after Turkish grouping", "1.250,505", Refusal::TooManyDecimals);
        both("four decimals", "1.2345", Refusal::TooManyDecimals);
        both("four decimals, comma", "1,2345", Refusal::TooManyDecimals);

        // Grouping not in threes, or of two kinds.
        both("groups of two", "1.25.0", Refusal::BadGrouping);
        both("short group", "12.50.000", Refusal::BadGrouping);
        both("long first group", "1234.567,89", Refusal::BadGrouping);
        both("long first group, commas", "1234,567,890", Refusal::BadGrouping);
        both("first group with zero", "0.250.000", Refusal::BadGrouping);
        both("mixed grouping", "1.250 000,50", Refusal::BadGrouping);
        both("mixed grouping, repeated last", "1,250.000.000", Refusal::BadGrouping);
        both("mixed grouping, repeated first", "1.250.000,000.50", Refusal::BadGrouping);

        // Misplaced marks.
        both("leading comma", ",5", Refusal::Invalid);
        both("leading dot", ".50", Refusal::Invalid);
        both("trailing dot", "1250.", Refusal::Invalid);
        both("trailing comma", "1.250,", Refusal::Invalid);
        both("doubled dot", "1..5", Refusal::Invalid);
        both("doubled comma", "1,,250", Refusal::Invalid);
        both("dot then comma", "1.,50", Refusal::Invalid);
        both("space then dot", "1 .50", Refusal::Invalid);

        // Letters and signs.
        both("letter", "12a", Refusal::Invalid);
        both("currency code", "1.250 TRY", Refusal::Invalid);
        both("currency first", "TRY 5", Refusal::Invalid);
        both("exponent", "1e5", Refusal::Invalid);
        both("plus", "+5", Refusal::Invalid);
        both("trailing minus", "5-", Refusal::Invalid);
        both("minus", "-5", Refusal::Negative);
        both("minus grouped", "-1.250,50", Refusal::Negative);
        both("minus sign", QStringLiteral("\u22125"), Refusal::Negative);

        // Empty: the caller decides.
        both("empty", "", Refusal::Empty);
        both("spaces only", QStringLiteral(" \u00a0 "), Refusal::Empty);

        // Up to 1e13.
        both("maximum grouped", "10.000.000.000.000", Refusal::None, 1e13);
        both("maximum", "10000000000000", Refusal::None, 1e13);
        both("above maximum", "10000000000000,01", Refusal::TooLarge);
        both("above maximum grouped", "10,000,000,000,001", Refusal::TooLarge);
        both("very long", "99999999999999999999999999999999", Refusal::TooLarge);
        both("beyond a double", QString(400, QLatin1Char('9')), Refusal::TooLarge);
        both("zeros before the maximum", "00000000000000000010000000000000", Refusal::None, 1e13);
    }

    void reads()
    {
        QFETCH(QString, locale);
        QFETCH(QString, text);
        QFETCH(Refusal, refusal);
        QFETCH(double, value);
        QFETCH(double, grouped);
        QFETCH(double, decimal);
        const AmountText::Reading r = AmountText::read(text, QLocale(locale));
        QCOMPARE(r.refusal, refusal);
        QCOMPARE(r.text, text.trimmed());
        QCOMPARE(r.ok(), refusal == Refusal::None);
        if (refusal == Refusal::None)
            QCOMPARE(r.value, value);
        if (refusal == Refusal::Ambiguous) {
            QCOMPARE(r.grouped, grouped);
            if (std::isnan(decimal))
                QVERIFY2(std::isnan(r.decimal), qPrintable(QString::number(r.decimal)));
            else
                QCOMPARE(r.decimal, decimal);
        }
    }

    // A refusal for a character names it, so that the window can point at it.
    void namesTheCharacter()
    {
        QCOMPARE(AmountText::read(QStringLiteral("12a4"), QLocale(kTr)).character, QChar('a'));
        QCOMPARE(AmountText::read(QStringLiteral("1.250 TL"), QLocale(kEn)).character, QChar('T'));
        QVERIFY(AmountText::read(QStringLiteral("1..5"), QLocale(kEn)).character.isNull());
    }

    // The window's own form, as QLocale writes it, reads back as the same amount.
    void readsWhatTheLocaleWrites_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<double>("value");
        for (const QString &locale : {kTr, kEn, QStringLiteral("fr_FR"), QStringLiteral("de_CH")}) {
            for (const double v : {0.0, 0.5, 12.0, 999.99, 1250.5, 1234567.89, 1e13})
                QTest::addRow("%s %s", qPrintable(locale), qPrintable(QString::number(v, 'f', 2))) << locale << v;
        }
    }
    void readsWhatTheLocaleWrites()
    {
        QFETCH(QString, locale);
        QFETCH(double, value);
        const QString text = QLocale(locale).toString(value, 'f', 2);
        const AmountText::Reading r = AmountText::read(text, QLocale(locale));
        QVERIFY2(r.ok(), qPrintable(text));
        QCOMPARE(r.value, value);
    }
};

QTEST_GUILESS_MAIN(TestAmountText)
#include "test_amounttext.moc"
