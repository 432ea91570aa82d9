#include "model/assistant/textanalysis.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <libstemmer.h>

#include <algorithm>
#include <memory>
#include <tuple>

namespace {

QSet<QString> wordSet(std::initializer_list<const char *> list)
{
    QSet<QString> s;
    for (const char *w : list)
        s.insert(QString::fromLatin1(w));
    return s;
}

// Function words, greetings and politeness, ASCII-folded. Question words that tell one question
// from another ("nasıl", "ne zaman", "kaç"; "how", "when", "where") are kept.
const QSet<QString> &turkishStopWords()
{
    static const QSet<QString> words =
        wordSet({"ve",       "veya",        "ile",      "bir",      "bu",       "su",         "o",       "da",
                 "de",       "mi",          "mu",       "ki",       "ama",      "fakat",      "ancak",   "icin",
                 "gibi",     "daha",        "en",       "cok",      "az",       "ben",        "sen",     "biz",
                 "siz",      "onlar",       "beni",     "bana",     "benim",    "bizim",      "sizin",   "sana",
                 "size",     "sizi",        "sizde",    "sizden",   "bizi",     "bize",       "onu",     "ona",
                 "onun",     "var",         "yok",      "misiniz",  "musunuz",  "miyim",      "miyiz",   "mudur",
                 "midir",    "midir",       "nedir",    "ise",      "ya",       "yani",       "hem",     "her",
                 "hic",      "bile",        "sadece",   "hep",      "acaba",    "lutfen",     "merhaba", "merhabalar",
                 "selam",    "selamlar",    "iyi",      "gunler",   "aksamlar", "calismalar", "kolay",   "gelsin",
                 "tesekkur", "tesekkurler", "ederim",   "ederiz",   "rica",     "sagol",      "sagolun", "hocam",
                 "abi",      "abla",        "efendim",  "bey",      "hanim",    "istiyorum",  "isterim", "istiyoruz",
                 "etmek",    "yapmak",      "olur",     "olabilir", "mumkun",   "mi",         "ne",      "nedir",
                 "peki",     "simdi",       "hala",     "yine",     "diye",     "sey",        "bilgi",   "alabilir",
                 "alabilir", "miyim",       "ogrenmek", "soru",     "sormak",   "sorum",      "istedim", "acil",
                 "oldu",     "olan",        "olarak",   "olsun"});
    return words;
}

const QSet<QString> &englishStopWords()
{
    static const QSet<QString> words = wordSet(
        {"a",         "an",      "the",    "is",      "are",   "was",     "were",     "be",    "been",   "am",
         "do",        "does",    "did",    "can",     "could", "would",   "should",   "will",  "shall",  "may",
         "might",     "must",    "i",      "me",      "my",    "mine",    "we",       "us",    "our",    "you",
         "your",      "yours",   "it",     "its",     "this",  "that",    "these",    "those", "there",  "here",
         "to",        "of",      "in",     "on",      "at",    "by",      "for",      "with",  "from",   "about",
         "as",        "into",    "than",   "then",    "so",    "and",     "or",       "but",   "if",     "hi",
         "hello",     "hey",     "dear",   "please",  "pls",   "thanks",  "thank",    "thx",   "good",   "morning",
         "afternoon", "evening", "sir",    "madam",   "team",  "guys",    "have",     "has",   "had",    "get",
         "got",       "any",     "some",   "just",    "also",  "very",    "really",   "want",  "wanted", "like",
         "know",      "tell",    "let",    "what",    "which", "who",     "whom",     "whose", "im",     "ive",
         "id",        "dont",    "ok",     "okay",    "yes",   "no",      "question", "quick", "help",   "need",
         "wondering", "wonder",  "anyone", "someone", "hope",  "regards", "kind",     "best",  "urgent", "now",
         "am",        "pm",      "lol",    "hiya",    "there", "is",      "please",   "sorry"});
    return words;
}

// Words of German, French, Spanish, Italian and Dutch that neither Turkish nor English uses: a
// question in one of them gets the reason unsupported_language.
const QSet<QString> &otherLanguageWords()
{
    static const QSet<QString> words =
        wordSet({"der", "die",  "das",  "und",  "ist",    "nicht", "ich",   "sie",   "wir",     "ein",  "eine",
                 "mit", "sind", "wie",  "wann", "warum",  "bitte", "danke", "le",    "la",      "les",  "est",
                 "et",  "je",   "vous", "pour", "avec",   "une",   "des",   "du",    "merci",   "que",  "qui",
                 "el",  "los",  "las",  "es",   "y",      "por",   "para",  "usted", "gracias", "como", "cuando",
                 "il",  "di",   "che",  "sono", "grazie", "het",   "een",   "niet",  "wat",     "hoe",  "waar"});
    return words;
}

// Letters only Turkish of the two uses (ğ ı ş and the capitals), and those it shares with others.
bool strongTurkishLetter(QChar c)
{
    switch (c.unicode()) {
    case 0x011F: // ğ
    case 0x011E:
    case 0x0131: // ı
    case 0x0130: // İ
    case 0x015F: // ş
    case 0x015E:
        return true;
    default:
        return false;
    }
}

bool weakTurkishLetter(QChar c)
{
    switch (c.unicode()) {
    case 0x00E7: // ç
    case 0x00C7:
    case 0x00F6: // ö
    case 0x00D6:
    case 0x00FC: // ü
    case 0x00DC:
        return true;
    default:
        return false;
    }
}

struct StemmerDeleter
{
    void operator()(sb_stemmer *s) const { sb_stemmer_delete(s); }
};
using StemmerPtr = std::unique_ptr<sb_stemmer, StemmerDeleter>;

} // namespace

