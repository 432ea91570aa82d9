#include "channelsender.h"

#include "api/apierror.h"

ChannelSender::ChannelSender(EventBus *bus, std::shared_ptr<ChannelRegistry> registry)
    : m_bus(bus)
    , m_registry(std::move(registry))
{
}

void ChannelSender::checkAvailable(const QString &channel) const
{
    if (!m_registry->available(channel))
        throw ApiError(503, QStringLiteral("CHANNEL_UNAVAILABLE"), QStringLiteral("Channel unavailable"),
                       {{QStringLiteral("channel"), channel}});
}

Message ChannelSender::send(const QString &conversationId, const MessageContent &content, const MessageSender &sender)
{
    ConversationRepository conversations(m_bus);
    const Conversation conversation = conversations.get(conversationId);
    ChannelConnector *connector = m_registry->available(conversation.channel);
    if (!connector)
        checkAvailable(conversation.channel); // throws
    const Message stored = conversations.addOutgoing(conversationId, content, sender, QStringLiteral("pending"));
    // The callback may run later in another thread: it uses its own repository, not this one.
    EventBus *bus = m_bus;
    const QString messageId = stored.id;
    connector->send(stored, conversation.externalId, [bus, messageId](const SendResult &result) {
        ConversationRepository repository(bus);
        if (result.ok)
            repository.updateStatus(messageId, QStringLiteral("sent"), {}, result.providerMessageId);
        else
            repository.updateStatus(messageId, QStringLiteral("failed"), result.error);
    });
    return conversations.getMessage(messageId);
}
