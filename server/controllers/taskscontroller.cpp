#include "server/controllers/taskscontroller.h"

#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "server/api/queryreader.h"
#include "server/api/schemas.h"

#include <QJsonArray>

using namespace Schema;

namespace {
QStringList enumList(const QueryReader &query, const QString &name, const QStringList &allowed,
                     QString (*normalize)(const QString &) = nullptr)
{
    QStringList out;
    for (const QString &raw : query.list({name})) {
        const QString v = normalize ? normalize(raw) : raw.trimmed().toLower();
        if (!allowed.contains(v)) {
            QStringList accepted = allowed;
            if (name == QLatin1String("status"))
                accepted << QStringLiteral("todo") << QStringLiteral("done");
            QueryReader::refuse(name, FieldReader::oneOf(accepted));
        }
        if (!out.contains(v))
            out << v;
    }
    return out;
}

QString stringParam(const QueryReader &query, const QString &name)
{
    return query.text(name).trimmed().left(200);
}
} // namespace

TasksController::TasksController(const Store &store, const QTimeZone &timeZone)
    : m_tasks(store, timeZone)
{
}

QJsonObject TasksController::schemas() const
{
    const QJsonObject reminder = object({{QStringLiteral("enabled"), boolean()},
                                         {QStringLiteral("before"), integer(0, 525600)},
                                         {QStringLiteral("sentAt"), nullable(string(QStringLiteral("date-time")))}});
    QJsonObject reminderDoc = reminder;
    reminderDoc.insert(QStringLiteral("description"),
                       QStringLiteral("before: minutes before the due time (an all-day task: before the start of "
                                      "its day in the tasks time zone). sentAt is set by the service."));
    const QJsonObject recurrence =
        object({{QStringLiteral("frequency"),
                 QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                             {QStringLiteral("enum"), QJsonArray{"daily", "weekly", "monthly", "yearly"}}}},
                {QStringLiteral("interval"), integer(1, 1000)},
                {QStringLiteral("daysOfWeek"),
                 array(QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                   {QStringLiteral("enum"), QJsonArray::fromStringList(TaskRules::Days)}})},
                {QStringLiteral("endDate"), nullable(string(QStringLiteral("date")))}},
               {QStringLiteral("frequency")});
    auto enumOf = [](const QStringList &values) {
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                           {QStringLiteral("enum"), QJsonArray::fromStringList(values)}};
    };
    const QJsonObject input = object({
        {QStringLiteral("title"), string()},
        {QStringLiteral("description"), string()},
        {QStringLiteral("type"), enumOf(TaskRules::Types)},
        {QStringLiteral("status"), enumOf(TaskRules::Statuses)},
        {QStringLiteral("priority"), enumOf(TaskRules::Priorities)},
        {QStringLiteral("dueDate"), nullable(string())},
        {QStringLiteral("assignedTo"), nullable(string())},
        {QStringLiteral("contactId"), nullable(string())},
        {QStringLiteral("dealId"), nullable(string())},
        {QStringLiteral("reminder"), nullable(ref(QStringLiteral("TaskReminder")))},
        {QStringLiteral("recurrence"), nullable(ref(QStringLiteral("TaskRecurrence")))},
    });
    const QJsonObject named = object({{QStringLiteral("id"), string()}, {QStringLiteral("name"), string()}});
    QJsonObject props = input.value(QStringLiteral("properties")).toObject();
    props.insert(QStringLiteral("id"), string());
    props.insert(QStringLiteral("assignedTo"), nullable(named));
    props.insert(QStringLiteral("contact"), nullable(named));
    props.insert(QStringLiteral("deal"), nullable(named));
    props.insert(QStringLiteral("reminder"), ref(QStringLiteral("TaskReminder")));
    props.insert(QStringLiteral("isOverdue"), boolean());
    props.insert(QStringLiteral("previousTaskId"), nullable(string()));
    props.insert(QStringLiteral("nextTaskId"), nullable(string()));
    props.insert(QStringLiteral("completedAt"), nullable(string(QStringLiteral("date-time"))));
    props.insert(QStringLiteral("completedBy"), nullable(string()));
    props.insert(QStringLiteral("createdBy"), nullable(string()));
    props.insert(QStringLiteral("createdAt"), string(QStringLiteral("date-time")));
    props.insert(QStringLiteral("updatedAt"), string(QStringLiteral("date-time")));
    const QJsonObject task = object(props);
    QJsonObject detailProps = props;
    detailProps.insert(QStringLiteral("assignedTo"), nullable(object({{QStringLiteral("id"), string()},
                                                                      {QStringLiteral("name"), string()},
                                                                      {QStringLiteral("email"), string()}})));
    detailProps.insert(QStringLiteral("contact"), nullable(object({{QStringLiteral("id"), string()},
                                                                   {QStringLiteral("name"), string()},
                                                                   {QStringLiteral("firstName"), string()},
                                                                   {QStringLiteral("lastName"), string()},
                                                                   {QStringLiteral("phone"), nullable(string())}})));
    detailProps.insert(QStringLiteral("deal"), nullable(object({{QStringLiteral("id"), string()},
                                                                {QStringLiteral("name"), string()},
                                                                {QStringLiteral("value"), number()}})));
    detailProps.insert(QStringLiteral("notes"), array(ref(QStringLiteral("TaskNote"))));
    detailProps.insert(QStringLiteral("nextTask"), ref(QStringLiteral("Task")));
    const QJsonObject note = object({{QStringLiteral("id"), string()},
                                     {QStringLiteral("taskId"), string()},
                                     {QStringLiteral("content"), string()},
                                     {QStringLiteral("createdBy"), nullable(string())},
                                     {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))}});
    return {{QStringLiteral("TaskInput"), input},
            {QStringLiteral("Task"), task},
            {QStringLiteral("TaskDetail"), object(detailProps)},
            {QStringLiteral("TaskNote"), note},
            {QStringLiteral("TaskReminder"), reminderDoc},
            {QStringLiteral("TaskRecurrence"), recurrence}};
}

