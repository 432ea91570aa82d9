#include "server/controllers/contactscontroller.h"

#include "model/contacts/contactexport.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/core/jsonwriter.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "server/api/queryreader.h"
#include "server/api/schemas.h"

#include "server/http/httpengine.h"

#include <QJsonArray>
#include <QTimer>

#include <memory>

using namespace Schema;

ContactsController::ContactsController(const Store &store)
    : m_contacts(store)
    , m_segments(store)
    , m_conversations(store)
    , m_deals(store)
    , m_duplicates(store)
    , m_merge(store)
{
}

QJsonObject ContactsController::schemas() const
{
    const QJsonObject address = object({{QStringLiteral("street"), string()},
                                        {QStringLiteral("city"), string()},
                                        {QStringLiteral("country"), string()}});
    const QJsonObject input = object({
        {QStringLiteral("firstName"), string()},
        {QStringLiteral("lastName"), string()},
        {QStringLiteral("email"), nullable(string(QStringLiteral("email")))},
        {QStringLiteral("phone"), nullable(string())},
        {QStringLiteral("company"), string()},
        {QStringLiteral("position"), string()},
        {QStringLiteral("address"), address},
        {QStringLiteral("tags"), array(string())},
        {QStringLiteral("customFields"), object({})},
        {QStringLiteral("source"), string()},
        {QStringLiteral("leadScore"), integer(0, 100)},
    });
    QJsonObject contact = input;
    QJsonObject props = input.value(QStringLiteral("properties")).toObject();
    props.insert(QStringLiteral("id"), string());
    props.insert(QStringLiteral("lastMessageAt"), nullable(string(QStringLiteral("date-time"))));
    props.insert(QStringLiteral("totalMessages"), integer(0));
    props.insert(QStringLiteral("sentiment"), nullable(string()));
    props.insert(QStringLiteral("createdAt"), string(QStringLiteral("date-time")));
    props.insert(QStringLiteral("updatedAt"), string(QStringLiteral("date-time")));
    contact.insert(QStringLiteral("properties"), props);
    const QJsonObject note = object({{QStringLiteral("id"), string()},
                                     {QStringLiteral("contactId"), string()},
                                     {QStringLiteral("content"), string()},
                                     {QStringLiteral("createdBy"), nullable(string())},
                                     {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))}});
    QJsonObject detail = contact;
    QJsonObject detailProps = props;
    detailProps.insert(QStringLiteral("conversations"),
                       array(object({{QStringLiteral("id"), string()},
                                     {QStringLiteral("channel"), string()},
                                     {QStringLiteral("status"), string()},
                                     {QStringLiteral("lastMessage"), nullable(string(QStringLiteral("date-time")))}})));
    detailProps.insert(QStringLiteral("deals"), array(object({{QStringLiteral("id"), string()},
                                                              {QStringLiteral("name"), string()},
                                                              {QStringLiteral("value"), number()},
                                                              {QStringLiteral("stage"), string()}})));
    detailProps.insert(QStringLiteral("notes"), array(ref(QStringLiteral("ContactNote"))));
    detail.insert(QStringLiteral("properties"), detailProps);
    QJsonObject rule = string();
    rule.insert(QStringLiteral("enum"),
                QJsonArray{QStringLiteral("email"), QStringLiteral("phone"), QStringLiteral("name")});
    const QJsonObject match = object({{QStringLiteral("rule"), rule},
                                      {QStringLiteral("value"), string()},
                                      {QStringLiteral("contactIds"), array(string())}});
    const QJsonObject group = object({{QStringLiteral("contacts"), array(ref(QStringLiteral("Contact")))},
                                      {QStringLiteral("matches"), array(match)},
                                      {QStringLiteral("suggestedKeepId"), string()}});
    const QJsonObject counts = object({{QStringLiteral("notes"), integer(0)},
                                       {QStringLiteral("deals"), integer(0)},
                                       {QStringLiteral("tasks"), integer(0)},
                                       {QStringLiteral("conversations"), integer(0)},
                                       {QStringLiteral("segments"), integer(0)},
                                       {QStringLiteral("campaigns"), integer(0)}});
    const QJsonObject merged = object({{QStringLiteral("mergeId"), string()},
                                       {QStringLiteral("contact"), ref(QStringLiteral("Contact"))},
                                       {QStringLiteral("removedIds"), array(string())},
                                       {QStringLiteral("filledFields"), array(string())},
                                       {QStringLiteral("moved"), counts}});
    const QJsonObject undone = object({{QStringLiteral("mergeId"), string()},
                                       {QStringLiteral("contact"), ref(QStringLiteral("Contact"))},
                                       {QStringLiteral("restored"), array(ref(QStringLiteral("Contact")))},
                                       {QStringLiteral("movedBack"), counts}});
    return {{QStringLiteral("ContactInput"), input},  {QStringLiteral("DuplicateGroup"), group},
            {QStringLiteral("ContactMerge"), merged}, {QStringLiteral("ContactMergeUndone"), undone},
            {QStringLiteral("Contact"), contact},     {QStringLiteral("ContactDetail"), detail},
            {QStringLiteral("ContactNote"), note}};
}

