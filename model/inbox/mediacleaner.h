#pragma once

#include "model/core/timeutil.h"

#include <QObject>
#include <QTimer>

#include <functional>

class EventBus;

// Deletes expired media (row and file) and orphaned files in DATA/media: at start, then every
// intervalMs (an hour by default). Lives in the delivery thread. Expired media is never served
// whether or not it has been deleted yet (MediaRepository::findServable checks expiresAt).
class MediaCleaner : public QObject
{
    Q_OBJECT
public:
    MediaCleaner(QString mediaDir, EventBus *bus, const Clock *clock = &Clock::system(), int intervalMs = 3600 * 1000,
                 QObject *parent = nullptr);

    void start();
    // Returns the number of media deleted.
    int cleanNow();
    static std::function<QObject *(QObject *)> factory(const QString &mediaDir, EventBus *bus);

private:
    QString m_dir;
    EventBus *m_bus;
    const Clock *m_clock;
    QTimer m_timer;
};
