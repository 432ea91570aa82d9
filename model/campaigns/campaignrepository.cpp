#include "model/campaigns/campaignrepository.h"

#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/core/ids.h"
#include "model/core/sqldialect.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/inboundrecorder.h"
#include "model/inbox/templaterepository.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>
#include <QSet>
#include <QSqlQuery>

namespace {
using SqlValue::text;
using SqlValue::textOrNull;

const QString kCampaignColumns = QStringLiteral(
    "c.seq, c.id, c.name, c.type, c.channel, c.status, c.subject, c.html_content, c.template_name, "
    "c.template_language, c.broadcast_list_id, c.scheduled_at, c.steps, c.trigger_rule, c.status_reason, c.skipped, "
    "c.started_at, c.completed_at, c.created_by, c.created_at, c.updated_at, c.template_params");

const QString kRecipientColumns = QStringLiteral(
    "r.seq, r.id, c.id, r.contact_id, r.name, r.address, r.test, r.status, r.skip_reason, r.attempts, "
    "r.next_attempt_at, r.sent_at, r.delivered_at, r.opened_at, r.clicked_at, r.bounced_at, r.bounce_type, "
    "r.failed_at, r.unsubscribed_at, r.opens, r.clicks, r.proxy_opens, r.error, r.provider_id, r.created_at, r.step");

// Statuses of a recipient that still has something to send.
const QString kOpenRecipient = QStringLiteral("r.status IN ('pending', 'sending')");

QJsonObject parseObject(const QString &json)
{
    return QJsonDocument::fromJson(json.toUtf8()).object();
}

Campaign campaignFromRow(const QSqlQuery &q)
{
    Campaign c;
    c.seq = q.value(0).toLongLong();
    c.id = q.value(1).toString();
    c.name = q.value(2).toString();
    c.type = q.value(3).toString();
    c.channel = q.value(4).toString();
    c.status = q.value(5).toString();
    c.subject = q.value(6).toString();
    c.htmlContent = q.value(7).toString();
    c.templateName = q.value(8).toString();
    c.templateLanguage = q.value(9).toString();
    c.broadcastListId = q.value(10).toString();
    c.scheduledAt = q.value(11).toString();
    c.steps = DripStep::listFromJson(QJsonDocument::fromJson(q.value(12).toString().toUtf8()).array());
    const QJsonObject rule = parseObject(q.value(13).toString());
    c.trigger = rule.value(QStringLiteral("trigger")).toObject();
    const QJsonObject w = rule.value(QStringLiteral("sendWindow")).toObject();
    if (!w.isEmpty()) {
        c.window.fromHour = w.value(QStringLiteral("fromHour")).toInt(0);
        c.window.toHour = w.value(QStringLiteral("toHour")).toInt(24);
        for (const QJsonValue &d : w.value(QStringLiteral("days")).toArray())
            c.window.days.append(d.toInt());
    }
    c.statusReason = q.value(14).toString();
    c.skipped = parseObject(q.value(15).toString());
    c.startedAt = q.value(16).toString();
    c.completedAt = q.value(17).toString();
    c.createdBy = q.value(18).toString();
    c.createdAt = q.value(19).toString();
    c.updatedAt = q.value(20).toString();
    for (const QJsonValue &v : QJsonDocument::fromJson(q.value(21).toString().toUtf8()).array())
        c.templateParams << v.toString();
    return c;
}

CampaignRecipient recipientFromRow(const QSqlQuery &q)
{
    CampaignRecipient r;
    int i = 0;
    r.seq = q.value(i++).toLongLong();
    r.id = q.value(i++).toString();
    r.campaignId = q.value(i++).toString();
    r.contactId = q.value(i++).toString();
    r.name = q.value(i++).toString();
    r.address = q.value(i++).toString();
    r.test = q.value(i++).toInt() != 0;
    r.status = q.value(i++).toString();
    r.skipReason = q.value(i++).toString();
    r.attempts = q.value(i++).toInt();
    for (QString *s : {&r.nextAttemptAt, &r.sentAt, &r.deliveredAt, &r.openedAt, &r.clickedAt, &r.bouncedAt,
                       &r.bounceType, &r.failedAt, &r.unsubscribedAt})
        *s = q.value(i++).toString();
    r.opens = q.value(i++).toInt();
    r.clicks = q.value(i++).toInt();
    r.proxyOpens = q.value(i++).toInt();
    r.error = q.value(i++).toString();
    r.providerId = q.value(i++).toString();
    r.createdAt = q.value(i++).toString();
    r.step = q.value(i).isNull() ? -1 : q.value(i).toInt();
    ++i;
    return r;
}

QString ruleJson(const Campaign &c)
{
    QJsonObject rule;
    if (!c.trigger.isEmpty())
        rule.insert(QStringLiteral("trigger"), c.trigger);
    if (!c.window.isAlways())
        rule.insert(QStringLiteral("sendWindow"), c.window.toJson());
    return QString::fromUtf8(QJsonDocument(rule).toJson(QJsonDocument::Compact));
}

QString paramsJson(const Campaign &c)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromStringList(c.templateParams)).toJson(QJsonDocument::Compact));
}

QString stepsJson(const Campaign &c)
{
    QJsonArray a;
    for (const DripStep &s : c.steps)
        a.append(s.toJson());
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

// A whole or partial sum over the recipients of one campaign, as the statistics read them.
const QString kStatsSelect =
    QStringLiteral("count(*), "
                   "coalesce(sum(CASE WHEN r.status IN ('pending', 'sending') THEN 1 ELSE 0 END), 0), "
                   "coalesce(sum(CASE WHEN r.sent_at IS NOT NULL THEN 1 ELSE 0 END), 0), "
                   "coalesce(sum(CASE WHEN r.delivered_at IS NOT NULL THEN 1 ELSE 0 END), 0), "
                   "coalesce(sum(CASE WHEN r.opened_at IS NOT NULL OR r.clicked_at IS NOT NULL THEN 1 ELSE 0 END), 0), "
                   "coalesce(sum(CASE WHEN r.clicked_at IS NOT NULL THEN 1 ELSE 0 END), 0), "
                   "coalesce(sum(CASE WHEN r.bounced_at IS NOT NULL THEN 1 ELSE 0 END), 0), "
                   "coalesce(sum(CASE WHEN r.status = 'failed' THEN 1 ELSE 0 END), 0), "
                   "coalesce(sum(CASE WHEN r.status = 'skipped' THEN 1 ELSE 0 END), 0), "
                   "coalesce(sum(CASE WHEN r.unsubscribed_at IS NOT NULL THEN 1 ELSE 0 END), 0), "
                   "coalesce(sum(r.proxy_opens), 0)");

CampaignStats statsFromRow(const QSqlQuery &q, int from)
{
    CampaignStats s;
    int i = from;
    for (qint64 *n : {&s.total, &s.pending, &s.sent, &s.delivered, &s.opened, &s.clicked, &s.bounced, &s.failed,
                      &s.skipped, &s.unsubscribed, &s.proxyOpens})
        *n = q.value(i++).toLongLong();
    return s;
}

} // namespace

QJsonObject CampaignRecipient::toJson() const
{
    auto orNull = [](const QString &s) { return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s); };
    return {{QStringLiteral("id"), id},
            {QStringLiteral("campaignId"), campaignId},
            {QStringLiteral("contactId"), orNull(contactId)},
            {QStringLiteral("name"), name},
            {QStringLiteral("address"), address},
            {QStringLiteral("test"), test},
            {QStringLiteral("status"), status},
            {QStringLiteral("skipReason"), orNull(skipReason)},
            {QStringLiteral("attempts"), attempts},
            {QStringLiteral("nextAttemptAt"), orNull(status == QLatin1String("pending") ? nextAttemptAt : QString())},
            {QStringLiteral("sentAt"), orNull(sentAt)},
            {QStringLiteral("deliveredAt"), orNull(deliveredAt)},
            {QStringLiteral("openedAt"), orNull(openedAt)},
            {QStringLiteral("clickedAt"), orNull(clickedAt)},
            {QStringLiteral("bouncedAt"), orNull(bouncedAt)},
            {QStringLiteral("bounceType"), orNull(bounceType)},
            {QStringLiteral("failedAt"), orNull(failedAt)},
            {QStringLiteral("unsubscribedAt"), orNull(unsubscribedAt)},
            {QStringLiteral("opens"), opens},
            {QStringLiteral("clicks"), clicks},
            {QStringLiteral("proxyOpens"), proxyOpens},
            {QStringLiteral("error"), orNull(error)},
            {QStringLiteral("providerId"), orNull(providerId)},
            {QStringLiteral("createdAt"), createdAt},
            {QStringLiteral("step"), step < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(step)}};
}

QJsonObject CampaignEnrolment::toJson() const
{
    auto orNull = [](const QString &s) { return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s); };
    QJsonArray sends;
    for (const CampaignRecipient &r : steps)
        sends.append(QJsonObject{{QStringLiteral("step"), r.step},
                                 {QStringLiteral("recipientId"), r.id},
                                 {QStringLiteral("status"), r.status},
                                 {QStringLiteral("skipReason"), orNull(r.skipReason)},
                                 {QStringLiteral("sentAt"), orNull(r.sentAt)},
                                 {QStringLiteral("openedAt"), orNull(r.openedAt)},
                                 {QStringLiteral("clickedAt"), orNull(r.clickedAt)},
                                 {QStringLiteral("bouncedAt"), orNull(r.bouncedAt)},
                                 {QStringLiteral("error"), orNull(r.error)},
                                 {QStringLiteral("createdAt"), r.createdAt}});
    return {{QStringLiteral("campaignId"), campaignId},
            {QStringLiteral("contactId"), contactId},
            {QStringLiteral("name"), name},
            {QStringLiteral("status"), status},
            {QStringLiteral("exitReason"), orNull(exitReason)},
            {QStringLiteral("nextStep"), status == QLatin1String("active") ? QJsonValue(nextStep) : QJsonValue()},
            {QStringLiteral("nextAt"), orNull(status == QLatin1String("active") ? nextAt : QString())},
            {QStringLiteral("enteredAt"), enteredAt},
            {QStringLiteral("source"), source},
            {QStringLiteral("updatedAt"), updatedAt},
            {QStringLiteral("steps"), sends}};
}

CampaignRepository::CampaignRepository(const Store &store)
    : m_store(store)
{
}

std::optional<Campaign> CampaignRepository::find(const QString &id) const
{
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT ") + kCampaignColumns + QStringLiteral(" FROM campaigns c WHERE c.id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    Campaign c = campaignFromRow(q.query());
    q.finish();
    return c;
}

