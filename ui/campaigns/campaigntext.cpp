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

QString CampaignText::status(const QString &s, const QString &type)
{
    if (s == QLatin1String("SENDING") && !type.isEmpty() && type != QLatin1String("BROADCAST"))
        return tr("Running");
    return status(s);
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
    if (r == QLatin1String("contact_deleted"))
        return tr("contact deleted");
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

QString CampaignText::enrolmentStatus(const QString &s)
{
    if (s == QLatin1String("active"))
        return tr("Active", "a drip's contact");
    if (s == QLatin1String("completed"))
        return tr("Completed", "a drip's contact");
    if (s == QLatin1String("exited"))
        return tr("Left", "a drip's contact");
    return s;
}

QString CampaignText::exitReason(const QString &r)
{
    if (r == QLatin1String("unsubscribed"))
        return tr("unsubscribed");
    if (r == QLatin1String("bounced"))
        return tr("address bounced");
    if (r == QLatin1String("replied"))
        return tr("replied");
    if (r == QLatin1String("deal_won"))
        return tr("deal won");
    if (r == QLatin1String("contact_deleted"))
        return tr("contact deleted");
    if (r == QLatin1String("no_address"))
        return tr("no address");
    if (r == QLatin1String("cancelled"))
        return tr("campaign cancelled");
    return r;
}

QString CampaignText::enrolmentSource(const QString &s)
{
    if (s == QLatin1String("audience"))
        return tr("Audience");
    if (s == QLatin1String("contact.created"))
        return tr("New contact");
    if (s == QLatin1String("contact.tagged"))
        return tr("Tag added");
    if (s == QLatin1String("deal.stage_changed"))
        return tr("Deal stage");
    if (s == QLatin1String("message.received"))
        return tr("Message received");
    return s;
}

QString CampaignText::step(int step)
{
    return tr("Step %1").arg(step + 1);
}

QString CampaignText::enrolmentSummary(qint64 total, qint64 active, qint64 completed, qint64 exited)
{
    const QLocale locale;
    return tr("Contacts: %1 entered, %2 active, %3 completed, %4 left")
        .arg(locale.toString(total), locale.toString(active), locale.toString(completed), locale.toString(exited));
}

QString CampaignText::percent(double rate)
{
    return tr("%1 %").arg(QLocale().toString(rate, 'f', 1));
}
