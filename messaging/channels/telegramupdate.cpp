#include "messaging/channels/telegramupdate.h"

#include <QJsonArray>

namespace {
QString idText(const QJsonValue &v)
{
    if (v.isDouble())
        return QString::number(qint64(v.toDouble()));
    return v.toString();
}

QString s(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

void fillSender(TelegramUpdate::Parsed &out, const QJsonObject &from, const QJsonObject &chat)
{
    // A private chat's id is the user's; in a group the chat has a title and `from` is the member.
    QJsonObject who = from.isEmpty() ? chat : from;
    QString name = (s(who, "first_name") + QLatin1Char(' ') + s(who, "last_name")).simplified();
    const QString username = s(who, "username");
    const QString chatType = s(chat, "type");
    if ((chatType == QLatin1String("group") || chatType == QLatin1String("supergroup") ||
         chatType == QLatin1String("channel")) &&
        !s(chat, "title").isEmpty())
        name = s(chat, "title");
    if (name.isEmpty() && !username.isEmpty())
        name = QLatin1Char('@') + username;
    out.message.name = name;
    if (!username.isEmpty())
        out.message.content.payload.insert(QStringLiteral("username"), username);
    const QString userId = idText(who.value(QLatin1String("id")));
    if (!userId.isEmpty())
        out.message.content.payload.insert(QStringLiteral("userId"), userId);
}

TelegramUpdate::Parsed malformed(const QString &why)
{
    TelegramUpdate::Parsed p;
    p.kind = TelegramUpdate::Kind::Malformed;
    p.why = why;
    return p;
}

// The message's content; false when it carries nothing we record.
bool readContent(const QJsonObject &m, MessageContent *c)
{
    const QString caption = s(m, "caption");
    if (m.value(QLatin1String("text")).isString()) {
        c->type = QStringLiteral("text");
        c->text = s(m, "text");
        return true;
    }
    if (m.value(QLatin1String("photo")).isArray()) {
        // Sizes come smallest first; keep the largest (by area, file_size as tie-break).
        QJsonObject best;
        double bestArea = -1;
        for (const QJsonValue &v : m.value(QLatin1String("photo")).toArray()) {
            const QJsonObject size = v.toObject();
            const double area =
                size.value(QLatin1String("width")).toDouble() * size.value(QLatin1String("height")).toDouble() +
                size.value(QLatin1String("file_size")).toDouble() * 1e-9;
            if (area > bestArea) {
                bestArea = area;
                best = size;
            }
        }
        if (s(best, "file_id").isEmpty())
            return false;
        c->type = QStringLiteral("image");
        c->caption = caption;
        c->payload.insert(QStringLiteral("fileId"), s(best, "file_id"));
        c->payload.insert(QStringLiteral("width"), best.value(QLatin1String("width")));
        c->payload.insert(QStringLiteral("height"), best.value(QLatin1String("height")));
        return true;
    }
    struct FileKind
    {
        const char *field;
        const char *type;
    };
    static const FileKind files[] = {{"document", "document"}, {"video", "video"},      {"audio", "audio"},
                                     {"voice", "audio"},       {"video_note", "video"}, {"animation", "video"}};
    for (const FileKind &f : files) {
        const QJsonObject file = m.value(QLatin1String(f.field)).toObject();
        if (file.isEmpty() || s(file, "file_id").isEmpty())
            continue;
        c->type = QString::fromLatin1(f.type);
        c->caption = caption;
        c->filename = s(file, "file_name").left(255);
        c->payload.insert(QStringLiteral("fileId"), s(file, "file_id"));
        if (file.contains(QLatin1String("mime_type")))
            c->payload.insert(QStringLiteral("mimeType"), s(file, "mime_type"));
        return true;
    }
    const QJsonObject location = m.value(QLatin1String("location")).toObject();
    if (location.value(QLatin1String("latitude")).isDouble() && location.value(QLatin1String("longitude")).isDouble()) {
        c->type = QStringLiteral("location");
        c->payload.insert(QStringLiteral("latitude"), location.value(QLatin1String("latitude")));
        c->payload.insert(QStringLiteral("longitude"), location.value(QLatin1String("longitude")));
        const QJsonObject venue = m.value(QLatin1String("venue")).toObject();
        if (!venue.isEmpty()) {
            c->payload.insert(QStringLiteral("name"), s(venue, "title"));
            c->payload.insert(QStringLiteral("address"), s(venue, "address"));
        }
        return true;
    }
    const QJsonObject sticker = m.value(QLatin1String("sticker")).toObject();
    if (!sticker.isEmpty()) {
        c->type = QStringLiteral("text");
        c->text = s(sticker, "emoji").isEmpty() ? QStringLiteral("[sticker]") : s(sticker, "emoji");
        return true;
    }
    const QJsonObject contact = m.value(QLatin1String("contact")).toObject();
    if (!contact.isEmpty()) {
        c->type = QStringLiteral("text");
        c->text = (s(contact, "first_name") + QLatin1Char(' ') + s(contact, "last_name")).simplified() +
                  QLatin1Char(' ') + s(contact, "phone_number");
        c->text = c->text.simplified();
        return true;
    }
    return false;
}
} // namespace

qint64 TelegramUpdate::updateId(const QJsonObject &update)
{
    const QJsonValue v = update.value(QLatin1String("update_id"));
    return v.isDouble() ? qint64(v.toDouble()) : -1;
}

TelegramUpdate::Parsed TelegramUpdate::parse(const QJsonObject &update, const QString &botId)
{
    if (updateId(update) < 0)
        return malformed(QStringLiteral("an Update needs a numeric update_id"));
    Parsed out;
    out.message.channel = QStringLiteral("telegram");
    out.message.channelId = botId;

    const QJsonObject callback = update.value(QLatin1String("callback_query")).toObject();
    if (!callback.isEmpty()) {
        const QJsonObject from = callback.value(QLatin1String("from")).toObject();
        const QJsonObject chat =
            callback.value(QLatin1String("message")).toObject().value(QLatin1String("chat")).toObject();
        const QString chatId = idText(chat.value(QLatin1String("id"))).isEmpty()
                                   ? idText(from.value(QLatin1String("id")))
                                   : idText(chat.value(QLatin1String("id")));
        const QString id = idText(callback.value(QLatin1String("id")));
        if (chatId.isEmpty() || id.isEmpty())
            return malformed(QStringLiteral("a callback_query needs an id and a sender"));
        out.callbackQueryId = id;
        out.message.externalId = chatId;
        out.message.providerId = chatId + QStringLiteral(":cb") + id;
        out.message.content.type = QStringLiteral("text");
        out.message.content.text = s(callback, "data");
        out.message.content.payload.insert(QStringLiteral("callbackData"), s(callback, "data"));
        fillSender(out, from, chat);
        if (out.message.content.text.isEmpty()) {
            out.kind = Kind::Ignored; // a game button: nothing to record
            return out;
        }
        out.kind = Kind::Message;
        return out;
    }

    const QJsonValue messageValue = update.value(QLatin1String("message"));
    if (messageValue.isUndefined()) {
        out.kind = Kind::Ignored; // edited_message, channel_post, my_chat_member…
        return out;
    }
    const QJsonObject m = messageValue.toObject();
    const QJsonObject chat = m.value(QLatin1String("chat")).toObject();
    const QString chatId = idText(chat.value(QLatin1String("id")));
    const QJsonValue messageId = m.value(QLatin1String("message_id"));
    if (chatId.isEmpty() || !messageId.isDouble())
        return malformed(QStringLiteral("a message needs message_id and chat.id"));
    out.message.externalId = chatId;
    out.message.providerId = chatId + QLatin1Char(':') + QString::number(qint64(messageId.toDouble()));
    const QJsonObject from = m.value(QLatin1String("from")).toObject();
    if (from.value(QLatin1String("is_bot")).toBool()) {
        out.kind = Kind::Ignored;
        return out;
    }
    if (!readContent(m, &out.message.content)) {
        // A service message (member joined, pinned…) or a kind we do not keep.
        out.kind = Kind::Ignored;
        return out;
    }
    fillSender(out, from, chat);
    out.kind = Kind::Message;
    return out;
}