Campaign CampaignRepository::get(const QString &id) const
{
    std::optional<Campaign> c = find(id);
    if (!c)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Campaign"), id);
    return *c;
}

void CampaignRepository::checkReferences(const Campaign &c) const
{
    FieldProblems problems;
    if (!c.broadcastListId.isEmpty()) {
        CachedQuery q =
            Database::execCached(QStringLiteral("SELECT 1 FROM segments WHERE id = ?"), {c.broadcastListId});
        const bool found = q.next();
        q.finish();
        if (!found)
            throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Segment"), c.broadcastListId);
    }
    const QString segmentRule = c.trigger.value(QStringLiteral("segmentId")).toString();
    if (!segmentRule.isEmpty()) {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT 1 FROM segments WHERE id = ?"), {segmentRule});
        const bool found = q.next();
        q.finish();
        if (!found)
            throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Segment"), segmentRule);
    }
    // Merge fields: a built-in one, or a custom field that some contact has. An unknown one is
    // refused now, not found at send time.
    QStringList texts{c.subject, c.htmlContent};
    texts += c.templateParams;
    for (const DripStep &s : c.steps)
        texts << s.subject << s.htmlContent;
    QStringList unknown;
    for (const QString &t : std::as_const(texts)) {
        for (const QString &name : MergeFields::used(t)) {
            if (MergeFields::Builtin.contains(name) || unknown.contains(name))
                continue;
            const QString sql =
                Database::dialect() == Database::Dialect::PostgreSQL
                    ? QStringLiteral("SELECT 1 FROM contacts WHERE jsonb_exists(custom_fields, ?) LIMIT 1")
                    : QStringLiteral(
                          "SELECT 1 FROM contacts WHERE json_type(custom_fields, '$.\"' || ? || '\"') IS NOT "
                          "NULL LIMIT 1");
            bool found = false;
            if (!name.contains(QLatin1Char('"'))) {
                QSqlQuery q = Database::exec(sql, {name});
                found = q.next();
            }
            if (!found)
                unknown << name;
        }
    }
    if (!unknown.isEmpty())
        throw DomainError(
            DomainError::Unprocessable, QStringLiteral("UNKNOWN_MERGE_FIELD"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Unknown merge field: %1"), {unknown.join(QStringLiteral(", "))}),
            QJsonObject{{QStringLiteral("fields"), QJsonArray::fromStringList(unknown)}});
}

Campaign CampaignRepository::create(const CampaignChanges &changes, const QString &actor)
{
    Campaign c;
    CampaignRules::apply(c, changes);
    CampaignRules::checkComplete(c);
    checkReferences(c);
    const QString now = m_store.nowIso();
    if (!c.scheduledAt.isEmpty()) {
        if (c.scheduledAt <= now)
            throw DomainError::invalid(QStringLiteral("scheduledAt"),
                                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be in the future")));
        c.status = QStringLiteral("SCHEDULED");
    }
    c.id = Ids::make(u"cmp");
    c.createdBy = m_store.actorOr(actor);
    c.createdAt = now;
    c.updatedAt = now;
    Transaction tx;
    c.seq = Database::insert(
        QStringLiteral("INSERT INTO campaigns (id, name, type, channel, status, subject, html_content, template_name, "
                       "template_language, broadcast_list_id, scheduled_at, steps, trigger_rule, created_by, "
                       "created_at, updated_at, template_params) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                       "?, ?)"),
        {c.id, c.name, c.type, c.channel, c.status, text(c.subject), text(c.htmlContent), textOrNull(c.templateName),
         textOrNull(c.templateLanguage), textOrNull(c.broadcastListId), textOrNull(c.scheduledAt), stepsJson(c),
         ruleJson(c), textOrNull(c.createdBy), c.createdAt, c.updatedAt, paramsJson(c)});
    m_store.notify(EventBus::Entity::Campaign, c.id, EventBus::Change::Created);
    tx.commit();
    return c;
}

Campaign CampaignRepository::update(const QString &id, const CampaignChanges &changes, const QString &actor)
{
    Q_UNUSED(actor)
    Transaction tx;
    Campaign c = get(id);
    if (!c.isEditable())
        throw DomainError(
            DomainError::Conflict, QStringLiteral("CAMPAIGN_NOT_EDITABLE"),
            ModelText(
                QT_TRANSLATE_NOOP("ModelError", "A campaign can be changed only while DRAFT or SCHEDULED (it is %1)"),
                {c.status}),
            QJsonObject{{QStringLiteral("status"), c.status}});
    CampaignRules::apply(c, changes);
    CampaignRules::checkComplete(c);
    checkReferences(c);
    const QString now = m_store.nowIso();
    if (changes.scheduledAt) {
        if (c.scheduledAt.isEmpty()) {
            c.status = QStringLiteral("DRAFT");
        } else if (c.scheduledAt <= now) {
            throw DomainError::invalid(QStringLiteral("scheduledAt"),
                                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be in the future")));
        } else {
            c.status = QStringLiteral("SCHEDULED");
        }
    }
    c.updatedAt = now;
    Database::execCached(
        QStringLiteral(
            "UPDATE campaigns SET name = ?, type = ?, channel = ?, status = ?, subject = ?, html_content = ?, "
            "template_name = ?, template_language = ?, broadcast_list_id = ?, scheduled_at = ?, steps = ?, "
            "trigger_rule = ?, template_params = ?, updated_at = ? WHERE seq = ?"),
        {c.name, c.type, c.channel, c.status, text(c.subject), text(c.htmlContent), textOrNull(c.templateName),
         textOrNull(c.templateLanguage), textOrNull(c.broadcastListId), textOrNull(c.scheduledAt), stepsJson(c),
         ruleJson(c), paramsJson(c), c.updatedAt, c.seq});
    m_store.notify(EventBus::Entity::Campaign, c.id, EventBus::Change::Updated);
    tx.commit();
    return c;
}

void CampaignRepository::remove(const QString &id, const QString &actor)
{
    Q_UNUSED(actor)
    Transaction tx;
    const Campaign c = get(id);
    if (!c.isEditable())
        throw DomainError(
            DomainError::Conflict, QStringLiteral("CAMPAIGN_NOT_EDITABLE"),
            ModelText(
                QT_TRANSLATE_NOOP("ModelError", "A campaign can be deleted only while DRAFT or SCHEDULED (it is %1)"),
                {c.status}),
            QJsonObject{{QStringLiteral("status"), c.status}});
    // Test sends made from a draft go with it.
    Database::execCached(QStringLiteral("DELETE FROM campaign_events WHERE campaign_seq = ?"), {c.seq});
    Database::execCached(QStringLiteral("DELETE FROM campaign_recipients WHERE campaign_seq = ?"), {c.seq});
    Database::execCached(QStringLiteral("DELETE FROM campaigns WHERE seq = ?"), {c.seq});
    m_store.notify(EventBus::Entity::Campaign, c.id, EventBus::Change::Deleted);
    tx.commit();
}

CampaignPage CampaignRepository::list(const CampaignQuery &query) const
{
    QStringList where;
    QVariantList values;
    auto among = [&](const QString &column, const QStringList &list) {
        if (list.isEmpty())
            return;
        QStringList marks;
        for (const QString &v : list) {
            marks << QStringLiteral("?");
            values << v;
        }
        where << column + QStringLiteral(" IN (") + marks.join(QStringLiteral(", ")) + QLatin1Char(')');
    };
    among(QStringLiteral("c.type"), query.types);
    among(QStringLiteral("c.status"), query.statuses);
    among(QStringLiteral("c.channel"), query.channels);
    if (!query.search.trimmed().isEmpty())
        where << SqlDialect::wordsBeginFolded(QStringLiteral("c.name"), query.search, &values);
    const QString clause =
        where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
    CampaignPage page;
    page.page = qMax(1, query.page);
    page.limit = qBound(1, query.limit, 500);
    {
        QSqlQuery q = Database::exec(QStringLiteral("SELECT count(*) FROM campaigns c") + clause, values);
        if (q.next())
            page.total = q.value(0).toLongLong();
    }
    QVariantList pageValues = values;
    pageValues << page.limit << qint64(page.page - 1) * page.limit;
    QSqlQuery q = Database::exec(QStringLiteral("SELECT ") + kCampaignColumns + QStringLiteral(" FROM campaigns c") +
                                     clause + QStringLiteral(" ORDER BY c.seq DESC LIMIT ? OFFSET ?"),
                                 pageValues);
    while (q.next())
        page.items.append(campaignFromRow(q));
    return page;
}

QHash<QString, CampaignStats> CampaignRepository::statsOf(const QVector<Campaign> &campaigns) const
{
    QHash<QString, CampaignStats> out;
    if (campaigns.isEmpty())
        return out;
    QStringList marks;
    QVariantList values;
    QHash<qint64, QString> ids;
    for (const Campaign &c : campaigns) {
        marks << QStringLiteral("?");
        values << c.seq;
        ids.insert(c.seq, c.id);
        out.insert(c.id, CampaignStats());
    }
    QSqlQuery q =
        Database::exec(QStringLiteral("SELECT r.campaign_seq, ") + kStatsSelect +
                           QStringLiteral(" FROM campaign_recipients r WHERE r.test = 0 AND r.campaign_seq IN (") +
                           marks.join(QStringLiteral(", ")) + QStringLiteral(") GROUP BY r.campaign_seq"),
                       values);
    while (q.next())
        out.insert(ids.value(q.value(0).toLongLong()), statsFromRow(q, 1));
    return out;
}

CampaignStats CampaignRepository::stats(const QString &id) const
{
    const Campaign c = get(id);
    return statsOf({c}).value(c.id);
}

Campaign CampaignRepository::move(const QString &id, const QString &to, const QString &actor, const ModelText &reason)
{
    Q_UNUSED(actor)
    Campaign c = get(id);
    CampaignRules::checkMove(c.status, to);
    const QString now = m_store.nowIso();
    const QString from = c.status;
    c.status = to;
    c.statusReason = reason.isNull() ? QString() : reason.english();
    c.updatedAt = now;
    if (to == QLatin1String("SENDING") && c.startedAt.isEmpty())
        c.startedAt = now;
    if (to == QLatin1String("SENT") || to == QLatin1String("FAILED") || to == QLatin1String("CANCELLED"))
        c.completedAt = now;
    else if (to == QLatin1String("SENDING"))
        c.completedAt.clear();
    // The row moves only from the state read: a copy that moved it first wins, this one refuses.
    CachedQuery u = Database::execCached(
        QStringLiteral("UPDATE campaigns SET status = ?, status_reason = ?, started_at = ?, completed_at = ?, "
                       "updated_at = ? WHERE seq = ? AND status = ?"),
        {c.status, textOrNull(c.statusReason), textOrNull(c.startedAt), textOrNull(c.completedAt), now, c.seq, from});
    if (u.numRowsAffected() != 1)
        CampaignRules::checkMove(get(id).status, to);
    m_store.notify(EventBus::Entity::Campaign, c.id, EventBus::Change::Updated);
    return c;
}

void CampaignRepository::freezeAudience(Campaign &c)
{
    // The segment's members now (a dynamic segment evaluated once), in the contact list's order.
    QHash<QString, qint64> skipped;
    QString where = QStringLiteral("1 = 0");
    QVariantList values;
    if (!c.broadcastListId.isEmpty()) {
        SegmentRepository segments(m_store);
        const SegmentRules::Sql sql = segments.membership(c.broadcastListId);
        where = sql.where;
        values = sql.values;
    }
    const bool email = c.channel == QLatin1String("email");
    QSet<QString> suppressed;
    QSet<QString> bounced;
    {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT address_norm, reason FROM campaign_suppressions WHERE channel = ?"), {c.channel});
        while (q.next())
            (q.value(1).toString() == QLatin1String("hard_bounce") ? bounced : suppressed)
                .insert(q.value(0).toString());
    }
    QSqlQuery q =
        Database::exec(QStringLiteral("SELECT c.id, c.first_name, c.last_name, c.email, c.phone FROM contacts c "
                                      "WHERE ") +
                           where + QStringLiteral(" ORDER BY c.seq"),
                       values);
    struct Row
    {
        QString contactId, name, address, norm, status, reason;
    };
    QVector<Row> rows;
    QSet<QString> seen;
    while (q.next()) {
        Row r;
        r.contactId = q.value(0).toString();
        r.name = QStringList{q.value(1).toString(), q.value(2).toString()}.join(QLatin1Char(' ')).trimmed();
        r.address = (email ? q.value(3) : q.value(4)).toString().trimmed();
        r.norm = SuppressionRepository::normalize(c.channel, r.address);
        r.status = QStringLiteral("pending");
        if (r.norm.isEmpty())
            r.reason = QStringLiteral("no_address");
        else if (bounced.contains(r.norm))
            r.reason = QStringLiteral("bounced");
        else if (suppressed.contains(r.norm))
            r.reason = QStringLiteral("unsubscribed");
        else if (seen.contains(r.norm))
            r.reason = QStringLiteral("duplicate");
        if (!r.reason.isEmpty()) {
            r.status = QStringLiteral("skipped");
            ++skipped[r.reason];
        } else {
            seen.insert(r.norm);
        }
        rows.append(r);
    }
    q.finish();
    const QString now = m_store.nowIso();
    // Many rows per statement: a 10,000-contact audience is 50 statements, not 10,000 round trips.
    constexpr int kPerStatement = 200;
    for (int from = 0; from < rows.size(); from += kPerStatement) {
        const int n = qMin(kPerStatement, int(rows.size()) - from);
        QStringList tuples;
        QVariantList v;
        for (int i = from; i < from + n; ++i) {
            const Row &r = rows.at(i);
            tuples << QStringLiteral("(?, ?, ?, ?, ?, ?, ?, ?, ?)");
            v << Ids::make(u"rcp") << c.seq << r.contactId << text(r.name) << text(r.address) << text(r.norm)
              << r.status << textOrNull(r.reason) << now;
        }
        Database::exec(QStringLiteral("INSERT INTO campaign_recipients (id, campaign_seq, contact_id, name, address, "
                                      "address_norm, status, skip_reason, created_at) VALUES ") +
                           tuples.join(QStringLiteral(", ")),
                       v);
    }
    QJsonObject skippedJson;
    for (auto it = skipped.cbegin(); it != skipped.cend(); ++it)
        skippedJson.insert(it.key(), it.value());
    c.skipped = skippedJson;
    Database::execCached(QStringLiteral("UPDATE campaigns SET skipped = ? WHERE seq = ?"),
                         {QString::fromUtf8(QJsonDocument(skippedJson).toJson(QJsonDocument::Compact)), c.seq});
}

Campaign CampaignRepository::send(const QString &id, const QString &actor)
{
    Transaction tx;
    Campaign c = get(id);
    if (c.status != QLatin1String("DRAFT") && c.status != QLatin1String("SCHEDULED"))
        CampaignRules::refuseMove(c.status, QStringLiteral("SENDING"));
    CampaignRules::checkComplete(c);
    if (c.type == QLatin1String("BROADCAST") && c.broadcastListId.isEmpty())
        throw DomainError::missing(QStringLiteral("broadcastListId"), DomainError::isRequired());
    if (c.type == QLatin1String("DRIP") && c.broadcastListId.isEmpty())
        throw DomainError::missing(QStringLiteral("broadcastListId"), DomainError::isRequired());
    c = move(id, QStringLiteral("SENDING"), actor);
    if (c.type == QLatin1String("BROADCAST"))
        freezeAudience(c);
    else if (c.type == QLatin1String("DRIP"))
        enrolSegment(c);
    m_store.appendEvent(
        QStringLiteral("campaign.started"),
        QJsonObject{{QStringLiteral("campaign"), c.toJson()}, {QStringLiteral("recipients"), stats(c.id).toJson()}});
    // An audience with no one to send to ends at once.
    finishIfDone(c.id);
    tx.commit();
    return get(id);
}

int CampaignRepository::startDue()
{
    QStringList due;
    {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT id FROM campaigns WHERE status = 'SCHEDULED' AND scheduled_at <= ? ORDER BY seq"),
            {m_store.nowIso()});
        while (q.next())
            due << q.value(0).toString();
    }
    int started = 0;
    for (const QString &id : std::as_const(due)) {
        try {
            send(id);
            ++started;
        } catch (const DomainError &) {
            // Another copy started it first, or it was changed meanwhile.
        }
    }
    return started;
}

int CampaignRepository::enrolSegment(const Campaign &c)
{
    if (c.broadcastListId.isEmpty() || c.steps.isEmpty())
        return 0;
    SegmentRepository segments(m_store);
    const SegmentRules::Sql sql = segments.membership(c.broadcastListId);
    const QDateTime now = m_store.now();
    const QString nowIso = TimeUtil::iso(now);
    const QString firstDue = TimeUtil::iso(now.addSecs(qint64(c.steps.first().delayMinutes) * 60));
    // The members who are not in it yet, in one statement (a second copy doing the same at once
    // adds no one twice: the (campaign, contact) key).
    QVariantList values{c.seq, firstDue, nowIso, nowIso};
    values += sql.values;
    values << c.seq;
    QSqlQuery q = Database::exec(
        QStringLiteral("INSERT INTO campaign_enrolments (campaign_seq, contact_id, status, next_step, next_at, "
                       "entered_at, source, updated_at) SELECT ?, c.id, 'active', 0, ?, ?, 'audience', ? FROM "
                       "contacts c WHERE (") +
            sql.where +
            QStringLiteral(") AND NOT EXISTS (SELECT 1 FROM campaign_enrolments e WHERE e.campaign_seq = ? AND "
                           "e.contact_id = c.id) ORDER BY c.seq ON CONFLICT DO NOTHING"),
        values);
    const int n = q.numRowsAffected();
    if (n > 0)
        m_store.notify(EventBus::Entity::Campaign, c.id, EventBus::Change::Updated);
    return qMax(0, n);
}

int CampaignRepository::enrolNewMembers()
{
    QStringList ids;
    {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT id FROM campaigns WHERE status = 'SENDING' AND type = 'DRIP' ORDER BY seq"));
        while (q.next())
            ids << q.value(0).toString();
    }
    int entered = 0;
    for (const QString &id : std::as_const(ids)) {
        try {
            Transaction tx;
            const Campaign c = get(id);
            if (c.status != QLatin1String("SENDING"))
                continue;
            entered += enrolSegment(c);
            tx.commit();
        } catch (const DomainError &) {
            // Its segment was deleted (or the campaign meanwhile): no one new enters it; the
            // contacts already in it walk on, and the other campaigns are read all the same.
        }
    }
    return entered;
}

int CampaignRepository::processTriggers(int batch)
{
    auto readCursor = [](bool *found) {
        CachedQuery q =
            Database::execCached(QStringLiteral("SELECT outbox_seq FROM campaign_cursor WHERE name = 'triggers'"));
        *found = q.next();
        const qint64 v = *found ? q.value(0).toLongLong() : 0;
        q.finish();
        return v;
    };
    auto maxSeq = [] {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT coalesce(max(seq), 0) FROM outbox"));
        const qint64 v = q.next() ? q.value(0).toLongLong() : 0;
        q.finish();
        return v;
    };
    bool had = false;
    // Nothing new: no write (this runs on every poll).
    if (readCursor(&had) >= maxSeq() && had)
        return 0;
    Transaction tx;
    const qint64 cursor = readCursor(&had);
    QVector<Campaign> triggered;
    {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT ") + kCampaignColumns +
                                             QStringLiteral(" FROM campaigns c WHERE c.status = 'SENDING' AND c.type "
                                                            "= 'TRIGGERED' ORDER BY c.seq"));
        while (q.next())
            triggered.append(campaignFromRow(q));
    }
    qint64 last = cursor;
    int entered = 0;
    if (!had) {
        // The first run: events until now start nothing.
        last = maxSeq();
    } else {
        struct Event
        {
            qint64 seq;
            QString event, at;
            QJsonObject data;
        };
        QVector<Event> events;
        {
            QStringList sources = CampaignRules::triggerSources();
            sources << QStringLiteral("message.delivered") << QStringLiteral("message.read")
                    << QStringLiteral("message.failed");
            // Read in seq order whatever the kind, so that the cursor passes over the others too.
            CachedQuery q = Database::execCached(
                QStringLiteral("SELECT seq, event, payload, created_at FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?"),
                {cursor, batch});
            while (q.next()) {
                last = q.value(0).toLongLong();
                const QString event = q.value(1).toString();
                if (!sources.contains(event))
                    continue;
                events.append({last, event, q.value(3).toString(),
                               parseObject(q.value(2).toString()).value(QStringLiteral("data")).toObject()});
            }
            q.finish();
        }
        const QString now = m_store.nowIso();
        for (const Event &e : std::as_const(events)) {
            if (e.event.startsWith(QLatin1String("message.")) && e.event != QLatin1String("message.received")) {
                // A campaign's WhatsApp message reported by the provider (its id is the recipient's
                // provider id); any other message is no recipient's.
                const bool failed = e.event == QLatin1String("message.failed");
                recordDelivery(QStringLiteral("whatsapp"), e.data.value(QStringLiteral("messageId")).toString(),
                               !failed, e.data.value(QStringLiteral("failedReason")).toString());
                continue;
            }
            for (const Campaign &c : std::as_const(triggered)) {
                // Events from before the campaign started start nothing.
                if (e.at < c.startedAt || c.steps.isEmpty())
                    continue;
                const QString contactId = CampaignRules::triggeredContact(c.trigger, e.event, e.data);
                if (contactId.isEmpty())
                    continue;
                const QString segmentId = c.trigger.value(QStringLiteral("segmentId")).toString();
                QString where = QStringLiteral("c.id = ?");
                QVariantList values{contactId};
                if (!segmentId.isEmpty()) {
                    try {
                        const SegmentRules::Sql sql = SegmentRepository(m_store).membership(segmentId);
                        where += QStringLiteral(" AND (") + sql.where + QLatin1Char(')');
                        values += sql.values;
                    } catch (const DomainError &) {
                        continue; // the segment was deleted: no one matches it
                    }
                }
                const QDateTime at = TimeUtil::parse(e.at).value_or(m_store.now());
                QVariantList insert{c.seq, TimeUtil::iso(at.addSecs(qint64(c.steps.first().delayMinutes) * 60)), now,
                                    c.trigger.value(QStringLiteral("event")).toString(), now};
                insert += values;
                QSqlQuery q = Database::exec(
                    QStringLiteral("INSERT INTO campaign_enrolments (campaign_seq, contact_id, status, next_step, "
                                   "next_at, entered_at, source, updated_at) SELECT ?, c.id, 'active', 0, ?, ?, ?, ? "
                                   "FROM contacts c WHERE ") +
                        where + QStringLiteral(" ON CONFLICT DO NOTHING"),
                    insert);
                if (q.numRowsAffected() > 0) {
                    ++entered;
                    m_store.notify(EventBus::Entity::Campaign, c.id, EventBus::Change::Updated);
                }
            }
        }
    }
    if (last != cursor || !had)
        Database::execCached(QStringLiteral("INSERT INTO campaign_cursor (name, outbox_seq) VALUES ('triggers', ?) "
                                            "ON CONFLICT(name) DO UPDATE SET outbox_seq = excluded.outbox_seq"),
                             {last});
    tx.commit();
    return entered;
}

int CampaignRepository::handToWhatsApp(int limit)
{
    Transaction tx;
    // Claimed and marked in this one transaction: the lease never outlives it.
    const QVector<CampaignSend> sends = claim(QStringLiteral("whatsapp"), limit, 60);
    if (sends.isEmpty()) {
        tx.commit();
        return 0;
    }
    ConversationRepository conversations(m_store);
    TemplateRepository templates(m_store);
    QVector<CampaignSendResult> results;
    for (const CampaignSend &s : sends) {
        CampaignSendResult r;
        r.recipientId = s.recipientId;
        try {
            Transaction one; // a savepoint: a refused send leaves nothing of itself
            const QString e164 = ContactRules::toE164(s.address);
            if (e164.isEmpty())
                throw DomainError::invalid(
                    {{QStringLiteral("phone"),
                      ModelText(QT_TRANSLATE_NOOP("ModelError", "is not a valid phone number"))}});
            const MessageTemplate tpl = templates.approved(s.templateName, s.templateLanguage);
            // The body's parameters, each rendered for this recipient (no HTML: a WhatsApp text).
            QJsonArray components;
            if (!s.templateParams.isEmpty()) {
                QJsonArray parameters;
                for (const QString &p : s.templateParams)
                    parameters.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                  {QStringLiteral("text"), MergeFields::render(p, s.contact, false)}});
                components.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("body")},
                                              {QStringLiteral("parameters"), parameters}});
            }
            MessageContent content;
            content.type = QStringLiteral("template");
            content.text = TemplateRules::render(tpl, components);
            content.payload = {{QStringLiteral("templateName"), tpl.name},
                               {QStringLiteral("templateLanguage"), tpl.language},
                               {QStringLiteral("components"), components},
                               {QStringLiteral("campaignId"), s.campaignId}};
            QString contactId = s.contact.id;
            if (contactId.isEmpty()) {
                // A test send to a number: its contact, or one made for it (as a bulk send does).
                if (const std::optional<Contact> c =
                        InboundRecorder(m_store).findContact(QStringLiteral("whatsapp"), {}, e164))
                    contactId = c->id;
                else
                    contactId =
                        ContactRepository(m_store).create(ContactRules::fromPhone(e164, QStringLiteral("whatsapp"))).id;
            }
            const Conversation v =
                conversations.findOrCreate(contactId, QStringLiteral("whatsapp"), e164, QStringLiteral("campaign"));
            const Message m = conversations.addOutgoing(
                v.id, content, {QStringLiteral("system"), s.campaignId, s.campaignName}, QStringLiteral("pending"), 1);
            one.commit();
            r.kind = CampaignSendResult::Sent;
            r.providerId = m.id;
        } catch (const DomainError &e) {
            r.kind = CampaignSendResult::Failed;
            r.detail = e.message();
        }
        results.append(r);
    }
    record(results, {});
    tx.commit();
    return int(sends.size());
}

