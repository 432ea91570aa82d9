#include "server/controllers/dealscontroller.h"

#include "model/core/fieldreader.h"
#include "model/tasks/taskrepository.h"
#include "server/api/queryreader.h"
#include "server/api/schemas.h"

#include <QJsonArray>

#include <cmath>

using namespace Schema;

namespace {
void requireBody(const ApiRequest &request)
{
    if (!request.hasBody)
        throw DomainError::unprocessable(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Required field missing: a JSON body is required")));
}
} // namespace

DealsController::DealsController(const Store &store)
    : m_deals(store)
    , m_pipelines(store)
    , m_tasks(store)
{
}

QJsonArray DealsController::tasksOf(const QString &dealId) const
{
    QJsonArray out;
    for (const TaskSummary &t : m_tasks.tasksOfDeal(dealId)) {
        out.append(QJsonObject{{QStringLiteral("id"), t.id},
                               {QStringLiteral("title"), t.title},
                               {QStringLiteral("dueDate"), t.dueDate.isEmpty() ? QJsonValue() : t.dueDate},
                               {QStringLiteral("status"), t.status}});
    }
    return out;
}

QJsonObject DealsController::schemas() const
{
    const QJsonObject person = nullable(object({{QStringLiteral("id"), string()}, {QStringLiteral("name"), string()}}));
    const QJsonObject input = object({
        {QStringLiteral("name"), string()},
        {QStringLiteral("value"), number()},
        {QStringLiteral("currency"), string()},
        {QStringLiteral("stage"), string()},
        {QStringLiteral("probability"), integer(0, 100)},
        {QStringLiteral("contactId"), nullable(string())},
        {QStringLiteral("assignedTo"), nullable(string())},
        {QStringLiteral("expectedCloseDate"), nullable(string(QStringLiteral("date")))},
        {QStringLiteral("description"), string()},
        {QStringLiteral("customFields"), object({})},
        {QStringLiteral("pipelineId"), string()},
        {QStringLiteral("note"), string()},
    });
    const QJsonObject deal = object({
        {QStringLiteral("id"), string()},
        {QStringLiteral("name"), string()},
        {QStringLiteral("value"), number()},
        {QStringLiteral("currency"), string()},
        {QStringLiteral("pipelineId"), string()},
        {QStringLiteral("stage"), string()},
        {QStringLiteral("probability"), integer(0, 100)},
        {QStringLiteral("contactId"), nullable(string())},
        {QStringLiteral("contact"), person},
        {QStringLiteral("assignedTo"), person},
        {QStringLiteral("expectedCloseDate"), nullable(string(QStringLiteral("date")))},
        {QStringLiteral("description"), string()},
        {QStringLiteral("customFields"), object({})},
        {QStringLiteral("closedValue"), nullable(number())},
        {QStringLiteral("closedAt"), nullable(string(QStringLiteral("date-time")))},
        {QStringLiteral("lostReason"), nullable(string())},
        {QStringLiteral("competitorName"), nullable(string())},
        {QStringLiteral("isRotten"), boolean()},
        {QStringLiteral("lastActivityAt"), string(QStringLiteral("date-time"))},
        {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
        {QStringLiteral("updatedAt"), string(QStringLiteral("date-time"))},
    });
    const QJsonObject activity = object({{QStringLiteral("id"), string()},
                                         {QStringLiteral("type"), string()},
                                         {QStringLiteral("content"), string()},
                                         {QStringLiteral("from"), nullable(string())},
                                         {QStringLiteral("to"), string()},
                                         {QStringLiteral("user"), person},
                                         {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))}});
    QJsonObject detail = deal;
    QJsonObject props = deal.value(QStringLiteral("properties")).toObject();
    props.insert(QStringLiteral("contact"), nullable(object({{QStringLiteral("id"), string()},
                                                             {QStringLiteral("name"), string()},
                                                             {QStringLiteral("firstName"), string()},
                                                             {QStringLiteral("lastName"), string()},
                                                             {QStringLiteral("company"), string()},
                                                             {QStringLiteral("email"), nullable(string())}})));
    props.insert(QStringLiteral("activities"), array(ref(QStringLiteral("DealActivity"))));
    props.insert(QStringLiteral("tasks"), array(object({{QStringLiteral("id"), string()},
                                                        {QStringLiteral("title"), string()},
                                                        {QStringLiteral("dueDate"), nullable(string())},
                                                        {QStringLiteral("status"), string()}})));
    detail.insert(QStringLiteral("properties"), props);
    const QJsonObject stage = object({{QStringLiteral("key"), string()},
                                      {QStringLiteral("name"), string()},
                                      {QStringLiteral("position"), integer(0)},
                                      {QStringLiteral("probability"), integer(0, 100)},
                                      {QStringLiteral("rottenDays"), nullable(integer(0, 3650))},
                                      {QStringLiteral("type"), string()}});
    const QJsonObject pipeline = object({{QStringLiteral("id"), string()},
                                         {QStringLiteral("name"), string()},
                                         {QStringLiteral("isDefault"), boolean()},
                                         {QStringLiteral("stages"), array(stage)},
                                         {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
                                         {QStringLiteral("updatedAt"), string(QStringLiteral("date-time"))}});
    const QJsonObject pipelineInput = object(
        {{QStringLiteral("name"), string()},
         {QStringLiteral("isDefault"), boolean()},
         {QStringLiteral("stages"), array(object({{QStringLiteral("key"), string()},
                                                  {QStringLiteral("name"), string()},
                                                  {QStringLiteral("probability"), integer(0, 100)},
                                                  {QStringLiteral("rottenDays"), nullable(integer(0, 3650))}}))}});
    const QJsonObject stageTotals = object({{QStringLiteral("stage"), string()},
                                            {QStringLiteral("name"), string()},
                                            {QStringLiteral("type"), string()},
                                            {QStringLiteral("count"), integer(0)},
                                            {QStringLiteral("value"), number()},
                                            {QStringLiteral("weightedValue"), number()}});
    const QJsonObject totals = object({{QStringLiteral("currency"), nullable(string())},
                                       {QStringLiteral("totalDeals"), integer(0)},
                                       {QStringLiteral("totalValue"), number()},
                                       {QStringLiteral("weightedValue"), number()},
                                       {QStringLiteral("avgDealSize"), number()},
                                       {QStringLiteral("wonDeals"), integer(0)},
                                       {QStringLiteral("wonValue"), number()},
                                       {QStringLiteral("lostDeals"), integer(0)},
                                       {QStringLiteral("lostValue"), number()}});
    const QJsonObject summary = object({
        {QStringLiteral("pipelineId"), string()},
        {QStringLiteral("pipelineName"), string()},
        {QStringLiteral("currency"), nullable(string())},
        {QStringLiteral("currencies"), array(string())},
        {QStringLiteral("stages"), array(stageTotals)},
        {QStringLiteral("summary"), totals},
        {QStringLiteral("byCurrency"), array(object({{QStringLiteral("currency"), string()},
                                                     {QStringLiteral("stages"), array(stageTotals)},
                                                     {QStringLiteral("summary"), totals}}))},
        {QStringLiteral("allCurrencies"),
         object({{QStringLiteral("openDeals"), integer(0)},
                 {QStringLiteral("stages"),
                  array(object({{QStringLiteral("stage"), string()}, {QStringLiteral("count"), integer(0)}}))}})},
    });
    return {{QStringLiteral("DealInput"), input},        {QStringLiteral("Deal"), deal},
            {QStringLiteral("DealDetail"), detail},      {QStringLiteral("DealActivity"), activity},
            {QStringLiteral("Pipeline"), pipeline},      {QStringLiteral("PipelineInput"), pipelineInput},
            {QStringLiteral("PipelineSummary"), summary}};
}

void DealsController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Deals");
    const auto bind = Router::binder(this);
    const Access read = Access::scoped(QStringLiteral("deals:read"));
    const Access write = Access::scoped(QStringLiteral("deals:write"));
    // Pipelines' create/change/delete are configuration: admin-only.
    const Access configure = Access::adminScoped(QStringLiteral("deals:write"));
    const QJsonObject deal = ref(QStringLiteral("Deal"));
    const QJsonObject note = string();

