#pragma once

#include "server/controllers/controller.h"

#include "model/core/importjobrepository.h"

#include <memory>

class ImportRunner;
class MediaService;

// CSV imports through the API (docs/api.md, "Imports"): POST /api/v1/contacts/import takes the file
// and its mapping and answers 202 with a job that ImportRunner runs off the HTTP thread; GET
// /api/v1/imports/:id reads the job from the database (so any copy of Liaison answers it) and POST
// /api/v1/imports/:id/cancel asks it to stop after its batch.
class ImportsController final : public Controller
{
public:
    ImportsController(const Store &store, std::shared_ptr<ImportRunner> runner, std::shared_ptr<MediaService> media);
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    ApiResponse importContacts(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse cancel(ApiRequest &request);

    Store m_store;
    ImportJobRepository m_jobs;
    std::shared_ptr<ImportRunner> m_runner;
    std::shared_ptr<MediaService> m_media;
};
