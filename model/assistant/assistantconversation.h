#pragma once

#include "model/core/store.h"
#include "model/inbox/conversation.h"

#include <QString>

// The assistant's state in one conversation of the inbox (docs/api.md, "The assistant in the
// inbox"): which incoming message it last took, its draft reply for an agent, and its hand-off,
// which a person ends by closing the conversation (ConversationRepository::update clears it) or by
// handing it back. The hand-off itself is AssistantHandoff's. Each write tells the bus that the
// conversation changed.
class AssistantConversation
{
public:
    explicit AssistantConversation(const Store &store);

    // Takes the auto-reply to the incoming message of seq messageSeq: true once for each message
    // (one conditional update, so that of several copies of Liaison one answers), false when a
    // later message was taken already or the conversation is handed off to a person.
    bool claimReply(const QString &conversationId, qint64 messageSeq) const;
    // The draft an agent sees in the composer (answerId: its ai_answers row).
    void setDraft(const QString &conversationId, const QString &text, const QString &answerId) const;
    void clearDraft(const QString &conversationId) const;
    // The agent sent the draft (as it was or edited) as messageId: the answer becomes that message,
    // so feedback on the message reaches it, and the draft is gone.
    void draftSent(const QString &conversationId, const QString &answerId, const QString &messageId) const;
    // An answer recorded before its message existed becomes that message.
    void linkAnswer(const QString &answerId, const QString &messageId) const;
    // A person hands the conversation back: auto-replies may answer in it again. NotFound for an
    // unknown conversation; nothing when it was not handed off.
    Conversation handBack(const QString &conversationId) const;

private:
    Store m_store;
};
