#include "app/datadirlock.h"

#include <QDir>
#include <QFile>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

DataDirLock::DataDirLock(const QString &dataDir)
    : m_path(QDir(dataDir).filePath(QStringLiteral("in-use.lock")))
{
}

DataDirLock::~DataDirLock()
{
    if (m_fd >= 0)
        ::close(m_fd); // releases the lock
}

namespace {
int dataDirLockOpen(const QString &path, QString *error)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        *error = QStringLiteral("cannot open %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    return fd;
}
} // namespace

bool DataDirLock::share()
{
    m_fd = dataDirLockOpen(m_path, &m_error);
    if (m_fd < 0) {
        qWarning("%s; a restore cannot tell that Liaison runs", qPrintable(m_error));
        return true;
    }
    if (::flock(m_fd, LOCK_SH | LOCK_NB) == 0)
        return true;
    if (errno == EWOULDBLOCK)
        return false;
    qWarning("cannot lock %s: %s; a restore cannot tell that Liaison runs", qPrintable(m_path), std::strerror(errno));
    return true;
}

bool DataDirLock::takeExclusive()
{
    m_fd = dataDirLockOpen(m_path, &m_error);
    if (m_fd < 0)
        return false;
    if (::flock(m_fd, LOCK_EX | LOCK_NB) == 0)
        return true;
    m_error = errno == EWOULDBLOCK
                  ? QString()
                  : QStringLiteral("cannot lock %1: %2").arg(m_path, QString::fromLocal8Bit(std::strerror(errno)));
    return false;
}
