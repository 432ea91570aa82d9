#pragma once

#include "messaging/webhooks/webhookconfig.h"
#include "model/webhooks/incomingwebhookrepository.h"
#include "model/webhooks/webhookrepository.h"
#include "server/controllers/controller.h"

#include <memory>

class WebhookSender;

// /api/v1/webhooks: outgoing subscriptions (CRUD, disable/enable, test, logs, redeliver), the
// event catalog, incoming endpoints (/api/v1/webhooks/incoming) and the public incoming address
// POST /webhooks/incoming/:webhookId (no bearer token; its own optional signature).
class WebhooksController final : public Controller
{
public:
    WebhooksController(const Store &store, WebhookConfig config);
    ~WebhooksController() override;
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    ApiResponse list(ApiRequest &request);
    ApiResponse create(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse update(ApiRequest &request);
    ApiResponse remove(ApiRequest &request);
    ApiResponse disable(ApiRequest &request);
    ApiResponse enable(ApiRequest &request);
    ApiResponse test(ApiRequest &request);
    ApiResponse logs(ApiRequest &request);
    ApiResponse redeliver(ApiRequest &request);
    ApiResponse events(ApiRequest &request);
    ApiResponse listIncoming(ApiRequest &request);
    ApiResponse createIncoming(ApiRequest &request);
    ApiResponse removeIncoming(ApiRequest &request);
    ApiResponse incomingCalls(ApiRequest &request);
    ApiResponse receiveIncoming(ApiRequest &request);

    WebhookConfig m_config;
    Store m_store;
    WebhookRepository m_webhooks;
    IncomingWebhookRepository m_incoming;
    std::unique_ptr<WebhookSender> m_sender; // for /test, created in the server thread on first use
};
