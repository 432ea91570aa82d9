#pragma once

#include "model/core/store.h"

#include <QString>

#include <optional>

struct WidgetVisitor
{
    QString id; // visitor_…
    QString contactId;
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
    // name and email are optional. A visitor whose e-mail belongs to a contact is linked to that
    // contact; otherwise a contact (source "widget") is created (contact.created). Every visitor gets
    // a conversation of its own on the widget channel (conversation.created), even for a known
    // e-mail: an e-mail typed into a public form proves nothing, so it never opens an existing
    // thread. Throws DomainError 400 for a malformed e-mail or over-long fields.
    // anonymousName: the contact's name for a visitor who gives none (empty: "Website visitor").
    Created create(const QString &name, const QString &email, const QString &anonymousName = {});
    std::optional<WidgetVisitor> authenticate(const QString &token) const;
    std::optional<WidgetVisitor> find(const QString &visitorId) const;

private:
    Store m_store;
};
