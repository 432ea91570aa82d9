#pragma once

#include "model/core/store.h"
#include "model/deals/pipeline.h"

#include <QHash>

#include <optional>

// Pipelines and their stages. Every pipeline has the closing stages `won` (probability 100) and
// `lost` (probability 0): they are appended when a body leaves them out and cannot be removed.
// The migration seeds the default pipeline `pipeline_default` (lead, contact, proposal, negotiation,
// won, lost). Writes run in one transaction and tell the bus ("pipeline", id, change).
class PipelineRepository
{
public:
    explicit PipelineRepository(const Store &store);

    QVector<Pipeline> list() const; // the default first, then by name
    std::optional<Pipeline> find(const QString &id) const;
    Pipeline get(const QString &id) const; // throws NotFound
    Pipeline defaultPipeline() const;

    // The changes are checked (PipelineRules::check: BadRequest for a format, Unprocessable without a name or
    // stages); a request body is read into them with PipelineRules::parse. Conflict for a duplicate
    // pipeline name.
    Pipeline create(PipelineChanges changes);
    // Partial: name, isDefault, stages (the new ordered list; stages are matched by key, a stage
    // left out is removed, and removing one that holds deals is Conflict).
    Pipeline update(const QString &id, PipelineChanges changes);
    // Conflict for the default pipeline and for a pipeline that holds deals.
    void remove(const QString &id);
    // Deals per stage key.
    QHash<QString, qint64> dealCounts(const QString &id) const;

private:
    void updateOnce(const QString &id, const QString &newName, std::optional<bool> isDefault,
                    const std::optional<QVector<PipelineStage>> &stages);

    Store m_store;
};
