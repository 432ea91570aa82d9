#pragma once

#include "model/core/eventbus.h"

#include <QObject>
#include <QSqlDatabase>
#include <QTimer>

#include <optional>

// Live refresh across the copies of Liaison that share one PostgreSQL database. Every change told
// to a copy's EventBus (Store::notify) is also sent with its transaction on the channel
// Database::kChangesChannel (NOTIFY, delivered at the commit); the ChangeFeed of each other copy
// listens on a connection of its own and tells its own bus, so an open window shows a contact
// created through another copy's API within a second.
//
// Notifications are not replayed: when the listening connection is lost, the feed reconnects,
// subscribes again and tells its bus that every kind of record may have changed (an empty id, which
// listeners read as "several": reload), which catches up with whatever was missed meanwhile.
// Nothing happens on SQLite, where every writer is in this process.
class ChangeFeed : public QObject
{
    Q_OBJECT
public:
    // Listens at once on PostgreSQL (in the calling thread, which needs an event loop).
    explicit ChangeFeed(EventBus &bus, QObject *parent = nullptr);
    ~ChangeFeed() override;

    bool listening() const { return m_listening; }
    // The server process of the listening connection (PostgreSQL's pg_backend_pid), 0 when none.
    qint64 backendPid() const { return m_listening ? m_pid : 0; }
    // How often the connection is checked and, when lost, made again (tests shorten it).
    void setCheckIntervalMs(int ms) { m_check.setInterval(ms); }

    // The text of one change on the channel: "<copy> <Entity> <Change> <id>", and back (nullopt
    // for a text that is not one).
    struct News
    {
        QString copy;
        EventBus::Entity entity;
        EventBus::Change change;
        QString id;
    };
    static QString payload(EventBus::Entity entity, const QString &id, EventBus::Change change);
    static std::optional<News> parse(const QString &payload);

Q_SIGNALS:
    // After a lost connection was made again (the bus has been told to reload).
    void caughtUp();

private:
    bool listen();
    void check();
    void received(const QString &name, const QVariant &payload);
    void drop();

    EventBus &m_bus;
    QString m_name;
    QSqlDatabase m_db;
    QTimer m_check;
    bool m_listening = false;
    bool m_lost = false;
    qint64 m_pid = 0;
};
