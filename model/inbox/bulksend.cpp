#include "model/inbox/bulksend.h"

#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/ids.h"
#include "model/core/sqldialect.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/inboundrecorder.h"

#include <QJsonDocument>
#include <QSet>
#include <QSqlQuery>

namespace {
BulkSend bulkSendFromRow(SqlRowReader r)
{
    BulkSend b;
    b.id = r.text();
    b.channel = r.text();
    b.segmentId = r.text();
    b.templateName = r.text();
    b.templateLanguage = r.text();
    b.total = r.integer();
    b.createdAt = r.text();
    return b;
}

bool isPhoneChannel(const QString &channel)
{
    return channel == QLatin1String("whatsapp") || channel == QLatin1String("sms");
}
} // namespace

BulkSendRepository::BulkSendRepository(const Store &store)
    : m_store(store)
{
}

BulkSend BulkSendRepository::create(const BulkRequest &r)
{
    Transaction tx;
    const QString id = Ids::make(u"bulk");
    const QString now = m_store.nowIso();
    const qint64 bulkSeq = Database::insert(
        QStringLiteral("INSERT INTO bulk_sends (id, channel, segment_id, template_name, template_language, components, "
                       "body_text, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {id, r.channel, r.segmentId.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(r.segmentId),
         r.tpl.name, r.tpl.language, QString::fromUtf8(QJsonDocument(r.components).toJson(QJsonDocument::Compact)),
         r.renderedText, r.createdBy, now});
    if (!r.segmentId.isEmpty()) {
        const SegmentRules::Sql where = SegmentRepository(m_store).membership(r.segmentId); // NotFound when unknown
        QVariantList values{bulkSeq};
        values += where.values;
        Database::exec(
            QStringLiteral("INSERT INTO bulk_recipients (bulk_seq, recipient, contact_id) "
                           "SELECT ?, coalesce(nullif(c.phone_e164, ''), c.id), c.id FROM contacts c WHERE ") +
                where.where + QStringLiteral(" ORDER BY c.seq"),
            values);
    } else {
        QSet<QString> seen;
        for (const QString &raw : r.recipients) {
            QString recipient = raw.trimmed();
            QVariant error{QMetaType(QMetaType::QString)}; // braces: not a function declaration
            if (isPhoneChannel(r.channel)) {
                const QString e164 = ContactRules::toE164(recipient);
                if (e164.isEmpty())
                    error = QStringLiteral("Invalid phone");
                else
                    recipient = e164;
            }
            if (seen.contains(recipient))
                continue; // one message per recipient
            seen.insert(recipient);
            Database::execCached(
                QStringLiteral("INSERT INTO bulk_recipients (bulk_seq, recipient, error) VALUES (?, ?, ?)"),
                {bulkSeq, recipient.left(100), error});
        }
    }
    Database::exec(
        QStringLiteral("UPDATE bulk_sends SET total = (SELECT count(*) FROM bulk_recipients WHERE bulk_seq = ?) "
                       "WHERE seq = ?"),
        {bulkSeq, bulkSeq});
    tx.commit();
    m_store.notify(EventBus::Entity::Bulk, id, EventBus::Change::Created);
    return get(id);
}

BulkSend BulkSendRepository::get(const QString &id) const
{
    QSqlQuery q = Database::exec(QStringLiteral("SELECT id, channel, coalesce(segment_id, ''), template_name, "
                                                "template_language, total, created_at FROM bulk_sends WHERE id = ?"),
                                 {id});
    if (!q.next())
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Bulk send"), id);
    return bulkSendFromRow(q);
}

int BulkSendRepository::expand(int limit)
{
    // Their news waits for the batch's commit, a kind's first few by id and the rest as one
    // (Store::kMaxNewsPerKind).
    ConversationRepository conversations(m_store);
    ContactRepository contacts(m_store);
    Transaction tx;
    QSqlQuery q = Database::exec(
        QStringLiteral("SELECT r.seq, r.recipient, coalesce(r.contact_id, ''), b.channel, b.template_name, "
                       "b.template_language, b.components, b.body_text, coalesce(b.created_by, '') "
                       "FROM bulk_recipients r JOIN bulk_sends b ON b.seq = r.bulk_seq "
                       "WHERE r.message_id IS NULL AND r.error IS NULL ORDER BY r.seq LIMIT ?") +
            // Another copy expanding at the same time takes the recipients after these.
            SqlDialect::skipLocked(QStringLiteral("r")),
        {limit});
    struct Todo
    {
        qint64 seq;
        QString recipient, contactId, channel, name, language, components, text, createdBy;
    };
    QVector<Todo> todo;
    while (q.next())
        todo.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
                     q.value(4).toString(), q.value(5).toString(), q.value(6).toString(), q.value(7).toString(),
                     q.value(8).toString()});
    q.finish();
    for (const Todo &t : std::as_const(todo)) {
        QString error;
        QString contactId = t.contactId;
        QString address;
        if (isPhoneChannel(t.channel)) {
            if (!contactId.isEmpty()) {
                const std::optional<Contact> c = contacts.find(contactId);
                address = c ? ContactRules::toE164(c->phone) : QString();
                if (address.isEmpty())
                    error = QStringLiteral("The contact has no phone number");
            } else {
                address = t.recipient;
                if (const std::optional<Contact> c = InboundRecorder(m_store).findContact(t.channel, {}, address))
                    contactId = c->id;
                else
                    contactId = ContactRepository(m_store).create(ContactRules::fromPhone(address, t.channel)).id;
            }
        } else {
            // Telegram and Instagram: only people who wrote to us first can be reached.
            if (!contactId.isEmpty()) {
                if (const std::optional<Conversation> v = conversations.findFor(contactId, t.channel))
                    address = v->externalId;
            } else if (const std::optional<Contact> c = InboundRecorder(m_store).findContact(t.channel, t.recipient)) {
                contactId = c->id;
                address = t.recipient;
            }
            if (address.isEmpty())
                error = QStringLiteral("No %1 conversation with this recipient").arg(t.channel);
        }
        if (!error.isEmpty()) {
            Database::execCached(
                QStringLiteral("UPDATE bulk_recipients SET error = ?, contact_id = ? WHERE seq = ?"),
                {error, contactId.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(contactId), t.seq});
            continue;
        }
        const Conversation v = conversations.findOrCreate(contactId, t.channel, address, QStringLiteral("bulk"));
        MessageContent content;
        content.type = QStringLiteral("template");
        content.text = t.text;
        content.payload = {{QStringLiteral("templateName"), t.name},
                           {QStringLiteral("templateLanguage"), t.language},
                           {QStringLiteral("components"), QJsonDocument::fromJson(t.components.toUtf8()).array()}};
        const Message m = conversations.addOutgoing(v.id, content, {QStringLiteral("api"), t.createdBy, {}},
                                                    QStringLiteral("pending"), 1);
        Database::execCached(QStringLiteral("UPDATE bulk_recipients SET message_id = ?, contact_id = ? WHERE seq = ?"),
                             {m.id, contactId, t.seq});
    }
    tx.commit();
    return int(todo.size());
}

