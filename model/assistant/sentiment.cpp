#include "model/assistant/sentiment.h"

#include "model/core/textfold.h"

#include <QHash>
#include <QList>

#include <algorithm>
#include <cstring>

// Names inside Sentiment: the libraries are unity builds, and another source's helpers of the same
// name would otherwise meet these.
namespace Sentiment {
namespace {

// How an entry of the lexicon meets a word.
enum class Form
{
    Word,   // the whole word
    Prefix, // a stem: the word starts with it ("memnun" in "memnunum", "memnuniyet")
    Verb,   // a Turkish verb root followed by a verb ending, or by the negative suffix (negated)
};

enum Flag : unsigned
{
    Thanks = 1,  // gratitude: never negated ("no thanks" is 0), and counted in a question too
    Still = 2,   // weight 0, a complaint only after "still", "hâlâ", "yine" ("still waiting"); negated, nothing
                 // ("beklemediğim kadar iyi" is better than expected)
    Subject = 4, // English "like": only after I/we/they/you, a negation or an intensifier
    Light = 8,   // a Turkish light verb (ol-, kal-, et-): negated, it negates the word before it
    Alone = 16,  // a light verb that, negated with no word before it, is a complaint itself ("gelmedi")
};

// weight: -2..2; 0 is a neutral word whose negation is a complaint ("arrived", "gel-", "cevap":
// "not arrived", "gelmedi", "cevap yok"). next: the word after must start with one of these
// ('|'-separated) for the entry to count ("tavsiye ederim", "sağ olun"); with a leading '!', must
// not.
struct Entry
{
    const char *form;
    Form match;
    int weight;
    unsigned flags = 0;
    const char *next = nullptr;
};

// The lexicon, folded (ASCII: "begen" is beğen-, "kotu" kötü, "gec" geç). What is left out is as
// much a decision as what is in: return, refund, cancel, exchange, iade, iptal, değişim are
// requests, not a tone; "maalesef", "ne yazık ki", "unfortunately" and "acil" come with the
// complaint's own words when there is one; "sinir" is also "sınır" (a limit) folded, "kız-" also a
// girl.
const Entry kLexicon[] = {
    // English, positive
    {"excellent", Form::Word, 2},
    {"amazing", Form::Word, 2},
    {"awesome", Form::Word, 2},
    {"fantastic", Form::Word, 2},
    {"perfect", Form::Word, 2},
    {"perfectly", Form::Word, 2},
    {"wonderful", Form::Word, 2},
    {"love", Form::Word, 2},
    {"loved", Form::Word, 2},
    {"loving", Form::Word, 2},
    {"outstanding", Form::Word, 2},
    {"superb", Form::Word, 2},
    {"brilliant", Form::Word, 2},
    {"best", Form::Word, 2},
    {"delighted", Form::Word, 2},
    {"good", Form::Word, 1},
    {"great", Form::Word, 1},
    {"nice", Form::Word, 1},
    {"happy", Form::Word, 1},
    {"glad", Form::Word, 1},
    {"pleased", Form::Word, 1},
    {"satisfied", Form::Word, 1},
    {"helpful", Form::Word, 1},
    {"recommend", Form::Word, 1},
    {"recommended", Form::Word, 1},
    {"easy", Form::Word, 1},
    {"fixed", Form::Word, 1},
    {"resolved", Form::Word, 1},
    {"solved", Form::Word, 1},
    {"smooth", Form::Word, 1},
    {"friendly", Form::Word, 1},
    {"like", Form::Word, 1, Subject},
    {"liked", Form::Word, 1},
    {"enjoy", Form::Word, 1},
    {"enjoyed", Form::Word, 1},
    {"better", Form::Word, 1},
    {"beautiful", Form::Word, 1},
    {"impressed", Form::Word, 1},
    {"reliable", Form::Word, 1},
    {"super", Form::Word, 1}, // also Turkish "süper"
    {"thanks", Form::Word, 1, Thanks},
    {"thank", Form::Word, 1, Thanks},
    {"thx", Form::Word, 1, Thanks},
    {"thankyou", Form::Word, 1, Thanks},
    {"appreciated", Form::Word, 1, Thanks},
    // English, negative
    {"terrible", Form::Word, -2},
    {"awful", Form::Word, -2},
    {"horrible", Form::Word, -2},
    {"worst", Form::Word, -2},
    {"hate", Form::Word, -2},
    {"hated", Form::Word, -2},
    {"disgusting", Form::Word, -2},
    {"useless", Form::Word, -2},
    {"unacceptable", Form::Word, -2},
    {"ridiculous", Form::Word, -2},
    {"pathetic", Form::Word, -2},
    {"scam", Form::Word, -2},
    {"furious", Form::Word, -2},
    {"disaster", Form::Word, -2},
    {"garbage", Form::Word, -2},
    {"rubbish", Form::Word, -2},
    {"nightmare", Form::Word, -2},
    {"sucks", Form::Word, -2},
    {"bad", Form::Word, -1},
    {"poor", Form::Word, -1},
    {"broken", Form::Word, -1},
    {"damaged", Form::Word, -1},
    {"disappointed", Form::Word, -1},
    {"disappointing", Form::Word, -1},
    {"disappointment", Form::Word, -1},
    {"angry", Form::Word, -1},
    {"annoyed", Form::Word, -1},
    {"upset", Form::Word, -1},
    {"frustrated", Form::Word, -1},
    {"frustrating", Form::Word, -1},
    {"slow", Form::Word, -1},
    {"late", Form::Word, -1},
    {"delayed", Form::Word, -1},
    {"delay", Form::Word, -1},
    {"wrong", Form::Word, -1},
    {"issue", Form::Word, -1},
    {"issues", Form::Word, -1},
    {"complaint", Form::Word, -1},
    {"complain", Form::Word, -1},
    {"unhappy", Form::Word, -1},
    {"dissatisfied", Form::Word, -1},
    {"missing", Form::Word, -1},
    {"lost", Form::Word, -1},
    {"defective", Form::Word, -1},
    {"faulty", Form::Word, -1},
    {"rude", Form::Word, -1},
    {"worse", Form::Word, -1},
    {"fail", Form::Word, -1},
    {"failed", Form::Word, -1},
    {"fails", Form::Word, -1},
    {"failing", Form::Word, -1},
    {"failure", Form::Word, -1},
    {"crash", Form::Word, -1},
    {"crashed", Form::Word, -1},
    {"crashes", Form::Word, -1},
    {"crashing", Form::Word, -1},
    {"stuck", Form::Word, -1},
    {"confusing", Form::Word, -1},
    {"expensive", Form::Word, -1},
    {"overpriced", Form::Word, -1},
    {"waste", Form::Word, -1},
    {"error", Form::Word, -1},
    {"errors", Form::Word, -1},
    {"bug", Form::Word, -1},
    {"unreliable", Form::Word, -1},
    {"incorrect", Form::Word, -1},
    {"mess", Form::Word, -1},
    // English, neutral: a complaint when negated ("hasn't arrived", "no answer", "never again")
    {"work", Form::Word, 0},
    {"works", Form::Word, 0},
    {"working", Form::Word, 0},
    {"worked", Form::Word, 0},
    {"arrive", Form::Word, 0},
    {"arrived", Form::Word, 0},
    {"arrives", Form::Word, 0},
    {"arriving", Form::Word, 0},
    {"come", Form::Word, 0},
    {"came", Form::Word, 0},
    {"receive", Form::Word, 0},
    {"received", Form::Word, 0},
    {"deliver", Form::Word, 0},
    {"delivered", Form::Word, 0},
    {"ship", Form::Word, 0},
    {"shipped", Form::Word, 0},
    {"respond", Form::Word, 0},
    {"responded", Form::Word, 0},
    {"response", Form::Word, 0},
    {"reply", Form::Word, 0},
    {"replied", Form::Word, 0},
    {"answer", Form::Word, 0},
    {"answered", Form::Word, 0},
    {"update", Form::Word, 0},
    {"help", Form::Word, 0},
    {"helped", Form::Word, 0},
    {"heard", Form::Word, 0},
    {"called", Form::Word, 0},
    {"get", Form::Word, 0},
    {"got", Form::Word, 0},
    {"gotten", Form::Word, 0},
    {"load", Form::Word, 0},
    {"loads", Form::Word, 0},
    {"loading", Form::Word, 0},
    {"show", Form::Word, 0},
    {"showing", Form::Word, 0},
    {"again", Form::Word, 0},
    {"answering", Form::Word, 0},
    {"log", Form::Word, 0},
    {"login", Form::Word, 0},
    {"access", Form::Word, 0},
    {"connect", Form::Word, 0},
    {"pay", Form::Word, 0},
    {"reach", Form::Word, 0},
    {"waiting", Form::Word, 0, Still},

    // Turkish, positive
    {"harika", Form::Prefix, 2},
    {"mukemmel", Form::Prefix, 2},
    {"muhtesem", Form::Prefix, 2},
    {"efsane", Form::Prefix, 2},
    {"kusursuz", Form::Prefix, 2},
    {"enfes", Form::Prefix, 2},
    {"bayil", Form::Verb, 2}, // bayıldım
    {"iyi", Form::Word, 1},
    {"iyiydi", Form::Word, 1},
    {"iyiyim", Form::Word, 1},
    {"iyiyiz", Form::Word, 1},
    {"iyisin", Form::Word, 1},
    {"iyisiniz", Form::Word, 1},
    {"iyiymis", Form::Word, 1},
    {"iyidir", Form::Word, 1},
    {"iyisi", Form::Word, 1},
    {"guzel", Form::Prefix, 1},
    {"memnun", Form::Prefix, 1}, // memnunum, memnuniyet
    {"mutlu", Form::Prefix, 1},
    {"basarili", Form::Prefix, 1},
    {"kaliteli", Form::Prefix, 1},
    {"hizli", Form::Prefix, 1},
    {"kolay", Form::Prefix, 1},
    {"sorunsuz", Form::Prefix, 1},
    {"hatasiz", Form::Prefix, 1},
    {"tatmin", Form::Prefix, 1},
    {"nazik", Form::Prefix, 1},
    {"ozenli", Form::Prefix, 1},
    {"saglam", Form::Word, 1}, // not a prefix: "sağlamak" is to provide
    {"saglamdi", Form::Word, 1},
    {"yardimci", Form::Prefix, 1}, // yardımcı oldunuz
    {"yardimsever", Form::Prefix, 1},
    {"faydali", Form::Prefix, 1},
    {"kullanisli", Form::Prefix, 1},
    {"guvenilir", Form::Prefix, 1},
    {"rahat", Form::Prefix, 1},
    {"tebrik", Form::Prefix, 1},
    {"bravo", Form::Word, 1},
    {"supersiniz", Form::Word, 1},
    {"hosuma", Form::Word, 1}, // hoşuma gitti
    {"hosumuza", Form::Word, 1},
    {"hosuna", Form::Word, 1},
    {"tavsiye", Form::Word, 1, 0, "ed|et"}, // tavsiye ederim; a request for advice is not praise
    {"begen", Form::Verb, 1},
    {"sev", Form::Verb, 1},
    {"sevin", Form::Verb, 1},
    {"coz", Form::Verb, 1},
    {"cozul", Form::Verb, 1},
    {"tesekkur", Form::Prefix, 1, Thanks},
    {"tsk", Form::Prefix, 1, Thanks},
    {"sagol", Form::Prefix, 1, Thanks},
    {"sag", Form::Word, 1, Thanks, "ol"},
    {"eyvallah", Form::Word, 1, Thanks},
    {"eline", Form::Word, 1, Thanks, "saglik"},
    {"elinize", Form::Word, 1, Thanks, "saglik"},
    {"ellerinize", Form::Word, 1, Thanks, "saglik"},
    // Turkish, negative
    {"rezalet", Form::Prefix, -2},
    {"rezil", Form::Prefix, -2},
    {"berbat", Form::Prefix, -2},
    {"felaket", Form::Prefix, -2},
    {"igrenc", Form::Prefix, -2},
    {"skandal", Form::Prefix, -2},
    {"dolandir", Form::Prefix, -2},
    {"sahtekar", Form::Prefix, -2},
    {"memnuniyetsiz", Form::Prefix, -2},
    {"kirikligi", Form::Prefix, -2}, // hayal kırıklığı
    {"bikt", Form::Prefix, -2},      // bıktım
    {"bikkin", Form::Prefix, -2},
    {"kotu", Form::Prefix, -1},
    {"fena", Form::Word, -1},
    {"fenaydi", Form::Word, -1},
    {"sikayet", Form::Prefix, -1},
    {"sorun", Form::Word, -1}, // not a prefix: "sorunuz" is also "your question"
    {"sorunu", Form::Word, -1},
    {"sorunum", Form::Word, -1},
    {"sorunumuz", Form::Word, -1},
    {"soruna", Form::Word, -1},
    {"sorundan", Form::Word, -1},
    {"sorunl", Form::Prefix, -1},  // sorunlar, sorunlu
    {"problem", Form::Prefix, -1}, // both languages
    {"hata", Form::Prefix, -1},
    {"ariza", Form::Prefix, -1},
    {"yavas", Form::Prefix, -1},
    {"gec", Form::Word, -1},
    {"gecikme", Form::Word, -1},
    {"gecik", Form::Verb, -1},
    {"eksik", Form::Prefix, -1},
    {"yanlis", Form::Prefix, -1},
    {"hasar", Form::Prefix, -1},
    {"kirik", Form::Prefix, -1},
    {"kiril", Form::Verb, -1},
    {"bozuk", Form::Prefix, -1},
    {"bozul", Form::Verb, -1},
    {"kayip", Form::Prefix, -1},
    {"kaybol", Form::Prefix, -1},
    {"mutsuz", Form::Prefix, -1},
    {"olumsuz", Form::Prefix, -1},
    {"uzgun", Form::Prefix, -1},
    {"uzul", Form::Verb, -1},
    {"sinirlen", Form::Verb, -1},
    {"kizgin", Form::Prefix, -1},
    {"kizdim", Form::Word, -1},
    {"pisman", Form::Prefix, -1},
    {"sacma", Form::Prefix, -1},
    {"ayip", Form::Word, -1},
    {"yeter", Form::Word, -1},
    {"yetersiz", Form::Prefix, -1},
    {"kalitesiz", Form::Prefix, -1},
    {"basarisiz", Form::Prefix, -1},
    {"rahatsiz", Form::Prefix, -1, 0, "!ett|etm|ediy|eder"}, // not "rahatsız ettiğim için" (sorry to bother)
    {"ilgisiz", Form::Prefix, -1},
    {"saygisiz", Form::Prefix, -1},
    {"faydasiz", Form::Prefix, -1},
    {"guvenilmez", Form::Prefix, -1},
    {"pahali", Form::Prefix, -1},
    {"magdur", Form::Prefix, -1},
    {"beklet", Form::Prefix, -1}, // bekletiyorsunuz
    // Turkish, neutral: a complaint when negated ("gelmedi", "çalışmıyor", "cevap yok")
    {"cevap", Form::Prefix, 0},
    {"cevab", Form::Prefix, 0},
    {"haber", Form::Word, 0},
    {"yardim", Form::Word, 0},
    {"donus", Form::Word, 0},
    {"calis", Form::Verb, 0},
    {"ulas", Form::Verb, 0},
    {"don", Form::Verb, 0},
    {"yap", Form::Verb, 0},
    {"yapil", Form::Verb, 0},
    {"ver", Form::Verb, 0},
    {"veril", Form::Verb, 0},
    {"acil", Form::Verb, 0},
    {"yuklen", Form::Verb, 0},
    {"gonder", Form::Verb, 0},
    {"gonderil", Form::Verb, 0},
    {"kargolan", Form::Verb, 0},
    {"gorun", Form::Verb, 0},
    {"ilgilen", Form::Verb, 0},
    {"al", Form::Verb, 0},
    {"edil", Form::Verb, 0},
    {"cevapla", Form::Verb, 0},
    {"ara", Form::Verb, 0},
    {"dinle", Form::Verb, 0},
    {"gir", Form::Verb, 0},
    {"cik", Form::Verb, 0},
    {"yat", Form::Verb, 0},
    {"yatiril", Form::Verb, 0},
    {"bekle", Form::Verb, 0, Still},
    {"bekli", Form::Verb, 0, Still}, // bekliyorum
    // Turkish light verbs
    {"ol", Form::Verb, 0, Light},
    {"kal", Form::Verb, 0, Light},
    {"et", Form::Verb, 0, Light},
    {"ed", Form::Verb, 0, Light},          // edemedim
    {"bul", Form::Verb, 0, Light | Alone}, // bulamadım
    {"yasa", Form::Verb, 0, Light},        // "hiç sorun yaşamadım"
    {"gel", Form::Verb, 0, Light | Alone},
    {"git", Form::Verb, 0, Light | Alone},
};

// Emoji and emoticons, as the tokenizer gives them.
struct Symbol
{
    char32_t code;
    int weight;
};
const Symbol kSymbols[] = {
    {0x1F44D, 1},  {0x1F60D, 2},  {0x2764, 1},   {0x1F60A, 1},  {0x1F642, 1},  {0x1F600, 1},  {0x1F601, 1},
    {0x1F603, 1},  {0x1F604, 1},  {0x1F64F, 1},  {0x1F44E, -1}, {0x1F621, -2}, {0x1F620, -2}, {0x1F92C, -2},
    {0x1F61E, -1}, {0x1F622, -1}, {0x1F62D, -1}, {0x1F612, -1}, {0x1F615, -1}, {0x1F641, -1}, {0x2639, -1},
};
const char *const kSmile = ":)";
const char *const kFrown = ":(";

// Pairs whose first word is a greeting or a sign-off, not a judgement ("iyi çalışmalar", "best
// regards"), and "en geç" (at the latest), whose second word is not lateness.
struct Pair
{
    const char *first;
    const char *second;
};
const Pair kGreetings[] = {
    {"iyi", "gunler"},    {"iyi", "aksamlar"},     {"iyi", "calismalar"}, {"iyi", "geceler"},  {"iyi", "sabahlar"},
    {"iyi", "bayramlar"}, {"iyi", "haftasonlari"}, {"iyi", "hafta"},      {"guzel", "gunler"}, {"kolay", "gelsin"},
    {"good", "morning"},  {"good", "afternoon"},   {"good", "evening"},   {"good", "day"},     {"good", "night"},
    {"nice", "day"},      {"great", "day"},        {"best", "regards"},   {"best", "wishes"},
};
const Pair kNotLate[] = {{"en", "gec"}};

const char *const kEnglishNegators[] = {"not",   "no",      "never",   "nothing",  "nobody", "none",   "neither",
                                        "nor",   "without", "cannot",  "cant",     "dont",   "didnt",  "doesnt",
                                        "isnt",  "wasnt",   "wont",    "arent",    "werent", "havent", "hasnt",
                                        "hadnt", "couldnt", "wouldnt", "shouldnt", "aint",   "hardly"};
// Negations that also intensify ("hiç beğenmedim", "asla tavsiye etmem", "never happy"): they
// double a negated word within three words after them.
const char *const kIntensifyingNegations[] = {"never", "hic", "hicbir", "asla"};
const char *const kIntensifiers[] = {
    "very",  "really",    "so",     "extremely", "totally", "completely", "absolutely", "incredibly",
    "truly", "highly",    "too",    "seriously", "utterly", "deeply",     "such",       "much",
    "cok",   "gercekten", "cidden", "gayet",     "asiri",   "fazlasiyla", "tamamen",    "kesinlikle",
    "en",    "inanilmaz", "acayip", "baya",      "bayagi",  "resmen",     "tam"};
// "Still" and its kin double a negative word later in the sentence, and make "waiting" a complaint.
const char *const kStill[] = {"still",    "hala",       "halen",  "yine",     "gunlerdir", "haftalardir",
                              "aylardir", "saatlerdir", "gundur", "haftadir", "aydir",     "saattir"};
// Turkish negation after the word: "iyi değil", "sorun yok".
const char *const kNegatingAfter[] = {"yok", "yoktu", "yokmus", "yoktur"};
// The Turkish question particle, written apart: "iyi mi", "memnun musunuz".
const char *const kQuestionParticles[] = {"mi",      "mu",      "misin", "musun", "miyim", "muyum", "miyiz", "muyuz",
                                          "misiniz", "musunuz", "midir", "mudur", "miydi", "muydu", "miymis"};
// A new clause: negation and intensity do not reach across it ("iyi ama yavaş").
const char *const kClauseWords[] = {"but", "however", "although", "though", "except",
                                    "ama", "fakat",   "ancak",    "lakin",  "ragmen"};
const char *const kSubjects[] = {"i", "we", "they", "you", "he", "she"};

// The Turkish negative suffix right after a verb root: -me/-ma in the tenses that keep it
// (past -medi, -memiş, aorist -mez/-mem, future -meyecek, participle -meyen, imperative -meyin,
// -meyiz) and -mi/-mı/-mu/-mü before -yor (folded: mi, mu). Not the verbal noun or the infinitive
// (-me, -mek, -meli, -mesi, -meye, -memiz), which only look alike.
const char *const kNegativeSuffixes[] = {"medi",  "madi",  "memis", "mamis",   "miyor",   "muyor",   "mez",
                                         "maz",   "mem",   "mam",   "meyecek", "mayacak", "meyeceg", "mayacag",
                                         "meyen", "mayan", "meyin", "mayin",   "meyiz",   "mayiz"};
const char *const kNotNegative[] = {"memiz", "mamiz"};
// What may follow a verb root in a form that is not negated: past, present, aorist, evidential,
// future, participles, converb, passive and reflexive, "can".
const char *const kVerbEndings[] = {"di", "du",  "ti",  "tu",   "iyor", "uyor", "yor",  "ir",    "ur",    "er",
                                    "ar", "mis", "mus", "ecek", "acak", "eceg", "acag", "yecek", "yacak", "en",
                                    "an", "ip",  "up",  "il",   "ul",   "in",   "un",   "ebil",  "abil"};

template<std::size_t N>
bool among(const QString &word, const char *const (&list)[N])
{
    return std::any_of(std::begin(list), std::end(list), [&](const char *w) { return word == QLatin1String(w); });
}

template<std::size_t N>
bool startsWithAny(QStringView rest, const char *const (&list)[N])
{
    return std::any_of(std::begin(list), std::end(list),
                       [&](const char *w) { return rest.startsWith(QLatin1String(w)); });
}

bool negativeSuffix(QStringView rest, bool potential = true)
{
    if (startsWithAny(rest, kNotNegative))
        return false;
    if (startsWithAny(rest, kNegativeSuffixes))
        return true;
    // The potential's negative: -eme/-ama ("beğenemedim", "çalışamıyor", "giremiyorum").
    return potential && rest.size() > 1 && (rest.front() == QLatin1Char('e') || rest.front() == QLatin1Char('a')) &&
           negativeSuffix(rest.mid(1), false);
}

// A verb root followed by the negative suffix, also after the passive (-il, -ul, -in, -un, -n after a
// vowel: "verilmedi", "çözülmedi", "aranmadı").
bool negatedVerb(QStringView root, QStringView rest)
{
    if (negativeSuffix(rest))
        return true;
    for (const char *passive : {"il", "ul", "in", "un"}) {
        if (rest.startsWith(QLatin1String(passive)) && negativeSuffix(rest.mid(2)))
            return true;
    }
    return QStringView(u"aeiou").contains(root.back()) && rest.startsWith(QLatin1Char('n')) &&
           negativeSuffix(rest.mid(1));
}

bool nextFits(const char *next, const QString &word)
{
    QLatin1String list(next);
    const bool without = list.startsWith(QLatin1Char('!'));
    if (without)
        list = list.mid(1);
    bool any = false;
    for (const QLatin1String p : QLatin1String(list).tokenize(QLatin1Char('|')))
        any = any || (!word.isEmpty() && word.startsWith(p));
    return any != without;
}

bool englishNegator(const QString &word)
{
    return among(word, kEnglishNegators) || word.endsWith(QLatin1String("n't"));
}

bool negatingAfter(const QString &word)
{
    return word.startsWith(QLatin1String("degil")) || among(word, kNegatingAfter);
}

// The lexicon's entry for a word (the longest form that fits) and whether the word carries the
// Turkish negative suffix. Neutral verbs and light verbs only count negated (or after "still").
struct Found
{
    const Entry *entry = nullptr;
    bool negated = false;
};

Found find(const QString &word)
{
    static const QHash<QString, const Entry *> words = [] {
        QHash<QString, const Entry *> h;
        for (const Entry &e : kLexicon) {
            if (e.match == Form::Word)
                h.insert(QLatin1String(e.form), &e);
        }
        return h;
    }();
    Found best;
    qsizetype bestLength = 0;
    if (const Entry *e = words.value(word)) {
        best.entry = e;
        bestLength = qsizetype(std::strlen(e->form));
    }
    for (const Entry &e : kLexicon) {
        if (e.match == Form::Word)
            continue;
        const auto length = qsizetype(std::strlen(e.form));
        if (length <= bestLength || !word.startsWith(QLatin1String(e.form)))
            continue;
        if (e.match == Form::Prefix) {
            best = {&e, false};
            bestLength = length;
            continue;
        }
        const QStringView rest = QStringView(word).mid(length);
        const bool negated = negatedVerb(QStringView(word).left(length), rest);
        const bool plain = !negated && startsWithAny(rest, kVerbEndings);
        if (negated || (plain && (e.weight != 0 || (e.flags & Still)))) {
            best = {&e, negated};
            bestLength = length;
        }
    }
    return best;
}

struct Token
{
    QString text;
    int clause = 0;
    int sentence = 0;
    int symbolWeight = 0; // an emoji or emoticon
};

struct Sentence
{
    bool question = false;
    bool emphasis = false; // ended by "!!" or more
};

bool apostrophe(char32_t c)
{
    return c == U'\'' || c == U'\u2019' || c == U'\u02BC';
}

int symbolWeight(char32_t c)
{
    for (const Symbol &s : kSymbols) {
        if (s.code == c)
            return s.weight;
    }
    return 0;
}

// Words (apostrophes kept inside them: "didn't"), emoji and emoticons, each with its clause and
// sentence. Punctuation ends clauses (, ; : and brackets) and sentences (. ! ? and new lines).
void tokenize(const QString &folded, QList<Token> *tokens, QList<Sentence> *sentences)
{
    const QList<uint> text = folded.toUcs4();
    int clause = 0;
    QString word;
    sentences->append(Sentence());
    auto flush = [&] {
        if (word.isEmpty())
            return;
        if (among(word, kClauseWords)) {
            ++clause;
        } else {
            if (among(word, kQuestionParticles))
                sentences->last().question = true;
            tokens->append(Token{word, clause, int(sentences->size() - 1)});
        }
        word.clear();
    };
    auto endSentence = [&] {
        ++clause;
        sentences->append(Sentence());
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const auto c = char32_t(text.at(i));
        if (QChar::isLetterOrNumber(c)) {
            word.append(QString::fromUcs4(&c, 1));
            continue;
        }
        if (apostrophe(c) && !word.isEmpty() && i + 1 < text.size() &&
            QChar::isLetterOrNumber(char32_t(text.at(i + 1)))) {
            word.append(QLatin1Char('\''));
            continue;
        }
        flush();
        if (const int w = symbolWeight(c)) {
            tokens->append(Token{QString::fromUcs4(&c, 1), clause, int(sentences->size() - 1), w});
        } else if (c == U':' || c == U';') {
            qsizetype j = i + 1;
            if (j < text.size() && text.at(j) == U'-')
                ++j;
            const bool face = j < text.size() && (text.at(j) == U')' || text.at(j) == U'(' || text.at(j) == U'd') &&
                              (j + 1 >= text.size() || !QChar::isLetterOrNumber(char32_t(text.at(j + 1))));
            if (face) {
                const bool smile = text.at(j) != U'(';
                tokens->append(
                    Token{QLatin1String(smile ? kSmile : kFrown), clause, int(sentences->size() - 1), smile ? 1 : -1});
                i = j;
            } else {
                ++clause;
            }
        } else if (c == U'!' || c == U'?') {
            qsizetype run = 0;
            bool question = false;
            while (i < text.size() && (text.at(i) == U'!' || text.at(i) == U'?')) {
                question = question || text.at(i) == U'?';
                run += text.at(i) == U'!' ? 1 : 0;
                ++i;
            }
            --i;
            sentences->last().question = sentences->last().question || question;
            sentences->last().emphasis = sentences->last().emphasis || run >= 2;
            endSentence();
        } else if (c == U'.' || c == U'\n' || c == U'\u2026') {
            endSentence();
        } else if (c == U',' || c == U'(' || c == U')' || c == U'\u2013' || c == U'\u2014') {
            ++clause;
        }
    }
    flush();
}

// A token's lexicon entry, whether a negation may govern it, and how many do.
struct Slot
{
    Found found;
    bool cue = false; // a lexicon word a negation may govern (not a light verb)
    int negations = 0;
};

} // namespace

QString label(int score)
{
    return score > 0 ? QStringLiteral("positive") : score < 0 ? QStringLiteral("negative") : QStringLiteral("neutral");
}

Result analyse(const QString &text)
{
    QList<Token> tokens;
    QList<Sentence> sentences;
    tokenize(TextFold::fold(text), &tokens, &sentences);
    const qsizetype n = tokens.size();
    auto same = [&](qsizetype a, qsizetype b) { return tokens.at(a).clause == tokens.at(b).clause; };
    auto is = [&](qsizetype i, const char *w) { return i >= 0 && i < n && tokens.at(i).text == QLatin1String(w); };
    auto pairAt = [&](qsizetype i, const Pair &p) { return is(i, p.first) && is(i + 1, p.second) && same(i, i + 1); };

    QList<Slot> marks(n);
    for (qsizetype i = 0; i < n; ++i) {
        const Token &t = tokens.at(i);
        if (t.symbolWeight != 0) {
            marks[i].cue = true;
            continue;
        }
        // A word with an apostrophe is an English contraction or a Turkish proper noun and its
        // ending ("Hatay'a"): never a word of the lexicon.
        if (t.text.contains(QLatin1Char('\'')))
            continue;
        Found f = find(t.text);
        if (!f.entry)
            continue;
        const Entry &e = *f.entry;
        if (std::any_of(std::begin(kGreetings), std::end(kGreetings), [&](const Pair &p) { return pairAt(i, p); }) ||
            std::any_of(std::begin(kNotLate), std::end(kNotLate), [&](const Pair &p) { return pairAt(i - 1, p); }))
            continue;
        const QString next = i + 1 < n && same(i, i + 1) ? tokens.at(i + 1).text : QString();
        if (e.next && !nextFits(e.next, next))
            continue;
        // "-mem/-mam" is also the verbal noun with "my": "yapmam lazım" (I need to do), not "I don't".
        if (f.negated && (next.startsWith(QLatin1String("lazim")) || next.startsWith(QLatin1String("gerek")) ||
                          next == QLatin1String("icin"))) {
            f.negated = false;
            if (e.match == Form::Verb && e.weight == 0 && !(e.flags & Still))
                continue;
        }
        if (e.flags & Subject) {
            const bool ok = i > 0 && same(i - 1, i) &&
                            (among(tokens.at(i - 1).text, kSubjects) || englishNegator(tokens.at(i - 1).text) ||
                             among(tokens.at(i - 1).text, kIntensifiers));
            if (!ok)
                continue;
        }
        marks[i].found = f;
        marks[i].cue = !(e.flags & Light);
        if (f.negated && marks[i].cue)
            marks[i].negations = 1;
    }

    // Negated light verbs ("memnun kalmadım", "tavsiye etmem"): the word just before; with none, a
    // complaint of their own where the verb is one ("hâlâ gelmedi").
    for (qsizetype j = 0; j < n; ++j) {
        const Slot &s = marks.at(j);
        if (!s.found.entry || !(s.found.entry->flags & Light) || !s.found.negated)
            continue;
        bool governed = false;
        for (qsizetype k = j - 1; k >= j - 2 && k >= 0 && same(k, j); --k) {
            if (marks.at(k).cue) {
                ++marks[k].negations;
                governed = true;
                break;
            }
        }
        if (!governed && (s.found.entry->flags & Alone)) {
            marks[j].cue = true;
            marks[j].negations = 1;
        }
    }
    for (qsizetype j = 0; j < n; ++j) {
        const QString &w = tokens.at(j).text;
        if (englishNegator(w)) {
            // The first lexicon word within three after it: "not good", "don't think it's good".
            for (qsizetype k = j + 1; k <= j + 3 && k < n && same(j, k); ++k) {
                if (marks.at(k).cue) {
                    ++marks[k].negations;
                    break;
                }
            }
        } else if (negatingAfter(w)) {
            // "güzel değil mi?" asks; it does not deny.
            if (w.startsWith(QLatin1String("degil")) && j + 1 < n && among(tokens.at(j + 1).text, kQuestionParticles))
                continue;
            // The nearest lexicon word within three before it: "iyi değil", "hiç güzel bir şey yok".
            for (qsizetype k = j - 1; k >= j - 3 && k >= 0 && same(k, j); --k) {
                if (marks.at(k).cue) {
                    ++marks[k].negations;
                    break;
                }
            }
        }
    }

    Result result;
    for (qsizetype i = 0; i < n; ++i) {
        const Slot &s = marks.at(i);
        if (!s.cue)
            continue;
        const Token &t = tokens.at(i);
        const Entry *e = s.found.entry;
        const int weight = e ? e->weight : t.symbolWeight;
        const unsigned flags = e ? e->flags : 0u;
        const Sentence &sentence = sentences.at(t.sentence);
        bool still = false;
        for (qsizetype k = i - 1; k >= 0 && tokens.at(k).sentence == t.sentence; --k)
            still = still || among(tokens.at(k).text, kStill);

        int value = weight;
        const bool negated = s.negations % 2 == 1;
        if (flags & Thanks) {
            value = s.negations > 0 ? 0 : weight; // "no thanks": neither praise nor complaint
        } else if (flags & Still) {
            value = still && s.negations == 0 ? -1 : 0;
        } else if (negated) {
            value = weight > 0 ? -1 : 1; // flipped, and weakened: "not terrible" is only mildly good
            if (weight == 0)
                value = -1; // "not arrived", "gelmedi", "cevap yok"
        } else if (s.negations > 0) {
            value = weight > 0 ? 1 : weight < 0 ? -1 : 0; // twice negated: "beğenmedim değil"
        }
        if (value == 0)
            continue;

        // Doubled once, however many: "!!", "still" on a complaint, an intensifier before the word
        // ("çok iyi", "very slow"), and on a negated word only the negations that intensify ("hiç
        // beğenmedim", "never happy", "not good at all"): "not very good" is a mild complaint.
        bool intensified = sentence.emphasis || (value < 0 && still);
        if (negated) {
            for (qsizetype k = i - 1; k >= i - 3 && k >= 0 && same(k, i); --k)
                intensified = intensified || among(tokens.at(k).text, kIntensifyingNegations);
            for (qsizetype k = i + 2; k <= i + 4 && k < n && same(k, i); ++k)
                intensified = intensified || (is(k, "all") && is(k - 1, "at"));
        } else if (s.negations == 0) {
            for (qsizetype k = i - 1; k >= i - 2 && k >= 0 && same(k, i); --k)
                intensified = intensified || among(tokens.at(k).text, kIntensifiers);
        }
        if (intensified)
            value *= 2;
        // Asking whether something is good is not praise ("iyi mi?", "is it good?"); a complaint
        // asked ("why hasn't it arrived?") is still one, and thanks are thanks.
        if (sentence.question && value > 0 && !(flags & Thanks))
            continue;
        result.score += value;
        result.cues.append({t.text, value});
    }
    result.label = label(result.score);
    return result;
}

} // namespace Sentiment
