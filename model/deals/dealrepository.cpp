#include "model/deals/dealrepository.h"

#include "model/core/csv.h"

#include "model/accounts/userrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/fieldreader.h"
#include "model/core/ids.h"
#include "model/core/outbox.h"
#include "model/core/sqldialect.h"
#include "model/core/textfold.h"
#include "model/core/timeutil.h"
#include "model/deals/pipelinerepository.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QSqlQuery>

#include <algorithm>
#include <cmath>

namespace {
using SqlValue::text;
using SqlValue::textOrNull;

const QString kSelect = QStringLiteral(
    "SELECT d.seq, d.id, d.name, d.value, d.currency, d.pipeline_id, d.stage, d.probability, d.contact_id, "
    "d.assigned_to, d.expected_close_date, d.description, d.custom_fields, d.closed_value, d.closed_at, "
    "d.lost_reason, d.competitor_name, d.last_activity_at, d.created_at, d.updated_at, c.first_name, c.last_name, "
    "c.company, c.email, c.phone, u.name FROM deals d LEFT JOIN contacts c ON c.id = d.contact_id "
    "LEFT JOIN users u ON u.id = d.assigned_to");

QString compact(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QVariant numberOrNull(const std::optional<double> &v)
{
    return v ? QVariant(*v) : QVariant(QMetaType(QMetaType::Double));
}

double money(double v)
{
    return std::round(v * 100.0) / 100.0;
}

Deal dealFromRow(SqlRowReader r)
{
    Deal d;
    d.seq = r.integer();
    d.id = r.text();
    d.name = r.text();
    d.value = r.real();
    d.currency = r.text();
    d.pipelineId = r.text();
    d.stage = r.text();
    d.probability = int(r.integer());
    d.contactId = r.text();
    d.assignedTo = r.text();
    d.expectedCloseDate = r.text();
    d.description = r.text();
    d.customFields = r.jsonObject();
    d.closedValue = r.realOrNull();
    d.closedAt = r.text();
    d.lostReason = r.text();
    d.competitorName = r.text();
    d.lastActivityAt = r.text();
    d.createdAt = r.text();
    d.updatedAt = r.text();
    d.contactFirstName = r.text();
    d.contactLastName = r.text();
    d.contactCompany = r.text();
    d.contactEmail = r.text();
    const QString contactPhone = r.text();
    const QString name = (d.contactFirstName + QLatin1Char(' ') + d.contactLastName).trimmed();
    d.contactName = !name.isEmpty() ? name : (!d.contactEmail.isEmpty() ? d.contactEmail : contactPhone);
    d.assignedName = r.text();
    return d;
}

// Stages that rot: pipeline id -> stage key -> days.
QHash<QString, QHash<QString, int>> rottingStages()
{
    QHash<QString, QHash<QString, int>> out;
    CachedQuery q = Database::execCached(QStringLiteral(
        "SELECT pipeline_id, key, rotten_days FROM pipeline_stages WHERE rotten_days > 0 AND kind = 'open'"));
    while (q.next())
        out[q.value(0).toString()].insert(q.value(1).toString(), q.value(2).toInt());
    q.finish();
    return out;
}

QString rotCutoff(const QDateTime &now, int days)
{
    return TimeUtil::iso(now.addSecs(-qint64(days) * 86400));
}

void markRotten(QVector<Deal> &deals, const QDateTime &now)
{
    const auto rotting = rottingStages();
    for (Deal &d : deals) {
        const int days = rotting.value(d.pipelineId).value(d.stage);
        d.isRotten = days > 0 && d.lastActivityAt < rotCutoff(now, days);
    }
}

struct Filter
{
    QString where;
    QVariantList values;
};

Filter buildFilter(const DealQuery &query, const QDateTime &now)
{
    Filter f;
    QStringList clauses;
    if (!query.pipelineId.isEmpty()) {
        clauses << QStringLiteral("d.pipeline_id = ?");
        f.values << query.pipelineId;
    }
    if (!query.stages.isEmpty()) {
        QStringList marks;
        for (const QString &s : query.stages) {
            marks << QStringLiteral("?");
            f.values << s;
        }
        clauses << QStringLiteral("d.stage IN (%1)").arg(marks.join(QLatin1Char(',')));
    }
    if (!query.assignedTo.isEmpty()) {
        clauses << QStringLiteral("d.assigned_to = ?");
        f.values << query.assignedTo;
    }
    if (!query.contactId.isEmpty()) {
        clauses << QStringLiteral("d.contact_id = ?");
        f.values << query.contactId;
    }
    if (!query.currency.isEmpty()) {
        clauses << QStringLiteral("d.currency = ?");
        f.values << query.currency;
    }
    if (const QString words = SqlDialect::wordsBeginFolded(QStringLiteral("d.name"), query.search, &f.values);
        !words.isEmpty())
        clauses << words;
    if (!query.closedSince.isEmpty()) {
        clauses << QStringLiteral("d.closed_at >= ?");
        f.values << query.closedSince;
    }
    if (query.minValue) {
        clauses << QStringLiteral("d.value >= ?");
        f.values << *query.minValue;
    }
    if (query.maxValue) {
        clauses << QStringLiteral("d.value <= ?");
        f.values << *query.maxValue;
    }
    if (query.rotten) {
        // Rotting is relative to now and per stage: the cut-off of each rotting stage is computed
        // here, which keeps the SQL portable (no date arithmetic in the database).
        QStringList parts;
        const auto rotting = rottingStages();
        for (auto p = rotting.begin(); p != rotting.end(); ++p) {
            for (auto s = p.value().begin(); s != p.value().end(); ++s) {
                parts << QStringLiteral("(d.pipeline_id = ? AND d.stage = ? AND d.last_activity_at < ?)");
                f.values << p.key() << s.key() << rotCutoff(now, s.value());
            }
        }
        const QString any = parts.isEmpty() ? QStringLiteral("1 = 0")
                                            : QLatin1Char('(') + parts.join(QStringLiteral(" OR ")) + QLatin1Char(')');
        clauses << (*query.rotten ? any : QStringLiteral("NOT ") + any);
    }
    if (!clauses.isEmpty())
        f.where = QStringLiteral(" WHERE ") + clauses.join(QStringLiteral(" AND "));
    return f;
}

[[noreturn]] void unprocessable(const QString &field, const ModelText &message)
{
    throw DomainError::unprocessable(
        ModelText(QT_TRANSLATE_NOOP("ModelError", "%1 %2"), {ModelTextArg::field(field), message}), {{field, message}});
}

void checkExists(const QString &table, const QString &field, const QString &id)
{
    if (id.isEmpty())
        return;
    CachedQuery q = Database::execCached(QStringLiteral("SELECT 1 FROM %1 WHERE id = ?").arg(table), {id});
    const bool found = q.next();
    q.finish();
    if (!found)
        unprocessable(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "does not exist: %1"), {id}));
}

