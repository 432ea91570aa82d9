#pragma once

#include "messaging/assistant/languagemodelclient.h"
#include "model/assistant/assistant.h"
#include "model/assistant/knowledgeindex.h"
#include "model/core/store.h"

#include <QJsonObject>

#include <functional>
#include <memory>

// The assistant as the API and the inbox use it: the knowledge index brought up to date, retrieval
// and its decision (Assistant), then, when a language model is set up, the model's phrasing of the
// retrieved entries (docs/architecture.md, "The assistant"). The model is asked when retrieval
// answered, or handed off as ambiguous or low_confidence, or found an entry in the other language;
// it sees the best three entries (and that one). Its answer replaces the entry's; a decline hands
// off (low_confidence unless retrieval gave another reason); a failure or timeout keeps what
// retrieval decided. Stores nothing. One per thread (the model's client lives in it).
class AssistantResponder
{
public:
    struct Response
    {
        AssistantReply reply;
        QString phrasedBy = QStringLiteral("retrieval"); // retrieval, model
        QString model;                                   // "" when no model was asked; phrased, declined, failed
        QString modelError;
        int modelLatencyMs = 0;

        // AssistantReply::toJson() with metadata.phrasedBy and metadata.model {outcome, error, latencyMs}.
        QJsonObject toJson() const;
    };

    AssistantResponder(const Store &store, std::shared_ptr<KnowledgeIndex> index, AssistantThresholds thresholds,
                       LanguageModelConfig model = {});
    ~AssistantResponder();

    const AssistantThresholds &thresholds() const { return m_thresholds; }
    bool hasModel() const { return m_model != nullptr; }

    // Retrieval only (no model): what POST /ai/test-knowledge shows.
    AssistantReply retrieve(const AssistantQuestion &question);
    // Waits for the model in a local event loop (a server handler's way; no transaction open).
    Response respond(const AssistantQuestion &question);
    // The same without waiting: done is called once, in this thread (at once without a model).
    void respond(const AssistantQuestion &question, const std::function<void(const Response &)> &done);

private:
    bool wantsModel(const AssistantReply &reply) const;
    PhrasingRequest phrasing(const AssistantQuestion &question, const AssistantReply &reply) const;
    static void apply(Response &response, const Phrasing &phrasing);

    Store m_store;
    std::shared_ptr<KnowledgeIndex> m_index;
    AssistantThresholds m_thresholds;
    std::unique_ptr<LanguageModelClient> m_model;
};
