#include "model/inbox/message.h"

#include "model/assistant/sentiment.h"
#include "model/core/errors.h"
#include "model/core/fieldreader.h"
#include "model/core/jsonwriter.h"

#include <QJsonValue>
#include <QUrl>

namespace {
int rank(const QString &status)
{
    if (status == QLatin1String("pending"))
        return 0;
    if (status == QLatin1String("sent"))
        return 1;
    if (status == QLatin1String("delivered"))
        return 2;
    if (status == QLatin1String("read"))
        return 3;
    return -1;
}

[[noreturn]] void bad(const QString &field, const ModelText &problem)
{
    throw DomainError::invalid(field, problem);
}

[[noreturn]] void missing(const QString &field)
{
    throw DomainError::missingFields({{field, DomainError::isRequired()}});
}

QString optionalString(const QJsonObject &body, const QString &field, int maxLength)
{
    const QJsonValue v = body.value(field);
    if (v.isUndefined() || v.isNull())
        return {};
    if (!v.isString())
        bad(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string")));
    const QString s = v.toString().trimmed();
    if (s.size() > maxLength)
        bad(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be at most %1 characters"), {maxLength}));
    return s;
}

QString mediaUrl(const QJsonObject &body)
{
    const QString url = optionalString(body, QStringLiteral("mediaUrl"), 2048);
    if (url.isEmpty())
        missing(QStringLiteral("mediaUrl"));
    const QUrl u(url, QUrl::StrictMode);
    if (!u.isValid() || (u.scheme() != QLatin1String("https") && u.scheme() != QLatin1String("http")) ||
        u.host().isEmpty())
        bad(QStringLiteral("mediaUrl"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be an http(s) URL")));
    return url;
}

double coordinate(const QJsonObject &body, const QString &field, double limit)
{
    const QJsonValue v = body.value(field);
    if (v.isUndefined() || v.isNull())
        missing(field);
    if (!v.isDouble() || v.toDouble() < -limit || v.toDouble() > limit)
        bad(field, ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a number from %1 to %2"), {-limit, limit}));
    return v.toDouble();
}
} // namespace

QJsonObject Message::toJson() const
{
    QJsonObject o{
        {QStringLiteral("id"), id},
        {QStringLiteral("conversationId"), conversationId},
        {QStringLiteral("contactId"), Json::nullable(contactId)},
        {QStringLiteral("channel"), channel},
        {QStringLiteral("direction"), direction},
        {QStringLiteral("type"), type},
        {QStringLiteral("text"), text},
        {QStringLiteral("status"), delivery.status},
        {QStringLiteral("sentAt"), Json::nullable(delivery.sentAt)},
        {QStringLiteral("deliveredAt"), Json::nullable(delivery.deliveredAt)},
        {QStringLiteral("readAt"), Json::nullable(delivery.readAt)},
        {QStringLiteral("createdAt"), createdAt},
    };
    if (!mediaUrl.isEmpty())
        o.insert(QStringLiteral("mediaUrl"), mediaUrl);
    if (!caption.isEmpty())
        o.insert(QStringLiteral("caption"), caption);
    if (!filename.isEmpty())
        o.insert(QStringLiteral("filename"), filename);
    if (type == QLatin1String("location"))
        o.insert(QStringLiteral("location"), payload);
    if (delivery.status == QLatin1String("failed")) {
        o.insert(QStringLiteral("failedAt"), Json::nullable(delivery.failedAt));
        o.insert(QStringLiteral("failedReason"), delivery.failedReason);
    }
    QJsonObject s{{QStringLiteral("type"), sender.type}, {QStringLiteral("name"), sender.name}};
    if (!sender.id.isEmpty())
        s.insert(QStringLiteral("id"), sender.id);
    o.insert(QStringLiteral("sender"), s);
    // The tone of what the customer wrote (Sentiment::analyse); the business's messages have none.
    if (direction == QLatin1String("incoming"))
        o.insert(QStringLiteral("sentiment"), MessageRules::sentimentLabel(sentimentScore));
    return o;
}

QJsonObject Message::statusJson() const
{
    QJsonObject o{
        {QStringLiteral("id"), id},
        {QStringLiteral("status"), delivery.status},
        {QStringLiteral("sentAt"), Json::nullable(delivery.sentAt)},
        {QStringLiteral("deliveredAt"), Json::nullable(delivery.deliveredAt)},
        {QStringLiteral("readAt"), Json::nullable(delivery.readAt)},
    };
    if (delivery.status == QLatin1String("failed")) {
        o.insert(QStringLiteral("failedAt"), Json::nullable(delivery.failedAt));
        o.insert(QStringLiteral("failedReason"), delivery.failedReason);
    }
    return o;
}

QStringList MessageRules::directions()
{
    return {QStringLiteral("incoming"), QStringLiteral("outgoing")};
}

QStringList MessageRules::types()
{
    return {QStringLiteral("text"),  QStringLiteral("image"),    QStringLiteral("video"),   QStringLiteral("document"),
            QStringLiteral("audio"), QStringLiteral("location"), QStringLiteral("template")};
}

QStringList MessageRules::statuses()
{
    return {QStringLiteral("pending"), QStringLiteral("sent"), QStringLiteral("delivered"), QStringLiteral("read"),
            QStringLiteral("failed")};
}

MessageRules::Advance MessageRules::advance(const MessageDelivery &current, const QString &status, const QString &at,
                                            const QString &failedReason)
{
    Advance out{current, {}};
    if (current.status == QLatin1String("failed"))
        return out; // final
    if (status == QLatin1String("failed")) {
        out.delivery.status = status;
        out.delivery.failedAt = at;
        out.delivery.failedReason = failedReason.isEmpty() ? QStringLiteral("unknown") : failedReason;
        out.reached << status;
        return out;
    }
    const int to = rank(status);
    const int from = rank(current.status);
    if (to <= from)
        return out; // late, repeated or unknown
    static const QString names[] = {QStringLiteral("pending"), QStringLiteral("sent"), QStringLiteral("delivered"),
                                    QStringLiteral("read")};
    for (int r = from + 1; r <= to; ++r) {
        QString *stamp = r == 1 ? &out.delivery.sentAt : r == 2 ? &out.delivery.deliveredAt : &out.delivery.readAt;
        if (stamp->isEmpty())
            *stamp = at;
        out.reached << names[r];
    }
    out.delivery.status = status;
    return out;
}

MessageContent MessageRules::parseContent(const QJsonObject &body, const QStringList &allowedTypes,
                                          const QString &textField)
{
    MessageContent c;
    const QJsonValue type = body.value(QStringLiteral("type"));
    if (!type.isUndefined() && !type.isNull()) {
        if (!type.isString())
            bad(QStringLiteral("type"), ModelText(QT_TRANSLATE_NOOP("ModelError", "must be a string")));
        c.type = type.toString();
    }
    if (!allowedTypes.contains(c.type))
        bad(QStringLiteral("type"), FieldReader::oneOf(allowedTypes));
    if (c.type == QLatin1String("text")) {
        c.text = optionalString(body, textField, 4096);
        if (c.text.isEmpty())
            missing(textField);
    } else if (c.type == QLatin1String("image") || c.type == QLatin1String("video") ||
               c.type == QLatin1String("audio")) {
        c.mediaUrl = mediaUrl(body);
        c.caption = optionalString(body, QStringLiteral("caption"), 1024);
        c.text = c.caption;
    } else if (c.type == QLatin1String("document")) {
        c.mediaUrl = mediaUrl(body);
        c.filename = optionalString(body, QStringLiteral("filename"), 255);
        if (c.filename.isEmpty())
            c.filename = QUrl(c.mediaUrl).fileName();
        c.caption = optionalString(body, QStringLiteral("caption"), 1024);
        c.text = c.caption.isEmpty() ? c.filename : c.caption;
    } else if (c.type == QLatin1String("location")) {
        c.payload = {{QStringLiteral("latitude"), coordinate(body, QStringLiteral("latitude"), 90)},
                     {QStringLiteral("longitude"), coordinate(body, QStringLiteral("longitude"), 180)},
                     {QStringLiteral("name"), optionalString(body, QStringLiteral("name"), 255)},
                     {QStringLiteral("address"), optionalString(body, QStringLiteral("address"), 1024)}};
        c.text = c.payload.value(QStringLiteral("name")).toString();
    }
    return c;
}

int MessageRules::sentimentScore(const QString &text)
{
    return Sentiment::analyse(text).score;
}

QString MessageRules::sentimentLabel(int score)
{
    return Sentiment::label(score);
}
