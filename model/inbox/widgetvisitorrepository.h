#pragma once

#include "model/contacts/contact.h"
#include "model/core/store.h"
#include "model/inbox/conversation.h"

#include <QString>

#include <optional>

struct WidgetVisitor
{
    QString id;        // visitor_…
    QString contactId; // empty until the visitor says who they are
    QString conversationId;
    QString name;
    QString email;
    QString createdAt;
};

// Visitors of the web chat widget. Each gets an unguessable bearer token (stored only as its
// SHA-256) that gives access to its own conversation and nothing else.
class WidgetVisitorRepository
{
public:
    explicit WidgetVisitorRepository(const Store &store);

    struct Created
    {
        WidgetVisitor visitor;
        QString token; // shown once
    };
    // name and email are optional. A visitor who gives neither stays anonymous: its conversation
    // has no contact and is shown as "<anonymousName> <short id>" (anonymousName empty: "Website
    // visitor") until the visitor says who they are (identify). A visitor whose e-mail belongs to a
    // contact is linked to that contact; one who gives a name or an unknown e-mail gets a contact
    // (source "widget", contact.created). Every visitor gets a conversation of its own on the
    // widget channel (conversation.created), even for a known e-mail: an e-mail typed into a public
    // form proves nothing, so it never opens an existing thread. Throws DomainError BadRequest for a
    // malformed e-mail or over-long fields.
    Created create(const QString &name, const QString &email, const QString &anonymousName = {});

    struct Identified
    {
        Conversation conversation; // now with its contact
        Contact contact;
        bool created = false; // a new contact (false: an existing one matched the e-mail or phone)
    };
    // The person behind a conversation without a contact (an anonymous web visitor's) says who they
    // are: the changes are checked as a contact's are (BadRequest), and must name them or give an e-mail
    // or phone (Unprocessable). A contact with that e-mail (case-insensitive) or else that phone is linked;
    // otherwise one is created (source "widget" unless given, first name the visitor's label when
    // only an e-mail or phone is given; contact.created). The conversation is attached to it in the
    // same transaction (ConversationRepository::attachContact, conversation.updated). Conflict when the
    // conversation has a contact already. The widget's PATCH /widget/v1/visitors/me and the Inbox's
    // "Create contact…" both come here.
    Identified identify(const QString &conversationId, ContactChanges person);
    // The visitor of this token says who they are: identify() on its conversation, recording the
    // name and e-mail on the visitor.
    Identified identifyVisitor(const WidgetVisitor &visitor, const QString &name, const QString &email,
                               const QString &phone);
    // The visitor label of an anonymous visitor: "<anonymousName or Website visitor> <short id>".
    static QString anonymousLabel(const QString &visitorId, const QString &anonymousName);
    std::optional<WidgetVisitor> authenticate(const QString &token) const;
    std::optional<WidgetVisitor> find(const QString &visitorId) const;

private:
    Store m_store;
};
