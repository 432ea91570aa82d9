#include "server/controllers/segmentscontroller.h"

#include "model/contacts/segmentrepository.h"
#include "model/core/fieldreader.h"
#include "server/api/queryreader.h"
#include "server/api/schemas.h"

#include <QJsonArray>

using namespace Schema;

namespace {
QJsonObject nullableRef(const QString &component)
{
    return {{QStringLiteral("oneOf"),
             QJsonArray{ref(component), QJsonObject{{QStringLiteral("type"), QStringLiteral("null")}}}}};
}
} // namespace

SegmentsController::SegmentsController(const Store &store)
    : m_store(store)
{
}

SegmentRepository SegmentsController::repository() const
{
    return SegmentRepository(m_store);
}

QJsonObject SegmentsController::schemas() const
{
    QJsonObject rule = object({{QStringLiteral("field"), string()},
                               {QStringLiteral("operator"), string()},
                               {QStringLiteral("value"), QJsonObject{}}},
                              {QStringLiteral("field"), QStringLiteral("operator")});
    rule.insert(QStringLiteral("description"),
                QStringLiteral("field: name, email, phone, tags, source, leadScore, lastMessageAt, createdAt, "
                               "totalMessages, sentiment or customField.<key>; value: string or number, [low, high] "
                               "for between, none for isEmpty/isNotEmpty; dates take YYYY-MM-DD, ISO date-times "
                               "or <n>d"));
    QJsonObject group =
        object({{QStringLiteral("logic"), string()},
                {QStringLiteral("rules"),
                 array(QJsonObject{{QStringLiteral("oneOf"), QJsonArray{ref(QStringLiteral("SegmentRule")),
                                                                        ref(QStringLiteral("SegmentFilters"))}}})}},
               {QStringLiteral("rules")});
    QJsonObject logic = string();
    logic.insert(QStringLiteral("enum"), QJsonArray{QStringLiteral("AND"), QStringLiteral("OR")});
    QJsonObject groupProps = group.value(QStringLiteral("properties")).toObject();
    groupProps.insert(QStringLiteral("logic"), logic);
    group.insert(QStringLiteral("properties"), groupProps);
    group.insert(QStringLiteral("description"), QStringLiteral("A group of rules; groups nest up to 5 levels"));
    const QJsonObject input = object({{QStringLiteral("name"), string()},
                                      {QStringLiteral("description"), nullable(string())},
                                      {QStringLiteral("filters"), nullableRef(QStringLiteral("SegmentFilters"))},
                                      {QStringLiteral("isDynamic"), boolean()}});
    const QJsonObject segment = object({{QStringLiteral("id"), string()},
                                        {QStringLiteral("name"), string()},
                                        {QStringLiteral("description"), string()},
                                        {QStringLiteral("filters"), nullableRef(QStringLiteral("SegmentFilters"))},
                                        {QStringLiteral("isDynamic"), boolean()},
                                        {QStringLiteral("contactCount"), integer(0)},
                                        {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
                                        {QStringLiteral("updatedAt"), string(QStringLiteral("date-time"))}});
    return {{QStringLiteral("SegmentRule"), rule},
            {QStringLiteral("SegmentFilters"), group},
            {QStringLiteral("SegmentInput"), input},
            {QStringLiteral("Segment"), segment}};
}

void SegmentsController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Segments");
    const auto bind = Router::binder(this);
    const Access user = Access::userOnly();
    const QJsonObject segment = ref(QStringLiteral("Segment"));
    const QString base = QStringLiteral("/api/v1/contacts/segments");

    // GET /api/v1/contacts/segments
    router.add("GET", base, "listSegments", bind(&SegmentsController::list), user,
               {tag,
                QStringLiteral("List segments with their contactCount ({data, total}, without success)"),
                {},
                object({{QStringLiteral("data"), array(segment)}, {QStringLiteral("total"), integer(0)}},
                       {QStringLiteral("data"), QStringLiteral("total")}),
                {},
                {401, 403, 429}});
    // POST /api/v1/contacts/segments
    router.add("POST", base, "createSegment", bind(&SegmentsController::create), user,
               {tag,
                QStringLiteral("Create a segment (a static one with filters takes the matching contacts once)"),
                ref(QStringLiteral("SegmentInput")),
                envelope(segment),
                {},
                {400, 401, 403, 409, 422, 429},
                201});
    // POST /api/v1/contacts/segments/preview
    router.add(
        "POST", base + QStringLiteral("/preview"), "previewSegment", bind(&SegmentsController::preview), user,
        {tag,
         QStringLiteral("Count the contacts some filters match now, without saving a segment"),
         object({{QStringLiteral("filters"), ref(QStringLiteral("SegmentFilters"))}}, {QStringLiteral("filters")}),
         envelope(object({{QStringLiteral("count"), integer(0)}})),
         {},
         {400, 401, 403, 422, 429}});
    // GET /api/v1/contacts/segments/:id
    router.add(
        "GET", base + QStringLiteral("/:id"), "getSegment", bind(&SegmentsController::get), user,
        {tag, QStringLiteral("Segment detail with contactCount"), {}, envelope(segment), {}, {401, 403, 404, 429}});
    // PATCH /api/v1/contacts/segments/:id
    router.add("PATCH", base + QStringLiteral("/:id"), "updateSegment", bind(&SegmentsController::update), user,
               {tag,
                QStringLiteral("Update a segment (partial; filters re-validated)"),
                ref(QStringLiteral("SegmentInput")),
                envelope(segment),
                {},
                {400, 401, 403, 404, 409, 422, 429}});
    // DELETE /api/v1/contacts/segments/:id
    router.add(
        "DELETE", base + QStringLiteral("/:id"), "deleteSegment", bind(&SegmentsController::remove), user,
        {tag, QStringLiteral("Delete a segment (its contacts stay)"), {}, messageOnly(), {}, {401, 403, 404, 429}});
    // GET /api/v1/contacts/segments/:id/contacts
    router.add("GET", base + QStringLiteral("/:id/contacts"), "listSegmentContacts",
               bind(&SegmentsController::contacts), user,
               {tag,
                QStringLiteral("The contacts of a segment, newest first"),
                {},
                pageOf(ref(QStringLiteral("Contact"))),
                {{QStringLiteral("page"), integer(1)}, {QStringLiteral("limit"), integer(1, 100)}},
                {400, 401, 403, 404, 429}});
    // POST /api/v1/contacts/segments/:id/contacts
    router.add("POST", base + QStringLiteral("/:id/contacts"), "addSegmentContacts",
               bind(&SegmentsController::addContacts), user,
               {tag,
                QStringLiteral("Add contacts to a static segment (all or nothing; 404 names unknown ids)"),
                object({{QStringLiteral("contactIds"), array(string())}}, {QStringLiteral("contactIds")}),
                envelope(segment),
                {},
                {400, 401, 403, 404, 422, 429}});
    // DELETE /api/v1/contacts/segments/:id/contacts/:contactId
    router.add("DELETE", base + QStringLiteral("/:id/contacts/:contactId"), "removeSegmentContact",
               bind(&SegmentsController::removeContact), user,
               {tag,
                QStringLiteral("Remove a contact from a static segment"),
                {},
                envelope(segment),
                {},
                {400, 401, 403, 404, 429}});
    // POST /api/v1/contacts/segments/:id/snapshot
    router.add("POST", base + QStringLiteral("/:id/snapshot"), "snapshotSegment", bind(&SegmentsController::snapshot),
               user,
               {tag,
                QStringLiteral("Make a new static segment from this segment's current members"),
                object({{QStringLiteral("name"), string()}, {QStringLiteral("description"), string()}}),
                envelope(segment),
                {},
                {400, 401, 403, 404, 409, 422, 429},
                201});
}

