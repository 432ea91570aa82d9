#pragma once

#include "model/campaigns/campaignrepository.h"
#include "server/controllers/controller.h"

// The public links that campaign messages carry, each with a signed per-recipient token
// (CampaignLinks): the open pixel GET /t/o/:token (a 1×1 GIF, never cached), the click redirect
// GET /t/c/:token?u=URL (307 to the URL, which the token signs: no open redirect), and the
// unsubscribe page /u/:token: GET shows a confirmation form and changes nothing (a link scanner's
// visit unsubscribes no one), POST unsubscribes (the form's button, or a mail client's RFC 8058
// one-click POST with List-Unsubscribe=One-Click). docs/api.md, "Tracking and unsubscribe links".
class CampaignTrackingController final : public Controller
{
public:
    explicit CampaignTrackingController(const Store &store);
    void registerRoutes(Router &router) override;

    // A mail provider's image proxy or a machine's pre-fetch, told by its user agent (docs/api.md).
    static bool isProxyOpen(const QByteArray &userAgent);

private:
    ApiResponse open(ApiRequest &request);
    ApiResponse click(ApiRequest &request);
    ApiResponse unsubscribePage(ApiRequest &request);
    ApiResponse unsubscribe(ApiRequest &request);

    CampaignRepository m_campaigns;
};
