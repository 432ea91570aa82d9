#pragma once

#include "model/inbox/mediarepository.h"

#include <QObject>
#include <QTimer>

#include <functional>

// Deletes expired media (row and file) and orphaned files in DATA/media: at start, then every
// intervalMs (an hour by default). Lives in the delivery thread. Expired media is never served
// whether or not it has been deleted yet (MediaRepository::findServable checks expiresAt).
class MediaCleaner : public QObject
{
    Q_OBJECT
public:
    MediaCleaner(const Store &store, const QString &mediaDir, int intervalMs = 3600 * 1000, QObject *parent = nullptr);

    void start();
    // Returns the number of media deleted.
    int cleanNow();
    static std::function<QObject *(QObject *)> factory(const Store &store, const QString &mediaDir);

private:
    MediaRepository m_media;
    QTimer m_timer;
};
