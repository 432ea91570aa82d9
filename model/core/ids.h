#pragma once

#include <QString>

namespace Ids {
// A new opaque id "<prefix>_<26 chars>": 48 bits of milliseconds then 80 random bits in Crockford
// base32 (as ULID), so that ids sort by creation time and index well.
QString make(QStringView prefix);
// True when text has the form make() gives for this prefix.
bool looksLike(QStringView text, QStringView prefix);
} // namespace Ids
