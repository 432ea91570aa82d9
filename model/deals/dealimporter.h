#pragma once

#include "model/core/csvimport.h"
#include "model/core/store.h"
#include "model/deals/deal.h"

#include <functional>

// Imports deals from a CSV table into one pipeline (docs/api.md, "Imports"). Each row is read into
// a create body and goes through DealRepository's create or update, one by one: the same rules
// (DealRules, a name, an existing stage and contact) and the same events (deal.created,
// deal.updated) as the API's. The contact is named by its e-mail (column contactEmail). A row is a
// duplicate of a deal of the pipeline with the same name (without case or accents) and the same
// contact (or none); duplicates are skipped, updated, or created anyway (deals may share a name).
// Rows go in batches of CsvImport::kBatchRows, one transaction each, a cancel between two.
class DealImporter
{
public:
    explicit DealImporter(const Store &store);

    static const QVector<CsvImport::Field> &fields();
    // The create body a row makes in this pipeline (empty: the default one): value read as the
    // window reads amounts, stage by its key or name, dates day first, the contact by e-mail.
    // Throws DomainError as a create would (DealRules::parse, a missing name, an unknown contact).
    QJsonObject rowBody(const QStringList &row, const CsvImport::Mapping &mapping,
                        const QString &pipelineId = {}) const;

    CsvImport::Report run(const Csv::Table &table, const CsvImport::Mapping &mapping, CsvImport::Duplicates duplicates,
                          const std::function<bool(const CsvImport::Report &soFar)> &progress = {},
                          const QString &actor = {}, const QString &pipelineId = {});

private:
    Store m_store;
};
