#include "model/webhooks/incomingwebhookrepository.h"

#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/core/fieldreader.h"
#include "model/core/ids.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/inboundrecorder.h"
#include "model/tasks/taskrepository.h"

#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSqlQuery>

namespace {
using SqlValue::textOrNull;
const QString kIncomingColumns = QStringLiteral("seq, id, name, action, secret, created_at, last_call_at, call_count");
constexpr int kMaxLoggedBody = 64 * 1024;

IncomingWebhook incomingFromRow(SqlRowReader r)
{
    IncomingWebhook e;
    e.seq = r.integer();
    e.id = r.text();
    e.name = r.text();
    e.action = r.text();
    e.secret = r.text();
    e.createdAt = r.text();
    e.lastCallAt = r.text();
    e.callCount = int(r.integer());
    return e;
}

DomainError invalid(const QString &field, const ModelText &what)
{
    return DomainError::invalid(field, what);
}

QString optionalText(const QJsonObject &data, const QString &field, int maxLength)
{
    const QJsonValue v = data.value(field);
    if (v.isUndefined() || v.isNull())
        return {};
    if (!v.isString() || v.toString().size() > maxLength)
        throw invalid(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string of at most %1 characters"),
                                       {maxLength}));
    return v.toString().trimmed();
}

// message.received data: {channel, from, name?, phone?, messageId?} and the message's fields as
// the send endpoints read them ({type, text, mediaUrl, caption, filename, latitude, …}).
InboundMessage inboundMessage(const QJsonObject &data)
{
    static const QStringList channels{QStringLiteral("whatsapp"), QStringLiteral("telegram"),
                                      QStringLiteral("instagram")};
    InboundMessage in;
    in.channel = optionalText(data, QStringLiteral("channel"), 20);
    if (!channels.contains(in.channel))
        throw invalid(QStringLiteral("channel"), FieldReader::oneOf(channels));
    in.externalId = optionalText(data, QStringLiteral("from"), 200);
    if (in.externalId.isEmpty())
        throw invalid(QStringLiteral("from"),
                      ModelText(QT_TRANSLATE_NOOP("ModelError", "must be the sender's address on the channel")));
    in.name = optionalText(data, QStringLiteral("name"), 100);
    const QString phone = optionalText(data, QStringLiteral("phone"), 40);
    if (in.channel == QLatin1String("whatsapp")) {
        // A WhatsApp address is the phone number; its conversations are keyed by E.164.
        in.phone = ContactRules::toE164(in.externalId.startsWith(QLatin1Char('+')) ? in.externalId
                                                                                   : QLatin1Char('+') + in.externalId);
        if (in.phone.isEmpty())
            throw invalid(QStringLiteral("from"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a phone number in international form")));
        in.externalId = in.phone;
    } else if (!phone.isEmpty()) {
        in.phone = ContactRules::toE164(phone);
        if (in.phone.isEmpty())
            throw invalid(QStringLiteral("phone"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "must be in international form (+ and digits)")));
    }
    in.providerId = optionalText(data, QStringLiteral("messageId"), 200);
    in.content = MessageRules::parseContent(data, {QStringLiteral("text"), QStringLiteral("image"),
                                                   QStringLiteral("video"), QStringLiteral("document"),
                                                   QStringLiteral("audio"), QStringLiteral("location")});
    return in;
}

// 160 random bits: the id is the endpoint's address, so it must not be guessable (Ids::make() is
// time-ordered and has only 80 random bits).
QString unguessableId()
{
    quint32 words[5];
    QRandomGenerator::system()->fillRange(words, 5);
    return QStringLiteral("iwh_") +
           QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(words), sizeof words).toHex());
}

// The contact a contact.upsert call means: the one with its e-mail, else the one with its phone.
QString matchContact(const QJsonObject &data)
{
    const QString email = data.value(QLatin1String("email")).toString().trimmed().toLower();
    if (!email.isEmpty()) {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT id FROM contacts WHERE email_norm = ?"), {email});
        if (q.next()) {
            const QString id = q.value(0).toString();
            q.finish();
            return id;
        }
    }
    const QString phone = ContactRules::toE164(data.value(QLatin1String("phone")).toString());
    if (!phone.isEmpty()) {
        CachedQuery q = Database::execCached(QStringLiteral("SELECT id FROM contacts WHERE phone_e164 = ?"), {phone});
        if (q.next()) {
            const QString id = q.value(0).toString();
            q.finish();
            return id;
        }
    }
    return {};
}
} // namespace

IncomingWebhookRepository::IncomingWebhookRepository(const Store &store)
    : m_store(store)
{
}

