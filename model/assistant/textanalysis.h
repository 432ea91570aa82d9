#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

// The assistant's reading of a text: the same steps for the knowledge entries when they are
// indexed and for a customer's question when it is asked (docs/architecture.md, "The assistant").
//
// 1. normalise: Unicode NFKC, then lower case; Turkish text with Turkish rules (İ → i, I → ı),
//    other text with the plain ones.
// 2. words: runs of letters and digits; a Turkish suffix written after an apostrophe
//    ("Kadıköy'deki") is dropped with it.
// 3. stop words (function words, greetings and politeness) are left out: they say nothing of what is
//    asked.
// 4. stem: Snowball's Turkish or English stemmer (libstemmer).
// 5. asciiFold: ı → i and every accent removed (ç ğ ö ş ü → c g o s u), so that "kargom kac gunde"
//    and "kargom kaç günde" meet.
namespace TextAnalysis {

// "tr", "en": the languages with a stemmer, stop words and fallback replies.
QStringList supportedLanguages();
bool isSupported(const QString &language);

QString normalise(const QString &text, const QString &language);
QString asciiFold(const QString &word);
QStringList words(const QString &normalised);
// On the ASCII-folded word; both languages' lists when language is empty.
bool isStopWord(const QString &foldedWord, const QString &language);
// Question words ("nasıl", "nerede", "ne zaman"; "how", "where", "when"): kept, as they tell one
// question from another, but weighed lightly, as they do not tell what it is about.
bool isWeakWord(const QString &foldedWord, const QString &language);
// The word's stem in language (a word of a language without a stemmer is returned as it is). Thread
// safe: each thread has its own stemmers.
QString stem(const QString &word, const QString &language);

// A term as the index keeps it: words a customer uses for the same thing in a shop's support
// ("bedava" and "ücretsiz", "shop" and "store", "fee" and "cost") share one term, from a small
// curated list per language (textanalysis.cpp); other terms are themselves.
QString canonicalTerm(const QString &term, const QString &language);
// asciiFold(stem(word)), then canonicalTerm: what a word is looked up and indexed as.
QString termOf(const QString &word, const QString &language);

// A few phrases of a shop's support rewritten as the word they mean ("send it back" -> "return",
// "e-posta adresi" -> "eposta"), on normalised text.
QString rewritePhrases(const QString &normalised, const QString &language);

// The words of text that carry meaning, normalised but neither stemmed nor folded (the index maps
// each to its term, see KnowledgeIndex).
QStringList contentWords(const QString &text, const QString &language);
// Their terms (termOf).
QStringList terms(const QString &text, const QString &language);

// The language a text is written in, guessed from its letters (ç ğ ı ş ö ü), its stop words and
// Turkish suffixes: "tr", "en", "other" (another alphabet, or the stop words of another language
// such as German, French or Spanish), or empty when nothing tells (a word or two with no sign).
struct LanguageGuess
{
    QString language;
    double turkish = 0;
    double english = 0;
    double other = 0;
};
LanguageGuess detectLanguage(const QString &text);

// Whether the customer asks for a person ("bir temsilciyle görüşmek istiyorum", "can I talk to a
// human"): the assistant hands off at once with the reason customer_request.
bool asksForPerson(const QString &text);

// The Damerau-Levenshtein distance of two words, or limit + 1 once it is over limit.
int editDistance(const QString &a, const QString &b, int limit);

} // namespace TextAnalysis
