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
    // BM25F: k1 and per-field weight and length normalisation.
    static constexpr double kK1 = 1.2;
    static constexpr double kQuestionWeight = 3.0;
    static constexpr double kTagsWeight = 2.0;
    static constexpr double kAnswerWeight = 1.0;
    static constexpr double kB = 0.75;

    struct Candidate
    {
        QString entryId;
        double score = 0;            // BM25F
        double coverage = 0;         // IDF-weighted share of the question's words the entry holds
        double questionCoverage = 0; // IDF-weighted share of the entry's question the words hold
        double confidence = 0;       // calibrated: see confidenceOf()
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
    // Forgets everything: the next refresh() reads every entry.
    void clear();

    // The candidates for a question in one language (at most limit), best first. The question's
    // words are read as the entries' were (TextAnalysis); a word the index does not hold is looked
    // up without accents, then as a near spelling (one letter missing, added, changed or two
    // swapped, for words of 4 letters or more) of a word it holds.
    Search search(const QString &text, const QString &language, int limit = 5) const;

    // A copy of an indexed entry (nullptr when not held).
    std::shared_ptr<const KnowledgeEntry> entry(const QString &id) const;
    int size() const;
    int size(const QString &language) const;
    QStringList languages() const;
    qint64 revision() const { return m_revision.load(); }
    // How long the last refresh that read every entry took, in milliseconds.
    double lastFullRebuildMs() const { return m_fullRebuildMs.load(); }

    // The calibrated confidence: coverage weighted 3 to 1 with the question coverage.
    static double confidenceOf(double coverage, double questionCoverage);

private:
    struct Language;
    Language &languageFor(const QString &language);
    void add(const KnowledgeEntry &e);
    void removeId(const QString &id);

    mutable QReadWriteLock m_lock;
    QHash<QString, std::shared_ptr<Language>> m_languages;
    QHash<QString, std::shared_ptr<const KnowledgeEntry>> m_entries;
    std::atomic<qint64> m_revision{-1};
    std::atomic<double> m_fullRebuildMs{0};
};
