#include "server/controllers/conversationscontroller.h"

#include "messaging/channels/channelregistry.h"
#include "messaging/channels/channelsender.h"
#include "model/assistant/assistantconversation.h"
#include "model/core/fieldreader.h"
#include "model/inbox/conversationrepository.h"
#include "server/api/queryreader.h"
#include "server/api/schemas.h"

#include <QJsonArray>

using namespace Schema;

MessageSender MessagingApi::senderOf(const ApiRequest &request)
{
    MessageSender s;
    s.type = request.principal.kind == Principal::User ? QStringLiteral("agent") : QStringLiteral("api");
    s.id = request.principal.id;
    s.name = request.principal.name;
    const QJsonValue given = FieldReader(request.body).value(QStringLiteral("sender"));
    if (given.isUndefined() || given.isNull())
        return s;
    static const QStringList types{QStringLiteral("agent"), QStringLiteral("ai"), QStringLiteral("bot"),
                                   QStringLiteral("system")};
    const QJsonObject o = given.toObject();
    const QJsonValue type = o.value(QStringLiteral("type"));
    const QJsonValue name = o.value(QStringLiteral("name"));
    if (!given.isObject() || (!type.isUndefined() && !types.contains(type.toString())) ||
        (!name.isUndefined() && (!name.isString() || name.toString().size() > 200)))
        throw DomainError::invalid(
            QStringLiteral("sender"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "must be {type: agent|ai|bot|system, name}")));
    if (!type.isUndefined())
        s.type = type.toString();
    if (!name.isUndefined())
        s.name = name.toString();
    return s;
}

ConversationsController::ConversationsController(const Store &store, std::shared_ptr<ChannelRegistry> channels)
    : m_conversations(std::make_unique<ConversationRepository>(store))
    , m_sender(std::make_unique<ChannelSender>(store, channels ? std::move(channels) : ChannelRegistry::defaults()))
{
}

ConversationsController::~ConversationsController() = default;

