#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

// The transactional outbox: an event is a row written in the same transaction as the change it
// reports, so that it exists exactly when the change does. The delivery thread reads it from there.
namespace Outbox {
// Writes {id, event, timestamp, data} and returns the event id (evt_…). Call inside a Transaction.
// Repositories write through Store::appendEvent, which stamps the event with the store's clock.
QString append(const QString &event, const QJsonObject &data, const QString &timestamp);
// An update event's changedFields: the keys of after (a record's answer after the change) whose
// values differ from before's, in key order, those in ignored left out.
QJsonArray changedFields(const QJsonObject &before, const QJsonObject &after, const QStringList &ignored = {});
} // namespace Outbox