void TasksController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Tasks");
    const auto bind = Router::binder(this);
    const Access read = Access::scoped(QStringLiteral("tasks:read"));
    const Access write = Access::scoped(QStringLiteral("tasks:write"));
    const QJsonObject task = ref(QStringLiteral("Task"));
    const QJsonObject detail = ref(QStringLiteral("TaskDetail"));
    const QJsonObject paging{{QStringLiteral("page"), integer(1)}, {QStringLiteral("limit"), integer(1, 100)}};

    // GET /api/v1/tasks
    QJsonObject listParams = paging;
    listParams.insert(QStringLiteral("status"), string());
    listParams.insert(QStringLiteral("assignedTo"), string());
    listParams.insert(QStringLiteral("priority"), string());
    listParams.insert(QStringLiteral("type"), string());
    listParams.insert(QStringLiteral("dueDate"), string(QStringLiteral("date")));
    listParams.insert(QStringLiteral("dueBefore"), string());
    listParams.insert(QStringLiteral("dueAfter"), string());
    listParams.insert(QStringLiteral("contactId"), string());
    listParams.insert(QStringLiteral("dealId"), string());
    router.add("GET", QStringLiteral("/api/v1/tasks"), "listTasks", bind(&TasksController::list), read,
               {tag,
                QStringLiteral("List tasks (by due date, undated last)"),
                {},
                Schema::pageOf(task),
                listParams,
                {400, 401, 403, 429}});
    // POST /api/v1/tasks
    router.add("POST", QStringLiteral("/api/v1/tasks"), "createTask", bind(&TasksController::create), write,
               {tag,
                QStringLiteral("Create a task"),
                ref(QStringLiteral("TaskInput")),
                envelope(detail),
                {},
                {400, 401, 403, 422, 429},
                201});
    // GET /api/v1/tasks/today
    router.add("GET", QStringLiteral("/api/v1/tasks/today"), "listTasksDueToday", bind(&TasksController::today), read,
               {tag,
                QStringLiteral("Tasks due today in the tasks time zone (not cancelled; open ones first)"),
                {},
                Schema::pageOf(task),
                paging,
                {400, 401, 403, 429}});
    // GET /api/v1/tasks/overdue
    router.add("GET", QStringLiteral("/api/v1/tasks/overdue"), "listOverdueTasks", bind(&TasksController::overdue),
               read,
               {tag,
                QStringLiteral("Open tasks past their due time (all-day tasks: from the next day)"),
                {},
                Schema::pageOf(task),
                paging,
                {400, 401, 403, 429}});
    // GET /api/v1/tasks/:id
    router.add("GET", QStringLiteral("/api/v1/tasks/:id"), "getTask", bind(&TasksController::get), read,
               {tag,
                QStringLiteral("Task detail with assignee, contact, deal and notes"),
                {},
                envelope(detail),
                {},
                {401, 403, 404, 429}});
    // PUT /api/v1/tasks/:id and PATCH /api/v1/tasks/:id (both partial)
    for (const QByteArray &method : {QByteArrayLiteral("PUT"), QByteArrayLiteral("PATCH")}) {
        router.add(method, QStringLiteral("/api/v1/tasks/:id"), method == "PUT" ? "updateTask" : "patchTask",
                   bind(&TasksController::update), write,
                   {tag,
                    QStringLiteral("Update a task (partial; a status goes through the transition table)"),
                    ref(QStringLiteral("TaskInput")),
                    envelope(detail),
                    {},
                    {400, 401, 403, 404, 409, 422, 429}});
    }
    // DELETE /api/v1/tasks/:id
    router.add("DELETE", QStringLiteral("/api/v1/tasks/:id"), "deleteTask", bind(&TasksController::remove), write,
               {tag, QStringLiteral("Delete a task and its notes"), {}, messageOnly(), {}, {401, 403, 404, 429}});
    // PATCH /api/v1/tasks/:id/status
    router.add(
        "PATCH", QStringLiteral("/api/v1/tasks/:id/status"), "changeTaskStatus", bind(&TasksController::setStatus),
        write,
        {tag,
         QStringLiteral("Change the status (transition table); an optional note is added to the notes"),
         object({{QStringLiteral("status"), string()}, {QStringLiteral("note"), string()}}, {QStringLiteral("status")}),
         envelope(detail),
         {},
         {400, 401, 403, 404, 409, 422, 429}});
    // PATCH /api/v1/tasks/:id/assign
    router.add("PATCH", QStringLiteral("/api/v1/tasks/:id/assign"), "assignTask", bind(&TasksController::assign), write,
               {tag,
                QStringLiteral("Assign to a user (null unassigns)"),
                object({{QStringLiteral("assignedTo"), nullable(string())}}, {QStringLiteral("assignedTo")}),
                envelope(detail),
                {},
                {400, 401, 403, 404, 422, 429}});
    // POST /api/v1/tasks/:id/notes
    router.add("POST", QStringLiteral("/api/v1/tasks/:id/notes"), "addTaskNote", bind(&TasksController::addNote), write,
               {tag,
                QStringLiteral("Add a note"),
                object({{QStringLiteral("content"), string()}}, {QStringLiteral("content")}),
                envelope(ref(QStringLiteral("TaskNote"))),
                {},
                {400, 401, 403, 404, 422, 429},
                201});
}

