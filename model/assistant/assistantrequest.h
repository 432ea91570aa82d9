#pragma once

#include "model/assistant/assistant.h"

#include <QJsonObject>
#include <QString>

// A question put to the assistant (POST /ai/chat, POST /ai/test-knowledge) as a caller gives it.
struct AssistantRequest
{
    AssistantQuestion question;
    QString conversationId; // the conversation it is asked in (empty: none)
};

namespace AssistantRules {
constexpr int kMaxMessage = 4000; // characters of a question (and of each turn of its history)
constexpr int kMaxHistory = 50;   // turns of history read
QStringList roles();              // user, assistant
// Reads {message, language?, conversationId?, history?} at once, as an action's members are read:
// the first problem refuses. message: a non-blank string of at most kMaxMessage characters
// (Unprocessable when absent or blank, BadRequest otherwise); language: a language code such as tr
// or en; conversationId: a string; history: an array of at most kMaxHistory objects {role: user or
// assistant, content: a string of at most kMaxMessage characters} (BadRequest naming the turn,
// "history[2].role").
AssistantRequest parse(const QJsonObject &body);
} // namespace AssistantRules