int CampaignRepository::advanceDrips(int limit, const QTimeZone &zone)
{
    QVariantList active;
    {
        CachedQuery q = Database::execCached(QStringLiteral(
            "SELECT seq FROM campaigns WHERE status = 'SENDING' AND type IN ('DRIP', 'TRIGGERED') ORDER BY seq"));
        while (q.next())
            active << q.value(0);
    }
    int released = 0;
    for (const QVariant &seq : std::as_const(active)) {
        if (released >= limit)
            break;
        released += advanceCampaign(seq.toLongLong(), limit - released, zone);
    }
    return released;
}

int CampaignRepository::advanceCampaign(qint64 campaignSeq, int limit, const QTimeZone &zone)
{
    const QDateTime now = m_store.now();
    const QString nowIso = TimeUtil::iso(now);
    Transaction tx;
    Campaign c;
    {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT ") + kCampaignColumns +
                                                 QStringLiteral(" FROM campaigns c WHERE c.seq = ?"),
                                             {campaignSeq});
        if (!q.next())
            return 0;
        c = campaignFromRow(q);
    }
    if (c.status != QLatin1String("SENDING") || c.steps.isEmpty())
        return 0;
    struct Due
    {
        qint64 seq;
        QString contactId, enteredAt;
        int step;
    };
    QVector<Due> due;
    {
        // Locked past by another copy's transaction (PostgreSQL), so that a step is released once.
        QSqlQuery q = Database::exec(
            QStringLiteral("SELECT e.seq, e.contact_id, e.entered_at, e.next_step FROM campaign_enrolments e WHERE "
                           "e.campaign_seq = ? AND e.status = 'active' AND e.next_at <= ? ORDER BY e.next_at, e.seq "
                           "LIMIT ?") +
                SqlDialect::skipLocked(QStringLiteral("e")),
            {campaignSeq, nowIso, limit});
        while (q.next())
            due.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toInt()});
    }
    if (due.isEmpty()) {
        tx.commit();
        return 0;
    }
    const bool email = c.channel == QLatin1String("email");
    const QDateTime opening = c.window.nextOpening(now, zone);
    int moved = 0; // contacts that left, finished or wait for the window: the window's contacts view
    auto leave = [&](const Due &d, const QString &reason) {
        ++moved;
        Database::execCached(QStringLiteral("UPDATE campaign_enrolments SET status = 'exited', exit_reason = ?, "
                                            "next_at = NULL, updated_at = ? WHERE seq = ?"),
                             {reason, nowIso, d.seq});
    };
    auto exists = [](const QString &sql, const QVariantList &values) {
        CachedQuery q = Database::execCached(sql, values);
        const bool found = q.next();
        q.finish();
        return found;
    };
    int released = 0;
    for (const Due &d : std::as_const(due)) {
        if (d.step >= c.steps.size()) {
            Database::execCached(QStringLiteral("UPDATE campaign_enrolments SET status = 'completed', next_at = NULL, "
                                                "updated_at = ? WHERE seq = ?"),
                                 {nowIso, d.seq});
            ++moved;
            continue;
        }
        QString name, address;
        {
            CachedQuery q = Database::execCached(
                QStringLiteral("SELECT first_name, last_name, email, phone FROM contacts WHERE id = ?"), {d.contactId});
            if (!q.next()) {
                q.finish();
                leave(d, QStringLiteral("contact_deleted"));
                continue;
            }
            name = QStringList{q.value(0).toString(), q.value(1).toString()}.join(QLatin1Char(' ')).trimmed();
            address = (email ? q.value(2) : q.value(3)).toString().trimmed();
            q.finish();
        }
        const QString norm = SuppressionRepository::normalize(c.channel, address);
        if (norm.isEmpty()) {
            leave(d, QStringLiteral("no_address"));
            continue;
        }
        {
            CachedQuery q = Database::execCached(
                QStringLiteral("SELECT reason FROM campaign_suppressions WHERE channel = ? AND address_norm = ?"),
                {c.channel, norm});
            if (q.next()) {
                const QString reason = q.value(0).toString() == QLatin1String("hard_bounce")
                                           ? QStringLiteral("bounced")
                                           : QStringLiteral("unsubscribed");
                q.finish();
                leave(d, reason);
                continue;
            }
        }
        if (exists(QStringLiteral("SELECT 1 FROM messages WHERE contact_id = ? AND direction = 'incoming' AND "
                                  "created_at >= ? LIMIT 1"),
                   {d.contactId, d.enteredAt})) {
            leave(d, QStringLiteral("replied"));
            continue;
        }
        if (exists(QStringLiteral("SELECT 1 FROM deals WHERE contact_id = ? AND stage = 'won' AND closed_at >= ? "
                                  "LIMIT 1"),
                   {d.contactId, d.enteredAt})) {
            leave(d, QStringLiteral("deal_won"));
            continue;
        }
        if (opening > now) {
            // Outside the send window: the step waits for its opening.
            Database::execCached(
                QStringLiteral("UPDATE campaign_enrolments SET next_at = ?, updated_at = ? WHERE seq = ?"),
                {TimeUtil::iso(opening), nowIso, d.seq});
            ++moved;
            continue;
        }
        Database::execCached(QStringLiteral("INSERT INTO campaign_recipients (id, campaign_seq, contact_id, name, "
                                            "address, address_norm, status, enrolment_seq, step, created_at) VALUES "
                                            "(?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)"),
                             {Ids::make(u"rcp"), c.seq, d.contactId, text(name), address, norm, d.seq, d.step, nowIso});
        const int next = d.step + 1;
        if (next < c.steps.size())
            Database::execCached(
                QStringLiteral("UPDATE campaign_enrolments SET next_step = ?, next_at = ?, "
                               "updated_at = ? WHERE seq = ?"),
                {next, TimeUtil::iso(now.addSecs(qint64(c.steps.at(next).delayMinutes) * 60)), nowIso, d.seq});
        else
            Database::execCached(QStringLiteral("UPDATE campaign_enrolments SET status = 'completed', next_step = ?, "
                                                "next_at = NULL, updated_at = ? WHERE seq = ?"),
                                 {next, nowIso, d.seq});
        ++released;
    }
    if (released > 0)
        m_store.notify(EventBus::Entity::CampaignRecipient, c.id, EventBus::Change::Created);
    else if (moved > 0)
        m_store.notify(EventBus::Entity::Campaign, c.id, EventBus::Change::Updated);
    tx.commit();
    return released;
}

