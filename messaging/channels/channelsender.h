#pragma once

#include "messaging/channels/channelconnector.h"
#include "messaging/channels/channelregistry.h"
#include "model/inbox/conversationrepository.h"

#include <memory>

// The one path an outgoing message takes, from the API and from the window: check the channel
// (503 "Channel unavailable", nothing stored), hold a direct send to the channel's per-second limit
// (429 "Rate limited"), and store the message. The web widget needs no provider: its message is
// sent at once (delivered when the visitor's page fetches it). A provider channel's message is
// stored pending; the delivery thread's ChannelDispatcher sends it and records the outcome.
class ChannelSender
{
public:
    explicit ChannelSender(const Store &store, std::shared_ptr<ChannelRegistry> registry = ChannelRegistry::defaults());

    struct Options
    {
        bool rateLimited = true; // a direct send: counts in the channel's one-second window
        int priority = 0;        // 0 agent/API send, 1 bulk (queued behind)
    };

    // Throws DomainError Unavailable (CHANNEL_UNAVAILABLE), RateLimited (RATE_LIMITED), NotFound (unknown
    // conversation). Returns the message as stored (sent for the widget, else pending).
    Message send(const QString &conversationId, const MessageContent &content, const MessageSender &sender);
    Message send(const QString &conversationId, const MessageContent &content, const MessageSender &sender,
                 const Options &options);
    // Throws DomainError Unavailable unless the channel can send now.
    void checkAvailable(const QString &channel) const;
    // Takes one send from the channel's one-second window; throws DomainError RateLimited "Rate limited"
    // (details.retryAfter in seconds) when it is full. send() does it unless told not to.
    void acquireSend(const QString &channel);
    bool isAvailable(const QString &channel) const { return m_registry->isAvailable(channel); }
    const std::shared_ptr<ChannelRegistry> &registry() const { return m_registry; }
    const Store &store() const { return m_store; }

private:
    Store m_store;
    ConversationRepository m_conversations;
    std::shared_ptr<ChannelRegistry> m_registry;
};