QJsonObject eventData(const Deal &d)
{
    QJsonObject data = d.toJson();
    data.insert(QStringLiteral("dealId"), d.id);
    return data;
}

// Keeps deal_totals in step with one deal entering (sign +1) or leaving (sign -1) its
// (pipeline, stage, currency) group. A group whose count falls to zero is dropped, so that
// rounding left by additions and subtractions of its values never outlives it.
void addTotals(const Deal &d, int sign)
{
    const double value = d.effectiveValue();
    Database::execCached(
        QStringLiteral("INSERT INTO deal_totals (pipeline_id, stage, currency, deals, value, weighted) "
                       "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (pipeline_id, stage, currency) DO UPDATE SET "
                       "deals = deal_totals.deals + excluded.deals, value = deal_totals.value + excluded.value, "
                       "weighted = deal_totals.weighted + excluded.weighted"),
        {d.pipelineId, d.stage, d.currency, sign, sign * value, sign * value * d.probability / 100.0});
    if (sign < 0)
        Database::execCached(QStringLiteral("DELETE FROM deal_totals WHERE pipeline_id = ? AND stage = ? AND "
                                            "currency = ? AND deals <= 0"),
                             {d.pipelineId, d.stage, d.currency});
}

void insertRow(Deal &d)
{
    d.seq = Database::insert(
        QStringLiteral(
            "INSERT INTO deals (id, name, value, currency, pipeline_id, stage, probability, contact_id, assigned_to, "
            "expected_close_date, description, custom_fields, closed_value, closed_at, lost_reason, competitor_name, "
            "last_activity_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?)"),
        {d.id, d.name, d.value, d.currency, d.pipelineId, d.stage, d.probability, textOrNull(d.contactId),
         textOrNull(d.assignedTo), textOrNull(d.expectedCloseDate), text(d.description), compact(d.customFields),
         numberOrNull(d.closedValue), textOrNull(d.closedAt), textOrNull(d.lostReason), textOrNull(d.competitorName),
         d.lastActivityAt, d.createdAt, d.updatedAt});
    addTotals(d, +1);
}

// before: the stored row that d replaces (read in the same transaction).
void updateRow(const Deal &d, const Deal &before)
{
    addTotals(before, -1);
    addTotals(d, +1);
    Database::execCached(
        QStringLiteral(
            "UPDATE deals SET name = ?, value = ?, currency = ?, pipeline_id = ?, stage = ?, probability = ?, "
            "contact_id = ?, assigned_to = ?, expected_close_date = ?, description = ?, custom_fields = ?, "
            "closed_value = ?, closed_at = ?, lost_reason = ?, competitor_name = ?, last_activity_at = ?, "
            "updated_at = ? WHERE seq = ?"),
        {d.name, d.value, d.currency, d.pipelineId, d.stage, d.probability, textOrNull(d.contactId),
         textOrNull(d.assignedTo), textOrNull(d.expectedCloseDate), text(d.description), compact(d.customFields),
         numberOrNull(d.closedValue), textOrNull(d.closedAt), textOrNull(d.lostReason), textOrNull(d.competitorName),
         d.lastActivityAt, d.updatedAt, d.seq});
}

DealActivity insertActivity(const Deal &d, const QString &type, const QString &content, const QString &from,
                            const QString &to, const QString &actor, const QString &at)
{
    DealActivity a{Ids::make(u"act"), d.id, type, content, from, to, actor, UserRepository::actorName(actor), at};
    Database::execCached(QStringLiteral("INSERT INTO deal_activities (id, deal_seq, type, content, from_stage, "
                                        "to_stage, user_id, user_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                         {a.id, d.seq, a.type, text(a.content), textOrNull(a.from), textOrNull(a.to),
                          textOrNull(a.userId), textOrNull(a.userName), a.createdAt});
    return a;
}

