#include "messaging/channels/bulkexpander.h"

#include "model/core/eventbus.h"

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcChannels)

BulkExpander::BulkExpander(const Store &store, QObject *parent)
    : QObject(parent)
    , m_bulk(store)
{
    m_soon.setSingleShot(true);
    m_soon.setInterval(0);
    connect(&m_soon, &QTimer::timeout, this, &BulkExpander::tick);
    m_poll.setInterval(3000);
    connect(&m_poll, &QTimer::timeout, this, &BulkExpander::tick);
    m_poll.start();
    connect(&store.bus(), &EventBus::changed, this,
            [this](EventBus::Entity entity, const QString &, EventBus::Change change) {
                if (entity == EventBus::Entity::Bulk && change == EventBus::Change::Created)
                    wake();
            });
    wake();
}

std::function<QObject *(QObject *)> BulkExpander::factory(const Store &store)
{
    return [store](QObject *parent) -> QObject * { return new BulkExpander(store, parent); };
}

void BulkExpander::wake()
{
    if (!m_soon.isActive())
        m_soon.start();
}

void BulkExpander::tick()
{
    int n = 0;
    try {
        n = m_bulk.expand(kBatch);
    } catch (const std::exception &e) {
        qCWarning(lcChannels) << "expanding bulk sends failed:" << e.what();
        return;
    }
    if (n > 0)
        Q_EMIT expanded(n);
    if (n == kBatch)
        wake(); // more wait: the next batch after the events queued meanwhile
}
