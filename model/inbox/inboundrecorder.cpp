#include "model/inbox/inboundrecorder.h"

#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/inbox/conversationrepository.h"

#include <QSqlQuery>

InboundRecorder::InboundRecorder(const Store &store)
    : m_store(store)
{
}

std::optional<Contact> InboundRecorder::findContact(const QString &channel, const QString &address,
                                                    const QString &phone) const
{
    QString contactId;
    if (!phone.isEmpty()) {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT id FROM contacts WHERE phone_e164 = ?"),
                                             {ContactRules::toE164(phone)});
        if (q.next())
            contactId = q.value(0).toString();
        q.finish();
    }
    if (contactId.isEmpty() && !address.isEmpty()) {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT contact_id FROM conversations WHERE channel = ? AND external_id = ? "
                           "ORDER BY seq DESC LIMIT 1"),
            {channel, address});
        if (q.next())
            contactId = q.value(0).toString();
        q.finish();
    }
    if (contactId.isEmpty())
        return std::nullopt;
    return ContactRepository(m_store).find(contactId);
}

Message InboundRecorder::record(const InboundMessage &in, bool *created)
{
    try {
        return recordOnce(in, created);
    } catch (const UniqueViolation &) {
        // Another copy stored the same message, or a contact with the same phone, at the same
        // moment (two copies of team mode): once more, it finds them now.
        if (Database::inWriteTransaction())
            throw;
        return recordOnce(in, created);
    }
}

Message InboundRecorder::recordOnce(const InboundMessage &in, bool *created)
{
    ConversationRepository conversations(m_store);
    Transaction tx;
    if (!in.providerId.isEmpty()) {
        if (std::optional<Message> existing = conversations.findByProviderId(in.channel, in.providerId)) {
            if (created)
                *created = false;
            return *existing;
        }
    }
    std::optional<Contact> contact = findContact(in.channel, in.externalId, in.phone);
    if (!contact) {
        const QString name = in.name.simplified().left(100);
        const int space = name.indexOf(QLatin1Char(' '));
        ContactChanges person;
        person.source = in.channel;
        if (name.isEmpty()) {
            person.firstName = in.phone.isEmpty() ? in.externalId.left(100) : in.phone;
        } else if (space > 0) {
            person.firstName = name.left(space);
            person.lastName = name.mid(space + 1);
        } else {
            person.firstName = name;
        }
        if (!in.phone.isEmpty())
            person.phone = in.phone;
        contact = ContactRepository(m_store).createFromChannel(person);
    }
    const Conversation conversation =
        conversations.findOrCreate(contact->id, in.channel, in.externalId, in.channel, in.channelId);
    const Message m = conversations.receive(conversation.id, in.content, in.providerId);
    tx.commit();
    if (created)
        *created = true;
    return m;
}

InboundRecorder::StatusOutcome InboundRecorder::applyStatus(const QString &channel, const QString &providerId,
                                                            const QString &status, const QString &failedReason)
{
    if (!MessageRules::statuses().contains(status))
        return StatusOutcome::Ignored;
    ConversationRepository conversations(m_store);
    // A write transaction around the look-up: the send's provider id is recorded in one too, so
    // either it is committed before (the message is found) or after (and then it finds the kept
    // status). Never neither.
    Transaction tx;
    if (const std::optional<Message> m = conversations.findByProviderId(channel, providerId)) {
        conversations.updateStatus(m->id, status, failedReason);
        tx.commit();
        return StatusOutcome::Applied;
    }
    conversations.keepEarlyStatus(channel, providerId, status, failedReason);
    tx.commit();
    return StatusOutcome::Kept;
}
