#include "server/controllers/webhookscontroller.h"

#include "messaging/webhooks/webhooksender.h"
#include "model/core/fieldreader.h"
#include "model/core/ids.h"
#include "server/api/errorstatus.h"
#include "server/api/queryreader.h"
#include "server/api/schemas.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QTimer>

using namespace Schema;

namespace {
QString baseUrlOf(const ApiRequest &request)
{
    const QByteArray host = request.http.header("Host");
    if (host.isEmpty() || host.size() > 255)
        return {};
    return (request.http.encrypted ? QStringLiteral("https://") : QStringLiteral("http://")) +
           QString::fromLatin1(host);
}
} // namespace

WebhooksController::WebhooksController(const Store &store, WebhookConfig config)
    : m_config(std::move(config))
    , m_store(store)
    , m_webhooks(store, m_config.policy())
    , m_incoming(store)
{
}

WebhooksController::~WebhooksController() = default;

QJsonObject WebhooksController::schemas() const
{
    const QJsonObject webhook = object({
        {QStringLiteral("id"), string()},
        {QStringLiteral("url"), string(QStringLiteral("uri"))},
        {QStringLiteral("events"), array(string())},
        {QStringLiteral("description"), string()},
        {QStringLiteral("active"), boolean()},
        {QStringLiteral("status"), string()},
        {QStringLiteral("failureCount"), integer(0)},
        {QStringLiteral("disabledReason"), nullable(string())},
        {QStringLiteral("disabledAt"), nullable(string(QStringLiteral("date-time")))},
        {QStringLiteral("secretHint"), string()},
        {QStringLiteral("secret"), string()},
        {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
        {QStringLiteral("updatedAt"), string(QStringLiteral("date-time"))},
    });
    const QJsonObject input = object({
        {QStringLiteral("url"), string(QStringLiteral("uri"))},
        {QStringLiteral("events"), array(string())},
        {QStringLiteral("secret"), string()},
        {QStringLiteral("rotateSecret"), boolean()},
        {QStringLiteral("description"), string()},
        {QStringLiteral("active"), boolean()},
    });
    const QJsonObject attempt = object({
        {QStringLiteral("deliveryId"), string()},
        {QStringLiteral("eventId"), string()},
        {QStringLiteral("event"), string()},
        {QStringLiteral("kind"), string()},
        {QStringLiteral("attempt"), integer(1)},
        {QStringLiteral("timestamp"), string(QStringLiteral("date-time"))},
        {QStringLiteral("finishedAt"), nullable(string(QStringLiteral("date-time")))},
        {QStringLiteral("statusCode"), nullable(integer())},
        {QStringLiteral("error"), nullable(string())},
        {QStringLiteral("latencyMs"), nullable(integer(0))},
        {QStringLiteral("responseExcerpt"), nullable(string())},
        {QStringLiteral("nextRetryAt"), nullable(string(QStringLiteral("date-time")))},
        {QStringLiteral("success"), boolean()},
        {QStringLiteral("inFlight"), boolean()},
    });
    const QJsonObject testResult = object({
        {QStringLiteral("deliveryId"), string()},
        {QStringLiteral("eventId"), string()},
        {QStringLiteral("event"), string()},
        {QStringLiteral("success"), boolean()},
        {QStringLiteral("statusCode"), nullable(integer())},
        {QStringLiteral("latencyMs"), integer(0)},
        {QStringLiteral("error"), nullable(string())},
        {QStringLiteral("responseExcerpt"), nullable(string())},
    });
    const QJsonObject delivery = object({
        {QStringLiteral("id"), string()},
        {QStringLiteral("webhookId"), string()},
        {QStringLiteral("eventId"), string()},
        {QStringLiteral("event"), string()},
        {QStringLiteral("kind"), string()},
        {QStringLiteral("state"), string()},
        {QStringLiteral("attempts"), integer(0)},
        {QStringLiteral("nextAttemptAt"), nullable(string(QStringLiteral("date-time")))},
        {QStringLiteral("lastStatusCode"), nullable(integer())},
        {QStringLiteral("lastError"), nullable(string())},
        {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
    });
    const QJsonObject incoming = object({
        {QStringLiteral("id"), string()},
        {QStringLiteral("name"), string()},
        {QStringLiteral("action"), string()},
        {QStringLiteral("path"), string()},
        {QStringLiteral("url"), nullable(string(QStringLiteral("uri")))},
        {QStringLiteral("signed"), boolean()},
        {QStringLiteral("secretHint"), nullable(string())},
        {QStringLiteral("secret"), string()},
        {QStringLiteral("callCount"), integer(0)},
        {QStringLiteral("lastCallAt"), nullable(string(QStringLiteral("date-time")))},
        {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
    });
    const QJsonObject call = object({
        {QStringLiteral("id"), string()},
        {QStringLiteral("webhookId"), string()},
        {QStringLiteral("receivedAt"), string(QStringLiteral("date-time"))},
        {QStringLiteral("event"), nullable(string())},
        {QStringLiteral("outcome"), string()},
        {QStringLiteral("statusCode"), integer()},
        {QStringLiteral("error"), nullable(string())},
        {QStringLiteral("resultId"), nullable(string())},
    });
    return {{QStringLiteral("Webhook"), webhook},          {QStringLiteral("WebhookInput"), input},
            {QStringLiteral("WebhookAttempt"), attempt},   {QStringLiteral("WebhookTestResult"), testResult},
            {QStringLiteral("WebhookDelivery"), delivery}, {QStringLiteral("IncomingWebhook"), incoming},
            {QStringLiteral("IncomingWebhookCall"), call}};
}

void WebhooksController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Webhooks");
    const auto bind = Router::binder(this);
    // Webhook subscriptions and incoming endpoints are configuration: admin-only, reads included
    // (they show targets and endpoint ids, which are credentials).
    const Access read = Access::adminScoped(QStringLiteral("webhooks:read"));
    const Access write = Access::adminScoped(QStringLiteral("webhooks:write"));
    const QJsonObject webhook = ref(QStringLiteral("Webhook"));
    const QJsonObject input = ref(QStringLiteral("WebhookInput"));
    const QJsonObject paging{{QStringLiteral("page"), integer(1)}, {QStringLiteral("limit"), integer(1, 100)}};

    // GET /api/v1/webhooks
    router.add("GET", QStringLiteral("/api/v1/webhooks"), "listWebhooks", bind(&WebhooksController::list), read,
               {tag,
                QStringLiteral("List webhook subscriptions (secrets shown only as a hint)"),
                {},
                pageOf(webhook),
                paging,
                {400, 401, 403, 429}});
    // POST /api/v1/webhooks
    router.add("POST", QStringLiteral("/api/v1/webhooks"), "createWebhook", bind(&WebhooksController::create), write,
               {tag,
                QStringLiteral("Create a subscription; the secret is returned once"),
                input,
                envelope(webhook),
                {},
                {400, 401, 403, 422, 429},
                201});
    // GET /api/v1/webhooks/events
    router.add("GET", QStringLiteral("/api/v1/webhooks/events"), "listWebhookEvents", bind(&WebhooksController::events),
               read,
               {tag,
                QStringLiteral("Event names a subscription may name, with a sample payload each"),
                {},
                envelope(array(object({{QStringLiteral("event"), string()}, {QStringLiteral("sample"), object({})}}))),
                {},
                {401, 403, 429}});
    // GET /api/v1/webhooks/incoming
    router.add("GET", QStringLiteral("/api/v1/webhooks/incoming"), "listIncomingWebhooks",
               bind(&WebhooksController::listIncoming), read,
               {tag,
                QStringLiteral("List incoming webhook endpoints"),
                {},
                pageOf(ref(QStringLiteral("IncomingWebhook"))),
                paging,
                {400, 401, 403, 429}});
    // POST /api/v1/webhooks/incoming
    router.add("POST", QStringLiteral("/api/v1/webhooks/incoming"), "createIncomingWebhook",
               bind(&WebhooksController::createIncoming), write,
               {tag,
                QStringLiteral("Create an incoming webhook endpoint"),
                object({{QStringLiteral("name"), string()},
                        {QStringLiteral("action"), string()},
                        {QStringLiteral("secret"),
                         QJsonObject{{QStringLiteral("type"),
                                      QJsonArray{QStringLiteral("string"), QStringLiteral("boolean")}}}}},
                       {QStringLiteral("name"), QStringLiteral("action")}),
                envelope(ref(QStringLiteral("IncomingWebhook"))),
                {},
                {400, 401, 403, 422, 429},
                201});
    // DELETE /api/v1/webhooks/incoming/:id
    router.add(
        "DELETE", QStringLiteral("/api/v1/webhooks/incoming/:id"), "deleteIncomingWebhook",
        bind(&WebhooksController::removeIncoming), write,
        {tag, QStringLiteral("Delete an incoming webhook endpoint"), {}, messageOnly(), {}, {401, 403, 404, 429}});
    // GET /api/v1/webhooks/incoming/:id/calls
    router.add("GET", QStringLiteral("/api/v1/webhooks/incoming/:id/calls"), "listIncomingWebhookCalls",
               bind(&WebhooksController::incomingCalls), read,
               {tag,
                QStringLiteral("The call log of an incoming webhook, newest first"),
                {},
                pageOf(ref(QStringLiteral("IncomingWebhookCall"))),
                paging,
                {400, 401, 403, 404, 429}});
    // GET /api/v1/webhooks/:id
    router.add("GET", QStringLiteral("/api/v1/webhooks/:id"), "getWebhook", bind(&WebhooksController::get), read,
               {tag, QStringLiteral("A subscription"), {}, envelope(webhook), {}, {401, 403, 404, 429}});
    // PUT /api/v1/webhooks/:id
    router.add("PUT", QStringLiteral("/api/v1/webhooks/:id"), "updateWebhook", bind(&WebhooksController::update), write,
               {tag,
                QStringLiteral("Update a subscription (partial): url, events, secret or rotateSecret, active"),
                input,
                envelope(webhook),
                {},
                {400, 401, 403, 404, 429}});
    // DELETE /api/v1/webhooks/:id
    router.add("DELETE", QStringLiteral("/api/v1/webhooks/:id"), "deleteWebhook", bind(&WebhooksController::remove),
               write,
               {tag, QStringLiteral("Delete a subscription and its log"), {}, messageOnly(), {}, {401, 403, 404, 429}});
    // POST /api/v1/webhooks/:id/disable
    router.add("POST", QStringLiteral("/api/v1/webhooks/:id/disable"), "disableWebhook",
               bind(&WebhooksController::disable), write,
               {tag, QStringLiteral("Disable a subscription"), {}, envelope(webhook), {}, {401, 403, 404, 429}});
    // POST /api/v1/webhooks/:id/enable
    router.add("POST", QStringLiteral("/api/v1/webhooks/:id/enable"), "enableWebhook",
               bind(&WebhooksController::enable), write,
               {tag,
                QStringLiteral("Enable a subscription (resets the failure count)"),
                {},
                envelope(webhook),
                {},
                {401, 403, 404, 429}});
    // POST /api/v1/webhooks/:id/test
    router.add("POST", QStringLiteral("/api/v1/webhooks/:id/test"), "testWebhook", bind(&WebhooksController::test),
               write,
               {tag,
                QStringLiteral("Send a sample payload of an event now; answers the receiver's status and latency"),
                object({{QStringLiteral("event"), string()}}, {QStringLiteral("event")}),
                envelope(ref(QStringLiteral("WebhookTestResult"))),
                {},
                {400, 401, 403, 404, 422, 429}});
    // GET /api/v1/webhooks/:id/logs
    router.add("GET", QStringLiteral("/api/v1/webhooks/:id/logs"), "listWebhookDeliveries",
               bind(&WebhooksController::logs), read,
               {tag,
                QStringLiteral("Delivery attempts, newest first"),
                {},
                pageOf(ref(QStringLiteral("WebhookAttempt"))),
                paging,
                {400, 401, 403, 404, 429}});
    // POST /api/v1/webhooks/:id/logs/:deliveryId/redeliver
    router.add("POST", QStringLiteral("/api/v1/webhooks/:id/logs/:deliveryId/redeliver"), "redeliverWebhookDelivery",
               bind(&WebhooksController::redeliver), write,
               {tag,
                QStringLiteral("Send a delivery's event again (same event id and body, a new delivery id)"),
                {},
                envelope(ref(QStringLiteral("WebhookDelivery"))),
                {},
                {401, 403, 404, 429},
                202});
    // POST /webhooks/incoming/:webhookId
    router.add("POST", QStringLiteral("/webhooks/incoming/:webhookId"), "receiveIncomingWebhook",
               bind(&WebhooksController::receiveIncoming), Access::publicRoute(),
               RouteDoc{QStringLiteral("Incoming webhooks"),
                        QStringLiteral("Receive a call from an external system"),
                        object({{QStringLiteral("event"), string()}, {QStringLiteral("data"), object({})}},
                               {QStringLiteral("event"), QStringLiteral("data")}),
                        envelope(object({{QStringLiteral("action"), string()},
                                         {QStringLiteral("result"), string()},
                                         {QStringLiteral("callId"), string()}})),
                        {},
                        {400, 401, 404, 409, 422}}
                   .described(QStringLiteral("Receive a call from an external system: {event, data}; signed with "
                                             "X-Service-Signature when the endpoint has a secret")));
}

ApiResponse WebhooksController::list(ApiRequest &request)
{
    const QueryReader::Paging paging = QueryReader(request).paging();
    qint64 total = 0;
    QJsonArray items;
    for (const WebhookSubscription &w : m_webhooks.list(paging.page, paging.limit, &total))
        items.append(w.toJson());
    return ApiResponse::page(items, paging.page, paging.limit, total);
}

ApiResponse WebhooksController::create(ApiRequest &request)
{
    const WebhookRepository::Saved saved =
        m_webhooks.create(WebhookRules::parse(request.body, m_webhooks.policy()), request.principal.id);
    QJsonObject data = saved.webhook.toJson();
    data.insert(QStringLiteral("secret"), saved.secret);
    return ApiResponse::created(data, QStringLiteral("Webhook created; keep the secret, it is not shown again"));
}

ApiResponse WebhooksController::get(ApiRequest &request)
{
    return ApiResponse::ok(m_webhooks.get(request.param(QStringLiteral("id"))).toJson());
}

ApiResponse WebhooksController::update(ApiRequest &request)
{
    const WebhookRepository::Saved saved =
        m_webhooks.update(request.param(QStringLiteral("id")), WebhookRules::parse(request.body, m_webhooks.policy()));
    QJsonObject data = saved.webhook.toJson();
    if (!saved.secret.isEmpty())
        data.insert(QStringLiteral("secret"), saved.secret);
    return ApiResponse::ok(data, QStringLiteral("Webhook updated"));
}

ApiResponse WebhooksController::remove(ApiRequest &request)
{
    m_webhooks.remove(request.param(QStringLiteral("id")));
    return ApiResponse::message(QStringLiteral("Webhook deleted"));
}

ApiResponse WebhooksController::disable(ApiRequest &request)
{
    const WebhookSubscription w = m_webhooks.setActive(request.param(QStringLiteral("id")), false);
    return ApiResponse::ok(w.toJson(), QStringLiteral("Webhook disabled"));
}

ApiResponse WebhooksController::enable(ApiRequest &request)
{
    const WebhookSubscription w = m_webhooks.setActive(request.param(QStringLiteral("id")), true);
    return ApiResponse::ok(w.toJson(), QStringLiteral("Webhook enabled"));
}

ApiResponse WebhooksController::test(ApiRequest &request)
{
    const QString event = FieldReader(request.body).requiredString(QStringLiteral("event"));
    if (!WebhookEvents::isKnown(event))
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Invalid data: %1"),
                      {ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown event %1"), {event})}),
            {{QStringLiteral("event"), ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown event %1"), {event})}});
    const WebhookSubscription w = m_webhooks.get(request.param(QStringLiteral("id")));
    const QByteArray body = WebhookEvents::testBody(event, m_store.nowIso());
    const QString deliveryId = Ids::make(u"whd");
    if (!m_sender)
        m_sender = std::make_unique<WebhookSender>(m_config, m_store.clock());

    // The handler answers with the receiver's status, so it waits for it. The wait runs the server
    // thread's event loop (other requests keep being served) and is bounded by the send timeout;
    // no transaction is open during it.
    const QDateTime startedAt = m_store.now();
    QElapsedTimer elapsed;
    elapsed.start();
    WebhookAttemptResult result;
    bool done = false;
    QEventLoop loop;
    m_sender->send(w.url, body, w.secret, event, deliveryId, [&](const WebhookAttemptResult &r) {
        result = r;
        done = true;
        loop.quit();
    });
    QTimer guard;
    guard.setSingleShot(true);
    QObject::connect(&guard, &QTimer::timeout, &loop, &QEventLoop::quit);
    guard.start((m_config.timeoutSeconds + 5) * 1000);
    if (!done)
        loop.exec();
    if (!done) {
        result.error = QStringLiteral("timeout after %1 s").arg(m_config.timeoutSeconds);
        result.latencyMs = int(elapsed.elapsed());
    }
    const WebhookDelivery d = m_webhooks.recordTest(w.id, deliveryId, event, body, result, startedAt);
    const auto orNull = [](const QString &s) { return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s); };
    return ApiResponse::ok(QJsonObject{{QStringLiteral("deliveryId"), d.id},
                                       {QStringLiteral("eventId"), d.eventId},
                                       {QStringLiteral("event"), event},
                                       {QStringLiteral("success"), result.success},
                                       {QStringLiteral("statusCode"), result.statusCode ? QJsonValue(result.statusCode)
                                                                                        : QJsonValue(QJsonValue::Null)},
                                       {QStringLiteral("latencyMs"), result.latencyMs},
                                       {QStringLiteral("error"), orNull(result.error)},
                                       {QStringLiteral("responseExcerpt"), orNull(result.responseExcerpt)}},
                           result.success ? QStringLiteral("Test delivered") : QStringLiteral("Test delivery failed"));
}

ApiResponse WebhooksController::logs(ApiRequest &request)
{
    const QueryReader::Paging paging = QueryReader(request).paging();
    const WebhookSubscription w = m_webhooks.get(request.param(QStringLiteral("id")));
    qint64 total = 0;
    QJsonArray items;
    for (const WebhookAttempt &a : m_webhooks.attempts(w.id, paging.page, paging.limit, &total))
        items.append(a.toJson());
    return ApiResponse::page(items, paging.page, paging.limit, total);
}

ApiResponse WebhooksController::redeliver(ApiRequest &request)
{
    const WebhookDelivery d =
        m_webhooks.redeliver(request.param(QStringLiteral("id")), request.param(QStringLiteral("deliveryId")));
    ApiResponse r = ApiResponse::ok(d.toJson(), QStringLiteral("Redelivery queued"));
    r.status = 202;
    return r;
}

ApiResponse WebhooksController::events(ApiRequest &)
{
    QJsonArray items;
    const QString now = m_store.nowIso();
    for (const QString &e : WebhookEvents::all())
        items.append(
            QJsonObject{{QStringLiteral("event"), e}, {QStringLiteral("sample"), WebhookEvents::sample(e, now)}});
    return ApiResponse::ok(items);
}

ApiResponse WebhooksController::listIncoming(ApiRequest &request)
{
    const QueryReader::Paging paging = QueryReader(request).paging();
    qint64 total = 0;
    QJsonArray items;
    const QString base = baseUrlOf(request);
    for (const IncomingWebhook &e : m_incoming.list(paging.page, paging.limit, &total))
        items.append(e.toJson(base));
    return ApiResponse::page(items, paging.page, paging.limit, total);
}

ApiResponse WebhooksController::createIncoming(ApiRequest &request)
{
    const IncomingWebhookRepository::Saved saved =
        m_incoming.create(WebhookRules::parseIncoming(request.body), request.principal.id);
    QJsonObject data = saved.endpoint.toJson(baseUrlOf(request));
    if (!saved.secret.isEmpty())
        data.insert(QStringLiteral("secret"), saved.secret);
    return ApiResponse::created(data, QStringLiteral("Incoming webhook created"));
}

ApiResponse WebhooksController::removeIncoming(ApiRequest &request)
{
    m_incoming.remove(request.param(QStringLiteral("id")));
    return ApiResponse::message(QStringLiteral("Incoming webhook deleted"));
}

ApiResponse WebhooksController::incomingCalls(ApiRequest &request)
{
    const QueryReader::Paging paging = QueryReader(request).paging();
    const IncomingWebhook e = m_incoming.get(request.param(QStringLiteral("id")));
    qint64 total = 0;
    QJsonArray items;
    for (const IncomingWebhookCall &c : m_incoming.calls(e.id, paging.page, paging.limit, &total))
        items.append(c.toJson());
    return ApiResponse::page(items, paging.page, paging.limit, total);
}

ApiResponse WebhooksController::receiveIncoming(ApiRequest &request)
{
    // An unknown endpoint is not logged; every call to a known one is, with what it was answered:
    // "rejected" (signature or body refused), "failed" (the action refused the data), "processed".
    const QString id = request.param(QStringLiteral("webhookId"));
    const std::optional<IncomingWebhook> endpoint = m_incoming.find(id);
    if (!endpoint)
        throw DomainError(DomainError::NotFound, QStringLiteral("NOT_FOUND"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Unknown webhook %1"), {id}));
    const QByteArray &body = request.http.body;
    QString event;
    QJsonObject data;
    QString outcome = QStringLiteral("rejected");
    try {
        m_incoming.check(*endpoint, body, request.http.header("X-Service-Signature"), &event, &data);
        outcome = QStringLiteral("failed");
        IncomingOutcome done = m_incoming.run(*endpoint, data);
        done.data.insert(QStringLiteral("callId"), m_incoming.recordCall(*endpoint, event, QStringLiteral("processed"),
                                                                         200, {}, done.resultId, body));
        return ApiResponse::ok(done.data, done.message);
    } catch (const DomainError &e) {
        m_incoming.recordCall(*endpoint, event, outcome, ErrorStatus::of(e.kind()), e.message(), {}, body);
        throw;
    }
}
