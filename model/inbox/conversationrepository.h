#pragma once

#include "model/core/store.h"
#include "model/inbox/conversation.h"
#include "model/inbox/message.h"

#include <QDateTime>
#include <QJsonArray>
#include <QVector>

#include <optional>

#include "model/core/eventbus.h"

struct ConversationPage
{
    QVector<Conversation> items;
    qint64 total = 0;
};

// A pending outgoing message of a provider channel, with the address it goes to.
struct OutgoingSend
{
    Message message;
    QString to;       // the conversation's externalId
    int attempts = 0; // sends tried before (passing failures)
};

struct MessagePage
{
    QVector<Message> items;
    qint64 total = 0;
};

// Conversations and their messages. Every write runs in one transaction with its outbox events and
// the contact's counters (last_message_at, total_messages, sentiment), and tells the event bus
// ("conversation" / "message", id, change) after the commit. Usable from any thread.
//
// Events (contactId null for an anonymous web visitor's conversation, which adds visitor {id, name} to
// conversation.created): conversation.created {conversationId, contactId, channel, source, contact {id, firstName,
// lastName, phone}}; conversation.updated {conversationId, contactId, channel, status, assignedTo,
// tags, changedFields}; conversation.assigned {conversationId, contactId, assignedTo {id, name} |
// null, previousAssignee}; conversation.closed {conversationId, contactId, channel, closedAt};
// message.received {messageId, conversationId, contactId, channel, text, direction, type, sender {id,
// name, phone}}; message.sent/delivered/read/failed {messageId, conversationId, status, at
// (+ failedReason)}.
class ConversationRepository
{
public:
    explicit ConversationRepository(const Store &store);
    // The store it reads and writes (for the related repositories of a view built with this one).
    const Store &store() const { return m_store; }

    // The open conversation of this contact on this channel (with this externalId), created when there
    // is none (conversation.created). A closed one is reused (a message on it reopens it).
    Conversation findOrCreate(const QString &contactId, const QString &channel, const QString &externalId,
                              const QString &source = {}, const QString &channelId = {});
    // An anonymous web visitor's conversation on the widget channel: no contact, shown by
    // visitorName (conversation.created with contactId and contact null, visitor {id, name}).
    Conversation createForVisitor(const QString &visitorId, const QString &visitorName);
    // Gives a conversation without a contact its contact, in one transaction: the conversation,
    // its messages (contactId; the sender of incoming ones), its widget visitor and the contact's
    // message counters; conversation.updated with changedFields ["contactId"]. Nothing when it
    // already has that contact; Conflict when it has another, NotFound for an unknown contact.
    Conversation attachContact(const QString &id, const QString &contactId);
    // Called inside the transaction of a contact merge or its undo: the conversations of contact
    // `from` (those of `only` alone when given) go to contact `to` with their messages (contactId;
    // the sender of incoming ones) and widget visitors, each with conversation.updated
    // (changedFields ["contactId"]). The contacts' message counters are the caller's. Returns the
    // ids of the conversations moved.
    QStringList moveContact(const QString &from, const QString &to, const QStringList &only = {});
    std::optional<Conversation> find(const QString &id) const;
    Conversation get(const QString &id) const; // throws NotFound
    // The conversation of this contact on this channel, if any (most recent first).
    std::optional<Conversation> findFor(const QString &contactId, const QString &channel) const;
    ConversationPage list(const ConversationQuery &query) const;
    // For the contact detail: [{id, channel, status, lastMessage (timestamp or null)}], most recent first.
    QJsonArray forContact(const QString &contactId) const;

