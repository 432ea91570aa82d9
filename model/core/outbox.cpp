#include "model/core/outbox.h"

#include "model/core/database.h"
#include "model/core/ids.h"

#include <QJsonDocument>

QString Outbox::append(const QString &event, const QJsonObject &data, const QString &timestamp)
{
    const QString id = Ids::make(u"evt");
    const QJsonObject envelope{
        {QStringLiteral("id"), id},
        {QStringLiteral("event"), event},
        {QStringLiteral("timestamp"), timestamp},
        {QStringLiteral("data"), data},
    };
    // Several copies on one PostgreSQL database: an event takes a seq only when every event before
    // it has committed, so that readers of the outbox in seq order (webhook fan-out, live refresh)
    // never pass over one committed later with a lower seq.
    Database::lockUntilCommit(Database::Lock::OutboxOrder);
    Database::execCached(
        QStringLiteral("INSERT INTO outbox (id, event, payload, created_at) VALUES (?, ?, ?, ?)"),
        {id, event, QString::fromUtf8(QJsonDocument(envelope).toJson(QJsonDocument::Compact)), timestamp});
    return id;
}

QJsonArray Outbox::changedFields(const QJsonObject &before, const QJsonObject &after, const QStringList &ignored)
{
    QJsonArray changed;
    for (auto it = after.begin(); it != after.end(); ++it) {
        if (!ignored.contains(it.key()) && before.value(it.key()) != it.value())
            changed.append(it.key());
    }
    return changed;
}
