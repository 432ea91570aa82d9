#pragma once

#include <QCoreApplication>
#include <QString>

// The window's words for the assistant's stored values: an entry's type, a language, why the
// assistant hands a question to a person, and its measures (confidence, margin). An unknown value
// is shown as it is.
class AssistantText
{
    Q_DECLARE_TR_FUNCTIONS(AssistantText)
public:
    static QString type(const QString &type); // faq, article, snippet
    // A language by its own name ("Türkçe", "English"), as language pickers name them; another
    // code by Qt's name for it, else the code.
    static QString language(const QString &code);
    static QString handoffReason(const QString &reason); // missing_knowledge … unsupported_language
    // A share from 0 to 1 as a percentage in the window's locale: "72 %".
    static QString percent(double share);
    // A rate already in percent (AiStats' rates) with its one decimal: "62,5 %".
    static QString rate(double percent);
    // A BM25F score: two decimals in the window's locale.
    static QString score(double score);
};
