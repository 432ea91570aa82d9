#pragma once

#include "server/controllers/controller.h"

#include <QJsonObject>

#include <memory>

class MediaService;
struct Media;

// Media: POST /api/v1/media/upload (multipart, field `file`) and the public GET /media/:mediaId/:token
// that serves the bytes (the token is the credential, so that channel providers and browsers can
// fetch the URL without a bearer).
class MediaController final : public Controller
{
public:
    explicit MediaController(std::shared_ptr<MediaService> media);
    void registerRoutes(Router &router) override;
    QJsonObject schemas() const override;

private:
    // The spec's media upload result: mediaId, url, type (MIME), size, expiresAt; plus kind and filename.
    QJsonObject uploadResult(const Media &media) const;
    ApiResponse upload(ApiRequest &request);
    ApiResponse serve(ApiRequest &request);

    std::shared_ptr<MediaService> m_media;
};
