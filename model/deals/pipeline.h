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
