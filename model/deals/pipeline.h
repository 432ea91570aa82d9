#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

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

// One stage as a request body or the pipeline editor gives it: the key (empty: made from the name),
// the name, and the probability and rotten days when set.
struct PipelineStageChange
{
    QString key;
    QString name;
    std::optional<int> probability;
    std::optional<int> rottenDays;
};

// What a create or an update sets; an update leaves an unset field as it is. stages, when set, is
// the whole new ordered list (won and lost are added when it leaves them out).
struct PipelineChanges
{
    std::optional<QString> name;
    std::optional<QVector<PipelineStageChange>> stages;
    std::optional<bool> isDefault;
};

namespace PipelineRules {
// Reads a request body: BadRequest for a wrong type or format, Unprocessable for what is missing, the first refusal
// in the order of the fields and stages. creating: the name and the stages are required.
PipelineChanges parse(const QJsonObject &body, bool creating);
// The same rules on changes however they were filled in (the repository checks every write);
// normalises them as it goes: the name trimmed, each stage's key made from its name when not given.
void check(PipelineChanges &changes, bool creating);
// The stages to store of a checked list: won and lost last, a probability spread evenly by position
// where none is set.
QVector<PipelineStage> stages(const QVector<PipelineStageChange> &changes);
} // namespace PipelineRules
