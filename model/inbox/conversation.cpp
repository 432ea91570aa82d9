#include "model/inbox/conversation.h"

#include "model/core/jsonwriter.h"

#include <QJsonArray>

namespace {
QJsonValue assignee(const Conversation &c)
{
    if (c.assignedTo.isEmpty())
        return QJsonValue::Null;
    return QJsonObject{{QStringLiteral("id"), c.assignedTo}, {QStringLiteral("name"), c.assignedName}};
}

QJsonValue visitor(const Conversation &c)
{
    return QJsonObject{{QStringLiteral("id"), c.externalId}, {QStringLiteral("name"), c.visitorName}};
}
} // namespace

QString Conversation::contactName() const
{
    if (!hasContact())
        return visitorName;
    return QStringList{contactFirstName, contactLastName}.join(QLatin1Char(' ')).trimmed();
}

QJsonObject Conversation::toListJson() const
{
    QJsonValue last = QJsonValue::Null;
    if (!lastMessageAt.isEmpty())
        last = QJsonObject{{QStringLiteral("text"), lastMessageText},
                           {QStringLiteral("direction"), lastMessageDirection},
                           {QStringLiteral("createdAt"), lastMessageAt}};
    QJsonObject out{
        {QStringLiteral("id"), id},
        {QStringLiteral("contactId"), Json::nullable(contactId)},
        {QStringLiteral("contact"), hasContact() ? QJsonValue(QJsonObject{{QStringLiteral("id"), contactId},
                                                                          {QStringLiteral("name"), contactName()},
                                                                          {QStringLiteral("avatar"), QJsonValue::Null}})
                                                 : QJsonValue()},
        {QStringLiteral("channel"), channel},
        {QStringLiteral("status"), status},
        {QStringLiteral("assignedTo"), assignee(*this)},
        {QStringLiteral("lastMessage"), last},
        {QStringLiteral("unreadCount"), unreadCount},
        {QStringLiteral("createdAt"), createdAt},
        {QStringLiteral("updatedAt"), updatedAt},
    };
    if (!hasContact())
        out.insert(QStringLiteral("visitor"), visitor(*this));
    return out;
}

QJsonObject Conversation::toDetailJson() const
{
    QJsonObject out{
        {QStringLiteral("id"), id},
        {QStringLiteral("contactId"), Json::nullable(contactId)},
        {QStringLiteral("contact"),
         hasContact() ? QJsonValue(QJsonObject{{QStringLiteral("id"), contactId},
                                               {QStringLiteral("firstName"), contactFirstName},
                                               {QStringLiteral("lastName"), contactLastName},
                                               {QStringLiteral("phone"), Json::nullable(contactPhone)}})
                      : QJsonValue()},
        {QStringLiteral("channel"), channel},
        {QStringLiteral("channelId"), channelId},
        {QStringLiteral("status"), status},
        {QStringLiteral("assignedTo"), assignee(*this)},
        {QStringLiteral("tags"), QJsonArray::fromStringList(tags)},
        {QStringLiteral("unreadCount"), unreadCount},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("source"), source},
                     {QStringLiteral("firstResponseTime"),
                      firstResponseSeconds ? QJsonValue(double(*firstResponseSeconds)) : QJsonValue(QJsonValue::Null)},
                     {QStringLiteral("totalMessages"), totalMessages}}},
        {QStringLiteral("ai"),
         QJsonObject{
             {QStringLiteral("handoff"),
              aiHandoff.isEmpty() ? QJsonValue() : QJsonValue(QJsonObject{{QStringLiteral("reason"), aiHandoff}})},
             {QStringLiteral("draft"), aiDraft.isEmpty()
                                           ? QJsonValue()
                                           : QJsonValue(QJsonObject{{QStringLiteral("text"), aiDraft},
                                                                    {QStringLiteral("answerId"), aiDraftAnswerId}})}}},
        {QStringLiteral("createdAt"), createdAt},
        {QStringLiteral("updatedAt"), updatedAt},
    };
    if (!hasContact())
        out.insert(QStringLiteral("visitor"), visitor(*this));
    return out;
}

QStringList ConversationRules::channels()
{
    return {QStringLiteral("whatsapp"), QStringLiteral("instagram"), QStringLiteral("telegram"),
            QStringLiteral("widget")};
}

QStringList ConversationRules::statuses()
{
    return {QStringLiteral("open"), QStringLiteral("pending"), QStringLiteral("closed")};
}

QString ConversationRules::visitorShortId(const QString &visitorId)
{
    return visitorId.right(6).toUpper();
}
