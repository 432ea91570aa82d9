#include "model/assistant/assistantconversation.h"

#include "model/core/database.h"
#include "model/inbox/conversationrepository.h"

AssistantConversation::AssistantConversation(const Store &store)
    : m_store(store)
{
}

bool AssistantConversation::claimReply(const QString &conversationId, qint64 messageSeq) const
{
    Transaction tx;
    QSqlQuery q = Database::exec(QStringLiteral("UPDATE conversations SET ai_replied_seq = ? WHERE id = ? AND "
                                                "ai_handoff IS NULL AND coalesce(ai_replied_seq, 0) < ?"),
                                 {messageSeq, conversationId, messageSeq});
    const bool taken = q.numRowsAffected() == 1;
    tx.commit();
    return taken;
}

void AssistantConversation::setDraft(const QString &conversationId, const QString &text, const QString &answerId) const
{
    Transaction tx;
    Database::exec(QStringLiteral("UPDATE conversations SET ai_draft = ?, ai_draft_answer_id = ? WHERE id = ?"),
                   {text, answerId, conversationId});
    m_store.notify(EventBus::Entity::Conversation, conversationId, EventBus::Change::Updated);
    tx.commit();
}

void AssistantConversation::clearDraft(const QString &conversationId) const
{
    Transaction tx;
    Database::exec(QStringLiteral("UPDATE conversations SET ai_draft = NULL, ai_draft_answer_id = NULL WHERE id = ?"),
                   {conversationId});
    m_store.notify(EventBus::Entity::Conversation, conversationId, EventBus::Change::Updated);
    tx.commit();
}

void AssistantConversation::draftSent(const QString &conversationId, const QString &answerId,
                                      const QString &messageId) const
{
    Transaction tx;
    linkAnswer(answerId, messageId);
    clearDraft(conversationId);
    tx.commit();
}

void AssistantConversation::linkAnswer(const QString &answerId, const QString &messageId) const
{
    Transaction tx;
    Database::exec(QStringLiteral("UPDATE ai_answers SET message_id = ? WHERE id = ?"), {messageId, answerId});
    m_store.notify(EventBus::Entity::AiAnswer, answerId, EventBus::Change::Updated);
    tx.commit();
}

Conversation AssistantConversation::handBack(const QString &conversationId) const
{
    Transaction tx;
    Conversation v = ConversationRepository(m_store).get(conversationId);
    if (!v.aiHandoff.isEmpty()) {
        Database::exec(QStringLiteral("UPDATE conversations SET ai_handoff = NULL WHERE id = ?"), {conversationId});
        v.aiHandoff.clear();
        m_store.notify(EventBus::Entity::Conversation, conversationId, EventBus::Change::Updated);
    }
    tx.commit();
    return v;
}
