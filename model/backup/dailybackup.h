#pragma once

#include "model/backup/backup.h"

#include <QDateTime>
#include <QObject>
#include <QTimer>

#include <functional>

// The automatic backup: once a day (local date) into DATA/backups, keeping the newest `keep`
// (setting backup/keep, default 7; 0 turns it off). Lives in the delivery thread, so the window
// never waits for it: a minute after the start, then every hour it asks whether today has a
// backup (one from Settings → Backups counts) and makes one if not. A failure (a full disk) is
// logged and tried again an hour later. SQLite only (the app adds it only there).
class DailyBackup : public QObject
{
    Q_OBJECT
public:
    DailyBackup(Backup::Place place, int keep, QObject *parent = nullptr);

    // The first look after firstMs, then every intervalMs.
    void start(int firstMs = 60 * 1000, int intervalMs = 3600 * 1000);
    // Makes today's backup if there is none; true when it made one.
    bool runIfDue(const QDateTime &now);

    static std::function<QObject *(QObject *)> factory(const Backup::Place &place, int keep);

private:
    Backup::Place m_place;
    int m_keep;
    int m_intervalMs = 3600 * 1000;
    QTimer m_timer;
};
