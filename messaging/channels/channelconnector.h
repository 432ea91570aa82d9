#pragma once

#include "messaging/channels/channelconfig.h"
#include "model/inbox/message.h"

#include <QDateTime>
#include <QObject>
#include <QString>

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
