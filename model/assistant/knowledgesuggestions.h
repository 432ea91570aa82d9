#pragma once

#include "model/assistant/assistant.h"
#include "model/assistant/knowledgeentry.h"
#include "model/core/store.h"

#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QStringList>
#include <QVector>

class KnowledgeIndex;

// A group of questions the assistant could not answer, asked in other words: what the knowledge
// base could learn next.
struct KnowledgeSuggestion
{
    QString id; // sug_ + the id of its oldest question (stable while the group stands)
    QString language;
    QString question;           // the most frequent wording (normalised), the most recent of a tie
    QStringList examples;       // up to kMaxExamples distinct wordings, most frequent then most recent first
    int count = 0;              // questions in the group
    QString firstSeen;          // its oldest question
    QString lastSeen;           // its newest question
    QMap<QString, int> reasons; // questions per hand-off reason
    QStringList answerIds;      // its questions (ai_answers ids), for accept and dismiss
    QSet<QString> terms;        // of its representative question

    QJsonObject toJson() const;
};

// The suggestions of the knowledge base (GET /ai/suggestions; the window's list): the questions
// the assistant handed off for want of knowledge (reasons missing_knowledge, low_confidence,
// ambiguous) and that nobody accepted or dismissed yet, grouped by their words:
//
// - each question is read into its set of terms (TextAnalysis::terms in its language); a question
//   with none (greetings alone) is left out;
// - the questions, oldest first, are grouped greedily per language: a question joins the group
//   whose first question's term set is nearest by Jaccard similarity (shared terms over all terms),
//   when that is at least kJoinSimilarity, else starts a group; the groups are found through an
//   inverted index term → groups, so a question is compared with the groups sharing a term only;
// - a group whose representative question the knowledge base now answers (Assistant decides
//   answered) drops out, and so does one whose representative's or first question's terms are at
//   least kJoinSimilarity similar to a dismissed suggestion's;
// - the rest are sorted by their number of questions, then by their last question, newest first.
//
// At most kMaxQuestions open questions are read (the newest).
class KnowledgeSuggestions
{
public:
    static constexpr double kJoinSimilarity = 0.5;
    static constexpr int kMaxQuestions = 10000;
    static constexpr int kMaxExamples = 5;

    // index: the process's knowledge index (brought up to date here); thresholds: the assistant's.
    KnowledgeSuggestions(const Store &store, KnowledgeIndex &index, AssistantThresholds thresholds = {});

    QVector<KnowledgeSuggestion> list() const;
    int count() const { return int(list().size()); }
    // NotFound for an id that names no open suggestion.
    KnowledgeSuggestion get(const QString &id) const;
    // Makes the knowledge entry of a suggestion: changes as given (the answer required; the question
    // defaults to the suggestion's representative question, the language to its language), and
    // marks its questions accepted, in one transaction. NotFound for an unknown id; the entry's
    // refusals otherwise.
    KnowledgeEntry accept(const QString &id, KnowledgeChanges changes, const QString &actor = {});
    // Marks its questions dismissed and keeps its representative's terms (table ai_dismissed), so
    // that the same question asked again does not bring it back. NotFound for an unknown id.
    KnowledgeSuggestion dismiss(const QString &id, const QString &actor = {});

    static double jaccard(const QSet<QString> &a, const QSet<QString> &b);

private:
    void mark(const QStringList &answerIds, const QString &state) const;

    Store m_store;
    KnowledgeIndex &m_index;
    AssistantThresholds m_thresholds;
};
