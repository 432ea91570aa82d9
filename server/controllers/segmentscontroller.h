#pragma once

#include "server/controllers/controller.h"

class Clock;
class EventBus;
class SegmentRepository;

// /api/v1/contacts/segments: list (data + total, no success), create, detail, update (PATCH),
// delete, members (paged), static membership (add, remove), snapshot. Every route needs a user's
// JWT (Access::userOnly: an API key gets 403, no credential 401). The literal "segments" wins over
// /contacts/:id in the router.
class SegmentsController final : public Controller
{
public:
    // clock: the server's clock (read at each request, so that tests can move time for relative spans).
    SegmentsController(EventBus *bus, const Clock *&clock);
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

    EventBus *m_bus;
    const Clock *&m_clock;
};
