#pragma once

#include "model/inbox/message.h"
#include "server/channels/channelconfig.h"

#include <QDateTime>
#include <QHash>
#include <QMutex>
#include <QObject>
#include <QString>

#include <deque>
#include <functional>
#include <memory>

// What a provider answered to one send.
struct SendOutcome
{
    enum Kind
    {
        Sent,   // accepted by the provider: the message is sent (providerMessageId recorded)
        Retry,  // a passing failure (network, 5xx, throughput limit): try again later
        Failed, // a final refusal (undeliverable, outside the 24 h window, bad token…): failed with error
    };
    Kind kind = Failed;
    QString providerMessageId;     // the channel's id of the message (wamid, Telegram message_id, …)
    QString error;                 // why it failed or is retried (shown as failedReason when final)
    int retryAfterSeconds = 0;     // Retry: the provider's own wait (0: the dispatcher's back-off)
    bool channelThrottled = false; // Retry: the whole channel must wait (Telegram 429), not only this message
    bool providerDown = false;     // Retry: the provider could not be reached at all

    static SendOutcome sent(const QString &id) { return {Sent, id, {}, 0, false, false}; }
    static SendOutcome failed(const QString &error) { return {Failed, {}, error, 0, false, false}; }
    static SendOutcome retry(const QString &error, int afterSeconds = 0)
    {
        return {Retry, {}, error, afterSeconds, false, false};
    }
    static SendOutcome down(const QString &error) { return {Retry, {}, error, 0, false, true}; }
};

// The outbound side of one provider channel (WhatsApp Cloud API, Telegram Bot API, Instagram),
// living in the delivery thread (ChannelDispatcher creates and owns it). send() answers through
// done exactly once, later, in the delivery thread.
class ChannelConnector : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~ChannelConnector() override = default;
    virtual QString channel() const = 0;
    // to: the contact's address on the channel (the conversation's externalId: phone without "+",
    // chat id, IGSID).
    virtual void send(const Message &message, const QString &to, std::function<void(const SendOutcome &)> done) = 0;
    // A cheap authenticated call (WhatsApp: the phone number, Telegram: getMe…) telling whether
    // the provider answers and accepts our credentials; detail is shown in Settings.
    virtual void probe(std::function<void(bool ok, const QString &detail)> done) = 0;
};

// What every thread knows of the channels: which are configured, which provider is down, and the
// one-second send windows of direct sends (429 "Rate limited" above sendPerSecond). Thread-safe:
// one instance per process, shared by the server threads, the window and the delivery thread.
class ChannelRegistry
{
public:
    explicit ChannelRegistry(ChannelsConfig config = {})
        : m_config(std::move(config))
    {
    }

    const ChannelsConfig &config() const { return m_config; }
    bool isConfigured(const QString &channel) const { return m_config.configured(channel); }
    // Configured and its provider not known to be down.
    bool isAvailable(const QString &channel) const
    {
        if (!isConfigured(channel))
            return false;
        QMutexLocker lock(&m_mutex);
        return !m_down.contains(channel);
    }
    // Set by the dispatcher when the provider cannot be reached, cleared by a success or a probe.
    void setDown(const QString &channel, const QString &reason)
    {
        QMutexLocker lock(&m_mutex);
        m_down.insert(channel, reason);
    }
    void setUp(const QString &channel)
    {
        QMutexLocker lock(&m_mutex);
        m_down.remove(channel);
    }
    QString downReason(const QString &channel) const
    {
        QMutexLocker lock(&m_mutex);
        return m_down.value(channel);
    }

    // Takes one send from the channel's sliding one-second window. False (and nothing taken) when
    // it is full; retryAfterMs then says when the oldest send leaves the window.
    bool tryAcquireSend(const QString &channel, qint64 nowMs, qint64 *retryAfterMs = nullptr)
    {
        const int limit = m_config.sendPerSecond(channel);
        if (limit <= 0)
            return true;
        QMutexLocker lock(&m_mutex);
        std::deque<qint64> &window = m_windows[channel];
        while (!window.empty() && window.front() <= nowMs - 1000)
            window.pop_front();
        if (int(window.size()) >= limit) {
            if (retryAfterMs)
                *retryAfterMs = window.front() + 1000 - nowMs;
            return false;
        }
        window.push_back(nowMs);
        return true;
    }

    // No provider configured: the widget only.
    static std::shared_ptr<ChannelRegistry> defaults() { return std::make_shared<ChannelRegistry>(); }

private:
    const ChannelsConfig m_config;
    mutable QMutex m_mutex;
    QHash<QString, QString> m_down;
    QHash<QString, std::deque<qint64>> m_windows;
};
