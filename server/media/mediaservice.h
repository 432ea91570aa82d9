#pragma once

#include "model/inbox/mediarepository.h"
#include "server/api/apirequest.h"
#include "server/api/multipart.h"
#include "server/mediaconfig.h"

#include <QJsonObject>

#include <functional>

class EventBus;

// What the upload routes share (POST /api/v1/media/upload, POST /api/v1/messages/send-file): the
// multipart body of a request, the `file` part stored as media, and the absolute URL that serves it.
// One per ApiServer; the repository is used from that server's thread only.
class MediaService
{
public:
    MediaService(MediaConfig config, const QString &dataDir, EventBus *bus, std::function<QString()> baseUrl);

    const MediaConfig &config() const { return m_config; }
    MediaRepository &repository() { return m_repository; }

    // The request's form: DomainError BadRequest INVALID_MULTIPART (not multipart, malformed), 413 when the
    // body is larger than the upload limit allows.
    MultipartForm form(const ApiRequest &request) const;
    // Checks the `file` part without storing it: 422 when missing, given twice, not a file or empty;
    // 413 above media/maxUploadBytes.
    const MultipartPart &filePart(const MultipartForm &form) const;
    // 413 PAYLOAD_TOO_LARGE (details.maxBytes) above media/maxUploadBytes, 422 EMPTY_FILE when empty.
    void checkSize(qint64 size) const;
    // Stores the (checked) file part; 422 MEDIA_TYPE_MISMATCH when its bytes contradict its type.
    Media store(const MultipartPart &file, const ApiRequest &request, const QString &conversationId = {});
    // The absolute URL of stored media (needs the token, known right after store()).
    QString url(const Media &media) const;
    // The spec's media upload result: mediaId, url, type (MIME), size, expiresAt; plus kind and filename.
    QJsonObject uploadResult(const Media &media) const;
    // A text field of the form (UTF-8), empty when absent; 400 when it is a file or too long.
    static QString textField(const MultipartForm &form, const QString &name, int maxLength);

private:
    MediaConfig m_config;
    MediaRepository m_repository;
    std::function<QString()> m_baseUrl;
};