void ContactsController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Contacts");
    const auto bind = Router::binder(this);
    const Access read = Access::scoped(QStringLiteral("contacts:read"));
    const Access write = Access::scoped(QStringLiteral("contacts:write"));
    const QJsonObject contact = ref(QStringLiteral("Contact"));

    // GET /api/v1/contacts
    router.add("GET", QStringLiteral("/api/v1/contacts"), "listContacts", bind(&ContactsController::list), read,
               {tag,
                QStringLiteral("List contacts"),
                {},
                pageOf(contact),
                {{QStringLiteral("page"), integer(1)},
                 {QStringLiteral("limit"), integer(1, 100)},
                 {QStringLiteral("search"), string()},
                 {QStringLiteral("tag"), string()},
                 {QStringLiteral("tags"), string()},
                 {QStringLiteral("source"), string()},
                 {QStringLiteral("createdAfter"), string(QStringLiteral("date"))},
                 {QStringLiteral("createdBefore"), string(QStringLiteral("date"))},
                 {QStringLiteral("segmentId"), string()},
                 {QStringLiteral("sort"), string()}},
                {400, 401, 403, 404, 429}});
    // POST /api/v1/contacts
    router.add("POST", QStringLiteral("/api/v1/contacts"), "createContact", bind(&ContactsController::create), write,
               {tag,
                QStringLiteral("Create a contact"),
                ref(QStringLiteral("ContactInput")),
                envelope(contact),
                {},
                {400, 401, 403, 409, 422, 429},
                201});
    // GET /api/v1/contacts/duplicates
    router.add(
        "GET", QStringLiteral("/api/v1/contacts/duplicates"), "listContactDuplicates",
        bind(&ContactsController::duplicates), read,
        {tag,
         QStringLiteral("Groups of contacts that look like one person (same e-mail, phone, or name and company)"),
         {},
         pageOf(ref(QStringLiteral("DuplicateGroup"))),
         {{QStringLiteral("page"), integer(1)}, {QStringLiteral("limit"), integer(1, 100)}},
         {400, 401, 403, 429}});
    // POST /api/v1/contacts/:id/merge
    router.add("POST", QStringLiteral("/api/v1/contacts/:id/merge"), "mergeContacts", bind(&ContactsController::merge),
               write,
               {tag,
                QStringLiteral("Merge other contacts into this one (undo within 7 days)"),
                object({{QStringLiteral("otherIds"), array(string())}}, {QStringLiteral("otherIds")}),
                envelope(ref(QStringLiteral("ContactMerge"))),
                {},
                {400, 401, 403, 404, 409, 422, 429}});
    // POST /api/v1/contacts/merges/:mergeId/undo
    router.add("POST", QStringLiteral("/api/v1/contacts/merges/:mergeId/undo"), "undoContactMerge",
               bind(&ContactsController::undoMerge), write,
               {tag,
                QStringLiteral("Undo a merge: the removed contacts and their rows come back"),
                {},
                envelope(ref(QStringLiteral("ContactMergeUndone"))),
                {},
                {401, 403, 404, 409, 429}});
    // GET /api/v1/contacts/:id
    router.add("GET", QStringLiteral("/api/v1/contacts/:id"), "getContact", bind(&ContactsController::get), read,
               {tag,
                QStringLiteral("Contact detail with conversations, deals and notes"),
                {},
                envelope(ref(QStringLiteral("ContactDetail"))),
                {},
                {401, 403, 404, 429}});
    // PUT /api/v1/contacts/:id and PATCH /api/v1/contacts/:id (both partial)
    for (const QByteArray &method : {QByteArrayLiteral("PUT"), QByteArrayLiteral("PATCH")}) {
        router.add(method, QStringLiteral("/api/v1/contacts/:id"), method == "PUT" ? "updateContact" : "patchContact",
                   bind(&ContactsController::update), write,
                   {tag,
                    QStringLiteral("Update a contact (partial)"),
                    ref(QStringLiteral("ContactInput")),
                    envelope(contact),
                    {},
                    {400, 401, 403, 404, 409, 422, 429}});
    }
    // GET /api/v1/contacts/export
    RouteDoc exportDoc{tag,
                       QStringLiteral("Export the contacts the list's filters find as CSV, streamed"),
                       {},
                       object({}),
                       {{QStringLiteral("search"), string()},
                        {QStringLiteral("tag"), string()},
                        {QStringLiteral("tags"), string()},
                        {QStringLiteral("source"), string()},
                        {QStringLiteral("createdAfter"), string(QStringLiteral("date"))},
                        {QStringLiteral("createdBefore"), string(QStringLiteral("date"))},
                        {QStringLiteral("segmentId"), string()},
                        {QStringLiteral("sort"), string()}},
                       {400, 401, 403, 404, 429}};
    exportDoc.contentType = QStringLiteral("text/csv");
    exportDoc.description =
        QStringLiteral("The filters of listContacts (search, tag, source, createdAfter, createdBefore, "
                       "segmentId, sort); every page of them, read in one snapshot.");
    router.add("GET", QStringLiteral("/api/v1/contacts/export"), "exportContacts", bind(&ContactsController::exportCsv),
               read, exportDoc);
    // DELETE /api/v1/contacts/:id
    router.add("DELETE", QStringLiteral("/api/v1/contacts/:id"), "deleteContact", bind(&ContactsController::remove),
               write, {tag, QStringLiteral("Delete a contact"), {}, messageOnly(), {}, {401, 403, 404, 429}});
    // POST /api/v1/contacts/:id/tags
    router.add("POST", QStringLiteral("/api/v1/contacts/:id/tags"), "addContactTags",
               bind(&ContactsController::addTags), write,
               {tag,
                QStringLiteral("Add tags (idempotent)"),
                object({{QStringLiteral("tags"), array(string())}}, {QStringLiteral("tags")}),
                envelope(contact),
                {},
                {400, 401, 403, 404, 422, 429}});
    // DELETE /api/v1/contacts/:id/tags/:tagName
    router.add("DELETE", QStringLiteral("/api/v1/contacts/:id/tags/:tagName"), "removeContactTag",
               bind(&ContactsController::removeTag), write,
               {tag, QStringLiteral("Remove a tag"), {}, envelope(contact), {}, {401, 403, 404, 429}});
    // POST /api/v1/contacts/:id/notes
    router.add("POST", QStringLiteral("/api/v1/contacts/:id/notes"), "addContactNote",
               bind(&ContactsController::addNote), write,
               {tag,
                QStringLiteral("Add a note"),
                object({{QStringLiteral("content"), string()}}, {QStringLiteral("content")}),
                envelope(ref(QStringLiteral("ContactNote"))),
                {},
                {400, 401, 403, 404, 422, 429},
                201});
}

