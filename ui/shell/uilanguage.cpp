#include "ui/shell/uilanguage.h"

namespace UiLanguage {

QStringList keys()
{
    return {QStringLiteral("system"), QStringLiteral("en"), QStringLiteral("tr"), QStringLiteral("de")};
}

QString keyOf(const QString &value, bool *ok)
{
    const QString key = value.trimmed().toLower();
    const bool known = key.isEmpty() || keys().contains(key);
    if (ok)
        *ok = known;
    return known && !key.isEmpty() ? key : QStringLiteral("system");
}

QLocale localeOf(const QString &key)
{
    if (key == QLatin1String("en"))
        return QLocale(QLocale::English, QLocale::UnitedStates);
    if (key == QLatin1String("tr"))
        return QLocale(QLocale::Turkish, QLocale::Turkey);
    if (key == QLatin1String("de"))
        return QLocale(QLocale::German, QLocale::Germany);
    return QLocale::system();
}

QString nativeName(const QString &key)
{
    if (key == QLatin1String("en"))
        return QStringLiteral("English");
    if (key == QLatin1String("tr"))
        return QStringLiteral("Türkçe");
    if (key == QLatin1String("de"))
        return QStringLiteral("Deutsch");
    return {};
}

} // namespace UiLanguage