    // status (open, pending, closed) and/or the assignee (a user id, or empty to unassign). Emits
    // conversation.updated when anything changed, conversation.assigned when the assignee did,
    // conversation.closed when it became closed. BadRequest for an unknown status, NotFound for an unknown user.
    Conversation update(const QString &id, const std::optional<QString> &status,
                        const std::optional<QString> &assignedTo);
    Conversation assign(const QString &id, const QString &userId) { return update(id, std::nullopt, userId); }
    // Assigns the conversation to userId only while nobody has it (one conditional update: of two
    // agents replying at once, one gets it); the events of an assignment then. nullopt when someone
    // already had it (nothing changed). Throws NotFound for an unknown user or conversation.
    std::optional<Conversation> assignIfUnassigned(const QString &id, const QString &userId);
    Conversation close(const QString &id) { return update(id, QStringLiteral("closed"), std::nullopt); }
    Conversation reopen(const QString &id) { return update(id, QStringLiteral("open"), std::nullopt); }
    Conversation addTags(const QString &id, const QStringList &tags);
    // NotFound when the conversation does not carry the tag.
    Conversation removeTag(const QString &id, const QString &tag);
    // How many conversations have messages nobody read (the Inbox's badge and the window's
    // navigation show it): one count over the partial index of unread conversations.
    qint64 unreadConversations() const;
    // The agent has seen the thread: unread count 0, incoming messages marked read (no events).
    void markRead(const QString &id);

    // Records an incoming message (message.received). Reopens a closed conversation.
    Message receive(const QString &conversationId, const MessageContent &content, const QString &providerId = {});
    // Records an outgoing message in status pending (the connector moves it on through
    // updateStatus) or, for a channel that needs no provider, directly in status sent (message.sent).
    // sendPriority: 0 for an agent or API send, 1 for a bulk send (queued behind the others).
    Message addOutgoing(const QString &conversationId, const MessageContent &content, const MessageSender &sender,
                        const QString &initialStatus = QStringLiteral("pending"), int sendPriority = 0);
    // Applies a status report (MessageRules::advance); emits one event per status reached. A late
    // or repeated report changes nothing and emits nothing. providerId: recorded when given, and
    // the reports kept for it by keepEarlyStatus are applied then (and dropped).
    // Keeps a provider's report on a message id no message has yet: a status webhook can overtake
    // the answer of the send that records the id. Kept a day, at most kMaxEarlyStatuses.
    static constexpr int kMaxEarlyStatuses = 10000;
    void keepEarlyStatus(const QString &channel, const QString &providerId, const QString &status,
                         const QString &failedReason = {});
    Message updateStatus(const QString &messageId, const QString &status, const QString &failedReason = {},
                         const QString &providerId = {});

    // The send queue of the delivery thread: pending outgoing messages of the channel due at `at`
    // (agent and API sends before bulk ones, then in order).
    QVector<OutgoingSend> dueSends(const QString &channel, const QDateTime &at, int limit) const;
    // The sends of the channel that any copy started since `since` (claimed; the rate of the
    // channel's provider holds across copies), and when the first of them started.
    struct SendWindow
    {
        int count = 0;
        std::optional<QDateTime> first;
    };
    SendWindow sendsStartedSince(const QString &channel, const QDateTime &since) const;
    // Takes a due message for sending until now + leaseSeconds; false when another copy took it
    // first. dueSends() passes over a taken message until its lease ends (its copy stopped).
    bool claimSend(const QString &messageId, const QDateTime &now, int leaseSeconds);
    // SQLite (one process per file): claims of the last run end at start, so that its sends go out
    // again at once. Returns how many.
    int releaseSendClaims();
    // When the channel's next pending send is due (none: nullopt).
    std::optional<QDateTime> nextSendAt(const QString &channel) const;
    // A passing failure: try again at `at` (counts the attempt, keeps the error for the log).
    void deferSend(const QString &messageId, const QDateTime &at, const QString &error);
    // The message a provider knows by its own id (status reports of webhooks).
    std::optional<Message> findByProviderId(const QString &channel, const QString &providerId) const;

    std::optional<Message> findMessage(const QString &id) const;
    Message getMessage(const QString &id) const; // throws NotFound
    // A conversation's messages in time order. after: the first `limit` after that message; before:
    // the last `limit` before it; neither: page `page` of the whole thread. NotFound for an unknown cursor.
    MessagePage messages(const QString &conversationId, const MessageQuery &query) const;
    // The latest `limit` messages of a conversation, in time order.
    QVector<Message> latestMessages(const QString &conversationId, int limit = 50) const;
    // Every message matching the filter, newest first.
    MessagePage listMessages(const MessageFilter &filter) const;

private:
    Store m_store;
};
