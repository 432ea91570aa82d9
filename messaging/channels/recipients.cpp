#include "messaging/channels/recipients.h"

#include "messaging/channels/channelsender.h"
#include "model/contacts/contact.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/inboundrecorder.h"
#include "model/inbox/widgetvisitorrepository.h"

#include <QRegularExpression>

namespace Recipients {

QString e164(const QString &to)
{
    // A direct send tolerates any white space and brackets anywhere, and takes no default country;
    // the number's rules are the contacts' own.
    static const QRegularExpression separators(QStringLiteral("[\\s().-]"));
    return ContactRules::toE164(QString(to).remove(separators), QString());
}

QString conversationFor(ChannelSender &sender, const QString &channel, const Address &address, const QString &createdBy)
{
    const bool phoneChannel = channel == QLatin1String("whatsapp") || channel == QLatin1String("sms");
    QString to = address.to;
    if (!to.isEmpty()) {
        if (phoneChannel) {
            to = e164(to);
            if (to.isEmpty())
                throw DomainError(
                    DomainError::BadRequest, QStringLiteral("INVALID_PHONE"),
                    ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid phone")),
                    {{QStringLiteral("to"),
                      ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an E.164 number (+ and 7 to 15 digits)"))}});
        } else if (to.size() > 100) {
            throw DomainError::invalid(QStringLiteral("to"),
                                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {100}));
        }
    }
    const Store &store = sender.store();
    ConversationRepository conversations(store);
    std::optional<Contact> contact;
    if (!address.contactId.isEmpty()) {
        contact = ContactRepository(store).find(address.contactId);
        if (!contact)
            throw DomainError(DomainError::NotFound, QStringLiteral("NOT_FOUND"),
                              ModelText(QT_TRANSLATE_NOOP("ModelError", "Contact not found")));
    }
    // Nothing is stored for a channel that cannot send, or above its per-second limit.
    sender.checkAvailable(channel);
    sender.acquireSend(channel);

    QString conversationId;
    if (channel == QLatin1String("widget")) {
        // The widget's address is the visitor id; a contact is reached on its latest widget conversation.
        if (contact) {
            const std::optional<Conversation> v = conversations.findFor(contact->id, channel);
            if (!v)
                throw DomainError(
                    DomainError::Unprocessable, QStringLiteral("NO_CONVERSATION"),
                    ModelText(QT_TRANSLATE_NOOP("ModelError", "The contact has no widget conversation to send into")),
                    {{QStringLiteral("contactId"),
                      ModelText(QT_TRANSLATE_NOOP("ModelError", "has no widget conversation"))}});
            conversationId = v->id;
        } else {
            const std::optional<WidgetVisitor> visitor = WidgetVisitorRepository(store).find(to);
            if (!visitor)
                throw DomainError(DomainError::NotFound, QStringLiteral("NOT_FOUND"),
                                  ModelText(QT_TRANSLATE_NOOP("ModelError", "Contact not found")));
            conversationId = visitor->conversationId;
        }
    } else {
        Transaction tx;
        QString externalId = to;
        if (!contact) {
            const InboundRecorder recorder(store);
            contact = phoneChannel ? recorder.findContact(channel, {}, to) : recorder.findContact(channel, to);
            if (!contact && phoneChannel)
                contact = ContactRepository(store).create(ContactRules::fromPhone(to, channel), createdBy);
            // Telegram and Instagram ids cannot be messaged first: the person must have written to us.
            if (!contact)
                throw DomainError(DomainError::NotFound, QStringLiteral("NOT_FOUND"),
                                  ModelText(QT_TRANSLATE_NOOP("ModelError", "Contact not found")));
        }
        if (externalId.isEmpty()) {
            if (phoneChannel)
                externalId = ContactRules::toE164(contact->phone);
            else if (const std::optional<Conversation> v = conversations.findFor(contact->id, channel))
                externalId = v->externalId;
        }
        if (externalId.isEmpty())
            throw DomainError(
                DomainError::Unprocessable, QStringLiteral("NO_ADDRESS"),
                phoneChannel
                    ? ModelText(QT_TRANSLATE_NOOP("ModelError", "The contact has no phone number to send to"))
                    : ModelText(QT_TRANSLATE_NOOP("ModelError", "The contact has no %1 conversation to send into"),
                                {channel}),
                {{QStringLiteral("contactId"),
                  phoneChannel ? ModelText(QT_TRANSLATE_NOOP("ModelError", "has no phone number"))
                               : ModelText(QT_TRANSLATE_NOOP("ModelError", "has no conversation on the channel"))}});
        conversationId = conversations.findOrCreate(contact->id, channel, externalId, QStringLiteral("api")).id;
        tx.commit();
    }
    return conversationId;
}

} // namespace Recipients
