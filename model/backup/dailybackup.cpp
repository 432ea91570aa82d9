#include "model/backup/dailybackup.h"

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcBackup)

DailyBackup::DailyBackup(Backup::Place place, int keep, QObject *parent)
    : QObject(parent)
    , m_place(std::move(place))
    , m_keep(keep)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        runIfDue(QDateTime::currentDateTime());
        m_timer.start(m_intervalMs);
    });
}

void DailyBackup::start(int firstMs, int intervalMs)
{
    m_intervalMs = intervalMs;
    m_timer.start(firstMs);
}

bool DailyBackup::runIfDue(const QDateTime &now)
{
    if (m_keep < 1)
        return false;
    try {
        if (Backup::hasBackupOf(m_place.backupsDir(), now.toLocalTime().date()))
            return false;
        Backup::createInBackupsDir(m_place, now, m_keep);
        return true;
    } catch (const DomainError &e) {
        qCWarning(lcBackup).noquote()
            << QStringLiteral("the daily backup failed: %1; trying again in an hour").arg(e.message());
    } catch (const std::exception &e) {
        qCWarning(lcBackup).noquote()
            << QStringLiteral("the daily backup failed: %1; trying again in an hour").arg(QString::fromUtf8(e.what()));
    }
    return false;
}

std::function<QObject *(QObject *)> DailyBackup::factory(const Backup::Place &place, int keep)
{
    return [place, keep](QObject *parent) -> QObject * {
        auto *daily = new DailyBackup(place, keep, parent);
        daily->start();
        return daily;
    };
}
