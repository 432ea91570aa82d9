#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

class EventBus;

// One column of a pipeline. key is what a deal's `stage` holds ("lead", "qualified"); name is shown.
struct PipelineStage
{
    QString key;
    QString name;
    int position = 0;
    int probability = 0; // default probability of a deal entering the stage
    int rottenDays = 0;  // 0: deals here never rot
    QString kind;        // "open", "won" or "lost"

    bool isOpen() const { return kind == QLatin1String("open"); }
    QJsonObject toJson() const;
};

struct Pipeline
{
    QString id;
    QString name;
    bool isDefault = false;
    QVector<PipelineStage> stages; // in board order; the won and lost stages come last
    QString createdAt;
    QString updatedAt;

    const PipelineStage *stage(const QString &key) const;
    QStringList stageKeys() const;
    QJsonObject toJson() const;
};

// Pipelines and their stages. Every pipeline has the closing stages `won` (probability 100) and
// `lost` (probability 0): they are appended when a body leaves them out and cannot be removed.
// The migration seeds the default pipeline `pipeline_default` (lead, contact, proposal, negotiation,
// won, lost). Writes run in one transaction and tell the bus ("pipeline", id, change).
class PipelineRepository
{
public:
    explicit PipelineRepository(EventBus *bus = nullptr);

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
    EventBus *m_bus;
};
