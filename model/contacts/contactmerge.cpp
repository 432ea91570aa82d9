#include "model/contacts/contactmerge.h"

#include "model/contacts/contactrows.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/ids.h"
#include "model/core/outbox.h"
#include "model/core/sqldialect.h"
#include "model/core/timeutil.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace {
using SqlValue::textOrNull;

// The tables that name a contact by id as history of campaigns and bulk sends: their rows follow the
// contact (campaign_enrolments apart: one enrolment per campaign and contact).
const char *const kMergeCampaignTables[] = {"campaign_recipients", "campaign_suppressions", "bulk_recipients"};

const QString kMergeAddressParts[] = {QStringLiteral("street"), QStringLiteral("city"), QStringLiteral("country")};

QStringList mergeStrings(const QString &sql, const QVariantList &values)
{
    QStringList out;
    Database::select(sql, values, [&out](const SqlRow &r) { out << r.text(0); });
    return out;
}

QJsonArray mergeSeqs(const QString &sql, const QVariantList &values)
{
    QJsonArray out;
    Database::select(sql, values, [&out](const SqlRow &r) { out.append(r.integer(0)); });
    return out;
}

qint64 mergeCount(const QString &sql, const QVariantList &values)
{
    qint64 n = 0;
    Database::select(sql, values, [&n](const SqlRow &r) { n = r.integer(0); });
    return n;
}

QStringList mergeStringList(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &x : v.toArray())
        out << x.toString();
    return out;
}

Contact mergeContactFromJson(const QJsonObject &o)
{
    Contact c;
    c.id = o.value(QLatin1String("id")).toString();
    c.firstName = o.value(QLatin1String("firstName")).toString();
    c.lastName = o.value(QLatin1String("lastName")).toString();
    c.email = o.value(QLatin1String("email")).toString();
    c.phone = o.value(QLatin1String("phone")).toString();
    c.company = o.value(QLatin1String("company")).toString();
    c.position = o.value(QLatin1String("position")).toString();
    c.address = o.value(QLatin1String("address")).toObject();
    c.tags = mergeStringList(o.value(QLatin1String("tags")));
    c.customFields = o.value(QLatin1String("customFields")).toObject();
    c.source = o.value(QLatin1String("source")).toString();
    c.leadScore = o.value(QLatin1String("leadScore")).toInt();
    c.lastMessageAt = o.value(QLatin1String("lastMessageAt")).toString();
    c.totalMessages = o.value(QLatin1String("totalMessages")).toInt();
    c.sentiment = o.value(QLatin1String("sentiment")).toString();
    c.createdAt = o.value(QLatin1String("createdAt")).toString();
    c.updatedAt = o.value(QLatin1String("updatedAt")).toString();
    return c;
}

DomainError mergeRefusedMerged(const QString &id, const QString &into)
{
    return DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                       ModelText(QT_TRANSLATE_NOOP("ModelError", "Contact %1 was merged into %2"), {id, into}),
                       QJsonObject{{QStringLiteral("mergedInto"), into}});
}

// The contacts of a merge as stored now, the kept one and the others in the given order; with lock,
// their rows are held to the commit (PostgreSQL), in seq order so that two merges never wait for
// each other crosswise.
struct MergeParties
{
    Contact kept;
    QVector<Contact> others;
};

