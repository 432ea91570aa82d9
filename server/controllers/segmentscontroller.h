#pragma once

#include "server/controllers/controller.h"

class SegmentRepository;

// /api/v1/contacts/segments: list (data + total, no success), create, detail, update (PATCH),
// delete, members (paged), static membership (add, remove), snapshot. Every route needs a user's
// JWT (Access::userOnly: an API key gets 403, no credential 401). The literal "segments" wins over
// /contacts/:id in the router.
class SegmentsController final : public Controller
{
public:
    // clock: the server's clock (read at each request, so that tests can move time for relative spans).
    explicit SegmentsController(const Store &store);
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    SegmentRepository repository() const;
    ApiResponse list(ApiRequest &request);
    ApiResponse create(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse update(ApiRequest &request);
    ApiResponse remove(ApiRequest &request);
    ApiResponse contacts(ApiRequest &request);
    ApiResponse addContacts(ApiRequest &request);
    ApiResponse removeContact(ApiRequest &request);
    ApiResponse snapshot(ApiRequest &request);
    ApiResponse preview(ApiRequest &request);

    Store m_store;
};
