#pragma once

#include "model/campaigns/campaignrepository.h"
#include "server/controllers/controller.h"

// The SMS provider's status callback, POST /webhooks/sms/status (the Twilio shape: form-encoded
// MessageSid, MessageStatus, ErrorCode), verified by X-Twilio-Signature (TwilioSignature, keyed by
// the auth token) over the URL the provider was given: {campaigns/publicBaseUrl}/webhooks/sms/status,
// or the server's own as the request names it (Host). delivered makes the campaign recipient
// delivered, undelivered and failed make it failed; other statuses and unknown sids are answered
// 200 and change nothing. docs/api.md, "SMS campaigns".
class SmsStatusController final : public Controller
{
public:
    SmsStatusController(const Store &store, const QString &authToken, const QString &publicBaseUrl);
    void registerRoutes(Router &router) override;

private:
    ApiResponse status(ApiRequest &request);

    CampaignRepository m_campaigns;
    QString m_authToken;
    QString m_publicBaseUrl;
};
