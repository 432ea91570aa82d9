#include "model/inbox/conversationrepository.h"

#include "model/contacts/contact.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/ids.h"
#include "model/core/sqldialect.h"
#include "model/core/timeutil.h"

#include <QJsonDocument>
#include <QSqlQuery>

namespace {
using SqlValue::text;
using SqlValue::textOrNull;
const QString kConversationColumns = QStringLiteral(
    "v.seq, v.id, v.contact_id, v.channel, v.channel_id, v.external_id, v.status, v.assigned_to, "
    "coalesce(u.name, ''), v.tags, v.source, v.first_response_seconds, v.total_messages, v.unread_count, "
    "v.last_message_text, v.last_message_direction, v.last_message_at, v.first_incoming_at, v.created_at, "
    "v.updated_at, c.first_name, c.last_name, c.phone, v.visitor_name, v.ai_handoff, v.ai_draft, v.ai_draft_answer_id");
// LEFT JOIN: an anonymous web visitor's conversation has no contact.
const QString kConversationFrom = QStringLiteral(
    " FROM conversations v LEFT JOIN contacts c ON c.id = v.contact_id LEFT JOIN users u ON u.id = v.assigned_to");

const QString kMessageColumns = QStringLiteral(
    "m.seq, m.id, m.conversation_id, m.contact_id, m.channel, m.direction, m.type, m.text, m.media_url, m.caption, "
    "m.filename, m.payload, m.status, m.sent_at, m.delivered_at, m.read_at, m.failed_at, m.failed_reason, "
    "m.provider_id, m.sender_type, m.sender_id, m.sender_name, m.sentiment_score, m.created_at");
const QString kSelectMessages = QStringLiteral("SELECT ") + kMessageColumns + QStringLiteral(" FROM messages m");

QString compactJson(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString compactJson(const QStringList &list)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(list)).toJson(QJsonDocument::Compact));
}

Conversation conversationFromRow(SqlRowReader r)
{
    Conversation v;
    v.seq = r.integer();
    v.id = r.text();
    v.contactId = r.text();
    v.channel = r.text();
    v.channelId = r.text();
    v.externalId = r.text();
    v.status = r.text();
    v.assignedTo = r.text();
    v.assignedName = r.text();
    v.tags = r.jsonStrings();
    v.source = r.text();
    v.firstResponseSeconds = r.integerOrNull();
    v.totalMessages = int(r.integer());
    v.unreadCount = int(r.integer());
    v.lastMessageText = r.text();
    v.lastMessageDirection = r.text();
    v.lastMessageAt = r.text();
    v.firstIncomingAt = r.text();
    v.createdAt = r.text();
    v.updatedAt = r.text();
    v.contactFirstName = r.text();
    v.contactLastName = r.text();
    v.contactPhone = r.text();
    v.visitorName = r.text();
    v.aiHandoff = r.text();
    v.aiDraft = r.text();
    v.aiDraftAnswerId = r.text();
    return v;
}

Message messageFromRow(SqlRowReader r)
{
    Message m;
    m.seq = r.integer();
    m.id = r.text();
    m.conversationId = r.text();
    m.contactId = r.text();
    m.channel = r.text();
    m.direction = r.text();
    m.type = r.text();
    m.text = r.text();
    m.mediaUrl = r.text();
    m.caption = r.text();
    m.filename = r.text();
    m.payload = r.jsonObject();
    m.delivery.status = r.text();
    m.delivery.sentAt = r.text();
    m.delivery.deliveredAt = r.text();
    m.delivery.readAt = r.text();
    m.delivery.failedAt = r.text();
    m.delivery.failedReason = r.text();
    m.providerId = r.text();
    m.sender.type = r.text();
    m.sender.id = r.text();
    m.sender.name = r.text();
    m.sentimentScore = int(r.integer());
    m.createdAt = r.text();
    return m;
}

std::optional<Conversation> selectConversation(const QString &where, const QVariantList &values)
{
    CachedQuery q = Database::execCached(QStringLiteral("SELECT ") + kConversationColumns + kConversationFrom +
                                             QStringLiteral(" WHERE ") + where,
                                         values);
    if (!q.next())
        return std::nullopt;
    Conversation v = conversationFromRow(q);
    q.finish();
    return v;
}

// A conversation's or message's contact id in an event: null for an anonymous web visitor's.
QJsonValue contactIdJson(const QString &contactId)
{
    return contactId.isEmpty() ? QJsonValue() : QJsonValue(contactId);
}

QJsonValue assigneeJson(const Conversation &v)
{
    if (v.assignedTo.isEmpty())
        return QJsonValue::Null;
    return QJsonObject{{QStringLiteral("id"), v.assignedTo}, {QStringLiteral("name"), v.assignedName}};
}

QJsonObject updatedData(const Conversation &v, const QStringList &changed)
{
    return {{QStringLiteral("conversationId"), v.id},
            {QStringLiteral("contactId"), contactIdJson(v.contactId)},
            {QStringLiteral("channel"), v.channel},
            {QStringLiteral("status"), v.status},
            {QStringLiteral("assignedTo"), assigneeJson(v)},
            {QStringLiteral("tags"), QJsonArray::fromStringList(v.tags)},
            {QStringLiteral("changedFields"), QJsonArray::fromStringList(changed)}};
}

QJsonObject statusData(const Message &m, const QString &status)
{
    QJsonObject data{{QStringLiteral("messageId"), m.id},
                     {QStringLiteral("conversationId"), m.conversationId},
                     {QStringLiteral("status"), status}};
    const QString at = status == QLatin1String("sent")        ? m.delivery.sentAt
                       : status == QLatin1String("delivered") ? m.delivery.deliveredAt
                       : status == QLatin1String("read")      ? m.delivery.readAt
                                                              : m.delivery.failedAt;
    data.insert(QStringLiteral("at"), at);
    if (status == QLatin1String("failed"))
        data.insert(QStringLiteral("failedReason"), m.delivery.failedReason);
    return data;
}