QJsonObject TasksController::toResponse(const Task &t, bool detail) const
{
    QJsonObject o = t.toJson();
    const TaskLinks links = m_tasks.links(t);
    QJsonValue assigned;
    if (links.assignee) {
        QJsonObject u{{QStringLiteral("id"), links.assignee->id}, {QStringLiteral("name"), links.assignee->name}};
        if (detail)
            u.insert(QStringLiteral("email"), links.assignee->email);
        assigned = u;
    }
    o.insert(QStringLiteral("assignedTo"), assigned);
    QJsonValue contact;
    if (links.contact) {
        QJsonObject c{{QStringLiteral("id"), links.contact->id},
                      {QStringLiteral("name"), links.contact->displayName()}};
        if (detail) {
            c.insert(QStringLiteral("firstName"), links.contact->firstName);
            c.insert(QStringLiteral("lastName"), links.contact->lastName);
            c.insert(QStringLiteral("phone"), links.contact->phone ? QJsonValue(*links.contact->phone) : QJsonValue());
        }
        contact = c;
    }
    o.insert(QStringLiteral("contact"), contact);
    QJsonValue deal;
    if (links.deal) {
        QJsonObject d{{QStringLiteral("id"), links.deal->id}, {QStringLiteral("name"), links.deal->name}};
        if (detail)
            d.insert(QStringLiteral("value"), links.deal->value);
        deal = d;
    }
    o.insert(QStringLiteral("deal"), deal);
    o.insert(QStringLiteral("isOverdue"), m_tasks.isOverdue(t));
    return o;
}

QJsonObject TasksController::detail(const Task &t) const
{
    QJsonObject data = toResponse(t, true);
    QJsonArray notes;
    for (const TaskNote &n : m_tasks.notes(t.id))
        notes.append(n.toJson());
    data.insert(QStringLiteral("notes"), notes);
    return data;
}

ApiResponse TasksController::pageOf(const TaskPage &page, int pageNumber, int limit) const
{
    QJsonArray items;
    for (const Task &t : page.items)
        items.append(toResponse(t, false));
    return ApiResponse::page(items, pageNumber, limit, page.total);
}

