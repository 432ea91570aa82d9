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
// A "full" line was written and no "takes writes again" line since: the two come in pairs.
std::atomic<bool> g_fullLogged{false};
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
    // At most one line a minute, from whichever thread gets there first. A nearly full disk lets
    // small writes through between refused ones: the state may come and go, the log does not.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 last = g_lastLogMs.load();
    if (now - last >= kLogEveryMs && g_lastLogMs.compare_exchange_strong(last, now)) {
        g_fullLogged = true;
        qCWarning(lcStorage).noquote()
            << QStringLiteral("the disk holding the database is full: %1 write(s) refused since the last report "
                              "(%2); reads go on, writes resume once space is freed; next report in a minute at most")
                   .arg(g_refusedSinceLog.exchange(0))
                   .arg(where);
    }
    if (!wasFull)
        Q_EMIT instance().changed(true);
    throw DomainError(DomainError::StorageFull, QString::fromLatin1(kCode), ModelText(kMessage));
}

void StorageHealth::noteCommitted()
{
    if (!g_full.load(std::memory_order_relaxed) || !g_full.exchange(false))
        return;
    if (g_fullLogged.exchange(false))
        qCInfo(lcStorage).noquote() << QStringLiteral("the database takes writes again; %1 more write(s) were refused "
                                                      "since the last report")
                                           .arg(g_refusedSinceLog.exchange(0));
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

void StorageHealth::reset()
{
    g_full = false;
    g_fullLogged = false;
    g_refusedSinceLog = 0;
    g_lastLogMs = 0;
}
