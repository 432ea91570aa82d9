#pragma once

#include "model/core/store.h"
#include "server/api/router.h"

#include <QJsonObject>

// One area of the API (contacts, deals, …): registers its routes and names the component schemas
// its routes refer to in the OpenAPI document. Handlers are thin: parse, call the model, shape the
// envelope. They read a body's members with the model's FieldReader and the query string with
// QueryReader, and refuse with a DomainError (a kind, a code, a ModelText template and the fields it
// names), as the model does; the router answers every refusal through one table (ErrorStatus).
class Controller
{
public:
    virtual ~Controller() = default;
    virtual void registerRoutes(Router &router) = 0;
    virtual QJsonObject schemas() const { return {}; }
};