QJsonObject BulkSendRepository::progress(const QString &id, int page, int limit) const
{
    const BulkSend b = get(id);
    QSqlQuery c = Database::exec(
        QStringLiteral("SELECT count(*) FILTER (WHERE r.message_id IS NULL AND r.error IS NULL), "
                       "count(*) FILTER (WHERE r.error IS NOT NULL), "
                       "count(*) FILTER (WHERE m.status = 'pending'), count(*) FILTER (WHERE m.status = 'sent'), "
                       "count(*) FILTER (WHERE m.status = 'delivered'), count(*) FILTER (WHERE m.status = 'read'), "
                       "count(*) FILTER (WHERE m.status = 'failed') "
                       "FROM bulk_recipients r JOIN bulk_sends b ON b.seq = r.bulk_seq "
                       "LEFT JOIN messages m ON m.id = r.message_id WHERE b.id = ?"),
        {id});
    c.next();
    const qint64 queued = c.value(0).toLongLong(), skipped = c.value(1).toLongLong(), pending = c.value(2).toLongLong(),
                 sent = c.value(3).toLongLong(), delivered = c.value(4).toLongLong(), read = c.value(5).toLongLong(),
                 failed = c.value(6).toLongLong();
    c.finish();
    const qint64 done = sent + delivered + read + failed + skipped;
    QJsonArray recipients;
    QSqlQuery q = Database::exec(
        QStringLiteral("SELECT r.recipient, r.contact_id, r.message_id, m.status, coalesce(r.error, m.failed_reason) "
                       "FROM bulk_recipients r JOIN bulk_sends b ON b.seq = r.bulk_seq "
                       "LEFT JOIN messages m ON m.id = r.message_id WHERE b.id = ? ORDER BY r.seq LIMIT ? OFFSET ?"),
        {id, limit, qint64(page - 1) * limit});
    auto orNull = [](const QVariant &v) { return v.isNull() ? QJsonValue() : QJsonValue(v.toString()); };
    while (q.next()) {
        QString status = q.value(3).toString();
        if (q.value(2).isNull())
            status = q.value(4).isNull() ? QStringLiteral("queued") : QStringLiteral("failed");
        recipients.append(QJsonObject{{QStringLiteral("recipient"), q.value(0).toString()},
                                      {QStringLiteral("contactId"), orNull(q.value(1))},
                                      {QStringLiteral("messageId"), orNull(q.value(2))},
                                      {QStringLiteral("status"), status},
                                      {QStringLiteral("error"), orNull(q.value(4))}});
    }
    const QString state = queued + pending > 0 ? QStringLiteral("in_progress") : QStringLiteral("completed");
    return {{QStringLiteral("bulkId"), b.id},
            {QStringLiteral("channel"), b.channel},
            {QStringLiteral("segmentId"), b.segmentId.isEmpty() ? QJsonValue() : QJsonValue(b.segmentId)},
            {QStringLiteral("templateName"), b.templateName},
            {QStringLiteral("templateLanguage"), b.templateLanguage},
            {QStringLiteral("status"), state},
            {QStringLiteral("total"), b.total},
            {QStringLiteral("progress"),
             QJsonObject{{QStringLiteral("queued"), queued + pending},
                         {QStringLiteral("sent"), sent},
                         {QStringLiteral("delivered"), delivered},
                         {QStringLiteral("read"), read},
                         {QStringLiteral("failed"), failed + skipped},
                         {QStringLiteral("done"), done},
                         {QStringLiteral("percent"), b.total > 0 ? int(done * 100 / b.total) : 100}}},
            {QStringLiteral("createdAt"), b.createdAt},
            {QStringLiteral("recipients"), recipients},
            {QStringLiteral("pagination"),
             QJsonObject{{QStringLiteral("page"), page},
                         {QStringLiteral("limit"), limit},
                         {QStringLiteral("total"), b.total},
                         {QStringLiteral("totalPages"), b.total > 0 ? int((b.total + limit - 1) / limit) : 0}}}};
}
