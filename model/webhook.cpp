#include "webhook.h"

#include "ids.h"
#include "jsonwriter.h"
#include "timeutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>
#include <QUrl>

namespace {
using Json::nullable;
// "a.b.c.d" with four decimal parts 0..255; false for anything else.
bool parseIpv4(const QString &host, quint8 out[4])
{
    const QStringList parts = host.split(QLatin1Char('.'));
    if (parts.size() != 4)
        return false;
    for (int i = 0; i < 4; ++i) {
        bool ok = false;
        const uint v = parts.at(i).toUInt(&ok, 10);
        if (!ok || v > 255 || parts.at(i).isEmpty() || parts.at(i).size() > 3)
            return false;
        out[i] = quint8(v);
    }
    return true;
}

QString bareHost(QString host)
{
    host = host.toLower();
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    if (host.endsWith(QLatin1Char('.')))
        host.chop(1);
    return host;
}
} // namespace

bool WebhookSubscription::matches(const QString &event) const
{
    return events.contains(QStringLiteral("*")) || events.contains(event);
}

QString WebhookSubscription::secretHint() const
{
    return secret.size() < 8 ? QStringLiteral("…") : QStringLiteral("…") + secret.right(4);
}

QJsonObject WebhookSubscription::toJson() const
{
    return {
        {QStringLiteral("id"), id},
        {QStringLiteral("url"), url},
        {QStringLiteral("events"), QJsonArray::fromStringList(events)},
        {QStringLiteral("description"), description},
        {QStringLiteral("active"), active},
        {QStringLiteral("status"), active ? QStringLiteral("active") : QStringLiteral("disabled")},
        {QStringLiteral("failureCount"), failureCount},
        {QStringLiteral("disabledReason"), nullable(disabledReason)},
        {QStringLiteral("disabledAt"), nullable(disabledAt)},
        {QStringLiteral("secretHint"), secretHint()},
        {QStringLiteral("createdAt"), createdAt},
        {QStringLiteral("updatedAt"), updatedAt},
    };
}

QJsonObject WebhookDelivery::toJson() const
{
    return {
        {QStringLiteral("id"), id},
        {QStringLiteral("webhookId"), webhookId},
        {QStringLiteral("eventId"), eventId},
        {QStringLiteral("event"), event},
        {QStringLiteral("kind"), kind},
        {QStringLiteral("state"), state},
        {QStringLiteral("attempts"), attempts},
        {QStringLiteral("nextAttemptAt"), nullable(nextAttemptAt)},
        {QStringLiteral("lastStatusCode"), lastStatus ? QJsonValue(lastStatus) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("lastError"), nullable(lastError)},
        {QStringLiteral("createdAt"), createdAt},
    };
}

QJsonObject WebhookAttempt::toJson() const
{
    return {
        {QStringLiteral("deliveryId"), deliveryId},
        {QStringLiteral("eventId"), eventId},
        {QStringLiteral("event"), event},
        {QStringLiteral("kind"), kind},
        {QStringLiteral("attempt"), attempt},
        {QStringLiteral("timestamp"), startedAt},
        {QStringLiteral("finishedAt"), nullable(finishedAt)},
        {QStringLiteral("statusCode"), statusCode ? QJsonValue(statusCode) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("error"), nullable(error)},
        {QStringLiteral("latencyMs"), latencyMs >= 0 ? QJsonValue(latencyMs) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("responseExcerpt"), nullable(responseExcerpt)},
        {QStringLiteral("nextRetryAt"), nullable(nextRetryAt)},
        {QStringLiteral("success"), success},
        {QStringLiteral("inFlight"), finishedAt.isEmpty()},
    };
}

QJsonObject IncomingWebhook::toJson(const QString &baseUrl) const
{
    const QString path = QStringLiteral("/webhooks/incoming/") + id;
    return {
        {QStringLiteral("id"), id},
        {QStringLiteral("name"), name},
        {QStringLiteral("action"), action},
        {QStringLiteral("path"), path},
        {QStringLiteral("url"), baseUrl.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(baseUrl + path)},
        {QStringLiteral("signed"), !secret.isEmpty()},
        {QStringLiteral("secretHint"),
         secret.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QStringLiteral("…") + secret.right(4))},
        {QStringLiteral("callCount"), callCount},
        {QStringLiteral("lastCallAt"), nullable(lastCallAt)},
        {QStringLiteral("createdAt"), createdAt},
    };
}

