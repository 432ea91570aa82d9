#pragma once

#include "model/assistant/knowledgeentry.h"

#include <QHash>
#include <QReadWriteLock>
#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <memory>

class KnowledgeRepository;

// The assistant's in-memory index of the knowledge base: an inverted index per language, scored
// with BM25F over an entry's question, tags and answer (field weights below), kept in step with
// the stored entries by their revisions (docs/architecture.md, "The assistant").
//
// One per process, shared by the server threads, the window and the delivery thread (thread safe:
// searches share a read lock, refresh() takes the write lock only when something changed).
// refresh() compares the stored revision with the one it holds (one small read) and applies only
// the entries written and removed since: an entry saved through another copy of Liaison on the same
// PostgreSQL database is found by the next question asked here.
class KnowledgeIndex
{
public:
    // The scoring's parameters: BM25F's k1 and b, the fields' weights, what a question's word the
    // index does not hold weighs (a share of the rarest term's IDF), the share of the confidence
    // that is the coverage of the question (the rest: of the entry's question), and the share of the
    // re-ranking that is the confidence (the rest: the BM25F score relative to the best). The
    // defaults were chosen on the evaluation set (docs/architecture.md, "The assistant").
    struct Tuning
    {
        double k1 = 1.2;
        double b = 0.75;
        double questionWeight = 3.0;
        double tagsWeight = 2.0;
        double answerWeight = 1.0;
        double unknownWordWeight = 0.8;
        double coverageShare = 0.75;
        double rerankConfidence = 0.3;
        double rerankTrigrams = 0.4;
        double confidenceTrigrams = 0.0; // the share of the confidence that is the trigrams' Dice
        double answerOnlyShare = 0.6;    // what a word found only in an entry's answer covers
    };

    struct Candidate
    {
        QString entryId;
        double score = 0;            // BM25F
        double coverage = 0;         // IDF-weighted share of the question's words the entry holds
        double questionCoverage = 0; // IDF-weighted share of the entry's question the words hold
        double confidence = 0;       // calibrated: Tuning::coverageShare
        double trigrams = 0;         // Dice of the letter trigrams of the question and the entry's question
        double rank = 0;             // what orders the candidates: Tuning::rerankConfidence, rerankTrigrams
        QStringList matched;         // the question's terms found in the entry
    };
    struct Search
    {
        QString language;
        QStringList terms;             // the question's terms, as looked up
        QStringList unknown;           // its words the knowledge base in that language does not hold
        QVector<Candidate> candidates; // best first
    };

    KnowledgeIndex();
    ~KnowledgeIndex();
    KnowledgeIndex(const KnowledgeIndex &) = delete;
    KnowledgeIndex &operator=(const KnowledgeIndex &) = delete;

    // Brings the index up to the stored knowledge base through repo (the calling thread's
    // connection). Cheap when nothing changed. Throws what the database throws.
    void refresh(const KnowledgeRepository &repo);

    // The candidates for a question in one language (at most limit), best first. The question's
    // words are read as the entries' were (TextAnalysis); a word the index does not hold is looked
    // up without accents, then as a near spelling (one letter missing, added, changed or two
    // swapped, for words of 4 letters or more) of a word it holds.
    Search search(const QString &text, const QString &language, int limit = 5) const;

    // A copy of an indexed entry (nullptr when not held).
    std::shared_ptr<const KnowledgeEntry> entry(const QString &id) const;
    int size() const;
    QStringList languages() const;
    qint64 revision() const { return m_revision.load(); }

    const Tuning &tuning() const { return m_tuning; }
    void setTuning(const Tuning &tuning) { m_tuning = tuning; } // before the index is shared

private:
    struct Language;
    Language &languageFor(const QString &language);
    void add(const KnowledgeEntry &e);
    void removeId(const QString &id);

    mutable QReadWriteLock m_lock;
    QHash<QString, std::shared_ptr<Language>> m_languages;
    QHash<QString, std::shared_ptr<const KnowledgeEntry>> m_entries;
    std::atomic<qint64> m_revision{-1};
    Tuning m_tuning;
};
