#pragma once

#include "model/assistant/knowledgeindex.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

#include <optional>

// The assistant's thresholds (settings ai/answerThreshold and ai/marginThreshold). The defaults
// come from the evaluation set of tests/data/assistant (docs/architecture.md, "The assistant").
struct AssistantThresholds
{
    static constexpr double kDefaultAnswer = 0.3;
    static constexpr double kDefaultMargin = 0.02;
    double answer = kDefaultAnswer; // below: the assistant does not answer (low_confidence, missing_knowledge)
    double margin = kDefaultMargin; // the best's lead over the runner-up below it: ambiguous
};

// A turn of the conversation before the question (POST /ai/chat's history).
struct ChatTurn
{
    QString role; // user, assistant
    QString content;
};

struct AssistantQuestion
{
    QString message;
    QString language; // given; empty: detected
    QVector<ChatTurn> history;
};

// What the assistant makes of a question.
struct AssistantReply
{
    struct Source
    {
        QString entryId;
        QString question;
        double score = 0;
        double confidence = 0;
    };
    // Another language's entry that would answer, when this language's do not.
    struct OtherLanguage
    {
        QString language;
        QString entryId;
        double confidence = 0;
    };

    bool answered = false;
    QString answer;   // the entry's answer, or the fallback reply in the question's language
    QString entryId;  // the best entry (empty when none)
    QString language; // the language answered in
    bool languageDetected = false;
    QString handoffReason; // missing_knowledge, low_confidence, ambiguous, customer_request, unsupported_language
    double confidence = 0;
    double margin = 0;
    bool usedHistory = false; // the question was read with the customer's previous message
    QVector<Source> sources;
    std::optional<OtherLanguage> otherLanguage;
    KnowledgeIndex::Search search; // the candidates of the language answered in

    // answer, sources, confidence, language, handoff {reason} or null, and metadata.
    QJsonObject toJson() const;
    // The same with every candidate's scores and the thresholds (POST /ai/test-knowledge).
    QJsonObject toTestJson(const AssistantThresholds &thresholds) const;
};

// The pipeline of a question: its language (given or detected), retrieval in the knowledge index,
// the decision against the two thresholds, and the fallback reply. Reads the index only: the caller
// refreshes it first (KnowledgeIndex::refresh). Stores nothing.
class Assistant
{
public:
    Assistant(const KnowledgeIndex &index, AssistantThresholds thresholds = {});

    AssistantReply answer(const AssistantQuestion &question) const;

    // The short reply a customer gets when the assistant hands off, in their language (Turkish or
    // English; both for another language).
    static QString fallbackReply(const QString &reason, const QString &language);
    static QStringList handoffReasons();

private:
    void decide(AssistantReply &reply) const;

    const KnowledgeIndex &m_index;
    AssistantThresholds m_thresholds;
};