QJsonObject IncomingWebhookCall::toJson() const
{
    return {
        {QStringLiteral("id"), id},
        {QStringLiteral("webhookId"), endpointId},
        {QStringLiteral("receivedAt"), receivedAt},
        {QStringLiteral("event"), nullable(event)},
        {QStringLiteral("outcome"), outcome},
        {QStringLiteral("statusCode"), statusCode},
        {QStringLiteral("error"), nullable(error)},
        {QStringLiteral("resultId"), nullable(resultId)},
    };
}

QStringList WebhookEvents::all()
{
    // The spec's Events table. A new area emits its names through Outbox::append; a name it adds
    // beyond this table must be added here too, or subscriptions cannot name it.
    static const QStringList names = {
        QStringLiteral("message.received"),
        QStringLiteral("message.sent"),
        QStringLiteral("message.delivered"),
        QStringLiteral("message.read"),
        QStringLiteral("message.failed"),
        QStringLiteral("conversation.created"),
        QStringLiteral("conversation.updated"),
        QStringLiteral("conversation.assigned"),
        QStringLiteral("conversation.closed"),
        QStringLiteral("contact.created"),
        QStringLiteral("contact.updated"),
        QStringLiteral("contact.deleted"),
        QStringLiteral("deal.created"),
        QStringLiteral("deal.updated"),
        QStringLiteral("deal.stage_changed"),
        QStringLiteral("deal.won"),
        QStringLiteral("deal.lost"),
        QStringLiteral("deal.deleted"),
        QStringLiteral("task.created"),
        QStringLiteral("task.updated"),
        QStringLiteral("task.completed"),
        QStringLiteral("task.overdue"),
        QStringLiteral("task.reminder"),
        // Beyond the spec's table: emitted by the segments area.
        QStringLiteral("segment.created"),
        QStringLiteral("segment.updated"),
        QStringLiteral("segment.deleted"),
        QStringLiteral("segment.contacts_added"),
        QStringLiteral("segment.contacts_removed"),
    };
    return names;
}

bool WebhookEvents::isKnown(const QString &event)
{
    return all().contains(event);
}