// Puts d into stage `to` of its pipeline: the stage's default probability (100 for won, 0 for
// lost) and the closing fields. Reopening a closed deal clears them.
void enterStage(Deal &d, const PipelineStage &to, const QString &now)
{
    d.stage = to.key;
    d.probability = to.probability;
    if (to.kind == QLatin1String("won")) {
        d.probability = 100;
        d.closedAt = now;
        d.lostReason.clear();
        d.competitorName.clear();
    } else if (to.kind == QLatin1String("lost")) {
        d.probability = 0;
        d.closedAt = now;
        d.closedValue.reset();
    } else {
        d.closedAt.clear();
        d.closedValue.reset();
        d.lostReason.clear();
        d.competitorName.clear();
    }
}

// The events of a stage move: deal.stage_changed, and deal.won / deal.lost when it closes the deal.
void stageEvents(const Store &store, const Deal &d, const QString &from, const QString &note)
{
    QJsonObject data = eventData(d);
    data.insert(QStringLiteral("from"), from);
    data.insert(QStringLiteral("to"), d.stage);
    data.insert(QStringLiteral("note"), note.isEmpty() ? QJsonValue() : QJsonValue(note));
    store.appendEvent(QStringLiteral("deal.stage_changed"), data);
    if (d.stage == QLatin1String("won")) {
        QJsonObject won = eventData(d);
        won.insert(QStringLiteral("note"), note.isEmpty() ? QJsonValue() : QJsonValue(note));
        store.appendEvent(QStringLiteral("deal.won"), won);
    } else if (d.stage == QLatin1String("lost")) {
        QJsonObject lost = eventData(d);
        lost.insert(QStringLiteral("reason"), d.lostReason.isEmpty() ? QJsonValue() : QJsonValue(d.lostReason));
        lost.insert(QStringLiteral("note"), note.isEmpty() ? QJsonValue() : QJsonValue(note));
        store.appendEvent(QStringLiteral("deal.lost"), lost);
    }
}

const PipelineStage &stageOf(const Pipeline &p, const QString &key, const QString &field = QStringLiteral("stage"))
{
    const PipelineStage *s = p.stage(key);
    if (!s)
        unprocessable(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be one of the stages of pipeline %1: %2"),
                                       {p.name, p.stageKeys().join(QStringLiteral(", "))}));
    return *s;
}

Pipeline pipelineFor(const Store &store, const QString &id, const QString &field = QStringLiteral("pipelineId"))
{
    PipelineRepository pipelines(store);
    if (id.isEmpty())
        return pipelines.defaultPipeline();
    std::optional<Pipeline> p = pipelines.find(id);
    if (!p)
        unprocessable(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "does not exist: %1"), {id}));
    return *p;
}
} // namespace

QJsonObject CurrencyTotals::summaryJson() const
{
    return QJsonObject{{QStringLiteral("currency"), currency.isEmpty() ? QJsonValue() : QJsonValue(currency)},
                       {QStringLiteral("totalDeals"), totalDeals},
                       {QStringLiteral("totalValue"), money(totalValue)},
                       {QStringLiteral("weightedValue"), money(weightedValue)},
                       {QStringLiteral("avgDealSize"), money(avgDealSize)},
                       {QStringLiteral("wonDeals"), wonDeals},
                       {QStringLiteral("wonValue"), money(wonValue)},
                       {QStringLiteral("lostDeals"), lostDeals},
                       {QStringLiteral("lostValue"), money(lostValue)}};
}

QJsonArray CurrencyTotals::stagesJson() const
{
    QJsonArray out;
    for (const StageTotals &s : stages) {
        out.append(QJsonObject{{QStringLiteral("stage"), s.stage},
                               {QStringLiteral("name"), s.name},
                               {QStringLiteral("type"), s.kind},
                               {QStringLiteral("count"), s.count},
                               {QStringLiteral("value"), money(s.value)},
                               {QStringLiteral("weightedValue"), money(s.weightedValue)}});
    }
    return out;
}

