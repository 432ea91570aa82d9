#include "ui/assistant/assistanttext.h"

#include <QLocale>

QString AssistantText::type(const QString &type)
{
    if (type == QLatin1String("faq"))
        return tr("FAQ");
    if (type == QLatin1String("article"))
        return tr("Article");
    if (type == QLatin1String("snippet"))
        return tr("Snippet");
    return type;
}

QString AssistantText::language(const QString &code)
{
    // Each language in its own words, whatever the window's: a Turkish agent picks "English" and an
    // English one "Türkçe" at a glance.
    if (code == QLatin1String("tr"))
        return QStringLiteral("Türkçe");
    if (code == QLatin1String("en"))
        return QStringLiteral("English");
    const QLocale locale(code);
    if (locale.language() == QLocale::C || code.isEmpty())
        return code;
    const QString name = locale.nativeLanguageName();
    return name.isEmpty() ? code : locale.toUpper(name.left(1)) + name.mid(1);
}

QString AssistantText::handoffReason(const QString &reason)
{
    if (reason == QLatin1String("missing_knowledge"))
        return tr("No entry of the knowledge base answers it");
    if (reason == QLatin1String("low_confidence"))
        return tr("The best entry is not close enough");
    if (reason == QLatin1String("ambiguous"))
        return tr("Two entries answer it about as well");
    if (reason == QLatin1String("customer_request"))
        return tr("The customer asks for a person");
    if (reason == QLatin1String("unsupported_language"))
        return tr("The knowledge base holds no entry in this language");
    return reason;
}

QString AssistantText::percent(double share)
{
    return tr("%1 %").arg(QLocale().toString(share * 100.0, 'f', 0));
}

QString AssistantText::rate(double percent)
{
    return tr("%1 %").arg(QLocale().toString(percent, 'f', 1));
}

QString AssistantText::score(double score)
{
    return QLocale().toString(score, 'f', 2);
}
