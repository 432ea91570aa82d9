#pragma once

#include <QCoreApplication>
#include <QString>

// The window's words for the campaigns' stored values: states, channels, types, recipients'
// states, why a recipient was skipped, why an address is on the unsubscribe list, trigger events.
// An unknown value is shown as it is.
class CampaignText
{
    Q_DECLARE_TR_FUNCTIONS(CampaignText)
public:
    static QString status(const QString &status);       // DRAFT … CANCELLED
    static QString channel(const QString &channel);     // email, sms, whatsapp
    static QString type(const QString &type);           // BROADCAST, DRIP, TRIGGERED
    static QString recipientStatus(const QString &s);   // pending … skipped
    static QString skipReason(const QString &reason);   // no_address, unsubscribed, bounced, duplicate
    static QString suppressionReason(const QString &r); // unsubscribed, hard_bounce, manual
    static QString triggerEvent(const QString &event);  // contact.created …
    // A rate of CampaignStats (percent, 0 to 100) in the window's locale: "42,5 %".
    static QString percent(double rate);
};
