#pragma once

#include "messaging/media/mediaconfig.h"
#include "model/inbox/mediarepository.h"

#include <functional>

// Stored media: the size limit, files kept for media/lifetimeDays, and the absolute URL that serves
// one. Used by the upload routes and by the window's composer. One per ApiServer (and one for the
// window); the repository is used from its owner's thread only.
class MediaService
{
public:
    MediaService(MediaConfig config, const QString &dataDir, const Store &store, std::function<QString()> baseUrl);

    const MediaConfig &config() const { return m_config; }
    MediaRepository &repository() { return m_repository; }

    // DomainError TooLarge PAYLOAD_TOO_LARGE (details.maxBytes) above media/maxUploadBytes,
    // Unprocessable EMPTY_FILE when empty.
    void checkSize(qint64 size) const;
    // Stores an upload (checked with checkSize) for media/lifetimeDays; DomainError Unprocessable
    // MEDIA_TYPE_MISMATCH when its bytes contradict its type.
    Media store(MediaUpload upload);
    // The absolute URL of stored media (needs the token, known right after store()).
    QString url(const Media &media) const;

private:
    MediaConfig m_config;
    MediaRepository m_repository;
    std::function<QString()> m_baseUrl;
};
