#pragma once

#include "model/core/store.h"
#include "server/api/router.h"

#include <QJsonObject>

// One area of the API (contacts, deals, …): registers its routes and names the component schemas
// its routes refer to in the OpenAPI document. Handlers are thin: parse, call the model, shape the
// envelope; they throw ApiError or let the model's DomainError through.
class Controller
{
public:
    virtual ~Controller() = default;
    virtual void registerRoutes(Router &router) = 0;
    virtual QJsonObject schemas() const { return {}; }
};
