#include "server/controllers/messagescontroller.h"

#include "messaging/channels/channelregistry.h"
#include "messaging/channels/channelsender.h"
#include "messaging/channels/outgoing.h"
#include "messaging/channels/recipients.h"
#include "messaging/media/mediaservice.h"
#include "model/core/fieldreader.h"
#include "model/inbox/bulksend.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/messagetemplate.h"
#include "model/inbox/templaterepository.h"
#include "server/api/queryreader.h"
#include "server/api/schemas.h"
#include "server/api/uploadform.h"
#include "server/controllers/conversationscontroller.h"

#include <QJsonArray>

using namespace Schema;

namespace {
// Channels a direct send may name; sms is accepted so that its phone is checked, but no connector
// serves it yet (503).
const QStringList kDirectChannels{QStringLiteral("whatsapp"), QStringLiteral("instagram"), QStringLiteral("telegram"),
                                  QStringLiteral("widget"), QStringLiteral("sms")};

// The channel a direct send names (fallback when it is absent, when one is given); 400 for an unknown one.
QString directChannel(const QJsonObject &body, const QString &fallback)
{
    const FieldReader reader(body);
    if (!reader.given(QStringLiteral("channel")) && !fallback.isEmpty())
        return fallback;
    const QString channel = reader.requiredString(QStringLiteral("channel"));
    if (!kDirectChannels.contains(channel))
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: %1 must be one of %2"),
                      {ModelTextArg::field(QStringLiteral("channel")), kDirectChannels.join(QStringLiteral(", "))}),
            {{QStringLiteral("channel"), ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown channel"))}});
    return channel;
}

} // namespace

MessagesController::MessagesController(const Store &store, std::shared_ptr<ChannelRegistry> channels,
                                       std::shared_ptr<MediaService> media)
    : m_conversations(std::make_unique<ConversationRepository>(store))
    , m_templates(store)
    , m_bulk(store)
    , m_sender(std::make_unique<ChannelSender>(store, channels ? std::move(channels) : ChannelRegistry::defaults()))
    , m_media(std::move(media))
{
}

MessagesController::~MessagesController() = default;

void MessagesController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Messages");
    const auto bind = Router::binder(this);
    const Access read = Access::scoped(QStringLiteral("messages:read"));
    const Access write = Access::scoped(QStringLiteral("messages:write"));
    const QJsonObject message = ref(QStringLiteral("Message"));

