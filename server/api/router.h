#pragma once

#include "server/api/apirequest.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

#include <functional>
#include <memory>
#include <utility>

// Who may call a route.
struct Access
{
    enum Kind
    {
        Public,
        Credential,
        UserOnly
    };
    Kind kind = Credential;
    QString scope;      // required API-key scope for Credential routes ("contacts:read")
    bool admin = false; // configuration: a user needs the admin role (an agent gets 403)

    static Access publicRoute() { return {Public, {}}; }
    static Access scoped(const QString &scope) { return {Credential, scope}; }
    static Access userOnly() { return {UserOnly, {}}; }
    // A configuration route (webhooks, pipelines' and templates' changes, …): the scope as for
    // scoped(), and for a user the admin role.
    static Access adminScoped(const QString &scope) { return {Credential, scope, true}; }
};

// What the OpenAPI document says of a route.
struct RouteDoc
{
    QString tag;
    QString summary;
    QJsonObject requestSchema;  // JSON Schema of the body (empty: no body)
    QJsonObject responseSchema; // JSON Schema of the success body
    QJsonObject queryParams;    // name -> JSON Schema
    QList<int> errorStatuses;
    int successStatus = 200;
    QString contentType = QStringLiteral("application/json"); // of the success body (text/html, text/event-stream, …)
    // Of the request body: empty for JSON; "multipart/form-data" for uploads (the body is not parsed as
    // JSON, may be as large as media/maxUploadBytes plus framing, and requestSchema lists the form fields).
    QString requestContentType = {};
    // Other media types the body may have, each a text (an upload route that also takes the file as
    // the whole body: POST /ai/knowledge/import's text/csv).
    QStringList otherRequestContentTypes = {};
    // What the summary's line leaves out (the OpenAPI description): the summary says in at most
    // kMaxSummary characters what the operation does, this the rest.
    QString description = {};

    static constexpr int kMaxSummary = 100;
    // This doc with a description, for a RouteDoc{…} written in the call to Router::add.
    RouteDoc described(const QString &text) &&
    {
        description = text;
        return std::move(*this);
    }
};

using Handler = std::function<ApiResponse(ApiRequest &)>;

struct Route
{
    QByteArray method;
    QString pattern;     // "/api/v1/contacts/:id"
    QString operationId; // "getContact": the OpenAPI operationId (docs/api.md, "The OpenAPI document")
    Handler handler;
    Access access;
    RouteDoc doc;
};

// The routing table: method + path pattern -> handler. Segments starting with ':' are parameters;
// at every level a literal segment wins over a parameter ("/deals/pipeline" before "/deals/:id").
class Router
{
public:
    Router();
    ~Router();

    // operationId: the name clients generated from the OpenAPI document give the operation, unique
    // in the router, camelCase and starting with a verb (docs/api.md, "The OpenAPI document");
    // doc.summary: one line of at most RouteDoc::kMaxSummary characters. A route without them, or
    // with an id taken, is refused: the program stops at start with what is wrong (a mistake in the
    // code that every API test would meet).
    void add(const QByteArray &method, const QString &pattern, const char *operationId, Handler handler, Access access,
             RouteDoc doc);
    // What add() refuses in this registration, empty when nothing.
    QString problemWith(const QByteArray &method, const QString &pattern, const QString &operationId,
                        const RouteDoc &doc) const;

    // Turns a controller's member functions into handlers, for its registerRoutes:
    //   const auto bind = Router::binder(this);
    //   router.add("GET", path, "listContacts", bind(&ContactsController::list), read, doc);
    template<typename Controller>
    static auto binder(Controller *controller)
    {
        return [controller](ApiResponse (Controller::*method)(ApiRequest &)) -> Handler {
            return [controller, method](ApiRequest &r) { return (controller->*method)(r); };
        };
    }

    struct Match
    {
        const Route *route = nullptr;
        QHash<QString, QString> params;
        QList<QByteArray> allowedMethods; // when the path is known but not for this method
    };
    // path: the raw request path; segments are percent-decoded here. HEAD matches GET routes.
    Match match(const QByteArray &method, const QByteArray &path) const;
    const QVector<Route> &routes() const { return m_routes; }

private:
    struct Node;
    std::unique_ptr<Node> m_root;
    QVector<Route> m_routes;
};
