#pragma once

#include "model/core/eventbus.h"
#include "model/core/timeutil.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

// The one way to reach the stored data. Every repository, service, controller and view is built
// with a Store and keeps a copy: it reaches this thread's database connection (Database keeps one
// per thread, so a Store used in a thread reads and writes on that thread's connection), tells the
// event bus what changed (required: a write can never skip the windows' refresh), and asks the clock
// what time it is (the one source of "now", so that tests move time with a FakeClock).
// A small value: a few references, copied freely. docs/architecture.md, "One way to reach the store".
class Store
{
public:
    // Who acts through a store when a call names no actor: the desktop window's signed-in user. The
    // window keeps one for its lifetime and changes it at sign-in and sign-out; the stores made with
    // actingAs() read it at each write (notes' createdBy, deal activities, task authors, key owners).
    struct Actor
    {
        QString id; // user_…; empty: nobody is signed in
        QString name;
        QString role; // "admin" or "agent"
    };

    explicit Store(EventBus &bus, const Clock &clock = Clock::system())
        : m_bus(&bus)
        , m_clock(&clock)
    {
    }

    EventBus &bus() const { return *m_bus; }
    const Clock &clock() const { return *m_clock; }
    QDateTime now() const { return m_clock->now(); }
    // 2026-11-25T22:54:17.123Z, as every stored timestamp.
    QString nowIso() const { return TimeUtil::iso(m_clock->now()); }
    // Today in this machine's time zone, as the window shows dates (a deal's close date passed, a
    // message sent "yesterday"): from the same clock, so that tests move it too.
    QDate today() const { return m_clock->now().toLocalTime().date(); }

    // A copy of this store whose writes without a named actor are made by `actor` (which must
    // outlive the copy and its copies). The server's stores have none: it names the actor on
    // every call (the caller's user or API key).
    Store actingAs(const Actor &actor) const
    {
        Store s = *this;
        s.m_actor = &actor;
        return s;
    }
    // The given actor, else this store's acting user (empty when neither).
    QString actorOr(const QString &given) const { return !given.isEmpty() ? given : m_actor ? m_actor->id : QString(); }
    // The acting user (nullptr for a store without one).
    const Actor *actingUser() const { return m_actor; }

    // Tells the bus that a stored entity changed. Inside a write transaction the news waits for the
    // commit (and is dropped by a rollback), so that a listener never reads a change that is not
    // there yet or never will be, and the same news is told once per commit; past kMaxNewsPerKind
    // changes of one kind in one commit, the rest is told as one change with an empty id
    // ("several": reload). Outside a transaction it goes at once.
    static constexpr int kMaxNewsPerKind = 20;
    void notify(EventBus::Entity entity, const QString &id, EventBus::Change change) const;

    // Writes an event to the transactional outbox ({id, event, timestamp, data}, stamped by this
    // store's clock) and returns its id (evt_…). Call inside a Transaction.
    QString appendEvent(const QString &event, const QJsonObject &data) const;

private:
    EventBus *m_bus;
    const Clock *m_clock;
    const Actor *m_actor = nullptr;
};