QStringList TextAnalysis::supportedLanguages()
{
    return {QStringLiteral("tr"), QStringLiteral("en")};
}

bool TextAnalysis::isSupported(const QString &language)
{
    return language == QLatin1String("tr") || language == QLatin1String("en");
}

QString TextAnalysis::normalise(const QString &text, const QString &language)
{
    QString s = text.normalized(QString::NormalizationForm_KC);
    if (language == QLatin1String("tr")) {
        s.replace(QChar(0x0130), QLatin1Char('i')).replace(QLatin1Char('I'), QChar(0x0131));
    } else {
        // A dotted capital İ written in another language's text is an i all the same.
        s.replace(QChar(0x0130), QLatin1Char('i'));
    }
    s = s.toLower();
    // "i̇" (i and a combining dot: what a plain lower-casing of İ gives) is an i.
    s.remove(QChar(0x0307));
    return s;
}

QString TextAnalysis::asciiFold(const QString &word)
{
    QString out;
    out.reserve(word.size());
    bool plain = true;
    for (QChar c : word) {
        if (c.unicode() >= 0x80) {
            plain = false;
            break;
        }
    }
    if (plain)
        return word;
    const QString decomposed =
        QString(word).replace(QChar(0x0131), QLatin1Char('i')).normalized(QString::NormalizationForm_KD);
    for (QChar c : decomposed) {
        const auto cat = c.category();
        if (cat == QChar::Mark_NonSpacing || cat == QChar::Mark_SpacingCombining || cat == QChar::Mark_Enclosing)
            continue;
        out.append(c);
    }
    return out;
}

QStringList TextAnalysis::words(const QString &normalised)
{
    QStringList out;
    QString current;
    bool skippingSuffix = false;
    for (QChar c : normalised) {
        if (c.isLetterOrNumber() || c.category() == QChar::Mark_NonSpacing) {
            if (!skippingSuffix)
                current.append(c);
            continue;
        }
        const bool apostrophe = c == QLatin1Char('\'') || c == QChar(0x2019);
        if (apostrophe && !current.isEmpty()) {
            // "kadıköy'deki", "customer's": the word is what comes before.
            skippingSuffix = true;
            continue;
        }
        if (!current.isEmpty())
            out.append(current);
        current.clear();
        skippingSuffix = false;
    }
    if (!current.isEmpty())
        out.append(current);
    // A letter typed three times or more in a row ("iadeee", "pleaseee") is one.
    for (QString &w : out) {
        for (qsizetype i = 2; i < w.size(); ++i) {
            if (w.at(i) == w.at(i - 1) && w.at(i) == w.at(i - 2) && w.at(i).isLetter()) {
                qsizetype end = i;
                while (end < w.size() && w.at(end) == w.at(i))
                    ++end;
                w.remove(i - 1, end - i + 1);
                --i;
            }
        }
    }
    return out;
}

bool TextAnalysis::isStopWord(const QString &foldedWord, const QString &language)
{
    if (language == QLatin1String("tr"))
        return turkishStopWords().contains(foldedWord);
    if (language == QLatin1String("en"))
        return englishStopWords().contains(foldedWord);
    return turkishStopWords().contains(foldedWord) || englishStopWords().contains(foldedWord);
}

