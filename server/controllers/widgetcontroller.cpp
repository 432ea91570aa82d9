#include "server/controllers/widgetcontroller.h"

#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/widgetvisitorrepository.h"
#include "server/api/queryreader.h"
#include "server/api/ratelimiter.h"
#include "server/api/schemas.h"
#include "server/controllers/widgetevents.h"

#include <QCryptographicHash>
#include <QFile>
#include <QHash>
#include <QJsonArray>

#include <memory>
#include <stdexcept>

using namespace Schema;

namespace {
void enforce(RateLimiter &limiter, const QString &key, const QDateTime &now)
{
    const RateLimiter::Decision d = limiter.hit(key, now);
    if (!d.allowed)
        throw DomainError(DomainError::RateLimited, QStringLiteral("TOO_MANY_REQUESTS"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Too Many Requests")),
                          QJsonObject{{QStringLiteral("retryAfter"), qMax(1, d.resetSeconds)}});
}

} // namespace

WidgetController::WidgetController(const Store &store, Limits &limits, QString visitorName)
    : m_store(store)
    , m_limits(limits)
    , m_conversations(std::make_unique<ConversationRepository>(store))
    , m_visitors(std::make_unique<WidgetVisitorRepository>(store))
    , m_visitorName(std::move(visitorName))
    , m_hub(std::make_unique<WidgetEventHub>(*m_conversations, limits.streams))
{
}

WidgetController::~WidgetController() = default;

void WidgetController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Widget");
    const auto bind = Router::binder(this);
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
        "POST", QStringLiteral("/widget/v1/visitors"), "createWidgetVisitor", bind(&WidgetController::createVisitor),
        Access::publicRoute(),
        {tag,
         QStringLiteral("Start a widget visitor: its token reaches its own conversation only"),
         object({{QStringLiteral("name"), string()}, {QStringLiteral("email"), string(QStringLiteral("email"))}}),
         envelope(object({{QStringLiteral("visitorId"), string()},
                          {QStringLiteral("token"), string()},
                          {QStringLiteral("conversationId"), string()}})),
         {},
         {400, 429},
         201});
    // PATCH /widget/v1/visitors/me
    router.add("PATCH", QStringLiteral("/widget/v1/visitors/me"), "identifyWidgetVisitor",
               bind(&WidgetController::identify), Access::publicRoute(),
               RouteDoc{tag,
                        QStringLiteral("The visitor says who they are (a name, e-mail or phone), once"),
                        object({{QStringLiteral("name"), string()},
                                {QStringLiteral("email"), string(QStringLiteral("email"))},
                                {QStringLiteral("phone"), string()}}),
                        envelope(object({{QStringLiteral("visitorId"), string()},
                                         {QStringLiteral("conversationId"), string()},
                                         {QStringLiteral("identified"), boolean()}})),
                        {},
                        {400, 401, 409, 422, 429}}
                   .described(QStringLiteral(
                       "The visitor says who they are (Authorization: Bearer <visitor token>): a name, "
                       "e-mail or phone. A contact with that e-mail or phone is linked, otherwise one is "
                       "created; the visitor's conversation becomes the contact's. Once only (409)")));
    // POST /widget/v1/messages
    router.add("POST", QStringLiteral("/widget/v1/messages"), "sendWidgetMessage", bind(&WidgetController::postMessage),
               Access::publicRoute(),
               {tag,
                QStringLiteral("A visitor writes (Authorization: Bearer <visitor token>)"),
                object({{QStringLiteral("text"), string()}}, {QStringLiteral("text")}),
                envelope(visitorMessage),
                {},
                {400, 401, 422, 429},
                201});
    // GET /widget/v1/messages
    router.add("GET", QStringLiteral("/widget/v1/messages"), "listWidgetMessages",
               bind(&WidgetController::listMessages), Access::publicRoute(),
               {tag,
                QStringLiteral("The visitor's messages after a message id (all when absent); marks replies delivered"),
                {},
                envelope(array(visitorMessage)),
                {{QStringLiteral("after"), string()}},
                {401, 404, 429}});
    // GET /widget/v1/events
    router.add("GET", QStringLiteral("/widget/v1/events"), "streamWidgetEvents", bind(&WidgetController::events),
               Access::publicRoute(),
               RouteDoc{tag,
                        QStringLiteral("Live replies to the visitor as server-sent events"),
                        {},
                        visitorMessage,
                        {{QStringLiteral("token"), string()}, {QStringLiteral("lastEventId"), string()}},
                        {401, 429, 503},
                        200,
                        QStringLiteral("text/event-stream")}
                   .described(QStringLiteral(
                       "Live replies as server-sent events: `event: message` (a visitor message JSON; new "
                       "ones with `id:` = the message id, which Last-Event-ID resumes after) and "
                       "`event: conversation` {status}; a comment every 20 s keeps it open. The visitor "
                       "token goes in Authorization: Bearer or, for EventSource, in ?token=")));
    const QJsonObject text = string();
    // GET /widget
    router.add("GET", QStringLiteral("/widget"), "getWidgetPage",
               [this](ApiRequest &r) { return asset(r, QStringLiteral("index.html")); }, Access::publicRoute(),
               {tag,
                QStringLiteral("The chat page of the web widget (the iframe the embed script opens)"),
                {},
                text,
                {},
                {},
                200,
                QStringLiteral("text/html")});
    // GET /widget/embed.js
    router.add(
        "GET", QStringLiteral("/widget/embed.js"), "getWidgetEmbedScript",
        [this](ApiRequest &r) { return asset(r, QStringLiteral("embed.js")); }, Access::publicRoute(),
        RouteDoc{tag,
                 QStringLiteral("The embed script that puts a chat button on any site"),
                 {},
                 text,
                 {},
                 {},
                 200,
                 QStringLiteral("text/javascript")}
            .described(
                QStringLiteral("The embed script: <script src=\"https://HOST/widget/embed.js\" async></script> puts "
                               "a chat button on any site")));
    // GET /widget/widget.js
    router.add(
        "GET", QStringLiteral("/widget/widget.js"), "getWidgetScript",
        [this](ApiRequest &r) { return asset(r, QStringLiteral("widget.js")); }, Access::publicRoute(),
        {tag, QStringLiteral("The chat page's script"), {}, text, {}, {}, 200, QStringLiteral("text/javascript")});
    // GET /widget/widget.css
    router.add("GET", QStringLiteral("/widget/widget.css"), "getWidgetStyleSheet",
               [this](ApiRequest &r) { return asset(r, QStringLiteral("widget.css")); }, Access::publicRoute(),
               {tag, QStringLiteral("The chat page's style sheet"), {}, text, {}, {}, 200, QStringLiteral("text/css")});
}

