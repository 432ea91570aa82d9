#pragma once

#include <QLocale>
#include <QString>
#include <QStringList>

// The window's language (ui/language in liaison.ini; Settings → Appearance): "system" follows the
// desktop (LANGUAGE, LC_MESSAGES, LANG: QLocale::system()), "en", "tr" or "de" fixes one. Read once
// at start, when the translations are loaded; a change applies at the next start.
namespace UiLanguage {

// The keys in the order the Settings page offers them: system, en, tr, de.
QStringList keys();
// The key of a setting's value (trimmed, lower case; empty reads as "system"); anything else reads as
// "system" (*ok false).
QString keyOf(const QString &value, bool *ok = nullptr);
// The locale whose translations a key loads: the system's for "system".
QLocale localeOf(const QString &key);
// A language's own name, as its speakers look for it in a list ("Deutsch", "Türkçe"); empty for
// "system".
QString nativeName(const QString &key);

} // namespace UiLanguage
