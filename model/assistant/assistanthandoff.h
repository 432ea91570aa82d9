#pragma once

#include "model/core/store.h"

#include <QString>

// What the assistant does with a conversation it cannot answer in: it hands it to a person. In one
// transaction the conversation is flagged (conversations.ai_handoff = the reason: no auto-reply
// until a person takes it back) and, when nobody has it yet, assigned to the next active agent in
// turn (round robin over the users of role agent by the order they were added, after the one the
// assistant assigned last; that cursor is in the database, table ai_handoff_cursor, so it holds
// across restarts and copies of one PostgreSQL database, which take turns on its row). The
// assignment goes through ConversationRepository::assign, so conversation.updated and
// conversation.assigned are emitted as for any assignment. Without an active agent the
// conversation stays unassigned, flagged. Used by POST /ai/chat and the inbox's auto-reply.
class AssistantHandoff
{
public:
    explicit AssistantHandoff(const Store &store);

    struct Outcome
    {
        QString conversationId;
        QString reason;
        QString assignedTo; // who has the conversation now (empty: nobody)
        QString assignedName;
        bool assignedNow = false; // the hand-off assigned it (false: it had someone, or no agent is active)
    };
    // Throws NotFound for an unknown conversation.
    Outcome handOff(const QString &conversationId, const QString &reason);

private:
    // The next active agent after the cursor (the first after the last), and moves the cursor to
    // them; empty when there is none. Inside the hand-off's transaction.
    QString nextAgent() const;

    Store m_store;
};
