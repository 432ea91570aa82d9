#include "messagescontroller.h"

#include "api/apierror.h"
#include "api/params.h"
#include "api/schemas.h"
#include "channels/channelsender.h"
#include "contactrepository.h"
#include "controllers/conversationscontroller.h"
#include "conversationrepository.h"
#include "database.h"
#include "timeutil.h"
#include "widgetvisitorrepository.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSqlQuery>

using namespace Schema;

namespace {
// Channels a direct send may name; sms is accepted so that its phone is checked, but no connector
// serves it yet (503).
const QStringList kDirectChannels{QStringLiteral("whatsapp"), QStringLiteral("instagram"), QStringLiteral("telegram"),
                                  QStringLiteral("widget"), QStringLiteral("sms")};

ApiError contactNotFound()
{
    return ApiError(404, QStringLiteral("NOT_FOUND"), QStringLiteral("Contact not found"));
}

// E.164: "+", a non-zero digit, at most 15 digits in all. Spaces, dashes, dots and brackets are
// tolerated between the digits (as contacts accept them).
QString e164(const QString &to)
{
    static const QRegularExpression re(QStringLiteral("^\\+[1-9][0-9]{6,14}$"));
    QString compact = to;
    compact.remove(QRegularExpression(QStringLiteral("[\\s().-]")));
    return re.match(compact).hasMatch() ? compact : QString();
}
} // namespace

MessagesController::MessagesController(EventBus *bus, std::shared_ptr<ChannelRegistry> channels)
    : m_bus(bus)
    , m_conversations(std::make_unique<ConversationRepository>(bus))
    , m_sender(std::make_unique<ChannelSender>(bus, channels ? std::move(channels) : ChannelRegistry::defaults()))
{
}

MessagesController::~MessagesController() = default;

void MessagesController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Messages");
    auto bind = [this](ApiResponse (MessagesController::*method)(ApiRequest &)) {
        return [this, method](ApiRequest &r) { return (this->*method)(r); };
    };
    const Access read = Access::scoped(QStringLiteral("messages:read"));
    const Access write = Access::scoped(QStringLiteral("messages:write"));
    const QJsonObject message = ref(QStringLiteral("Message"));

    // GET /api/v1/messages
    router.add("GET", QStringLiteral("/api/v1/messages"), bind(&MessagesController::list), read,
               {tag,
                QStringLiteral("List messages, newest first"),
                {},
                pageOf(message),
                {{QStringLiteral("page"), integer(1)},
                 {QStringLiteral("limit"), integer(1, 100)},
                 {QStringLiteral("conversationId"), string()},
                 {QStringLiteral("contactId"), string()},
                 {QStringLiteral("channel"), string()},
                 {QStringLiteral("direction"), string()},
                 {QStringLiteral("status"), string()},
                 {QStringLiteral("since"), string(QStringLiteral("date-time"))}},
                {400, 401, 403, 429}});
    // GET /api/v1/messages/:id
    router.add("GET", QStringLiteral("/api/v1/messages/:id"), bind(&MessagesController::get), read,
               {tag, QStringLiteral("A message"), {}, envelope(message), {}, {401, 403, 404, 429}});
    // GET /api/v1/messages/:id/status
    router.add("GET", QStringLiteral("/api/v1/messages/:id/status"), bind(&MessagesController::status), read,
               {tag,
                QStringLiteral("Delivery status of a message"),
                {},
                envelope(ref(QStringLiteral("MessageStatus"))),
                {},
                {401, 403, 404, 429}});
    // POST /api/v1/messages
    router.add("POST", QStringLiteral("/api/v1/messages"), bind(&MessagesController::sendDirect), write,
               {tag,
                QStringLiteral("Direct send: to + channel (or contactId + channel) and the content of its type"),
                object({{QStringLiteral("to"), string()},
                        {QStringLiteral("contactId"), string()},
                        {QStringLiteral("channel"), string()},
                        {QStringLiteral("type"), string()},
                        {QStringLiteral("text"), string()},
                        {QStringLiteral("mediaUrl"), string(QStringLiteral("uri"))},
                        {QStringLiteral("caption"), string()},
                        {QStringLiteral("filename"), string()},
                        {QStringLiteral("latitude"), number()},
                        {QStringLiteral("longitude"), number()},
                        {QStringLiteral("name"), string()},
                        {QStringLiteral("address"), string()}},
                       {QStringLiteral("channel"), QStringLiteral("type")}),
                envelope(message),
                {},
                {400, 401, 403, 404, 422, 429, 503},
                201});
    // POST /api/v1/messages/send
    router.add("POST", QStringLiteral("/api/v1/messages/send"), bind(&MessagesController::send), write,
               {tag,
                QStringLiteral("Send into a conversation: content is the text (the caption for media)"),
                object({{QStringLiteral("conversationId"), string()},
                        {QStringLiteral("content"), string()},
                        {QStringLiteral("type"), string()},
                        {QStringLiteral("mediaUrl"), string(QStringLiteral("uri"))},
                        {QStringLiteral("filename"), string()}},
                       {QStringLiteral("conversationId")}),
                envelope(message),
                {},
                {400, 401, 403, 404, 422, 429, 503},
                201});
}