    // GET /api/v1/deals
    router.add("GET", QStringLiteral("/api/v1/deals"), "listDeals", bind(&DealsController::list), read,
               {tag,
                QStringLiteral("List deals"),
                {},
                pageOf(deal),
                {{QStringLiteral("page"), integer(1)},
                 {QStringLiteral("limit"), integer(1, 100)},
                 {QStringLiteral("stage"), string()},
                 {QStringLiteral("assignedTo"), string()},
                 {QStringLiteral("contactId"), string()},
                 {QStringLiteral("minValue"), number()},
                 {QStringLiteral("maxValue"), number()},
                 {QStringLiteral("pipelineId"), string()},
                 {QStringLiteral("currency"), string()},
                 {QStringLiteral("rotten"), boolean()}},
                {400, 401, 403, 429}});
    // POST /api/v1/deals
    router.add("POST", QStringLiteral("/api/v1/deals"), "createDeal", bind(&DealsController::create), write,
               {tag,
                QStringLiteral("Create a deal"),
                ref(QStringLiteral("DealInput")),
                envelope(deal),
                {},
                {400, 401, 403, 422, 429},
                201});
    // GET /api/v1/deals/pipeline (a literal segment: never read as a deal id)
    router.add("GET", QStringLiteral("/api/v1/deals/pipeline"), "getPipelineSummary",
               bind(&DealsController::pipelineSummary), read,
               {tag,
                QStringLiteral("Pipeline summary: per stage count and value; totals per currency"),
                {},
                envelope(ref(QStringLiteral("PipelineSummary"))),
                {{QStringLiteral("pipelineId"), string()}, {QStringLiteral("currency"), string()}},
                {400, 401, 403, 422, 429}});
    // GET /api/v1/deals/:id
    router.add("GET", QStringLiteral("/api/v1/deals/:id"), "getDeal", bind(&DealsController::get), read,
               {tag,
                QStringLiteral("Deal detail with contact, activities and tasks"),
                {},
                envelope(ref(QStringLiteral("DealDetail"))),
                {},
                {401, 403, 404, 429}});
    // PUT /api/v1/deals/:id and PATCH /api/v1/deals/:id (both partial)
    for (const QByteArray &method : {QByteArrayLiteral("PUT"), QByteArrayLiteral("PATCH")}) {
        router.add(method, QStringLiteral("/api/v1/deals/:id"), method == "PUT" ? "updateDeal" : "patchDeal",
                   bind(&DealsController::update), write,
                   {tag,
                    QStringLiteral("Update a deal (partial)"),
                    ref(QStringLiteral("DealInput")),
                    envelope(deal),
                    {},
                    {400, 401, 403, 404, 422, 429}});
    }
    // DELETE /api/v1/deals/:id
    router.add("DELETE", QStringLiteral("/api/v1/deals/:id"), "deleteDeal", bind(&DealsController::remove), write,
               {tag, QStringLiteral("Delete a deal"), {}, messageOnly(), {}, {401, 403, 404, 429}});
    // PATCH /api/v1/deals/:id/stage
    router.add(
        "PATCH", QStringLiteral("/api/v1/deals/:id/stage"), "moveDealStage", bind(&DealsController::moveStage), write,
        {tag,
         QStringLiteral("Move a deal to a stage"),
         object({{QStringLiteral("stage"), string()}, {QStringLiteral("note"), note}}, {QStringLiteral("stage")}),
         envelope(deal),
         {},
         {400, 401, 403, 404, 422, 429}});
    // POST /api/v1/deals/:id/won
    router.add("POST", QStringLiteral("/api/v1/deals/:id/won"), "markDealWon", bind(&DealsController::won), write,
               {tag,
                QStringLiteral("Mark a deal won"),
                object({{QStringLiteral("closedValue"), number()}, {QStringLiteral("note"), note}}),
                envelope(deal),
                {},
                {400, 401, 403, 404, 409, 429}});
    // POST /api/v1/deals/:id/lost
    router.add("POST", QStringLiteral("/api/v1/deals/:id/lost"), "markDealLost", bind(&DealsController::lost), write,
               {tag,
                QStringLiteral("Mark a deal lost"),
                object({{QStringLiteral("reason"), string()},
                        {QStringLiteral("competitorName"), string()},
                        {QStringLiteral("note"), note}},
                       {QStringLiteral("reason")}),
                envelope(deal),
                {},
                {400, 401, 403, 404, 409, 422, 429}});
    // POST /api/v1/deals/:id/activities
    router.add("POST", QStringLiteral("/api/v1/deals/:id/activities"), "addDealActivity",
               bind(&DealsController::addActivity), write,
               {tag,
                QStringLiteral("Add an activity (note, call, meeting, email)"),
                object({{QStringLiteral("type"), string()}, {QStringLiteral("content"), string()}},
                       {QStringLiteral("type"), QStringLiteral("content")}),
                envelope(ref(QStringLiteral("DealActivity"))),
                {},
                {400, 401, 403, 404, 422, 429},
                201});