QJsonObject ConversationsController::schemas() const
{
    const QJsonObject assignee =
        nullable(object({{QStringLiteral("id"), string()}, {QStringLiteral("name"), string()}}));
    const QJsonObject nullableTime = nullable(string(QStringLiteral("date-time")));
    // An anonymous web visitor's conversation: contactId and contact null, visitor {id, name}.
    const QJsonObject visitor = object({{QStringLiteral("id"), string()}, {QStringLiteral("name"), string()}});
    const QJsonObject item = object({
        {QStringLiteral("id"), string()},
        {QStringLiteral("contactId"), nullable(string())},
        {QStringLiteral("contact"), nullable(object({{QStringLiteral("id"), string()},
                                                     {QStringLiteral("name"), string()},
                                                     {QStringLiteral("avatar"), nullable(string())}}))},
        {QStringLiteral("visitor"), visitor},
        {QStringLiteral("channel"), string()},
        {QStringLiteral("status"), string()},
        {QStringLiteral("assignedTo"), assignee},
        {QStringLiteral("lastMessage"),
         nullable(object({{QStringLiteral("text"), string()},
                          {QStringLiteral("direction"), string()},
                          {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))}}))},
        {QStringLiteral("unreadCount"), integer(0)},
        {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
        {QStringLiteral("updatedAt"), string(QStringLiteral("date-time"))},
    });
    const QJsonObject message = object({
        {QStringLiteral("id"), string()},
        {QStringLiteral("conversationId"), string()},
        {QStringLiteral("contactId"), nullable(string())},
        {QStringLiteral("channel"), string()},
        {QStringLiteral("direction"), string()},
        {QStringLiteral("type"), string()},
        {QStringLiteral("text"), string()},
        {QStringLiteral("mediaUrl"), string()},
        {QStringLiteral("caption"), string()},
        {QStringLiteral("filename"), string()},
        {QStringLiteral("location"), object({{QStringLiteral("latitude"), number()},
                                             {QStringLiteral("longitude"), number()},
                                             {QStringLiteral("name"), string()},
                                             {QStringLiteral("address"), string()}})},
        {QStringLiteral("status"), string()},
        {QStringLiteral("sentAt"), nullableTime},
        {QStringLiteral("deliveredAt"), nullableTime},
        {QStringLiteral("readAt"), nullableTime},
        {QStringLiteral("failedAt"), nullableTime},
        {QStringLiteral("failedReason"), string()},
        {QStringLiteral("sender"), object({{QStringLiteral("type"), string()},
                                           {QStringLiteral("id"), string()},
                                           {QStringLiteral("name"), string()}})},
        {QStringLiteral("sentiment"), string()},
        {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
    });
    const QJsonObject detail = object({
        {QStringLiteral("id"), string()},
        {QStringLiteral("contactId"), nullable(string())},
        {QStringLiteral("contact"), nullable(object({{QStringLiteral("id"), string()},
                                                     {QStringLiteral("firstName"), string()},
                                                     {QStringLiteral("lastName"), string()},
                                                     {QStringLiteral("phone"), nullable(string())}}))},
        {QStringLiteral("visitor"), visitor},
        {QStringLiteral("channel"), string()},
        {QStringLiteral("channelId"), string()},
        {QStringLiteral("status"), string()},
        {QStringLiteral("assignedTo"), assignee},
        {QStringLiteral("tags"), array(string())},
        {QStringLiteral("unreadCount"), integer(0)},
        {QStringLiteral("messages"), array(ref(QStringLiteral("Message")))},
        {QStringLiteral("metadata"), object({{QStringLiteral("source"), string()},
                                             {QStringLiteral("firstResponseTime"), nullable(integer(0))},
                                             {QStringLiteral("totalMessages"), integer(0)}})},
        {QStringLiteral("ai"),
         object({{QStringLiteral("handoff"), nullable(object({{QStringLiteral("reason"), string()}}))},
                 {QStringLiteral("draft"),
                  nullable(object({{QStringLiteral("text"), string()}, {QStringLiteral("answerId"), string()}}))}})},
        {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
        {QStringLiteral("updatedAt"), string(QStringLiteral("date-time"))},
    });
    const QJsonObject status = object({{QStringLiteral("id"), string()},
                                       {QStringLiteral("status"), string()},
                                       {QStringLiteral("sentAt"), nullableTime},
                                       {QStringLiteral("deliveredAt"), nullableTime},
                                       {QStringLiteral("readAt"), nullableTime},
                                       {QStringLiteral("failedAt"), nullableTime},
                                       {QStringLiteral("failedReason"), string()}});
    const QJsonObject send = object(
        {{QStringLiteral("type"), string()},
         {QStringLiteral("text"), string()},
         {QStringLiteral("mediaUrl"), string(QStringLiteral("uri"))},
         {QStringLiteral("caption"), string()},
         {QStringLiteral("filename"), string()},
         {QStringLiteral("sender"), object({{QStringLiteral("type"), string()}, {QStringLiteral("name"), string()}})}});
    return {{QStringLiteral("Conversation"), item},
            {QStringLiteral("ConversationDetail"), detail},
            {QStringLiteral("Message"), message},
            {QStringLiteral("MessageStatus"), status},
            {QStringLiteral("ConversationMessageInput"), send}};
}

void ConversationsController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Conversations");
    const auto bind = Router::binder(this);
    const Access read = Access::scoped(QStringLiteral("conversations:read"));
    const Access write = Access::scoped(QStringLiteral("conversations:write"));
    const QJsonObject conversation = ref(QStringLiteral("Conversation"));
    const QJsonObject detail = ref(QStringLiteral("ConversationDetail"));
    const QJsonObject message = ref(QStringLiteral("Message"));

    // GET /api/v1/conversations
    router.add("GET", QStringLiteral("/api/v1/conversations"), "listConversations",
               bind(&ConversationsController::list), read,
               {tag,
                QStringLiteral("List conversations, most recent activity first"),
                {},
                pageOf(conversation),
                {{QStringLiteral("page"), integer(1)},
                 {QStringLiteral("limit"), integer(1, 100)},
                 {QStringLiteral("status"), string()},
                 {QStringLiteral("channel"), string()},
                 {QStringLiteral("assignedTo"), string()},
                 {QStringLiteral("contactId"), string()},
                 {QStringLiteral("unread"), boolean()}},
                {400, 401, 403, 429}});
    // GET /api/v1/conversations/:id
    router.add("GET", QStringLiteral("/api/v1/conversations/:id"), "getConversation",
               bind(&ConversationsController::get), read,
               {tag,
                QStringLiteral("Conversation detail with its latest 50 messages (oldest first)"),
                {},
                envelope(detail),
                {},
                {401, 403, 404, 429}});
    // PATCH /api/v1/conversations/:id
    router.add("PATCH", QStringLiteral("/api/v1/conversations/:id"), "updateConversation",
               bind(&ConversationsController::update), write,
               {tag,
                QStringLiteral("Change status and/or assignee (assignedTo: a user id or null)"),
                object({{QStringLiteral("status"), string()}, {QStringLiteral("assignedTo"), nullable(string())}}),
                envelope(detail),
                {},
                {400, 401, 403, 404, 429}});
    // PATCH /api/v1/conversations/:id/assign and POST /api/v1/conversations/:id/assign
    for (const QByteArray &method : {QByteArrayLiteral("PATCH"), QByteArrayLiteral("POST")}) {
        router.add(method, QStringLiteral("/api/v1/conversations/:id/assign"),
                   method == "PATCH" ? "assignConversation" : "assignConversationByPost",
                   bind(&ConversationsController::assign), write,
                   {tag,
                    QStringLiteral("Assign to a user (userId null: unassign)"),
                    object({{QStringLiteral("userId"), nullable(string())}}, {QStringLiteral("userId")}),
                    envelope(detail),
                    {},
                    {400, 401, 403, 404, 422, 429}});
    }
    // POST /api/v1/conversations/:id/close
    router.add("POST", QStringLiteral("/api/v1/conversations/:id/close"), "closeConversation",
               bind(&ConversationsController::close), write,
               {tag, QStringLiteral("Close"), {}, envelope(detail), {}, {401, 403, 404, 429}});
    // POST /api/v1/conversations/:id/reopen
    router.add("POST", QStringLiteral("/api/v1/conversations/:id/reopen"), "reopenConversation",
               bind(&ConversationsController::reopen), write,
               {tag, QStringLiteral("Reopen (status open)"), {}, envelope(detail), {}, {401, 403, 404, 429}});
    // POST /api/v1/conversations/:id/ai/handback
    router.add("POST", QStringLiteral("/api/v1/conversations/:id/ai/handback"), "handConversationBackToAssistant",
               bind(&ConversationsController::handBack), write,
               {tag,
                QStringLiteral("Hand a conversation the assistant handed off back to it (auto-replies again)"),
                {},
                envelope(detail),
                {},
                {401, 403, 404, 429}});
    // DELETE /api/v1/conversations/:id/ai/draft
    router.add(
        "DELETE", QStringLiteral("/api/v1/conversations/:id/ai/draft"), "discardAssistantDraft",
        bind(&ConversationsController::discardDraft), write,
        {tag, QStringLiteral("Discard the assistant's draft reply"), {}, envelope(detail), {}, {401, 403, 404, 429}});
    // POST /api/v1/conversations/:id/tags
    router.add("POST", QStringLiteral("/api/v1/conversations/:id/tags"), "addConversationTags",
               bind(&ConversationsController::addTags), write,
               {tag,
                QStringLiteral("Add tags (idempotent)"),
                object({{QStringLiteral("tags"), array(string())}}, {QStringLiteral("tags")}),
                envelope(detail),
                {},
                {400, 401, 403, 404, 422, 429}});
    // DELETE /api/v1/conversations/:id/tags/:tagName
    router.add("DELETE", QStringLiteral("/api/v1/conversations/:id/tags/:tagName"), "removeConversationTag",
               bind(&ConversationsController::removeTag), write,
               {tag, QStringLiteral("Remove a tag"), {}, envelope(detail), {}, {401, 403, 404, 429}});
    // GET /api/v1/conversations/:id/messages (the spec's :conversationId)
    router.add("GET", QStringLiteral("/api/v1/conversations/:id/messages"), "listConversationMessages",
               bind(&ConversationsController::messages), read,
               {tag,
                QStringLiteral("A conversation's messages in time order; after/before: message-id cursors"),
                {},
                pageOf(message),
                {{QStringLiteral("page"), integer(1)},
                 {QStringLiteral("limit"), integer(1, 100)},
                 {QStringLiteral("before"), string()},
                 {QStringLiteral("after"), string()}},
                {400, 401, 403, 404, 429}});
    // POST /api/v1/conversations/:id/messages
    router.add("POST", QStringLiteral("/api/v1/conversations/:id/messages"), "sendConversationMessage",
               bind(&ConversationsController::send), Access::scoped(QStringLiteral("messages:write")),
               {tag,
                QStringLiteral("Send a text, image or document into the conversation"),
                ref(QStringLiteral("ConversationMessageInput")),
                envelope(message),
                {},
                {400, 401, 403, 404, 422, 429, 503},
                201});
}

