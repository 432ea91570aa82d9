#include "model/core/store.h"

#include "model/core/changefeed.h"
#include "model/core/database.h"
#include "model/core/outbox.h"

void Store::notify(EventBus::Entity entity, const QString &id, EventBus::Change change) const
{
    EventBus *bus = m_bus;
    if (!Database::inWriteTransaction()) {
        bus->notify(entity, id, change);
        Database::tellOtherCopies(ChangeFeed::payload(entity, id, change));
        return;
    }
    // The same news twice in one transaction (a batch of deliveries of one webhook) is told once;
    // past kMaxNewsPerKind changes of one kind (a bulk send's messages), the rest is told as one
    // change without an id, which listeners read as "several". The other copies of a shared
    // database get the same news at the same commit (PostgreSQL folds repeated payloads into one).
    const QString group = QString::number(quintptr(bus), 16) + QLatin1Char('/') + QString::number(int(entity)) +
                          QLatin1Char('/') + QString::number(int(change));
    if (Database::afterCommitCount(group) >= kMaxNewsPerKind) {
        Database::afterCommit([bus, entity, change]() { bus->notify(entity, QString(), change); },
                              group + QLatin1String("/*"), group);
        Database::tellOtherCopies(ChangeFeed::payload(entity, QString(), change));
        return;
    }
    Database::afterCommit([bus, entity, id, change]() { bus->notify(entity, id, change); },
                          group + QLatin1Char('/') + id, group);
    Database::tellOtherCopies(ChangeFeed::payload(entity, id, change));
}

QString Store::appendEvent(const QString &event, const QJsonObject &data) const
{
    return Outbox::append(event, data, nowIso());
}