    // GET /api/v1/messages
    router.add("GET", QStringLiteral("/api/v1/messages"), "listMessages", bind(&MessagesController::list), read,
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
    router.add("GET", QStringLiteral("/api/v1/messages/:id"), "getMessage", bind(&MessagesController::get), read,
               {tag, QStringLiteral("A message"), {}, envelope(message), {}, {401, 403, 404, 429}});
    // GET /api/v1/messages/:id/status
    router.add("GET", QStringLiteral("/api/v1/messages/:id/status"), "getMessageStatus",
               bind(&MessagesController::status), read,
               {tag,
                QStringLiteral("Delivery status of a message"),
                {},
                envelope(ref(QStringLiteral("MessageStatus"))),
                {},
                {401, 403, 404, 429}});
    // POST /api/v1/messages
    router.add("POST", QStringLiteral("/api/v1/messages"), "sendMessage", bind(&MessagesController::sendDirect), write,
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
    const QJsonObject components = array(object({{QStringLiteral("type"), string()},
                                                 {QStringLiteral("sub_type"), string()},
                                                 {QStringLiteral("index"), integer(0)},
                                                 {QStringLiteral("parameters"), array(object({}))}},
                                                {QStringLiteral("type")}));
    // POST /api/v1/messages/template
    router.add(
        "POST", QStringLiteral("/api/v1/messages/template"), "sendTemplateMessage",
        bind(&MessagesController::sendTemplate), write,
        RouteDoc{tag,
                 QStringLiteral("Send an approved template"),
                 object({{QStringLiteral("to"), string()},
                         {QStringLiteral("contactId"), string()},
                         {QStringLiteral("channel"), string()},
                         {QStringLiteral("templateName"), string()},
                         {QStringLiteral("templateLanguage"), string()},
                         {QStringLiteral("components"), components}},
                        {QStringLiteral("templateName")}),
                 envelope(message),
                 {},
                 {400, 401, 403, 404, 422, 429, 503},
                 201}
            .described(QStringLiteral("Send an approved template (to or contactId; channel defaults to whatsapp; "
                                      "templateLanguage may be omitted when the template has one approved language)")));
    // POST /api/v1/messages/bulk
    router.add("POST", QStringLiteral("/api/v1/messages/bulk"), "sendBulkMessages", bind(&MessagesController::sendBulk),
               write,
               RouteDoc{tag,
                        QStringLiteral("Queue a template to many recipients or to a segment's contacts"),
                        object({{QStringLiteral("recipients"), array(string())},
                                {QStringLiteral("segmentId"), string()},
                                {QStringLiteral("channel"), string()},
                                {QStringLiteral("templateName"), string()},
                                {QStringLiteral("templateLanguage"), string()},
                                {QStringLiteral("components"), components}},
                               {QStringLiteral("templateName")}),
                        envelope(object({{QStringLiteral("bulkId"), string()},
                                         {QStringLiteral("channel"), string()},
                                         {QStringLiteral("total"), integer(0)},
                                         {QStringLiteral("status"), string()}})),
                        {},
                        {400, 401, 403, 404, 422, 429, 503},
                        202}
                   .described(QStringLiteral(
                       "Queue a template to recipients (phones, or channel ids) or to a segment's contacts; "
                       "sent at the channel's pace")));
    // GET /api/v1/messages/bulk/:bulkId
    router.add("GET", QStringLiteral("/api/v1/messages/bulk/:bulkId"), "getBulkSend",
               bind(&MessagesController::bulkProgress), read,
               {tag,
                QStringLiteral("Progress of a bulk send and one page of its recipients"),
                {},
                envelope(ref(QStringLiteral("BulkProgress"))),
                {{QStringLiteral("page"), integer(1)}, {QStringLiteral("limit"), integer(1, 100)}},
                {401, 403, 404, 429}});
    // POST /api/v1/messages/send-file
    RouteDoc sendFileDoc{tag,
                         QStringLiteral("Send a file into a conversation (multipart)"),
                         object({{QStringLiteral("conversationId"), string()},
                                 {QStringLiteral("file"), string(QStringLiteral("binary"))},
                                 {QStringLiteral("caption"), string()}},
                                {QStringLiteral("conversationId"), QStringLiteral("file")}),
                         envelope(message),
                         {},
                         {400, 401, 403, 404, 413, 422, 429, 503},
                         201};
    sendFileDoc.description = QStringLiteral("Send a file into a conversation (multipart: conversationId, file, "
                                             "caption); the message type follows the file (image, video, audio, "
                                             "document)");
    sendFileDoc.requestContentType = QStringLiteral("multipart/form-data");
    router.add("POST", QStringLiteral("/api/v1/messages/send-file"), "sendFileIntoConversation",
               bind(&MessagesController::sendFile), write, sendFileDoc);
    // POST /api/v1/messages/send
    router.add("POST", QStringLiteral("/api/v1/messages/send"), "sendIntoConversation", bind(&MessagesController::send),
               write,
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

// The file is checked and the channel asked before anything is stored; the media row then carries
// the conversation and, once sent, the message.
ApiResponse MessagesController::sendFile(ApiRequest &request)
{
    if (!m_media)
        throw DomainError(DomainError::Unavailable, QStringLiteral("UNAVAILABLE"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Uploads are not configured")));
    const MultipartForm form = UploadForm::read(request, m_media->config());
    const QJsonObject fields =
        UploadForm::fields(form, {{QStringLiteral("conversationId"), 100}, {QStringLiteral("caption"), 1024}});
    const FieldReader reader(fields);
    const QString conversationId = reader.requiredString(QStringLiteral("conversationId"));
    const QString caption = reader.optionalString(QStringLiteral("caption"));
    const Conversation conversation = m_conversations->get(conversationId);
    m_sender->checkAvailable(conversation.channel);
    const MultipartPart &file = UploadForm::file(form, *m_media);
    const Message m =
        OutgoingMessages::sendFile(*m_sender, *m_media, conversation.id, UploadForm::upload(file, request), caption,
                                   MessagingApi::senderOf(request));
    return ApiResponse::created(m.toJson(), QStringLiteral("Message sent"));
}

QJsonObject MessagesController::schemas() const
{
    const QJsonObject count = integer(0);
    return {{QStringLiteral("BulkProgress"),
             object({{QStringLiteral("bulkId"), string()},
                     {QStringLiteral("channel"), string()},
                     {QStringLiteral("segmentId"), nullable(string())},
                     {QStringLiteral("templateName"), string()},
                     {QStringLiteral("templateLanguage"), string()},
                     {QStringLiteral("status"), string()},
                     {QStringLiteral("total"), count},
                     {QStringLiteral("progress"), object({{QStringLiteral("queued"), count},
                                                          {QStringLiteral("sent"), count},
                                                          {QStringLiteral("delivered"), count},
                                                          {QStringLiteral("read"), count},
                                                          {QStringLiteral("failed"), count},
                                                          {QStringLiteral("done"), count},
                                                          {QStringLiteral("percent"), integer(0, 100)}})},
                     {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
                     {QStringLiteral("recipients"), array(object({{QStringLiteral("recipient"), string()},
                                                                  {QStringLiteral("contactId"), nullable(string())},
                                                                  {QStringLiteral("messageId"), nullable(string())},
                                                                  {QStringLiteral("status"), string()},
                                                                  {QStringLiteral("error"), nullable(string())}}))},
                     {QStringLiteral("pagination"), object({})}})}};
}

ApiResponse MessagesController::list(ApiRequest &request)
{
    const QueryReader query(request);
    const QueryReader::Paging paging = query.paging();
    MessageFilter f;
    f.page = paging.page;
    f.limit = paging.limit;
    f.conversationId = query.text(QStringLiteral("conversationId")).left(100);
    f.contactId = query.text(QStringLiteral("contactId")).left(100);
    f.channel = query.oneOf(QStringLiteral("channel"), ConversationRules::channels());
    f.direction = query.oneOf(QStringLiteral("direction"), MessageRules::directions());
    f.status = query.oneOf(QStringLiteral("status"), MessageRules::statuses());
    if (const auto since = query.dateTime(QStringLiteral("since")))
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
    const FieldReader reader(request.body);
    const QString conversationId = reader.requiredString(QStringLiteral("conversationId"));
    const MessageContent content =
        MessageRules::parseContent(request.body,
                                   {QStringLiteral("text"), QStringLiteral("image"), QStringLiteral("video"),
                                    QStringLiteral("audio"), QStringLiteral("document")},
                                   QStringLiteral("content"));
    MessageContent c = content;
    if (c.type != QLatin1String("text") && c.caption.isEmpty()) {
        // For media, content is the caption.
        const QJsonValue v = reader.value(QStringLiteral("content"));
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
    const QString channel = directChannel(request.body, {});
    const MessageContent content = MessageRules::parseContent(
        request.body, {QStringLiteral("text"), QStringLiteral("image"), QStringLiteral("video"),
                       QStringLiteral("document"), QStringLiteral("location")});
    const QString conversationId = directConversation(request, channel);
    const Message m = m_sender->send(conversationId, content, MessagingApi::senderOf(request), {false, 0});
    return ApiResponse::created(m.toJson(), QStringLiteral("Message sent"));
}

QString MessagesController::directConversation(ApiRequest &request, const QString &channel)
{
    const FieldReader reader(request.body);
    const QString toKey = QStringLiteral("to");
    const QString contactKey = QStringLiteral("contactId");
    if (!reader.stringOrNothing(contactKey) || !reader.stringOrNothing(toKey))
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: %1 and %2 must be strings"),
                      {ModelTextArg::field(toKey), ModelTextArg::field(contactKey)}),
            {{toKey, FieldReader::mustBeString()}});
    const QString contactId = reader.optionalString(contactKey).trimmed();
    const QString to = reader.optionalString(toKey).trimmed();
    if (contactId.isEmpty() && to.isEmpty())
        throw DomainError::unprocessable(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Required field missing: %1 (or %2)"),
                      {ModelTextArg::field(toKey), ModelTextArg::field(contactKey)}),
            {{toKey, ModelText(QT_TRANSLATE_NOOP("ModelError", "%1 or %2 is required"),
                               {ModelTextArg::field(toKey), ModelTextArg::field(contactKey)})}});
    return Recipients::conversationFor(*m_sender, channel, {contactId, to}, request.principal.id);
}

namespace {
// The approved template a send names, with its language (defaulted when the name has one approved
// language only) and its components rendered; throws 400/422.
struct TemplateChoice
{
    MessageTemplate tpl;
    QJsonArray components;
    QString text;
};

TemplateChoice chooseTemplate(const TemplateRepository &templates, const QJsonObject &body)
{
    const FieldReader reader(body);
    const QString name = reader.requiredString(QStringLiteral("templateName"));
    QString language = reader.optionalString(QStringLiteral("templateLanguage")).trimmed();
    if (language.isEmpty()) {
        QStringList languages;
        for (const MessageTemplate &t : templates.list(QStringLiteral("approved"))) {
            if (t.name == name)
                languages << t.language;
        }
        if (languages.isEmpty())
            throw DomainError(
                DomainError::Unprocessable, QStringLiteral("TEMPLATE_NOT_APPROVED"),
                ModelText(QT_TRANSLATE_NOOP("ModelError", "Template %1 is not an approved template"), {name}),
                {{QStringLiteral("templateName"),
                  ModelText(QT_TRANSLATE_NOOP("ModelError", "not an approved template"))}});
        if (languages.size() > 1)
            throw DomainError::unprocessable(
                ModelText(QT_TRANSLATE_NOOP("ModelError", "Required field missing: %1 (template %2 exists in %3)"),
                          {ModelTextArg::field(QStringLiteral("templateLanguage")), name,
                           languages.join(QStringLiteral(", "))}),
                {{QStringLiteral("templateLanguage"), DomainError::isRequired()}});
        language = languages.first();
    }
    TemplateChoice choice;
    choice.tpl = templates.approved(name, language);
    const QJsonValue components = reader.value(QStringLiteral("components"));
    choice.text = TemplateRules::render(choice.tpl, components);
    choice.components = components.toArray();
    return choice;
}
} // namespace

ApiResponse MessagesController::sendTemplate(ApiRequest &request)
{
    // channel may be omitted: templates are WhatsApp's.
    const QString channel = directChannel(request.body, QStringLiteral("whatsapp"));
    const TemplateChoice choice = chooseTemplate(m_templates, request.body);
    const QString conversationId = directConversation(request, channel);
    const MessageContent content = OutgoingMessages::templateContent(choice.tpl, choice.components);
    const Message m = m_sender->send(conversationId, content, MessagingApi::senderOf(request), {false, 0});
    return ApiResponse::created(m.toJson(), QStringLiteral("Template message sent"));
}

ApiResponse MessagesController::sendBulk(ApiRequest &request)
{
    const QString channel = directChannel(request.body, QStringLiteral("whatsapp"));
    if (channel == QLatin1String("widget"))
        throw DomainError::badRequest(
            ModelText(
                QT_TRANSLATE_NOOP("ModelError", "Invalid data: bulk sends go to whatsapp, telegram or instagram")),
            {{QStringLiteral("channel"),
              ModelText(QT_TRANSLATE_NOOP("ModelError", "widget visitors cannot get bulk sends"))}});
    const FieldReader reader(request.body);
    const QString recipientsKey = QStringLiteral("recipients");
    const QString segmentKey = QStringLiteral("segmentId");
    const bool hasRecipients = reader.given(recipientsKey);
    const bool hasSegment = reader.given(segmentKey);
    if (hasRecipients == hasSegment)
        throw DomainError::unprocessable(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Required field missing: either %1 or %2"),
                      {ModelTextArg::field(recipientsKey), ModelTextArg::field(segmentKey)}),
            {{recipientsKey, ModelText(QT_TRANSLATE_NOOP("ModelError", "give %1 or %2"),
                                       {ModelTextArg::field(recipientsKey), ModelTextArg::field(segmentKey)})}});
    BulkRequest bulk;
    bulk.channel = channel;
    if (hasRecipients) {
        const QJsonValue recipients = reader.value(recipientsKey);
        if (!recipients.isArray() || recipients.toArray().isEmpty() ||
            recipients.toArray().size() > BulkSendRepository::kMaxRecipients)
            throw DomainError::invalid(recipientsKey,
                                       ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an array of 1 to %1 strings"),
                                                 {BulkSendRepository::kMaxRecipients}));
        for (const QJsonValue &r : recipients.toArray()) {
            if (!r.isString())
                throw DomainError::invalid(recipientsKey,
                                           ModelText(QT_TRANSLATE_NOOP("ModelError", "must be strings")));
            bulk.recipients << r.toString();
        }
    } else {
        bulk.segmentId = reader.presentString(segmentKey).value_or(QString()).trimmed();
    }
    const TemplateChoice choice = chooseTemplate(m_templates, request.body);
    bulk.tpl = choice.tpl;
    bulk.components = choice.components;
    bulk.renderedText = choice.text;
    bulk.createdBy = request.principal.id;
    bulk.senderName = request.principal.name;
    m_sender->checkAvailable(channel);
    const BulkSend created = m_bulk.create(bulk);
    ApiResponse response = ApiResponse::ok(QJsonObject{{QStringLiteral("bulkId"), created.id},
                                                       {QStringLiteral("channel"), created.channel},
                                                       {QStringLiteral("total"), created.total},
                                                       {QStringLiteral("status"), QStringLiteral("queued")}},
                                           QStringLiteral("Bulk send queued"));
    response.status = 202;
    return response;
}

ApiResponse MessagesController::bulkProgress(ApiRequest &request)
{
    const QueryReader::Paging paging = QueryReader(request).paging();
    return ApiResponse::ok(m_bulk.progress(request.param(QStringLiteral("bulkId")), paging.page, paging.limit));
}
