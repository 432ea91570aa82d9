#include "messaging/assistant/assistantautoreply.h"

#include "messaging/channels/channelsender.h"
#include "model/assistant/aianswerrepository.h"
#include "model/assistant/assistantconversation.h"
#include "model/assistant/assistanthandoff.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/inbox/conversationrepository.h"

#include <QLoggingCategory>
#include <QPointer>

namespace {
Q_LOGGING_CATEGORY(lcAutoReply, "liaison.assistant")
}

QStringList AutoReplyConfig::modeNames()
{
    return {QStringLiteral("off"), QStringLiteral("suggest"), QStringLiteral("on")};
}

AssistantAutoReply::AssistantAutoReply(const Store &store, std::shared_ptr<KnowledgeIndex> index,
                                       AssistantThresholds thresholds, LanguageModelConfig model,
                                       AutoReplyConfig config, std::shared_ptr<ChannelRegistry> registry,
                                       QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_config(std::move(config))
    , m_registry(std::move(registry))
    , m_responder(store, std::move(index), thresholds, std::move(model))
{
    connect(&store.bus(), &EventBus::changed, this, &AssistantAutoReply::changed);
}

AssistantAutoReply::~AssistantAutoReply() = default;

std::function<QObject *(QObject *)> AssistantAutoReply::factory(const Store &store,
                                                                std::shared_ptr<KnowledgeIndex> index,
                                                                AssistantThresholds thresholds,
                                                                LanguageModelConfig model, AutoReplyConfig config,
                                                                std::shared_ptr<ChannelRegistry> registry)
{
    return [=](QObject *parent) -> QObject * {
        return new AssistantAutoReply(store, index, thresholds, model, config, registry, parent);
    };
}

void AssistantAutoReply::changed(EventBus::Entity entity, const QString &id, EventBus::Change change)
{
    if (entity != EventBus::Entity::Message || change != EventBus::Change::Created || id.isEmpty())
        return;
    try {
        handle(id);
    } catch (const std::exception &e) {
        // A database that is away now: this message goes unanswered (the next ones are tried).
        qCWarning(lcAutoReply) << "auto-reply to" << id << "failed:" << e.what();
        Database::releaseSnapshot();
        Q_EMIT handled(id, QStringLiteral("failed"));
    }
}

void AssistantAutoReply::handle(const QString &messageId)
{
    ConversationRepository conversations(m_store);
    const std::optional<Message> m = conversations.findMessage(messageId);
    const QString mode = m ? m_config.mode(m->channel) : QString();
    if (!m || m->direction != QLatin1String("incoming") || m->type != QLatin1String("text") ||
        m->text.trimmed().isEmpty() || mode == QLatin1String("off") ||
        !AssistantConversation(m_store).claimReply(m->conversationId, m->seq)) {
        Q_EMIT handled(messageId, QStringLiteral("skipped"));
        return;
    }
    AssistantQuestion question;
    question.message = m->text.left(4000);
    // The conversation before it, oldest first: the customer's messages and the answers they got.
    MessageQuery before;
    before.before = m->id;
    before.limit = m_config.historyTurns;
    for (const Message &earlier : conversations.messages(m->conversationId, before).items) {
        if (earlier.type == QLatin1String("text") && !earlier.text.isEmpty())
            question.history.append(
                {earlier.direction == QLatin1String("incoming") ? QStringLiteral("user") : QStringLiteral("assistant"),
                 earlier.text});
    }
    const QString conversationId = m->conversationId;
    const QString channel = m->channel;
    const QString text = question.message;
    QPointer<AssistantAutoReply> self(this);
    m_responder.respond(
        question, [self, messageId, conversationId, channel, mode, text](const AssistantResponder::Response &response) {
            if (!self)
                return;
            try {
                self->finish(messageId, conversationId, channel, mode, text, response);
            } catch (const std::exception &e) {
                qCWarning(lcAutoReply) << "auto-reply to" << messageId << "failed:" << e.what();
                Database::releaseSnapshot();
                Q_EMIT self->handled(messageId, QStringLiteral("failed"));
            }
        });
}

void AssistantAutoReply::finish(const QString &messageId, const QString &conversationId, const QString &channel,
                                const QString &mode, const QString &question,
                                const AssistantResponder::Response &response)
{
    const AssistantReply &reply = response.reply;
    AiAnswerRepository answers(m_store);
    AssistantConversation state(m_store);
    const bool suggest = mode == QLatin1String("suggest");
    AiAnswerOrigin origin;
    origin.mode = suggest ? QStringLiteral("draft") : QStringLiteral("auto_reply");
    origin.channel = channel;
    origin.conversationId = conversationId;

    if (suggest) {
        const AiAnswer a = answers.record(question, reply, origin);
        if (!reply.answered) {
            Q_EMIT handled(messageId, QStringLiteral("recorded"));
            return;
        }
        state.setDraft(conversationId, reply.answer, a.id);
        Q_EMIT handled(messageId, QStringLiteral("drafted"));
        return;
    }

    ChannelSender sender(m_store, m_registry);
    MessageContent content;
    content.type = QStringLiteral("text");
    content.text = reply.answer;
    const MessageSender ai{QStringLiteral("ai"), QString(), m_config.name};
    Transaction tx;
    Message sent;
    try {
        ChannelSender::Options options;
        options.rateLimited = false; // queued: the channel's dispatcher keeps its pace
        sent = sender.send(conversationId, content, ai, options);
    } catch (const DomainError &e) {
        if (e.kind() != DomainError::Unavailable)
            throw;
    }
    origin.messageId = sent.id;
    const AiAnswer a = answers.record(question, reply, origin);
    QString outcome;
    if (!reply.answered) {
        AssistantHandoff(m_store).handOff(conversationId, reply.handoffReason);
        outcome = QStringLiteral("handed_off");
    } else if (sent.id.isEmpty()) {
        state.setDraft(conversationId, reply.answer, a.id);
        outcome = QStringLiteral("drafted");
    } else {
        outcome = QStringLiteral("sent");
    }
    tx.commit();
    Q_EMIT handled(messageId, outcome);
}