MergeParties mergeRead(const ContactMerge &merge, const QString &keepId, const QStringList &otherIds, bool lock)
{
    QStringList marks;
    QVariantList values{keepId};
    marks << QStringLiteral("?");
    for (const QString &id : otherIds) {
        marks << QStringLiteral("?");
        values << id;
    }
    QHash<QString, Contact> found;
    Database::select(
        QStringLiteral("SELECT ") + ContactRows::columns() + QStringLiteral(" FROM contacts c WHERE c.id IN (") +
            marks.join(QLatin1Char(',')) + QStringLiteral(") ORDER BY c.seq") +
            (lock ? SqlDialect::forUpdate() : QString()),
        values,
        [&found](const SqlRow &r) {
            const Contact c = ContactRows::fromRow(r);
            found.insert(c.id, c);
        },
        false);
    MergeParties p;
    if (!found.contains(keepId)) {
        const QString into = merge.mergedInto(keepId);
        if (!into.isEmpty())
            throw mergeRefusedMerged(keepId, into);
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Contact"), keepId);
    }
    p.kept = found.value(keepId);
    for (const QString &id : otherIds) {
        if (!found.contains(id)) {
            const QString into = merge.mergedInto(id);
            if (!into.isEmpty())
                throw mergeRefusedMerged(id, into);
            const ModelText problem(QT_TRANSLATE_NOOP("ModelError", "does not exist: %1"), {id});
            throw DomainError::unprocessable(ModelText(QT_TRANSLATE_NOOP("ModelError", "%1 %2"),
                                                       {ModelTextArg::field(QStringLiteral("otherIds")), problem}),
                                             {{QStringLiteral("otherIds"), problem}});
        }
        p.others.append(found.value(id));
    }
    return p;
}

QString mergeJsonText(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// Moves a contact's tasks (those of `only` alone when given) to another, each with task.updated
// ({taskId, contactId, previousContactId, changedFields}, as a deleted deal's tasks get theirs).
QStringList mergeMoveTasks(const Store &store, const QString &from, const QString &to, const QStringList &only = {})
{
    QStringList ids;
    for (const QString &id :
         mergeStrings(QStringLiteral("SELECT id FROM tasks WHERE contact_id = ? ORDER BY seq"), {from})) {
        if (only.isEmpty() || only.contains(id))
            ids << id;
    }
    const QString at = store.nowIso();
    for (const QString &id : std::as_const(ids)) {
        Database::execCached(
            QStringLiteral("UPDATE tasks SET contact_id = ?, updated_at = ? WHERE id = ? AND contact_id = ?"),
            {to, at, id, from});
        store.appendEvent(QStringLiteral("task.updated"),
                          QJsonObject{{QStringLiteral("taskId"), id},
                                      {QStringLiteral("contactId"), to},
                                      {QStringLiteral("previousContactId"), from},
                                      {QStringLiteral("changedFields"), QJsonArray{QStringLiteral("contactId")}}});
        store.notify(EventBus::Entity::Task, id, EventBus::Change::Updated);
    }
    return ids;
}

// A field the kept contact had filled by the merge goes back to its value before, unless someone
// changed it since.
void mergeRevert(QString &now, const QString &after, const QString &before)
{
    if (now == after)
        now = before;
}
} // namespace

QJsonObject MergeCounts::toJson() const
{
    return {{QStringLiteral("notes"), notes},       {QStringLiteral("deals"), deals},
            {QStringLiteral("tasks"), tasks},       {QStringLiteral("conversations"), conversations},
            {QStringLiteral("segments"), segments}, {QStringLiteral("campaigns"), campaigns}};
}

QJsonObject MergeResult::toJson() const
{
    return {{QStringLiteral("mergeId"), mergeId},
            {QStringLiteral("contact"), kept.toJson()},
            {QStringLiteral("removedIds"), QJsonArray::fromStringList(removedIds)},
            {QStringLiteral("filledFields"), QJsonArray::fromStringList(filledFields)},
            {QStringLiteral("moved"), moved.toJson()}};
}

ContactMerge::ContactMerge(const Store &store)
    : m_store(store)
{
}

