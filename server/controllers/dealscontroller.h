#pragma once

#include "server/controllers/controller.h"

#include "model/deals/dealrepository.h"
#include "model/deals/pipeline.h"
#include "model/deals/pipelinerepository.h"
#include "model/tasks/taskrepository.h"

// /api/v1/deals (list, create, detail, PUT/PATCH partial update, delete, stage moves, won, lost,
// activities, the pipeline summary at the literal /deals/pipeline) and /api/v1/pipelines (list,
// create, detail, partial update, delete). Scopes deals:read and deals:write.
class DealsController final : public Controller
{
public:
    explicit DealsController(const Store &store);
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    ApiResponse list(ApiRequest &request);
    ApiResponse create(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse update(ApiRequest &request);
    ApiResponse remove(ApiRequest &request);
    ApiResponse moveStage(ApiRequest &request);
    ApiResponse won(ApiRequest &request);
    ApiResponse lost(ApiRequest &request);
    ApiResponse addActivity(ApiRequest &request);
    ApiResponse pipelineSummary(ApiRequest &request);
    ApiResponse listPipelines(ApiRequest &request);
    ApiResponse createPipeline(ApiRequest &request);
    ApiResponse getPipeline(ApiRequest &request);
    ApiResponse updatePipeline(ApiRequest &request);
    ApiResponse removePipeline(ApiRequest &request);

    // The deal detail's `tasks` ({id, title, dueDate, status}); filled by the Tasks area.
    QJsonArray tasksOf(const QString &dealId) const;

    DealRepository m_deals;
    PipelineRepository m_pipelines;
    TaskRepository m_tasks;
};
