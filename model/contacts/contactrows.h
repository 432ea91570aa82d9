#pragma once

#include "model/contacts/contact.h"
#include "model/core/database.h"

// The stored form of a contact, for the model's writers beside ContactRepository (ContactMerge):
// the same row, search index, tags and sort keys the repository writes, so that a merge and its
// undo leave what a create or an update would. Call inside a write Transaction; no event, no bus.
namespace ContactRows {
// The SELECT list over `contacts c` that fromRow() reads.
const QString &columns();
Contact fromRow(SqlRowReader r);
// A new row (c.id, c.createdAt, c.updatedAt as given); sets c.seq. Its tags and search words too.
void insert(Contact &c);
// The editable fields and updatedAt of an existing row (by c.seq), its search words, and its tags
// when tagsChanged.
void update(const Contact &c, bool tagsChanged);
// lastMessageAt, totalMessages and sentiment (kept by the messaging layer) as c holds them.
void writeCounters(const Contact &c);
// The row and its search words; its tags, notes, custom fields and static segments go with it.
void remove(const Contact &c);
// Conflict (CONFLICT, details.existingId) when another contact has c's e-mail or phone.
void refuseTaken(const Contact &c);
// An event's data: the contact as the API shows it, plus contactId.
QJsonObject eventData(const Contact &c);
} // namespace ContactRows
