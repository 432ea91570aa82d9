#include "model/contacts/segmentrepository.h"

#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/ids.h"
#include "model/core/outbox.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

namespace {
using SqlValue::text;
using SqlValue::textOrNull;
const QString kSegmentColumns =
    QStringLiteral("seq, id, name, description, filters, is_dynamic, created_by, created_at, updated_at");
constexpr int MaxContactIds = 1000;

Segment segmentFromRow(SqlRowReader r)
{
    Segment s;
    s.seq = r.integer();
    s.id = r.text();
    s.name = r.text();
    s.description = r.text();
    const QByteArray filters = r.bytes();
    s.filters =
        filters.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QJsonDocument::fromJson(filters).object());
    s.isDynamic = r.flag();
    s.createdBy = r.text();
    s.createdAt = r.text();
    s.updatedAt = r.text();
    return s;
}

QVariant filtersText(const QJsonValue &filters)
{
    if (!filters.isObject())
        return QVariant(QMetaType(QMetaType::QString));
    return QString::fromUtf8(QJsonDocument(filters.toObject()).toJson(QJsonDocument::Compact));
}

QString nameKey(const QString &name)
{
    return name.trimmed().toLower();
}

// The event payload: the segment (without contactCount, which a dynamic segment would have to count).
QJsonObject eventData(const Segment &s)
{
    QJsonObject data = s.toJson();
    data.remove(QStringLiteral("contactCount"));
    data.insert(QStringLiteral("segmentId"), s.id);
    return data;
}

[[noreturn]] void missingField(const QString &field, const ModelText &problem = DomainError::isRequired())
{
    throw DomainError::unprocessable(ModelText(QT_TRANSLATE_NOOP("ModelError", "Required field missing: %1"),
                                               {DomainError::problemList({{field, problem}})}),
                                     {{field, problem}});
}

void checkUniqueName(const QString &name, qint64 seq)
{
    CachedQuery q = Database::execCached(QStringLiteral("SELECT id FROM segments WHERE name_norm = ? AND seq != ?"),
                                         {nameKey(name), seq});
    if (q.next()) {
        const QString existing = q.value(0).toString();
        q.finish();
        throw DomainError(
            DomainError::Conflict, QStringLiteral("CONFLICT"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "A segment named %1 already exists"), {name}),
            FieldProblems{{QStringLiteral("name"), ModelText(QT_TRANSLATE_NOOP("ModelError", "already exists"))}},
            QJsonObject{{QStringLiteral("existingId"), existing}});
    }
    q.finish();
}

[[noreturn]] void dynamicRefused(const Segment &s)
{
    throw DomainError::badRequest(
        ModelText(QT_TRANSLATE_NOOP("ModelError",
                                    "Segment %1 is dynamic: its members follow its filters and cannot be added or "
                                    "removed by hand"),
                  {s.id}),
        {{QStringLiteral("isDynamic"),
          ModelText(QT_TRANSLATE_NOOP("ModelError", "contacts are added to static segments only"))}});
}

// Stores the contacts matching `where` as members of a static segment; returns how many were new.
int storeMembers(qint64 segmentSeq, const SegmentRules::Sql &where, const QString &now)
{
    QVariantList values{segmentSeq, now};
    values << where.values;
    const QSqlQuery q =
        Database::exec(QStringLiteral("INSERT INTO segment_members (segment_seq, contact_seq, added_at) SELECT ?, "
                                      "c.seq, ? FROM contacts c WHERE ") +
                           where.where + QStringLiteral(" ON CONFLICT DO NOTHING"),
                       values);
    return q.numRowsAffected();
}
} // namespace

SegmentRepository::SegmentRepository(const Store &store)
    : m_store(store)
{
}

QVector<Segment> SegmentRepository::list(bool withCounts) const
{
    QVector<Segment> out;
    CachedQuery q = Database::execCached(QStringLiteral("SELECT ") + kSegmentColumns +
                                         QStringLiteral(" FROM segments ORDER BY name_norm, seq"));
    while (q.next())
        out.append(segmentFromRow(q));
    q.finish();
    if (withCounts) {
        for (Segment &s : out)
            s.contactCount = count(s);
    }
    return out;
}

std::optional<Segment> SegmentRepository::find(const QString &id) const
{
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT ") + kSegmentColumns + QStringLiteral(" FROM segments WHERE id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    Segment s = segmentFromRow(q);
    q.finish();
    return s;
}

