#pragma once

#include "model/campaigns/campaignrepository.h"
#include "server/controllers/controller.h"

// /api/v1/campaigns: list (filters), create, detail, update (PUT and PATCH, both partial, only while
// DRAFT or SCHEDULED), delete (the same), the moves send, pause, resume, cancel, retry-failed, test
// sends, statistics (the spec's bare object), the recipients with their status, the audience preview
// of a segment; and /api/v1/unsubscribes, the unsubscribe list (adding: anyone who may send
// campaigns; removing: admins); and POST /webhooks/email/bounce, where a mail system reports late
// bounces (DSNs). docs/api.md, "Campaigns".
class CampaignsController final : public Controller
{
public:
    explicit CampaignsController(const Store &store);
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    ApiResponse list(ApiRequest &request);
    ApiResponse create(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse update(ApiRequest &request);
    ApiResponse remove(ApiRequest &request);
    ApiResponse send(ApiRequest &request);
    ApiResponse pause(ApiRequest &request);
    ApiResponse resume(ApiRequest &request);
    ApiResponse cancel(ApiRequest &request);
    ApiResponse retryFailed(ApiRequest &request);
    ApiResponse test(ApiRequest &request);
    ApiResponse stats(ApiRequest &request);
    ApiResponse recipients(ApiRequest &request);
    ApiResponse enrolments(ApiRequest &request);
    ApiResponse audience(ApiRequest &request);
    ApiResponse unsubscribes(ApiRequest &request);
    ApiResponse addUnsubscribe(ApiRequest &request);
    ApiResponse removeUnsubscribe(ApiRequest &request);
    ApiResponse bounce(ApiRequest &request);

    // The campaign with its statistics (`stats`).
    QJsonObject withStats(const Campaign &c) const;

    CampaignRepository m_campaigns;
    SuppressionRepository m_suppressions;
};