void insertMessage(Message &m, qint64 conversationSeq)
{
    m.seq = Database::insert(
        QStringLiteral(
            "INSERT INTO messages (id, conversation_seq, conversation_id, contact_id, channel, direction, type, text, "
            "media_url, caption, filename, payload, status, sent_at, delivered_at, read_at, failed_at, failed_reason, "
            "provider_id, sender_type, sender_id, sender_name, sentiment_score, created_at, send_priority) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {m.id,
         conversationSeq,
         m.conversationId,
         text(m.contactId), // '' in a conversation without a contact
         m.channel,
         m.direction,
         m.type,
         text(m.text),
         textOrNull(m.mediaUrl),
         textOrNull(m.caption),
         textOrNull(m.filename),
         m.payload.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(compactJson(m.payload)),
         m.delivery.status,
         textOrNull(m.delivery.sentAt),
         textOrNull(m.delivery.deliveredAt),
         textOrNull(m.delivery.readAt),
         textOrNull(m.delivery.failedAt),
         textOrNull(m.delivery.failedReason),
         textOrNull(m.providerId),
         text(m.sender.type),
         textOrNull(m.sender.id),
         text(m.sender.name),
         m.sentimentScore,
         m.createdAt,
         m.sendPriority});
}

// A new message of this conversation with this content, stamped now (not yet stored).
Message newMessage(const Conversation &v, const MessageContent &content, const QString &direction, const QDateTime &now)
{
    Message m;
    m.id = Ids::make(u"msg");
    m.conversationId = v.id;
    m.contactId = v.contactId;
    m.channel = v.channel;
    m.direction = direction;
    m.type = content.type;
    m.text = content.text;
    m.mediaUrl = content.mediaUrl;
    m.caption = content.caption;
    m.filename = content.filename;
    m.payload = content.payload;
    m.createdAt = TimeUtil::iso(now);
    return m;
}

// The preview shown in the conversation list.
QString preview(const Message &m)
{
    if (!m.text.isEmpty())
        return m.text.left(200);
    return QLatin1Char('[') + m.type + QLatin1Char(']');
}

struct Where
{
    QString sql;
    QVariantList values;
    void add(const QString &clause, const QVariant &value)
    {
        sql += (sql.isEmpty() ? QStringLiteral(" WHERE ") : QStringLiteral(" AND ")) + clause;
        values << value;
    }

    // One page of `select` (SELECT … FROM …) under this filter, in `order`, each row read by
    // `read`; returns the filter's total, counted over `countFrom` (run it in a ReadTransaction,
    // so that the page and the total agree).
    template<typename Item, typename Read>
    qint64 page(const QString &select, const QString &countFrom, const QString &order, int limit, qint64 offset,
                QVector<Item> *items, Read read) const
    {
        QVariantList v = values;
        v << limit << offset;
        CachedQuery q = Database::execCached(
            select + sql + QStringLiteral(" ORDER BY ") + order + QStringLiteral(" LIMIT ? OFFSET ?"), v);
        while (q.next())
            items->append(read(q));
        q.finish();
        CachedQuery n = Database::execCached(QStringLiteral("SELECT count(*) FROM ") + countFrom + sql, values);
        const qint64 total = n.next() ? n.value(0).toLongLong() : 0;
        n.finish();
        return total;
    }
};
} // namespace

ConversationRepository::ConversationRepository(const Store &store)
    : m_store(store)
{
}