Segment SegmentRepository::get(const QString &id, bool withCount) const
{
    std::optional<Segment> s = find(id);
    if (!s)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Segment"), id);
    if (withCount)
        s->contactCount = count(*s);
    return *s;
}

SegmentRules::Sql SegmentRepository::membership(const Segment &segment) const
{
    if (!segment.isDynamic)
        return {QStringLiteral("c.seq IN (SELECT contact_seq FROM segment_members WHERE segment_seq = ?)"),
                {segment.seq}};
    if (!segment.filters.isObject())
        return {QStringLiteral("1 = 0"), {}};
    return SegmentRules::compile(segment.filters.toObject(), m_store.clock());
}

SegmentRules::Sql SegmentRepository::membership(const QString &id) const
{
    return membership(get(id, false));
}

qint64 SegmentRepository::count(const Segment &segment) const
{
    ContactQuery q;
    const SegmentRules::Sql sql = membership(segment);
    q.extraWhere = sql.where;
    q.extraValues = sql.values;
    return ContactRepository(m_store).count(q);
}

SegmentRules::Sql SegmentRepository::matching(const QJsonValue &filters) const
{
    return SegmentRules::compile(SegmentRules::validate(filters), m_store.clock());
}

qint64 SegmentRepository::countMatching(const QJsonValue &filters) const
{
    const SegmentRules::Sql sql = matching(filters);
    ContactQuery q;
    q.extraWhere = sql.where;
    q.extraValues = sql.values;
    return ContactRepository(m_store).count(q);
}

ContactPage SegmentRepository::contacts(const QString &id, int page, int limit) const
{
    const SegmentRules::Sql sql = membership(id);
    ContactQuery q;
    q.page = page;
    q.limit = limit;
    q.extraWhere = sql.where;
    q.extraValues = sql.values;
    return ContactRepository(m_store).list(q);
}

Segment SegmentRepository::create(SegmentChanges c, const QString &actorGiven)
{
    const QString actor = m_store.actorOr(actorGiven);
    SegmentRules::check(c);
    if (!c.name)
        missingField(QStringLiteral("name"));
    Segment s;
    s.name = *c.name;
    s.description = c.description.value_or(QString());
    s.isDynamic = c.isDynamic.value_or(true);
    s.filters = c.filters.value_or(QJsonValue(QJsonValue::Null));
    if (s.isDynamic && !s.filters.isObject())
        missingField(QStringLiteral("filters"),
                     ModelText(QT_TRANSLATE_NOOP("ModelError", "are required for a dynamic segment")));
    s.id = Ids::make(u"seg");
    s.createdBy = actor;
    s.createdAt = s.updatedAt = m_store.nowIso();

    return Database::refuseDuplicate([&] { return insertNew(s); }, [&] { checkUniqueName(s.name, 0); });
}

Segment SegmentRepository::insertNew(Segment s)
{
    Transaction tx;
    checkUniqueName(s.name, 0);
    s.seq = Database::insert(
        QStringLiteral("INSERT INTO segments (id, name, name_norm, description, filters, is_dynamic, created_by, "
                       "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {s.id, s.name, nameKey(s.name), text(s.description), filtersText(s.filters), s.isDynamic ? 1 : 0,
         textOrNull(s.createdBy), s.createdAt, s.updatedAt});
    // A static segment made with filters takes the matching contacts once.
    if (!s.isDynamic && s.filters.isObject())
        storeMembers(s.seq, SegmentRules::compile(s.filters.toObject(), m_store.clock()), s.createdAt);
    m_store.appendEvent(QStringLiteral("segment.created"), eventData(s));
    s.contactCount = count(s);
    tx.commit();
    m_store.notify(EventBus::Entity::Segment, s.id, EventBus::Change::Created);
    return s;
}

Segment SegmentRepository::update(const QString &id, SegmentChanges c, const QString &actor)
{
    Q_UNUSED(actor);
    SegmentRules::check(c);
    return Database::refuseDuplicate([&] { return updateOnce(id, c); },
                                     [&] {
                                         if (c.name)
                                             checkUniqueName(*c.name, get(id, false).seq);
                                     });
}

