#include "model/deals/pipelinerepository.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/ids.h"
#include "model/core/timeutil.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>
#include <QSqlQuery>

#include <cmath>

namespace {
const QString kDefaultId = QStringLiteral("pipeline_default");

[[noreturn]] void badRequest(const QString &field, const QString &message)
{
    throw DomainError::badRequest(QStringLiteral("Invalid data: %1 %2").arg(field, message), {{field, message}});
}

[[noreturn]] void missing(const QString &field, const QString &message = QStringLiteral("is required"))
{
    throw DomainError::unprocessable(QStringLiteral("Required field missing: %1 %2").arg(field, message),
                                     {{field, message}});
}

// "Proposal Made" -> "proposal_made": the key a stage gets when the body names it only.
QString slug(const QString &name)
{
    QString out;
    for (QChar c : name.toLower()) {
        if ((c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('0') && c <= QLatin1Char('9')))
            out.append(c);
        else if (!out.isEmpty() && !out.endsWith(QLatin1Char('_')))
            out.append(QLatin1Char('_'));
    }
    while (out.endsWith(QLatin1Char('_')))
        out.chop(1);
    return out.left(40);
}

bool isKey(const QString &key)
{
    static const QRegularExpression re(QStringLiteral("^[a-z0-9_]{1,40}$"));
    return re.match(key).hasMatch();
}

QString name(const QJsonObject &body, bool required)
{
    const QJsonValue v = body.value(QLatin1String("name"));
    if (v.isUndefined() && !required)
        return {};
    if (!v.isUndefined() && !v.isNull() && !v.isString())
        badRequest(QStringLiteral("name"), QStringLiteral("must be a string"));
    const QString n = v.toString().trimmed();
    if (n.isEmpty())
        missing(QStringLiteral("name"));
    if (n.size() > 100)
        badRequest(QStringLiteral("name"), QStringLiteral("must be at most 100 characters"));
    return n;
}

// Reads the stages array of a body into the stored order, closing stages last.
QVector<PipelineStage> parseStages(const QJsonValue &value)
{
    if (!value.isArray())
        badRequest(QStringLiteral("stages"), QStringLiteral("must be an array of stage objects"));
    const QJsonArray array = value.toArray();
    QVector<PipelineStage> open;
    PipelineStage won{QStringLiteral("won"), QStringLiteral("Won"), 0, 100, 0, QStringLiteral("won")};
    PipelineStage lost{QStringLiteral("lost"), QStringLiteral("Lost"), 0, 0, 0, QStringLiteral("lost")};
    QSet<QString> keys;
    for (int i = 0; i < array.size(); ++i) {
        const QString field = QStringLiteral("stages[%1]").arg(i);
        if (!array.at(i).isObject())
            badRequest(field, QStringLiteral("must be an object with name, key, probability, rottenDays"));
        const QJsonObject s = array.at(i).toObject();
        PipelineStage st;
        const QJsonValue nameValue = s.value(QLatin1String("name"));
        const QJsonValue keyValue = s.value(QLatin1String("key"));
        if ((!nameValue.isUndefined() && !nameValue.isString()) || (!keyValue.isUndefined() && !keyValue.isString()))
            badRequest(field, QStringLiteral("name and key must be strings"));
        st.name = nameValue.toString().trimmed();
        st.key = keyValue.toString().trimmed();
        if (st.key.isEmpty())
            st.key = slug(st.name);
        if (st.name.isEmpty())
            st.name = st.key;
        if (st.key.isEmpty())
            missing(field + QStringLiteral(".name"));
        if (!isKey(st.key))
            badRequest(field + QStringLiteral(".key"),
                       QStringLiteral("must be 1 to 40 lower-case letters, digits or underscores"));
        if (st.name.size() > 100)
            badRequest(field + QStringLiteral(".name"), QStringLiteral("must be at most 100 characters"));
        if (keys.contains(st.key))
            badRequest(field + QStringLiteral(".key"), QStringLiteral("repeats the stage %1").arg(st.key));
        keys.insert(st.key);
        const QJsonValue p = s.value(QLatin1String("probability"));
        st.probability = -1;
        if (!p.isUndefined() && !p.isNull()) {
            const double d = p.toDouble(-1);
            if (!p.isDouble() || d < 0 || d > 100 || d != std::floor(d))
                badRequest(field + QStringLiteral(".probability"), QStringLiteral("must be an integer from 0 to 100"));
            st.probability = int(d);
        }
        const QJsonValue r = s.value(QLatin1String("rottenDays"));
        if (!r.isUndefined() && !r.isNull()) {
            const double d = r.toDouble(-1);
            if (!r.isDouble() || d < 0 || d > 3650 || d != std::floor(d))
                badRequest(field + QStringLiteral(".rottenDays"),
                           QStringLiteral("must be an integer from 0 to 3650 (0: never)"));
            st.rottenDays = int(d);
        }
        if (st.key == QLatin1String("won")) {
            won.name = st.name;
        } else if (st.key == QLatin1String("lost")) {
            lost.name = st.name;
        } else {
            st.kind = QStringLiteral("open");
            open.append(st);
        }
    }
    if (open.isEmpty())
        missing(QStringLiteral("stages"), QStringLiteral("needs at least one open stage besides won and lost"));
    if (open.size() > 30)
        badRequest(QStringLiteral("stages"), QStringLiteral("must have at most 30 open stages"));
    // A stage without a probability gets one spread evenly between 0 and 100 by its position.
    for (int i = 0; i < open.size(); ++i) {
        if (open[i].probability < 0)
            open[i].probability = (i + 1) * 100 / (int(open.size()) + 1);
    }
    open << won << lost;
    for (int i = 0; i < open.size(); ++i)
        open[i].position = i;
    return open;
}

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
            QStringLiteral("A pipeline named %1 already exists").arg(name),
            {{QStringLiteral("name"), QStringLiteral("already exists")}, {QStringLiteral("existingId"), other}});
    }
    q.finish();
}

