#include "server/controllers/metawebhookscontroller.h"

#include "messaging/channels/channelconnector.h"
#include "messaging/channels/channelregistry.h"
#include "messaging/channels/graphapi.h"
#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/inbox/inboundrecorder.h"
#include "server/api/graphwebhook.h"
#include "server/api/schemas.h"

#include <QJsonArray>
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcChannels)

using namespace Schema;

namespace {

const QString kWhatsApp = QStringLiteral("whatsapp");
const QString kInstagram = QStringLiteral("instagram");

QString str(const QJsonObject &o, QLatin1String key)
{
    const QJsonValue v = o.value(key);
    if (v.isDouble())
        return QString::number(v.toInteger());
    return v.toString();
}

// The body must be {object: <expected>, entry: [objects]}: anything else is not Meta's shape.
QJsonArray entries(const QJsonObject &body, const QString &object)
{
    const FieldReader reader(body);
    if (reader.value(QStringLiteral("object")).toString() != object)
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Not a %1 webhook: \"object\" must be \"%1\""), {object}),
            {{QStringLiteral("object"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be %1"), {object})}});
    const QJsonValue entry = reader.value(QStringLiteral("entry"));
    if (!entry.isArray())
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "The webhook has no \"entry\" array")),
            {{QStringLiteral("entry"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array"))}});
    for (const QJsonValue &e : entry.toArray()) {
        if (!e.isObject())
            throw DomainError::badRequest(
                ModelText(QT_TRANSLATE_NOOP("ModelError", "Every \"entry\" item must be an object")),
                {{QStringLiteral("entry"), ModelText(QT_TRANSLATE_NOOP("ModelError", "items must be objects"))}});
    }
    return entry.toArray();
}

bool digitsOnly(const QString &s)
{
    if (s.isEmpty())
        return false;
    for (const QChar c : s) {
        if (!c.isDigit())
            return false;
    }
    return true;
}

// One WhatsApp messages[] item as our content; false for items that are not messages (reactions).
bool whatsAppContent(const QJsonObject &m, MessageContent *content)
{
    const QString type = m.value(QLatin1String("type")).toString();
    if (type == QLatin1String("text")) {
        content->type = QStringLiteral("text");
        content->text = m.value(QLatin1String("text")).toObject().value(QLatin1String("body")).toString();
    } else if (type == QLatin1String("image") || type == QLatin1String("video") || type == QLatin1String("audio") ||
               type == QLatin1String("document") || type == QLatin1String("sticker")) {
        const QJsonObject media = m.value(type).toObject();
        content->type = type == QLatin1String("sticker") ? QStringLiteral("image") : type;
        content->caption = media.value(QLatin1String("caption")).toString();
        content->filename = media.value(QLatin1String("filename")).toString();
        // The bytes stay at Meta (GET {base}/{id} with the token, for 7 days): we keep the id.
        content->payload = {{QStringLiteral("providerMediaId"), str(media, QLatin1String("id"))},
                            {QStringLiteral("mimeType"), media.value(QLatin1String("mime_type")).toString()}};
        if (media.contains(QLatin1String("sha256")))
            content->payload.insert(QStringLiteral("sha256"), media.value(QLatin1String("sha256")));
        if (type == QLatin1String("sticker"))
            content->payload.insert(QStringLiteral("sticker"), true);
    } else if (type == QLatin1String("location")) {
        const QJsonObject l = m.value(QLatin1String("location")).toObject();
        content->type = QStringLiteral("location");
        content->payload = {{QStringLiteral("latitude"), l.value(QLatin1String("latitude")).toDouble()},
                            {QStringLiteral("longitude"), l.value(QLatin1String("longitude")).toDouble()}};
        for (const QLatin1String key : {QLatin1String("name"), QLatin1String("address")}) {
            if (l.contains(key))
                content->payload.insert(key, l.value(key).toString());
        }
        content->text = l.value(QLatin1String("name")).toString();
    } else if (type == QLatin1String("button")) {
        // A quick-reply tap on a template: the button's text, with its payload.
        const QJsonObject b = m.value(QLatin1String("button")).toObject();
        content->type = QStringLiteral("text");
        content->text = b.value(QLatin1String("text")).toString();
        content->payload = {{QStringLiteral("quickReplyPayload"), b.value(QLatin1String("payload")).toString()}};
    } else if (type == QLatin1String("interactive")) {
        const QJsonObject i = m.value(QLatin1String("interactive")).toObject();
        const QString kind = i.value(QLatin1String("type")).toString();
        const QJsonObject reply = i.value(kind).toObject();
        content->type = QStringLiteral("text");
        content->text = reply.value(QLatin1String("title")).toString();
        content->payload = {{QStringLiteral("interactiveType"), kind},
                            {QStringLiteral("replyId"), reply.value(QLatin1String("id")).toString()}};
        if (reply.contains(QLatin1String("description")))
            content->payload.insert(QStringLiteral("description"), reply.value(QLatin1String("description")));
    } else if (type == QLatin1String("reaction")) {
        return false;
    } else {
        // contacts, order, system, unsupported…: recorded so that the agent sees something came.
        content->type = QStringLiteral("text");
        content->text =
            QStringLiteral("(unsupported WhatsApp message: %1)").arg(type.isEmpty() ? QStringLiteral("unknown") : type);
        content->payload = {{QStringLiteral("unsupportedType"), type}};
    }
    const QString replyTo = m.value(QLatin1String("context")).toObject().value(QLatin1String("id")).toString();
    if (!replyTo.isEmpty())
        content->payload.insert(QStringLiteral("replyToProviderId"), replyTo);
    return true;
}

void record(InboundRecorder &recorder, const InboundMessage &in, MetaWebhooksController::Tally &tally)
{
    try {
        bool created = false;
        try {
            recorder.record(in, &created);
        } catch (const UniqueViolation &) {
            throw; // another copy's write at the same moment (see below)
        } catch (const DomainError &e) {
            if (in.phone.isEmpty())
                throw;
            // A number our contact rules refuse: the message is kept on a contact without a phone.
            qCWarning(lcChannels).noquote() << in.channel << "phone" << in.phone << "refused:" << e.message();
            InboundMessage withoutPhone = in;
            withoutPhone.phone.clear();
            recorder.record(withoutPhone, &created);
        }
        ++(created ? tally.received : tally.duplicates);
    } catch (const UniqueViolation &) {
        // Not a message we cannot store: it met another copy's write of the same rows twice in a
        // row. The body is answered 409, and Meta sends it again as after any answer but 200.
        throw;
    } catch (const DomainError &e) {
        // A message we cannot store must not make Meta retry the whole body for a day: logged, skipped.
        qCWarning(lcChannels).noquote() << in.channel << "message" << in.providerId << "not recorded:" << e.message();
        ++tally.ignored;
    }
}

void status(InboundRecorder &recorder, const QString &channel, const QString &providerId, const QString &state,
            const QString &reason, MetaWebhooksController::Tally &tally)
{
    // A report on an id no message has yet (it raced our own send's answer, or it is another app's
    // message) is kept and applied if a send records that id; unknown states are ignored.
    try {
        if (!providerId.isEmpty()) {
            switch (recorder.applyStatus(channel, providerId, state, reason)) {
            case InboundRecorder::StatusOutcome::Applied:
                ++tally.statuses;
                return;
            case InboundRecorder::StatusOutcome::Kept:
                ++tally.kept;
                return;
            case InboundRecorder::StatusOutcome::Ignored:
                break;
            }
        }
    } catch (const DomainError &e) {
        qCWarning(lcChannels).noquote() << channel << "status of" << providerId << "not applied:" << e.message();
    }
    ++tally.ignored;
}

} // namespace

QJsonObject MetaWebhooksController::Tally::toJson() const
{
    return {{QStringLiteral("received"), received},
            {QStringLiteral("duplicates"), duplicates},
            {QStringLiteral("statuses"), statuses},
            {QStringLiteral("kept"), kept},
            {QStringLiteral("ignored"), ignored}};
}

MetaWebhooksController::MetaWebhooksController(std::shared_ptr<ChannelRegistry> channels, const Store &store)
    : m_channels(channels ? std::move(channels) : ChannelRegistry::defaults())
    , m_recorder(std::make_unique<InboundRecorder>(store))
{
}

MetaWebhooksController::~MetaWebhooksController() = default;

QJsonObject MetaWebhooksController::schemas() const
{
    return {{QStringLiteral("MetaWebhookResult"), object({{QStringLiteral("received"), integer(0)},
                                                          {QStringLiteral("duplicates"), integer(0)},
                                                          {QStringLiteral("statuses"), integer(0)},
                                                          {QStringLiteral("ignored"), integer(0)}})},
            {QStringLiteral("MetaWebhookBody"),
             object({{QStringLiteral("object"), string()}, {QStringLiteral("entry"), array(object({}))}},
                    {QStringLiteral("object"), QStringLiteral("entry")})}};
}

void MetaWebhooksController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Channel webhooks");
    const auto bind = Router::binder(this);
    const QJsonObject hub{{QStringLiteral("hub.mode"), string()},
                          {QStringLiteral("hub.verify_token"), string()},
                          {QStringLiteral("hub.challenge"), string()}};
    auto verifyDoc = [&](const QString &channel) {
        RouteDoc doc{tag,  QStringLiteral("Meta's subscription handshake for %1").arg(channel), {}, string(), hub,
                     {403}};
        doc.description = QStringLiteral("Meta's subscription handshake for %1: hub.mode=subscribe and the channel's "
                                         "verifyToken answer hub.challenge as text/plain")
                              .arg(channel);
        doc.contentType = QStringLiteral("text/plain");
        return doc;
    };
    auto receiveDoc = [&](const QString &channel, const QString &what) {
        return RouteDoc{tag,
                        QStringLiteral("%1 events from Meta, signed").arg(channel),
                        ref(QStringLiteral("MetaWebhookBody")),
                        envelope(ref(QStringLiteral("MetaWebhookResult"))),
                        {},
                        {400, 401, 503}}
            .described(QStringLiteral("%1 events signed with X-Hub-Signature-256 (HMAC-SHA256 of the raw body with "
                                      "the app secret): %2")
                           .arg(channel, what));
    };
    // GET /webhooks/whatsapp
    router.add("GET", QStringLiteral("/webhooks/whatsapp"), "verifyWhatsAppWebhook",
               bind(&MetaWebhooksController::verifyWhatsApp), Access::publicRoute(),
               verifyDoc(QStringLiteral("WhatsApp")));
    // POST /webhooks/whatsapp
    router.add("POST", QStringLiteral("/webhooks/whatsapp"), "receiveWhatsAppWebhook",
               bind(&MetaWebhooksController::receiveWhatsApp), Access::publicRoute(),
               receiveDoc(QStringLiteral("WhatsApp Cloud API"),
                          QStringLiteral("incoming messages (recorded once per wamid) and message statuses")));
    // GET /webhooks/instagram
    router.add("GET", QStringLiteral("/webhooks/instagram"), "verifyInstagramWebhook",
               bind(&MetaWebhooksController::verifyInstagram), Access::publicRoute(),
               verifyDoc(QStringLiteral("Instagram")));
    // POST /webhooks/instagram
    router.add("POST", QStringLiteral("/webhooks/instagram"), "receiveInstagramWebhook",
               bind(&MetaWebhooksController::receiveInstagram), Access::publicRoute(),
               receiveDoc(QStringLiteral("Instagram messaging"),
                          QStringLiteral("incoming messages (echoes of our own sends dropped) and read receipts")));
}

ApiResponse MetaWebhooksController::verifyWhatsApp(ApiRequest &request)
{
    return GraphWebhook::verifyHandshake(request, m_channels->config().whatsapp.verifyToken);
}

ApiResponse MetaWebhooksController::verifyInstagram(ApiRequest &request)
{
    return GraphWebhook::verifyHandshake(request, m_channels->config().instagram.verifyToken);
}

ApiResponse MetaWebhooksController::receiveWhatsApp(ApiRequest &request)
{
    const WhatsAppConfig &config = m_channels->config().whatsapp;
    const QJsonObject body = GraphWebhook::checkWebhook(request, kWhatsApp, config.configured(), config.appSecret);
    const QJsonArray entry = entries(body, QStringLiteral("whatsapp_business_account"));
    Tally tally;
    for (const QJsonValue &e : entry) {
        for (const QJsonValue &c : e.toObject().value(QLatin1String("changes")).toArray()) {
            const QJsonObject change = c.toObject();
            if (change.value(QLatin1String("field")).toString() != QLatin1String("messages")) {
                ++tally.ignored;
                continue;
            }
            const QJsonObject value = change.value(QLatin1String("value")).toObject();
            const QString channelId =
                str(value.value(QLatin1String("metadata")).toObject(), QLatin1String("phone_number_id"));
            QHash<QString, QString> names;
            for (const QJsonValue &ct : value.value(QLatin1String("contacts")).toArray()) {
                const QJsonObject contact = ct.toObject();
                names.insert(
                    str(contact, QLatin1String("wa_id")),
                    contact.value(QLatin1String("profile")).toObject().value(QLatin1String("name")).toString());
            }
            for (const QJsonValue &mv : value.value(QLatin1String("messages")).toArray()) {
                const QJsonObject m = mv.toObject();
                const QString from = str(m, QLatin1String("from"));
                InboundMessage in;
                in.channel = kWhatsApp;
                in.providerId = str(m, QLatin1String("id"));
                if (!digitsOnly(from) || from.size() > 15 || in.providerId.isEmpty() ||
                    !whatsAppContent(m, &in.content)) {
                    ++tally.ignored;
                    continue;
                }
                in.phone = QLatin1Char('+') + from;
                in.externalId = in.phone; // the conversation's address: E.164, as direct sends store it
                in.name = names.value(from);
                in.channelId = channelId;
                record(*m_recorder, in, tally);
            }
            for (const QJsonValue &sv : value.value(QLatin1String("statuses")).toArray()) {
                const QJsonObject s = sv.toObject();
                const QString state = s.value(QLatin1String("status")).toString();
                QString reason;
                if (state == QLatin1String("failed")) {
                    const QJsonObject error = s.value(QLatin1String("errors")).toArray().at(0).toObject();
                    const QString title = error.value(QLatin1String("title")).toString();
                    reason = error.isEmpty() ? QStringLiteral("failed (no reason given)")
                                             : QStringLiteral("%1: %2").arg(str(error, QLatin1String("code")), title);
                }
                status(*m_recorder, kWhatsApp, str(s, QLatin1String("id")), state, reason, tally);
            }
            for (const QJsonValue &ev : value.value(QLatin1String("errors")).toArray())
                qCWarning(lcChannels).noquote()
                    << "whatsapp webhook error:" << QJsonDocument(ev.toObject()).toJson(QJsonDocument::Compact);
        }
    }
    return ApiResponse::ok(tally.toJson());
}

ApiResponse MetaWebhooksController::receiveInstagram(ApiRequest &request)
{
    const InstagramConfig &config = m_channels->config().instagram;
    const QJsonObject body = GraphWebhook::checkWebhook(request, kInstagram, config.configured(), config.appSecret);
    const QJsonArray entry = entries(body, kInstagram);
    Tally tally;
    for (const QJsonValue &e : entry) {
        const QJsonObject en = e.toObject();
        // Messenger-style "messaging" items; Instagram Login may send the same item as a "messages" change.
        QJsonArray items = en.value(QLatin1String("messaging")).toArray();
        for (const QJsonValue &c : en.value(QLatin1String("changes")).toArray()) {
            if (c.toObject().value(QLatin1String("field")).toString() == QLatin1String("messages"))
                items.append(c.toObject().value(QLatin1String("value")));
            else
                ++tally.ignored;
        }
        for (const QJsonValue &iv : std::as_const(items)) {
            const QJsonObject item = iv.toObject();
            const QString sender = str(item.value(QLatin1String("sender")).toObject(), QLatin1String("id"));
            QString account = str(item.value(QLatin1String("recipient")).toObject(), QLatin1String("id"));
            if (account.isEmpty())
                account = str(en, QLatin1String("id"));
            if (item.contains(QLatin1String("read"))) {
                status(*m_recorder, kInstagram,
                       item.value(QLatin1String("read")).toObject().value(QLatin1String("mid")).toString(),
                       QStringLiteral("read"), {}, tally);
                continue;
            }
            if (item.contains(QLatin1String("delivery"))) {
                for (const QJsonValue &mid :
                     item.value(QLatin1String("delivery")).toObject().value(QLatin1String("mids")).toArray())
                    status(*m_recorder, kInstagram, mid.toString(), QStringLiteral("delivered"), {}, tally);
                continue;
            }
            InboundMessage in;
            in.channel = kInstagram;
            in.externalId = sender;
            in.channelId = account;
            if (item.contains(QLatin1String("postback"))) {
                const QJsonObject p = item.value(QLatin1String("postback")).toObject();
                in.providerId = p.value(QLatin1String("mid")).toString();
                in.content.text = p.value(QLatin1String("title")).toString();
                in.content.payload = {
                    {QStringLiteral("postbackPayload"), p.value(QLatin1String("payload")).toString()}};
                if (sender.isEmpty()) {
                    ++tally.ignored;
                    continue;
                }
                record(*m_recorder, in, tally);
                continue;
            }
            const QJsonObject m = item.value(QLatin1String("message")).toObject();
            // Echoes are our own sends coming back; deletions are not kept (the message stays in the thread).
            if (m.isEmpty() || m.value(QLatin1String("is_echo")).toBool() ||
                m.value(QLatin1String("is_deleted")).toBool() || sender.isEmpty() ||
                m.value(QLatin1String("mid")).toString().isEmpty()) {
                ++tally.ignored;
                continue;
            }
            const QString mid = m.value(QLatin1String("mid")).toString();
            const QString text = m.value(QLatin1String("text")).toString();
            QJsonObject extra;
            if (m.contains(QLatin1String("quick_reply")))
                extra.insert(
                    QStringLiteral("quickReplyPayload"),
                    m.value(QLatin1String("quick_reply")).toObject().value(QLatin1String("payload")).toString());
            const QString replyTo =
                m.value(QLatin1String("reply_to")).toObject().value(QLatin1String("mid")).toString();
            if (!replyTo.isEmpty())
                extra.insert(QStringLiteral("replyToProviderId"), replyTo);
            const QJsonArray attachments = m.value(QLatin1String("attachments")).toArray();
            if (attachments.isEmpty()) {
                in.providerId = mid;
                in.content.type = QStringLiteral("text");
                in.content.text = text;
                in.content.payload = extra;
                record(*m_recorder, in, tally);
                continue;
            }
            // One message per attachment (the first keeps the mid, the text as its caption).
            for (qsizetype i = 0; i < attachments.size(); ++i) {
                const QJsonObject a = attachments.at(i).toObject();
                const QString kind = a.value(QLatin1String("type")).toString();
                const QString url = a.value(QLatin1String("payload")).toObject().value(QLatin1String("url")).toString();
                InboundMessage part = in;
                part.providerId = i == 0 ? mid : QStringLiteral("%1#%2").arg(mid).arg(i);
                part.content.payload = extra;
                if (kind == QLatin1String("image") || kind == QLatin1String("video") ||
                    kind == QLatin1String("audio") || kind == QLatin1String("file")) {
                    part.content.type = kind == QLatin1String("file") ? QStringLiteral("document") : kind;
                    part.content.mediaUrl = url;
                    if (i == 0)
                        part.content.caption = text;
                } else {
                    // share, story_mention, ig_reel, fallback…: a link the agent can open.
                    part.content.type = QStringLiteral("text");
                    part.content.text = i == 0 && !text.isEmpty() ? text + QLatin1Char('\n') + url : url;
                    part.content.payload.insert(QStringLiteral("attachmentType"), kind);
                    if (!url.isEmpty())
                        part.content.payload.insert(QStringLiteral("url"), url);
                }
                record(*m_recorder, part, tally);
            }
        }
    }
    return ApiResponse::ok(tally.toJson());
}