IncomingWebhookRepository::Saved IncomingWebhookRepository::create(IncomingWebhookChanges c, const QString &actorGiven)
{
    const QString actor = m_store.actorOr(actorGiven);
    WebhookRules::checkIncoming(c);
    Saved out;
    IncomingWebhook &e = out.endpoint;
    e.id = unguessableId();
    e.name = c.name;
    e.action = c.action;
    e.secret = c.generateSecret ? WebhookRules::generateSecret() : c.secret;
    if (c.generateSecret)
        out.secret = e.secret;
    e.createdAt = m_store.nowIso();
    {
        Transaction tx;
        e.seq = Database::insert(
            QStringLiteral("INSERT INTO incoming_webhooks (id, name, action, secret, created_by, created_at) "
                           "VALUES (?, ?, ?, ?, ?, ?)"),
            {e.id, e.name, e.action, textOrNull(e.secret), textOrNull(actor), e.createdAt});
        tx.commit();
    }
    m_store.notify(EventBus::Entity::IncomingWebhook, e.id, EventBus::Change::Created);
    return out;
}

void IncomingWebhookRepository::remove(const QString &id)
{
    {
        Transaction tx;
        const IncomingWebhook e = get(id);
        Database::execCached(QStringLiteral("DELETE FROM incoming_webhooks WHERE seq = ?"), {e.seq});
        tx.commit();
    }
    m_store.notify(EventBus::Entity::IncomingWebhook, id, EventBus::Change::Deleted);
}

std::optional<IncomingWebhook> IncomingWebhookRepository::find(const QString &id) const
{
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT ") + kIncomingColumns + QStringLiteral(" FROM incoming_webhooks WHERE id = ?"), {id});
    if (!q.next())
        return std::nullopt;
    IncomingWebhook e = incomingFromRow(q);
    q.finish();
    return e;
}

IncomingWebhook IncomingWebhookRepository::get(const QString &id) const
{
    std::optional<IncomingWebhook> e = find(id);
    if (!e)
        throw DomainError::notFound(QT_TRANSLATE_NOOP("ModelError", "Incoming webhook"), id);
    return *e;
}

QVector<IncomingWebhook> IncomingWebhookRepository::list(int page, int limit, qint64 *total) const
{
    QVector<IncomingWebhook> out;
    CachedQuery q =
        Database::execCached(QStringLiteral("SELECT ") + kIncomingColumns +
                                 QStringLiteral(" FROM incoming_webhooks ORDER BY seq DESC LIMIT ? OFFSET ?"),
                             {limit, qint64(qMax(1, page) - 1) * limit});
    while (q.next())
        out.append(incomingFromRow(q));
    q.finish();
    if (total) {
        CachedQuery c = Database::execCached(QStringLiteral("SELECT count(*) FROM incoming_webhooks"));
        *total = c.next() ? c.value(0).toLongLong() : 0;
        c.finish();
    }
    return out;
}

QVector<IncomingWebhookCall> IncomingWebhookRepository::calls(const QString &endpointId, int page, int limit,
                                                              qint64 *total) const
{
    QVector<IncomingWebhookCall> out;
    const QString where = endpointId.isEmpty() ? QStringLiteral("? = ''") : QStringLiteral("endpoint_id = ?");
    CachedQuery q = Database::execCached(
        QStringLiteral("SELECT seq, id, endpoint_id, received_at, event, outcome, status_code, error, result_id, body "
                       "FROM incoming_webhook_calls WHERE ") +
            where + QStringLiteral(" ORDER BY seq DESC LIMIT ? OFFSET ?"),
        {SqlValue::text(endpointId), limit, qint64(qMax(1, page) - 1) * limit});
    while (q.next()) {
        IncomingWebhookCall c;
        c.seq = q.value(0).toLongLong();
        c.id = q.value(1).toString();
        c.endpointId = q.value(2).toString();
        c.receivedAt = q.value(3).toString();
        c.event = q.value(4).toString();
        c.outcome = q.value(5).toString();
        c.statusCode = q.value(6).toInt();
        c.error = q.value(7).toString();
        c.resultId = q.value(8).toString();
        c.body = q.value(9).toByteArray();
        out.append(c);
    }
    q.finish();
    if (total) {
        CachedQuery c = Database::execCached(
            QStringLiteral("SELECT count(*) FROM incoming_webhook_calls WHERE ") + where, {SqlValue::text(endpointId)});
        *total = c.next() ? c.value(0).toLongLong() : 0;
        c.finish();
    }
    return out;
}