void ContactMerge::checkRequest(const QString &keepId, const QStringList &otherIds)
{
    const QString field = QStringLiteral("otherIds");
    if (otherIds.isEmpty())
        throw DomainError::missing(field, DomainError::isRequired());
    if (otherIds.size() > kMaxOthers)
        throw DomainError::invalid(
            field, ModelText(QT_TRANSLATE_NOOP("ModelError", "must hold at most %1 contact ids"), {kMaxOthers}));
    QSet<QString> seen;
    for (const QString &id : otherIds) {
        if (id.trimmed().isEmpty())
            throw DomainError::invalid(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "must not hold an empty id")));
        if (id == keepId)
            throw DomainError::invalid(
                field, ModelText(QT_TRANSLATE_NOOP("ModelError", "must not hold the contact kept: %1"), {id}));
        if (seen.contains(id))
            throw DomainError::invalid(field,
                                       ModelText(QT_TRANSLATE_NOOP("ModelError", "holds %1 more than once"), {id}));
        seen.insert(id);
    }
}

QString ContactMerge::mergedInto(const QString &contactId) const
{
    // A chain (A into B, later B into C) is followed to where the contact is now, a few steps at most.
    QString into;
    QString id = contactId;
    for (int step = 0; step < 8; ++step) {
        QString next;
        Database::select(QStringLiteral("SELECT m.kept_id FROM contact_merged_ids i JOIN contact_merges m ON m.seq = "
                                        "i.merge_seq WHERE i.contact_id = ? AND m.undone_at IS NULL ORDER BY m.seq "
                                        "DESC LIMIT 1"),
                         {id}, [&next](const SqlRow &r) { next = r.text(0); });
        if (next.isEmpty() || next == contactId)
            break;
        into = id = next;
    }
    return into;
}

Contact ContactMerge::filled(const Contact &kept, const QVector<Contact> &others, QStringList *filledFields)
{
    Contact r = kept;
    QStringList filledNames;
    const auto fill = [&](QString &field, const char *name, QString Contact::*member) {
        if (!field.trimmed().isEmpty())
            return;
        for (const Contact &o : others) {
            if (!(o.*member).trimmed().isEmpty()) {
                field = o.*member;
                filledNames << QString::fromLatin1(name);
                return;
            }
        }
    };
    fill(r.firstName, "firstName", &Contact::firstName);
    fill(r.lastName, "lastName", &Contact::lastName);
    fill(r.email, "email", &Contact::email);
    fill(r.phone, "phone", &Contact::phone);
    fill(r.company, "company", &Contact::company);
    fill(r.position, "position", &Contact::position);
    fill(r.source, "source", &Contact::source);
    for (const QString &part : kMergeAddressParts) {
        if (!r.address.value(part).toString().trimmed().isEmpty())
            continue;
        for (const Contact &o : others) {
            const QString v = o.address.value(part).toString();
            if (!v.trimmed().isEmpty()) {
                r.address.insert(part, v);
                filledNames << QStringLiteral("address.") + part;
                break;
            }
        }
    }
    QStringList tags = r.tags;
    for (const Contact &o : others)
        tags << o.tags;
    tags = ContactRules::normalizeTags(tags).mid(0, 100);
    if (tags != r.tags) {
        r.tags = tags;
        filledNames << QStringLiteral("tags");
    }
    bool customAdded = false;
    for (const Contact &o : others) {
        for (auto it = o.customFields.begin(); it != o.customFields.end(); ++it) {
            if (r.customFields.contains(it.key()) || r.customFields.size() >= ContactRules::kMaxCustomFields)
                continue;
            QJsonObject tried = r.customFields;
            tried.insert(it.key(), it.value());
            if (QJsonDocument(tried).toJson(QJsonDocument::Compact).size() > ContactRules::kMaxCustomFieldsBytes)
                continue;
            r.customFields = tried;
            customAdded = true;
        }
    }
    if (customAdded)
        filledNames << QStringLiteral("customFields");
    for (const Contact &o : others) {
        if (o.leadScore > r.leadScore) {
            r.leadScore = o.leadScore;
            if (!filledNames.contains(QStringLiteral("leadScore")))
                filledNames << QStringLiteral("leadScore");
        }
        r.totalMessages += o.totalMessages;
        if (!o.lastMessageAt.isEmpty() && (r.lastMessageAt.isEmpty() || o.lastMessageAt > r.lastMessageAt)) {
            r.lastMessageAt = o.lastMessageAt;
            r.sentiment = o.sentiment;
        }
    }
    if (filledFields)
        *filledFields = filledNames;
    return r;
}

