#pragma once

#include "model/inbox/inboundrecorder.h"
#include "server/controllers/controller.h"

#include <memory>

class ChannelRegistry;

// POST /webhooks/telegram (outside /api/v1, no bearer token; docs/channels.md §2): one Telegram Update
// per call, accepted when X-Telegram-Bot-Api-Secret-Token equals channels/telegram/secretToken
// (403 otherwise; 503 while the channel has no bot token or no secret token), recorded through
// InboundRecorder before the 200 answer. A button tap is answered in the reply itself
// ({"method":"answerCallbackQuery", …}, which Telegram executes), so the server thread makes no
// outgoing call.
class TelegramWebhookController final : public Controller
{
public:
    TelegramWebhookController(std::shared_ptr<ChannelRegistry> channels, const Store &store);
    ~TelegramWebhookController() override;
    void registerRoutes(Router &router) override;

private:
    ApiResponse receive(ApiRequest &request);

    std::shared_ptr<ChannelRegistry> m_channels;
    InboundRecorder m_recorder;
};
