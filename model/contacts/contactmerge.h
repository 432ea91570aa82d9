#pragma once

#include "model/contacts/contact.h"
#include "model/core/store.h"

#include <QJsonObject>
#include <QStringList>
#include <QVector>

// How many rows of each kind a merge moves (or an undo moves back) onto the kept contact.
struct MergeCounts
{
    int notes = 0;
    int deals = 0;
    int tasks = 0;
    int conversations = 0;
    int segments = 0;  // static segment memberships the kept contact gains
    int campaigns = 0; // campaign recipients, enrolments and suppressions, bulk send recipients

    int total() const { return notes + deals + tasks + conversations + segments + campaigns; }
    QJsonObject toJson() const;
};

// What merging `others` into `kept` would do, computed without writing (the window shows it).
struct MergePreview
{
    Contact kept;
    QVector<Contact> others;
    Contact result;           // the kept contact after the merge
    QStringList filledFields; // its fields taken from the others (API names: "email", "address.city", "tags", …)
    MergeCounts moves;
    // The others' e-mail addresses and phones the kept contact does not take (it has its own): gone
    // with them once the merge can no longer be undone.
    QStringList notKept;
};

struct MergeResult
{
    QString mergeId; // merge_…: what undo() takes
    Contact kept;
    QStringList removedIds;
    QStringList filledFields;
    MergeCounts moved;

    QJsonObject toJson() const;
};

struct MergeUndone
{
    QString mergeId;
    Contact kept;
    QVector<Contact> restored;
    MergeCounts movedBack;
};

// Merges duplicate contacts into one (docs/api.md, "Duplicates and merge"): in one transaction the
// kept contact takes every note, deal, task, conversation (with its messages and web visitor),
// static segment membership and campaign row of the others, and the fields it lacks; the others are
// deleted. Events: deal.updated, task.updated and conversation.updated for each row moved,
// contact.deleted with mergedInto and mergeId for each other, then contact.updated for the kept one
// with mergedFrom and mergeId. The merge is recorded (contact_merges) so that undo() puts every
// contact and row back, in one transaction too, within kUndoDays.
//
// Two merges of the same contacts at once: the contacts' rows are locked (PostgreSQL: SELECT … FOR
// UPDATE in seq order; SQLite: one writer at a time), so the second sees the first's result: a
// contact it names is gone (Conflict "was merged into", or NotFound/Unprocessable for one that
// never existed).
class ContactMerge
{
public:
    static constexpr int kMaxOthers = 20;
    static constexpr int kUndoDays = 7;

    explicit ContactMerge(const Store &store);

    // Refuses a request that cannot be right whatever is stored: no other ids (Unprocessable),
    // more than kMaxOthers, the kept id among them, an id twice or empty (BadRequest); field otherIds.
    static void checkRequest(const QString &keepId, const QStringList &otherIds);

    MergePreview preview(const QString &keepId, const QStringList &otherIds) const;
    MergeResult merge(const QString &keepId, const QStringList &otherIds, const QString &actor = {});
    // Puts back the contacts a merge removed, the rows it moved that are still on the kept contact,
    // and the kept contact's fields it filled that nobody changed since. NotFound: no such merge;
    // Conflict: undone already, older than kUndoDays, the kept contact gone, or a removed contact's
    // e-mail or phone taken since by another contact.
    MergeUndone undo(const QString &mergeId, const QString &actor = {});

    // The contact a removed one was merged into (the latest merge not undone); empty when none.
    QString mergedInto(const QString &contactId) const;
    // The kept contact of a merge not undone, the others filled in from them (in the given order):
    // a field the kept contact has stays; an empty one (first name, last name, e-mail, phone,
    // company, position, source, each address part) takes the first other's non-empty value; tags are
    // joined (the kept contact's first, at most 100); custom fields the kept contact lacks are added
    // (the first other's value) while within the bounds of ContactRules; the lead score is the
    // highest; the message counters add up, the latest message's time and sentiment win.
    static Contact filled(const Contact &kept, const QVector<Contact> &others, QStringList *filledFields = nullptr);

private:
    Store m_store;
};