ApiResponse MessagesController::list(ApiRequest &request)
{
    const Params::Paging paging = Params::paging(request);
    MessageFilter f;
    f.page = paging.page;
    f.limit = paging.limit;
    f.conversationId = request.queryValue(QStringLiteral("conversationId")).left(100);
    f.contactId = request.queryValue(QStringLiteral("contactId")).left(100);
    f.channel = MessagingApi::oneOf(request, QStringLiteral("channel"), ConversationRules::channels());
    f.direction = MessagingApi::oneOf(request, QStringLiteral("direction"), MessageRules::directions());
    f.status = MessagingApi::oneOf(request, QStringLiteral("status"), MessageRules::statuses());
    if (const auto since = Params::dateTime(request, QStringLiteral("since")))
        f.since = TimeUtil::iso(*since);
    const MessagePage page = m_conversations->listMessages(f);
    QJsonArray items;
    for (const Message &m : page.items)
        items.append(m.toJson());
    return ApiResponse::page(items, f.page, f.limit, page.total);
}

ApiResponse MessagesController::get(ApiRequest &request)
{
    return ApiResponse::ok(m_conversations->getMessage(request.param(QStringLiteral("id"))).toJson());
}

ApiResponse MessagesController::status(ApiRequest &request)
{
    return ApiResponse::ok(m_conversations->getMessage(request.param(QStringLiteral("id"))).statusJson());
}

ApiResponse MessagesController::send(ApiRequest &request)
{
    const QString conversationId = Params::requiredString(request.body, QStringLiteral("conversationId"));
    const MessageContent content =
        MessageRules::parseContent(request.body,
                                   {QStringLiteral("text"), QStringLiteral("image"), QStringLiteral("video"),
                                    QStringLiteral("audio"), QStringLiteral("document")},
                                   QStringLiteral("content"));
    MessageContent c = content;
    if (c.type != QLatin1String("text") && c.caption.isEmpty()) {
        // For media, content is the caption.
        const QJsonValue v = request.body.value(QStringLiteral("content"));
        if (v.isString()) {
            c.caption = v.toString().trimmed().left(1024);
            c.text = c.caption.isEmpty() ? c.text : c.caption;
        }
    }
    const Message m = m_sender->send(conversationId, c, MessagingApi::senderOf(request));
    return ApiResponse::created(m.toJson(), QStringLiteral("Message sent"));
}

