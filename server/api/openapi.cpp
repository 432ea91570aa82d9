#include "server/api/openapi.h"

#include "server/api/router.h"
#include "server/api/schemas.h"
#include "server/http/httptypes.h"

#include <QJsonArray>
#include <QRegularExpression>

QJsonObject OpenApi::document(const Router &router, const QJsonObject &areaSchemas, const QString &serverUrl)
{
    QJsonObject paths;
    for (const Route &route : router.routes()) {
        QString path = route.pattern;
        static const QRegularExpression param(QStringLiteral(":([A-Za-z]+)"));
        path.replace(param, QStringLiteral("{\\1}"));
        QJsonObject operation{{QStringLiteral("operationId"), route.operationId},
                              {QStringLiteral("summary"), route.doc.summary},
                              {QStringLiteral("tags"), QJsonArray{route.doc.tag}}};
        if (!route.doc.description.isEmpty())
            operation.insert(QStringLiteral("description"), route.doc.description);
        QJsonArray parameters;
        auto it = param.globalMatch(route.pattern);
        while (it.hasNext()) {
            parameters.append(QJsonObject{{QStringLiteral("name"), it.next().captured(1)},
                                          {QStringLiteral("in"), QStringLiteral("path")},
                                          {QStringLiteral("required"), true},
                                          {QStringLiteral("schema"), Schema::string()}});
        }
        for (auto q = route.doc.queryParams.begin(); q != route.doc.queryParams.end(); ++q) {
            parameters.append(QJsonObject{{QStringLiteral("name"), q.key()},
                                          {QStringLiteral("in"), QStringLiteral("query")},
                                          {QStringLiteral("schema"), q.value()}});
        }
        if (!parameters.isEmpty())
            operation.insert(QStringLiteral("parameters"), parameters);
        if (!route.doc.requestSchema.isEmpty()) {
            QJsonObject content{{route.doc.requestContentType.isEmpty() ? QStringLiteral("application/json")
                                                                        : route.doc.requestContentType,
                                 QJsonObject{{QStringLiteral("schema"), route.doc.requestSchema}}}};
            for (const QString &type : route.doc.otherRequestContentTypes)
                content.insert(type, QJsonObject{{QStringLiteral("schema"), Schema::string()}});
            operation.insert(QStringLiteral("requestBody"),
                             QJsonObject{{QStringLiteral("required"), true}, {QStringLiteral("content"), content}});
        }
        QJsonObject responses{
            {QString::number(route.doc.successStatus),
             QJsonObject{{QStringLiteral("description"), QStringLiteral("Success")},
                         {QStringLiteral("content"),
                          QJsonObject{{route.doc.contentType,
                                       QJsonObject{{QStringLiteral("schema"), route.doc.responseSchema}}}}}}}};
        // Every route refuses text no database stores (a NUL, half a surrogate pair) in a path or
        // query parameter before its handler runs: 400 VALIDATION_ERROR (docs/api.md, "General").
        QList<int> errorStatuses = route.doc.errorStatuses;
        if (!errorStatuses.contains(400))
            errorStatuses.prepend(400);
        // A write may meet a full disk under the database (507 STORAGE_FULL, docs/api.md).
        if (route.method != "GET" && route.method != "HEAD" && !errorStatuses.contains(507))
            errorStatuses.append(507);
        for (int status : errorStatuses) {
            responses.insert(
                QString::number(status),
                QJsonObject{
                    {QStringLiteral("description"), QString::fromLatin1(httpReasonPhrase(status))},
                    {QStringLiteral("content"),
                     QJsonObject{{QStringLiteral("application/json"),
                                  QJsonObject{{QStringLiteral("schema"), Schema::ref(QStringLiteral("Error"))}}}}}});
        }
        operation.insert(QStringLiteral("responses"), responses);
        if (route.access.kind == Access::Public)
            operation.insert(QStringLiteral("security"), QJsonArray());
        else if (!route.access.scope.isEmpty())
            operation.insert(QStringLiteral("x-required-scope"), route.access.scope);
        else
            operation.insert(QStringLiteral("x-requires-user-token"), true);
        if (route.access.admin)
            operation.insert(QStringLiteral("x-required-role"), QStringLiteral("admin"));
        QJsonObject item = paths.value(path).toObject();
        item.insert(QString::fromLatin1(route.method).toLower(), operation);
        paths.insert(path, item);
    }

    QJsonObject schemas = areaSchemas;
    schemas.insert(QStringLiteral("Pagination"), Schema::object({{QStringLiteral("page"), Schema::integer(1)},
                                                                 {QStringLiteral("limit"), Schema::integer(1)},
                                                                 {QStringLiteral("total"), Schema::integer(0)},
                                                                 {QStringLiteral("totalPages"), Schema::integer(0)}}));
    schemas.insert(
        QStringLiteral("Error"),
        Schema::object({{QStringLiteral("success"), Schema::boolean()},
                        {QStringLiteral("error"), Schema::object({{QStringLiteral("code"), Schema::string()},
                                                                  {QStringLiteral("message"), Schema::string()},
                                                                  {QStringLiteral("details"), Schema::object({})}},
                                                                 {QStringLiteral("code"), QStringLiteral("message")})}},
                       {QStringLiteral("success"), QStringLiteral("error")}));
    schemas.insert(QStringLiteral("User"), Schema::object({{QStringLiteral("id"), Schema::string()},
                                                           {QStringLiteral("email"), Schema::string()},
                                                           {QStringLiteral("name"), Schema::string()},
                                                           {QStringLiteral("role"), Schema::string()},
                                                           {QStringLiteral("createdAt"), Schema::string()}}));
    return QJsonObject{
        {QStringLiteral("openapi"), QStringLiteral("3.1.0")},
        {QStringLiteral("info"), QJsonObject{{QStringLiteral("title"), QStringLiteral("Liaison API")},
                                             {QStringLiteral("version"), QStringLiteral("1.0.0")}}},
        {QStringLiteral("servers"), QJsonArray{QJsonObject{{QStringLiteral("url"), serverUrl}}}},
        {QStringLiteral("security"), QJsonArray{QJsonObject{{QStringLiteral("bearer"), QJsonArray()}}}},
        {QStringLiteral("paths"), paths},
        {QStringLiteral("components"),
         QJsonObject{{QStringLiteral("schemas"), schemas},
                     {QStringLiteral("securitySchemes"),
                      QJsonObject{{QStringLiteral("bearer"),
                                   QJsonObject{{QStringLiteral("type"), QStringLiteral("http")},
                                               {QStringLiteral("scheme"), QStringLiteral("bearer")},
                                               {QStringLiteral("description"),
                                                QStringLiteral(
                                                    "A JWT access token from /auth/login, or an API key (lk_…)")}}}}}}},
    };
}
