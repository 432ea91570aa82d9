#pragma once

#include <QString>

class ChannelSender;

// Who a direct send (POST /api/v1/messages/send-direct) reaches: a contact, or an address on the
// channel (a phone for WhatsApp and SMS, a provider id for Telegram and Instagram, a visitor id for
// the widget), turned into the conversation the message goes into.
namespace Recipients {

struct Address
{
    QString contactId; // a contact of ours; or empty
    QString to;        // an address on the channel; or empty (at least one of the two is given)
};

// E.164 as ContactRules::toE164 reads it ("+", a non-zero digit, at most 15 digits in all), with no
// default country and with any white space, dashes, dots and brackets tolerated anywhere; empty
// when `to` is not one.
QString e164(const QString &to);

// The conversation to send into, found or created. A phone nobody has yet becomes a new contact
// (source: the channel, created by `createdBy`); Telegram and Instagram ids must have written to us
// first. Checks the channel can send and takes its per-second slot before anything is stored.
// DomainError: BadRequest INVALID_PHONE / a `to` over 100 characters, NotFound (contact, visitor,
// unknown id), Unprocessable NO_CONVERSATION (a contact without a widget conversation), NO_ADDRESS
// (no phone, no conversation on the channel), and what ChannelSender's checks throw.
QString conversationFor(ChannelSender &sender, const QString &channel, const Address &address,
                        const QString &createdBy);

} // namespace Recipients
