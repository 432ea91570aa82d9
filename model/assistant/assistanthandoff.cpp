#include "model/assistant/assistanthandoff.h"

#include "model/core/database.h"
#include "model/inbox/conversationrepository.h"

AssistantHandoff::AssistantHandoff(const Store &store)
    : m_store(store)
{
}

QString AssistantHandoff::nextAgent() const
{
    // The row lock first: a second copy's hand-off waits here until this one commits, then reads
    // the cursor this one moved.
    Database::execCached(QStringLiteral("UPDATE ai_handoff_cursor SET user_seq = user_seq WHERE name = 'agents'"));
    qint64 last = 0;
    {
        CachedQuery q =
            Database::execCached(QStringLiteral("SELECT user_seq FROM ai_handoff_cursor WHERE name = 'agents'"));
        if (q.next())
            last = q.value(0).toLongLong();
    }
    auto first = [](const QString &where, const QVariantList &values) -> std::pair<qint64, QString> {
        CachedQuery q = Database::execCached(
            QStringLiteral("SELECT seq, id FROM users WHERE role = 'agent' AND deactivated_at IS NULL") + where +
                QStringLiteral(" ORDER BY seq LIMIT 1"),
            values);
        if (!q.next())
            return {0, QString()};
        return {q.value(0).toLongLong(), q.value(1).toString()};
    };
    std::pair<qint64, QString> next = first(QStringLiteral(" AND seq > ?"), {last});
    if (next.second.isEmpty())
        next = first(QString(), {});
    if (next.second.isEmpty())
        return {};
    Database::execCached(QStringLiteral("UPDATE ai_handoff_cursor SET user_seq = ? WHERE name = 'agents'"),
                         {next.first});
    return next.second;
}

AssistantHandoff::Outcome AssistantHandoff::handOff(const QString &conversationId, const QString &reason)
{
    ConversationRepository conversations(m_store);
    Outcome out;
    out.conversationId = conversationId;
    out.reason = reason;
    Transaction tx;
    Conversation c = conversations.get(conversationId);
    Database::execCached(QStringLiteral("UPDATE conversations SET ai_handoff = ?, updated_at = ? WHERE seq = ?"),
                         {reason, m_store.nowIso(), c.seq});
    if (c.assignedTo.isEmpty()) {
        if (const QString agent = nextAgent(); !agent.isEmpty()) {
            c = conversations.assign(conversationId, agent);
            out.assignedNow = true;
        }
    }
    out.assignedTo = c.assignedTo;
    out.assignedName = c.assignedName;
    m_store.notify(EventBus::Entity::Conversation, conversationId, EventBus::Change::Updated);
    tx.commit();
    return out;
}
