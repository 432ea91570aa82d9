#include "server/controllers/templatescontroller.h"

#include "model/inbox/messagetemplate.h"
#include "model/inbox/templaterepository.h"
#include "server/api/queryreader.h"
#include "server/api/schemas.h"

using namespace Schema;

TemplatesController::TemplatesController(const Store &store)
    : m_templates(store)
{
}

void TemplatesController::registerRoutes(Router &router)
{
    const QString tag = QStringLiteral("Templates");
    const auto bind = Router::binder(this);
    const Access read = Access::scoped(QStringLiteral("messages:read"));
    // Registering, changing and deleting templates is configuration: admin-only.
    const Access write = Access::adminScoped(QStringLiteral("messages:write"));
    const QJsonObject tpl = ref(QStringLiteral("MessageTemplate"));
    const QJsonObject body =
        object({{QStringLiteral("name"), string()},
                {QStringLiteral("language"), string()},
                {QStringLiteral("category"), string()},
                {QStringLiteral("body"), string()},
                {QStringLiteral("buttons"),
                 array(object({{QStringLiteral("type"), string()}, {QStringLiteral("text"), string()}}))},
                {QStringLiteral("status"), string()}});

    // GET /api/v1/templates
    router.add("GET", QStringLiteral("/api/v1/templates"), "listTemplates", bind(&TemplatesController::list), read,
               {tag,
                QStringLiteral("The message templates, by name and language"),
                {},
                envelope(array(tpl)),
                {{QStringLiteral("status"), string()}},
                {400, 401, 403, 429}});
    // POST /api/v1/templates
    router.add(
        "POST", QStringLiteral("/api/v1/templates"), "createTemplate", bind(&TemplatesController::create), write,
        {tag, QStringLiteral("Register a template"), body, envelope(tpl), {}, {400, 401, 403, 409, 422, 429}, 201});
    // GET /api/v1/templates/:id
    router.add("GET", QStringLiteral("/api/v1/templates/:id"), "getTemplate", bind(&TemplatesController::get), read,
               {tag, QStringLiteral("A template"), {}, envelope(tpl), {}, {401, 403, 404, 429}});
    // PATCH /api/v1/templates/:id
    router.add(
        "PATCH", QStringLiteral("/api/v1/templates/:id"), "updateTemplate", bind(&TemplatesController::update), write,
        {tag, QStringLiteral("Change a template (partial)"), body, envelope(tpl), {}, {400, 401, 403, 404, 409, 429}});
    // DELETE /api/v1/templates/:id
    router.add("DELETE", QStringLiteral("/api/v1/templates/:id"), "deleteTemplate", bind(&TemplatesController::remove),
               write, {tag, QStringLiteral("Delete a template"), {}, messageOnly(), {}, {401, 403, 404, 429}});
}

QJsonObject TemplatesController::schemas() const
{
    return {{QStringLiteral("MessageTemplate"),
             object({{QStringLiteral("id"), string()},
                     {QStringLiteral("name"), string()},
                     {QStringLiteral("language"), string()},
                     {QStringLiteral("category"), string()},
                     {QStringLiteral("body"), string()},
                     {QStringLiteral("buttons"),
                      array(object({{QStringLiteral("type"), string()}, {QStringLiteral("text"), string()}}))},
                     {QStringLiteral("parameterCount"), integer(0)},
                     {QStringLiteral("status"), string()},
                     {QStringLiteral("createdAt"), string(QStringLiteral("date-time"))},
                     {QStringLiteral("updatedAt"), string(QStringLiteral("date-time"))}})}};
}

ApiResponse TemplatesController::list(ApiRequest &request)
{
    const QString status = QueryReader(request).text(QStringLiteral("status"));
    if (!status.isEmpty() && !TemplateRules::statuses().contains(status))
        throw DomainError::badRequest(
            ModelText(
                QT_TRANSLATE_NOOP("ModelError", "Invalid data: %1 must be one of %2"),
                {ModelTextArg::field(QStringLiteral("status")), TemplateRules::statuses().join(QStringLiteral(", "))}),
            {{QStringLiteral("status"), ModelText(QT_TRANSLATE_NOOP("ModelError", "unknown status"))}});
    QJsonArray items;
    for (const MessageTemplate &t : m_templates.list(status))
        items.append(t.toJson());
    return ApiResponse::ok(items);
}

ApiResponse TemplatesController::get(ApiRequest &request)
{
    return ApiResponse::ok(m_templates.get(request.param(QStringLiteral("id"))).toJson());
}

ApiResponse TemplatesController::create(ApiRequest &request)
{
    return ApiResponse::created(m_templates.create(TemplateRules::parse(request.body, true)).toJson(),
                                QStringLiteral("Template created"));
}

ApiResponse TemplatesController::update(ApiRequest &request)
{
    return ApiResponse::ok(
        m_templates.update(request.param(QStringLiteral("id")), TemplateRules::parse(request.body, false)).toJson(),
        QStringLiteral("Template updated"));
}

ApiResponse TemplatesController::remove(ApiRequest &request)
{
    m_templates.remove(request.param(QStringLiteral("id")));
    return ApiResponse::message(QStringLiteral("Template deleted"));
}