EnrolmentPage CampaignRepository::enrolments(const QString &campaignId, const EnrolmentQuery &query) const
{
    const Campaign c = get(campaignId);
    QString where = QStringLiteral(" WHERE e.campaign_seq = ?");
    QVariantList values{c.seq};
    if (!query.statuses.isEmpty()) {
        QStringList marks;
        for (const QString &st : query.statuses) {
            marks << QStringLiteral("?");
            values << st;
        }
        where += QStringLiteral(" AND e.status IN (") + marks.join(QStringLiteral(", ")) + QLatin1Char(')');
    }
    if (!query.contactId.isEmpty()) {
        where += QStringLiteral(" AND e.contact_id = ?");
        values << query.contactId;
    }
    if (!query.search.trimmed().isEmpty()) {
        where += QStringLiteral(" AND (") + SqlDialect::likeFolded(QStringLiteral("k.first_name")) +
                 QStringLiteral(" OR ") + SqlDialect::likeFolded(QStringLiteral("k.last_name")) +
                 QStringLiteral(" OR ") + SqlDialect::likeFolded(QStringLiteral("k.first_name || ' ' || k.last_name")) +
                 QLatin1Char(')');
        const QString like = QLatin1Char('%') + query.search.trimmed() + QLatin1Char('%');
        values << like << like << like;
    }
    EnrolmentPage page;
    page.page = qMax(1, query.page);
    page.limit = qBound(1, query.limit, 200);
    {
        QSqlQuery q = Database::exec(
            QStringLiteral("SELECT count(*) FROM campaign_enrolments e LEFT JOIN contacts k ON k.id = e.contact_id") +
                where,
            values);
        page.total = q.next() ? q.value(0).toLongLong() : 0;
    }
    QVariantList pageValues = values;
    pageValues << page.limit << qint64(page.page - 1) * page.limit;
    QSqlQuery q = Database::exec(
        QStringLiteral("SELECT e.seq, e.contact_id, coalesce(k.first_name, ''), coalesce(k.last_name, ''), e.status, "
                       "e.exit_reason, e.next_step, e.next_at, e.entered_at, e.source, e.updated_at FROM "
                       "campaign_enrolments e LEFT JOIN contacts k ON k.id = e.contact_id") +
            where + QStringLiteral(" ORDER BY e.seq DESC LIMIT ? OFFSET ?"),
        pageValues);
    QHash<qint64, int> index;
    while (q.next()) {
        CampaignEnrolment e;
        e.campaignId = c.id;
        e.contactId = q.value(1).toString();
        e.name = QStringList{q.value(2).toString(), q.value(3).toString()}.join(QLatin1Char(' ')).trimmed();
        e.status = q.value(4).toString();
        e.exitReason = q.value(5).toString();
        e.nextStep = q.value(6).toInt();
        e.nextAt = q.value(7).toString();
        e.enteredAt = q.value(8).toString();
        e.source = q.value(9).toString();
        e.updatedAt = q.value(10).toString();
        index.insert(q.value(0).toLongLong(), int(page.items.size()));
        page.items.append(e);
    }
    q.finish();
    if (!index.isEmpty()) {
        QStringList marks;
        QVariantList seqs;
        for (auto it = index.cbegin(); it != index.cend(); ++it) {
            marks << QStringLiteral("?");
            seqs << it.key();
        }
        QSqlQuery r = Database::exec(QStringLiteral("SELECT ") + kRecipientColumns +
                                         QStringLiteral(", r.enrolment_seq FROM campaign_recipients r JOIN campaigns c "
                                                        "ON c.seq = r.campaign_seq WHERE r.enrolment_seq IN (") +
                                         marks.join(QStringLiteral(", ")) + QStringLiteral(") ORDER BY r.step"),
                                     seqs);
        const int enrolmentColumn = int(kRecipientColumns.count(QLatin1Char(','))) + 1;
        while (r.next())
            page.items[index.value(r.value(enrolmentColumn).toLongLong())].steps.append(recipientFromRow(r));
    }
    return page;
}

