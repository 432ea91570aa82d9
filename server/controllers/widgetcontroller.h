#pragma once

#include "server/api/ratelimiter.h"
#include "server/controllers/controller.h"
#include "server/controllers/widgetevents.h"

#include <QHash>

#include <memory>

class ChannelRegistry;
class ConversationRepository;
class WidgetVisitorRepository;
struct WidgetVisitor;

// /widget/v1: the public API of the web chat widget (no /api/v1, no API credential). A visitor is
// created with POST /widget/v1/visitors and then calls with `Authorization: Bearer <visitor token>`;
// the token reaches its own conversation only. Calls are rate limited per token (and visitor
// creation per client address), in every server thread together.
//
// It also serves the widget itself, outside /api/v1 and without credentials: the chat page
// (GET /widget), its script and style (/widget/widget.js, /widget/widget.css) and the embed script
// (GET /widget/embed.js) that puts a chat button on any site; and the live push of replies,
// GET /widget/v1/events (server-sent events; see WidgetEventHub).
class WidgetController final : public Controller
{
public:
    // Requests per minute per visitor token, and visitors created per minute per client address.
    static constexpr int kRequestsPerMinute = 120;
    static constexpr int kVisitorsPerMinute = 60;

    // The limits every server thread of the process shares (ApiShared holds them).
    struct Limits
    {
        RateLimiter perToken{kRequestsPerMinute, 60};    // requests per visitor token
        RateLimiter newVisitors{kVisitorsPerMinute, 60}; // visitors created per client address
        WidgetStreams streams;                           // open event streams, keep-alive period
    };

    // visitorName: the label of a visitor who has not said who they are, before its short id
    // (channels/widget/visitorName).
    WidgetController(const Store &store, Limits &limits, QString visitorName = {});
    ~WidgetController() override;
    void registerRoutes(Router &router) override;

private:
    ApiResponse createVisitor(ApiRequest &request);
    ApiResponse identify(ApiRequest &request);
    ApiResponse postMessage(ApiRequest &request);
    ApiResponse listMessages(ApiRequest &request);
    ApiResponse events(ApiRequest &request);
    ApiResponse asset(ApiRequest &request, const QString &file);
    // allowQueryToken: also accept ?token= (EventSource cannot send headers).
    WidgetVisitor visitor(ApiRequest &request, bool allowQueryToken = false);

    struct WidgetAsset
    {
        QByteArray body;
        QByteArray type;
        QByteArray etag;
    };
    const WidgetAsset &loadAsset(const QString &file);

    Store m_store;
    Limits &m_limits;
    QHash<QString, WidgetAsset> m_assets;
    std::unique_ptr<ConversationRepository> m_conversations;
    std::unique_ptr<WidgetVisitorRepository> m_visitors;
    QString m_visitorName;
    std::unique_ptr<WidgetEventHub> m_hub;
};
