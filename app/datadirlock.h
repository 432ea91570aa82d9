#pragma once

#include <QString>

// Who uses a data directory, told between processes: every `liaison serve` and every window holds
// DATA/in-use.lock shared (flock), `liaison restore` takes it exclusively and so refuses while any
// of them runs, and they refuse to start while a restore runs. The system releases a lock when its
// process ends, however it ends (kill -9 included): no stale lock to clean up. The window's own
// lock (window.lock: one window a data directory) is another matter and stays.
class DataDirLock
{
public:
    explicit DataDirLock(const QString &dataDir);
    ~DataDirLock();
    DataDirLock(const DataDirLock &) = delete;
    DataDirLock &operator=(const DataDirLock &) = delete;

    // Shared: false only when a restore holds it (other failures, such as a file system without
    // locks, are logged and let the program run).
    bool share();
    // Exclusive, without waiting: false when a Liaison process uses the directory (or the lock
    // cannot be taken: error() says why).
    bool takeExclusive();
    QString error() const { return m_error; }

private:
    QString m_path;
    int m_fd = -1;
    QString m_error;
};
