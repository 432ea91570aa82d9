#pragma once

#include "model/inbox/inboundrecorder.h"

#include <QJsonObject>

#include <optional>

// Reading one Telegram Update (getUpdates item or webhook body) into what InboundRecorder records.
namespace TelegramUpdate {

enum class Kind
{
    Message,  // an incoming message or button tap: record it
    Ignored,  // a valid update of a kind we do not record (edited message, a bot's own post…)
    Malformed // not an Update
};

struct Parsed
{
    Kind kind = Kind::Malformed;
    InboundMessage message;
    QString callbackQueryId; // a button tap: answerCallbackQuery stops the spinner in the app
    QString why;             // Malformed: what is wrong
};

// message (text, photo — the largest size, its file_id in payload.fileId —, document, video, audio,
// voice, location, sticker as its emoji, other kinds as a "[kind]" text) and callback_query (its
// data as the text). providerId "<chat_id>:<message_id>" ("<chat_id>:cb<id>" for a button tap);
// externalId: the chat id; name: first_name + last_name, else "@username"; payload.username and
// payload.userId keep the sender's Telegram identity. botId: our bot's id (channelId), may be empty.
Parsed parse(const QJsonObject &update, const QString &botId = {});

// The update_id, or -1 when missing.
qint64 updateId(const QJsonObject &update);

} // namespace TelegramUpdate
