#pragma once

#include "channelconnector.h"
#include "conversationrepository.h"

#include <memory>

class EventBus;

// The one path an outgoing message takes, from the API and from the window: check the channel
// (503 "Channel unavailable", nothing stored), store the message as pending, hand it to the
// channel's connector and record what the connector answers (sent, or failed with its reason).
class ChannelSender
{
public:
    explicit ChannelSender(EventBus *bus, std::shared_ptr<ChannelRegistry> registry = ChannelRegistry::defaults());

    // Throws ApiError 503 CHANNEL_UNAVAILABLE, or DomainError (404 unknown conversation).
    // Returns the message as stored once the connector answered (or still pending when it answers later).
    Message send(const QString &conversationId, const MessageContent &content, const MessageSender &sender);
    // Throws ApiError 503 unless the channel can send now.
    void checkAvailable(const QString &channel) const;
    bool isAvailable(const QString &channel) const { return m_registry->available(channel) != nullptr; }

private:
    EventBus *m_bus;
    std::shared_ptr<ChannelRegistry> m_registry;
};