ApiResponse ConversationsController::list(ApiRequest &request)
{
    const QueryReader query(request);
    const QueryReader::Paging paging = query.paging();
    ConversationQuery q;
    q.page = paging.page;
    q.limit = paging.limit;
    q.status = query.oneOf(QStringLiteral("status"), ConversationRules::statuses());
    q.channel = query.oneOf(QStringLiteral("channel"), ConversationRules::channels());
    q.assignedTo = query.text(QStringLiteral("assignedTo")).left(100);
    if (q.assignedTo == QLatin1String("me"))
        q.assignedTo = request.principal.id;
    q.contactId = query.text(QStringLiteral("contactId")).left(100);
    q.unreadOnly = query.oneOf(QStringLiteral("unread"), {QStringLiteral("true"), QStringLiteral("false")}) ==
                   QLatin1String("true");
    const ConversationPage page = m_conversations->list(q);
    QJsonArray items;
    for (const Conversation &v : page.items)
        items.append(v.toListJson());
    return ApiResponse::page(items, q.page, q.limit, page.total);
}

namespace {
QJsonObject detailJson(const ConversationRepository &repository, const Conversation &v)
{
    QJsonObject data = v.toDetailJson();
    QJsonArray messages;
    for (const Message &m : repository.latestMessages(v.id, 50))
        messages.append(m.toJson());
    data.insert(QStringLiteral("messages"), messages);
    return data;
}

} // namespace