std::optional<bool> isDefaultFlag(const QJsonObject &body)
{
    const QJsonValue v = body.value(QLatin1String("isDefault"));
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isBool())
        badRequest(QStringLiteral("isDefault"), QStringLiteral("must be a boolean"));
    return v.toBool();
}

void makeDefault(const QString &id)
{
    Database::execCached(QStringLiteral("UPDATE pipelines SET is_default = (id = ?)"), {id});
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
        throw DomainError::notFound(QStringLiteral("Pipeline"), id);
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

Pipeline PipelineRepository::create(const QJsonObject &body)
{
    Pipeline p;
    p.name = name(body, true);
    if (!body.contains(QLatin1String("stages")) || body.value(QLatin1String("stages")).isNull())
        missing(QStringLiteral("stages"));
    p.stages = parseStages(body.value(QLatin1String("stages")));
    const std::optional<bool> isDefault = isDefaultFlag(body);
    p.id = Ids::make(u"pipeline");
    p.createdAt = p.updatedAt = m_store.nowIso();
    Transaction tx;
    checkUniqueName(p.name, p.id);
    Database::execCached(QStringLiteral("INSERT INTO pipelines (id, name, name_norm, is_default, created_at, "
                                        "updated_at) VALUES (?, ?, ?, 0, ?, ?)"),
                         {p.id, p.name, p.name.toLower(), p.createdAt, p.updatedAt});
    writeStages(p.id, p.stages);
    if (isDefault.value_or(false))
        makeDefault(p.id);
    tx.commit();
    m_store.notify(EventBus::Entity::Pipeline, p.id, EventBus::Change::Created);
    return get(p.id);
}

Pipeline PipelineRepository::update(const QString &id, const QJsonObject &body)
{
    const QString newName = name(body, false);
    const std::optional<bool> isDefault = isDefaultFlag(body);
    std::optional<QVector<PipelineStage>> stages;
    if (body.contains(QLatin1String("stages")))
        stages = parseStages(body.value(QLatin1String("stages")));
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
                              QStringLiteral("There must be a default pipeline: make another pipeline the default"),
                              {{QStringLiteral("isDefault"), QStringLiteral("cannot be unset directly")}});
    }
    if (stages) {
        QSet<QString> keep;
        for (const PipelineStage &s : *stages)
            keep.insert(s.key);
        const QHash<QString, qint64> counts = dealCounts(id);
        QJsonObject holding;
        for (const PipelineStage &s : before.stages) {
            if (!keep.contains(s.key) && counts.value(s.key) > 0)
                holding.insert(s.key, QStringLiteral("holds %1 deal(s)").arg(counts.value(s.key)));
        }
        if (!holding.isEmpty())
            throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                              QStringLiteral("A stage that still holds deals cannot be removed: move its deals first"),
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
    m_store.notify(EventBus::Entity::Pipeline, id, EventBus::Change::Updated);
    return get(id);
}

void PipelineRepository::remove(const QString &id)
{
    Transaction tx;
    const Pipeline p = get(id);
    if (p.isDefault)
        throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                          QStringLiteral("The default pipeline cannot be deleted: make another pipeline the default"));
    qint64 total = 0;
    for (qint64 n : dealCounts(id))
        total += n;
    if (total > 0)
        throw DomainError(
            DomainError::Conflict, QStringLiteral("CONFLICT"),
            QStringLiteral("Pipeline %1 holds %2 deal(s): move or delete them first").arg(p.name).arg(total),
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