PipelineSummary PipelineSummary::build(const Pipeline &pipeline, const QVector<SummaryRow> &rows,
                                       const QString &currency)
{
    PipelineSummary s;
    s.pipeline = pipeline;
    s.stageCounts.fill(0, pipeline.stages.size());
    CurrencyTotals empty;
    for (const PipelineStage &st : pipeline.stages)
        empty.stages.append({st.key, st.name, st.kind, 0, 0, 0});
    QMap<QString, CurrencyTotals> byCurrency; // alphabetical
    for (const SummaryRow &row : rows) {
        int index = -1;
        for (int i = 0; i < pipeline.stages.size(); ++i) {
            if (pipeline.stages.at(i).key == row.stage)
                index = i;
        }
        if (index < 0)
            continue;
        auto it = byCurrency.find(row.currency);
        if (it == byCurrency.end()) {
            it = byCurrency.insert(row.currency, empty);
            it->currency = row.currency;
        }
        StageTotals &st = it->stages[index];
        st.count += row.count;
        st.value += row.value;
        st.weightedValue += row.weightedValue;
        s.stageCounts[index] += row.count;
    }
    for (CurrencyTotals &c : byCurrency) {
        for (const StageTotals &st : c.stages) {
            if (st.kind == QLatin1String("won")) {
                c.wonDeals += st.count;
                c.wonValue += st.value;
            } else if (st.kind == QLatin1String("lost")) {
                c.lostDeals += st.count;
                c.lostValue += st.value;
            } else {
                c.totalDeals += st.count;
                c.totalValue += st.value;
                c.weightedValue += st.weightedValue;
            }
        }
        c.avgDealSize = c.totalDeals > 0 ? c.totalValue / double(c.totalDeals) : 0;
        s.byCurrency.append(c);
    }
    s.currency = currency;
    if (s.currency.isEmpty()) {
        // The currency most open deals use; with no open deal, the one most deals use.
        qint64 best = -1;
        for (const CurrencyTotals &c : std::as_const(s.byCurrency)) {
            const qint64 n = c.totalDeals * 1000000000LL + c.wonDeals + c.lostDeals;
            if (n > best) {
                best = n;
                s.currency = c.currency;
            }
        }
    }
    s.reporting = byCurrency.value(s.currency, empty);
    s.reporting.currency = s.currency;
    return s;
}

QJsonObject PipelineSummary::toJson() const
{
    QJsonArray currencies;
    QJsonArray groups;
    for (const CurrencyTotals &c : byCurrency) {
        currencies.append(c.currency);
        groups.append(QJsonObject{{QStringLiteral("currency"), c.currency},
                                  {QStringLiteral("stages"), c.stagesJson()},
                                  {QStringLiteral("summary"), c.summaryJson()}});
    }
    QJsonArray counts;
    qint64 open = 0;
    for (int i = 0; i < pipeline.stages.size(); ++i) {
        counts.append(QJsonObject{{QStringLiteral("stage"), pipeline.stages.at(i).key},
                                  {QStringLiteral("count"), stageCounts.value(i)}});
        if (pipeline.stages.at(i).isOpen())
            open += stageCounts.value(i);
    }
    return QJsonObject{
        {QStringLiteral("pipelineId"), pipeline.id},
        {QStringLiteral("pipelineName"), pipeline.name},
        {QStringLiteral("currency"), currency.isEmpty() ? QJsonValue() : QJsonValue(currency)},
        {QStringLiteral("currencies"), currencies},
        {QStringLiteral("stages"), reporting.stagesJson()},
        {QStringLiteral("summary"), reporting.summaryJson()},
        {QStringLiteral("byCurrency"), groups},
        {QStringLiteral("allCurrencies"),
         QJsonObject{{QStringLiteral("openDeals"), open}, {QStringLiteral("stages"), counts}}},
    };
}

DealRepository::DealRepository(const Store &store)
    : m_store(store)
{
}

Deal DealRepository::create(DealChanges ch, const QString &actor)
{
    DealRules::check(ch);
    if (!ch.name || ch.name->isEmpty())
        unprocessable(QStringLiteral("name"), ModelText(QT_TRANSLATE_NOOP("ModelError", "is required")));
    Transaction tx;
    const Pipeline pipeline = pipelineFor(m_store, ch.pipelineId.value_or(QString()));
    Deal d;
    d.name = *ch.name;
    d.value = ch.value.value_or(0);
    d.currency = ch.currency.value_or(QStringLiteral("TRY"));
    d.pipelineId = pipeline.id;
    QString firstOpen;
    for (const PipelineStage &s : pipeline.stages) {
        if (s.isOpen()) {
            firstOpen = s.key;
            break;
        }
    }
    const PipelineStage &stage = stageOf(pipeline, ch.stage.value_or(firstOpen));
    d.contactId = ch.contactId.value_or(QString());
    d.assignedTo = ch.assignedTo ? *ch.assignedTo : (actor.startsWith(QLatin1String("user_")) ? actor : QString());
    checkExists(QStringLiteral("contacts"), QStringLiteral("contactId"), d.contactId);
    checkExists(QStringLiteral("users"), QStringLiteral("assignedTo"), d.assignedTo);
    d.expectedCloseDate = ch.expectedCloseDate.value_or(QString());
    d.description = ch.description.value_or(QString());
    d.customFields = ch.customFields.value_or(QJsonObject());
    d.id = Ids::make(u"deal");
    d.createdAt = d.updatedAt = d.lastActivityAt = m_store.nowIso();
    enterStage(d, stage, d.createdAt);
    if (ch.probability && stage.isOpen())
        d.probability = *ch.probability;
    insertRow(d);
    // The first activity: where the deal entered the pipeline.
    insertActivity(d, QStringLiteral("stage_change"), ch.note.value_or(QString()), QString(), d.stage,
                   m_store.actorOr(actor), d.createdAt);
    d = get(d.id);
    m_store.appendEvent(QStringLiteral("deal.created"), eventData(d));
    tx.commit();
    m_store.notify(EventBus::Entity::Deal, d.id, EventBus::Change::Created);
    return d;
}

