#pragma once

#include "server/controllers/controller.h"

#include <memory>

class ChannelRegistry;
class InboundRecorder;

// The Meta channels' webhooks, outside /api/v1 and without a bearer token (docs/channels.md §1, §3):
// GET  /webhooks/whatsapp, /webhooks/instagram: the hub.verify_token handshake;
// POST /webhooks/whatsapp, /webhooks/instagram: events signed with X-Hub-Signature-256 (the app
// secret of the channel), recorded through InboundRecorder (messages once per provider id, status
// reports in any order) before the 200 answer.
class MetaWebhooksController final : public Controller
{
public:
    MetaWebhooksController(std::shared_ptr<ChannelRegistry> channels, const Store &store);
    ~MetaWebhooksController() override;
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

    // What one webhook body did.
    struct Tally
    {
        int received = 0;   // new messages recorded
        int duplicates = 0; // messages recorded before (a provider retrying)
        int statuses = 0;   // status reports on messages we know
        int kept = 0;       // status reports on ids no message has yet (kept for a send that records them)
        int ignored = 0;    // echoes, deletions, reactions, unknown states, items we could not use
        QJsonObject toJson() const;
    };

private:
    ApiResponse verifyWhatsApp(ApiRequest &request);
    ApiResponse receiveWhatsApp(ApiRequest &request);
    ApiResponse verifyInstagram(ApiRequest &request);
    ApiResponse receiveInstagram(ApiRequest &request);

    std::shared_ptr<ChannelRegistry> m_channels;
    std::unique_ptr<InboundRecorder> m_recorder;
};
