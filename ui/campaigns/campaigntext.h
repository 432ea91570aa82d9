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
    static QString status(const QString &status); // DRAFT … CANCELLED
    // A campaign's state as its list says it: a DRIP or TRIGGERED one SENDING is "Running" (it
    // takes contacts until paused or cancelled), a broadcast's "Sending".
    static QString status(const QString &status, const QString &type);
    static QString channel(const QString &channel);     // email, sms, whatsapp
    static QString type(const QString &type);           // BROADCAST, DRIP, TRIGGERED
    static QString recipientStatus(const QString &s);   // pending … skipped
    static QString skipReason(const QString &reason);   // no_address, unsubscribed, bounced, duplicate
    static QString suppressionReason(const QString &r); // unsubscribed, hard_bounce, manual
    static QString triggerEvent(const QString &event);  // contact.created …
    // A drip's or trigger's contact: its state (active, completed, exited), why it left, where it
    // came from (the audience or the trigger's event, short), and a step (from 0) as "Step 1".
    static QString enrolmentStatus(const QString &status);
    static QString exitReason(const QString &reason);
    static QString enrolmentSource(const QString &source);
    static QString step(int step);
    // "Contacts: 12 entered, 8 active, 3 completed, 1 left".
    static QString enrolmentSummary(qint64 total, qint64 active, qint64 completed, qint64 exited);
    // A rate of CampaignStats (percent, 0 to 100) in the window's locale: "42,5 %".
    static QString percent(double rate);
};
