#pragma once

#include <QChar>
#include <QLocale>
#include <QString>

// Reading an amount of money typed by a person, in the window's locale or in another unambiguous
// form, so that "1250.50", "1,250.50" and "1.250,50" are the same 1250.5 in a Turkish and in an
// English window, and nothing is silently read as another number:
// - a single `.` or `,` followed by one or two digits is the decimal mark;
// - grouping marks (`.`, `,`, spaces U+0020, U+00A0, U+202F, the locale's group separator) only
//   between groups of three digits, the first group of one to three digits, one kind of mark;
// - when both `.` and `,` occur, the last one is the decimal mark and the other groups;
// - a mark occurring several times groups;
// - a single mark followed by exactly three digits groups when it is the locale's group separator
//   ("1.250" in Turkish, "1,250" in English: 1250) and is ambiguous otherwise ("1,250" in Turkish).
// At most two decimals; no sign, letters, or mark at either end or twice in a row; at most kMaximum.
// The answer is a value or the kind of refusal with its arguments, never a sentence: the window
// words it in its own language.
namespace AmountText {

// The largest amount a deal holds (the range of the former spin boxes).
constexpr double kMaximum = 1e13;
constexpr int kMaxDecimals = 2;

enum class Refusal
{
    None,            // read: value holds the amount
    Empty,           // nothing but spaces (the caller decides what an empty field means)
    Invalid,         // a character that is no digit nor mark, or a mark at either end or doubled
    BadGrouping,     // grouping marks not between groups of three, or of two kinds
    Ambiguous,       // a single mark before three digits that is not the locale's group separator
    TooManyDecimals, // more than kMaxDecimals digits after the decimal mark
    Negative,        // a minus sign
    TooLarge,        // more than kMaximum
};

struct Reading
{
    Refusal refusal = Refusal::None;
    double value = 0;   // None: the amount
    QString text;       // the text read, without the spaces around it
    QChar character;    // Invalid: the first character that is no digit nor mark (null when a mark is misplaced)
    double grouped = 0; // Ambiguous: the amount when the mark groups ("1,250": 1250)
    // Ambiguous: the amount when the mark is the decimal mark ("1,250": 1.25); NaN when that reading
    // has more than kMaxDecimals decimals ("1,255").
    double decimal = 0;

    bool ok() const { return refusal == Refusal::None; }
};

// Reads `text` as typed in a window of `locale`.
Reading read(const QString &text, const QLocale &locale = QLocale());

} // namespace AmountText