namespace {
// sort: a field, "-" before it for descending; newest first when absent.
ContactSort sortOf(const ApiRequest &request)
{
    static const QList<std::pair<QString, ContactSort>> sorts = {
        {QStringLiteral("-createdAt"), ContactSort::Newest},
        {QStringLiteral("createdAt"), ContactSort::Oldest},
        {QStringLiteral("name"), ContactSort::NameAscending},
        {QStringLiteral("-name"), ContactSort::NameDescending},
        {QStringLiteral("company"), ContactSort::CompanyAscending},
        {QStringLiteral("-company"), ContactSort::CompanyDescending}};
    QStringList names;
    for (const auto &s : sorts)
        names << s.first;
    const QString given = QueryReader(request).oneOf(QStringLiteral("sort"), names);
    for (const auto &s : sorts) {
        if (s.first == given)
            return s.second;
    }
    return ContactSort::Newest;
}
} // namespace

ContactQuery ContactsController::queryOf(const ApiRequest &request)
{
    const QueryReader query(request);
    ContactQuery q;
    q.search = query.text(QStringLiteral("search")).left(200);
    q.tags = query.list({QStringLiteral("tag"), QStringLiteral("tags")});
    q.source = query.text(QStringLiteral("source"));
    q.createdAfter = query.dateTime(QStringLiteral("createdAfter"));
    q.createdBefore = query.dateTime(QStringLiteral("createdBefore"));
    q.sort = sortOf(request);
    // segmentId: only the members of that segment (404 when it does not exist).
    if (query.has(QStringLiteral("segmentId"))) {
        const SegmentRules::Sql members = m_segments.membership(query.text(QStringLiteral("segmentId")));
        q.extraWhere = members.where;
        q.extraValues = members.values;
    }
    return q;
}

