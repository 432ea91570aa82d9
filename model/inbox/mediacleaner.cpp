#include "model/inbox/mediacleaner.h"

#include "model/inbox/mediarepository.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcMedia, "liaison.media")

MediaCleaner::MediaCleaner(QString mediaDir, EventBus *bus, const Clock *clock, int intervalMs, QObject *parent)
    : QObject(parent)
    , m_dir(std::move(mediaDir))
    , m_bus(bus)
    , m_clock(clock)
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
        const int deleted = MediaRepository(m_dir, m_bus, m_clock).deleteExpired();
        if (deleted > 0)
            qCInfo(lcMedia) << "deleted" << deleted << "expired media";
        return deleted;
    } catch (const std::exception &e) {
        // A busy database or a full disk: try again at the next interval.
        qCWarning(lcMedia) << "media clean-up failed:" << e.what();
        return 0;
    }
}

std::function<QObject *(QObject *)> MediaCleaner::factory(const QString &mediaDir, EventBus *bus)
{
    return [mediaDir, bus](QObject *parent) -> QObject * {
        auto *cleaner = new MediaCleaner(mediaDir, bus, &Clock::system(), 3600 * 1000, parent);
        QMetaObject::invokeMethod(cleaner, &MediaCleaner::start, Qt::QueuedConnection);
        return cleaner;
    };
}
