#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

// Who wrote a message. Incoming: the contact (type "contact"). Outgoing: an agent (a user), an API
// key ("api"), the AI ("ai") or the system.
struct MessageSender
{
    QString type; // contact, agent, api, ai, system
    QString id;
    QString name;
};

// The delivery state of a message and when each step was reached (ISO UTC, empty when not yet).
struct MessageDelivery
{
    QString status = QStringLiteral("pending"); // pending, sent, delivered, read, failed
    QString sentAt;
    QString deliveredAt;
    QString readAt;
    QString failedAt;
    QString failedReason;
};

struct Message
{
    qint64 seq = 0;
    QString id;
    QString conversationId;
    QString contactId;
    QString channel;
    QString direction; // incoming, outgoing
    QString type;      // text, image, video, document, audio, location, template
    QString text;
    QString mediaUrl;
    QString caption;
    QString filename;
    QJsonObject payload; // location {latitude, longitude, name, address}; template {templateName, …}
    MessageDelivery delivery;
    QString providerId; // the channel's own id of the message (wamid, Telegram message_id, …)
    MessageSender sender;
    int sentimentScore = 0; // incoming only: the lexicon score of the text
    int sendPriority = 0;   // outgoing on a provider channel: 0 agent/API send, 1 bulk (sent after)
    QString createdAt;

    QJsonObject toJson() const;
    // The status query result: id, status, sentAt, deliveredAt, readAt (null when not reached), failedReason.
    QJsonObject statusJson() const;
};

// What a caller asks to send or record; checked by MessageRules::parseContent().
struct MessageContent
{
    QString type = QStringLiteral("text");
    QString text;
    QString mediaUrl;
    QString caption;
    QString filename;
    QJsonObject payload;
};

namespace MessageRules {
QStringList directions();
QStringList types();
QStringList statuses();

// The result of a status report on a message: the new delivery state, and the statuses newly
// reached in order (empty: the report was late or repeated and changes nothing).
struct Advance
{
    MessageDelivery delivery;
    QStringList reached;
};
// Status only moves forward: pending -> sent -> delivered -> read, and any state but failed ->
// failed (failed is final). A report that skips steps fills them with the same time (a read
// before delivered sets deliveredAt and readAt) and reaches each skipped status too. A report of a
// status already reached or passed changes nothing. Unknown statuses change nothing.
Advance advance(const MessageDelivery &current, const QString &status, const QString &at,
                const QString &failedReason = {});

// Reads {type, text | content, mediaUrl, caption, filename, latitude, longitude, name, address}.
// allowedTypes: the types this operation sends. Throws DomainError BadRequest (wrong JSON type, unknown
// type, text too long, bad URL or coordinates) or Unprocessable (what the type needs is missing).
MessageContent parseContent(const QJsonObject &body, const QStringList &allowedTypes,
                            const QString &textField = QStringLiteral("text"));

// The signed sentiment score of a text (Sentiment::analyse, model/assistant/sentiment.h: an English
// and Turkish lexicon with negation and intensifiers), as stored in messages.sentiment_score.
int sentimentScore(const QString &text);
// "positive" above 0, "negative" below 0, "neutral" at 0.
QString sentimentLabel(int score);
} // namespace MessageRules
