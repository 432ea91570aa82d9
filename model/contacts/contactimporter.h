#pragma once

#include "model/contacts/contact.h"
#include "model/core/csvimport.h"
#include "model/core/store.h"

#include <functional>

// Imports contacts from a CSV table through a column → field mapping (docs/api.md, "Imports"). Each
// row is read into the changes a create takes and held to the same rules (ContactRules::check: the
// e-mail's form, the phone in E.164, lengths, custom fields; checkRequired: a name, an e-mail or
// phone). A row with the e-mail or the phone (in E.164) of a stored contact, or of a row imported
// before it, is a duplicate, handled by the policy: skip, update (the row's non-empty cells over
// the contact; tags added, address parts and custom fields merged), or create, which the contact
// rules never allow (the row is refused as a duplicate). Rows are written kBatchRows at a time, one
// transaction a batch with one contacts.imported event and one bus news; a cancel (progress
// answering false) is seen between batches and keeps the batches written.
class ContactImporter
{
public:
    explicit ContactImporter(const Store &store);

    // The fields a column can fill, with their English and Turkish header names; "name" is a full
    // name split at its last space into first and last name. Custom fields are
    // "customFields.<name>".
    static const QVector<CsvImport::Field> &fields();

    // The row read through the mapping (empty cells left out) and checked as a create checks it.
    // Throws DomainError as create() would.
    static ContactChanges rowChanges(const QStringList &row, const CsvImport::Mapping &mapping);

    // progress(the report so far: done of rows, the counts) after each batch; false stops there
    // (report.cancelled). importId is named in the events (may be empty); actor is the user or key
    // that imports.
    CsvImport::Report run(const Csv::Table &table, const CsvImport::Mapping &mapping, CsvImport::Duplicates duplicates,
                          const std::function<bool(const CsvImport::Report &soFar)> &progress = {},
                          const QString &importId = {}, const QString &actor = {});

private:
    Store m_store;
};
