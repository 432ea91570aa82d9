#pragma once

#include <QList>
#include <QString>

// The tone of a customer's message (positive, negative, neutral) from a small curated lexicon of
// English and Turkish words, read on folded text (TextFold: case, accents and dotted/dotless i
// ignored), with negation and intensifiers. The rules, and what was decided where the words are
// ambiguous, are in docs/api.md (Conversations and messages) and beside the lexicon in
// sentiment.cpp. A support team's reading is the yardstick: asking how to return or cancel is
// neutral, "hâlâ gelmedi" is a complaint.
namespace Sentiment {

// A word (or emoji) of the text that counted, with what it added once negation and intensity were
// applied.
struct Cue
{
    QString word; // folded, as it stood in the text
    int value = 0;
};

struct Result
{
    int score = 0;                             // the sum of the cues' values
    QString label = QStringLiteral("neutral"); // label(score)
    QList<Cue> cues;                           // in the order of the text, only those that added something
};

Result analyse(const QString &text);

// "positive" above 0, "negative" below 0, "neutral" at 0.
QString label(int score);

} // namespace Sentiment