    const QString ptag = QStringLiteral("Pipelines");
    const QJsonObject pipeline = ref(QStringLiteral("Pipeline"));
    // GET /api/v1/pipelines
    router.add(
        "GET", QStringLiteral("/api/v1/pipelines"), "listPipelines", bind(&DealsController::listPipelines), read,
        {ptag, QStringLiteral("List pipelines with their stages"), {}, envelope(array(pipeline)), {}, {401, 403, 429}});
    // POST /api/v1/pipelines
    router.add("POST", QStringLiteral("/api/v1/pipelines"), "createPipeline", bind(&DealsController::createPipeline),
               configure,
               {ptag,
                QStringLiteral("Create a pipeline"),
                ref(QStringLiteral("PipelineInput")),
                envelope(pipeline),
                {},
                {400, 401, 403, 409, 422, 429},
                201});
    // GET /api/v1/pipelines/:id
    router.add("GET", QStringLiteral("/api/v1/pipelines/:id"), "getPipeline", bind(&DealsController::getPipeline), read,
               {ptag, QStringLiteral("A pipeline with its stages"), {}, envelope(pipeline), {}, {401, 403, 404, 429}});
    // PATCH /api/v1/pipelines/:id
    router.add("PATCH", QStringLiteral("/api/v1/pipelines/:id"), "updatePipeline",
               bind(&DealsController::updatePipeline), configure,
               {ptag,
                QStringLiteral("Update a pipeline: name, isDefault, stages (a stage holding deals cannot be removed)"),
                ref(QStringLiteral("PipelineInput")),
                envelope(pipeline),
                {},
                {400, 401, 403, 404, 409, 422, 429}});
    // DELETE /api/v1/pipelines/:id
    router.add("DELETE", QStringLiteral("/api/v1/pipelines/:id"), "deletePipeline",
               bind(&DealsController::removePipeline), configure,
               {ptag,
                QStringLiteral("Delete a pipeline without deals (not the default)"),
                {},
                messageOnly(),
                {},
                {401, 403, 404, 409, 429}});
}

