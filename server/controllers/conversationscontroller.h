#pragma once

#include "model/inbox/message.h"
#include "server/controllers/controller.h"

#include <memory>

class ChannelRegistry;
class ChannelSender;
class ConversationRepository;

// /api/v1/conversations: list, detail, update, assign, close, reopen, tags, a conversation's
// messages and sending into it.
class ConversationsController final : public Controller
{
public:
    explicit ConversationsController(const Store &store, std::shared_ptr<ChannelRegistry> channels = {});
    ~ConversationsController() override;
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    ApiResponse list(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse update(ApiRequest &request);
    ApiResponse assign(ApiRequest &request);
    ApiResponse close(ApiRequest &request);
    ApiResponse reopen(ApiRequest &request);
    ApiResponse handBack(ApiRequest &request);
    ApiResponse discardDraft(ApiRequest &request);
    ApiResponse addTags(ApiRequest &request);
    ApiResponse removeTag(ApiRequest &request);
    ApiResponse messages(ApiRequest &request);
    ApiResponse send(ApiRequest &request);

    std::unique_ptr<ConversationRepository> m_conversations;
    std::unique_ptr<ChannelSender> m_sender;
};

// Shared by the conversation and message controllers.
namespace MessagingApi {
// The sender of a message sent by this request: the signed-in user (type agent) or the API key
// (type api); a body member sender {type: agent|ai|bot|system, name} overrides type and name.
MessageSender senderOf(const ApiRequest &request);
} // namespace MessagingApi