MergePreview ContactMerge::preview(const QString &keepId, const QStringList &otherIds) const
{
    checkRequest(keepId, otherIds);
    const ReadTransaction snapshot;
    const MergeParties p = mergeRead(*this, keepId, otherIds, false);
    MergePreview out;
    out.kept = p.kept;
    out.others = p.others;
    out.result = filled(p.kept, p.others, &out.filledFields);
    for (const Contact &o : p.others) {
        if (!o.email.isEmpty() && o.email.trimmed().toLower() != out.result.email.trimmed().toLower())
            out.notKept << o.email;
        if (!o.phone.isEmpty() && ContactRules::toE164(o.phone) != ContactRules::toE164(out.result.phone))
            out.notKept << o.phone;
    }
    QSet<QString> segments;
    for (const QString &s :
         mergeStrings(QStringLiteral("SELECT CAST(segment_seq AS TEXT) FROM segment_members WHERE contact_seq = ?"),
                      {p.kept.seq}))
        segments.insert(s);
    QSet<QString> campaigns;
    for (const QString &s :
         mergeStrings(QStringLiteral("SELECT CAST(campaign_seq AS TEXT) FROM campaign_enrolments WHERE contact_id = ?"),
                      {p.kept.id}))
        campaigns.insert(s);
    for (const Contact &o : p.others) {
        out.moves.notes +=
            int(mergeCount(QStringLiteral("SELECT count(*) FROM contact_notes WHERE contact_seq = ?"), {o.seq}));
        out.moves.deals += int(mergeCount(QStringLiteral("SELECT count(*) FROM deals WHERE contact_id = ?"), {o.id}));
        out.moves.tasks += int(mergeCount(QStringLiteral("SELECT count(*) FROM tasks WHERE contact_id = ?"), {o.id}));
        out.moves.conversations +=
            int(mergeCount(QStringLiteral("SELECT count(*) FROM conversations WHERE contact_id = ?"), {o.id}));
        for (const QString &s :
             mergeStrings(QStringLiteral("SELECT CAST(segment_seq AS TEXT) FROM segment_members WHERE contact_seq = ?"),
                          {o.seq})) {
            if (!segments.contains(s)) {
                segments.insert(s);
                ++out.moves.segments;
            }
        }
        for (const char *table : kMergeCampaignTables)
            out.moves.campaigns += int(mergeCount(
                QStringLiteral("SELECT count(*) FROM %1 WHERE contact_id = ?").arg(QLatin1String(table)), {o.id}));
        for (const QString &s : mergeStrings(
                 QStringLiteral("SELECT CAST(campaign_seq AS TEXT) FROM campaign_enrolments WHERE contact_id = ?"),
                 {o.id})) {
            if (!campaigns.contains(s)) {
                campaigns.insert(s);
                ++out.moves.campaigns;
            }
        }
    }
    return out;
}