Deal DealRepository::update(const QString &id, DealChanges ch, const QString &actor)
{
    DealRules::check(ch);
    if (ch.name && ch.name->isEmpty())
        unprocessable(QStringLiteral("name"), ModelText(QT_TRANSLATE_NOOP("ModelError", "is required")));
    Transaction tx;
    const Deal before = get(id);
    Deal d = before;
    Pipeline pipeline = pipelineFor(m_store, ch.pipelineId.value_or(d.pipelineId));
    if (ch.name)
        d.name = *ch.name;
    if (ch.value)
        d.value = *ch.value;
    if (ch.currency)
        d.currency = *ch.currency;
    if (ch.contactId) {
        d.contactId = *ch.contactId;
        checkExists(QStringLiteral("contacts"), QStringLiteral("contactId"), d.contactId);
    }
    if (ch.assignedTo) {
        d.assignedTo = *ch.assignedTo;
        checkExists(QStringLiteral("users"), QStringLiteral("assignedTo"), d.assignedTo);
    }
    if (ch.expectedCloseDate)
        d.expectedCloseDate = *ch.expectedCloseDate;
    if (ch.description)
        d.description = *ch.description;
    if (ch.customFields)
        d.customFields = *ch.customFields;
    d.pipelineId = pipeline.id;
    // A deal moved to another pipeline keeps its stage when that pipeline has it, else it starts
    // at the first open stage.
    QString target = ch.stage.value_or(d.stage);
    if (!ch.stage && !pipeline.stage(target)) {
        for (const PipelineStage &s : pipeline.stages) {
            if (s.isOpen()) {
                target = s.key;
                break;
            }
        }
    }
    const PipelineStage &stage = stageOf(pipeline, target);
    const bool moved = stage.key != before.stage || pipeline.id != before.pipelineId;
    const QString at = m_store.nowIso();
    if (stage.key != before.stage)
        enterStage(d, stage, at);
    if (ch.probability) {
        if (!stage.isOpen() && *ch.probability != d.probability)
            unprocessable(QStringLiteral("probability"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "of a %1 deal is %2"), {stage.key, d.probability}));
        d.probability = *ch.probability;
    }
    QJsonArray changed =
        Outbox::changedFields(before.toJson(), d.toJson(), {QStringLiteral("contact"), QStringLiteral("assignedTo")});
    if (d.assignedTo != before.assignedTo)
        changed.append(QStringLiteral("assignedTo"));
    if (changed.isEmpty())
        return before; // nothing to store, no event
    d.updatedAt = d.lastActivityAt = at;
    updateRow(d, before);
    if (moved)
        insertActivity(d, QStringLiteral("stage_change"), ch.note.value_or(QString()), before.stage, d.stage,
                       m_store.actorOr(actor), at);
    d = get(id);
    QJsonObject data = eventData(d);
    data.insert(QStringLiteral("changedFields"), changed);
    m_store.appendEvent(QStringLiteral("deal.updated"), data);
    if (moved)
        stageEvents(m_store, d, before.stage, ch.note.value_or(QString()));
    tx.commit();
    m_store.notify(EventBus::Entity::Deal, d.id, EventBus::Change::Updated);
    return d;
}

void DealRepository::remove(const QString &id, const QString &actor)
{
    Q_UNUSED(actor);
    Transaction tx;
    const Deal d = get(id);
    // The deal's tasks stay, unlinked (tasks.deal_id has no foreign key: the areas migrate separately).
    QStringList unlinked;
    {
        QSqlQuery q = Database::exec(QStringLiteral("SELECT id FROM tasks WHERE deal_id = ?"), {d.id});
        while (q.next())
            unlinked << q.value(0).toString();
    }
    if (!unlinked.isEmpty()) {
        Database::exec(QStringLiteral("UPDATE tasks SET deal_id = NULL, updated_at = ? WHERE deal_id = ?"),
                       {m_store.nowIso(), d.id});
        for (const QString &taskId : std::as_const(unlinked)) {
            m_store.appendEvent(QStringLiteral("task.updated"),
                                QJsonObject{{QStringLiteral("taskId"), taskId},
                                            {QStringLiteral("dealId"), QJsonValue::Null},
                                            {QStringLiteral("previousDealId"), d.id},
                                            {QStringLiteral("changedFields"), QJsonArray{QStringLiteral("dealId")}}});
        }
    }
    Database::execCached(QStringLiteral("DELETE FROM deals WHERE seq = ?"), {d.seq});
    addTotals(d, -1);
    m_store.appendEvent(QStringLiteral("deal.deleted"), eventData(d));
    tx.commit();
    m_store.notify(EventBus::Entity::Deal, d.id, EventBus::Change::Deleted);
    for (const QString &taskId : std::as_const(unlinked))
        m_store.notify(EventBus::Entity::Task, taskId, EventBus::Change::Updated);
}