bool TextAnalysis::isWeakWord(const QString &foldedWord, const QString &language)
{
    static const QSet<QString> turkish = wordSet(
        {"nasil", "nerede", "nereden", "nereye", "ne",    "zaman", "kac",       "kadar",       "hangi",      "neden",
         "niye",  "nicin",  "kim",     "mumkun", "lazim", "gerek", "gerekiyor", "yapabilirim", "yapmaliyim", "olur"});
    static const QSet<QString> english = wordSet({"how", "where", "when", "why", "long", "much", "many", "can",
                                                  "possible", "way", "find", "see", "get", "do", "make"});
    return (language == QLatin1String("tr") ? turkish : english).contains(foldedWord);
}

QString TextAnalysis::stem(const QString &word, const QString &language)
{
    // A stemmer is not safe to share between threads and cheap to keep: one per thread and language.
    thread_local StemmerPtr turkish(sb_stemmer_new("turkish", "UTF_8"));
    thread_local StemmerPtr english(sb_stemmer_new("english", "UTF_8"));
    sb_stemmer *stemmer = language == QLatin1String("tr")   ? turkish.get()
                          : language == QLatin1String("en") ? english.get()
                                                            : nullptr;
    if (!stemmer || word.size() < 3)
        return word;
    const QByteArray utf8 = word.toUtf8();
    const sb_symbol *out =
        sb_stemmer_stem(stemmer, reinterpret_cast<const sb_symbol *>(utf8.constData()), int(utf8.size()));
    if (!out)
        return word;
    const QString stemmed = QString::fromUtf8(reinterpret_cast<const char *>(out), sb_stemmer_length(stemmer));
    // Snowball's Turkish stemmer takes short words apart too far ("iade" -> "ia", "günde" -> "g",
    // "yastık" -> "yas"): a stem of fewer than 4 letters is the word's first 4 (the truncation
    // Turkish retrieval often uses), or the word when it is that short.
    return stemmed.size() < 4 && word.size() > stemmed.size() + 1 ? word.left(4) : stemmed.size() < 3 ? word : stemmed;
}

namespace {

// Phrases of a shop's support that say one thing in several words, written as the word that means
// it (on the normalised text, before it is split into words): "send it back" is a return, "where is
// my order" asks to track it, "e-mail address" is the e-mail and not the delivery address.
struct Phrase
{
    QString trigger; // a word of the phrase: the pattern is tried only on a text that holds it
    QRegularExpression pattern;
    QString replacement;
};

QVector<Phrase> phrases(std::initializer_list<std::tuple<const char *, const char *, const char *>> list)
{
    QVector<Phrase> out;
    for (const auto &[trigger, pattern, replacement] : list)
        out.append({QString::fromUtf8(trigger),
                    QRegularExpression(QString::fromUtf8(pattern), QRegularExpression::UseUnicodePropertiesOption),
                    QString::fromUtf8(replacement)});
    return out;
}

const QVector<Phrase> &turkishPhrases()
{
    static const QVector<Phrase> list = phrases({
        {"geri", "\\bgeri (gönder|yolla|ver)\\w*", "iade"},
        {"adres", "\\b(e-?posta|e-?mail|mail) adres\\w*", "eposta"},
        {"numara", "\\btelefon numara\\w*", "telefon"},
        {"nerede", "\\bsipariş\\w* nerede\\b", "sipariş durumu"},
        {"nerede", "\\b(kargo|paket)\\w* nerede\\b", "\\1 takip"},
    });
    return list;
}

const QVector<Phrase> &englishPhrases()
{
    static const QVector<Phrase> list = phrases({
        {"back", "\\bsend (\\w+ ){0,2}back\\b", "return"},
        {"address", "\\b(e-?mail|mail) address\\b", "email"},
        {"number", "\\bphone number\\b", "phone"},
        {"where", "\\bwhere('s| is) my order\\b", "order status"},
        {"where", "\\bwhere('s| is) my (parcel|package)\\b", "track my \\2"},
    });
    return list;
}

} // namespace

QString TextAnalysis::rewritePhrases(const QString &normalised, const QString &language)
{
    const QVector<Phrase> *list = language == QLatin1String("tr")   ? &turkishPhrases()
                                  : language == QLatin1String("en") ? &englishPhrases()
                                                                    : nullptr;
    if (!list)
        return normalised;
    QString out = normalised;
    for (const Phrase &p : *list) {
        if (out.contains(p.trigger))
            out.replace(p.pattern, p.replacement);
    }
    return out;
}

QStringList TextAnalysis::contentWords(const QString &text, const QString &language)
{
    QStringList out;
    for (const QString &w : words(rewritePhrases(normalise(text, language), language))) {
        if (!isStopWord(asciiFold(w), language))
            out.append(w);
    }
    return out;
}