Segment SegmentRepository::updateOnce(const QString &id, const SegmentChanges &c)
{
    Transaction tx;
    const Segment before = get(id, false);
    Segment s = before;
    if (c.name)
        s.name = *c.name;
    if (c.description)
        s.description = *c.description;
    if (c.isDynamic)
        s.isDynamic = *c.isDynamic;
    if (c.filters)
        s.filters = *c.filters;
    if (s.isDynamic && !s.filters.isObject())
        missingField(QStringLiteral("filters"),
                     ModelText(QT_TRANSLATE_NOOP("ModelError", "are required for a dynamic segment")));

    const QJsonArray changed = Outbox::changedFields(before.toJson(), s.toJson());
    if (changed.isEmpty()) {
        s.contactCount = count(s);
        return s; // nothing to store, no event
    }
    if (c.name && nameKey(s.name) != nameKey(before.name))
        checkUniqueName(s.name, s.seq);
    s.updatedAt = m_store.nowIso();
    if (before.isDynamic && !s.isDynamic) {
        // Frozen: the contacts the rules match now become the stored members.
        const QJsonObject rules = s.filters.isObject() ? s.filters.toObject() : before.filters.toObject();
        storeMembers(s.seq, SegmentRules::compile(rules, m_store.clock()), s.updatedAt);
    } else if (!before.isDynamic && s.isDynamic) {
        Database::execCached(QStringLiteral("DELETE FROM segment_members WHERE segment_seq = ?"), {s.seq});
    }
    Database::execCached(QStringLiteral("UPDATE segments SET name = ?, name_norm = ?, description = ?, filters = ?, "
                                        "is_dynamic = ?, updated_at = ? WHERE seq = ?"),
                         {s.name, nameKey(s.name), text(s.description), filtersText(s.filters), s.isDynamic ? 1 : 0,
                          s.updatedAt, s.seq});
    QJsonObject data = eventData(s);
    data.insert(QStringLiteral("changedFields"), changed);
    m_store.appendEvent(QStringLiteral("segment.updated"), data);
    s.contactCount = count(s);
    tx.commit();
    m_store.notify(EventBus::Entity::Segment, s.id, EventBus::Change::Updated);
    return s;
}

void SegmentRepository::remove(const QString &id, const QString &actor)
{
    Q_UNUSED(actor);
    Transaction tx;
    const Segment s = get(id, false);
    Database::execCached(QStringLiteral("DELETE FROM segments WHERE seq = ?"), {s.seq});
    m_store.appendEvent(QStringLiteral("segment.deleted"), eventData(s));
    tx.commit();
    m_store.notify(EventBus::Entity::Segment, s.id, EventBus::Change::Deleted);
}