std::optional<Deal> DealRepository::find(const QString &id) const
{
    CachedQuery q = Database::execCached(kSelect + QStringLiteral(" WHERE d.id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    QVector<Deal> one{dealFromRow(q)};
    q.finish();
    markRotten(one, m_store.now());
    return one.first();
}

Deal DealRepository::get(const QString &id) const
{
    std::optional<Deal> d = find(id);
    if (!d)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Deal"), id);
    return *d;
}

DealPage DealRepository::list(const DealQuery &query) const
{
    const ReadTransaction snapshot; // the page and its total agree
    DealPage page;
    const QDateTime t = m_store.now();
    const Filter f = buildFilter(query, t);
    QVariantList values = f.values;
    const int limit = qBound(1, query.limit, 1000);
    const qint64 offset = qint64(qMax(1, query.page) - 1) * limit;
    values << limit << offset;
    const QString order = query.boardOrder
                              ? QStringLiteral(" ORDER BY coalesce(d.expected_close_date, '9999-12-31'), d.seq")
                              : QStringLiteral(" ORDER BY d.created_at DESC, d.seq DESC");
    CachedQuery q = Database::execCached(kSelect + f.where + order + QStringLiteral(" LIMIT ? OFFSET ?"), values);
    while (q.next())
        page.items.append(dealFromRow(q));
    q.finish();
    markRotten(page.items, t);
    page.total = count(query);
    return page;
}

QVector<Deal> DealRepository::search(const QString &text, int limit) const
{
    const QStringList wanted = TextFold::words(TextFold::fold(text));
    limit = qBound(1, limit, 1000);
    QVector<Deal> found;
    const ReadTransaction snapshot;
    // Newest changes first; every word typed must begin a word of the deal's name, its contact's
    // name or company. Folded in C++ (Turkish i, accents), as contacts' search folds its index.
    CachedQuery q = Database::execCached(kSelect + QStringLiteral(" ORDER BY d.updated_at DESC, d.seq DESC"));
    while (found.size() < limit && q.next()) {
        if (!wanted.isEmpty()) {
            const QStringList words = TextFold::words(
                TextFold::fold(q.value(2).toString() + QLatin1Char(' ') + q.value(20).toString() + QLatin1Char(' ') +
                               q.value(21).toString() + QLatin1Char(' ') + q.value(22).toString()));
            const bool all = std::all_of(wanted.begin(), wanted.end(), [&words](const QString &w) {
                return std::any_of(words.begin(), words.end(), [&w](const QString &x) { return x.startsWith(w); });
            });
            if (!all)
                continue;
        }
        found.append(dealFromRow(q));
    }
    q.finish();
    markRotten(found, m_store.now());
    return found;
}

qint64 DealRepository::count(const DealQuery &query) const
{
    const Filter f = buildFilter(query, m_store.now());
    CachedQuery q = Database::execCached(QStringLiteral("SELECT count(*) FROM deals d") + f.where, f.values);
    const qint64 n = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return n;
}

Deal DealRepository::moveStage(const QString &id, const QString &stage, const QString &note, const QString &actor)
{
    Transaction tx;
    const Deal before = get(id);
    const Pipeline pipeline = pipelineFor(m_store, before.pipelineId);
    const PipelineStage &to = stageOf(pipeline, stage);
    if (to.key == before.stage)
        return before;
    return changeStage(tx, before, to, note, actor, {});
}

Deal DealRepository::markWon(const QString &id, std::optional<double> closedValue, const QString &note,
                             const QString &actor)
{
    Transaction tx;
    const Deal before = get(id);
    if (before.stage == QLatin1String("won"))
        throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Deal %1 is already won"), {id}));
    const Pipeline pipeline = pipelineFor(m_store, before.pipelineId);
    return changeStage(tx, before, stageOf(pipeline, QStringLiteral("won")), note, actor,
                       [&](Deal &d) { d.closedValue = closedValue; });
}

Deal DealRepository::markLost(const QString &id, const QString &reason, const QString &competitorName,
                              const QString &note, const QString &actor)
{
    if (reason.trimmed().isEmpty())
        unprocessable(QStringLiteral("reason"), ModelText(QT_TRANSLATE_NOOP("ModelError", "is required: one of %1"),
                                                          {DealRules::lostReasons().join(QStringLiteral(", "))}));
    if (!DealRules::lostReasons().contains(reason))
        throw DomainError::invalid(QStringLiteral("reason"), FieldReader::oneOf(DealRules::lostReasons()));
    if (competitorName.size() > 200)
        throw DomainError::invalid(QStringLiteral("competitorName"),
                                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {200}));
    Transaction tx;
    const Deal before = get(id);
    if (before.stage == QLatin1String("lost"))
        throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Deal %1 is already lost"), {id}));
    const Pipeline pipeline = pipelineFor(m_store, before.pipelineId);
    return changeStage(tx, before, stageOf(pipeline, QStringLiteral("lost")), note, actor, [&](Deal &d) {
        d.lostReason = reason;
        d.competitorName = competitorName.trimmed();
    });
}

Deal DealRepository::changeStage(Transaction &tx, const Deal &before, const PipelineStage &to, const QString &note,
                                 const QString &actor, const std::function<void(Deal &)> &closing)
{
    Deal d = before;
    const QString at = m_store.nowIso();
    enterStage(d, to, at);
    if (closing)
        closing(d);
    d.updatedAt = d.lastActivityAt = at;
    updateRow(d, before);
    insertActivity(d, QStringLiteral("stage_change"), note, before.stage, d.stage, m_store.actorOr(actor), at);
    d = get(before.id);
    stageEvents(m_store, d, before.stage, note);
    tx.commit();
    m_store.notify(EventBus::Entity::Deal, d.id, EventBus::Change::Updated);
    return d;
}

DealActivity DealRepository::addActivity(const QString &id, const QString &type, const QString &content,
                                         const QString &actor)
{
    const QString allowed = DealRules::activityTypes().join(QStringLiteral(", "));
    if (type.trimmed().isEmpty())
        unprocessable(QStringLiteral("type"),
                      ModelText(QT_TRANSLATE_NOOP("ModelError", "is required: one of %1"), {allowed}));
    if (!DealRules::activityTypes().contains(type))
        throw DomainError::invalid(QStringLiteral("type"), FieldReader::oneOf(DealRules::activityTypes()));
    const QString body = content.trimmed();
    if (body.isEmpty())
        unprocessable(QStringLiteral("content"), ModelText(QT_TRANSLATE_NOOP("ModelError", "is required")));
    if (body.size() > 20000)
        throw DomainError::invalid(
            QStringLiteral("content"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {20000}));
    Transaction tx;
    Deal d = get(id);
    const QString at = m_store.nowIso();
    const DealActivity a = insertActivity(d, type, body, QString(), QString(), m_store.actorOr(actor), at);
    d.updatedAt = d.lastActivityAt = at;
    d.isRotten = false;
    Database::execCached(QStringLiteral("UPDATE deals SET updated_at = ?, last_activity_at = ? WHERE seq = ?"),
                         {at, at, d.seq});
    QJsonObject data = eventData(d);
    data.insert(QStringLiteral("changedFields"), QJsonArray{QStringLiteral("activities")});
    data.insert(QStringLiteral("activity"), a.toJson());
    m_store.appendEvent(QStringLiteral("deal.updated"), data);
    tx.commit();
    m_store.notify(EventBus::Entity::Deal, d.id, EventBus::Change::Updated);
    return a;
}

QVector<DealActivity> DealRepository::activities(const QString &id) const
{
    const Deal d = get(id);
    QVector<DealActivity> out;
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT id, type, content, from_stage, to_stage, user_id, user_name, created_at "
                       "FROM deal_activities WHERE deal_seq = ? ORDER BY seq DESC"),
        {d.seq});
    while (q.next())
        out.append({q.value(0).toString(), d.id, q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
                    q.value(4).toString(), q.value(5).toString(), q.value(6).toString(), q.value(7).toString()});
    q.finish();
    return out;
}

