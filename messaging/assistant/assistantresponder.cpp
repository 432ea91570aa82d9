#include "messaging/assistant/assistantresponder.h"

#include "model/assistant/knowledgerepository.h"

QJsonObject AssistantResponder::Response::toJson() const
{
    QJsonObject out = reply.toJson();
    QJsonObject metadata = out.value(QStringLiteral("metadata")).toObject();
    metadata.insert(QStringLiteral("phrasedBy"), phrasedBy);
    metadata.insert(QStringLiteral("model"),
                    model.isEmpty()
                        ? QJsonValue()
                        : QJsonValue(QJsonObject{
                              {QStringLiteral("outcome"), model},
                              {QStringLiteral("error"), modelError.isEmpty() ? QJsonValue() : QJsonValue(modelError)},
                              {QStringLiteral("latencyMs"), modelLatencyMs}}));
    out.insert(QStringLiteral("metadata"), metadata);
    return out;
}

AssistantResponder::AssistantResponder(const Store &store, std::shared_ptr<KnowledgeIndex> index,
                                       AssistantThresholds thresholds, LanguageModelConfig model)
    : m_store(store)
    , m_index(std::move(index))
    , m_thresholds(thresholds)
    , m_model(model.enabled() ? std::make_unique<LanguageModelClient>(model) : nullptr)
{
}

AssistantResponder::~AssistantResponder() = default;

AssistantReply AssistantResponder::retrieve(const AssistantQuestion &question)
{
    m_index->refresh(KnowledgeRepository(m_store));
    return Assistant(*m_index, m_thresholds).answer(question);
}

bool AssistantResponder::wantsModel(const AssistantReply &reply) const
{
    if (!m_model || reply.sources.isEmpty())
        return false;
    return reply.answered || reply.otherLanguage || reply.handoffReason == QLatin1String("ambiguous") ||
           reply.handoffReason == QLatin1String("low_confidence");
}

PhrasingRequest AssistantResponder::phrasing(const AssistantQuestion &question, const AssistantReply &reply) const
{
    PhrasingRequest p;
    p.question = question.message;
    p.language = reply.language;
    p.history = question.history;
    QStringList ids;
    for (const AssistantReply::Source &s : reply.sources)
        ids << s.entryId;
    if (reply.otherLanguage)
        ids << reply.otherLanguage->entryId;
    for (const QString &id : ids) {
        if (const std::shared_ptr<const KnowledgeEntry> e = m_index->entry(id))
            p.entries.append(*e);
    }
    return p;
}

void AssistantResponder::apply(Response &r, const Phrasing &p)
{
    r.modelLatencyMs = p.latencyMs;
    switch (p.outcome) {
    case Phrasing::Phrased:
        r.model = QStringLiteral("phrased");
        r.phrasedBy = QStringLiteral("model");
        r.reply.answered = true;
        r.reply.handoffReason.clear();
        r.reply.answer = p.text;
        break;
    case Phrasing::Declined:
        r.model = QStringLiteral("declined");
        if (r.reply.answered || r.reply.handoffReason.isEmpty())
            r.reply.handoffReason = QStringLiteral("low_confidence");
        r.reply.answered = false;
        r.reply.answer = Assistant::fallbackReply(r.reply.handoffReason, r.reply.language);
        break;
    case Phrasing::Failed:
        r.model = QStringLiteral("failed");
        r.modelError = p.error;
        break;
    }
}

AssistantResponder::Response AssistantResponder::respond(const AssistantQuestion &question)
{
    Response r;
    r.reply = retrieve(question);
    if (wantsModel(r.reply))
        apply(r, m_model->phraseAndWait(phrasing(question, r.reply)));
    return r;
}

void AssistantResponder::respond(const AssistantQuestion &question, const std::function<void(const Response &)> &done)
{
    Response r;
    r.reply = retrieve(question);
    if (!wantsModel(r.reply)) {
        done(r);
        return;
    }
    m_model->phrase(phrasing(question, r.reply), [r, done](const Phrasing &p) mutable {
        apply(r, p);
        done(r);
    });
}