MergeResult ContactMerge::merge(const QString &keepId, const QStringList &otherIds, const QString &actorGiven)
{
    checkRequest(keepId, otherIds);
    const QString actor = m_store.actorOr(actorGiven);
    Transaction tx;
    const MergeParties p = mergeRead(*this, keepId, otherIds, true);
    const Contact &kept = p.kept;
    MergeResult out;
    out.mergeId = Ids::make(u"merge");
    Contact result = filled(kept, p.others, &out.filledFields);
    const QString now = m_store.nowIso();
    DealRepository deals(m_store);
    ConversationRepository conversations(m_store);
    QJsonArray removed;
    QJsonArray keptSegmentsAdded;
    for (const Contact &o : p.others) {
        QJsonObject rec{{QStringLiteral("contact"), o.toJson()}};
        const QStringList notes =
            mergeStrings(QStringLiteral("SELECT id FROM contact_notes WHERE contact_seq = ? ORDER BY seq"), {o.seq});
        Database::execCached(QStringLiteral("UPDATE contact_notes SET contact_seq = ? WHERE contact_seq = ?"),
                             {kept.seq, o.seq});
        rec.insert(QStringLiteral("notes"), QJsonArray::fromStringList(notes));
        out.moved.notes += int(notes.size());

        // Static segments: the other's memberships are recorded (its rows go with it); the kept
        // contact joins those it was not in, as of the other's joining.
        QJsonArray segments;
        QVector<std::tuple<qint64, QString, QString>> memberships;
        Database::select(QStringLiteral("SELECT m.segment_seq, s.id, m.added_at FROM segment_members m JOIN segments s "
                                        "ON s.seq = m.segment_seq WHERE m.contact_seq = ? ORDER BY m.segment_seq"),
                         {o.seq}, [&memberships](const SqlRow &r) {
                             memberships.append({r.integer(0), r.text(1), r.text(2)});
                         });
        for (const auto &[segmentSeq, segmentId, addedAt] : std::as_const(memberships)) {
            segments.append(QJsonObject{{QStringLiteral("id"), segmentId}, {QStringLiteral("addedAt"), addedAt}});
            if (mergeCount(
                    QStringLiteral("SELECT count(*) FROM segment_members WHERE segment_seq = ? AND contact_seq = ?"),
                    {segmentSeq, kept.seq}) == 0) {
                Database::execCached(
                    QStringLiteral("INSERT INTO segment_members (segment_seq, contact_seq, added_at) VALUES (?, ?, ?)"),
                    {segmentSeq, kept.seq, addedAt});
                keptSegmentsAdded.append(segmentId);
                ++out.moved.segments;
            }
        }
        rec.insert(QStringLiteral("segments"), segments);

        const QStringList dealIds = deals.moveContact(o.id, kept.id);
        rec.insert(QStringLiteral("deals"), QJsonArray::fromStringList(dealIds));
        out.moved.deals += int(dealIds.size());
        const QStringList taskIds = mergeMoveTasks(m_store, o.id, kept.id);
        rec.insert(QStringLiteral("tasks"), QJsonArray::fromStringList(taskIds));
        out.moved.tasks += int(taskIds.size());
        const QStringList conversationIds = conversations.moveContact(o.id, kept.id);
        rec.insert(QStringLiteral("conversations"), QJsonArray::fromStringList(conversationIds));
        out.moved.conversations += int(conversationIds.size());

        QJsonObject campaignRows;
        for (const char *table : kMergeCampaignTables) {
            const QString t = QLatin1String(table);
            const QJsonArray seqs = mergeSeqs(QStringLiteral("SELECT seq FROM %1 WHERE contact_id = ?").arg(t), {o.id});
            Database::execCached(QStringLiteral("UPDATE %1 SET contact_id = ? WHERE contact_id = ?").arg(t),
                                 {kept.id, o.id});
            campaignRows.insert(t, seqs);
            out.moved.campaigns += int(seqs.size());
        }
        // One enrolment per campaign and contact: the other's enrolment in a campaign the kept contact
        // is in already stays with the removed id (as a deleted contact's does).
        const QJsonArray enrolments =
            mergeSeqs(QStringLiteral("SELECT seq FROM campaign_enrolments WHERE contact_id = ? AND campaign_seq NOT IN "
                                     "(SELECT campaign_seq FROM campaign_enrolments WHERE contact_id = ?)"),
                      {o.id, kept.id});
        for (const QJsonValue &seq : enrolments)
            Database::execCached(QStringLiteral("UPDATE campaign_enrolments SET contact_id = ? WHERE seq = ?"),
                                 {kept.id, seq.toInteger()});
        campaignRows.insert(QStringLiteral("campaign_enrolments"), enrolments);
        out.moved.campaigns += int(enrolments.size());
        rec.insert(QStringLiteral("campaignRows"), campaignRows);

        ContactRows::remove(o);
        QJsonObject data = ContactRows::eventData(o);
        data.insert(QStringLiteral("mergedInto"), kept.id);
        data.insert(QStringLiteral("mergeId"), out.mergeId);
        m_store.appendEvent(QStringLiteral("contact.deleted"), data);
        removed.append(rec);
        out.removedIds << o.id;
    }

    QJsonArray changed = Outbox::changedFields(kept.toJson(), result.toJson(), {QStringLiteral("updatedAt")});
    if (out.moved.notes > 0)
        changed.append(QStringLiteral("notes"));
    result.updatedAt = now;
    ContactRows::update(result, result.tags != kept.tags);
    ContactRows::writeCounters(result);
    QJsonObject data = ContactRows::eventData(result);
    data.insert(QStringLiteral("changedFields"), changed);
    data.insert(QStringLiteral("mergedFrom"), QJsonArray::fromStringList(out.removedIds));
    data.insert(QStringLiteral("mergeId"), out.mergeId);
    m_store.appendEvent(QStringLiteral("contact.updated"), data);

    const QJsonObject record{{QStringLiteral("keptBefore"), kept.toJson()},
                             {QStringLiteral("keptAfter"), result.toJson()},
                             {QStringLiteral("keptSegmentsAdded"), keptSegmentsAdded},
                             {QStringLiteral("removed"), removed}};
    const qint64 seq = Database::insert(
        QStringLiteral(
            "INSERT INTO contact_merges (id, kept_id, record, merged_by, created_at) VALUES (?, ?, ?, ?, ?)"),
        {out.mergeId, kept.id, mergeJsonText(record), textOrNull(actor), now});
    for (const QString &id : std::as_const(out.removedIds))
        Database::execCached(QStringLiteral("INSERT INTO contact_merged_ids (contact_id, merge_seq) VALUES (?, ?)"),
                             {id, seq});
    tx.commit();
    m_store.notify(EventBus::Entity::Contact, kept.id, EventBus::Change::Updated);
    for (const QString &id : std::as_const(out.removedIds))
        m_store.notify(EventBus::Entity::Contact, id, EventBus::Change::Deleted);
    out.kept = result;
    return out;
}

