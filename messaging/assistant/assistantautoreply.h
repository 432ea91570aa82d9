#pragma once

#include "messaging/assistant/assistantresponder.h"
#include "model/core/eventbus.h"
#include "model/core/store.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

#include <memory>

class ChannelRegistry;

// The inbox's assistant, per channel (settings ai/autoReply/<channel>; docs/api.md, "The assistant
// in the inbox").
struct AutoReplyConfig
{
    QHash<QString, QString> modes;            // channel -> off (default), suggest, on
    QString name = QStringLiteral("Asistan"); // the AI messages' sender name (ai/name)
    int historyTurns = 6;                     // messages before the question read as its history

    QString mode(const QString &channel) const { return modes.value(channel, QStringLiteral("off")); }
    static QStringList modeNames(); // off, suggest, on
};

// Answers the customers' incoming text messages of the channels whose auto-reply is not off, in
// the delivery thread: each new incoming message (the bus's Message Created, also from another copy
// of Liaison through the change feed) is claimed once (AssistantConversation::claimReply: not in a
// conversation handed off to a person, not twice, not by two copies), answered by the
// AssistantResponder (retrieval, and the language model when one is set up) and recorded
// (ai_answers: mode auto_reply or draft, with the conversation and the message it became).
//  - on: the answer is sent at once as a message of sender {type ai, name}; below the thresholds
//    the short fallback reply in the customer's language is sent instead and the conversation is
//    handed to a person (AssistantHandoff: flagged, assigned round robin).
//  - suggest: an answer becomes the conversation's draft, which an agent sends or discards; a
//    question it cannot answer is recorded (the suggestions read it) and nothing else happens.
// A channel that cannot send now (not set up, provider down) leaves an answer as a draft.
class AssistantAutoReply : public QObject
{
    Q_OBJECT
public:
    AssistantAutoReply(const Store &store, std::shared_ptr<KnowledgeIndex> index, AssistantThresholds thresholds,
                       LanguageModelConfig model, AutoReplyConfig config, std::shared_ptr<ChannelRegistry> registry,
                       QObject *parent = nullptr);
    ~AssistantAutoReply() override;
    // For the delivery thread (DeliveryThread::addService): made in the thread, a child of parent.
    static std::function<QObject *(QObject *)> factory(const Store &store, std::shared_ptr<KnowledgeIndex> index,
                                                       AssistantThresholds thresholds, LanguageModelConfig model,
                                                       AutoReplyConfig config,
                                                       std::shared_ptr<ChannelRegistry> registry);

    const AutoReplyConfig &config() const { return m_config; }
    // Reads the incoming message and answers it as its channel's mode says (what the bus's news
    // starts; tests call it directly).
    void handle(const QString &messageId);

Q_SIGNALS:
    // After a message was dealt with: outcome is sent, handed_off, drafted, recorded (suggest mode,
    // not answered), skipped (not incoming text, mode off, not claimed) or failed.
    void handled(const QString &messageId, const QString &outcome);

private:
    void changed(EventBus::Entity entity, const QString &id, EventBus::Change change);
    void finish(const QString &messageId, const QString &conversationId, const QString &channel, const QString &mode,
                const QString &question, const AssistantResponder::Response &response);

    Store m_store;
    AutoReplyConfig m_config;
    std::shared_ptr<ChannelRegistry> m_registry;
    AssistantResponder m_responder;
};