Conversation ConversationRepository::findOrCreate(const QString &contactId, const QString &channel,
                                                  const QString &externalId, const QString &source,
                                                  const QString &channelId)
{
    if (!ConversationRules::channels().contains(channel))
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: channel must be one of %1"),
                      {ConversationRules::channels().join(QStringLiteral(", "))}),
            {{QStringLiteral("channel"), ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown channel"))}});
    Transaction tx;
    const std::optional<Conversation> existing =
        externalId.isEmpty()
            ? selectConversation(QStringLiteral("v.contact_id = ? AND v.channel = ? ORDER BY v.seq DESC LIMIT 1"),
                                 {contactId, channel})
            : selectConversation(
                  QStringLiteral(
                      "v.contact_id = ? AND v.channel = ? AND v.external_id = ? ORDER BY v.seq DESC LIMIT 1"),
                  {contactId, channel, externalId});
    if (existing)
        return *existing;
    CachedQuery cq = Database::execCached(
        QStringLiteral("SELECT first_name, last_name, phone FROM contacts WHERE id = ?"), {contactId});
    if (!cq.next())
        throw DomainError(DomainError::NotFound, QStringLiteral("NOT_FOUND"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Contact not found")));
    const QString firstName = cq.value(0).toString(), lastName = cq.value(1).toString(), phone = cq.value(2).toString();
    cq.finish();
    const QString id = Ids::make(u"conv");
    const QString at = m_store.nowIso();
    Database::execCached(
        QStringLiteral(
            "INSERT INTO conversations (id, contact_id, channel, channel_id, external_id, status, tags, "
            "source, last_activity_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'open', '[]', ?, ?, ?, ?)"),
        {id, contactId, channel, text(channelId), textOrNull(externalId), text(source.isEmpty() ? channel : source), at,
         at, at});
    m_store.appendEvent(QStringLiteral("conversation.created"),
                        {{QStringLiteral("conversationId"), id},
                         {QStringLiteral("contactId"), contactId},
                         {QStringLiteral("channel"), channel},
                         {QStringLiteral("source"), source.isEmpty() ? channel : source},
                         {QStringLiteral("contact"),
                          QJsonObject{{QStringLiteral("id"), contactId},
                                      {QStringLiteral("firstName"), firstName},
                                      {QStringLiteral("lastName"), lastName},
                                      {QStringLiteral("phone"), phone.isEmpty() ? QJsonValue() : QJsonValue(phone)}}}});
    const Conversation v = get(id);
    tx.commit();
    m_store.notify(EventBus::Entity::Conversation, id, EventBus::Change::Created);
    return v;
}

Conversation ConversationRepository::createForVisitor(const QString &visitorId, const QString &visitorName)
{
    Transaction tx;
    const QString id = Ids::make(u"conv");
    const QString at = m_store.nowIso();
    Database::execCached(
        QStringLiteral("INSERT INTO conversations (id, contact_id, channel, channel_id, external_id, status, tags, "
                       "source, last_activity_at, created_at, updated_at, visitor_name) VALUES (?, NULL, 'widget', "
                       "'widget', ?, 'open', '[]', 'widget', ?, ?, ?, ?)"),
        {id, visitorId, at, at, at, visitorName});
    m_store.appendEvent(QStringLiteral("conversation.created"),
                        {{QStringLiteral("conversationId"), id},
                         {QStringLiteral("contactId"), QJsonValue()},
                         {QStringLiteral("channel"), QStringLiteral("widget")},
                         {QStringLiteral("source"), QStringLiteral("widget")},
                         {QStringLiteral("contact"), QJsonValue()},
                         {QStringLiteral("visitor"),
                          QJsonObject{{QStringLiteral("id"), visitorId}, {QStringLiteral("name"), visitorName}}}});
    const Conversation v = get(id);
    tx.commit();
    m_store.notify(EventBus::Entity::Conversation, id, EventBus::Change::Created);
    return v;
}

Conversation ConversationRepository::attachContact(const QString &id, const QString &contactId)
{
    Transaction tx;
    const Conversation before = get(id);
    if (before.contactId == contactId)
        return before;
    if (before.hasContact())
        throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Conversation %1 already has a contact"), {id}),
                          {{QStringLiteral("contactId"), ModelText(QT_TRANSLATE_NOOP("ModelError", "already set"))}});
    CachedQuery cq =
        Database::execCached(QStringLiteral("SELECT first_name, last_name FROM contacts WHERE id = ?"), {contactId});
    if (!cq.next())
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Contact"), contactId);
    const QString name = QStringList{cq.value(0).toString(), cq.value(1).toString()}.join(QLatin1Char(' ')).trimmed();
    cq.finish();
    const QString at = m_store.nowIso();
    // Only while it has none: of two attaching at once, one wins and the other is refused (and its
    // transaction, with any contact it made, rolled back).
    CachedQuery u = Database::execCached(QStringLiteral("UPDATE conversations SET contact_id = ?, visitor_name = NULL, "
                                                        "updated_at = ? WHERE seq = ? AND contact_id IS NULL"),
                                         {contactId, at, before.seq});
    if (u.numRowsAffected() != 1)
        throw DomainError(DomainError::Conflict, QStringLiteral("CONFLICT"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Conversation %1 already has a contact"), {id}),
                          {{QStringLiteral("contactId"), ModelText(QT_TRANSLATE_NOOP("ModelError", "already set"))}});
    u.finish();
    const Conversation v = get(id); // read after the update took the row: its counts are final
    // The visitor's messages become the contact's, and so does the name they were sent under.
    Database::execCached(QStringLiteral("UPDATE messages SET contact_id = ? WHERE conversation_seq = ?"),
                         {contactId, before.seq});
    Database::execCached(QStringLiteral("UPDATE messages SET sender_id = ?, sender_name = ? WHERE conversation_seq = "
                                        "? AND sender_type = 'contact'"),
                         {contactId, name, before.seq});
    Database::execCached(QStringLiteral("UPDATE widget_visitors SET contact_id = ? WHERE conversation_id = ?"),
                         {contactId, before.id});
    // The contact's counters take the conversation's messages in.
    if (v.totalMessages > 0) {
        Database::execCached(
            QStringLiteral("UPDATE contacts SET total_messages = total_messages + ?, last_message_at = CASE WHEN "
                           "last_message_at IS NULL OR last_message_at < ? THEN ? ELSE last_message_at END "
                           "WHERE id = ?"),
            {v.totalMessages, v.lastMessageAt, v.lastMessageAt, contactId});
    }
    m_store.appendEvent(QStringLiteral("conversation.updated"), updatedData(v, {QStringLiteral("contactId")}));
    tx.commit();
    m_store.notify(EventBus::Entity::Conversation, v.id, EventBus::Change::Updated);
    m_store.notify(EventBus::Entity::Contact, contactId, EventBus::Change::Updated);
    return v;
}

QStringList ConversationRepository::moveContact(const QString &from, const QString &to, const QStringList &only)
{
    QVector<QPair<QString, qint64>> moving;
    {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT id, seq FROM conversations WHERE contact_id = ? ORDER BY seq"), {from});
        while (q.next()) {
            const QString id = q.value(0).toString();
            if (only.isEmpty() || only.contains(id))
                moving.append({id, q.value(1).toLongLong()});
        }
        q.finish();
    }
    QStringList ids;
    const QString at = m_store.nowIso();
    for (const auto &[id, seq] : std::as_const(moving)) {
        Database::execCached(QStringLiteral("UPDATE conversations SET contact_id = ?, updated_at = ? WHERE seq = ?"),
                             {to, at, seq});
        Database::execCached(QStringLiteral("UPDATE messages SET contact_id = ? WHERE conversation_seq = ?"),
                             {to, seq});
        Database::execCached(QStringLiteral("UPDATE messages SET sender_id = ? WHERE conversation_seq = ? AND "
                                            "sender_type = 'contact' AND sender_id = ?"),
                             {to, seq, from});
        Database::execCached(
            QStringLiteral("UPDATE widget_visitors SET contact_id = ? WHERE conversation_id = ? AND contact_id = ?"),
            {to, id, from});
        m_store.appendEvent(QStringLiteral("conversation.updated"),
                            updatedData(get(id), {QStringLiteral("contactId")}));
        m_store.notify(EventBus::Entity::Conversation, id, EventBus::Change::Updated);
        ids << id;
    }
    return ids;
}

std::optional<Conversation> ConversationRepository::find(const QString &id) const
{
    return selectConversation(QStringLiteral("v.id = ?"), {id});
}

Conversation ConversationRepository::get(const QString &id) const
{
    std::optional<Conversation> v = find(id);
    if (!v)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Conversation"), id);
    return *v;
}

std::optional<Conversation> ConversationRepository::findFor(const QString &contactId, const QString &channel) const
{
    return selectConversation(QStringLiteral("v.contact_id = ? AND v.channel = ? ORDER BY v.seq DESC LIMIT 1"),
                              {contactId, channel});
}

ConversationPage ConversationRepository::list(const ConversationQuery &query) const
{
    const ReadTransaction snapshot; // the page and its total agree
    Where w;
    if (!query.status.isEmpty())
        w.add(QStringLiteral("v.status = ?"), query.status);
    if (!query.channel.isEmpty())
        w.add(QStringLiteral("v.channel = ?"), query.channel);
    if (query.assignedTo == QLatin1String("none"))
        w.add(QStringLiteral("coalesce(v.assigned_to, '') = ?"), QString(QStringLiteral("")));
    else if (!query.assignedTo.isEmpty())
        w.add(QStringLiteral("v.assigned_to = ?"), query.assignedTo);
    if (!query.contactId.isEmpty())
        w.add(QStringLiteral("v.contact_id = ?"), query.contactId);
    if (query.unreadOnly)
        w.add(QStringLiteral("v.unread_count > ?"), 0);
    if (query.waitingOnly) {
        w.add(QStringLiteral("v.last_message_direction = ?"), QStringLiteral("incoming"));
        w.add(QStringLiteral("v.status != ?"), QStringLiteral("closed"));
    }
    QVariantList words;
    const QString named = SqlDialect::wordsBeginFolded(
        QStringLiteral("coalesce(n.first_name, '') || ' ' || coalesce(n.last_name, '')"), query.contactSearch, &words);
    if (!named.isEmpty()) {
        // Over the contact of the conversation (the count reads conversations alone).
        w.sql += (w.sql.isEmpty() ? QStringLiteral(" WHERE ") : QStringLiteral(" AND ")) +
                 QStringLiteral("EXISTS (SELECT 1 FROM contacts n WHERE n.id = v.contact_id AND %1)").arg(named);
        w.values << words;
    }
    ConversationPage page;
    const int limit = qBound(1, query.limit, 1000);
    page.total = w.page(QStringLiteral("SELECT ") + kConversationColumns + kConversationFrom,
                        QStringLiteral("conversations v"), QStringLiteral("v.last_activity_at DESC, v.seq DESC"), limit,
                        qint64(qMax(1, query.page) - 1) * limit, &page.items, conversationFromRow);
    return page;
}

QJsonArray ConversationRepository::forContact(const QString &contactId) const
{
    QJsonArray out;
    Database::select(
        QStringLiteral("SELECT id, channel, status, last_message_at FROM conversations WHERE contact_id = ? "
                       "ORDER BY last_activity_at DESC, seq DESC"),
        {contactId}, [&out](const SqlRow &r) {
            out.append(
                QJsonObject{{QStringLiteral("id"), r.text(0)},
                            {QStringLiteral("channel"), r.text(1)},
                            {QStringLiteral("status"), r.text(2)},
                            {QStringLiteral("lastMessage"), r.isNull(3) ? QJsonValue() : QJsonValue(r.text(3))}});
        });
    return out;
}

Conversation ConversationRepository::update(const QString &id, const std::optional<QString> &status,
                                            const std::optional<QString> &assignedTo)
{
    if (status && !ConversationRules::statuses().contains(*status))
        throw DomainError::invalid(QStringLiteral("status"),
                                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be open, pending or closed")));
    Transaction tx;
    const Conversation before = get(id);
    Conversation v = before;
    QStringList changed;
    if (status && *status != before.status) {
        v.status = *status;
        changed << QStringLiteral("status");
    }
    if (assignedTo && *assignedTo != before.assignedTo) {
        if (!assignedTo->isEmpty()) {
            CachedQuery u = Database::execCached(QStringLiteral("SELECT name FROM users WHERE id = ?"), {*assignedTo});
            if (!u.next())
                throw DomainError(
                    DomainError::NotFound, QStringLiteral("NOT_FOUND"),
                    ModelText(QT_TRANSLATE_NOOP("ModelError", "User %1 does not exist"), {*assignedTo}),
                    {{QStringLiteral("assignedTo"), ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown user"))}});
            v.assignedName = u.value(0).toString();
            u.finish();
        } else {
            v.assignedName.clear();
        }
        v.assignedTo = *assignedTo;
        changed << QStringLiteral("assignedTo");
    }
    if (changed.isEmpty())
        return before; // nothing to store, no event
    const bool closing = changed.contains(QStringLiteral("status")) && v.status == QLatin1String("closed");
    v.updatedAt = m_store.nowIso();
    Database::execCached(
        QStringLiteral("UPDATE conversations SET status = ?, assigned_to = ?, closed_at = ?, updated_at = ?, "
                       "ai_handoff = CASE WHEN ? = 1 THEN NULL ELSE ai_handoff END, "
                       "ai_draft = CASE WHEN ? = 1 THEN NULL ELSE ai_draft END WHERE seq = ?"),
        {v.status, textOrNull(v.assignedTo), v.status == QLatin1String("closed") ? QVariant(v.updatedAt) : QVariant(),
         v.updatedAt, closing ? 1 : 0, closing ? 1 : 0, v.seq});
    if (closing) {
        // A person closed it: the assistant may answer in it again, and its draft is moot.
        v.aiHandoff.clear();
        v.aiDraft.clear();
        v.aiDraftAnswerId.clear();
    }
    m_store.appendEvent(QStringLiteral("conversation.updated"), updatedData(v, changed));
    if (changed.contains(QStringLiteral("assignedTo"))) {
        m_store.appendEvent(QStringLiteral("conversation.assigned"),
                            {{QStringLiteral("conversationId"), v.id},
                             {QStringLiteral("contactId"), contactIdJson(v.contactId)},
                             {QStringLiteral("assignedTo"), assigneeJson(v)},
                             {QStringLiteral("previousAssignee"),
                              before.assignedTo.isEmpty() ? QJsonValue() : QJsonValue(before.assignedTo)}});
    }
    if (changed.contains(QStringLiteral("status")) && v.status == QLatin1String("closed")) {
        m_store.appendEvent(QStringLiteral("conversation.closed"),
                            {{QStringLiteral("conversationId"), v.id},
                             {QStringLiteral("contactId"), contactIdJson(v.contactId)},
                             {QStringLiteral("channel"), v.channel},
                             {QStringLiteral("closedAt"), v.updatedAt}});
    }
    tx.commit();
    m_store.notify(EventBus::Entity::Conversation, v.id, EventBus::Change::Updated);
    return v;
}

std::optional<Conversation> ConversationRepository::assignIfUnassigned(const QString &id, const QString &userId)
{
    Transaction tx;
    CachedQuery u = Database::execCached(QStringLiteral("SELECT name FROM users WHERE id = ?"), {userId});
    if (!u.next())
        throw DomainError(DomainError::NotFound, QStringLiteral("NOT_FOUND"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "User %1 does not exist"), {userId}),
                          {{QStringLiteral("assignedTo"), ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown user"))}});
    u.finish();
    const QString now = m_store.nowIso();
    CachedQuery q = Database::execCached(
        QStringLiteral("UPDATE conversations SET assigned_to = ?, updated_at = ? WHERE id = ? AND assigned_to IS NULL"),
        {userId, now, id});
    if (q.numRowsAffected() != 1) {
        get(id); // NotFound for an unknown conversation
        return std::nullopt;
    }
    const Conversation v = get(id);
    m_store.appendEvent(QStringLiteral("conversation.updated"), updatedData(v, {QStringLiteral("assignedTo")}));
    m_store.appendEvent(QStringLiteral("conversation.assigned"),
                        {{QStringLiteral("conversationId"), v.id},
                         {QStringLiteral("contactId"), contactIdJson(v.contactId)},
                         {QStringLiteral("assignedTo"), assigneeJson(v)},
                         {QStringLiteral("previousAssignee"), QJsonValue()}});
    tx.commit();
    m_store.notify(EventBus::Entity::Conversation, v.id, EventBus::Change::Updated);
    return v;
}

Conversation ConversationRepository::addTags(const QString &id, const QStringList &tags)
{
    Transaction tx;
    Conversation v = get(id);
    const QStringList merged = ContactRules::normalizeTags(v.tags + tags);
    if (merged == v.tags)
        return v;
    v.tags = merged;
    v.updatedAt = m_store.nowIso();
    Database::execCached(QStringLiteral("UPDATE conversations SET tags = ?, updated_at = ? WHERE seq = ?"),
                         {compactJson(v.tags), v.updatedAt, v.seq});
    m_store.appendEvent(QStringLiteral("conversation.updated"), updatedData(v, {QStringLiteral("tags")}));
    tx.commit();
    m_store.notify(EventBus::Entity::Conversation, v.id, EventBus::Change::Updated);
    return v;
}

Conversation ConversationRepository::removeTag(const QString &id, const QString &tag)
{
    Transaction tx;
    Conversation v = get(id);
    QStringList kept;
    for (const QString &t : std::as_const(v.tags)) {
        if (ContactRules::tagKey(t) != ContactRules::tagKey(tag))
            kept << t;
    }
    if (kept.size() == v.tags.size())
        throw DomainError(DomainError::NotFound, QStringLiteral("NOT_FOUND"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Conversation %1 has no tag %2"), {id, tag}));
    v.tags = kept;
    v.updatedAt = m_store.nowIso();
    Database::execCached(QStringLiteral("UPDATE conversations SET tags = ?, updated_at = ? WHERE seq = ?"),
                         {compactJson(v.tags), v.updatedAt, v.seq});
    m_store.appendEvent(QStringLiteral("conversation.updated"), updatedData(v, {QStringLiteral("tags")}));
    tx.commit();
    m_store.notify(EventBus::Entity::Conversation, v.id, EventBus::Change::Updated);
    return v;
}

qint64 ConversationRepository::unreadConversations() const
{
    CachedQuery q = Database::execCached(QStringLiteral("SELECT count(*) FROM conversations WHERE unread_count > 0"));
    const qint64 n = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return n;
}

void ConversationRepository::markRead(const QString &id)
{
    Transaction tx;
    const Conversation v = get(id);
    if (v.unreadCount == 0)
        return;
    const QString at = m_store.nowIso();
    Database::execCached(QStringLiteral("UPDATE conversations SET unread_count = 0 WHERE seq = ?"), {v.seq});
    Database::execCached(QStringLiteral("UPDATE messages SET status = 'read', read_at = ? WHERE conversation_seq = ? "
                                        "AND direction = 'incoming' AND status != 'read'"),
                         {at, v.seq});
    tx.commit();
    m_store.notify(EventBus::Entity::Conversation, v.id, EventBus::Change::Read);
}

namespace {
// Takes the conversation's row for this transaction before it is read: a message stored while a web
// visitor's conversation gets its contact (attachContact) waits for it, and is the contact's.
void lockConversation(const QString &id)
{
    Database::execCached(QStringLiteral("UPDATE conversations SET seq = seq WHERE id = ?"), {id});
}

// The bookkeeping every new message does in its transaction: the conversation's counters, preview,
// unread count and first response time; reopening a closed conversation; the contact's counters
// and sentiment. Returns true when the conversation was reopened.
bool recordOnConversation(const Store &store, const Conversation &v, const Message &m)
{
    const bool incoming = m.direction == QLatin1String("incoming");
    const bool reopen = v.status == QLatin1String("closed");
    QVariant firstResponse = v.firstResponseSeconds ? QVariant(*v.firstResponseSeconds) : QVariant();
    QString firstIncoming = v.firstIncomingAt;
    if (incoming && firstIncoming.isEmpty())
        firstIncoming = m.createdAt;
    // First response: seconds from the contact's first message to the first outgoing one after it.
    if (!incoming && !v.firstResponseSeconds && !firstIncoming.isEmpty()) {
        const auto from = TimeUtil::parse(firstIncoming);
        const auto to = TimeUtil::parse(m.createdAt);
        if (from && to)
            firstResponse = qMax<qint64>(0, from->secsTo(*to));
    }
    Database::execCached(
        // unread_count counted in SQL: two messages of one conversation recorded at once (two copies
        // of team mode) both count.
        QStringLiteral("UPDATE conversations SET total_messages = total_messages + 1, unread_count = CASE WHEN ? = 1 "
                       "THEN unread_count + 1 ELSE 0 END, "
                       "last_message_text = ?, last_message_direction = ?, last_message_at = ?, last_activity_at = ?, "
                       "first_incoming_at = ?, first_response_seconds = ?, status = ?, "
                       "closed_at = CASE WHEN ? = 1 THEN NULL ELSE closed_at END, updated_at = ? "
                       "WHERE seq = ?"),
        {incoming ? 1 : 0, preview(m), m.direction, m.createdAt, m.createdAt, textOrNull(firstIncoming), firstResponse,
         reopen ? QStringLiteral("open") : v.status, reopen ? 1 : 0, m.createdAt, v.seq});
    if (m.contactId.isEmpty()) {
        // An anonymous web visitor: no contact to count on (attachContact counts them later).
    } else if (incoming) {
        // The contact's sentiment is its latest incoming message's, a neutral one included: the tone
        // a team answers now, not an average that an old complaint keeps negative.
        Database::execCached(
            QStringLiteral("UPDATE contacts SET last_message_at = ?, total_messages = total_messages + "
                           "1, sentiment = ? WHERE id = ?"),
            {m.createdAt, MessageRules::sentimentLabel(m.sentimentScore), m.contactId});
    } else {
        Database::execCached(
            QStringLiteral("UPDATE contacts SET last_message_at = ?, total_messages = total_messages + "
                           "1 WHERE id = ?"),
            {m.createdAt, m.contactId});
    }
    if (reopen) {
        Conversation after = v;
        after.status = QStringLiteral("open");
        store.appendEvent(QStringLiteral("conversation.updated"), updatedData(after, {QStringLiteral("status")}));
    }
    return reopen;
}
} // namespace

Message ConversationRepository::receive(const QString &conversationId, const MessageContent &content,
                                        const QString &providerId)
{
    Transaction tx;
    lockConversation(conversationId);
    const Conversation v = get(conversationId);
    if (!providerId.isEmpty()) {
        // A provider retrying its webhook: the message is already recorded.
        CachedQuery d = Database::execCached(
            QStringLiteral("SELECT id FROM messages WHERE channel = ? AND provider_id = ?"), {v.channel, providerId});
        if (d.next()) {
            const QString existing = d.value(0).toString();
            d.finish();
            return getMessage(existing);
        }
    }
    Message m = newMessage(v, content, QStringLiteral("incoming"), m_store.now());
    // An incoming message has reached us: it is delivered (read once an agent opens the thread).
    m.delivery.status = QStringLiteral("delivered");
    m.delivery.sentAt = m.delivery.deliveredAt = m.createdAt;
    m.providerId = providerId;
    m.sender = {QStringLiteral("contact"), v.contactId, v.contactName()}; // the visitor's label without a contact
    m.sentimentScore = MessageRules::sentimentScore(m.text);
    insertMessage(m, v.seq);
    const bool reopened = recordOnConversation(m_store, v, m);
    m_store.appendEvent(QStringLiteral("message.received"),
                        {{QStringLiteral("messageId"), m.id},
                         {QStringLiteral("conversationId"), m.conversationId},
                         {QStringLiteral("contactId"), contactIdJson(m.contactId)},
                         {QStringLiteral("channel"), m.channel},
                         {QStringLiteral("text"), m.text},
                         {QStringLiteral("type"), m.type},
                         {QStringLiteral("direction"), m.direction},
                         {QStringLiteral("sender"),
                          QJsonObject{{QStringLiteral("id"), contactIdJson(v.contactId)},
                                      {QStringLiteral("name"), v.contactName()},
                                      {QStringLiteral("phone"),
                                       v.contactPhone.isEmpty() ? QJsonValue() : QJsonValue(v.contactPhone)}}}});
    tx.commit();
    m_store.notify(EventBus::Entity::Message, m.id, EventBus::Change::Created);
    m_store.notify(EventBus::Entity::Conversation, v.id,
                   reopened ? EventBus::Change::Updated : EventBus::Change::NewMessage);
    if (v.hasContact())
        m_store.notify(EventBus::Entity::Contact, v.contactId, EventBus::Change::Updated);
    return m;
}

Message ConversationRepository::addOutgoing(const QString &conversationId, const MessageContent &content,
                                            const MessageSender &sender, const QString &initialStatus, int sendPriority)
{
    Transaction tx;
    lockConversation(conversationId);
    const Conversation v = get(conversationId);
    Message m = newMessage(v, content, QStringLiteral("outgoing"), m_store.now());
    m.sender = sender;
    m.sendPriority = sendPriority;
    const MessageRules::Advance advance = MessageRules::advance(MessageDelivery{}, initialStatus, m.createdAt);
    m.delivery = advance.delivery;
    insertMessage(m, v.seq);
    const bool reopened = recordOnConversation(m_store, v, m);
    for (const QString &status : advance.reached)
        m_store.appendEvent(QLatin1String("message.") + status, statusData(m, status));
    tx.commit();
    m_store.notify(EventBus::Entity::Message, m.id, EventBus::Change::Created);
    m_store.notify(EventBus::Entity::Conversation, v.id,
                   reopened ? EventBus::Change::Updated : EventBus::Change::NewMessage);
    if (v.hasContact())
        m_store.notify(EventBus::Entity::Contact, v.contactId, EventBus::Change::Updated);
    return m;
}

Message ConversationRepository::updateStatus(const QString &messageId, const QString &status,
                                             const QString &failedReason, const QString &providerId)
{
    if (!MessageRules::statuses().contains(status))
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: unknown message status %1"), {status}),
            {{QStringLiteral("status"), ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown status"))}});
    Transaction tx;
    Message m = getMessage(messageId);
    MessageRules::Advance advance = MessageRules::advance(m.delivery, status, m_store.nowIso(), failedReason);
    const bool newProviderId = !providerId.isEmpty() && providerId != m.providerId;
    if (advance.reached.isEmpty() && !newProviderId)
        return m; // late or repeated: nothing changes, nothing is emitted
    if (newProviderId) {
        // Reports the provider sent before this id was recorded (kept by keepEarlyStatus), in the
        // order they came, at the time they came; forward only, like any report.
        QList<qint64> applied;
        Database::select(QStringLiteral("SELECT seq, status, failed_reason, received_at FROM early_statuses "
                                        "WHERE channel = ? AND provider_id = ? ORDER BY seq"),
                         {m.channel, providerId}, [&](const SqlRow &row) {
                             const MessageRules::Advance more =
                                 MessageRules::advance(advance.delivery, row.text(1), row.text(3), row.text(2));
                             advance.delivery = more.delivery;
                             advance.reached += more.reached;
                             applied << row.integer(0);
                         });
        for (qint64 seq : std::as_const(applied))
            Database::execCached(QStringLiteral("DELETE FROM early_statuses WHERE seq = ?"), {seq});
    }
    m.delivery = advance.delivery;
    if (newProviderId)
        m.providerId = providerId;
    Database::execCached(QStringLiteral("UPDATE messages SET status = ?, sent_at = ?, delivered_at = ?, read_at = ?, "
                                        "failed_at = ?, failed_reason = ?, provider_id = ? WHERE seq = ?"),
                         {m.delivery.status, textOrNull(m.delivery.sentAt), textOrNull(m.delivery.deliveredAt),
                          textOrNull(m.delivery.readAt), textOrNull(m.delivery.failedAt),
                          textOrNull(m.delivery.failedReason), textOrNull(m.providerId), m.seq});
    for (const QString &reached : advance.reached)
        m_store.appendEvent(QLatin1String("message.") + reached, statusData(m, reached));
    tx.commit();
    if (!advance.reached.isEmpty())
        m_store.notify(EventBus::Entity::Message, m.id, EventBus::Change::Status);
    return m;
}

void ConversationRepository::keepEarlyStatus(const QString &channel, const QString &providerId, const QString &status,
                                             const QString &failedReason)
{
    const QDateTime at = m_store.now();
    Transaction tx;
    // Kept for a day, at most kMaxEarlyStatuses: a report that never meets its send is dropped then.
    Database::execCached(QStringLiteral("DELETE FROM early_statuses WHERE received_at < ?"),
                         {TimeUtil::iso(at.addDays(-1))});
    Database::execCached(QStringLiteral("DELETE FROM early_statuses WHERE seq <= (SELECT MAX(seq) FROM "
                                        "early_statuses) - ?"),
                         {kMaxEarlyStatuses - 1});
    Database::execCached(
        QStringLiteral("INSERT INTO early_statuses (channel, provider_id, status, failed_reason, "
                       "received_at) VALUES (?, ?, ?, ?, ?)"),
        {channel, providerId.left(256), status, textOrNull(failedReason.left(500)), TimeUtil::iso(at)});
    tx.commit();
}

std::optional<Message> ConversationRepository::findMessage(const QString &id) const
{
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT ") + kMessageColumns + QStringLiteral(" FROM messages m WHERE m.id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    Message m = messageFromRow(q);
    q.finish();
    return m;
}

Message ConversationRepository::getMessage(const QString &id) const
{
    std::optional<Message> m = findMessage(id);
    if (!m)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Message"), id);
    return *m;
}

MessagePage ConversationRepository::messages(const QString &conversationId, const MessageQuery &query) const
{
    const Conversation v = get(conversationId);
    const int limit = qBound(1, query.limit, 1000);
    auto cursor = [&](const QString &id, const QString &name) {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT seq FROM messages WHERE id = ? AND conversation_seq = ?"), {id, v.seq});
        if (!q.next())
            throw DomainError(
                DomainError::NotFound, QStringLiteral("NOT_FOUND"),
                ModelText(QT_TRANSLATE_NOOP("ModelError", "Message %1 does not exist in this conversation"), {id}),
                {{name, ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown message"))}});
        const qint64 seq = q.value(0).toLongLong();
        q.finish();
        return seq;
    };
    Where w;
    w.add(QStringLiteral("m.conversation_seq = ?"), v.seq);
    if (!query.after.isEmpty())
        w.add(QStringLiteral("m.seq > ?"), cursor(query.after, QStringLiteral("after")));
    if (!query.before.isEmpty())
        w.add(QStringLiteral("m.seq < ?"), cursor(query.before, QStringLiteral("before")));
    MessagePage page;
    // before (without after): the messages just before the cursor, so read backwards and reverse.
    const bool backwards = !query.before.isEmpty() && query.after.isEmpty();
    const qint64 offset = query.before.isEmpty() && query.after.isEmpty() ? qint64(qMax(1, query.page) - 1) * limit : 0;
    page.total = w.page(kSelectMessages, QStringLiteral("messages m"),
                        backwards ? QStringLiteral("m.seq DESC") : QStringLiteral("m.seq"), limit, offset, &page.items,
                        messageFromRow);
    if (backwards)
        std::reverse(page.items.begin(), page.items.end());
    return page;
}

QVector<Message> ConversationRepository::latestMessages(const QString &conversationId, int limit) const
{
    const Conversation v = get(conversationId);
    QVector<Message> out;
    CachedQuery q = Database::execCached(QStringLiteral("SELECT ") + kMessageColumns +
                                             QStringLiteral(" FROM messages m WHERE m.conversation_seq = ? ORDER BY "
                                                            "m.seq DESC LIMIT ?"),
                                         {v.seq, qBound(1, limit, 1000)});
    while (q.next())
        out.append(messageFromRow(q));
    q.finish();
    std::reverse(out.begin(), out.end());
    return out;
}

MessagePage ConversationRepository::listMessages(const MessageFilter &filter) const
{
    const ReadTransaction snapshot; // the page and its total agree
    Where w;
    if (!filter.conversationId.isEmpty())
        w.add(QStringLiteral("m.conversation_id = ?"), filter.conversationId);
    if (!filter.contactId.isEmpty())
        w.add(QStringLiteral("m.contact_id = ?"), filter.contactId);
    if (!filter.channel.isEmpty())
        w.add(QStringLiteral("m.channel = ?"), filter.channel);
    if (!filter.direction.isEmpty())
        w.add(QStringLiteral("m.direction = ?"), filter.direction);
    if (!filter.status.isEmpty())
        w.add(QStringLiteral("m.status = ?"), filter.status);
    if (!filter.since.isEmpty())
        w.add(QStringLiteral("m.created_at >= ?"), filter.since);
    const int limit = qBound(1, filter.limit, 1000);
    MessagePage page;
    page.total = w.page(kSelectMessages, QStringLiteral("messages m"), QStringLiteral("m.seq DESC"), limit,
                        qint64(qMax(1, filter.page) - 1) * limit, &page.items, messageFromRow);
    return page;
}

QVector<OutgoingSend> ConversationRepository::dueSends(const QString &channel, const QDateTime &at, int limit) const
{
    QVector<OutgoingSend> sends;
    const QString atIso = TimeUtil::iso(at);
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT ") + kMessageColumns +
            QStringLiteral(", coalesce(v.external_id, ''), m.send_attempts FROM messages m "
                           "JOIN conversations v ON v.seq = m.conversation_seq "
                           "WHERE m.channel = ? AND m.direction = 'outgoing' AND m.status = 'pending' "
                           "AND (m.next_attempt_at IS NULL OR m.next_attempt_at <= ?) "
                           "AND (m.claimed_until IS NULL OR m.claimed_until < ?) "
                           "ORDER BY m.send_priority, m.seq LIMIT ?"),
        {channel, atIso, atIso, limit});
    const int extra = kMessageColumns.count(QLatin1Char(',')) + 1;
    while (q.next()) {
        OutgoingSend s;
        s.message = messageFromRow(q);
        s.to = q.value(extra).toString();
        s.attempts = q.value(extra + 1).toInt();
        sends.append(s);
    }
    q.finish();
    return sends;
}

ConversationRepository::SendWindow ConversationRepository::sendsStartedSince(const QString &channel,
                                                                             const QDateTime &since) const
{
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT count(*), min(claimed_at) FROM messages WHERE channel = ? AND claimed_at >= ?"),
        {channel, TimeUtil::iso(since)});
    SendWindow w;
    if (q.next()) {
        w.count = q.value(0).toInt();
        if (!q.value(1).isNull())
            w.first = TimeUtil::parse(q.value(1).toString());
    }
    q.finish();
    return w;
}

bool ConversationRepository::claimSend(const QString &messageId, const QDateTime &now, int leaseSeconds)
{
    const QString nowIso = TimeUtil::iso(now);
    CachedQuery u = Database::execCached(
        QStringLiteral("UPDATE messages SET claimed_at = ?, claimed_until = ? WHERE id = ? AND status = 'pending' "
                       "AND (claimed_until IS NULL OR claimed_until < ?)"),
        {nowIso, TimeUtil::iso(now.addSecs(qMax(1, leaseSeconds))), messageId, nowIso});
    return u.numRowsAffected() == 1;
}

int ConversationRepository::releaseSendClaims()
{
    CachedQuery u = Database::execCached(QStringLiteral(
        "UPDATE messages SET claimed_until = NULL WHERE claimed_until IS NOT NULL AND status = 'pending'"));
    return u.numRowsAffected();
}

std::optional<QDateTime> ConversationRepository::nextSendAt(const QString &channel) const
{
    CachedQuery q =
        Database::execCached(QStringLiteral("SELECT min(coalesce(next_attempt_at, created_at)) FROM messages "
                                            "WHERE channel = ? AND direction = 'outgoing' AND status = 'pending'"),
                             {channel});
    std::optional<QDateTime> at;
    if (q.next() && !q.value(0).isNull())
        at = TimeUtil::parse(q.value(0).toString());
    q.finish();
    return at;
}

void ConversationRepository::deferSend(const QString &messageId, const QDateTime &at, const QString &error)
{
    Database::execCached(QStringLiteral("UPDATE messages SET send_attempts = send_attempts + 1, next_attempt_at = ?, "
                                        "last_error = ?, claimed_until = NULL WHERE id = ? AND status = 'pending'"),
                         {TimeUtil::iso(at), textOrNull(error.left(500)), messageId});
}

std::optional<Message> ConversationRepository::findByProviderId(const QString &channel, const QString &providerId) const
{
    CachedQuery q =
        Database::execCached(QStringLiteral("SELECT ") + kMessageColumns +
                                 QStringLiteral(" FROM messages m WHERE m.channel = ? AND m.provider_id = ?"),
                             {channel, providerId});
    if (!q.next())
        return std::nullopt;
    Message m = messageFromRow(q);
    q.finish();
    return m;
}