ApiResponse ContactsController::list(ApiRequest &request)
{
    const QueryReader::Paging paging = QueryReader(request).paging();
    ContactQuery q = queryOf(request);
    q.page = paging.page;
    q.limit = paging.limit;
    const ContactPage page = m_contacts.list(q);
    JsonWriter items;
    items.beginArray();
    for (const Contact &c : page.items) {
        items.beginObject();
        c.writeFields(items);
        items.endObject();
    }
    items.endArray();
    return ApiResponse::pageJson(items.bytes(), q.page, q.limit, page.total);
}

ApiResponse ContactsController::create(ApiRequest &request)
{
    const Contact c = m_contacts.create(ContactRules::parse(request.body), request.principal.id);
    return ApiResponse::created(c.toJson(), QStringLiteral("Contact created"));
}

ApiResponse ContactsController::get(ApiRequest &request)
{
    const ReadTransaction snapshot; // the contact, its conversations, deals and notes as of one moment
    const QString id = request.param(QStringLiteral("id"));
    const std::optional<Contact> found = m_contacts.find(id);
    if (!found) {
        // A contact merged into another: still 404, saying where it went.
        const QString into = m_merge.mergedInto(id);
        if (!into.isEmpty())
            throw DomainError(DomainError::NotFound, QStringLiteral("NOT_FOUND"),
                              ModelText(QT_TRANSLATE_NOOP("ModelError", "Contact %1 was merged into %2"), {id, into}),
                              QJsonObject{{QStringLiteral("mergedInto"), into}});
    }
    const Contact c = found ? *found : m_contacts.get(id);
    JsonWriter data;
    data.beginObject();
    c.writeFields(data);
    data.key("conversations").value(m_conversations.forContact(c.id));
    data.key("deals").value(m_deals.forContact(c.id));
    data.key("notes").beginArray();
    for (const ContactNote &n : m_contacts.notes(c))
        n.write(data);
    data.endArray();
    data.endObject();
    return ApiResponse::okJson(data.bytes());
}

ApiResponse ContactsController::update(ApiRequest &request)
{
    const Contact c =
        m_contacts.update(request.param(QStringLiteral("id")), ContactRules::parse(request.body), request.principal.id);
    return ApiResponse::ok(c.toJson(), QStringLiteral("Contact updated"));
}

ApiResponse ContactsController::remove(ApiRequest &request)
{
    m_contacts.remove(request.param(QStringLiteral("id")), request.principal.id);
    return ApiResponse::message(QStringLiteral("Contact deleted"));
}

ApiResponse ContactsController::addTags(ApiRequest &request)
{
    const QStringList tags = FieldReader(request.body).requiredWords(QStringLiteral("tags"), 64);
    const Contact c = m_contacts.addTags(request.param(QStringLiteral("id")), tags, request.principal.id);
    return ApiResponse::ok(c.toJson(), QStringLiteral("Tags added"));
}

ApiResponse ContactsController::removeTag(ApiRequest &request)
{
    const Contact c = m_contacts.removeTag(request.param(QStringLiteral("id")),
                                           request.param(QStringLiteral("tagName")), request.principal.id);
    return ApiResponse::ok(c.toJson(), QStringLiteral("Tag removed"));
}