MergeUndone ContactMerge::undo(const QString &mergeId, const QString &actorGiven)
{
    Q_UNUSED(actorGiven);
    Transaction tx;
    qint64 seq = 0;
    QString keptId, recordText, createdAt, undoneAt;
    Database::select(
        QStringLiteral("SELECT seq, kept_id, record, created_at, undone_at FROM contact_merges WHERE id = ?") +
            SqlDialect::forUpdate(),
        {mergeId}, [&](const SqlRow &r) {
            seq = r.integer(0);
            keptId = r.text(1);
            recordText = r.text(2);
            createdAt = r.text(3);
            undoneAt = r.isNull(4) ? QString() : r.text(4);
        });
    if (seq == 0)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Merge"), mergeId);
    if (!undoneAt.isEmpty())
        throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Merge %1 was undone already"), {mergeId}));
    const std::optional<QDateTime> created = TimeUtil::parse(createdAt);
    if (created && created->addDays(kUndoDays) < m_store.now())
        throw DomainError(
            DomainError::Conflict, QStringLiteral("CONFLICT"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "A merge can be undone within %1 days only"), {kUndoDays}));
    std::optional<Contact> found;
    Database::select(QStringLiteral("SELECT ") + ContactRows::columns() +
                         QStringLiteral(" FROM contacts c WHERE c.id = ?") + SqlDialect::forUpdate(),
                     {keptId}, [&found](const SqlRow &r) { found = ContactRows::fromRow(r); });
    if (!found)
        throw DomainError(
            DomainError::Conflict, QStringLiteral("CONFLICT"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Contact %1, which the merge kept, no longer exists"), {keptId}));
    const QJsonObject record = QJsonDocument::fromJson(recordText.toUtf8()).object();
    const Contact before = mergeContactFromJson(record.value(QLatin1String("keptBefore")).toObject());
    const Contact after = mergeContactFromJson(record.value(QLatin1String("keptAfter")).toObject());
    const QJsonArray removed = record.value(QLatin1String("removed")).toArray();
    const QString now = m_store.nowIso();

    // The kept contact first: the e-mail or phone it took from a removed contact is free again
    // before that contact comes back.
    const Contact keptNow = *found;
    Contact k = keptNow;
    mergeRevert(k.firstName, after.firstName, before.firstName);
    mergeRevert(k.lastName, after.lastName, before.lastName);
    mergeRevert(k.email, after.email, before.email);
    mergeRevert(k.phone, after.phone, before.phone);
    mergeRevert(k.company, after.company, before.company);
    mergeRevert(k.position, after.position, before.position);
    mergeRevert(k.source, after.source, before.source);
    for (const QString &part : kMergeAddressParts) {
        QString v = k.address.value(part).toString();
        mergeRevert(v, after.address.value(part).toString(), before.address.value(part).toString());
        k.address.insert(part, v);
    }
    QSet<QString> tagsBefore;
    for (const QString &t : before.tags)
        tagsBefore.insert(ContactRules::tagKey(t));
    QSet<QString> tagsAdded;
    for (const QString &t : after.tags) {
        if (!tagsBefore.contains(ContactRules::tagKey(t)))
            tagsAdded.insert(ContactRules::tagKey(t));
    }
    k.tags.removeIf([&tagsAdded](const QString &t) { return tagsAdded.contains(ContactRules::tagKey(t)); });
    for (auto it = after.customFields.begin(); it != after.customFields.end(); ++it) {
        if (before.customFields.contains(it.key()) || k.customFields.value(it.key()) != it.value())
            continue;
        k.customFields.remove(it.key());
    }
    if (k.leadScore == after.leadScore)
        k.leadScore = before.leadScore;
    int movedMessages = 0;
    for (const QJsonValue &rec : removed)
        movedMessages +=
            rec.toObject().value(QLatin1String("contact")).toObject().value(QLatin1String("totalMessages")).toInt();
    k.totalMessages = std::max(0, k.totalMessages - movedMessages);
    if (k.lastMessageAt == after.lastMessageAt) {
        k.lastMessageAt = before.lastMessageAt;
        k.sentiment = before.sentiment;
    }
    QJsonArray changed = Outbox::changedFields(keptNow.toJson(), k.toJson(), {QStringLiteral("updatedAt")});
    k.updatedAt = now;
    ContactRows::update(k, k.tags != keptNow.tags);
    ContactRows::writeCounters(k);

    MergeUndone out;
    out.mergeId = mergeId;
    DealRepository deals(m_store);
    ConversationRepository conversations(m_store);
    for (const QJsonValue &value : removed) {
        const QJsonObject rec = value.toObject();
        Contact c = mergeContactFromJson(rec.value(QLatin1String("contact")).toObject());
        if (mergeCount(QStringLiteral("SELECT count(*) FROM contacts WHERE id = ?"), {c.id}) > 0)
            throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                              ModelText(QT_TRANSLATE_NOOP("ModelError", "Contact %1 exists already"), {c.id}));
        c.seq = 0;
        ContactRows::refuseTaken(c); // another contact took its e-mail or phone since
        c.updatedAt = now;
        ContactRows::insert(c);
        ContactRows::writeCounters(c);

        const QStringList notes = mergeStringList(rec.value(QLatin1String("notes")));
        for (const QString &id : notes) {
            CachedQuery q = Database::execCached(
                QStringLiteral("UPDATE contact_notes SET contact_seq = ? WHERE id = ? AND contact_seq = ?"),
                {c.seq, id, k.seq});
            out.movedBack.notes += q.numRowsAffected();
        }
        for (const QJsonValue &s : rec.value(QLatin1String("segments")).toArray()) {
            const QJsonObject m = s.toObject();
            Database::execCached(
                QStringLiteral("INSERT INTO segment_members (segment_seq, contact_seq, added_at) SELECT seq, ?, ? FROM "
                               "segments WHERE id = ? ON CONFLICT DO NOTHING"),
                {c.seq, m.value(QLatin1String("addedAt")).toString(), m.value(QLatin1String("id")).toString()});
        }
        out.movedBack.deals +=
            int(deals.moveContact(k.id, c.id, mergeStringList(rec.value(QLatin1String("deals")))).size());
        out.movedBack.tasks +=
            int(mergeMoveTasks(m_store, k.id, c.id, mergeStringList(rec.value(QLatin1String("tasks")))).size());
        out.movedBack.conversations += int(
            conversations.moveContact(k.id, c.id, mergeStringList(rec.value(QLatin1String("conversations")))).size());
        const QJsonObject campaignRows = rec.value(QLatin1String("campaignRows")).toObject();
        for (auto it = campaignRows.begin(); it != campaignRows.end(); ++it) {
            const QString table = it.key();
            const bool known = table == QLatin1String("campaign_enrolments") ||
                               std::any_of(std::begin(kMergeCampaignTables), std::end(kMergeCampaignTables),
                                           [&table](const char *t) { return table == QLatin1String(t); });
            if (!known)
                continue; // never a table name from elsewhere in SQL
            for (const QJsonValue &rowSeq : it.value().toArray()) {
                CachedQuery q = Database::execCached(
                    QStringLiteral("UPDATE %1 SET contact_id = ? WHERE seq = ? AND contact_id = ?").arg(table),
                    {c.id, rowSeq.toInteger(), k.id});
                out.movedBack.campaigns += q.numRowsAffected();
            }
        }
        QJsonObject data = ContactRows::eventData(c);
        data.insert(QStringLiteral("unmergedFrom"), k.id);
        data.insert(QStringLiteral("mergeId"), mergeId);
        m_store.appendEvent(QStringLiteral("contact.created"), data);
        out.restored.append(c);
    }
    for (const QJsonValue &s : record.value(QLatin1String("keptSegmentsAdded")).toArray()) {
        CachedQuery q = Database::execCached(
            QStringLiteral("DELETE FROM segment_members WHERE contact_seq = ? AND segment_seq IN (SELECT seq FROM "
                           "segments WHERE id = ?)"),
            {k.seq, s.toString()});
        out.movedBack.segments += q.numRowsAffected();
    }
    if (out.movedBack.notes > 0)
        changed.append(QStringLiteral("notes"));
    QJsonObject data = ContactRows::eventData(k);
    data.insert(QStringLiteral("changedFields"), changed);
    QStringList restoredIds;
    for (const Contact &c : std::as_const(out.restored))
        restoredIds << c.id;
    data.insert(QStringLiteral("unmerged"), QJsonArray::fromStringList(restoredIds));
    data.insert(QStringLiteral("mergeId"), mergeId);
    m_store.appendEvent(QStringLiteral("contact.updated"), data);
    Database::execCached(QStringLiteral("UPDATE contact_merges SET undone_at = ? WHERE seq = ?"), {now, seq});
    Database::execCached(QStringLiteral("DELETE FROM contact_merged_ids WHERE merge_seq = ?"), {seq});
    tx.commit();
    m_store.notify(EventBus::Entity::Contact, k.id, EventBus::Change::Updated);
    for (const QString &id : std::as_const(restoredIds))
        m_store.notify(EventBus::Entity::Contact, id, EventBus::Change::Created);
    out.kept = k;
    return out;
}