ApiResponse ConversationsController::get(ApiRequest &request)
{
    return ApiResponse::ok(detailJson(*m_conversations, m_conversations->get(request.param(QStringLiteral("id")))));
}

ApiResponse ConversationsController::update(ApiRequest &request)
{
    const FieldReader reader(request.body);
    const QString statusKey = QStringLiteral("status");
    const QString assignedKey = QStringLiteral("assignedTo");
    const std::optional<QString> status = reader.nullableString(statusKey);
    if (status && status->isEmpty())
        throw DomainError::invalid(statusKey,
                                   ModelText(QT_TRANSLATE_NOOP("ModelError", "must be open, pending or closed")));
    const std::optional<QString> assignedTo = reader.nullableString(assignedKey);
    if (!status && !assignedTo)
        throw DomainError::unprocessable(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Required field missing: %1 or %2"),
                      {ModelTextArg::field(statusKey), ModelTextArg::field(assignedKey)}),
            {{statusKey, ModelText(QT_TRANSLATE_NOOP("ModelError", "%1 or %2 is required"),
                                   {ModelTextArg::field(statusKey), ModelTextArg::field(assignedKey)})}});
    const Conversation v = m_conversations->update(request.param(QStringLiteral("id")), status, assignedTo);
    return ApiResponse::ok(detailJson(*m_conversations, v), QStringLiteral("Conversation updated"));
}

