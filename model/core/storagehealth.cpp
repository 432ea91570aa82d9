#include "model/core/storagehealth.h"

#include "model/core/errors.h"

#include <QDateTime>
#include <QLoggingCategory>

#include <atomic>

Q_LOGGING_CATEGORY(lcStorage, "liaison.db.storage")

namespace {
std::atomic<bool> g_full{false};
std::atomic<int> g_refused{0};
std::atomic<int> g_refusedSinceLog{0};
std::atomic<qint64> g_lastLogMs{0};
constexpr qint64 kLogEveryMs = 60 * 1000;
} // namespace

const char *const StorageHealth::kMessage = QT_TRANSLATE_NOOP(
    "ModelError", "The disk holding the database is full: this change was not saved. Reading still works; "
                  "writing works again once space is freed");

StorageHealth &StorageHealth::instance()
{
    static StorageHealth health;
    return health;
}

void StorageHealth::refuseWrite(const QString &where)
{
    g_refused.fetch_add(1);
    g_refusedSinceLog.fetch_add(1);
    const bool wasFull = g_full.exchange(true);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 last = g_lastLogMs.load();
    // One line a minute, from whichever thread gets there first.
    if ((!wasFull || now - last >= kLogEveryMs) && g_lastLogMs.compare_exchange_strong(last, now)) {
        const int refused = g_refusedSinceLog.exchange(0);
        qCWarning(lcStorage).noquote()
            << QStringLiteral("the disk holding the database is full: %1 write(s) refused since the last report "
                              "(%2); reads go on, writes resume once space is freed; next report in a minute at most")
                   .arg(refused)
                   .arg(where);
    }
    if (!wasFull)
        Q_EMIT instance().changed(true);
    throw DomainError(DomainError::StorageFull, QString::fromLatin1(kCode), QString::fromUtf8(kMessage));
}

void StorageHealth::noteCommitted()
{
    if (!g_full.load(std::memory_order_relaxed) || !g_full.exchange(false))
        return;
    qCInfo(lcStorage).noquote() << QStringLiteral("the database takes writes again (space was freed); %1 more "
                                                  "write(s) were refused since the last report")
                                       .arg(g_refusedSinceLog.exchange(0));
    g_lastLogMs.store(0);
    Q_EMIT instance().changed(false);
}

bool StorageHealth::isFull()
{
    return g_full.load();
}

int StorageHealth::refusedWrites()
{
    return g_refused.load();
}
