#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

struct Conversation
{
    qint64 seq = 0;
    QString id;
    QString contactId;
    QString channel;    // whatsapp, instagram, telegram, widget
    QString channelId;  // the business's address on the channel (phone number id, bot, IG account, site)
    QString externalId; // the contact's address on the channel (phone, chat id, IGSID, visitor id)
    QString status = QStringLiteral("open"); // open, pending, closed
    QString assignedTo;                      // user id, empty when nobody
    QString assignedName;
    QStringList tags;
    QString source;
    std::optional<qint64> firstResponseSeconds;
    int totalMessages = 0;
    int unreadCount = 0;
    QString lastMessageText;
    QString lastMessageDirection;
    QString lastMessageAt;
    QString firstIncomingAt;
    QString createdAt;
    QString updatedAt;
    // From the contact (joined when read).
    QString contactFirstName;
    QString contactLastName;
    QString contactPhone;

    QString contactName() const;
    // The list item: id, contact {id, name, avatar}, channel, status, assignedTo, lastMessage, unreadCount, …
    QJsonObject toListJson() const;
    // The detail without messages: contact {id, firstName, lastName, phone}, channelId, tags, metadata, …
    QJsonObject toDetailJson() const;
};

struct ConversationQuery
{
    int page = 1;
    int limit = 20;
    QString status;
    QString channel;
    QString assignedTo; // a user id; "none" for unassigned
    QString contactId;
    bool unreadOnly = false;
    // Every word begins a word of the contact's name (SqlDialect::wordsBeginFolded).
    QString contactSearch;
};

struct MessageQuery
{
    int page = 1;
    int limit = 50;
    QString before; // message id
    QString after;  // message id
};

struct MessageFilter
{
    int page = 1;
    int limit = 20;
    QString conversationId;
    QString contactId;
    QString channel;
    QString direction;
    QString status;
    QString since; // ISO UTC; createdAt >= since
};

namespace ConversationRules {
QStringList channels();
QStringList statuses();
} // namespace ConversationRules