PipelineSummary DealRepository::summary(const QString &pipelineId, const QString &currency) const
{
    const Pipeline pipeline = pipelineFor(m_store, pipelineId);
    QVector<SummaryRow> rows;
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT stage, currency, deals, value, weighted FROM deal_totals WHERE pipeline_id = ?"),
        {pipeline.id});
    while (q.next())
        rows.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toLongLong(), q.value(3).toDouble(),
                     q.value(4).toDouble()});
    q.finish();
    return PipelineSummary::build(pipeline, rows, currency);
}

QJsonArray DealRepository::forContact(const QString &contactId) const
{
    QJsonArray out;
    Database::select(
        QStringLiteral("SELECT id, name, value, currency, stage, pipeline_id FROM deals WHERE contact_id = ? "
                       "ORDER BY created_at DESC, seq DESC"),
        {contactId}, [&out](const SqlRow &r) {
            out.append(QJsonObject{{QStringLiteral("id"), r.text(0)},
                                   {QStringLiteral("name"), r.text(1)},
                                   {QStringLiteral("value"), r.real(2)},
                                   {QStringLiteral("currency"), r.text(3)},
                                   {QStringLiteral("stage"), r.text(4)},
                                   {QStringLiteral("pipelineId"), r.text(5)}});
        });
    return out;
}

void DealRepository::detachContact(const QString &contactId)
{
    QStringList ids;
    {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT id FROM deals WHERE contact_id = ?"), {contactId});
        while (q.next())
            ids << q.value(0).toString();
        q.finish();
    }
    if (ids.isEmpty())
        return;
    const QString at = m_store.nowIso();
    Database::execCached(QStringLiteral("UPDATE deals SET contact_id = NULL, updated_at = ? WHERE contact_id = ?"),
                         {at, contactId});
    for (const QString &id : std::as_const(ids)) {
        QJsonObject data = eventData(get(id));
        data.insert(QStringLiteral("changedFields"), QJsonArray{QStringLiteral("contactId")});
        data.insert(QStringLiteral("previousContactId"), contactId);
        m_store.appendEvent(QStringLiteral("deal.updated"), data);
        m_store.notify(EventBus::Entity::Deal, id, EventBus::Change::Updated);
    }
}

QStringList DealRepository::moveContact(const QString &from, const QString &to, const QStringList &only)
{
    QStringList ids;
    {
        CachedQuery q =
            Database::execCached(QStringLiteral("SELECT id FROM deals WHERE contact_id = ? ORDER BY seq"), {from});
        while (q.next()) {
            const QString id = q.value(0).toString();
            if (only.isEmpty() || only.contains(id))
                ids << id;
        }
        q.finish();
    }
    const QString at = m_store.nowIso();
    for (const QString &id : std::as_const(ids)) {
        Database::execCached(
            QStringLiteral("UPDATE deals SET contact_id = ?, updated_at = ? WHERE id = ? AND contact_id = ?"),
            {to, at, id, from});
        QJsonObject data = eventData(get(id));
        data.insert(QStringLiteral("changedFields"), QJsonArray{QStringLiteral("contactId")});
        data.insert(QStringLiteral("previousContactId"), from);
        m_store.appendEvent(QStringLiteral("deal.updated"), data);
        m_store.notify(EventBus::Entity::Deal, id, EventBus::Change::Updated);
    }
    return ids;
}

