#pragma once

#include "model/assistant/assistant.h"
#include "model/core/store.h"

#include <QDate>
#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QTimeZone>
#include <QVector>

#include <optional>

// A question the assistant was asked and what it decided (table ai_answers).
struct AiAnswer
{
    qint64 seq = 0;
    QString id; // aia_…
    QString question;
    QString language;
    QString decision; // answered, handoff
    QString reason;   // the hand-off's reason (empty when answered)
    double confidence = 0;
    QString entryId; // the best entry (empty when none)
    QJsonArray sources;
    QString answer;
    QString mode;    // chat (POST /ai/chat), auto_reply, draft (the inbox)
    QString channel; // api, or the conversation's channel
    QString conversationId;
    QString messageId;  // the inbox message the answer became
    QString suggestion; // accepted, dismissed (empty: open)
    QString createdAt;

    QJsonObject toJson() const;
};

// Where a recorded answer was given.
struct AiAnswerOrigin
{
    QString mode = QStringLiteral("chat");
    QString channel = QStringLiteral("api");
    QString conversationId;
    QString messageId;
};

// Feedback on an answer as a caller gives it.
struct AiFeedbackInput
{
    QString messageId;    // an ai_answers id (aia_…) or the inbox message an answer became
    QString feedbackType; // THUMBS, SCALE
    int rating = 0;       // THUMBS: 1 or -1; SCALE: 1 to 5
    QString reason;       // incorrect, incomplete, outdated, inappropriate, other (empty: none)
    QString comment;
};

// One user's feedback on one answer (table ai_feedback).
struct AiFeedback
{
    QString answerId;
    QString messageId; // as the feedback named the answer
    QString userId;
    QString feedbackType;
    int rating = 0;
    int positive = 0; // 1 positive, -1 negative, 0 neutral (SCALE 3)
    QString reason;
    QString comment;
    QString createdAt;
    QString updatedAt;

    QJsonObject toJson() const;
};

// The answer an inbox message became, and one user's feedback on it (the thumbs the Inbox shows).
struct AiMessageAnswer
{
    QString answerId;
    std::optional<AiFeedback> feedback; // the user's (nullopt: none given)
};

namespace AiFeedbackRules {
constexpr int kMaxComment = 2000;
QStringList types();   // THUMBS, SCALE
QStringList reasons(); // incorrect, incomplete, outdated, inappropriate, other
// Reads {messageId, feedbackType, rating, reason?, comment?}: BadRequest for a wrong type or value
// (every field at once; feedbackType in any case), then Unprocessable naming the required fields
// missing (messageId, feedbackType, rating).
AiFeedbackInput parse(const QJsonObject &body);
// THUMBS 1 → 1, -1 → -1; SCALE 4 and 5 → 1, 1 and 2 → -1, 3 → 0.
int positiveOf(const QString &feedbackType, int rating);
} // namespace AiFeedbackRules

// The figures of the assistant's work over a period (GET /ai/stats; the window's figures).
struct AiStats
{
    QDateTime from, to; // [from, to)
    int total = 0;
    int answered = 0;
    int handedOff = 0;
    double answerRate = 0;  // answered / total, in percent with one decimal (0 without answers)
    double handoffRate = 0; // handedOff / total, the same
    QMap<QString, int> handoffReasons;
    std::optional<double> averageConfidence; // of every answer of the period
    struct Feedback
    {
        int total = 0;
        int positive = 0;
        int negative = 0;
        double positiveRatio = 0;            // positive / total, 0 to 1
        std::optional<double> averageRating; // of SCALE feedback
    } feedback;
    struct EntryUse
    {
        QString entryId;
        QString question; // empty when the entry was deleted since
        int count = 0;
    };
    QVector<EntryUse> topEntries; // the entries answered with most, at most kTop
    struct EntryFeedback
    {
        QString entryId;
        QString question;
        int negative = 0;
        int positive = 0;
        int total = 0;
        double negativeRatio = 0;
    };
    QVector<EntryFeedback> worstEntries; // by negative feedback, then its ratio, at most kTop
    int openSuggestions = 0;
    struct Day
    {
        QDate date;
        int answered = 0;
        int handedOff = 0;
    };
    QVector<Day> daily; // every day of the period, in its time zone

    static constexpr int kTop = 10;
    static constexpr int kMaxDays = 366;
    QJsonObject toJson() const;
};

// The assistant's answers, their feedback and their figures. Every write tells the bus
// (Entity::AiAnswer) after its commit.
class AiAnswerRepository
{
public:
    explicit AiAnswerRepository(const Store &store);

    // Stores a question and the assistant's reply to it.
    AiAnswer record(const QString &question, const AssistantReply &reply, const AiAnswerOrigin &origin = {});
    std::optional<AiAnswer> find(const QString &id) const;
    // The answer named by its id, or the newest one that became the inbox message of that id;
    // NotFound otherwise.
    AiAnswer resolve(const QString &messageId) const;

    // Stores userId's feedback on the answer input.messageId names (NotFound when none); a second
    // feedback of the same user on the same answer replaces the first (replaced true).
    struct FeedbackResult
    {
        AiFeedback feedback;
        bool replaced = false;
    };
    FeedbackResult giveFeedback(const AiFeedbackInput &input, const QString &userId);
    // userId's feedback on the answer messageId names, as giveFeedback names it (an answer's id, or
    // the inbox message an answer became); nullopt when they gave none or no answer is named.
    std::optional<AiFeedback> feedbackOf(const QString &messageId, const QString &userId) const;
    // Of messageIds, those an answer became (the newest answer of each, as resolve() finds it), with
    // that answer and userId's feedback on it; a message no answer became is not in it.
    QHash<QString, AiMessageAnswer> messageAnswers(const QStringList &messageIds, const QString &userId) const;

    // The figures of the answers given in [from, to) (feedback counted with its answer), the days
    // in tz. openSuggestions is the caller's (KnowledgeSuggestions::count(): it needs the index).
    // BadRequest when to is not after from or the period is longer than AiStats::kMaxDays.
    AiStats stats(const QDateTime &from, const QDateTime &to, const QTimeZone &tz, int openSuggestions = 0) const;

private:
    Store m_store;
};
