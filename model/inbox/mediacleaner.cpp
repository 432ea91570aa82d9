#include "model/inbox/mediacleaner.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcMedia, "liaison.media")

MediaCleaner::MediaCleaner(const Store &store, const QString &mediaDir, int intervalMs, QObject *parent)
    : QObject(parent)
    , m_media(store, mediaDir)
{
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &MediaCleaner::cleanNow);
}

void MediaCleaner::start()
{
    cleanNow();
    m_timer.start();
}

int MediaCleaner::cleanNow()
{
    try {
        const int deleted = m_media.deleteExpired();
        if (deleted > 0)
            qCInfo(lcMedia) << "deleted" << deleted << "expired media";
        return deleted;
    } catch (const std::exception &e) {
        // A busy database or a full disk: try again at the next interval.
        qCWarning(lcMedia) << "media clean-up failed:" << e.what();
        return 0;
    }
}

std::function<QObject *(QObject *)> MediaCleaner::factory(const Store &store, const QString &mediaDir)
{
    return [store, mediaDir](QObject *parent) -> QObject * {
        auto *cleaner = new MediaCleaner(store, mediaDir, 3600 * 1000, parent);
        QMetaObject::invokeMethod(cleaner, &MediaCleaner::start, Qt::QueuedConnection);
        return cleaner;
    };
}