int DealRepository::insertBulk(const QVector<QJsonObject> &bodies)
{
    Transaction tx;
    QHash<QString, Pipeline> cache;
    const QString at = m_store.nowIso();
    for (const QJsonObject &body : bodies) {
        const DealChanges ch = DealRules::parse(body);
        const QString pid = ch.pipelineId.value_or(QString());
        auto it = cache.find(pid);
        if (it == cache.end())
            it = cache.insert(pid, pipelineFor(m_store, pid));
        Deal d;
        d.name = ch.name.value_or(QStringLiteral("Deal"));
        d.value = ch.value.value_or(0);
        d.currency = ch.currency.value_or(QStringLiteral("TRY"));
        d.pipelineId = it->id;
        d.contactId = ch.contactId.value_or(QString());
        d.assignedTo = ch.assignedTo.value_or(QString());
        d.expectedCloseDate = ch.expectedCloseDate.value_or(QString());
        d.description = ch.description.value_or(QString());
        d.id = Ids::make(u"deal");
        const auto created = TimeUtil::parse(body.value(QLatin1String("createdAt")).toString());
        d.createdAt = d.updatedAt = d.lastActivityAt = created ? TimeUtil::iso(*created) : at;
        enterStage(d, stageOf(*it, ch.stage.value_or(it->stages.first().key)), d.createdAt);
        if (ch.probability && d.probability != 100 && d.stage != QLatin1String("lost"))
            d.probability = *ch.probability;
        insertRow(d);
    }
    tx.commit();
    m_store.notify(EventBus::Entity::Deal, QString(), EventBus::Change::Created);
    return int(bodies.size());
}

void DealRepository::rebuildTotals()
{
    Transaction tx;
    Database::execCached(QStringLiteral("DELETE FROM deal_totals"));
    Database::execCached(QStringLiteral(
        "INSERT INTO deal_totals (pipeline_id, stage, currency, deals, value, weighted) "
        "SELECT pipeline_id, stage, currency, count(*), sum(v), sum(v * probability) / 100.0 FROM "
        "(SELECT pipeline_id, stage, currency, probability, "
        "CASE WHEN stage = 'won' AND closed_value IS NOT NULL THEN closed_value ELSE value END AS v FROM deals) AS d "
        "GROUP BY pipeline_id, stage, currency"));
    tx.commit();
}

QByteArray DealRepository::exportCsv(const DealQuery &query) const
{
    const ReadTransaction snapshot; // the pages of one moment
    QVector<Deal> deals;
    DealQuery q = query;
    q.limit = 1000;
    for (q.page = 1;; ++q.page) {
        const DealPage page = list(q);
        deals += page.items;
        if (page.items.size() < q.limit)
            break;
    }
    QStringList custom;
    for (const Deal &d : std::as_const(deals)) {
        for (auto it = d.customFields.begin(); it != d.customFields.end(); ++it) {
            if (!custom.contains(it.key()))
                custom << it.key();
        }
    }
    custom.sort();
    QStringList header{
        QStringLiteral("id"),           QStringLiteral("name"),          QStringLiteral("value"),
        QStringLiteral("currency"),     QStringLiteral("pipelineId"),    QStringLiteral("stage"),
        QStringLiteral("probability"),  QStringLiteral("contactId"),     QStringLiteral("contactName"),
        QStringLiteral("contactEmail"), QStringLiteral("assignedTo"),    QStringLiteral("expectedCloseDate"),
        QStringLiteral("description"),  QStringLiteral("closedValue"),   QStringLiteral("closedAt"),
        QStringLiteral("lostReason"),   QStringLiteral("competitorName")};
    for (const QString &key : std::as_const(custom))
        header << QStringLiteral("customFields.") + key;
    header << QStringLiteral("createdAt") << QStringLiteral("updatedAt");
    QString out = Csv::line(header);
    for (const Deal &d : std::as_const(deals)) {
        QStringList row{d.id,
                        d.name,
                        QString::number(d.value, 'f', 2),
                        d.currency,
                        d.pipelineId,
                        d.stage,
                        QString::number(d.probability),
                        d.contactId,
                        d.contactName,
                        d.contactEmail,
                        d.assignedTo,
                        d.expectedCloseDate,
                        d.description,
                        d.closedValue ? QString::number(*d.closedValue, 'f', 2) : QString(),
                        d.closedAt,
                        d.lostReason,
                        d.competitorName};
        for (const QString &key : std::as_const(custom)) {
            const QJsonValue v = d.customFields.value(key);
            row << (v.isString()   ? v.toString()
                    : v.isDouble() ? QString::number(v.toDouble())
                    : v.isBool()   ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
                                   : QString());
        }
        row << d.createdAt << d.updatedAt;
        out += Csv::line(row);
    }
    return QByteArray("\xEF\xBB\xBF") + out.toUtf8();
}
