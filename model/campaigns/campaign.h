#pragma once

#include "model/core/errors.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTimeZone>
#include <QVector>

#include <optional>

struct Contact;

// One step of a DRIP campaign: sent delay after the step before it (the first: after the contact
// entered the audience), with its own subject and body (or, on WhatsApp, an approved template).
struct DripStep
{
    int delayMinutes = 0;
    QString subject;
    QString htmlContent;
    QString templateName;

    QJsonObject toJson() const;
    // The steps as stored (toJson's objects); members that are not there are empty.
    static QVector<DripStep> listFromJson(const QJsonArray &steps);
};

// When a DRIP campaign may send: hours [fromHour, toHour) on the listed weekdays (1 = Monday … 7),
// in the tasks time zone. Empty days: every day.
struct SendWindow
{
    int fromHour = 0;
    int toHour = 24;
    QList<int> days;

    bool isAlways() const { return fromHour == 0 && toHour == 24 && days.isEmpty(); }
    QJsonObject toJson() const;
    // The first moment at or after now (UTC) that is inside the window in zone: now itself when it
    // is inside, else the next opening hour of an allowed day (a week ahead at most).
    QDateTime nextOpening(const QDateTime &now, const QTimeZone &zone) const;
};

struct Campaign
{
    qint64 seq = 0;
    QString id; // cmp_…
    QString name;
    QString type = QStringLiteral("BROADCAST"); // BROADCAST, DRIP, TRIGGERED
    QString channel = QStringLiteral("email");  // email, sms, whatsapp
    QString status = QStringLiteral("DRAFT");
    QString subject;
    QString htmlContent;
    QString templateName; // whatsapp: an approved template
    QString templateLanguage;
    // whatsapp: the template's body parameters {{1}}, {{2}}, … in order, each a text with merge
    // fields rendered per recipient ("{{firstName|Müşterimiz}}")
    QStringList templateParams;
    QString broadcastListId; // a segment id
    QString scheduledAt;     // ISO UTC, empty: not scheduled
    QVector<DripStep> steps;
    SendWindow window;
    QJsonObject trigger;  // TRIGGERED: {event, tag?, stage?, segmentId?}
    QString statusReason; // why it failed or paused itself
    QJsonObject skipped;  // audience left out, by reason: {no_address, unsubscribed, bounced, duplicate}
    QString startedAt;
    QString completedAt;
    QString createdBy;
    QString createdAt;
    QString updatedAt;

    bool isEditable() const;
    QJsonObject toJson() const;
};

// A create or update body, checked for types and formats. Absent: nullopt.
struct CampaignChanges
{
    std::optional<QString> name, type, channel, subject, htmlContent, templateName, templateLanguage, broadcastListId,
        scheduledAt;
    std::optional<QStringList> templateParams;
    std::optional<QVector<DripStep>> steps;
    std::optional<SendWindow> window;
    std::optional<QJsonObject> trigger;
};

// Statistics from the recipients' real signals (docs/api.md, "Campaign statistics").
struct CampaignStats
{
    qint64 total = 0; // the frozen audience, skipped ones included (test sends never count)
    qint64 pending = 0;
    qint64 sent = 0;      // handed to the provider (SMTP accepted, SMS/WhatsApp provider id)
    qint64 delivered = 0; // sent and not bounced (e-mail) or reported delivered (SMS, WhatsApp)
    qint64 opened = 0;    // a human open or a click
    qint64 clicked = 0;
    qint64 bounced = 0; // hard and soft
    qint64 failed = 0;
    qint64 skipped = 0;
    qint64 unsubscribed = 0;
    qint64 proxyOpens = 0; // opens by mail-provider proxies or pre-fetches, not counted in opened

    double deliveryRate() const; // delivered / sent
    double openRate() const;     // opened / delivered
    double clickRate() const;    // clicked / delivered
    // The spec's object: sent, delivered, opened, clicked, bounced and the three rates, then the
    // additions (total, pending, failed, skipped, unsubscribed, proxyOpens).
    QJsonObject toJson() const;
};

namespace CampaignRules {
extern const QStringList Types;    // BROADCAST, DRIP, TRIGGERED
extern const QStringList Channels; // email, sms, whatsapp
extern const QStringList Statuses; // DRAFT, SCHEDULED, SENDING, PAUSED, SENT, FAILED, CANCELLED
extern const QStringList TriggerEvents;
constexpr int kMaxSteps = 20;
constexpr int kMaxTemplateParams = 20;

// Reads a body; throws DomainError naming every bad field.
CampaignChanges parse(const QJsonObject &body);
void apply(Campaign &c, const CampaignChanges &changes);
// What a campaign must have before it is saved: a name, a known type and channel; an e-mail
// campaign a subject and a body (or steps); a WhatsApp one a template; drip steps; a trigger's
// event. Throws Unprocessable naming the fields.
void checkComplete(const Campaign &c);
// The moves of the state machine (docs/api.md): throws Conflict (INVALID_TRANSITION) naming both.
bool canMove(const QString &from, const QString &to);
void checkMove(const QString &from, const QString &to);
[[noreturn]] void refuseMove(const QString &from, const QString &to);
// The contact a TRIGGERED campaign's trigger ({event, tag?, stage?, channel?}) starts for an outbox
// event (its name and its data), or empty when the event does not match: contact.created;
// contact.tagged (a contact created with the tag, or updated with its tags changed and the tag
// among them; without case); deal.stage_changed (to the stage, when given) of a deal with a
// contact; message.received, an incoming one (on the channel, when given).
QString triggeredContact(const QJsonObject &trigger, const QString &event, const QJsonObject &data);
// The outbox events a trigger event is read from.
QStringList triggerSources();
} // namespace CampaignRules

// Merge fields: {{firstName}}, {{company|our customer}}; built-in contact fields, then the
// contacts' custom fields by key; {{unsubscribeUrl}} is filled by the sender.
namespace MergeFields {
extern const QStringList Builtin;
// The field names a text uses, in order of first use.
QStringList used(const QString &text);
// The text with each field replaced by the contact's value, or its fallback when that is empty
// (html: values are HTML-escaped). extra: values that are not contact fields (unsubscribeUrl).
QString render(const QString &text, const Contact &contact, bool html, const QHash<QString, QString> &extra = {});
} // namespace MergeFields
