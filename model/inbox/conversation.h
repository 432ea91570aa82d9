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
    // An anonymous web visitor's conversation has no contact (contactId empty) until the visitor
    // says who they are; it is shown by this label ("Website visitor 3F9K2A"), empty otherwise.
    QString visitorName;
    // The assistant (docs/api.md, "The assistant in the inbox"): why it handed the conversation to
    // a person (empty: it did not, or a person took it back; no auto-reply while set), and its
    // draft reply for an agent to send (the channel's auto-reply is "suggest").
    QString aiHandoff;
    QString aiDraft;
    QString aiDraftAnswerId;

    bool hasContact() const { return !contactId.isEmpty(); }
    // The contact's name, or the visitor's label for a conversation without a contact.
    QString contactName() const;
    // The list item and the detail of a conversation without a contact carry contactId null,
    // contact null and visitor {id, name}; those with a contact have no visitor member.
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
    // Waiting for an answer: the last message came in and the conversation is not closed.
    bool waitingOnly = false;
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
// The short id shown after an anonymous visitor's name: the last 6 characters of the visitor id,
// upper case ("3F9K2A").
QString visitorShortId(const QString &visitorId);
} // namespace ConversationRules
