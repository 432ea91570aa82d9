#include "messaging/channels/outgoing.h"

#include "messaging/channels/channelsender.h"
#include "messaging/media/mediaservice.h"
#include "model/core/errors.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/templaterepository.h"

#include <QFile>
#include <QFileInfo>
#include <QMimeDatabase>

namespace OutgoingMessages {

Message sendFile(ChannelSender &sender, MediaService &media, const QString &conversationId, MediaUpload file,
                 const QString &caption, const MessageSender &from)
{
    const Conversation conversation = ConversationRepository(sender.store()).get(conversationId);
    sender.checkAvailable(conversation.channel);
    media.checkSize(file.bytes.size());
    // The channel's one-second window is taken before the file is stored: a refused send leaves
    // nothing behind.
    sender.acquireSend(conversation.channel);

    file.conversationId = conversation.id;
    const Media stored = media.store(file);

    MessageContent content;
    content.type = stored.kind;
    content.mediaUrl = media.url(stored);
    content.filename = stored.filename;
    content.caption = caption;
    content.text = caption;
    content.payload = {{QStringLiteral("mediaId"), stored.id},
                       {QStringLiteral("mimeType"), stored.mimeType},
                       {QStringLiteral("size"), double(stored.size)}};
    ChannelSender::Options options;
    options.rateLimited = false; // acquired above
    const Message m = sender.send(conversation.id, content, from, options);
    media.repository().linkMessage(stored.id, m.id);
    return m;
}

Message sendLocalFile(ChannelSender &sender, MediaService &media, const QString &conversationId,
                      const QString &filePath, const QString &caption, const MessageSender &from)
{
    const QFileInfo info(filePath);
    if (!info.isFile())
        throw DomainError::unprocessable(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Not a file: %1"), {info.fileName()}),
            {{QStringLiteral("file"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a file"))}});
    media.checkSize(info.size());
    QFile f(filePath);
    if (!f.open(QIODevice::ReadOnly))
        throw DomainError::unprocessable(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Cannot read %1: %2"), {info.fileName(), f.errorString()}),
            {{QStringLiteral("file"), ModelText(QT_TRANSLATE_NOOP("ModelError", "cannot be read"))}});
    const QByteArray bytes = f.read(media.config().maxUploadBytes + 1); // the file may grow after the check
    MediaUpload file;
    file.bytes = bytes;
    file.filename = info.fileName();
    const QMimeType type = QMimeDatabase().mimeTypeForFileNameAndData(info.fileName(), bytes);
    // Only a type the name or bytes show: the default (octet-stream, plain text guesses) lets the
    // media rules sniff the bytes.
    if (type.isValid() && !type.isDefault())
        file.declaredType = type.name().toLatin1();
    file.uploadedBy = from.id;
    return sendFile(sender, media, conversationId, file, caption.trimmed(), from);
}

QJsonArray templateComponents(const QStringList &parameters, const QStringList &buttonPayloads)
{
    QJsonArray components;
    if (!parameters.isEmpty()) {
        QJsonArray params;
        for (const QString &p : parameters)
            params.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), p}});
        components.append(
            QJsonObject{{QStringLiteral("type"), QStringLiteral("body")}, {QStringLiteral("parameters"), params}});
    }
    for (int i = 0; i < buttonPayloads.size(); ++i) {
        components.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("button")},
                                      {QStringLiteral("sub_type"), QStringLiteral("quick_reply")},
                                      {QStringLiteral("index"), i},
                                      {QStringLiteral("parameters"),
                                       QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("payload")},
                                                              {QStringLiteral("payload"), buttonPayloads.at(i)}}}}});
    }
    return components;
}

MessageContent templateContent(const MessageTemplate &tpl, const QJsonValue &components)
{
    MessageContent content;
    content.type = QStringLiteral("template");
    content.text = TemplateRules::render(tpl, components);
    content.payload = {{QStringLiteral("templateName"), tpl.name},
                       {QStringLiteral("templateLanguage"), tpl.language},
                       {QStringLiteral("components"), components.toArray()}};
    return content;
}

Message sendTemplate(ChannelSender &sender, const QString &conversationId, const QString &templateName,
                     const QString &language, const QJsonArray &components, const MessageSender &from)
{
    const MessageTemplate tpl = TemplateRepository(sender.store()).approved(templateName, language);
    const MessageContent content = templateContent(tpl, components);
    ChannelSender::Options options;
    options.rateLimited = false;
    return sender.send(conversationId, content, from, options);
}

} // namespace OutgoingMessages
