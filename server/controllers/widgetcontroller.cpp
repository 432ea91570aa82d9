#include "widgetcontroller.h"

#include "api/apierror.h"
#include "api/ratelimiter.h"
#include "api/schemas.h"
#include "conversationrepository.h"
#include "timeutil.h"
#include "widgetvisitorrepository.h"

#include <QJsonArray>

using namespace Schema;

namespace {
// Shared by every server thread of the process (the API's own limiter is per credential).
RateLimiter &tokenLimiter()
{
    static RateLimiter limiter(WidgetController::kRequestsPerMinute, 60);
    return limiter;
}

RateLimiter &visitorLimiter()
{
    static RateLimiter limiter(WidgetController::kVisitorsPerMinute, 60);
    return limiter;
}

void enforce(RateLimiter &limiter, const QString &key)
{
    const RateLimiter::Decision d = limiter.hit(key, QDateTime::currentDateTimeUtc());
    if (!d.allowed)
        throw ApiError(429, QStringLiteral("TOO_MANY_REQUESTS"), QStringLiteral("Too Many Requests"),
                       {{QStringLiteral("retryAfter"), qMax(1, d.resetSeconds)}});
}

// What a visitor sees of a message: no ids of contacts, users or API keys.
QJsonObject visitorJson(const Message &m)
{
    QJsonObject o{{QStringLiteral("id"), m.id},
                  {QStringLiteral("direction"), m.direction},
                  {QStringLiteral("type"), m.type},
                  {QStringLiteral("text"), m.text},
                  {QStringLiteral("status"), m.delivery.status},
                  {QStringLiteral("createdAt"), m.createdAt}};
    if (!m.mediaUrl.isEmpty())
        o.insert(QStringLiteral("mediaUrl"), m.mediaUrl);
    if (m.direction == QLatin1String("outgoing"))
        o.insert(QStringLiteral("sender"),
                 QJsonObject{{QStringLiteral("type"), m.sender.type}, {QStringLiteral("name"), m.sender.name}});
    return o;
}

QString optionalField(const QJsonObject &body, const QString &name)
{
    const QJsonValue v = body.value(name);
    if (v.isUndefined() || v.isNull())
        return {};
    if (!v.isString())
        throw ApiError::badRequest(QStringLiteral("Invalid data: %1 must be a string").arg(name),
                                   {{name, QStringLiteral("must be a string")}});
    return v.toString();
}
} // namespace

WidgetController::WidgetController(EventBus *bus)
    : m_bus(bus)
    , m_conversations(std::make_unique<ConversationRepository>(bus))
    , m_visitors(std::make_unique<WidgetVisitorRepository>(bus))
{
}

WidgetController::~WidgetController() = default;

void WidgetController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Widget");
    auto bind = [this](ApiResponse (WidgetController::*method)(ApiRequest &)) {
        return [this, method](ApiRequest &r) { return (this->*method)(r); };
    };
    const QJsonObject visitorMessage = object(
        {{QStringLiteral("id"), string()},
         {QStringLiteral("direction"), string()},
         {QStringLiteral("type"), string()},
         {QStringLiteral("text"), string()},
         {QStringLiteral("status"), string()},
         {QStringLiteral("mediaUrl"), string()},
         {QStringLiteral("sender"), object({{QStringLiteral("type"), string()}, {QStringLiteral("name"), string()}})},
         {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))}});

    // POST /widget/v1/visitors
    router.add(
        "POST", QStringLiteral("/widget/v1/visitors"), bind(&WidgetController::createVisitor), Access::publicRoute(),
        {tag,
         QStringLiteral("Start a widget visitor: its token reaches its own conversation only"),
         object({{QStringLiteral("name"), string()}, {QStringLiteral("email"), string(QStringLiteral("email"))}}),
         envelope(object({{QStringLiteral("visitorId"), string()},
                          {QStringLiteral("token"), string()},
                          {QStringLiteral("conversationId"), string()}})),
         {},
         {400, 429},
         201});
    // POST /widget/v1/messages
    router.add("POST", QStringLiteral("/widget/v1/messages"), bind(&WidgetController::postMessage),
               Access::publicRoute(),
               {tag,
                QStringLiteral("A visitor writes (Authorization: Bearer <visitor token>)"),
                object({{QStringLiteral("text"), string()}}, {QStringLiteral("text")}),
                envelope(visitorMessage),
                {},
                {400, 401, 422, 429},
                201});
    // GET /widget/v1/messages
    router.add("GET", QStringLiteral("/widget/v1/messages"), bind(&WidgetController::listMessages),
               Access::publicRoute(),
               {tag,
                QStringLiteral("The visitor's messages after a message id (all when absent); marks replies delivered"),
                {},
                envelope(array(visitorMessage)),
                {{QStringLiteral("after"), string()}},
                {401, 404, 429}});
}

WidgetVisitor WidgetController::visitor(ApiRequest &request)
{
    const QByteArray header = request.http.header("Authorization");
    const QString token = header.startsWith("Bearer ") || header.startsWith("bearer ")
                              ? QString::fromLatin1(header.mid(7).trimmed())
                              : QString();
    const std::optional<WidgetVisitor> v = token.isEmpty() ? std::nullopt : m_visitors->authenticate(token);
    if (!v)
        throw ApiError(401, QStringLiteral("UNAUTHORIZED"),
                       token.isEmpty()
                           ? QStringLiteral("Authentication required: send Authorization: Bearer <visitor token>")
                           : QStringLiteral("Invalid visitor token"));
    enforce(tokenLimiter(), v->id);
    return *v;
}

ApiResponse WidgetController::createVisitor(ApiRequest &request)
{
    enforce(visitorLimiter(), request.http.peerAddress.toString());
    const QString name = optionalField(request.body, QStringLiteral("name"));
    const QString email = optionalField(request.body, QStringLiteral("email"));
    const WidgetVisitorRepository::Created created = m_visitors->create(name, email);
    return ApiResponse::created(QJsonObject{{QStringLiteral("visitorId"), created.visitor.id},
                                            {QStringLiteral("token"), created.token},
                                            {QStringLiteral("conversationId"), created.visitor.conversationId}},
                                QStringLiteral("Visitor created"));
}

ApiResponse WidgetController::postMessage(ApiRequest &request)
{
    const WidgetVisitor v = visitor(request);
    const MessageContent content = MessageRules::parseContent(request.body, {QStringLiteral("text")});
    const Message m = m_conversations->receive(v.conversationId, content);
    return ApiResponse::created(visitorJson(m), QStringLiteral("Message received"));
}

ApiResponse WidgetController::listMessages(ApiRequest &request)
{
    const WidgetVisitor v = visitor(request);
    MessageQuery q;
    q.limit = 100;
    q.after = request.queryValue(QStringLiteral("after")).left(100);
    const MessagePage page = m_conversations->messages(v.conversationId, q);
    QJsonArray items;
    for (Message m : page.items) {
        // The visitor's page now has the reply: it is delivered.
        if (m.direction == QLatin1String("outgoing") && m.delivery.status == QLatin1String("sent"))
            m = m_conversations->updateStatus(m.id, QStringLiteral("delivered"));
        items.append(visitorJson(m));
    }
    return ApiResponse::ok(items);
}
