#pragma once

#include "model/contacts/contact.h"
#include "model/core/store.h"
#include "model/inbox/message.h"

#include <optional>

// A message a channel delivered to us (a provider webhook, Telegram long polling).
struct InboundMessage
{
    QString channel;    // whatsapp, telegram, instagram
    QString externalId; // the sender's address on the channel: wa_id digits, chat id, IGSID
    QString name;       // the sender's profile name, when the channel gives one
    QString phone;      // E.164, when the channel knows it (WhatsApp)
    QString channelId;  // our own account on the channel (phone_number_id, bot id, IG account id)
    MessageContent content;
    QString providerId; // the channel's id of the message: a repeat of it is recorded once
};

// Records what the channels tell us: incoming messages (finding or creating the contact and the
// conversation) and status reports of our own messages. Usable from any thread.
class InboundRecorder
{
public:
    explicit InboundRecorder(const Store &store);

    // The contact is found by phone (E.164) when one is given, else by an earlier conversation on
    // the channel with this address; otherwise created, named from the profile (source = the
    // channel). The conversation is the contact's on this channel and address (created, or
    // reopened by the message). A providerId already recorded returns that message (created false).
    Message record(const InboundMessage &message, bool *created = nullptr);

    enum class StatusOutcome
    {
        Applied, // to the message of that provider id (a late report changes nothing: statuses only move forward)
        Kept,    // no message has that id yet: kept, and applied when a send records it (see
                 // ConversationRepository::keepEarlyStatus)
        Ignored  // not a status we know
    };
    // A provider's status report (sent, delivered, read, failed) on the message it knows by providerId.
    StatusOutcome applyStatus(const QString &channel, const QString &providerId, const QString &status,
                              const QString &failedReason = {});

    // The contact reached at this address on this channel, if any (by phone for a phone, else by
    // an earlier conversation).
    std::optional<Contact> findContact(const QString &channel, const QString &address, const QString &phone = {}) const;

private:
    Message recordOnce(const InboundMessage &message, bool *created);
    Store m_store;
};