ApiResponse DealsController::list(ApiRequest &request)
{
    const QueryReader query(request);
    const QueryReader::Paging paging = query.paging();
    DealQuery q;
    q.page = paging.page;
    q.limit = paging.limit;
    q.stages = query.list({QStringLiteral("stage")});
    q.assignedTo = query.text(QStringLiteral("assignedTo"));
    q.contactId = query.text(QStringLiteral("contactId"));
    q.pipelineId = query.text(QStringLiteral("pipelineId"));
    q.currency = query.text(QStringLiteral("currency")).toUpper();
    q.minValue = query.number(QStringLiteral("minValue"));
    q.maxValue = query.number(QStringLiteral("maxValue"));
    q.rotten = query.boolean(QStringLiteral("rotten"));
    const DealPage page = m_deals.list(q);
    QJsonArray items;
    for (const Deal &d : page.items)
        items.append(d.toJson());
    return ApiResponse::page(items, q.page, q.limit, page.total);
}

ApiResponse DealsController::create(ApiRequest &request)
{
    requireBody(request);
    const Deal d = m_deals.create(DealRules::parse(request.body), request.principal.id);
    return ApiResponse::created(d.toJson(), QStringLiteral("Deal created"));
}

ApiResponse DealsController::get(ApiRequest &request)
{
    const Deal d = m_deals.get(request.param(QStringLiteral("id")));
    QJsonObject data = d.toDetailJson();
    QJsonArray activities;
    for (const DealActivity &a : m_deals.activities(d.id))
        activities.append(a.toJson());
    data.insert(QStringLiteral("activities"), activities);
    data.insert(QStringLiteral("tasks"), tasksOf(d.id));
    return ApiResponse::ok(data);
}

