#include "model/deals/pipeline.h"

#include <QJsonArray>

QJsonObject PipelineStage::toJson() const
{
    return QJsonObject{{QStringLiteral("key"), key},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("position"), position},
                       {QStringLiteral("probability"), probability},
                       {QStringLiteral("rottenDays"), rottenDays > 0 ? QJsonValue(rottenDays) : QJsonValue()},
                       {QStringLiteral("type"), kind}};
}

const PipelineStage *Pipeline::stage(const QString &key) const
{
    for (const PipelineStage &s : stages) {
        if (s.key == key)
            return &s;
    }
    return nullptr;
}

QStringList Pipeline::stageKeys() const
{
    QStringList out;
    for (const PipelineStage &s : stages)
        out << s.key;
    return out;
}

QJsonObject Pipeline::toJson() const
{
    QJsonArray s;
    for (const PipelineStage &st : stages)
        s.append(st.toJson());
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("isDefault"), isDefault},
                       {QStringLiteral("stages"), s},
                       {QStringLiteral("createdAt"), createdAt},
                       {QStringLiteral("updatedAt"), updatedAt}};
}
