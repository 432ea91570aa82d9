#include "ui/campaigns/campaigntext.h"

#include <QLocale>

QString CampaignText::status(const QString &s)
{
    if (s == QLatin1String("DRAFT"))
        return tr("Draft");
    if (s == QLatin1String("SCHEDULED"))
        return tr("Scheduled");
    if (s == QLatin1String("SENDING"))
        return tr("Sending");
    if (s == QLatin1String("PAUSED"))
        return tr("Paused");
    if (s == QLatin1String("SENT"))
        return tr("Sent");
    if (s == QLatin1String("FAILED"))
        return tr("Failed");
    if (s == QLatin1String("CANCELLED"))
        return tr("Cancelled");
    return s;
}

QString CampaignText::channel(const QString &c)
{
    if (c == QLatin1String("email"))
        return tr("E-mail");
    if (c == QLatin1String("sms"))
        return tr("SMS");
    if (c == QLatin1String("whatsapp"))
        return tr("WhatsApp");
    return c;
}

QString CampaignText::type(const QString &t)
{
    if (t == QLatin1String("BROADCAST"))
        return tr("Broadcast");
    if (t == QLatin1String("DRIP"))
        return tr("Drip");
    if (t == QLatin1String("TRIGGERED"))
        return tr("Triggered");
    return t;
}

QString CampaignText::recipientStatus(const QString &s)
{
    if (s == QLatin1String("pending"))
        return tr("Waiting");
    if (s == QLatin1String("sending"))
        return tr("Sending", "a recipient");
    if (s == QLatin1String("sent"))
        return tr("Sent", "a recipient");
    if (s == QLatin1String("delivered"))
        return tr("Delivered");
    if (s == QLatin1String("bounced"))
        return tr("Bounced");
    if (s == QLatin1String("failed"))
        return tr("Failed", "a recipient");
    if (s == QLatin1String("skipped"))
        return tr("Skipped");
    return s;
}

QString CampaignText::skipReason(const QString &r)
{
    if (r == QLatin1String("no_address"))
        return tr("no address");
    if (r == QLatin1String("unsubscribed"))
        return tr("unsubscribed");
    if (r == QLatin1String("bounced"))
        return tr("bounced before");
    if (r == QLatin1String("duplicate"))
        return tr("duplicate address");
    return r;
}

QString CampaignText::suppressionReason(const QString &r)
{
    if (r == QLatin1String("unsubscribed"))
        return tr("Unsubscribed");
    if (r == QLatin1String("hard_bounce"))
        return tr("Hard bounce");
    if (r == QLatin1String("manual"))
        return tr("Added by hand");
    return r;
}

QString CampaignText::triggerEvent(const QString &e)
{
    if (e == QLatin1String("contact.created"))
        return tr("A contact is created");
    if (e == QLatin1String("contact.tagged"))
        return tr("A contact gets a tag");
    if (e == QLatin1String("deal.stage_changed"))
        return tr("A deal moves to a stage");
    if (e == QLatin1String("message.received"))
        return tr("A message is received");
    return e;
}

QString CampaignText::percent(double rate)
{
    return tr("%1 %").arg(QLocale().toString(rate, 'f', 1));
}