ApiResponse DealsController::update(ApiRequest &request)
{
    const Deal d =
        m_deals.update(request.param(QStringLiteral("id")), DealRules::parse(request.body), request.principal.id);
    return ApiResponse::ok(d.toJson(), QStringLiteral("Deal updated"));
}

ApiResponse DealsController::remove(ApiRequest &request)
{
    m_deals.remove(request.param(QStringLiteral("id")), request.principal.id);
    return ApiResponse::message(QStringLiteral("Deal deleted"));
}

ApiResponse DealsController::moveStage(ApiRequest &request)
{
    const FieldReader reader(request.body);
    const QString stage = reader.requiredString(QStringLiteral("stage"));
    const QString note = reader.optionalText(QStringLiteral("note"));
    const Deal d = m_deals.moveStage(request.param(QStringLiteral("id")), stage.trimmed(), note, request.principal.id);
    return ApiResponse::ok(d.toJson(), QStringLiteral("Stage changed"));
}

ApiResponse DealsController::won(ApiRequest &request)
{
    const std::optional<double> closedValue = DealRules::money(request.body, QStringLiteral("closedValue"));
    const QString note = FieldReader(request.body).optionalText(QStringLiteral("note"));
    const Deal d = m_deals.markWon(request.param(QStringLiteral("id")), closedValue, note, request.principal.id);
    return ApiResponse::ok(d.toJson(), QStringLiteral("Deal won"));
}

ApiResponse DealsController::lost(ApiRequest &request)
{
    const FieldReader reader(request.body);
    const QString reason = reader.requiredString(QStringLiteral("reason"));
    const QString competitor = reader.optionalText(QStringLiteral("competitorName"), 200);
    const QString note = reader.optionalText(QStringLiteral("note"));
    const Deal d =
        m_deals.markLost(request.param(QStringLiteral("id")), reason.trimmed(), competitor, note, request.principal.id);
    return ApiResponse::ok(d.toJson(), QStringLiteral("Deal lost"));
}

ApiResponse DealsController::addActivity(ApiRequest &request)
{
    const FieldReader reader(request.body);
    const QString type = reader.requiredString(QStringLiteral("type"));
    const QString content = reader.requiredString(QStringLiteral("content"));
    const DealActivity a =
        m_deals.addActivity(request.param(QStringLiteral("id")), type.trimmed(), content, request.principal.id);
    return ApiResponse::created(a.toJson(), QStringLiteral("Activity added"));
}

ApiResponse DealsController::pipelineSummary(ApiRequest &request)
{
    const QueryReader query(request);
    const QString pipelineId = query.text(QStringLiteral("pipelineId"));
    const QString currency = query.text(QStringLiteral("currency")).toUpper();
    if (!currency.isEmpty() && !DealRules::isCurrency(currency))
        QueryReader::refuse(QStringLiteral("currency"),
                            ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an ISO 4217 currency code")));
    return ApiResponse::ok(m_deals.summary(pipelineId, currency).toJson());
}

ApiResponse DealsController::listPipelines(ApiRequest &)
{
    QJsonArray items;
    for (const Pipeline &p : m_pipelines.list())
        items.append(p.toJson());
    return ApiResponse::ok(items);
}

ApiResponse DealsController::createPipeline(ApiRequest &request)
{
    requireBody(request);
    return ApiResponse::created(m_pipelines.create(PipelineRules::parse(request.body, true)).toJson(),
                                QStringLiteral("Pipeline created"));
}

ApiResponse DealsController::getPipeline(ApiRequest &request)
{
    return ApiResponse::ok(m_pipelines.get(request.param(QStringLiteral("id"))).toJson());
}

ApiResponse DealsController::updatePipeline(ApiRequest &request)
{
    return ApiResponse::ok(
        m_pipelines.update(request.param(QStringLiteral("id")), PipelineRules::parse(request.body, false)).toJson(),
        QStringLiteral("Pipeline updated"));
}

ApiResponse DealsController::removePipeline(ApiRequest &request)
{
    m_pipelines.remove(request.param(QStringLiteral("id")));
    return ApiResponse::message(QStringLiteral("Pipeline deleted"));
}
