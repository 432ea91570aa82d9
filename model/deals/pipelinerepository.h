#pragma once

#include "model/core/store.h"
#include "model/deals/pipeline.h"

#include <QHash>
#include <QJsonObject>

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

    // body: { name, stages: [{ key?, name, probability?, rottenDays? }], isDefault? }.
    // 400 for wrong types, 422 without a name or stages, 409 for a duplicate pipeline name.
    Pipeline create(const QJsonObject &body);
    // Partial: name, isDefault, stages (the new ordered list; stages are matched by key, a stage
    // left out is removed, and removing one that holds deals is 409).
    Pipeline update(const QString &id, const QJsonObject &body);
    // 409 for the default pipeline and for a pipeline that holds deals.
    void remove(const QString &id);
    // Deals per stage key.
    QHash<QString, qint64> dealCounts(const QString &id) const;

private:
    Store m_store;
};
