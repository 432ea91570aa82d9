#include "model/core/store.h"

#include "model/core/database.h"
#include "model/core/outbox.h"

void Store::notify(EventBus::Entity entity, const QString &id, EventBus::Change change) const
{
    EventBus *bus = m_bus;
    if (!Database::inWriteTransaction()) {
        bus->notify(entity, id, change);
        return;
    }
    // The same news twice in one transaction (a batch of deliveries of one webhook) is told once.
    const QString key = QString::number(quintptr(bus), 16) + QLatin1Char('/') + QString::number(int(entity)) +
                        QLatin1Char('/') + QString::number(int(change)) + QLatin1Char('/') + id;
    Database::afterCommit([bus, entity, id, change]() { bus->notify(entity, id, change); }, key);
}

QString Store::appendEvent(const QString &event, const QJsonObject &data) const
{
    return Outbox::append(event, data, nowIso());
}