Segment SegmentRepository::addContacts(const QString &id, const QStringList &contactIds, const QString &actor,
                                       int *added)
{
    Q_UNUSED(actor);
    QStringList ids;
    for (const QString &cid : contactIds) {
        const QString t = cid.trimmed();
        if (!t.isEmpty() && !ids.contains(t))
            ids << t;
    }
    if (ids.isEmpty())
        missingField(QStringLiteral("contactIds"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must not be empty")));
    if (ids.size() > MaxContactIds) {
        throw DomainError::invalid(
            QStringLiteral("contactIds"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "must hold at most %1 ids"), {MaxContactIds}));
    }

    Transaction tx;
    Segment s = get(id, false);
    if (s.isDynamic)
        dynamicRefused(s);
    QVector<qint64> seqs;
    QJsonArray unknown;
    for (const QString &cid : std::as_const(ids)) {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT seq FROM contacts WHERE id = ?"), {cid});
        if (q.next())
            seqs << q.value(0).toLongLong();
        else
            unknown.append(cid);
        q.finish();
    }
    if (!unknown.isEmpty()) {
        QStringList names;
        for (const QJsonValue &u : std::as_const(unknown))
            names << u.toString();
        throw DomainError(
            DomainError::NotFound, QStringLiteral("NOT_FOUND"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Contacts not found: %1"), {names.join(QStringLiteral(", "))}),
            {{QStringLiteral("contactIds"), unknown}});
    }
    const QString now = m_store.nowIso();
    int n = 0;
    QJsonArray addedIds;
    for (int i = 0; i < seqs.size(); ++i) {
        CachedQuery q = Database::execCached(
            QStringLiteral(
                "INSERT INTO segment_members (segment_seq, contact_seq, added_at) VALUES (?, ?, ?) ON CONFLICT DO "
                "NOTHING"),
            {s.seq, seqs.at(i), now});
        if (q.numRowsAffected() > 0) {
            ++n;
            addedIds.append(ids.at(i));
        }
    }
    if (n > 0) {
        s.updatedAt = now;
        Database::execCached(QStringLiteral("UPDATE segments SET updated_at = ? WHERE seq = ?"), {now, s.seq});
        QJsonObject data = eventData(s);
        data.insert(QStringLiteral("contactIds"), addedIds);
        m_store.appendEvent(QStringLiteral("segment.contacts_added"), data);
    }
    s.contactCount = count(s);
    tx.commit();
    if (added)
        *added = n;
    if (n > 0)
        m_store.notify(EventBus::Entity::Segment, s.id, EventBus::Change::Updated);
    return s;
}

Segment SegmentRepository::removeContact(const QString &id, const QString &contactId, const QString &actor)
{
    Q_UNUSED(actor);
    Transaction tx;
    Segment s = get(id, false);
    if (s.isDynamic)
        dynamicRefused(s);
    CachedQuery q = Database::execCached(QStringLiteral("SELECT seq FROM contacts WHERE id = ?"), {contactId});
    if (!q.next())
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Contact"), contactId);
    const qint64 contactSeq = q.value(0).toLongLong();
    q.finish();
    CachedQuery del = Database::execCached(
        QStringLiteral("DELETE FROM segment_members WHERE segment_seq = ? AND contact_seq = ?"), {s.seq, contactSeq});
    if (del.numRowsAffected() < 1)
        throw DomainError(
            DomainError::NotFound, QStringLiteral("NOT_FOUND"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Contact %1 is not in segment %2"), {contactId, s.id}));
    s.updatedAt = m_store.nowIso();
    Database::execCached(QStringLiteral("UPDATE segments SET updated_at = ? WHERE seq = ?"), {s.updatedAt, s.seq});
    QJsonObject data = eventData(s);
    data.insert(QStringLiteral("contactIds"), QJsonArray{contactId});
    m_store.appendEvent(QStringLiteral("segment.contacts_removed"), data);
    s.contactCount = count(s);
    tx.commit();
    m_store.notify(EventBus::Entity::Segment, s.id, EventBus::Change::Updated);
    return s;
}

Segment SegmentRepository::snapshot(const QString &id, SegmentChanges c, const QString &actorGiven)
{
    const QString actor = m_store.actorOr(actorGiven);
    SegmentRules::check(c);
    // A name of its own that another copy took first: that copy's Conflict. A numbered name: the next
    // number, a few times at most.
    for (int attempt = 1;; ++attempt) {
        try {
            return Database::refuseDuplicate([&] { return snapshotOnce(id, c, actor); },
                                             [&] {
                                                 if (c.name)
                                                     checkUniqueName(*c.name, 0);
                                             });
        } catch (const UniqueViolation &) {
            if (c.name || attempt >= 3 || Database::inWriteTransaction())
                throw;
        }
    }
}

Segment SegmentRepository::snapshotOnce(const QString &id, const SegmentChanges &c, const QString &actor)
{
    Transaction tx;
    const Segment source = get(id, false);
    Segment s;
    s.createdAt = s.updatedAt = m_store.nowIso();
    if (c.name) {
        s.name = *c.name;
        checkUniqueName(s.name, 0);
    } else {
        // "<name> (snapshot 2026-05-01 14:30)", numbered when taken.
        const QString base = QStringLiteral("%1 (snapshot %2)")
                                 .arg(source.name.left(SegmentRules::MaxNameLength - 40),
                                      m_store.clock().now().toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")));
        s.name = base;
        for (int n = 2;; ++n) {
            CachedQuery q =
                Database::execCached(QStringLiteral("SELECT 1 FROM segments WHERE name_norm = ?"), {nameKey(s.name)});
            const bool taken = q.next();
            q.finish();
            if (!taken)
                break;
            s.name = QStringLiteral("%1 %2").arg(base).arg(n);
        }
    }
    s.description = c.description.value_or(source.description);
    s.filters = source.filters;
    s.isDynamic = false;
    s.id = Ids::make(u"seg");
    s.createdBy = actor;
    s.seq = Database::insert(
        QStringLiteral("INSERT INTO segments (id, name, name_norm, description, filters, is_dynamic, created_by, "
                       "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {s.id, s.name, nameKey(s.name), text(s.description), filtersText(s.filters), 0, textOrNull(actor), s.createdAt,
         s.updatedAt});
    storeMembers(s.seq, membership(source), s.createdAt);
    QJsonObject data = eventData(s);
    data.insert(QStringLiteral("snapshotOf"), source.id);
    m_store.appendEvent(QStringLiteral("segment.created"), data);
    s.contactCount = count(s);
    tx.commit();
    m_store.notify(EventBus::Entity::Segment, s.id, EventBus::Change::Created);
    return s;
}