ApiResponse ContactsController::addNote(ApiRequest &request)
{
    const QString content = FieldReader(request.body).requiredString(QStringLiteral("content"));
    const ContactNote note = m_contacts.addNote(request.param(QStringLiteral("id")), content, request.principal.id);
    return ApiResponse::created(note.toJson(), QStringLiteral("Note added"));
}

ApiResponse ContactsController::duplicates(ApiRequest &request)
{
    const QueryReader::Paging paging = QueryReader(request).paging();
    QVector<DuplicateGroup> groups = m_duplicates.groups();
    const qint64 total = groups.size();
    const qint64 from = qint64(paging.page - 1) * paging.limit;
    groups = from >= total ? QVector<DuplicateGroup>() : groups.mid(from, paging.limit);
    m_duplicates.load(groups);
    QJsonArray items;
    for (const DuplicateGroup &g : std::as_const(groups)) {
        QJsonArray contacts, matches;
        for (const Contact &c : g.contacts)
            contacts.append(c.toJson());
        for (const DuplicateMatch &m : g.matches)
            matches.append(m.toJson());
        items.append(QJsonObject{{QStringLiteral("contacts"), contacts},
                                 {QStringLiteral("matches"), matches},
                                 {QStringLiteral("suggestedKeepId"), g.suggestedKeepId()}});
    }
    return ApiResponse::page(items, paging.page, paging.limit, total);
}

ApiResponse ContactsController::merge(ApiRequest &request)
{
    const QStringList otherIds = FieldReader(request.body).requiredStringArray(QStringLiteral("otherIds"));
    const MergeResult result = m_merge.merge(request.param(QStringLiteral("id")), otherIds, request.principal.id);
    return ApiResponse::ok(result.toJson(), QStringLiteral("Contacts merged"));
}

ApiResponse ContactsController::undoMerge(ApiRequest &request)
{
    const MergeUndone undone = m_merge.undo(request.param(QStringLiteral("mergeId")), request.principal.id);
    QJsonArray restored;
    for (const Contact &c : undone.restored)
        restored.append(c.toJson());
    return ApiResponse::ok(QJsonObject{{QStringLiteral("mergeId"), undone.mergeId},
                                       {QStringLiteral("contact"), undone.kept.toJson()},
                                       {QStringLiteral("restored"), restored},
                                       {QStringLiteral("movedBack"), undone.movedBack.toJson()}},
                           QStringLiteral("Merge undone"));
}

ApiResponse ContactsController::exportCsv(ApiRequest &request)
{
    // Which contacts, in which order, is read now (one snapshot); the rows are read and written a
    // chunk at a time while the client takes them, so that a large export holds neither a
    // transaction nor the whole file in memory.
    auto exporter = std::make_shared<ContactExport>(m_contacts.store(), queryOf(request));
    ApiResponse r;
    r.status = 200;
    r.headers.emplaceBack("Content-Type", "text/csv; charset=utf-8");
    r.headers.emplaceBack("Content-Disposition", "attachment; filename=\"contacts-" +
                                                     m_contacts.store().now().date().toString(Qt::ISODate).toLatin1() +
                                                     ".csv\"");
    r.headers.emplaceBack("Cache-Control", "private, no-store");
    r.headers.emplaceBack("X-Total-Count", QByteArray::number(exporter->total()));
    r.stream = [exporter](const HttpResponder &responder, HttpResponse head) {
        const HttpStream stream = responder.stream(std::move(head));
        auto pump = std::make_shared<std::function<void()>>();
        *pump = [exporter, stream, weak = std::weak_ptr<std::function<void()>>(pump)] {
            const auto self = weak.lock();
            if (!self || !stream.isOpen())
                return;
            // Write while the client keeps up; else look again shortly.
            while (stream.backlog() < 256 * 1024) {
                if (exporter->atEnd()) {
                    stream.end();
                    return;
                }
                try {
                    if (!stream.write(exporter->next()))
                        return;
                } catch (const std::exception &e) {
                    qWarning("contacts export stopped: %s", e.what());
                    stream.end(); // a client sees a body cut short: the chunked framing has no end marker
                    return;
                }
            }
            QTimer::singleShot(5, [self] { (*self)(); });
        };
        // The pump keeps itself alive through the timers it queues; it ends when the stream does.
        QTimer::singleShot(0, [pump] { (*pump)(); });
    };
    return r;
}