namespace {

// Words of one meaning in a shop's support, the first of each group its term. Written as people
// write them; their stems are taken when the table is first used.
const std::initializer_list<std::initializer_list<const char *>> kTurkishSynonyms = {
    {"ücretsiz", "bedava", "bedelsiz"},
    {"ücret", "bedel", "masraf", "fiyat"},
    {"kargo", "gönderi", "koli"},
    {"mağaza", "dükkan", "şube", "showroom"},
    {"adres", "konum"},
    {"eposta", "mail", "email", "e-posta"},
    {"havale", "eft"},
    {"değişim", "değiştirme", "değiştir"},
    {"fatura", "makbuz"},
    {"garanti", "garantili"},
    {"bayi", "bayilik"},
    {"toptan", "toplu"},
    {"indirim", "kupon", "promosyon"},
    {"kariyer", "özgeçmiş", "cv", "eleman", "ilan"},
    {"şikayet", "şikâyet"},
    {"bülten", "abonelik"},
    {"şifre", "parola"},
    {"üyelik", "hesap", "üye"},
    {"arıza", "arızalı", "bozuk", "bozuldu"},
    {"hasar", "hasarlı", "kırık", "çatlak", "ezik", "kırıldı"},
    {"yurtdışı",   "yurt dışı",   "uluslararası", "almanya",   "hollanda", "fransa",     "ingiltere",
     "belçika",    "avusturya",   "isviçre",      "italya",    "ispanya",  "yunanistan", "kıbrıs",
     "azerbaycan", "rusya",       "amerika",      "abd",       "kanada",   "irak",       "iran",
     "gürcistan",  "bulgaristan", "romanya",      "danimarka", "isveç",    "norveç",     "polonya"},
    {"telefon", "tel", "gsm"},
};
const std::initializer_list<std::initializer_list<const char *>> kEnglishSynonyms = {
    {"free", "complimentary"},
    {"cost", "fee", "price", "charge", "costs"},
    {"shipping", "delivery", "shipment", "postage", "deliver", "ship"},
    {"parcel", "package"},
    {"store", "shop", "showroom"},
    {"address", "location"},
    {"email", "mail", "e-mail"},
    {"exchange", "swap"},
    {"invoice", "receipt", "bill"},
    {"warranty", "guarantee", "covered"},
    {"reseller", "dealer", "retailer", "distributor", "stockist"},
    {"wholesale", "bulk"},
    {"discount", "coupon", "promo", "voucher"},
    {"career", "job", "jobs", "vacancy", "cv", "resume", "hiring"},
    {"complaint", "complain"},
    {"newsletter", "subscription", "unsubscribe"},
    {"password", "passcode"},
    {"account", "membership", "sign up", "register"},
    {"faulty", "broken", "defective"},
    {"damaged", "crushed", "cracked"},
    {"international", "abroad",  "overseas", "germany", "france",      "uk",         "england", "britain",
     "netherlands",   "holland", "belgium",  "austria", "switzerland", "italy",      "spain",   "greece",
     "cyprus",        "usa",     "america",  "canada",  "russia",      "azerbaijan", "georgia", "bulgaria",
     "romania",       "denmark", "sweden",   "norway",  "poland"},
    {"phone", "telephone", "call"},
    {"refund", "money back"},
};

QHash<QString, QString> synonymTable(const std::initializer_list<std::initializer_list<const char *>> &groups,
                                     const QString &language)
{
    QHash<QString, QString> table;
    for (const auto &group : groups) {
        QString head;
        for (const char *w : group) {
            const QString word = TextAnalysis::normalise(QString::fromUtf8(w), language);
            if (word.contains(QLatin1Char(' ')))
                continue; // a phrase: its words stay themselves
            const QString key = TextAnalysis::asciiFold(TextAnalysis::stem(word, language));
            if (head.isEmpty())
                head = key;
            else if (key != head && !table.contains(key))
                table.insert(key, head);
        }
    }
    return table;
}

} // namespace

QString TextAnalysis::canonicalTerm(const QString &term, const QString &language)
{
    static const QHash<QString, QString> turkish = synonymTable(kTurkishSynonyms, QStringLiteral("tr"));
    static const QHash<QString, QString> english = synonymTable(kEnglishSynonyms, QStringLiteral("en"));
    const QHash<QString, QString> &table = language == QLatin1String("tr")   ? turkish
                                           : language == QLatin1String("en") ? english
                                                                             : QHash<QString, QString>();
    return table.value(term, term);
}

QString TextAnalysis::termOf(const QString &word, const QString &language)
{
    return canonicalTerm(asciiFold(stem(word, language)), language);
}

QStringList TextAnalysis::terms(const QString &text, const QString &language)
{
    QStringList out;
    for (const QString &w : contentWords(text, language))
        out.append(termOf(w, language));
    return out;
}

