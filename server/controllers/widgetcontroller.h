#pragma once

#include "controller.h"

#include <memory>

class ChannelRegistry;
class ConversationRepository;
class EventBus;
class RateLimiter;
class WidgetVisitorRepository;
struct WidgetVisitor;

// /widget/v1: the public API of the web chat widget (no /api/v1, no API credential). A visitor is
// created with POST /widget/v1/visitors and then calls with `Authorization: Bearer <visitor token>`;
// the token reaches its own conversation only. Calls are rate limited per token (and visitor
// creation per client address), in every server thread together.
class WidgetController final : public Controller
{
public:
    explicit WidgetController(EventBus *bus);
    ~WidgetController() override;
    void registerRoutes(Router &router) override;

    // Requests per minute per visitor token, and visitors created per minute per client address.
    static constexpr int kRequestsPerMinute = 120;
    static constexpr int kVisitorsPerMinute = 60;

private:
    ApiResponse createVisitor(ApiRequest &request);
    ApiResponse postMessage(ApiRequest &request);
    ApiResponse listMessages(ApiRequest &request);
    WidgetVisitor visitor(ApiRequest &request);

    EventBus *m_bus;
    std::unique_ptr<ConversationRepository> m_conversations;
    std::unique_ptr<WidgetVisitorRepository> m_visitors;
};
