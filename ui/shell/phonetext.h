#pragma once

#include <QString>

// Phone numbers as people read them. Stored numbers stay as they are (international "+905321234567",
// or a number kept as typed when no country was set); the window shows an international one grouped
// by its country's own rules (libphonenumber's metadata): "+90 532 123 45 67", "+1 415-555-0100",
// "+44 20 7183 8750". A number without "+", or one the metadata cannot read, is shown as stored.
namespace PhoneText {
QString display(const QString &stored);
} // namespace PhoneText