ApiResponse MessagesController::sendDirect(ApiRequest &request)
{
    const QString channel = Params::requiredString(request.body, QStringLiteral("channel"));
    if (!kDirectChannels.contains(channel))
        throw ApiError::badRequest(
            QStringLiteral("Invalid data: channel must be one of %1").arg(kDirectChannels.join(QStringLiteral(", "))),
            {{QStringLiteral("channel"), QStringLiteral("unknown channel")}});
    const MessageContent content = MessageRules::parseContent(
        request.body, {QStringLiteral("text"), QStringLiteral("image"), QStringLiteral("video"),
                       QStringLiteral("document"), QStringLiteral("location")});
    const QJsonValue contactValue = request.body.value(QStringLiteral("contactId"));
    const QJsonValue toValue = request.body.value(QStringLiteral("to"));
    if ((!contactValue.isUndefined() && !contactValue.isNull() && !contactValue.isString()) ||
        (!toValue.isUndefined() && !toValue.isNull() && !toValue.isString()))
        throw ApiError::badRequest(QStringLiteral("Invalid data: to and contactId must be strings"),
                                   {{QStringLiteral("to"), QStringLiteral("must be a string")}});
    const QString contactId = contactValue.toString().trimmed();
    QString to = toValue.toString().trimmed();
    if (contactId.isEmpty() && to.isEmpty())
        throw ApiError::unprocessable(QStringLiteral("Required field missing: to (or contactId)"),
                                      {{QStringLiteral("to"), QStringLiteral("to or contactId is required")}});
    const bool phoneChannel = channel == QLatin1String("whatsapp") || channel == QLatin1String("sms");
    if (!to.isEmpty()) {
        if (phoneChannel) {
            to = e164(to);
            if (to.isEmpty())
                throw ApiError(
                    400, QStringLiteral("INVALID_PHONE"), QStringLiteral("Invalid phone"),
                    {{QStringLiteral("to"), QStringLiteral("must be an E.164 number (+ and 7 to 15 digits)")}});
        } else if (to.size() > 100) {
            throw ApiError::badRequest(QStringLiteral("Invalid data: to must be at most 100 characters"),
                                       {{QStringLiteral("to"), QStringLiteral("must be at most 100 characters")}});
        }
    }
    std::optional<Contact> contact;
    if (!contactId.isEmpty()) {
        contact = ContactRepository().find(contactId);
        if (!contact)
            throw contactNotFound();
    }
    // Nothing is stored for a channel that cannot send.
    m_sender->checkAvailable(channel);

    QString conversationId;
    if (channel == QLatin1String("widget")) {
        // The widget's address is the visitor id; a contact is reached on its latest widget conversation.
        if (contact) {
            const std::optional<Conversation> v = m_conversations->findFor(contact->id, channel);
            if (!v)
                throw ApiError(422, QStringLiteral("NO_CONVERSATION"),
                               QStringLiteral("The contact has no widget conversation to send into"),
                               {{QStringLiteral("contactId"), QStringLiteral("has no widget conversation")}});
            conversationId = v->id;
        } else {
            const std::optional<WidgetVisitor> visitor = WidgetVisitorRepository().find(to);
            if (!visitor)
                throw contactNotFound();
            conversationId = visitor->conversationId;
        }
    } else {
        Transaction tx;
        QString externalId = to;
        if (!contact && phoneChannel) {
            QSqlQuery &q = Database::execCached(QStringLiteral("SELECT id FROM contacts WHERE phone_e164 = ?"), {to});
            if (q.next())
                contact = ContactRepository().find(q.value(0).toString());
            q.finish();
            if (!contact)
                contact = ContactRepository(m_bus).create({{QStringLiteral("firstName"), to},
                                                           {QStringLiteral("phone"), to},
                                                           {QStringLiteral("source"), channel}},
                                                          request.principal.id);
        } else if (!contact) {
            // Telegram and Instagram ids cannot be messaged first: the person must have written to us.
            QSqlQuery &q = Database::execCached(
                QStringLiteral("SELECT contact_id FROM conversations WHERE channel = ? AND external_id = ? "
                               "ORDER BY seq DESC LIMIT 1"),
                {channel, to});
            if (q.next())
                contact = ContactRepository().find(q.value(0).toString());
            q.finish();
            if (!contact)
                throw contactNotFound();
        }
        if (externalId.isEmpty())
            externalId = phoneChannel ? ContactRules::toE164(contact->phone) : QString();
        conversationId = m_conversations->findOrCreate(contact->id, channel, externalId, QStringLiteral("api")).id;
        tx.commit();
    }
    const Message m = m_sender->send(conversationId, content, MessagingApi::senderOf(request));
    return ApiResponse::created(m.toJson(), QStringLiteral("Message sent"));
}