TextAnalysis::LanguageGuess TextAnalysis::detectLanguage(const QString &text)
{
    LanguageGuess g;
    int latin = 0;
    int nonLatin = 0;
    for (QChar c : text) {
        if (!c.isLetter())
            continue;
        if (c.script() == QChar::Script_Latin)
            ++latin;
        else
            ++nonLatin;
        if (strongTurkishLetter(c))
            g.turkish += 3;
        else if (weakTurkishLetter(c))
            g.turkish += 1;
    }
    if (nonLatin > latin) {
        g.language = QStringLiteral("other");
        g.other = nonLatin;
        return g;
    }
    // Folded as Turkish: the stop words are folded, and a Turkish "I" is then "ı" → "i".
    for (const QString &w : words(normalise(text, QStringLiteral("tr")))) {
        const QString f = asciiFold(w);
        const bool tr = turkishStopWords().contains(f);
        const bool en = englishStopWords().contains(f);
        if (tr && !en)
            g.turkish += 2;
        if (en && !tr)
            g.english += 2;
        if (otherLanguageWords().contains(f) && !tr && !en)
            g.other += 2;
        // Turkish endings: -yor, -ler/-lar, -mi/-mı questions, -sınız, -dır, -ım.
        static const char *const endings[] = {"yor",   "yorum", "iyor", "ler", "lar", "miyim", "misiniz", "musunuz",
                                              "siniz", "sunuz", "dir",  "dur", "nin", "nun",   "mak",     "mek"};
        if (w.size() > 4 && !en) {
            for (const char *e : endings) {
                if (f.endsWith(QLatin1String(e))) {
                    g.turkish += 1;
                    break;
                }
            }
        }
        // English spellings Turkish has no use for: "th", "w", "q", "x", "-ing", "-tion".
        if (w.size() > 3 && !tr &&
            (f.contains(QLatin1String("th")) || f.contains(QLatin1Char('w')) || f.contains(QLatin1Char('q')) ||
             f.endsWith(QLatin1String("ing")) || f.endsWith(QLatin1String("tion"))))
            g.english += 1;
    }
    const double best = std::max({g.turkish, g.english, g.other});
    if (best <= 0)
        return g;
    if (g.other == best && g.other > g.turkish + 1 && g.other > g.english + 1)
        g.language = QStringLiteral("other");
    else if (g.turkish == best && g.turkish > g.english)
        g.language = QStringLiteral("tr");
    else if (g.english == best && g.english > g.turkish)
        g.language = QStringLiteral("en");
    return g;
}

bool TextAnalysis::asksForPerson(const QString &text)
{
    const QString f = QLatin1Char(' ') +
                      TextAnalysis::words(asciiFold(normalise(text, QStringLiteral("tr")))).join(QLatin1Char(' ')) +
                      QLatin1Char(' ');
    static const char *const phrases[] = {
        " temsilci",
        " canli destek",
        " yetkili",
        " musteri hizmetlerine bagla",
        " musteri temsilci",
        " insanla",
        " gercek bir kisi",
        " gercek kisi",
        " biriyle gorus",
        " birisiyle gorus",
        " operator",
        " bir kisiyle",
        " insan ile",
        " canli biri",
        " gorevli",
        " human",
        " real person",
        " an agent",
        " to agent",
        " representative",
        " talk to someone",
        " speak to someone",
        " speak to a person",
        " talk to a person",
        " live support",
        " live agent",
        " speak with someone",
        " talk with someone",
        " real human",
        " speak to a human",
    };
    for (const char *p : phrases) {
        if (f.contains(QLatin1String(p)))
            return true;
    }
    return false;
}

int TextAnalysis::editDistance(const QString &a, const QString &b, int limit)
{
    const int n = int(a.size());
    const int m = int(b.size());
    if (std::abs(n - m) > limit)
        return limit + 1;
    // Optimal string alignment: insertions, deletions, substitutions and swaps of neighbours.
    QVector<int> prev2(m + 1), prev(m + 1), cur(m + 1);
    for (int j = 0; j <= m; ++j)
        prev[j] = j;
    for (int i = 1; i <= n; ++i) {
        cur[0] = i;
        int rowBest = cur[0];
        for (int j = 1; j <= m; ++j) {
            const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int v = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                v = std::min(v, prev2[j - 2] + 1);
            cur[j] = v;
            rowBest = std::min(rowBest, v);
        }
        if (rowBest > limit)
            return limit + 1;
        std::swap(prev2, prev);
        std::swap(prev, cur);
    }
    return std::min(prev[m], limit + 1);
}