ApiResponse ConversationsController::assign(ApiRequest &request)
{
    const FieldReader reader(request.body);
    if (!reader.has(QStringLiteral("userId")))
        throw DomainError::missingFields({{QStringLiteral("userId"), DomainError::isRequired()}});
    const std::optional<QString> userId = reader.nullableString(QStringLiteral("userId"));
    const Conversation v = m_conversations->assign(request.param(QStringLiteral("id")), userId.value_or(QString()));
    return ApiResponse::ok(detailJson(*m_conversations, v), QStringLiteral("Conversation assigned"));
}

ApiResponse ConversationsController::close(ApiRequest &request)
{
    const Conversation v = m_conversations->close(request.param(QStringLiteral("id")));
    return ApiResponse::ok(detailJson(*m_conversations, v), QStringLiteral("Conversation closed"));
}

ApiResponse ConversationsController::reopen(ApiRequest &request)
{
    const Conversation v = m_conversations->reopen(request.param(QStringLiteral("id")));
    return ApiResponse::ok(detailJson(*m_conversations, v), QStringLiteral("Conversation reopened"));
}

ApiResponse ConversationsController::handBack(ApiRequest &request)
{
    const QString id = request.param(QStringLiteral("id"));
    AssistantConversation(m_conversations->store()).handBack(id);
    return ApiResponse::ok(detailJson(*m_conversations, m_conversations->get(id)),
                           QStringLiteral("Conversation handed back to the assistant"));
}

ApiResponse ConversationsController::discardDraft(ApiRequest &request)
{
    const QString id = request.param(QStringLiteral("id"));
    m_conversations->get(id);
    AssistantConversation(m_conversations->store()).clearDraft(id);
    return ApiResponse::ok(detailJson(*m_conversations, m_conversations->get(id)), QStringLiteral("Draft discarded"));
}

ApiResponse ConversationsController::addTags(ApiRequest &request)
{
    const QStringList tags = FieldReader(request.body).requiredWords(QStringLiteral("tags"), 64);
    const Conversation v = m_conversations->addTags(request.param(QStringLiteral("id")), tags);
    return ApiResponse::ok(detailJson(*m_conversations, v), QStringLiteral("Tags added"));
}

ApiResponse ConversationsController::removeTag(ApiRequest &request)
{
    const Conversation v =
        m_conversations->removeTag(request.param(QStringLiteral("id")), request.param(QStringLiteral("tagName")));
    return ApiResponse::ok(detailJson(*m_conversations, v), QStringLiteral("Tag removed"));
}

ApiResponse ConversationsController::messages(ApiRequest &request)
{
    const QueryReader query(request);
    const QueryReader::Paging paging = query.paging(50, 100);
    MessageQuery q;
    q.page = paging.page;
    q.limit = paging.limit;
    q.before = query.text(QStringLiteral("before")).left(100);
    q.after = query.text(QStringLiteral("after")).left(100);
    const MessagePage page = m_conversations->messages(request.param(QStringLiteral("id")), q);
    QJsonArray items;
    for (const Message &m : page.items)
        items.append(m.toJson());
    return ApiResponse::page(items, q.page, q.limit, page.total);
}

ApiResponse ConversationsController::send(ApiRequest &request)
{
    const MessageContent content = MessageRules::parseContent(
        request.body, {QStringLiteral("text"), QStringLiteral("image"), QStringLiteral("video"),
                       QStringLiteral("audio"), QStringLiteral("document")});
    const Message m = m_sender->send(request.param(QStringLiteral("id")), content, MessagingApi::senderOf(request));
    return ApiResponse::created(m.toJson(), QStringLiteral("Message sent"));
}
