#include "model/webhooks/webhook.h"

#include "model/core/ids.h"
#include "model/core/jsonwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>
#include <QUrl>

#include <algorithm>
#include <cstring>

#include <arpa/inet.h>
#include <netinet/in.h>

namespace {
using Json::nullable;
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
        // Beyond the spec's table: one event a batch of a CSV import (docs/api.md, "Imports").
        QStringLiteral("contacts.imported"),
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
        // Beyond the spec's table: emitted by the campaigns area.
        QStringLiteral("campaign.started"),
        QStringLiteral("campaign.completed"),
        QStringLiteral("campaign.failed"),
    };
    return names;
}

bool WebhookEvents::isKnown(const QString &event)
{
    return all().contains(event);
}

QJsonObject WebhookEvents::sample(const QString &event, const QString &now)
{
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
    if (event == QLatin1String("contacts.imported"))
        return {{QStringLiteral("importId"), QStringLiteral("imp_sample")},
                {QStringLiteral("createdIds"), QJsonArray{QStringLiteral("contact_sample")}},
                {QStringLiteral("updatedIds"), QJsonArray{}},
                {QStringLiteral("created"), 1},
                {QStringLiteral("updated"), 0},
                {QStringLiteral("firstLine"), 2},
                {QStringLiteral("lastLine"), 2},
                {QStringLiteral("importedBy"), QStringLiteral("user_sample")}};
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
    if (group == QLatin1String("campaign")) {
        const QJsonObject stats{{QStringLiteral("sent"), verb == QLatin1String("started") ? 0 : 1180},
                                {QStringLiteral("delivered"), verb == QLatin1String("started") ? 0 : 1162},
                                {QStringLiteral("opened"), 0},
                                {QStringLiteral("clicked"), 0},
                                {QStringLiteral("bounced"), verb == QLatin1String("started") ? 0 : 18},
                                {QStringLiteral("total"), 1200},
                                {QStringLiteral("skipped"), 20}};
        const QString status = verb == QLatin1String("started")     ? QStringLiteral("SENDING")
                               : verb == QLatin1String("completed") ? QStringLiteral("SENT")
                                                                    : QStringLiteral("FAILED");
        const QJsonObject campaign{{QStringLiteral("id"), QStringLiteral("cmp_sample")},
                                   {QStringLiteral("name"), QStringLiteral("November offer")},
                                   {QStringLiteral("type"), QStringLiteral("BROADCAST")},
                                   {QStringLiteral("channel"), QStringLiteral("email")},
                                   {QStringLiteral("status"), status},
                                   {QStringLiteral("broadcastListId"), QStringLiteral("seg_sample")},
                                   {QStringLiteral("startedAt"), now}};
        return {{QStringLiteral("campaign"), campaign},
                {verb == QLatin1String("started") ? QStringLiteral("recipients") : QStringLiteral("stats"), stats}};
    }
    return {};
}

QByteArray WebhookEvents::testBody(const QString &event, const QString &now)
{
    const QJsonObject envelope{{QStringLiteral("id"), Ids::make(u"evt")},
                               {QStringLiteral("event"), event},
                               {QStringLiteral("timestamp"), now},
                               {QStringLiteral("data"), sample(event, now)},
                               {QStringLiteral("test"), true}};
    return QJsonDocument(envelope).toJson(QJsonDocument::Compact);
}

bool IpAddress::isV4Mapped() const
{
    static constexpr quint8 prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    return std::equal(std::begin(prefix), std::end(prefix), bytes.begin());
}

QString IpAddress::toString() const
{
    char text[INET6_ADDRSTRLEN] = {};
    if (isV4Mapped())
        inet_ntop(AF_INET, bytes.data() + 12, text, sizeof text);
    else
        inet_ntop(AF_INET6, bytes.data(), text, sizeof text);
    return QString::fromLatin1(text);
}

namespace {
const char *const kRefusedTarget =
    QT_TRANSLATE_NOOP("ModelError", "refused: the receiver's address is not allowed (webhooks/allowedTargets)");
} // namespace

QString WebhookRules::refusedTargetMessage()
{
    return ModelText(kRefusedTarget).english();
}

std::optional<IpAddress> WebhookRules::literalAddress(const QString &rawHost)
{
    const QString host = bareHost(rawHost);
    if (host.isEmpty() || host.size() > 64)
        return std::nullopt;
    const QByteArray latin = host.toLatin1();
    IpAddress a;
    if (host.contains(QLatin1Char(':'))) {
        // inet_pton reads every IPv6 form; a zone ("%eth0") is not an address we connect to
        if (inet_pton(AF_INET6, latin.constData(), a.bytes.data()) == 1)
            return a;
        return std::nullopt;
    }
    // Only digits, dots and hex digits with x: inet_aton would also stop at a space and accept the rest.
    for (const QChar c : host) {
        if (!(c.isDigit() || c == QLatin1Char('.') || c == QLatin1Char('x') ||
              (c >= QLatin1Char('a') && c <= QLatin1Char('f'))))
            return std::nullopt;
    }
    in_addr v4{};
    if (inet_aton(latin.constData(), &v4) == 0)
        return std::nullopt;
    a.bytes[10] = a.bytes[11] = 0xff;
    std::memcpy(a.bytes.data() + 12, &v4.s_addr, 4); // network order
    return a;
}