WidgetVisitor WidgetController::visitor(ApiRequest &request, bool allowQueryToken)
{
    const QByteArray header = request.http.header("Authorization");
    QString token = header.startsWith("Bearer ") || header.startsWith("bearer ")
                        ? QString::fromLatin1(header.mid(7).trimmed())
                        : QString();
    if (token.isEmpty() && allowQueryToken)
        token = QueryReader(request).text(QStringLiteral("token")).left(256);
    const std::optional<WidgetVisitor> v = token.isEmpty() ? std::nullopt : m_visitors->authenticate(token);
    if (!v)
        throw DomainError(
            DomainError::Unauthorized, QStringLiteral("UNAUTHORIZED"),
            token.isEmpty() ? ModelText(QT_TRANSLATE_NOOP(
                                  "ModelError", "Authentication required: send Authorization: Bearer <visitor token>"))
                            : ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid visitor token")));
    enforce(m_limits.perToken, v->id, m_store.now());
    return *v;
}

ApiResponse WidgetController::createVisitor(ApiRequest &request)
{
    enforce(m_limits.newVisitors, request.http.peerAddress.toString(), m_store.now());
    const FieldReader reader(request.body);
    const QString name = reader.optionalString(QStringLiteral("name"));
    const QString email = reader.optionalString(QStringLiteral("email"));
    const WidgetVisitorRepository::Created created = m_visitors->create(name, email, m_visitorName);
    return ApiResponse::created(QJsonObject{{QStringLiteral("visitorId"), created.visitor.id},
                                            {QStringLiteral("token"), created.token},
                                            {QStringLiteral("conversationId"), created.visitor.conversationId}},
                                QStringLiteral("Visitor created"));
}

ApiResponse WidgetController::identify(ApiRequest &request)
{
    const WidgetVisitor v = visitor(request);
    const FieldReader reader(request.body);
    const QString name = reader.optionalString(QStringLiteral("name"));
    const QString email = reader.optionalString(QStringLiteral("email"));
    const QString phone = reader.optionalString(QStringLiteral("phone"));
    m_visitors->identifyVisitor(v, name, email, phone);
    // Whether the e-mail or phone belonged to a contact already is not told: a public page must
    // not learn who is a customer.
    return ApiResponse::ok(QJsonObject{{QStringLiteral("visitorId"), v.id},
                                       {QStringLiteral("conversationId"), v.conversationId},
                                       {QStringLiteral("identified"), true}},
                           QStringLiteral("Visitor identified"));
}

ApiResponse WidgetController::postMessage(ApiRequest &request)
{
    const WidgetVisitor v = visitor(request);
    const MessageContent content = MessageRules::parseContent(request.body, {QStringLiteral("text")});
    const Message m = m_conversations->receive(v.conversationId, content);
    return ApiResponse::created(widgetMessageJson(m), QStringLiteral("Message received"));
}

ApiResponse WidgetController::listMessages(ApiRequest &request)
{
    const WidgetVisitor v = visitor(request);
    MessageQuery q;
    q.limit = 100;
    q.after = QueryReader(request).text(QStringLiteral("after")).left(100);
    const MessagePage page = m_conversations->messages(v.conversationId, q);
    QJsonArray items;
    for (Message m : page.items) {
        // The visitor's page now has the reply: it is delivered.
        if (m.direction == QLatin1String("outgoing") && m.delivery.status == QLatin1String("sent"))
            m = m_conversations->updateStatus(m.id, QStringLiteral("delivered"));
        items.append(widgetMessageJson(m));
    }
    return ApiResponse::ok(items);
}

namespace {
bool etagMatches(const QByteArray &ifNoneMatch, const QByteArray &etag)
{
    for (QByteArray candidate : ifNoneMatch.split(',')) {
        candidate = candidate.trimmed();
        if (candidate.startsWith("W/"))
            candidate = candidate.mid(2);
        if (candidate == "*" || candidate == etag)
            return true;
    }
    return false;
}

// Releases a stream reservation that was never handed to the hub (the answer did not go out).
struct Reservation
{
    Reservation(WidgetStreams &streams, QString id)
        : streams(streams)
        , visitorId(std::move(id))
    {
    }
    ~Reservation()
    {
        if (!handedOver)
            streams.release(visitorId);
    }
    Reservation(const Reservation &) = delete;
    Reservation &operator=(const Reservation &) = delete;
    WidgetStreams &streams;
    QString visitorId;
    bool handedOver = false;
};
} // namespace

// The widget's files, read once per server thread from the resources (:/widget/…).
const WidgetController::WidgetAsset &WidgetController::loadAsset(const QString &file)
{
    auto it = m_assets.find(file);
    if (it != m_assets.end())
        return *it;
    WidgetAsset a;
    QFile f(QStringLiteral(":/widget/") + file);
    if (!f.open(QIODevice::ReadOnly))
        throw std::runtime_error("widget resource missing: " + file.toStdString());
    a.body = f.readAll();
    if (file.endsWith(QLatin1String(".html")))
        a.type = "text/html; charset=utf-8";
    else if (file.endsWith(QLatin1String(".js")))
        a.type = "text/javascript; charset=utf-8";
    else
        a.type = "text/css; charset=utf-8";
    a.etag = '"' + QCryptographicHash::hash(a.body, QCryptographicHash::Sha256).toHex().left(20) + '"';
    return *m_assets.insert(file, a);
}

ApiResponse WidgetController::asset(ApiRequest &request, const QString &file)
{
    const WidgetAsset &a = loadAsset(file);
    ApiResponse r;
    r.headers.emplaceBack("Content-Type", a.type);
    r.headers.emplaceBack("ETag", a.etag);
    r.headers.emplaceBack("X-Content-Type-Options", "nosniff");
    if (file == QLatin1String("index.html")) {
        // Revalidated on every open; embeddable by any site (the widget's purpose), and nothing but
        // our own script, style and API calls may run in it.
        r.headers.emplaceBack("Cache-Control", "no-cache");
        r.headers.emplaceBack("Content-Security-Policy",
                              "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                              "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors *");
        r.headers.emplaceBack("Referrer-Policy", "no-referrer");
    } else {
        // Short enough that an update reaches sites within minutes; revalidated by ETag afterwards.
        r.headers.emplaceBack("Cache-Control", "public, max-age=300");
        // embed.js is loaded by other sites' pages, also those that require CORP.
        r.headers.emplaceBack("Cross-Origin-Resource-Policy", "cross-origin");
    }
    if (etagMatches(request.http.header("If-None-Match"), a.etag)) {
        r.status = 304;
        return r;
    }
    r.body = a.body;
    return r;
}

ApiResponse WidgetController::events(ApiRequest &request)
{
    const WidgetVisitor v = visitor(request, true);
    QByteArray first = QByteArrayLiteral("retry: 3000\n: connected\n\n");
    // EventSource sends Last-Event-ID on its own reconnects; ?lastEventId= serves a page that opens a
    // new EventSource. The replay is a convenience: the page re-fetches over REST after connecting.
    QString last = QString::fromLatin1(request.http.header("Last-Event-ID")).trimmed().left(100);
    if (last.isEmpty())
        last = QueryReader(request).text(QStringLiteral("lastEventId")).trimmed().left(100);
    if (!last.isEmpty()) {
        MessageQuery q;
        q.limit = 100;
        q.after = last;
        try {
            const MessagePage page = m_conversations->messages(v.conversationId, q);
            for (const Message &m : page.items)
                first += sseEvent("message", widgetMessageJson(m_hub->markDelivered(m)), m.id);
        } catch (const DomainError &) {
            // not a message of this conversation: nothing to replay
        }
    }
    const QString status = m_conversations->get(v.conversationId).status;
    switch (m_limits.streams.admit(v.id)) {
    case WidgetStreams::Admission::Admitted:
        break;
    case WidgetStreams::Admission::VisitorFull:
        throw DomainError(
            DomainError::RateLimited, QStringLiteral("TOO_MANY_REQUESTS"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Too many open event streams for this visitor (at most %1)"),
                      {WidgetStreams::kMaxPerVisitor}),
            QJsonObject{{QStringLiteral("retryAfter"), 5}});
    case WidgetStreams::Admission::ServerFull:
        throw DomainError(DomainError::Unavailable, QStringLiteral("SERVICE_UNAVAILABLE"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Too many open event streams; try again later")),
                          QJsonObject{{QStringLiteral("retryAfter"), 30}});
    }
    auto reservation = std::make_shared<Reservation>(m_limits.streams, v.id);
    ApiResponse r;
    r.headers.emplaceBack("Content-Type", "text/event-stream; charset=utf-8");
    r.headers.emplaceBack("Cache-Control", "no-store");
    r.headers.emplaceBack("X-Content-Type-Options", "nosniff");
    r.headers.emplaceBack("X-Accel-Buffering", "no"); // a reverse proxy must not hold events back
    r.stream = [hub = m_hub.get(), reservation, first, v, status](const HttpResponder &responder, HttpResponse head) {
        head.body = first;
        reservation->handedOver = true;
        hub->attach(responder, std::move(head), v.id, v.conversationId, status);
    };
    return r;
}
