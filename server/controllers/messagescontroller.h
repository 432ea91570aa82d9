#pragma once

#include "controller.h"

#include <memory>

class ChannelRegistry;
class ChannelSender;
class ConversationRepository;
class EventBus;

// /api/v1/messages: list (filters), detail, status, direct send (to + channel, or contactId) and
// send into a conversation.
class MessagesController final : public Controller
{
public:
    explicit MessagesController(EventBus *bus, std::shared_ptr<ChannelRegistry> channels = {});
    ~MessagesController() override;
    void registerRoutes(Router &router) override;

private:
    ApiResponse list(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse status(ApiRequest &request);
    ApiResponse send(ApiRequest &request);
    ApiResponse sendDirect(ApiRequest &request);

    EventBus *m_bus;
    std::unique_ptr<ConversationRepository> m_conversations;
    std::unique_ptr<ChannelSender> m_sender;
};
