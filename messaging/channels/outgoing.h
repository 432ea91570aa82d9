#pragma once

#include "model/inbox/mediarepository.h"
#include "model/inbox/message.h"
#include "model/inbox/messagetemplate.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonArray>
#include <QString>
#include <QStringList>

class ChannelSender;
class MediaService;

// The rich sends the API and the window share: a file stored as media and sent into a
// conversation, and a template message. One implementation each, so that POST
// /api/v1/messages/send-file and the Inbox composer's attachment send the same message, and
// POST /api/v1/messages/template and the composer's template picker the same content.
namespace OutgoingMessages {

// Stores the file (its conversationId and lifetime are set here) as media of the conversation and sends it: type
// image/video/audio/document by the media's kind, mediaUrl (the public URL), filename, caption (also the text), payload
// {mediaId, mimeType, size}. Checks before anything is stored (DomainError): NotFound unknown conversation, Unavailable
// the channel cannot send, TooLarge above media/maxUploadBytes, Unprocessable empty, RateLimited at the channel's
// per-second limit (a refused send stores nothing); Unprocessable MEDIA_TYPE_MISMATCH when the bytes contradict the
// declared type. The media row records the conversation and the message.
Message sendFile(ChannelSender &sender, MediaService &media, const QString &conversationId, MediaUpload file,
                 const QString &caption, const MessageSender &from);

// The window's attachment: reads a local file (TooLarge above the limit before reading it,
// Unprocessable when it cannot be read or is not a file), its type from its name and content, then
// sendFile().
Message sendLocalFile(ChannelSender &sender, MediaService &media, const QString &conversationId,
                      const QString &filePath, const QString &caption, const MessageSender &from);

// The spec's template components: one body component with the text parameters (when there are
// any), one quick_reply button component (index i, payload) per button payload.
QJsonArray templateComponents(const QStringList &parameters, const QStringList &buttonPayloads);

// A template message's content: type "template", text = the body rendered with the components,
// payload {templateName, templateLanguage, components}. Throws DomainError 400 for components that
// do not fit the template.
MessageContent templateContent(const MessageTemplate &tpl, const QJsonValue &components);

// Sends an approved template into a conversation (422 TEMPLATE_NOT_APPROVED, 400 components, 404,
// 503): as POST /api/v1/messages/template does, queued without the per-second limit.
Message sendTemplate(ChannelSender &sender, const QString &conversationId, const QString &templateName,
                     const QString &language, const QJsonArray &components, const MessageSender &from);

} // namespace OutgoingMessages
