#pragma once

#include <QJsonObject>
#include <QString>

class Router;

// The OpenAPI 3.1 document of the API (GET /api/v1/openapi.json), built from what each route
// declares when it is added to the router (summary, parameters, bodies, statuses, access) and the
// schemas the areas name.
namespace OpenApi {
QJsonObject document(const Router &router, const QJsonObject &areaSchemas, const QString &serverUrl);
} // namespace OpenApi