IncomingOutcome IncomingWebhookRepository::run(const IncomingWebhook &endpoint, const QJsonObject &data)
{
    IncomingOutcome r;
    if (endpoint.action == QLatin1String("contact.upsert")) {
        ContactRepository contacts(m_store);
        const QString existing = matchContact(data);
        const ContactChanges changes = ContactRules::parse(data);
        const Contact c = existing.isEmpty() ? contacts.create(changes, endpoint.id)
                                             : contacts.update(existing, changes, endpoint.id);
        r.resultId = c.id;
        r.message = existing.isEmpty() ? QStringLiteral("Contact created") : QStringLiteral("Contact updated");
        r.data = {
            {QStringLiteral("action"), endpoint.action},
            {QStringLiteral("result"), existing.isEmpty() ? QStringLiteral("created") : QStringLiteral("updated")},
            {QStringLiteral("contactId"), c.id}};
        return r;
    }
    if (endpoint.action == QLatin1String("message.received")) {
        bool created = false;
        const Message m = InboundRecorder(m_store).record(inboundMessage(data), &created);
        r.resultId = m.id;
        r.message = created ? QStringLiteral("Message received") : QStringLiteral("Message already received");
        r.data = {{QStringLiteral("action"), endpoint.action},
                  {QStringLiteral("result"), created ? QStringLiteral("created") : QStringLiteral("duplicate")},
                  {QStringLiteral("messageId"), m.id},
                  {QStringLiteral("conversationId"), m.conversationId},
                  {QStringLiteral("contactId"), m.contactId}};
        return r;
    }
    if (endpoint.action == QLatin1String("deal.upsert")) {
        // A deal has no natural key: data.id of an existing deal updates it, anything else creates one.
        DealRepository deals(m_store);
        const QString id = data.value(QLatin1String("id")).toString();
        const bool existing = !id.isEmpty() && deals.find(id).has_value();
        QJsonObject fields = data;
        fields.remove(QStringLiteral("id"));
        const DealChanges changes = DealRules::parse(fields);
        const Deal d = existing ? deals.update(id, changes) : deals.create(changes);
        r.resultId = d.id;
        r.message = existing ? QStringLiteral("Deal updated") : QStringLiteral("Deal created");
        r.data = {{QStringLiteral("action"), endpoint.action},
                  {QStringLiteral("result"), existing ? QStringLiteral("updated") : QStringLiteral("created")},
                  {QStringLiteral("dealId"), d.id}};
        return r;
    }
    if (endpoint.action == QLatin1String("task.create")) {
        const Task t = TaskRepository(m_store).create(TaskRules::parse(data));
        r.resultId = t.id;
        r.message = QStringLiteral("Task created");
        r.data = {{QStringLiteral("action"), endpoint.action},
                  {QStringLiteral("result"), QStringLiteral("created")},
                  {QStringLiteral("taskId"), t.id}};
        return r;
    }
    throw DomainError(DomainError::Unprocessable, QStringLiteral("ACTION_NOT_AVAILABLE"),
                      ModelText(QT_TRANSLATE_NOOP("ModelError", "Action %1 is not available"), {endpoint.action}));
}

namespace {
// The body as the call log keeps it: at most kMaxLoggedBody bytes, and an empty body as an empty
// value (a null QByteArray binds as NULL, which the NOT NULL column refuses).
QByteArray loggedBody(const QByteArray &body)
{
    return body.isEmpty() ? QByteArray("") : body.left(kMaxLoggedBody);
}
} // namespace

void IncomingWebhookRepository::check(const IncomingWebhook &endpoint, const QByteArray &body,
                                      const QByteArray &signatureHeader, QString *event, QJsonObject *data) const
{
    if (!endpoint.secret.isEmpty() && !WebhookRules::verifySignature(endpoint.secret, body, signatureHeader)) {
        throw DomainError(
            DomainError::Unauthorized, QStringLiteral("INVALID_SIGNATURE"),
            signatureHeader.isEmpty()
                ? ModelText(QT_TRANSLATE_NOOP("ModelError",
                                              "Missing X-Service-Signature: this webhook requires signed calls"))
                : ModelText(QT_TRANSLATE_NOOP("ModelError", "X-Service-Signature does not match the body")));
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    const QJsonObject o = doc.object();
    const QJsonValue ev = o.value(QLatin1String("event"));
    const QJsonValue d = o.value(QLatin1String("data"));
    *event = ev.toString().left(100);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        throw DomainError(DomainError::BadRequest, QStringLiteral("INVALID_JSON"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "The body must be a JSON object")));
    if (!ev.isString() || ev.toString().trimmed().isEmpty() || ev.toString().size() > 100)
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: event must be a non-empty string")),
            {{QStringLiteral("event"),
              ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a non-empty string of at most 100 characters"))}});
    if (!d.isObject())
        throw DomainError::invalid(QStringLiteral("data"),
                                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an object")));
    *data = d.toObject();
}

QString IncomingWebhookRepository::recordCall(const IncomingWebhook &endpoint, const QString &event,
                                              const QString &outcome, int statusCode, const QString &error,
                                              const QString &resultId, const QByteArray &body)
{
    const QString now = m_store.nowIso();
    const QString callId = Ids::make(u"iwc");
    {
        Transaction tx;
        Database::execCached(
            QStringLiteral("INSERT INTO incoming_webhook_calls (id, endpoint_id, received_at, event, outcome, "
                           "status_code, error, result_id, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
            {callId, endpoint.id, now, event.isNull() ? QStringLiteral("") : event, outcome, statusCode,
             textOrNull(error), textOrNull(resultId), loggedBody(body)});
        Database::execCached(QStringLiteral("UPDATE incoming_webhooks SET call_count = call_count + 1, "
                                            "last_call_at = ? WHERE seq = ?"),
                             {now, endpoint.seq});
        tx.commit();
    }
    m_store.notify(EventBus::Entity::IncomingWebhook, endpoint.id, EventBus::Change::Updated);
    return callId;
}
