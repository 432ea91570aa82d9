#include "messaging/channels/channelsender.h"

#include "messaging/channels/channelregistry.h"
#include "model/core/errors.h"

ChannelSender::ChannelSender(const Store &store, std::shared_ptr<ChannelRegistry> registry)
    : m_store(store)
    , m_conversations(store)
    , m_registry(registry ? std::move(registry) : ChannelRegistry::defaults())
{
}

void ChannelSender::checkAvailable(const QString &channel) const
{
    if (!m_registry->isAvailable(channel)) {
        // details.reason: the provider's own words when it is down (data), else a text of ours.
        const ModelText reason = m_registry->isConfigured(channel)
                                     ? ModelText("%1", {m_registry->downReason(channel)})
                                     : ModelText(QT_TRANSLATE_NOOP("ModelError", "not configured"));
        throw DomainError(DomainError::Unavailable, QStringLiteral("CHANNEL_UNAVAILABLE"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Channel unavailable")),
                          FieldProblems{{QStringLiteral("reason"), reason}},
                          QJsonObject{{QStringLiteral("channel"), channel}});
    }
}

void ChannelSender::acquireSend(const QString &channel)
{
    qint64 retryAfterMs = 0;
    if (!m_registry->tryAcquireSend(channel, m_store.now().toMSecsSinceEpoch(), &retryAfterMs))
        throw DomainError(DomainError::RateLimited, QStringLiteral("RATE_LIMITED"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Rate limited")),
                          {{QStringLiteral("channel"), channel},
                           {QStringLiteral("limitPerSecond"), m_registry->config().sendPerSecond(channel)},
                           {QStringLiteral("retryAfter"), int(qMax<qint64>(1, (retryAfterMs + 999) / 1000))}});
}

Message ChannelSender::send(const QString &conversationId, const MessageContent &content, const MessageSender &sender)
{
    return send(conversationId, content, sender, Options{});
}

Message ChannelSender::send(const QString &conversationId, const MessageContent &content, const MessageSender &sender,
                            const Options &options)
{
    const Conversation conversation = m_conversations.get(conversationId);
    checkAvailable(conversation.channel);
    if (options.rateLimited)
        acquireSend(conversation.channel);
    const bool needsProvider = conversation.channel != QLatin1String("widget");
    return m_conversations.addOutgoing(conversationId, content, sender,
                                       needsProvider ? QStringLiteral("pending") : QStringLiteral("sent"),
                                       options.priority);
}