QJsonObject WebhookEvents::sample(const QString &event)
{
    const QString now = TimeUtil::nowIso();
    const QJsonObject contact{{QStringLiteral("id"), QStringLiteral("contact_sample")},
                              {QStringLiteral("contactId"), QStringLiteral("contact_sample")},
                              {QStringLiteral("firstName"), QStringLiteral("Ayşe")},
                              {QStringLiteral("lastName"), QStringLiteral("Yılmaz")},
                              {QStringLiteral("email"), QStringLiteral("ayse@example.com")},
                              {QStringLiteral("phone"), QStringLiteral("+905321234567")},
                              {QStringLiteral("company"), QStringLiteral("Example Ltd")},
                              {QStringLiteral("tags"), QJsonArray{QStringLiteral("vip")}},
                              {QStringLiteral("createdAt"), now},
                              {QStringLiteral("updatedAt"), now}};
    const QJsonObject deal{{QStringLiteral("id"), QStringLiteral("deal_sample")},
                           {QStringLiteral("dealId"), QStringLiteral("deal_sample")},
                           {QStringLiteral("name"), QStringLiteral("Sample deal")},
                           {QStringLiteral("value"), 15000},
                           {QStringLiteral("currency"), QStringLiteral("TRY")},
                           {QStringLiteral("stage"), QStringLiteral("proposal")},
                           {QStringLiteral("probability"), 50},
                           {QStringLiteral("contactId"), QStringLiteral("contact_sample")}};
    const QJsonObject task{{QStringLiteral("id"), QStringLiteral("task_sample")},
                           {QStringLiteral("taskId"), QStringLiteral("task_sample")},
                           {QStringLiteral("title"), QStringLiteral("Call back")},
                           {QStringLiteral("type"), QStringLiteral("call")},
                           {QStringLiteral("status"), QStringLiteral("pending")},
                           {QStringLiteral("priority"), QStringLiteral("high")},
                           {QStringLiteral("dueDate"), now},
                           {QStringLiteral("contactId"), QStringLiteral("contact_sample")}};
    const QString group = event.section(QLatin1Char('.'), 0, 0);
    const QString verb = event.section(QLatin1Char('.'), 1);
    if (event == QLatin1String("message.received"))
        return {{QStringLiteral("messageId"), QStringLiteral("msg_sample")},
                {QStringLiteral("conversationId"), QStringLiteral("conv_sample")},
                {QStringLiteral("contactId"), QStringLiteral("contact_sample")},
                {QStringLiteral("channel"), QStringLiteral("whatsapp")},
                {QStringLiteral("text"), QStringLiteral("Hello, is this available?")},
                {QStringLiteral("type"), QStringLiteral("text")},
                {QStringLiteral("direction"), QStringLiteral("incoming")},
                {QStringLiteral("sender"), QJsonObject{{QStringLiteral("id"), QStringLiteral("contact_sample")},
                                                       {QStringLiteral("name"), QStringLiteral("Ayşe Yılmaz")},
                                                       {QStringLiteral("phone"), QStringLiteral("+905321234567")}}}};
    if (group == QLatin1String("message")) {
        QJsonObject o{{QStringLiteral("messageId"), QStringLiteral("msg_sample")},
                      {QStringLiteral("conversationId"), QStringLiteral("conv_sample")},
                      {QStringLiteral("status"), verb},
                      {QStringLiteral("at"), now}};
        if (verb == QLatin1String("failed"))
            o.insert(QStringLiteral("failedReason"),
                     QStringLiteral("131047: more than 24 hours since the customer last wrote"));
        return o;
    }
    if (group == QLatin1String("conversation")) {
        QJsonObject o{{QStringLiteral("conversationId"), QStringLiteral("conv_sample")},
                      {QStringLiteral("contactId"), QStringLiteral("contact_sample")},
                      {QStringLiteral("channel"), QStringLiteral("whatsapp")},
                      {QStringLiteral("status"),
                       verb == QLatin1String("closed") ? QStringLiteral("closed") : QStringLiteral("open")}};
        if (verb == QLatin1String("created")) {
            o.insert(QStringLiteral("source"), QStringLiteral("whatsapp"));
            o.insert(QStringLiteral("contact"),
                     QJsonObject{{QStringLiteral("id"), QStringLiteral("contact_sample")},
                                 {QStringLiteral("firstName"), QStringLiteral("Ayşe")},
                                 {QStringLiteral("lastName"), QStringLiteral("Yılmaz")},
                                 {QStringLiteral("phone"), QStringLiteral("+905321234567")}});
        }
        if (verb == QLatin1String("assigned")) {
            o.insert(QStringLiteral("assignedTo"), QJsonObject{{QStringLiteral("id"), QStringLiteral("user_sample")},
                                                               {QStringLiteral("name"), QStringLiteral("Agent")}});
            o.insert(QStringLiteral("previousAssignee"), QJsonValue::Null);
        }
        return o;
    }
    if (group == QLatin1String("contact")) {
        QJsonObject o = contact;
        if (verb == QLatin1String("updated"))
            o.insert(QStringLiteral("changedFields"), QJsonArray{QStringLiteral("tags")});
        return o;
    }
    if (group == QLatin1String("deal")) {
        QJsonObject o = deal;
        if (verb == QLatin1String("stage_changed")) {
            o.insert(QStringLiteral("from"), QStringLiteral("contact"));
            o.insert(QStringLiteral("to"), QStringLiteral("proposal"));
        } else if (verb == QLatin1String("won")) {
            o.insert(QStringLiteral("stage"), QStringLiteral("won"));
            o.insert(QStringLiteral("closedValue"), 15000);
        } else if (verb == QLatin1String("lost")) {
            o.insert(QStringLiteral("stage"), QStringLiteral("lost"));
            o.insert(QStringLiteral("reason"), QStringLiteral("price"));
        }
        return o;
    }
    if (group == QLatin1String("task")) {
        if (verb == QLatin1String("completed"))
            return {{QStringLiteral("taskId"), QStringLiteral("task_sample")},
                    {QStringLiteral("completedBy"), QStringLiteral("user_sample")},
                    {QStringLiteral("completedAt"), now}};
        return task;
    }
    if (group == QLatin1String("segment")) {
        QJsonObject segment{
            {QStringLiteral("id"), QStringLiteral("seg_sample")},
            {QStringLiteral("segmentId"), QStringLiteral("seg_sample")},
            {QStringLiteral("name"), QStringLiteral("VIP customers")},
            {QStringLiteral("description"), QString()},
            {QStringLiteral("filters"),
             QJsonObject{{QStringLiteral("logic"), QStringLiteral("AND")},
                         {QStringLiteral("rules"),
                          QJsonArray{QJsonObject{{QStringLiteral("field"), QStringLiteral("tags")},
                                                 {QStringLiteral("operator"), QStringLiteral("contains")},
                                                 {QStringLiteral("value"), QStringLiteral("vip")}}}}}},
            {QStringLiteral("isDynamic"),
             verb != QLatin1String("contacts_added") && verb != QLatin1String("contacts_removed")},
            {QStringLiteral("createdAt"), now},
            {QStringLiteral("updatedAt"), now}};
        if (verb.startsWith(QLatin1String("contacts_")))
            segment.insert(QStringLiteral("contactIds"), QJsonArray{QStringLiteral("contact_sample")});
        return segment;
    }
    return {};
}

