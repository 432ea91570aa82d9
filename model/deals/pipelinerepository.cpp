#include "model/deals/pipelinerepository.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/ids.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>
#include <QSqlQuery>

#include <cmath>

namespace {
const QString kDefaultId = QStringLiteral("pipeline_default");

QVector<PipelineStage> loadStages(const QString &pipelineId)
{
    QVector<PipelineStage> out;
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT key, name, position, probability, rotten_days, kind FROM pipeline_stages "
                       "WHERE pipeline_id = ? ORDER BY position"),
        {pipelineId});
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toInt(), q.value(3).toInt(),
                    q.value(4).toInt(), q.value(5).toString()});
    q.finish();
    return out;
}

void writeStages(const QString &pipelineId, const QVector<PipelineStage> &stages)
{
    for (const PipelineStage &s : stages) {
        Database::execCached(
            QStringLiteral("INSERT INTO pipeline_stages (pipeline_id, key, name, position, probability, rotten_days, "
                           "kind) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (pipeline_id, key) DO UPDATE SET "
                           "name = excluded.name, position = excluded.position, probability = excluded.probability, "
                           "rotten_days = excluded.rotten_days, kind = excluded.kind"),
            {pipelineId, s.key, s.name, s.position, s.probability,
             s.rottenDays > 0 ? QVariant(s.rottenDays) : QVariant(QMetaType(QMetaType::Int)), s.kind});
    }
}

void checkUniqueName(const QString &name, const QString &id)
{
    CachedQuery q = Database::execCached(QStringLiteral("SELECT id FROM pipelines WHERE name_norm = ? AND id != ?"),
                                         {name.toLower(), id});
    if (q.next()) {
        const QString other = q.value(0).toString();
        q.finish();
        throw DomainError(
            DomainError::Conflict, QStringLiteral("CONFLICT"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "A pipeline named %1 already exists"), {name}),
            FieldProblems{{QStringLiteral("name"), ModelText(QT_TRANSLATE_NOOP("ModelError", "already exists"))}},
            QJsonObject{{QStringLiteral("existingId"), other}});
    }
    q.finish();
}

void makeDefault(const QString &id)
{
    Database::execCached(QStringLiteral("UPDATE pipelines SET is_default = CASE WHEN id = ? THEN 1 ELSE 0 END"), {id});
}
} // namespace

PipelineRepository::PipelineRepository(const Store &store)
    : m_store(store)
{
}

QVector<Pipeline> PipelineRepository::list() const
{
    QVector<Pipeline> out;
    {
        CachedQuery q = Database::execCached(QStringLiteral(
            "SELECT id, name, is_default, created_at, updated_at FROM pipelines ORDER BY is_default DESC, name_norm"));
        while (q.next()) {
            Pipeline p;
            p.id = q.value(0).toString();
            p.name = q.value(1).toString();
            p.isDefault = q.value(2).toBool();
            p.createdAt = q.value(3).toString();
            p.updatedAt = q.value(4).toString();
            out.append(p);
        }
        q.finish();
    }
    for (Pipeline &p : out)
        p.stages = loadStages(p.id);
    return out;
}

std::optional<Pipeline> PipelineRepository::find(const QString &id) const
{
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT id, name, is_default, created_at, updated_at FROM pipelines WHERE id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    Pipeline p;
    p.id = q.value(0).toString();
    p.name = q.value(1).toString();
    p.isDefault = q.value(2).toBool();
    p.createdAt = q.value(3).toString();
    p.updatedAt = q.value(4).toString();
    q.finish();
    p.stages = loadStages(p.id);
    return p;
}

Pipeline PipelineRepository::get(const QString &id) const
{
    std::optional<Pipeline> p = find(id);
    if (!p)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Pipeline"), id);
    return *p;
}

Pipeline PipelineRepository::defaultPipeline() const
{
    CachedQuery q =
        Database::execCached(QStringLiteral("SELECT id FROM pipelines ORDER BY is_default DESC, seq LIMIT 1"));
    const QString id = q.next() ? q.value(0).toString() : kDefaultId;
    q.finish();
    return get(id);
}

Pipeline PipelineRepository::create(PipelineChanges changes)
{
    PipelineRules::check(changes, true);
    Pipeline p;
    p.name = *changes.name;
    p.stages = PipelineRules::stages(*changes.stages);
    const std::optional<bool> isDefault = changes.isDefault;
    p.id = Ids::make(u"pipeline");
    p.createdAt = p.updatedAt = m_store.nowIso();
    Database::refuseDuplicate(
        [&] {
            Transaction tx;
            checkUniqueName(p.name, p.id);
            Database::execCached(QStringLiteral("INSERT INTO pipelines (id, name, name_norm, is_default, created_at, "
                                                "updated_at) VALUES (?, ?, ?, 0, ?, ?)"),
                                 {p.id, p.name, p.name.toLower(), p.createdAt, p.updatedAt});
            writeStages(p.id, p.stages);
            if (isDefault.value_or(false))
                makeDefault(p.id);
            tx.commit();
        },
        [&] { checkUniqueName(p.name, p.id); });
    m_store.notify(EventBus::Entity::Pipeline, p.id, EventBus::Change::Created);
    return get(p.id);
}

