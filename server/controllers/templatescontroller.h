#pragma once

#include "server/controllers/controller.h"

#include "model/inbox/templaterepository.h"

// /api/v1/templates: the message templates the provider approved (WhatsApp). The template and
// bulk senders send only approved ones, and fill their {{n}} placeholders from the body parameters.
class TemplatesController final : public Controller
{
public:
    explicit TemplatesController(const Store &store);
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    ApiResponse list(ApiRequest &request);
    ApiResponse get(ApiRequest &request);
    ApiResponse create(ApiRequest &request);
    ApiResponse update(ApiRequest &request);
    ApiResponse remove(ApiRequest &request);

    TemplateRepository m_templates;
};
