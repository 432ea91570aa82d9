#include "model/assistant/knowledgeindex.h"

#include "model/assistant/knowledgerepository.h"
#include "model/assistant/textanalysis.h"
#include "model/core/database.h"

#include <QReadLocker>
#include <QSet>
#include <QWriteLocker>

#include <algorithm>
#include <cmath>

namespace {

quint16 clampTf(int n)
{
    return quint16(std::min(n, 65535));
}

} // namespace

struct KnowledgeIndex::Language
{
    struct Posting
    {
        int doc;
        quint16 tfQuestion;
        quint16 tfTags;
        quint16 tfAnswer;
    };

    struct Term
    {
        QString key;
        QVector<Posting> postings;
    };

    struct Doc
    {
        QString id;
        int lenQuestion = 0;
        int lenTags = 0;
        int lenAnswer = 0;
        bool alive = false;
        QVector<int> terms;         // sorted, unique
        QVector<int> questionTerms; // sorted, unique
        QVector<quint32> trigrams;  // of the question's content words without accents, sorted, unique
    };

    QVector<Doc> docs;
    QHash<QString, int> docOf;
    QVector<Term> terms;
    QHash<QString, int> termOf;
    QSet<int> weak;                       // terms of question words (TextAnalysis::isWeakWord)
    QHash<QString, int> surface;          // a word as normalised -> its term
    QHash<QString, int> asciiSurface;     // the word without accents -> its term (the first seen)
    QVector<QString> asciiWords;          // every asciiSurface key, for the near spellings
    QHash<QString, QVector<int>> deletes; // an ASCII word with one letter left out -> asciiWords indexes
    int alive = 0;
    int dead = 0;
    double sumQuestion = 0;
    double sumTags = 0;
    double sumAnswer = 0;

