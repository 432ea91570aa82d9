#pragma once

#include "message.h"

#include <QHash>
#include <QString>

#include <functional>
#include <memory>

// What a provider answered to one send.
struct SendResult
{
    bool ok = false;
    QString providerMessageId; // the channel's id of the message (wamid, Telegram message_id, …)
    QString error;             // why it failed (shown as the message's failedReason)
};

// The outbound side of one channel (WhatsApp Cloud API, Telegram Bot API, Instagram, web widget).
// send() may answer at once or later: it calls done exactly once, in any thread; the caller records
// the outcome through ConversationRepository::updateStatus, which tolerates any order.
class ChannelConnector
{
public:
    virtual ~ChannelConnector() = default;
    virtual QString channel() const = 0;
    // False when the channel is not configured or its provider is known to be down (answered 503
    // "Channel unavailable", nothing stored).
    virtual bool isAvailable() const = 0;
    // to: the contact's address on the channel (conversation externalId).
    virtual void send(const Message &message, const QString &to, std::function<void(const SendResult &)> done) = 0;
};

// The web widget: the visitor fetches its messages from our own server, so a send is stored and
// counts as sent at once; it becomes delivered when the visitor's page fetches it.
class WidgetConnector final : public ChannelConnector
{
public:
    QString channel() const override { return QStringLiteral("widget"); }
    bool isAvailable() const override { return true; }
    void send(const Message &message, const QString &, std::function<void(const SendResult &)> done) override
    {
        done({true, message.id, {}});
    }
};

// The connectors by channel name. Immutable once set up, so the server threads may share one.
class ChannelRegistry
{
public:
    void add(std::shared_ptr<ChannelConnector> connector) { m_connectors.insert(connector->channel(), connector); }
    // The connector of this channel when it is available; null otherwise.
    ChannelConnector *available(const QString &channel) const
    {
        const auto it = m_connectors.constFind(channel);
        return it != m_connectors.constEnd() && (*it)->isAvailable() ? it->get() : nullptr;
    }
    // This increment: the widget only (WhatsApp, Telegram and Instagram connectors come later).
    static std::shared_ptr<ChannelRegistry> defaults()
    {
        auto registry = std::make_shared<ChannelRegistry>();
        registry->add(std::make_shared<WidgetConnector>());
        return registry;
    }

private:
    QHash<QString, std::shared_ptr<ChannelConnector>> m_connectors;
};