QByteArray WebhookEvents::testBody(const QString &event)
{
    const QJsonObject envelope{{QStringLiteral("id"), Ids::make(u"evt")},
                               {QStringLiteral("event"), event},
                               {QStringLiteral("timestamp"), TimeUtil::nowIso()},
                               {QStringLiteral("data"), sample(event)},
                               {QStringLiteral("test"), true}};
    return QJsonDocument(envelope).toJson(QJsonDocument::Compact);
}

bool WebhookRules::isLoopbackHost(const QString &rawHost)
{
    const QString host = bareHost(rawHost);
    quint8 ip[4];
    if (parseIpv4(host, ip))
        return ip[0] == 127;
    return host == QLatin1String("localhost") || host == QLatin1String("::1") ||
           host == QLatin1String("0:0:0:0:0:0:0:1");
}

bool WebhookRules::isLinkLocalHost(const QString &rawHost)
{
    const QString host = bareHost(rawHost);
    quint8 ip[4];
    if (parseIpv4(host, ip))
        return ip[0] == 169 && ip[1] == 254;
    // fe80::/10, and IPv4-mapped ::ffff:169.254.x.y
    if (host.contains(QLatin1Char(':'))) {
        if (host.startsWith(QLatin1String("fe8")) || host.startsWith(QLatin1String("fe9")) ||
            host.startsWith(QLatin1String("fea")) || host.startsWith(QLatin1String("feb")))
            return true;
        const qsizetype last = host.lastIndexOf(QLatin1Char(':'));
        if (parseIpv4(host.mid(last + 1), ip))
            return ip[0] == 169 && ip[1] == 254;
    }
    return host == QLatin1String("metadata.google.internal");
}

QString WebhookRules::checkUrl(const QString &text, bool allowInsecureLocal)
{
    if (text.size() > 2048)
        return QStringLiteral("must be at most 2048 characters");
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() || url.isRelative())
        return QStringLiteral("must be an absolute https URL");
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String("http")) {
        if (!isLoopbackHost(url.host()))
            return QStringLiteral("must use https");
        if (!allowInsecureLocal)
            return QStringLiteral("must use https (plain http to loopback needs webhooks/allowInsecureLocal=true)");
    } else if (scheme != QLatin1String("https")) {
        return QStringLiteral("must use https");
    }
    if (!url.userInfo().isEmpty())
        return QStringLiteral("must not carry a user name or password");
    if (isLinkLocalHost(url.host()))
        return QStringLiteral("must not point to a link-local or metadata address (169.254.0.0/16)");
    return {};
}

QString WebhookRules::generateSecret()
{
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()), 8);
    return QStringLiteral("whsec_") +
           QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QByteArray WebhookRules::signature(const QString &secret, const QByteArray &body)
{
    return "sha256=" + QMessageAuthenticationCode::hash(body, secret.toUtf8(), QCryptographicHash::Sha256).toHex();
}

bool WebhookRules::verifySignature(const QString &secret, const QByteArray &body, const QByteArray &header)
{
    const QByteArray expected = signature(secret, body);
    const QByteArray given = header.trimmed().toLower();
    if (given.size() != expected.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < expected.size(); ++i)
        diff |= uchar(expected.at(i) ^ given.at(i));
    return diff == 0;
}

QStringList IncomingActions::all()
{
    return {QStringLiteral("contact.upsert"), QStringLiteral("deal.upsert"), QStringLiteral("task.create"),
            QStringLiteral("message.received")};
}
