#pragma once

#include <QObject>
#include <QString>

// Tells every thread that stored data changed, after the change committed. Receivers in other
// threads get the signal queued (AutoConnection), so a contact created over the API appears in an
// open window at once. One instance per process, created by the app and handed to the services.
// What changed is named by enums, so that a listener and a sender cannot disagree on a spelling.
class EventBus : public QObject
{
    Q_OBJECT
public:
    enum class Entity
    {
        Contact,
        Segment,
        Deal,
        Pipeline,
        Task,
        Conversation,
        Message,
        Bulk, // a bulk send
        Media,
        Webhook,
        IncomingWebhook,
        ApiKey,
        User,
        Campaign,
        CampaignRecipient, // a recipient's send, open, click, bounce
        Unsubscribe,
        Knowledge, // a knowledge entry of the assistant
        AiAnswer,  // an answer of the assistant (asked, fed back on, a suggestion accepted or dismissed)
    };
    Q_ENUM(Entity)

    enum class Change
    {
        Created,
        Updated,
        Deleted,
        Read,       // a conversation was read
        NewMessage, // a conversation got a message (and stayed open)
        Status,     // a message's delivery status moved
        Reminder,   // a task's reminder fired
        Overdue,    // a task became overdue
    };
    Q_ENUM(Change)

    using QObject::QObject;

    void notify(Entity entity, const QString &id, Change change) { Q_EMIT changed(entity, id, change); }

    // "contact", "incoming_webhook", "created", "new_message": for logs and test messages.
    static QString name(Entity entity);
    static QString name(Change change);

Q_SIGNALS:
    void changed(EventBus::Entity entity, const QString &id, EventBus::Change change);
};
