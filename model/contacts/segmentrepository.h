#pragma once

#include "model/contacts/contactrepository.h"
#include "model/contacts/segment.h"
#include "model/contacts/segmentrules.h"
#include "model/core/store.h"

#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

// Stores segments. A dynamic segment's members are the contacts its filters match, evaluated at
// each query (one parameterised WHERE, see SegmentRules); a static segment's members are rows of
// segment_members, added by hand, by a snapshot, or once when it is created with filters. A deleted
// contact leaves every static segment (ON DELETE CASCADE). Every write runs in one transaction with
// its outbox event (segment.created / segment.updated / segment.deleted / segment.contacts_added /
// segment.contacts_removed) and then tells the event bus ("segment", id, change).
// Bad input throws DomainError: BadRequest invalid rules or types, Unprocessable missing name/filters, NotFound unknown
// segment or contacts, Conflict duplicate name (case-insensitive).
class SegmentRepository
{
public:
    explicit SegmentRepository(const Store &store);
    const Store &store() const { return m_store; }

    // By name (case-insensitive); with each contactCount when withCounts.
    QVector<Segment> list(bool withCounts = true) const;
    std::optional<Segment> find(const QString &id) const;
    Segment get(const QString &id, bool withCount = true) const; // throws NotFound

    // name (required), description, filters (required for a dynamic segment), isDynamic (default true);
    // checked here (SegmentRules::check) however they were filled in.
    Segment create(SegmentChanges changes, const QString &actor = {});
    // Partial; filters re-validated. Turning a dynamic segment static stores its current members;
    // turning a static one dynamic drops its stored members (and needs filters).
    Segment update(const QString &id, SegmentChanges changes, const QString &actor = {});
    void remove(const QString &id, const QString &actor = {});

    // The members, in the contact list's order (newest first).
    ContactPage contacts(const QString &id, int page, int limit) const;
    qint64 count(const Segment &segment) const;
    // How many contacts these filters match now (validates them: BadRequest when invalid).
    qint64 countMatching(const QJsonValue &filters) const;
    // The condition these filters compile to now (validates them: BadRequest when invalid).
    SegmentRules::Sql matching(const QJsonValue &filters) const;
    // The condition selecting the members of a segment, for ContactQuery::extraWhere.
    SegmentRules::Sql membership(const Segment &segment) const;
    SegmentRules::Sql membership(const QString &id) const;

    // Static segments only (BadRequest on a dynamic one). All or nothing: NotFound naming every unknown contact
    // id. Adding a member twice is not an error; *added tells how many were new.
    Segment addContacts(const QString &id, const QStringList &contactIds, const QString &actor = {},
                        int *added = nullptr);
    Segment removeContact(const QString &id, const QString &contactId, const QString &actor = {});
    // A new static segment holding the current members of this one. changes: optional name and
    // description (the rest is ignored).
    Segment snapshot(const QString &id, SegmentChanges changes = {}, const QString &actor = {});

private:
    Segment insertNew(Segment s);
    Segment updateOnce(const QString &id, const SegmentChanges &c);
    Segment snapshotOnce(const QString &id, const SegmentChanges &c, const QString &actor);

    Store m_store;
};
