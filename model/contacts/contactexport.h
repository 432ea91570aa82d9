#pragma once

#include "model/contacts/contactrepository.h"

#include <QByteArray>
#include <QStringList>
#include <QVector>

// The contacts a list's filter finds as CSV, a chunk at a time (GET /api/v1/contacts/export
// streams it; the window writes it to a file): UTF-8 with a byte order mark (so that Excel reads it
// as UTF-8), CRLF, the columns the import auto-matches (id, firstName, lastName, email, phone,
// company, position, source, tags joined by "; ", leadScore, address.street, address.city,
// address.country, one customFields.<name> column per custom field the contacts use, createdAt,
// updatedAt). Which contacts, and their order, are read once in one snapshot at the start; each chunk
// then reads its contacts (one deleted meanwhile is left out).
class ContactExport
{
public:
    static constexpr int kChunkRows = 500;

    ContactExport(const Store &store, const ContactQuery &query);
    qint64 total() const { return m_seqs.size(); }
    qint64 written() const { return m_next; }
    bool atEnd() const { return m_headerDone && m_next >= m_seqs.size(); }
    // The next piece of the file (the byte order mark and header first); empty at the end.
    QByteArray next();
    // The whole file at once.
    QByteArray all();

private:
    ContactRepository m_contacts;
    ContactQuery m_query;
    QVector<qint64> m_seqs;
    QStringList m_customKeys;
    qint64 m_next = 0;
    bool m_headerDone = false;
};