namespace {
AddressScope scopeOfV4(const quint8 *b)
{
    const quint32 v = (quint32(b[0]) << 24) | (quint32(b[1]) << 16) | (quint32(b[2]) << 8) | b[3];
    auto in = [v](quint32 net, int bits) { return bits == 0 || (v >> (32 - bits)) == (net >> (32 - bits)); };
    if (v == 0 || in(0x7f000000, 8)) // 0.0.0.0 reaches this machine, as 127/8 does
        return AddressScope::Loopback;
    if (in(0x00000000, 8) || in(0xa9fe0000, 16) || in(0xc0000000, 24) || in(0xe0000000, 4) || in(0xf0000000, 4))
        return AddressScope::Never; // 0/8, link-local and metadata, IETF protocol, multicast, reserved and broadcast
    if (in(0x0a000000, 8) || in(0xac100000, 12) || in(0xc0a80000, 16) || in(0x64400000, 10) || in(0xc6120000, 15))
        return AddressScope::Private; // RFC 1918, shared address space (carrier NAT), benchmarking
    return AddressScope::Public;
}
} // namespace

AddressScope WebhookRules::scopeOf(const IpAddress &address)
{
    const auto &b = address.bytes;
    auto zeros = [&b](int from, int to) {
        return std::all_of(b.begin() + from, b.begin() + to, [](quint8 x) { return x == 0; });
    };
    if (address.isV4Mapped())
        return scopeOfV4(b.data() + 12);
    if (zeros(0, 15) && (b[15] == 0 || b[15] == 1)) // :: and ::1
        return AddressScope::Loopback;
    if (zeros(0, 12)) // IPv4-compatible ::a.b.c.d
        return scopeOfV4(b.data() + 12);
    if (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b) {
        if (zeros(4, 12)) // NAT64 64:ff9b::/96 carries an IPv4 address
            return scopeOfV4(b.data() + 12);
        if (b[4] == 0x00 && b[5] == 0x01) // 64:ff9b:1::/48, local use
            return AddressScope::Private;
    }
    if (b[0] == 0x20 && b[1] == 0x02) // 6to4 2002:a.b.c.d::/48
        return scopeOfV4(b.data() + 2);
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x00 && b[3] == 0x00) // Teredo
        return AddressScope::Never;
    if ((b[0] & 0xfe) == 0xfc || (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0)) // unique local, site-local
        return AddressScope::Private;
    if ((b[0] == 0xfe && (b[1] & 0xc0) == 0x80) || b[0] == 0xff) // link-local, multicast
        return AddressScope::Never;
    if (b[0] == 0x01 && zeros(1, 8)) // 100::/64, discard
        return AddressScope::Never;
    return AddressScope::Public;
}

bool WebhookRules::allowsAddress(const WebhookPolicy &policy, bool plainHttp, const IpAddress &address)
{
    const AddressScope scope = scopeOf(address);
    if (plainHttp)
        return scope == AddressScope::Loopback && policy.allowInsecureLocal;
    switch (scope) {
    case AddressScope::Public:
        return true;
    case AddressScope::Private:
        return policy.targets != WebhookTargets::Public;
    case AddressScope::Loopback:
        return policy.targets == WebhookTargets::Local;
    case AddressScope::Never:
        break;
    }
    return false;
}

namespace {
bool isLocalhostName(const QString &host)
{
    return host == QLatin1String("localhost") || host.endsWith(QLatin1String(".localhost"));
}
} // namespace

bool WebhookRules::refusesName(const WebhookPolicy &policy, bool plainHttp, const QString &rawHost)
{
    const QString host = bareHost(rawHost);
    if (host == QLatin1String("metadata.google.internal") || host == QLatin1String("metadata"))
        return true;
    if (isLocalhostName(host))
        return plainHttp ? !policy.allowInsecureLocal : policy.targets != WebhookTargets::Local;
    return plainHttp; // plain http goes to loopback only
}

bool WebhookRules::parseTargets(const QString &text, WebhookTargets *out)
{
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("public"))
        *out = WebhookTargets::Public;
    else if (t == QLatin1String("private"))
        *out = WebhookTargets::Private;
    else if (t == QLatin1String("local"))
        *out = WebhookTargets::Local;
    else
        return false;
    return true;
}

QString WebhookRules::targetsName(WebhookTargets targets)
{
    switch (targets) {
    case WebhookTargets::Public:
        return QStringLiteral("public");
    case WebhookTargets::Private:
        return QStringLiteral("private");
    case WebhookTargets::Local:
        return QStringLiteral("local");
    }
    return {};
}

ModelText WebhookRules::urlProblem(const QString &text, const WebhookPolicy &policy)
{
    if (text.size() > 2048)
        return ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {2048});
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() || url.isRelative())
        return ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an absolute https URL"));
    const QString scheme = url.scheme().toLower();
    const bool plainHttp = scheme == QLatin1String("http");
    const std::optional<IpAddress> literal = literalAddress(url.host());
    if (plainHttp) {
        const bool loopback =
            literal ? scopeOf(*literal) == AddressScope::Loopback : isLocalhostName(bareHost(url.host()));
        if (!loopback)
            return ModelText(QT_TRANSLATE_NOOP("ModelError", "must use https"));
        if (!policy.allowInsecureLocal)
            return ModelText(QT_TRANSLATE_NOOP(
                "ModelError", "must use https (plain http to loopback needs webhooks/allowInsecureLocal=true)"));
    } else if (scheme != QLatin1String("https")) {
        return ModelText(QT_TRANSLATE_NOOP("ModelError", "must use https"));
    }
    if (!url.userInfo().isEmpty())
        return ModelText(QT_TRANSLATE_NOOP("ModelError", "must not carry a user name or password"));
    if (literal ? !allowsAddress(policy, plainHttp, *literal) : refusesName(policy, plainHttp, url.host()))
        return ModelText(kRefusedTarget);
    return {};
}

QString WebhookRules::checkUrl(const QString &text, const WebhookPolicy &policy)
{
    return urlProblem(text, policy).english();
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
