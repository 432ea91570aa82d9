#pragma once

#include "messaging/mail/mailconfig.h"

#include <QList>
#include <QString>
#include <QTimeZone>

// How fast a channel's campaigns send: at most perSecond messages in any one-second window (0: no
// limit), concurrency messages at once, and at most maxPerHour in any hour (0: no cap; every copy's
// sends count). Settings campaigns/<channel>/messagesPerSecond, …/concurrency, …/maxPerHour.
struct CampaignPace
{
    int perSecond = 0;
    int concurrency = 1;
    int maxPerHour = 0;
};

// The SMS provider of SMS campaigns, the Twilio Messages API shape (README, "Campaigns"): POST
// {apiBaseUrl}/2010-04-01/Accounts/{accountSid}/Messages.json with HTTP Basic accountSid:authToken.
// Settings channels/sms/apiBaseUrl (https, or http on a loopback address), channels/sms/accountSid,
// channels/sms/from, channels/sms/timeoutSeconds; the secret channels/sms/authToken.
struct SmsConfig
{
    QString apiBaseUrl = QStringLiteral("https://api.twilio.com");
    QString accountSid;
    QString authToken;
    QString from; // a number in E.164 or a sender id
    int timeoutSeconds = 30;
    bool usable() const
    {
        return !apiBaseUrl.isEmpty() && !accountSid.isEmpty() && !authToken.isEmpty() && !from.isEmpty();
    }
};

// The campaign senders' settings (README, "Campaigns").
struct CampaignsConfig
{
    // The base of the tracking and unsubscribe links (campaigns/publicBaseUrl; default the server's
    // own URL). Empty: messages carry no tracking and only a mailto unsubscribe.
    QString publicBaseUrl;
    bool tracking = true; // campaigns/tracking: the open pixel and click redirects
    CampaignPace email{50, 4, 0};
    CampaignPace sms{10, 4, 0};
    int maxSendErrors = 100;                  // campaigns/maxSendErrors: errors in a row that pause a campaign
    QList<int> retryDelays = {60, 300, 1800}; // campaigns/retryDelays: seconds before the 2nd, 3rd, … try
    int leaseSeconds = 120;                   // how long a claimed recipient stays this copy's
    int pollIntervalMs = 1000;
    // Drip campaigns: how often their segments are read again for contacts who joined
    // (campaigns/audienceCheckSeconds), and the zone of their send windows (tasks/timeZone).
    int audienceCheckMs = 60000;
    QTimeZone timeZone = QTimeZone::systemTimeZone();
    // WhatsApp campaigns are handed to the inbox's WhatsApp channel: whether it is set up.
    bool whatsapp = false;
    MailConfig mail;
    SmsConfig smsApi;
};