ApiResponse SegmentsController::list(ApiRequest &)
{
    const QVector<Segment> segments = repository().list(true);
    QJsonArray data;
    for (const Segment &s : segments)
        data.append(s.toJson());
    // The spec's one list without the success flag.
    return ApiResponse::raw(QJsonObject{{QStringLiteral("data"), data}, {QStringLiteral("total"), data.size()}});
}

ApiResponse SegmentsController::create(ApiRequest &request)
{
    const Segment s = repository().create(SegmentRules::parse(request.body), request.principal.id);
    return ApiResponse::created(s.toJson(), QStringLiteral("Segment created"));
}

ApiResponse SegmentsController::preview(ApiRequest &request)
{
    const FieldReader reader(request.body);
    if (!reader.given(QStringLiteral("filters")))
        throw DomainError::missingFields({{QStringLiteral("filters"), DomainError::isRequired()}});
    const QJsonValue filters = reader.value(QStringLiteral("filters"));
    const qint64 n = repository().countMatching(filters);
    return ApiResponse::ok(QJsonObject{{QStringLiteral("count"), double(n)}});
}

ApiResponse SegmentsController::get(ApiRequest &request)
{
    return ApiResponse::ok(repository().get(request.param(QStringLiteral("id"))).toJson());
}

ApiResponse SegmentsController::update(ApiRequest &request)
{
    const Segment s = repository().update(request.param(QStringLiteral("id")), SegmentRules::parse(request.body),
                                          request.principal.id);
    return ApiResponse::ok(s.toJson(), QStringLiteral("Segment updated"));
}

ApiResponse SegmentsController::remove(ApiRequest &request)
{
    repository().remove(request.param(QStringLiteral("id")), request.principal.id);
    return ApiResponse::message(QStringLiteral("Segment deleted"));
}

ApiResponse SegmentsController::contacts(ApiRequest &request)
{
    const QueryReader::Paging paging = QueryReader(request).paging();
    const ContactPage page = repository().contacts(request.param(QStringLiteral("id")), paging.page, paging.limit);
    QJsonArray items;
    for (const Contact &c : page.items)
        items.append(c.toJson());
    return ApiResponse::page(items, paging.page, paging.limit, page.total);
}

ApiResponse SegmentsController::addContacts(ApiRequest &request)
{
    const QStringList ids = FieldReader(request.body).requiredStringArray(QStringLiteral("contactIds"));
    int added = 0;
    const Segment s = repository().addContacts(request.param(QStringLiteral("id")), ids, request.principal.id, &added);
    return ApiResponse::ok(s.toJson(), added == 1 ? QStringLiteral("1 contact added")
                                                  : QStringLiteral("%1 contacts added").arg(added));
}

ApiResponse SegmentsController::removeContact(ApiRequest &request)
{
    const Segment s = repository().removeContact(request.param(QStringLiteral("id")),
                                                 request.param(QStringLiteral("contactId")), request.principal.id);
    return ApiResponse::ok(s.toJson(), QStringLiteral("Contact removed from the segment"));
}

ApiResponse SegmentsController::snapshot(ApiRequest &request)
{
    const Segment s = repository().snapshot(request.param(QStringLiteral("id")), SegmentRules::parse(request.body),
                                            request.principal.id);
    return ApiResponse::created(s.toJson(), QStringLiteral("Snapshot created"));
}
