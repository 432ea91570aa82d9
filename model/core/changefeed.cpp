#include "model/core/changefeed.h"

#include "model/core/database.h"

#include <QLoggingCategory>
#include <QMetaEnum>
#include <QSqlDriver>
#include <QSqlQuery>

Q_LOGGING_CATEGORY(lcFeed, "liaison.db.feed")

namespace {
int g_feeds = 0;
} // namespace

ChangeFeed::ChangeFeed(EventBus &bus, QObject *parent)
    : QObject(parent)
    , m_bus(bus)
    , m_name(QStringLiteral("liaison-feed-%1").arg(++g_feeds))
{
    if (Database::dialect() != Database::Dialect::PostgreSQL)
        return;
    m_check.setInterval(2000);
    connect(&m_check, &QTimer::timeout, this, &ChangeFeed::check);
    m_check.start();
    if (!listen()) {
        qCWarning(lcFeed) << "cannot listen for the other copies' changes yet; trying again";
        m_lost = true;
    }
}

ChangeFeed::~ChangeFeed()
{
    drop();
}

QString ChangeFeed::payload(EventBus::Entity entity, const QString &id, EventBus::Change change)
{
    return Database::copyId() + QLatin1Char(' ') +
           QLatin1String(QMetaEnum::fromType<EventBus::Entity>().valueToKey(int(entity))) + QLatin1Char(' ') +
           QLatin1String(QMetaEnum::fromType<EventBus::Change>().valueToKey(int(change))) + QLatin1Char(' ') + id;
}

std::optional<ChangeFeed::News> ChangeFeed::parse(const QString &payload)
{
    const QStringList parts = payload.split(QLatin1Char(' '));
    if (parts.size() != 4 || parts.at(0).isEmpty())
        return std::nullopt;
    bool entityOk = false, changeOk = false;
    const int entity =
        QMetaEnum::fromType<EventBus::Entity>().keyToValue(parts.at(1).toLatin1().constData(), &entityOk);
    const int change =
        QMetaEnum::fromType<EventBus::Change>().keyToValue(parts.at(2).toLatin1().constData(), &changeOk);
    if (!entityOk || !changeOk)
        return std::nullopt;
    return News{parts.at(0), EventBus::Entity(entity), EventBus::Change(change), parts.at(3)};
}

bool ChangeFeed::listen()
{
    drop();
    try {
        m_db = Database::openExtraConnection(m_name);
    } catch (const std::exception &e) {
        qCWarning(lcFeed) << e.what();
        drop();
        return false;
    }
    QSqlDriver *driver = m_db.driver();
    connect(driver, &QSqlDriver::notification, this,
            [this](const QString &name, QSqlDriver::NotificationSource, const QVariant &payload) {
                received(name, payload);
            });
    if (!driver->subscribeToNotification(QLatin1String(Database::kChangesChannel))) {
        qCWarning(lcFeed) << "cannot subscribe to" << Database::kChangesChannel;
        drop();
        return false;
    }
    QSqlQuery q(m_db);
    m_pid = q.exec(QStringLiteral("SELECT pg_backend_pid()")) && q.next() ? q.value(0).toLongLong() : 0;
    m_listening = true;
    return true;
}

void ChangeFeed::drop()
{
    m_listening = false;
    if (m_db.isValid() && m_db.isOpen()) {
        m_db.driver()->disconnect(this);
        m_db.close();
    }
    m_db = QSqlDatabase();
    // A connection that failed to open is registered under the name all the same (m_db never held
    // it): without this each next attempt made Qt warn of a duplicate connection name.
    if (QSqlDatabase::contains(m_name))
        QSqlDatabase::removeDatabase(m_name);
}

void ChangeFeed::check()
{
    if (m_listening) {
        QSqlQuery q(m_db);
        if (q.exec(QStringLiteral("SELECT 1")))
            return;
        qCWarning(lcFeed) << "the connection that listens for the other copies' changes was lost; reconnecting";
        m_lost = true;
    }
    if (!listen())
        return;
    if (m_lost) {
        // Whatever the other copies changed meanwhile was not heard: every kind may have changed.
        m_lost = false;
        const QMetaEnum entities = QMetaEnum::fromType<EventBus::Entity>();
        for (int i = 0; i < entities.keyCount(); ++i)
            m_bus.notify(EventBus::Entity(entities.value(i)), QString(), EventBus::Change::Updated);
        qCInfo(lcFeed) << "listening again for the other copies' changes";
        Q_EMIT caughtUp();
    }
}

void ChangeFeed::received(const QString &name, const QVariant &payload)
{
    if (name != QLatin1String(Database::kChangesChannel))
        return;
    const std::optional<News> news = parse(payload.toString());
    if (!news) {
        qCWarning(lcFeed) << "an unreadable change on" << name << payload.toString().left(200);
        return;
    }
    if (news->copy == Database::copyId())
        return; // this copy's bus was told already
    m_bus.notify(news->entity, news->id, news->change);
}