QHash<QString, EnrolmentCounts> CampaignRepository::enrolmentCountsOf(const QVector<Campaign> &campaigns) const
{
    QHash<QString, EnrolmentCounts> out;
    QStringList marks;
    QVariantList values;
    QHash<qint64, QString> ids;
    for (const Campaign &c : campaigns) {
        if (c.type == QLatin1String("BROADCAST"))
            continue;
        marks << QStringLiteral("?");
        values << c.seq;
        ids.insert(c.seq, c.id);
        out.insert(c.id, EnrolmentCounts());
    }
    if (marks.isEmpty())
        return out;
    QSqlQuery q =
        Database::exec(QStringLiteral("SELECT e.campaign_seq, e.status, count(*) FROM campaign_enrolments e "
                                      "WHERE e.campaign_seq IN (") +
                           marks.join(QStringLiteral(", ")) + QStringLiteral(") GROUP BY e.campaign_seq, e.status"),
                       values);
    while (q.next()) {
        EnrolmentCounts &n = out[ids.value(q.value(0).toLongLong())];
        const QString status = q.value(1).toString();
        const qint64 count = q.value(2).toLongLong();
        n.total += count;
        if (status == QLatin1String("active"))
            n.active += count;
        else if (status == QLatin1String("completed"))
            n.completed += count;
        else if (status == QLatin1String("exited"))
            n.exited += count;
    }
    return out;
}

Campaign CampaignRepository::pause(const QString &id, const QString &actor, const ModelText &reason)
{
    Transaction tx;
    Campaign c = move(id, QStringLiteral("PAUSED"), actor, reason);
    tx.commit();
    return c;
}

Campaign CampaignRepository::resume(const QString &id, const QString &actor)
{
    Transaction tx;
    Campaign c = get(id);
    if (c.status != QLatin1String("PAUSED"))
        CampaignRules::refuseMove(c.status, QStringLiteral("SENDING"));
    c = move(id, QStringLiteral("SENDING"), actor);
    tx.commit();
    return c;
}

Campaign CampaignRepository::cancel(const QString &id, const QString &actor)
{
    Transaction tx;
    Campaign c = move(id, QStringLiteral("CANCELLED"), actor);
    Database::execCached(QStringLiteral("UPDATE campaign_enrolments SET status = 'exited', exit_reason = 'cancelled', "
                                        "next_at = NULL, updated_at = ? WHERE campaign_seq = ? AND status = 'active'"),
                         {c.updatedAt, c.seq});
    tx.commit();
    return c;
}

int CampaignRepository::retryFailed(const QString &id, const QString &actor)
{
    Transaction tx;
    Campaign c = get(id);
    if (c.isEditable() || c.status == QLatin1String("CANCELLED"))
        CampaignRules::refuseMove(c.status, QStringLiteral("SENDING"));
    CachedQuery u = Database::execCached(
        QStringLiteral("UPDATE campaign_recipients SET status = 'pending', attempts = 0, next_attempt_at = NULL, "
                       "error = NULL, failed_at = NULL, bounced_at = NULL, bounce_type = NULL "
                       "WHERE campaign_seq = ? AND test = 0 AND (status = 'failed' OR (status = 'bounced' AND "
                       "bounce_type = 'soft'))"),
        {c.seq});
    const int n = u.numRowsAffected();
    if (n > 0 && (c.status == QLatin1String("SENT") || c.status == QLatin1String("FAILED")))
        move(id, QStringLiteral("SENDING"), actor);
    m_store.notify(EventBus::Entity::Campaign, c.id, EventBus::Change::Updated);
    tx.commit();
    return n;
}

QVector<CampaignRecipient> CampaignRepository::addTests(const QString &id, const QStringList &addresses,
                                                        const QString &actor)
{
    Q_UNUSED(actor)
    Transaction tx;
    const Campaign c = get(id);
    if (c.status == QLatin1String("CANCELLED"))
        CampaignRules::refuseMove(c.status, QStringLiteral("SENDING"));
    FieldProblems bad;
    QStringList norms;
    for (int i = 0; i < addresses.size(); ++i) {
        const QString norm = SuppressionRepository::normalize(c.channel, addresses.at(i));
        if (norm.isEmpty())
            bad.insert(QStringLiteral("addresses[%1]").arg(i),
                       c.channel == QLatin1String("email")
                           ? ModelText(QT_TRANSLATE_NOOP("ModelError", "is not a valid e-mail address"))
                           : ModelText(QT_TRANSLATE_NOOP("ModelError", "is not a valid phone number")));
        else if (!norms.contains(norm))
            norms << norm;
    }
    if (!bad.isEmpty())
        throw DomainError::invalid(bad);
    const QString now = m_store.nowIso();
    QVector<CampaignRecipient> out;
    for (const QString &norm : std::as_const(norms)) {
        const QString rid = Ids::make(u"rcp");
        Database::insert(
            QStringLiteral("INSERT INTO campaign_recipients (id, campaign_seq, name, address, address_norm, "
                           "test, status, created_at) VALUES (?, ?, '', ?, ?, 1, 'pending', ?)"),
            {rid, c.seq, norm, norm, now});
        out.append(*recipient(rid));
    }
    m_store.notify(EventBus::Entity::CampaignRecipient, c.id, EventBus::Change::Created);
    tx.commit();
    return out;
}

