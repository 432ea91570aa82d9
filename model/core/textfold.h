#pragma once

#include <QString>
#include <QStringList>

// Folding for search: lower case, Turkish dotted/dotless i made plain "i", accents removed, so
// that "Şükrü", "sukru" and "SÜKRÜ" find each other.
namespace TextFold {
QString fold(const QString &text);
// Words of folded text: runs of letters and digits.
QStringList words(const QString &text);
} // namespace TextFold
