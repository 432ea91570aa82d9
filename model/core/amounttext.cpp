#include "model/core/amounttext.h"

#include <cmath>
#include <limits>

namespace {

using AmountText::Reading;
using AmountText::Refusal;

bool isDigit(QChar c)
{
    return c >= QLatin1Char('0') && c <= QLatin1Char('9');
}

bool isMinus(QChar c)
{
    return c == QLatin1Char('-') || c == QChar(0x2212); // hyphen-minus, minus sign
}

// A mark as the rules see it: the three spaces are one grouping mark (a space), the locale's own
// group separator when it is none of those (the Swiss ’) is a mark too; anything else is no mark.
QChar markOf(QChar c, QChar localeGroup)
{
    if (c == QLatin1Char(' ') || c == QChar(0x00A0) || c == QChar(0x202F))
        return QLatin1Char(' ');
    if (c == QLatin1Char('.') || c == QLatin1Char(',') || (!localeGroup.isNull() && c == localeGroup))
        return c;
    return {};
}

// `.` and `,` may be a decimal mark; the others only group.
bool mayBeDecimal(QChar mark)
{
    return mark == QLatin1Char('.') || mark == QLatin1Char(',');
}

// groups[0] … groups[count - 1] joined by marks[0] … marks[count - 2] form one grouped number: one
// kind of mark, a first group of one to three digits (not starting with 0), then groups of three.
bool groupsInThrees(const QStringList &groups, const QString &marks, qsizetype count)
{
    if (count <= 1)
        return true;
    const QString &first = groups.at(0);
    if (first.size() > 3 || first.startsWith(QLatin1Char('0')))
        return false;
    for (qsizetype i = 1; i < count; ++i) {
        if (groups.at(i).size() != 3 || marks.at(i - 1) != marks.at(0))
            return false;
    }
    return true;
}

Reading refuse(Reading r, Refusal why)
{
    r.refusal = why;
    return r;
}

// The amount of integer digits and decimals (already checked to be digits).
Reading amount(Reading r, const QString &integer, const QString &decimals)
{
    if (decimals.size() > AmountText::kMaxDecimals)
        return refuse(r, Refusal::TooManyDecimals);
    qsizetype zeros = 0;
    while (zeros < integer.size() - 1 && integer.at(zeros) == QLatin1Char('0'))
        ++zeros;
    if (integer.size() - zeros > 15) // far beyond the maximum, whatever a double makes of it
        return refuse(r, Refusal::TooLarge);
    const QString number = decimals.isEmpty() ? integer : integer + QLatin1Char('.') + decimals;
    const double value = number.toDouble(); // QString::toDouble reads the C locale's form
    if (!(value <= AmountText::kMaximum))
        return refuse(r, Refusal::TooLarge);
    r.value = value;
    return r;
}

} // namespace

AmountText::Reading AmountText::read(const QString &text, const QLocale &locale)
{
    Reading r;
    r.text = text.trimmed();
    if (r.text.isEmpty())
        return refuse(r, Refusal::Empty);
    const QString minus = locale.negativeSign();
    if (isMinus(r.text.front()) || (!minus.isEmpty() && r.text.startsWith(minus)))
        return refuse(r, Refusal::Negative);

    const QString localeGroupText = locale.groupSeparator();
    const QChar localeGroup =
        localeGroupText.size() == 1 && !isDigit(localeGroupText.front()) ? localeGroupText.front() : QChar();
    const QChar localeMark = localeGroup.isNull() ? QChar() : markOf(localeGroup, localeGroup);

    // Digit groups and the single marks between them.
    QStringList groups;
    QString marks;
    QString current;
    for (const QChar c : std::as_const(r.text)) {
        if (isDigit(c)) {
            current += c;
            continue;
        }
        const QChar mark = markOf(c, localeGroup);
        if (mark.isNull()) {
            r.character = c;
            return refuse(r, Refusal::Invalid);
        }
        if (current.isEmpty()) // a mark first, or two in a row
            return refuse(r, Refusal::Invalid);
        groups << current;
        current.clear();
        marks += mark;
    }
    if (current.isEmpty()) // a mark last
        return refuse(r, Refusal::Invalid);
    groups << current;

    const qsizetype n = marks.size();
    if (n == 0)
        return amount(r, groups.front(), {});

    const QChar last = marks.back();
    // Only grouping marks, or the last mark occurs more than once: every mark groups.
    if (!mayBeDecimal(last) || marks.count(last) > 1) {
        if (!groupsInThrees(groups, marks, groups.size()))
            return refuse(r, Refusal::BadGrouping);
        return amount(r, groups.join(QString()), {});
    }
    // The last mark occurs once after other marks: it is the decimal mark, the others group.
    if (n > 1) {
        if (!groupsInThrees(groups, marks, n))
            return refuse(r, Refusal::BadGrouping);
        return amount(r, groups.mid(0, n).join(QString()), groups.back());
    }
    // A single mark: before one or two digits the decimal mark; before three a grouping mark when
    // it is the window's, else ambiguous; a grouping that cannot be (more than three digits before
    // it, or more than three after) leaves only the decimal reading.
    const QString &decimals = groups.back();
    if (decimals.size() == 3 && groupsInThrees(groups, marks, 2)) {
        if (last == localeMark)
            return amount(r, groups.join(QString()), {});
        r.grouped = amount(r, groups.join(QString()), {}).value;
        r.decimal = decimals.endsWith(QLatin1Char('0')) ? amount(r, groups.front(), decimals.left(2)).value
                                                        : std::numeric_limits<double>::quiet_NaN();
        return refuse(r, Refusal::Ambiguous);
    }
    return amount(r, groups.front(), decimals);
}