    double idf(int term) const
    {
        const double df = terms.at(term).postings.size();
        return std::log(1.0 + (alive - df + 0.5) / (df + 0.5));
    }
    // The letter trigrams of words ("_ka", "kar", "arg", "rgo", "go_"), hashed, sorted, unique.
    static QVector<quint32> trigramsOf(const QStringList &words)
    {
        QVector<quint32> out;
        for (const QString &w : words) {
            const QString padded = QLatin1Char('_') + TextAnalysis::asciiFold(w) + QLatin1Char('_');
            for (qsizetype i = 0; i + 3 <= padded.size(); ++i)
                out.append(qHash(QStringView(padded).mid(i, 3)));
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    }
    static double dice(const QVector<quint32> &a, const QVector<quint32> &b)
    {
        if (a.isEmpty() || b.isEmpty())
            return 0;
        int common = 0;
        for (auto i = a.cbegin(), j = b.cbegin(); i != a.cend() && j != b.cend();) {
            if (*i < *j)
                ++i;
            else if (*j < *i)
                ++j;
            else {
                ++common;
                ++i;
                ++j;
            }
        }
        return 2.0 * common / (a.size() + b.size());
    }

    // The IDF a term counts with: a question word's lightly.
    double weight(int term) const { return weak.contains(term) ? kWeakWordShare * idf(term) : idf(term); }
    static constexpr double kWeakWordShare = 0.3;
    double maxIdf() const { return std::log(1.0 + (alive - 0.5) / 1.5); }

    int termFor(const QString &key)
    {
        auto it = termOf.constFind(key);
        if (it != termOf.constEnd())
            return it.value();
        terms.append(Term{key, {}});
        termOf.insert(key, int(terms.size()) - 1);
        return int(terms.size()) - 1;
    }

    void addSurface(const QString &word, int term)
    {
        if (!surface.contains(word))
            surface.insert(word, term);
        const QString ascii = TextAnalysis::asciiFold(word);
        if (asciiSurface.contains(ascii))
            return;
        asciiSurface.insert(ascii, term);
        asciiWords.append(ascii);
        if (ascii.size() >= 4) {
            const int index = int(asciiWords.size()) - 1;
            for (int i = 0; i < ascii.size(); ++i)
                deletes[QString(ascii).remove(i, 1)].append(index);
        }
    }

    // The term of a question's word: as written, without accents, stemmed, or a near spelling.
    int lookUp(const QString &word, const QString &language) const
    {
        auto live = [this](int term) { return term >= 0 && !terms.at(term).postings.isEmpty(); };
        int t = surface.value(word, -1);
        if (live(t))
            return t;
        const QString ascii = TextAnalysis::asciiFold(word);
        t = asciiSurface.value(ascii, -1);
        if (live(t))
            return t;
        t = termOf.value(TextAnalysis::termOf(word, language), -1);
        if (live(t))
            return t;
        if (ascii.size() < 4)
            return -1;
        // Near spellings: the query misses a letter (it is a deletion of a word), has one more (a
        // deletion of it is a word), or has one changed or two swapped (they share a deletion).
        QVector<int> near = deletes.value(ascii);
        for (int i = 0; i < ascii.size(); ++i) {
            const QString d = QString(ascii).remove(i, 1);
            if (const int w = asciiSurface.value(d, -1); live(w))
                return w;
            near += deletes.value(d);
        }
        int best = -1;
        qsizetype bestDf = 0;
        bool bestLonger = false;
        for (int index : near) {
            const QString &candidate = asciiWords.at(index);
            const int term = asciiSurface.value(candidate, -1);
            if (!live(term) || TextAnalysis::editDistance(ascii, candidate, 1) > 1)
                continue;
            // A letter left out is the commonest slip: a longer word goes first, then the more used.
            const qsizetype df = terms.at(term).postings.size();
            const bool longer = candidate.size() > ascii.size();
            if (best < 0 || (longer && !bestLonger) || (longer == bestLonger && df > bestDf)) {
                best = term;
                bestDf = df;
                bestLonger = longer;
            }
        }
        if (best >= 0)
            return best;
        // Turkish adds suffix to suffix: a word the stemmer did not take apart is read as the
        // longest term of 4 letters or more it begins with ("kargolanir" -> "kargo").
        if (language == QLatin1String("tr")) {
            for (qsizetype n = ascii.size() - 1; n >= 4; --n) {
                if (const int p = termOf.value(ascii.left(n), -1); live(p))
                    return p;
            }
        }
        return -1;
    }
};

KnowledgeIndex::KnowledgeIndex() = default;
KnowledgeIndex::~KnowledgeIndex() = default;

KnowledgeIndex::Language &KnowledgeIndex::languageFor(const QString &language)
{
    std::shared_ptr<Language> &l = m_languages[language];
    if (!l)
        l = std::make_shared<Language>();
    return *l;
}

void KnowledgeIndex::add(const KnowledgeEntry &e)
{
    Language &l = languageFor(e.language);
    Language::Doc doc;
    doc.id = e.id;
    doc.alive = true;
    QHash<int, std::array<int, 3>> tf;
    const QString tagText = e.tags.join(QLatin1Char(' '));
    doc.trigrams = Language::trigramsOf(TextAnalysis::contentWords(e.question, e.language));
    const QString *fields[3] = {&e.question, &tagText, &e.answer};
    int *lengths[3] = {&doc.lenQuestion, &doc.lenTags, &doc.lenAnswer};
    for (int f = 0; f < 3; ++f) {
        for (const QString &w : TextAnalysis::contentWords(*fields[f], e.language)) {
            const int term = l.termFor(TextAnalysis::termOf(w, e.language));
            l.addSurface(w, term);
            if (TextAnalysis::isWeakWord(TextAnalysis::asciiFold(w), e.language))
                l.weak.insert(term);
            tf[term][f] += 1;
            ++*lengths[f];
            if (f == 0)
                doc.questionTerms.append(term);
        }
    }
    const int index = int(l.docs.size());
    for (auto it = tf.cbegin(); it != tf.cend(); ++it) {
        l.terms[it.key()].postings.append(
            Language::Posting{index, clampTf(it.value()[0]), clampTf(it.value()[1]), clampTf(it.value()[2])});
        doc.terms.append(it.key());
    }
    std::sort(doc.terms.begin(), doc.terms.end());
    std::sort(doc.questionTerms.begin(), doc.questionTerms.end());
    doc.questionTerms.erase(std::unique(doc.questionTerms.begin(), doc.questionTerms.end()), doc.questionTerms.end());
    l.sumQuestion += doc.lenQuestion;
    l.sumTags += doc.lenTags;
    l.sumAnswer += doc.lenAnswer;
    ++l.alive;
    l.docOf.insert(e.id, index);
    l.docs.append(std::move(doc));
    m_entries.insert(e.id, std::make_shared<const KnowledgeEntry>(e));
}

void KnowledgeIndex::removeId(const QString &id)
{
    const std::shared_ptr<const KnowledgeEntry> e = m_entries.take(id);
    if (!e)
        return;
    Language &l = languageFor(e->language);
    const int index = l.docOf.take(id);
    Language::Doc &doc = l.docs[index];
    for (int term : doc.terms) {
        QVector<Language::Posting> &p = l.terms[term].postings;
        p.erase(std::remove_if(p.begin(), p.end(), [index](const Language::Posting &x) { return x.doc == index; }),
                p.end());
    }
    l.sumQuestion -= doc.lenQuestion;
    l.sumTags -= doc.lenTags;
    l.sumAnswer -= doc.lenAnswer;
    --l.alive;
    ++l.dead;
    doc = Language::Doc();
}

void KnowledgeIndex::refresh(const KnowledgeRepository &repo)
{
    if (repo.revision() == m_revision.load())
        return;
    QWriteLocker lock(&m_lock);
    const ReadTransaction snapshot; // the revision and the rows it covers agree
    const qint64 stored = repo.revision();
    const qint64 held = m_revision.load();
    if (stored == held)
        return;
    const bool full = held < 0;
    if (full) {
        m_languages.clear();
        m_entries.clear();
    }
    for (const QString &id : repo.removedSince(full ? stored : held))
        removeId(id);
    const QVector<KnowledgeEntry> changed = repo.changedSince(full ? -1 : held);
    for (const KnowledgeEntry &e : changed) {
        removeId(e.id);
        add(e);
    }
    // Entries removed leave holes: past as many holes as entries, the index is built again.
    bool compact = false;
    for (const std::shared_ptr<Language> &l : std::as_const(m_languages))
        compact = compact || (l->dead > 1000 && l->dead > l->alive);
    if (compact) {
        const QHash<QString, std::shared_ptr<const KnowledgeEntry>> entries = m_entries;
        m_languages.clear();
        m_entries.clear();
        for (const std::shared_ptr<const KnowledgeEntry> &e : entries)
            add(*e);
    }
    m_revision = stored;
}

KnowledgeIndex::Search KnowledgeIndex::search(const QString &text, const QString &language, int limit) const
{
    Search s;
    s.language = language;
    QReadLocker lock(&m_lock);
    const auto found = m_languages.constFind(language);
    const QStringList words = TextAnalysis::contentWords(text, language);
    if (found == m_languages.constEnd() || found.value()->alive == 0) {
        s.unknown = words;
        return s;
    }
    const Language &l = *found.value();
    // The question's terms (each once) and the weight of its words the index does not hold.
    QVector<int> queryTerms;
    double unknownWeight = 0;
    for (const QString &w : words) {
        const bool number = std::all_of(w.cbegin(), w.cend(), [](QChar c) { return c.isDigit(); });
        const int t = l.lookUp(w, language);
        if (t < 0) {
            // A question word the entries happen not to use ("ne kadar") says nothing of the topic.
            if (!number && !TextAnalysis::isWeakWord(TextAnalysis::asciiFold(w), language)) {
                s.unknown.append(w);
                unknownWeight += m_tuning.unknownWordWeight * l.maxIdf();
            }
            continue;
        }
        if (!queryTerms.contains(t)) {
            queryTerms.append(t);
            s.terms.append(l.terms.at(t).key);
        }
    }
    if (queryTerms.isEmpty())
        return s;

    const double n = std::max(1, l.alive);
    const double avgQuestion = std::max(1.0, l.sumQuestion / n);
    const double avgTags = std::max(1.0, l.sumTags / n);
    const double avgAnswer = std::max(1.0, l.sumAnswer / n);
    const Tuning &t_ = m_tuning;
    QVector<double> scores(l.docs.size(), 0.0);
    QVector<int> touched;
    double queryWeight = unknownWeight;
    for (int t : queryTerms) {
        const double idf = l.weight(t);
        queryWeight += idf;
        for (const Language::Posting &p : l.terms.at(t).postings) {
            const Language::Doc &d = l.docs.at(p.doc);
            const double tf = t_.questionWeight * p.tfQuestion / (1 - t_.b + t_.b * d.lenQuestion / avgQuestion) +
                              t_.tagsWeight * p.tfTags / (1 - t_.b + t_.b * d.lenTags / avgTags) +
                              t_.answerWeight * p.tfAnswer / (1 - t_.b + t_.b * d.lenAnswer / avgAnswer);
            if (scores[p.doc] == 0)
                touched.append(p.doc);
            scores[p.doc] += idf * tf * (t_.k1 + 1) / (t_.k1 + tf);
        }
    }
    // The best by BM25F, then re-ranked by the calibrated confidence among the closest.
    const int keep = std::min<int>(int(touched.size()), std::max(limit, 10));
    std::partial_sort(touched.begin(), touched.begin() + keep, touched.end(),
                      [&scores](int a, int b) { return scores[a] > scores[b]; });
    touched.resize(keep);
    const double top = touched.isEmpty() ? 0 : scores[touched.first()];
    for (int index : std::as_const(touched)) {
        const Language::Doc &d = l.docs.at(index);
        Candidate c;
        c.entryId = d.id;
        c.score = scores[index];
        double covered = 0;
        double questionHeld = 0;
        double questionAll = 0;
        for (int t : queryTerms) {
            if (std::binary_search(d.terms.cbegin(), d.terms.cend(), t)) {
                // A word the entry has only in its answer says less than one in its question or tags.
                const auto &postings = l.terms.at(t).postings;
                const auto p = std::find_if(postings.cbegin(), postings.cend(),
                                            [index](const Language::Posting &x) { return x.doc == index; });
                const bool answerOnly = p != postings.cend() && p->tfQuestion == 0 && p->tfTags == 0;
                covered += l.weight(t) * (answerOnly ? t_.answerOnlyShare : 1.0);
                c.matched.append(l.terms.at(t).key);
            }
        }
        for (int t : d.questionTerms) {
            questionAll += l.weight(t);
            if (queryTerms.contains(t))
                questionHeld += l.weight(t);
        }
        c.coverage = queryWeight > 0 ? covered / queryWeight : 0;
        c.questionCoverage = questionAll > 0 ? questionHeld / questionAll : 0;
        c.confidence = t_.coverageShare * c.coverage + (1 - t_.coverageShare) * c.questionCoverage;
        // Re-ranking: the score relative to the best, and the confidence, count alike.
        s.candidates.append(c);
    }
    const double w = t_.rerankConfidence;
    const QVector<quint32> queryTrigrams = Language::trigramsOf(words);
    for (Candidate &c : s.candidates) {
        c.trigrams = Language::dice(queryTrigrams, l.docs.at(l.docOf.value(c.entryId)).trigrams);
        c.confidence = (1 - t_.confidenceTrigrams) * c.confidence + t_.confidenceTrigrams * c.trigrams;
        c.rank = (1 - w) * c.score / top + w * c.confidence + t_.rerankTrigrams * c.trigrams;
    }
    std::stable_sort(s.candidates.begin(), s.candidates.end(),
                     [](const Candidate &a, const Candidate &b) { return a.rank > b.rank; });
    if (s.candidates.size() > limit)
        s.candidates.resize(limit);
    return s;
}

std::shared_ptr<const KnowledgeEntry> KnowledgeIndex::entry(const QString &id) const
{
    QReadLocker lock(&m_lock);
    return m_entries.value(id);
}

int KnowledgeIndex::size() const
{
    QReadLocker lock(&m_lock);
    return int(m_entries.size());
}

QStringList KnowledgeIndex::languages() const
{
    QReadLocker lock(&m_lock);
    QStringList out;
    for (auto it = m_languages.cbegin(); it != m_languages.cend(); ++it) {
        if (it.value()->alive > 0)
            out.append(it.key());
    }
    out.sort();
    return out;
}