QJsonObject CampaignRepository::audiencePreview(const QString &segmentId, const QString &channel) const
{
    SegmentRepository segments(m_store);
    const SegmentRules::Sql sql = segments.membership(segmentId);
    const bool email = channel == QLatin1String("email");
    QSet<QString> suppressed;
    {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT address_norm FROM campaign_suppressions WHERE channel = ?"), {channel});
        while (q.next())
            suppressed.insert(q.value(0).toString());
    }
    QSqlQuery q =
        Database::exec(QStringLiteral("SELECT ") + (email ? QStringLiteral("c.email") : QStringLiteral("c.phone")) +
                           QStringLiteral(" FROM contacts c WHERE ") + sql.where,
                       sql.values);
    qint64 total = 0, noAddress = 0, unsubscribed = 0, duplicate = 0;
    QSet<QString> seen;
    while (q.next()) {
        ++total;
        const QString norm = SuppressionRepository::normalize(channel, q.value(0).toString());
        if (norm.isEmpty())
            ++noAddress;
        else if (suppressed.contains(norm))
            ++unsubscribed;
        else if (seen.contains(norm))
            ++duplicate;
        else
            seen.insert(norm);
    }
    return {{QStringLiteral("total"), total},
            {QStringLiteral("reachable"), qint64(seen.size())},
            {QStringLiteral("skipped"), QJsonObject{{QStringLiteral("no_address"), noAddress},
                                                    {QStringLiteral("unsubscribed"), unsubscribed},
                                                    {QStringLiteral("duplicate"), duplicate}}}};
}

QVector<CampaignSend> CampaignRepository::claim(const QString &channel, int limit, int leaseSeconds, int perSecond)
{
    const QDateTime now = m_store.now();
    const QString nowIso = TimeUtil::iso(now);
    Transaction tx;
    if (perSecond > 0 && Database::dialect() == Database::Dialect::PostgreSQL) {
        Database::lockUntilCommit(Database::Lock::ChannelSends, QStringLiteral("campaigns-") + channel);
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT (SELECT count(*) FROM campaign_recipients r JOIN campaigns c ON c.seq = "
                           "r.campaign_seq WHERE c.channel = ? AND c.status = 'SENDING' AND r.status = 'sending' AND "
                           "r.test = 0), (SELECT count(*) FROM campaign_recipients r JOIN campaigns c ON c.seq = "
                           "r.campaign_seq WHERE c.channel = ? AND r.sent_at >= ?)"),
            {channel, channel, TimeUtil::iso(now.addSecs(-1))});
        const qint64 used = q.next() ? q.value(0).toLongLong() + q.value(1).toLongLong() : 0;
        q.finish();
        limit = int(qMin<qint64>(limit, perSecond - used));
        if (limit <= 0) {
            tx.commit();
            return {};
        }
    }
    // Which rows: test sends first (any campaign of the channel), then each sending campaign's due
    // rows in order, then rows whose copy's lease ended; each step one range of an index
    // (campaign_recipients_tests, campaign_recipients_queue), locked past by another copy's claim.
    QVariantList seqs;
    auto take = [&](const QString &sql, QVariantList values) {
        if (seqs.size() >= limit)
            return;
        values << qint64(limit - seqs.size());
        QSqlQuery pick = Database::exec(sql + SqlDialect::skipLocked(QStringLiteral("r")), values);
        while (pick.next())
            seqs << pick.value(0).toLongLong();
    };
    take(QStringLiteral("SELECT r.seq FROM campaign_recipients r JOIN campaigns c ON c.seq = r.campaign_seq "
                        "WHERE r.test = 1 AND c.channel = ? AND ((r.status = 'pending' AND (r.next_attempt_at IS "
                        "NULL OR r.next_attempt_at <= ?)) OR (r.status = 'sending' AND r.claimed_until < ?)) "
                        "ORDER BY r.seq LIMIT ?"),
         {channel, nowIso, nowIso});
    QVariantList sendingCampaigns;
    {
        CachedQuery c = Database::execCached(
            QStringLiteral("SELECT seq FROM campaigns WHERE status = 'SENDING' AND channel = ? ORDER BY seq"),
            {channel});
        while (c.next())
            sendingCampaigns << c.value(0);
    }
    for (const QVariant &campaign : std::as_const(sendingCampaigns))
        take(QStringLiteral("SELECT r.seq FROM campaign_recipients r WHERE r.campaign_seq = ? AND r.status = 'pending' "
                            "AND r.test = 0 AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= ?) "
                            "ORDER BY r.seq LIMIT ?"),
             {campaign, nowIso});
    for (const QVariant &campaign : std::as_const(sendingCampaigns))
        take(QStringLiteral("SELECT r.seq FROM campaign_recipients r WHERE r.campaign_seq = ? AND r.status = 'sending' "
                            "AND r.test = 0 AND r.claimed_until < ? ORDER BY r.seq LIMIT ?"),
             {campaign, nowIso});
    if (seqs.isEmpty()) {
        tx.commit();
        return {};
    }
    QStringList marks;
    for (int i = 0; i < seqs.size(); ++i)
        marks << QStringLiteral("?");
    QSqlQuery q = Database::exec(
        QStringLiteral("SELECT r.seq, r.id, c.id, c.name, r.address, r.name, r.attempts, r.test, c.subject, "
                       "c.html_content, c.template_name, c.template_language, coalesce(r.contact_id, ''), "
                       "k.first_name, k.last_name, k.email, k.phone, k.company, k.position, k.custom_fields, "
                       "CASE WHEN k.id IS NULL THEN 0 ELSE 1 END, r.step, c.steps, c.template_params "
                       "FROM campaign_recipients r JOIN campaigns c ON c.seq = r.campaign_seq "
                       "LEFT JOIN contacts k ON k.id = r.contact_id WHERE r.seq IN (") +
            marks.join(QStringLiteral(", ")) + QStringLiteral(") ORDER BY r.test DESC, r.seq"),
        seqs);
    QVector<CampaignSend> out;
    QVariantList gone;                         // recipients whose contact was deleted after the audience froze
    QHash<QString, QVector<DripStep>> stepsOf; // a drip step's content, per campaign
    while (q.next()) {
        CampaignSend s;
        s.recipientSeq = q.value(0).toLongLong();
        s.recipientId = q.value(1).toString();
        s.campaignId = q.value(2).toString();
        s.campaignName = q.value(3).toString();
        s.channel = channel;
        s.address = q.value(4).toString();
        s.name = q.value(5).toString();
        s.attempt = q.value(6).toInt() + 1;
        s.test = q.value(7).toInt() != 0;
        s.subject = q.value(8).toString();
        s.htmlContent = q.value(9).toString();
        s.templateName = q.value(10).toString();
        s.templateLanguage = q.value(11).toString();
        for (const QJsonValue &v : QJsonDocument::fromJson(q.value(23).toString().toUtf8()).array())
            s.templateParams << v.toString();
        if (!q.value(21).isNull()) {
            // A drip or triggered campaign's step: its own subject and body.
            auto steps = stepsOf.find(s.campaignId);
            if (steps == stepsOf.end())
                steps = stepsOf.insert(
                    s.campaignId,
                    DripStep::listFromJson(QJsonDocument::fromJson(q.value(22).toString().toUtf8()).array()));
            const int step = q.value(21).toInt();
            if (step >= 0 && step < steps->size()) {
                s.subject = steps->at(step).subject;
                s.htmlContent = steps->at(step).htmlContent;
                if (!steps->at(step).templateName.isEmpty())
                    s.templateName = steps->at(step).templateName;
            }
        }
        s.contact.id = q.value(12).toString();
        const bool contactExists = q.value(20).toInt() != 0;
        if (!s.test && !s.contact.id.isEmpty() && !contactExists) {
            gone << s.recipientSeq;
            continue;
        }
        s.contact.firstName = q.value(13).toString();
        s.contact.lastName = q.value(14).toString();
        s.contact.email = q.value(15).toString();
        s.contact.phone = q.value(16).toString();
        s.contact.company = q.value(17).toString();
        s.contact.position = q.value(18).toString();
        s.contact.customFields = parseObject(q.value(19).toString());
        if (s.test && s.contact.firstName.isEmpty())
            s.contact.email = s.address;
        out.append(s);
    }
    q.finish();
    const QString until = TimeUtil::iso(now.addSecs(qMax(1, leaseSeconds)));
    if (!out.isEmpty()) {
        QStringList claimedMarks;
        QVariantList values{until};
        for (const CampaignSend &s : std::as_const(out)) {
            claimedMarks << QStringLiteral("?");
            values << s.recipientSeq;
        }
        Database::exec(QStringLiteral("UPDATE campaign_recipients SET status = 'sending', claimed_until = ? WHERE seq "
                                      "IN (") +
                           claimedMarks.join(QStringLiteral(", ")) + QLatin1Char(')'),
                       values);
    }
    for (const QVariant &seq : std::as_const(gone))
        Database::execCached(QStringLiteral("UPDATE campaign_recipients SET status = 'skipped', skip_reason = "
                                            "'contact_deleted', claimed_until = NULL WHERE seq = ?"),
                             {seq});
    tx.commit();
    return out;
}