Pipeline PipelineRepository::update(const QString &id, PipelineChanges changes)
{
    PipelineRules::check(changes, false);
    const QString newName = changes.name.value_or(QString());
    const std::optional<bool> isDefault = changes.isDefault;
    std::optional<QVector<PipelineStage>> stages;
    if (changes.stages)
        stages = PipelineRules::stages(*changes.stages);
    Database::refuseDuplicate([&] { updateOnce(id, newName, isDefault, stages); },
                              [&] {
                                  if (!newName.isEmpty())
                                      checkUniqueName(newName, id);
                              });
    m_store.notify(EventBus::Entity::Pipeline, id, EventBus::Change::Updated);
    return get(id);
}

void PipelineRepository::updateOnce(const QString &id, const QString &newName, std::optional<bool> isDefault,
                                    const std::optional<QVector<PipelineStage>> &stages)
{
    Transaction tx;
    Pipeline before = get(id);
    if (!newName.isEmpty() && newName != before.name) {
        checkUniqueName(newName, id);
        Database::execCached(QStringLiteral("UPDATE pipelines SET name = ?, name_norm = ? WHERE id = ?"),
                             {newName, newName.toLower(), id});
    }
    if (isDefault) {
        if (*isDefault)
            makeDefault(id);
        else if (before.isDefault)
            throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                              ModelText(QT_TRANSLATE_NOOP(
                                  "ModelError", "There must be a default pipeline: make another pipeline the default")),
                              {{QStringLiteral("isDefault"),
                                ModelText(QT_TRANSLATE_NOOP("ModelError", "cannot be unset directly"))}});
    }
    if (stages) {
        QSet<QString> keep;
        for (const PipelineStage &s : *stages)
            keep.insert(s.key);
        const QHash<QString, qint64> counts = dealCounts(id);
        FieldProblems holding; // by stage key
        for (const PipelineStage &s : before.stages) {
            if (!keep.contains(s.key) && counts.value(s.key) > 0)
                holding.insert(s.key,
                               ModelText(QT_TRANSLATE_NOOP("ModelError", "holds %1 deal(s)"), {counts.value(s.key)}));
        }
        if (!holding.isEmpty())
            throw DomainError(
                DomainError::Conflict, QStringLiteral("CONFLICT"),
                ModelText(QT_TRANSLATE_NOOP("ModelError",
                                            "A stage that still holds deals cannot be removed: move its deals first")),
                holding);
        for (const PipelineStage &s : before.stages) {
            if (!keep.contains(s.key))
                Database::execCached(QStringLiteral("DELETE FROM pipeline_stages WHERE pipeline_id = ? AND key = ?"),
                                     {id, s.key});
        }
        writeStages(id, *stages);
    }
    Database::execCached(QStringLiteral("UPDATE pipelines SET updated_at = ? WHERE id = ?"), {m_store.nowIso(), id});
    tx.commit();
}

void PipelineRepository::remove(const QString &id)
{
    Transaction tx;
    const Pipeline p = get(id);
    if (p.isDefault)
        throw DomainError(
            DomainError::Conflict, QStringLiteral("CONFLICT"),
            ModelText(QT_TRANSLATE_NOOP("ModelError",
                                        "The default pipeline cannot be deleted: make another pipeline the default")));
    qint64 total = 0;
    for (qint64 n : dealCounts(id))
        total += n;
    if (total > 0)
        throw DomainError(
            DomainError::Conflict, QStringLiteral("CONFLICT"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Pipeline %1 holds %2 deal(s): move or delete them first"),
                      {p.name, total}),
            {{QStringLiteral("deals"), total}});
    Database::execCached(QStringLiteral("DELETE FROM pipelines WHERE id = ?"), {id});
    tx.commit();
    m_store.notify(EventBus::Entity::Pipeline, id, EventBus::Change::Deleted);
}

QHash<QString, qint64> PipelineRepository::dealCounts(const QString &id) const
{
    QHash<QString, qint64> out;
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT stage, count(*) FROM deals WHERE pipeline_id = ? GROUP BY stage"), {id});
    while (q.next())
        out.insert(q.value(0).toString(), q.value(1).toLongLong());
    q.finish();
    return out;
}
