#pragma once

#include "messaging/assistant/assistantresponder.h"
#include "server/controllers/controller.h"

#include "model/assistant/aianswerrepository.h"
#include "model/assistant/assistant.h"
#include "model/assistant/knowledgerepository.h"
#include "model/assistant/knowledgesuggestions.h"

#include <QTimeZone>

#include <memory>

class KnowledgeIndex;
class MediaService;

// /api/v1/ai: the assistant's knowledge base (entries, CSV import and export), its questions (chat
// and the test of the knowledge), the feedback on its answers, its figures and the suggestions
// drawn from the questions it could not answer (docs/api.md, "AI assistant"). Reading is any
// user's or an API key's with ai:read; writing (entries, suggestions, feedback, chat, which records
// the question) an agent's or an admin's, or an API key's with ai:write.
class AiController final : public Controller
{
public:
    // index: the knowledge index the server threads share; model: the optional language model
    // that phrases answers; tz: the days of the figures (tasks/timeZone); media: the upload limit
    // and form checks of the CSV import.
    AiController(const Store &store, std::shared_ptr<KnowledgeIndex> index, AssistantThresholds thresholds,
                 LanguageModelConfig model, QTimeZone tz, std::shared_ptr<MediaService> media);
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    ApiResponse listKnowledge(ApiRequest &request);
    ApiResponse getKnowledge(ApiRequest &request);
    ApiResponse createKnowledge(ApiRequest &request);
    ApiResponse updateKnowledge(ApiRequest &request);
    ApiResponse removeKnowledge(ApiRequest &request);
    ApiResponse importKnowledge(ApiRequest &request);
    ApiResponse exportKnowledge(ApiRequest &request);
    ApiResponse chat(ApiRequest &request);
    ApiResponse testKnowledge(ApiRequest &request);
    ApiResponse feedback(ApiRequest &request);
    ApiResponse stats(ApiRequest &request);
    ApiResponse suggestions(ApiRequest &request);
    ApiResponse acceptSuggestion(ApiRequest &request);
    ApiResponse dismissSuggestion(ApiRequest &request);

    KnowledgeQuery knowledgeQuery(const ApiRequest &request) const;
    // The user a request acts for: the signed-in user, or an API key's owner (the key itself when
    // it has none).
    QString actingUser(const ApiRequest &request) const;

    Store m_store;
    std::shared_ptr<KnowledgeIndex> m_index;
    AssistantThresholds m_thresholds;
    QTimeZone m_tz;
    std::shared_ptr<MediaService> m_media;
    KnowledgeRepository m_knowledge;
    AiAnswerRepository m_answers;
    KnowledgeSuggestions m_suggestions;
    AssistantResponder m_responder;
};
