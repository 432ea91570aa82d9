#pragma once

#include <QObject>
#include <QString>

// Tells every thread that stored data changed, after the change committed. Receivers in other
// threads get the signal queued (AutoConnection), so a contact created over the API appears in an
// open window at once. One instance per process, created by the app and handed to the services.
class EventBus : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // entity: "contact", "apikey", …; change: "created", "updated", "deleted".
    void notify(const QString &entity, const QString &id, const QString &change) { Q_EMIT changed(entity, id, change); }

Q_SIGNALS:
    void changed(const QString &entity, const QString &id, const QString &change);
};
