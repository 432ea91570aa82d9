#pragma once

#include "messaging/campaigns/campaignsconfig.h"
#include "model/campaigns/campaignrepository.h"

#include <QObject>

#include <functional>

class ProviderClient;
struct ProviderReply;

// The SMS campaigns' provider client, the Twilio Messages API shape (docs/api.md, "SMS campaigns"),
// asynchronous in the delivery thread: POST {apiBaseUrl}/2010-04-01/Accounts/{accountSid}/Messages.json,
// form-encoded To, From, Body and StatusCallback, HTTP Basic accountSid:authToken, bounded by
// timeoutSeconds. The base URL must be https, or http on a loopback address (ChannelUrls::allowed).
class SmsClient : public QObject
{
    Q_OBJECT
public:
    // statusCallbackUrl: where the provider reports delivery (empty: no reports asked for).
    SmsClient(const SmsConfig &config, const QString &statusCallbackUrl, QObject *parent = nullptr);
    ~SmsClient() override;

    bool isValid(QString *why = nullptr) const;
    // done is called once, in this thread (at once when the base URL is refused).
    void send(const QString &recipientId, const QString &to, const QString &body,
              const std::function<void(const CampaignSendResult &)> &done);
    // The same request with the provider's reply as it came (Settings > SMS's test send); done is
    // called once, in this thread.
    void post(const QString &to, const QString &body, const std::function<void(const ProviderReply &)> &done);

    // What an answer means for the recipient: 201/200 with a sid: Sent (providerId the sid); a
    // 4xx naming a bad or unsubscribed number (isBadNumber): HardBounce; 429, 5xx, no answer:
    // SoftFailure (tried again per campaigns/retryDelays); any other 4xx (credentials, the From
    // number, the account): Failed.
    static CampaignSendResult outcome(const QString &recipientId, const ProviderReply &reply);
    // Twilio error codes that say the number itself cannot take the message (not tried again; the
    // number is suppressed on the sms channel like a hard-bounced address).
    static bool isBadNumber(int twilioCode);
    // The status callback URL for a public base: {base}/webhooks/sms/status.
    static QString statusCallbackUrl(const QString &publicBaseUrl);

private:
    SmsConfig m_config;
    QString m_statusCallbackUrl;
    ProviderClient *m_client;
};

// The signature Twilio puts in X-Twilio-Signature: base64(HMAC-SHA1(authToken, url + each form
// parameter's name and value, sorted by name)).
namespace TwilioSignature {
QByteArray sign(const QString &authToken, const QString &url, const QList<QPair<QString, QString>> &params);
// The form parameters of an application/x-www-form-urlencoded body ('+' read as a space).
QList<QPair<QString, QString>> formParams(const QByteArray &body);
} // namespace TwilioSignature
