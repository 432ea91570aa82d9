#include "messaging/media/mediaservice.h"

#include "model/core/errors.h"

MediaService::MediaService(MediaConfig config, const QString &dataDir, const Store &store,
                           std::function<QString()> baseUrl)
    : m_config(std::move(config))
    , m_repository(store, dataDir + QStringLiteral("/media"))
    , m_baseUrl(std::move(baseUrl))
{
}

void MediaService::checkSize(qint64 size) const
{
    if (size > m_config.maxUploadBytes)
        throw DomainError(
            DomainError::TooLarge, QStringLiteral("PAYLOAD_TOO_LARGE"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "File too large: at most %1 bytes"), {m_config.maxUploadBytes}),
            {{QStringLiteral("maxBytes"), double(m_config.maxUploadBytes)}});
    if (size <= 0)
        throw DomainError(DomainError::Unprocessable, QStringLiteral("EMPTY_FILE"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "The file is empty")),
                          {{QStringLiteral("file"), ModelText(QT_TRANSLATE_NOOP("ModelError", "is empty"))}});
}

Media MediaService::store(MediaUpload upload)
{
    upload.lifetimeDays = m_config.lifetimeDays;
    return m_repository.store(upload);
}

QString MediaService::url(const Media &media) const
{
    QString base = m_baseUrl ? m_baseUrl() : QString();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    return base + media.path();
}