ApiResponse TasksController::list(ApiRequest &request)
{
    const QueryReader query(request);
    const QueryReader::Paging paging = query.paging();
    TaskQuery q;
    q.page = paging.page;
    q.limit = paging.limit;
    q.statuses = enumList(query, QStringLiteral("status"), TaskRules::Statuses, &TaskRules::normalizeStatusFilter);
    q.priorities = enumList(query, QStringLiteral("priority"), TaskRules::Priorities);
    q.types = enumList(query, QStringLiteral("type"), TaskRules::Types);
    q.assignedTo = stringParam(query, QStringLiteral("assignedTo"));
    if (q.assignedTo == QLatin1String("me") && request.principal.kind == Principal::User)
        q.assignedTo = request.principal.id;
    q.contactId = stringParam(query, QStringLiteral("contactId"));
    q.dealId = stringParam(query, QStringLiteral("dealId"));
    if (const std::optional<QDate> day = query.date(QStringLiteral("dueDate")))
        q.dueOn = *day;
    q.dueAfter = query.instant(QStringLiteral("dueAfter"), m_tasks.timeZone());
    q.dueBefore = query.instant(QStringLiteral("dueBefore"), m_tasks.timeZone());
    return pageOf(m_tasks.list(q), q.page, q.limit);
}

ApiResponse TasksController::create(ApiRequest &request)
{
    const Task t = m_tasks.create(TaskRules::parse(request.body), request.principal.id, true);
    return ApiResponse::created(detail(t), QStringLiteral("Task created"));
}

ApiResponse TasksController::today(ApiRequest &request)
{
    const QueryReader::Paging paging = QueryReader(request).paging(100, 100);
    return pageOf(m_tasks.dueToday(paging.page, paging.limit), paging.page, paging.limit);
}

ApiResponse TasksController::overdue(ApiRequest &request)
{
    const QueryReader::Paging paging = QueryReader(request).paging(100, 100);
    return pageOf(m_tasks.overdue(paging.page, paging.limit), paging.page, paging.limit);
}

ApiResponse TasksController::get(ApiRequest &request)
{
    return ApiResponse::ok(detail(m_tasks.get(request.param(QStringLiteral("id")))));
}

ApiResponse TasksController::update(ApiRequest &request)
{
    const TaskStatusResult r =
        m_tasks.update(request.param(QStringLiteral("id")), TaskRules::parse(request.body), request.principal.id);
    QJsonObject data = detail(r.task);
    if (r.next)
        data.insert(QStringLiteral("nextTask"), toResponse(*r.next, false));
    return ApiResponse::ok(data, QStringLiteral("Task updated"));
}

ApiResponse TasksController::remove(ApiRequest &request)
{
    m_tasks.remove(request.param(QStringLiteral("id")), request.principal.id);
    return ApiResponse::message(QStringLiteral("Task deleted"));
}

ApiResponse TasksController::setStatus(ApiRequest &request)
{
    const FieldReader reader(request.body);
    const QString status = reader.requiredString(QStringLiteral("status"));
    const QString note = reader.optionalString(QStringLiteral("note"));
    const TaskStatusResult r =
        m_tasks.setStatus(request.param(QStringLiteral("id")), status, note, request.principal.id);
    QJsonObject data = detail(r.task);
    if (r.next)
        data.insert(QStringLiteral("nextTask"), toResponse(*r.next, false));
    return ApiResponse::ok(data, r.changed ? QStringLiteral("Task status changed to %1").arg(r.task.status)
                                           : QStringLiteral("Task status unchanged"));
}

ApiResponse TasksController::assign(ApiRequest &request)
{
    const FieldReader reader(request.body);
    const QString key = QStringLiteral("assignedTo");
    if (!reader.has(key))
        throw DomainError::missingFields(
            {{key, ModelText(QT_TRANSLATE_NOOP("ModelError", "is required (null unassigns)"))}});
    const QString assignee =
        reader.optionalString(key, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a user id or null")));
    const Task t = m_tasks.assign(request.param(QStringLiteral("id")), assignee, request.principal.id);
    return ApiResponse::ok(detail(t), t.assignedTo.isEmpty() ? QStringLiteral("Task unassigned")
                                                             : QStringLiteral("Task assigned"));
}

ApiResponse TasksController::addNote(ApiRequest &request)
{
    const QString content = FieldReader(request.body).requiredString(QStringLiteral("content"));
    const TaskNote note = m_tasks.addNote(request.param(QStringLiteral("id")), content, request.principal.id);
    return ApiResponse::created(note.toJson(), QStringLiteral("Note added"));
}
