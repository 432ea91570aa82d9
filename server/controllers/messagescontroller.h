#pragma once

#include "model/inbox/bulksend.h"
#include "model/inbox/templaterepository.h"
#include "server/controllers/controller.h"

#include <memory>

class ChannelRegistry;
class ChannelSender;
class ConversationRepository;
class MediaService;

// /api/v1/messages: list (filters), detail, status, direct send (to + channel, or contactId) and
// send into a conversation.
class MessagesController final : public Controller
{
public:
    // media: for send-file (null: send-file answers 503).
    explicit MessagesController(const Store &store, std::shared_ptr<ChannelRegistry> channels = {},
                                std::shared_ptr<MediaService> media = {});
    ~MessagesController() override;
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    ApiResponse list(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse status(ApiRequest &request);
    ApiResponse send(ApiRequest &request);
    ApiResponse sendDirect(ApiRequest &request);
    ApiResponse sendFile(ApiRequest &request);
    ApiResponse sendTemplate(ApiRequest &request);
    ApiResponse sendBulk(ApiRequest &request);
    ApiResponse bulkProgress(ApiRequest &request);
    // The conversation a direct send goes into: by `to` (an address on the channel) or `contactId`,
    // the contact found or (for phone channels) created. Throws 400 Invalid phone, 404 Contact not
    // found, 422, 503 when the channel cannot send.
    QString directConversation(ApiRequest &request, const QString &channel);

    std::unique_ptr<ConversationRepository> m_conversations;
    TemplateRepository m_templates;
    BulkSendRepository m_bulk;
    std::unique_ptr<ChannelSender> m_sender;
    std::shared_ptr<MediaService> m_media;
};