void CampaignRepository::record(const QVector<CampaignSendResult> &results, const QList<int> &retryDelays)
{
    if (results.isEmpty())
        return;
    const QDateTime now = m_store.now();
    const QString nowIso = TimeUtil::iso(now);
    QStringList campaigns;
    Transaction tx;
    for (const CampaignSendResult &res : results) {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT r.seq, r.attempts, r.status, c.id, c.channel, r.address, r.contact_id, r.test "
                           "FROM campaign_recipients r JOIN campaigns c ON c.seq = r.campaign_seq WHERE r.id = ?"),
            {res.recipientId});
        if (!q.next())
            continue;
        const qint64 seq = q.value(0).toLongLong();
        const int attempts = q.value(1).toInt() + 1;
        const QString status = q.value(2).toString();
        const QString campaignId = q.value(3).toString();
        const QString channel = q.value(4).toString();
        const QString address = q.value(5).toString();
        const QString contactId = q.value(6).toString();
        const bool test = q.value(7).toInt() != 0;
        q.finish();
        // Only a row still in flight takes an outcome (a retry-failed or a second record is ignored).
        if (status != QLatin1String("sending"))
            continue;
        const QString detail = res.detail.left(500);
        switch (res.kind) {
        case CampaignSendResult::Sent:
            // E-mail is delivered once the receiving server accepted it (until a late bounce says
            // otherwise); SMS and WhatsApp when the provider reports it.
            Database::execCached(
                QStringLiteral("UPDATE campaign_recipients SET status = 'sent', attempts = ?, sent_at = ?, "
                               "delivered_at = ?, provider_id = ?, error = NULL, claimed_until = NULL WHERE seq = ?"),
                {attempts, nowIso, channel == QLatin1String("email") ? QVariant(nowIso) : QVariant(QString()),
                 textOrNull(res.providerId), seq});
            break;
        case CampaignSendResult::HardBounce:
            Database::execCached(QStringLiteral("UPDATE campaign_recipients SET status = 'bounced', attempts = ?, "
                                                "bounced_at = ?, bounce_type = 'hard', error = ?, claimed_until = NULL "
                                                "WHERE seq = ?"),
                                 {attempts, nowIso, detail, seq});
            if (!test)
                SuppressionRepository(m_store).add(channel, address, QStringLiteral("hard_bounce"), {}, contactId,
                                                   campaignId);
            break;
        case CampaignSendResult::SoftFailure:
            if (attempts <= retryDelays.size()) {
                Database::execCached(
                    QStringLiteral(
                        "UPDATE campaign_recipients SET status = 'pending', attempts = ?, next_attempt_at = ?, "
                        "error = ?, claimed_until = NULL WHERE seq = ?"),
                    {attempts, TimeUtil::iso(now.addSecs(qMax(1, retryDelays.at(attempts - 1)))), detail, seq});
            } else if (res.code >= 400 && res.code < 500) {
                Database::execCached(QStringLiteral("UPDATE campaign_recipients SET status = 'bounced', attempts = ?, "
                                                    "bounced_at = ?, bounce_type = 'soft', error = ?, claimed_until = "
                                                    "NULL WHERE seq = ?"),
                                     {attempts, nowIso, detail, seq});
            } else {
                Database::execCached(QStringLiteral("UPDATE campaign_recipients SET status = 'failed', attempts = ?, "
                                                    "failed_at = ?, error = ?, claimed_until = NULL WHERE seq = ?"),
                                     {attempts, nowIso, detail, seq});
            }
            break;
        case CampaignSendResult::Failed:
            Database::execCached(QStringLiteral("UPDATE campaign_recipients SET status = 'failed', attempts = ?, "
                                                "failed_at = ?, error = ?, claimed_until = NULL WHERE seq = ?"),
                                 {attempts, nowIso, detail, seq});
            break;
        }
        if (!campaigns.contains(campaignId))
            campaigns << campaignId;
    }
    for (const QString &id : std::as_const(campaigns)) {
        m_store.notify(EventBus::Entity::CampaignRecipient, id, EventBus::Change::Updated);
        finishIfDone(id);
    }
    tx.commit();
}

void CampaignRepository::finishIfDone(const QString &campaignId)
{
    const Campaign c = get(campaignId);
    if (c.status != QLatin1String("SENDING") || c.type != QLatin1String("BROADCAST"))
        return;
    {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT 1 FROM campaign_recipients r WHERE r.campaign_seq = ? AND r.test = 0 AND ") +
                kOpenRecipient + QStringLiteral(" LIMIT 1"),
            {c.seq});
        const bool open = q.next();
        q.finish();
        if (open)
            return;
    }
    const CampaignStats s = stats(campaignId);
    const bool failed = s.sent == 0;
    const ModelText reason =
        !failed ? ModelText()
        : s.total == s.skipped
            ? ModelText(QT_TRANSLATE_NOOP("ModelError", "No one in the audience can be reached on this channel"))
            : ModelText(QT_TRANSLATE_NOOP("ModelError", "No message could be delivered"));
    const Campaign done = move(campaignId, failed ? QStringLiteral("FAILED") : QStringLiteral("SENT"), {}, reason);
    m_store.appendEvent(
        failed ? QStringLiteral("campaign.failed") : QStringLiteral("campaign.completed"),
        QJsonObject{{QStringLiteral("campaign"), done.toJson()}, {QStringLiteral("stats"), s.toJson()}});
}

int CampaignRepository::releaseClaims()
{
    CachedQuery u = Database::execCached(QStringLiteral(
        "UPDATE campaign_recipients SET status = 'pending', claimed_until = NULL WHERE status = 'sending'"));
    return u.numRowsAffected();
}

qint64 CampaignRepository::sentSince(const QString &channel, const QDateTime &since) const
{
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT count(*) FROM campaign_recipients r JOIN campaigns c ON c.seq = r.campaign_seq "
                       "WHERE r.sent_at >= ? AND c.channel = ?"),
        {TimeUtil::iso(since), channel});
    const qint64 n = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return n;
}

QStringList CampaignRepository::sending(const QString &channel) const
{
    QStringList out;
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT id FROM campaigns WHERE status = 'SENDING' AND channel = ? ORDER BY seq"), {channel});
    while (q.next())
        out << q.value(0).toString();
    return out;
}

RecipientPage CampaignRepository::recipients(const QString &campaignId, const RecipientQuery &query) const
{
    const Campaign c = get(campaignId);
    QString where = QStringLiteral(" WHERE r.campaign_seq = ? AND r.test = ?");
    QVariantList values{c.seq, query.test ? 1 : 0};
    if (!query.statuses.isEmpty()) {
        QStringList marks;
        for (const QString &s : query.statuses) {
            marks << QStringLiteral("?");
            values << s;
        }
        where += QStringLiteral(" AND r.status IN (") + marks.join(QStringLiteral(", ")) + QLatin1Char(')');
    }
    if (query.opened)
        where += QStringLiteral(" AND (r.opened_at IS NOT NULL OR r.clicked_at IS NOT NULL)");
    if (query.clicked)
        where += QStringLiteral(" AND r.clicked_at IS NOT NULL");
    if (!query.search.trimmed().isEmpty()) {
        where += QStringLiteral(" AND (") + SqlDialect::likeFolded(QStringLiteral("r.address")) +
                 QStringLiteral(" OR ") + SqlDialect::likeFolded(QStringLiteral("r.name")) + QLatin1Char(')');
        const QString like = QLatin1Char('%') + query.search.trimmed() + QLatin1Char('%');
        values << like << like;
    }
    RecipientPage page;
    page.page = qMax(1, query.page);
    page.limit = qBound(1, query.limit, 500);
    {
        QSqlQuery q = Database::exec(QStringLiteral("SELECT count(*) FROM campaign_recipients r") + where, values);
        if (q.next())
            page.total = q.value(0).toLongLong();
    }
    values << page.limit << qint64(page.page - 1) * page.limit;
    QSqlQuery q = Database::exec(QStringLiteral("SELECT ") + kRecipientColumns +
                                     QStringLiteral(" FROM campaign_recipients r JOIN campaigns c ON c.seq = "
                                                    "r.campaign_seq") +
                                     where + QStringLiteral(" ORDER BY r.seq LIMIT ? OFFSET ?"),
                                 values);
    while (q.next())
        page.items.append(recipientFromRow(q));
    return page;
}

std::optional<CampaignRecipient> CampaignRepository::recipient(const QString &recipientId) const
{
    CachedQuery q = Database::execCached(QStringLiteral("SELECT ") + kRecipientColumns +
                                             QStringLiteral(" FROM campaign_recipients r JOIN campaigns c ON c.seq = "
                                                            "r.campaign_seq WHERE r.id = ?"),
                                         {recipientId});
    if (!q.next())
        return std::nullopt;
    CampaignRecipient r = recipientFromRow(q.query());
    q.finish();
    return r;
}

bool CampaignRepository::recordOpen(const QString &recipientId, bool proxy, const QString &userAgent)
{
    Transaction tx;
    const std::optional<CampaignRecipient> r = recipient(recipientId);
    if (!r)
        return false;
    const QString now = m_store.nowIso();
    if (proxy)
        Database::execCached(
            QStringLiteral("UPDATE campaign_recipients SET proxy_opens = proxy_opens + 1 WHERE seq = ?"), {r->seq});
    else
        Database::execCached(QStringLiteral("UPDATE campaign_recipients SET opens = opens + 1, opened_at = "
                                            "coalesce(opened_at, ?) WHERE seq = ?"),
                             {now, r->seq});
    Database::execCached(
        QStringLiteral("INSERT INTO campaign_events (campaign_seq, recipient_seq, kind, detail, "
                       "created_at) SELECT campaign_seq, seq, ?, ?, ? FROM campaign_recipients WHERE "
                       "seq = ?"),
        {proxy ? QStringLiteral("proxy_open") : QStringLiteral("open"), userAgent.left(300), now, r->seq});
    m_store.notify(EventBus::Entity::CampaignRecipient, r->campaignId, EventBus::Change::Updated);
    tx.commit();
    return true;
}

bool CampaignRepository::recordClick(const QString &recipientId, const QString &url, const QString &userAgent)
{
    Q_UNUSED(userAgent)
    Transaction tx;
    const std::optional<CampaignRecipient> r = recipient(recipientId);
    if (!r)
        return false;
    const QString now = m_store.nowIso();
    Database::execCached(QStringLiteral("UPDATE campaign_recipients SET clicks = clicks + 1, clicked_at = "
                                        "coalesce(clicked_at, ?) WHERE seq = ?"),
                         {now, r->seq});
    Database::execCached(QStringLiteral("INSERT INTO campaign_events (campaign_seq, recipient_seq, kind, detail, "
                                        "created_at) SELECT campaign_seq, seq, 'click', ?, ? FROM campaign_recipients "
                                        "WHERE seq = ?"),
                         {url.left(2000), now, r->seq});
    m_store.notify(EventBus::Entity::CampaignRecipient, r->campaignId, EventBus::Change::Updated);
    tx.commit();
    return true;
}

bool CampaignRepository::unsubscribe(const QString &recipientId, const QString &how)
{
    Transaction tx;
    const std::optional<CampaignRecipient> r = recipient(recipientId);
    if (!r)
        return false;
    const Campaign c = get(r->campaignId);
    const QString now = m_store.nowIso();
    Database::execCached(
        QStringLiteral("UPDATE campaign_recipients SET unsubscribed_at = coalesce(unsubscribed_at, ?) WHERE seq = ?"),
        {now, r->seq});
    Database::execCached(QStringLiteral("INSERT INTO campaign_events (campaign_seq, recipient_seq, kind, detail, "
                                        "created_at) VALUES (?, ?, 'unsubscribe', ?, ?)"),
                         {c.seq, r->seq, how.left(100), now});
    SuppressionRepository(m_store).add(c.channel, r->address, QStringLiteral("unsubscribed"), {}, r->contactId, c.id);
    m_store.notify(EventBus::Entity::CampaignRecipient, c.id, EventBus::Change::Updated);
    tx.commit();
    return true;
}

bool CampaignRepository::recordBounce(const QString &recipientId, bool hard, const QString &detail)
{
    Transaction tx;
    const std::optional<CampaignRecipient> r = recipient(recipientId);
    if (!r)
        return false;
    const Campaign c = get(r->campaignId);
    const QString now = m_store.nowIso();
    Database::execCached(QStringLiteral("UPDATE campaign_recipients SET status = 'bounced', bounced_at = "
                                        "coalesce(bounced_at, ?), bounce_type = ?, delivered_at = NULL, error = ? "
                                        "WHERE seq = ?"),
                         {now, hard ? QStringLiteral("hard") : QStringLiteral("soft"), detail.left(500), r->seq});
    Database::execCached(QStringLiteral("INSERT INTO campaign_events (campaign_seq, recipient_seq, kind, detail, "
                                        "created_at) VALUES (?, ?, 'bounce', ?, ?)"),
                         {c.seq, r->seq, detail.left(500), now});
    if (hard && !r->test)
        SuppressionRepository(m_store).add(c.channel, r->address, QStringLiteral("hard_bounce"), {}, r->contactId,
                                           c.id);
    m_store.notify(EventBus::Entity::CampaignRecipient, c.id, EventBus::Change::Updated);
    tx.commit();
    return true;
}

bool CampaignRepository::recordDelivery(const QString &channel, const QString &providerId, bool delivered,
                                        const QString &detail)
{
    Transaction tx;
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT r.seq, c.id FROM campaign_recipients r JOIN campaigns c ON c.seq = r.campaign_seq "
                       "WHERE r.provider_id = ? AND c.channel = ?"),
        {providerId, channel});
    if (!q.next())
        return false;
    const qint64 seq = q.value(0).toLongLong();
    const QString campaignId = q.value(1).toString();
    q.finish();
    const QString now = m_store.nowIso();
    if (delivered)
        Database::execCached(QStringLiteral("UPDATE campaign_recipients SET status = 'delivered', delivered_at = "
                                            "coalesce(delivered_at, ?) WHERE seq = ?"),
                             {now, seq});
    else
        Database::execCached(QStringLiteral("UPDATE campaign_recipients SET status = 'failed', failed_at = ?, "
                                            "delivered_at = NULL, error = ? WHERE seq = ?"),
                             {now, detail.left(500), seq});
    m_store.notify(EventBus::Entity::CampaignRecipient, campaignId, EventBus::Change::Updated);
    tx.commit();
    return true;
}

QByteArray CampaignRepository::linkKey() const
{
    static const QString name = QStringLiteral("links");
    {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT secret FROM campaign_keys WHERE name = ?"), {name});
        if (q.next())
            return QByteArray::fromBase64(q.value(0).toString().toLatin1());
    }
    QByteArray secret(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(secret.data()), secret.size() / 4);
    // Two copies making it at once: the first row stays, both read it back.
    Transaction tx;
    Database::execCached(Database::dialect() == Database::Dialect::PostgreSQL
                             ? QStringLiteral("INSERT INTO campaign_keys (name, secret, created_at) VALUES (?, ?, ?) "
                                              "ON CONFLICT (name) DO NOTHING")
                             : QStringLiteral("INSERT OR IGNORE INTO campaign_keys (name, secret, created_at) VALUES "
                                              "(?, ?, ?)"),
                         {name, QString::fromLatin1(secret.toBase64()), m_store.nowIso()});
    tx.commit();
    CachedQuery q = Database::execCached(QStringLiteral("SELECT secret FROM campaign_keys WHERE name = ?"), {name});
    return q.next() ? QByteArray::fromBase64(q.value(0).toString().toLatin1()) : secret;
}

QJsonObject Suppression::toJson() const
{
    auto orNull = [](const QString &s) { return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s); };
    return {{QStringLiteral("id"), id},
            {QStringLiteral("channel"), channel},
            {QStringLiteral("address"), address},
            {QStringLiteral("reason"), reason},
            {QStringLiteral("contactId"), orNull(contactId)},
            {QStringLiteral("campaignId"), orNull(campaignId)},
            {QStringLiteral("createdBy"), orNull(createdBy)},
            {QStringLiteral("createdAt"), createdAt}};
}

SuppressionRepository::SuppressionRepository(const Store &store)
    : m_store(store)
{
}

QString SuppressionRepository::normalize(const QString &channel, const QString &address)
{
    const QString a = address.trimmed();
    if (a.isEmpty())
        return {};
    if (channel == QLatin1String("email"))
        return ContactRules::isValidEmail(a) ? a.toLower() : QString();
    return ContactRules::toE164(a);
}

namespace {
Suppression suppressionFromRow(const QSqlQuery &q)
{
    Suppression s;
    int i = 0;
    for (QString *f :
         {&s.id, &s.channel, &s.address, &s.reason, &s.contactId, &s.campaignId, &s.createdBy, &s.createdAt})
        *f = q.value(i++).toString();
    return s;
}
const QString kSuppressionColumns =
    QStringLiteral("id, channel, address, reason, contact_id, campaign_id, created_by, created_at");
} // namespace

SuppressionRepository::Page SuppressionRepository::list(const QString &channel, const QString &search, int page,
                                                        int limit) const
{
    QString where = QStringLiteral(" WHERE 1 = 1");
    QVariantList values;
    if (!channel.isEmpty()) {
        where += QStringLiteral(" AND channel = ?");
        values << channel;
    }
    if (!search.trimmed().isEmpty()) {
        where += QStringLiteral(" AND ") + SqlDialect::likeFolded(QStringLiteral("address"));
        values << QLatin1Char('%') + search.trimmed() + QLatin1Char('%');
    }
    Page out;
    {
        QSqlQuery q = Database::exec(QStringLiteral("SELECT count(*) FROM campaign_suppressions") + where, values);
        if (q.next())
            out.total = q.value(0).toLongLong();
    }
    values << qBound(1, limit, 500) << qint64(qMax(1, page) - 1) * qBound(1, limit, 500);
    QSqlQuery q =
        Database::exec(QStringLiteral("SELECT ") + kSuppressionColumns + QStringLiteral(" FROM campaign_suppressions") +
                           where + QStringLiteral(" ORDER BY seq DESC LIMIT ? OFFSET ?"),
                       values);
    while (q.next())
        out.items.append(suppressionFromRow(q));
    return out;
}

Suppression SuppressionRepository::add(const QString &channel, const QString &address, const QString &reason,
                                       const QString &actor, const QString &contactId, const QString &campaignId)
{
    if (!CampaignRules::Channels.contains(channel))
        throw DomainError::invalid(QStringLiteral("channel"), FieldReader::oneOf(CampaignRules::Channels));
    const QString norm = normalize(channel, address);
    if (norm.isEmpty())
        throw DomainError::invalid(QStringLiteral("address"),
                                   channel == QLatin1String("email")
                                       ? ModelText(QT_TRANSLATE_NOOP("ModelError", "is not a valid e-mail address"))
                                       : ModelText(QT_TRANSLATE_NOOP("ModelError", "is not a valid phone number")));
    Transaction tx;
    {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT ") + kSuppressionColumns +
                                                 QStringLiteral(" FROM campaign_suppressions WHERE channel = ? AND "
                                                                "address_norm = ?"),
                                             {channel, norm});
        if (q.next()) {
            Suppression s = suppressionFromRow(q.query());
            q.finish();
            tx.commit();
            return s;
        }
    }
    Suppression s;
    s.id = Ids::make(u"uns");
    s.channel = channel;
    s.address = norm;
    s.reason = reason;
    s.contactId = contactId;
    s.campaignId = campaignId;
    s.createdBy = m_store.actorOr(actor);
    s.createdAt = m_store.nowIso();
    Database::insert(
        QStringLiteral("INSERT INTO campaign_suppressions (id, channel, address, address_norm, reason, "
                       "contact_id, campaign_id, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {s.id, channel, norm, norm, reason, textOrNull(contactId), textOrNull(campaignId), textOrNull(s.createdBy),
         s.createdAt});
    m_store.notify(EventBus::Entity::Unsubscribe, s.id, EventBus::Change::Created);
    tx.commit();
    return s;
}

void SuppressionRepository::remove(const QString &id, const QString &actor)
{
    Q_UNUSED(actor)
    Transaction tx;
    CachedQuery u = Database::execCached(QStringLiteral("DELETE FROM campaign_suppressions WHERE id = ?"), {id});
    if (u.numRowsAffected() != 1)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Unsubscribe entry"), id);
    m_store.notify(EventBus::Entity::Unsubscribe, id, EventBus::Change::Deleted);
    tx.commit();
}

bool SuppressionRepository::isSuppressed(const QString &channel, const QString &address) const
{
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT 1 FROM campaign_suppressions WHERE channel = ? AND address_norm = ?"),
        {channel, normalize(channel, address)});
    const bool found = q.next();
    q.finish();
    return found;
}

QString CampaignLinks::token(const QByteArray &key, const QString &purpose, const QString &recipientId,
                             const QString &url)
{
    const QByteArray message = purpose.toUtf8() + '\n' + recipientId.toUtf8() + '\n' + url.toUtf8();
    const QByteArray mac = QMessageAuthenticationCode::hash(message, key, QCryptographicHash::Sha256);
    return recipientId + QLatin1Char('.') +
           QString::fromLatin1(mac.left(16).toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString CampaignLinks::verify(const QByteArray &key, const QString &purpose, const QString &token, const QString &url)
{
    const qsizetype dot = token.indexOf(QLatin1Char('.'));
    if (dot <= 0)
        return {};
    const QString id = token.left(dot);
    if (!Ids::looksLike(id, u"rcp"))
        return {};
    const QByteArray expected = CampaignLinks::token(key, purpose, id, url).toLatin1();
    const QByteArray given = token.toLatin1();
    if (expected.size() != given.size())
        return {};
    // Compared in constant time.
    char diff = 0;
    for (qsizetype i = 0; i < expected.size(); ++i)
        diff |= expected.at(i) ^ given.at(i);
    return diff == 0 ? id : QString();
}
