#include "server/controllers/widgetevents.h"

#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/inbox/conversationrepository.h"

#include <QHash>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QMutex>

#include <exception>
#include <vector>

Q_LOGGING_CATEGORY(lcWidgetEvents, "liaison.widget.events")

QJsonObject widgetMessageJson(const Message &m)
{
    QJsonObject o{{QStringLiteral("id"), m.id},
                  {QStringLiteral("direction"), m.direction},
                  {QStringLiteral("type"), m.type},
                  {QStringLiteral("text"), m.text},
                  {QStringLiteral("status"), m.delivery.status},
                  {QStringLiteral("createdAt"), m.createdAt}};
    if (!m.mediaUrl.isEmpty())
        o.insert(QStringLiteral("mediaUrl"), m.mediaUrl);
    if (m.direction == QLatin1String("outgoing"))
        o.insert(QStringLiteral("sender"),
                 QJsonObject{{QStringLiteral("type"), m.sender.type}, {QStringLiteral("name"), m.sender.name}});
    return o;
}

QByteArray sseEvent(const QByteArray &event, const QJsonObject &data, const QString &id)
{
    QByteArray out;
    if (!id.isEmpty())
        out += "id: " + id.toUtf8() + '\n';
    out += "event: " + event + '\n';
    out += "data: " + QJsonDocument(data).toJson(QJsonDocument::Compact) + "\n\n";
    return out;
}

int WidgetStreams::open() const
{
    QMutexLocker lock(&m_mutex);
    return m_total;
}

WidgetStreams::Admission WidgetStreams::admit(const QString &visitorId)
{
    QMutexLocker lock(&m_mutex);
    if (m_total >= kMax)
        return Admission::ServerFull;
    int &mine = m_perVisitor[visitorId];
    if (mine >= kMaxPerVisitor)
        return Admission::VisitorFull;
    ++mine;
    ++m_total;
    return Admission::Admitted;
}

void WidgetStreams::release(const QString &visitorId)
{
    QMutexLocker lock(&m_mutex);
    auto it = m_perVisitor.find(visitorId);
    if (it == m_perVisitor.end())
        return;
    if (--it.value() <= 0)
        m_perVisitor.erase(it);
    --m_total;
}

WidgetEventHub::WidgetEventHub(ConversationRepository &conversations, WidgetStreams &streams, QObject *parent)
    : QObject(parent)
    , m_conversations(conversations)
    , m_counts(streams)
{
    // Queued even when the change was made in this thread: the handler that made it answers first,
    // and writing to a stream never re-enters a repository call.
    connect(&conversations.store().bus(), &EventBus::changed, this, &WidgetEventHub::onChanged, Qt::QueuedConnection);
    connect(&m_keepAlive, &QTimer::timeout, this, &WidgetEventHub::keepAlive);
}

WidgetEventHub::~WidgetEventHub()
{
    for (auto &[key, entry] : m_streams) {
        entry.stream.end();
        m_counts.release(entry.visitorId);
    }
    m_streams.clear();
}

void WidgetEventHub::attach(const HttpResponder &responder, HttpResponse head, const QString &visitorId,
                            const QString &conversationId, const QString &conversationStatus)
{
    const quint64 key = m_nextKey++;
    QPointer<WidgetEventHub> self(this);
    const HttpStream stream = responder.stream(std::move(head), [self, key] {
        if (self)
            self->closed(key);
    });
    if (!stream.isOpen()) {
        m_counts.release(visitorId);
        return;
    }
    m_streams.emplace(key, Entry{stream, visitorId, conversationId, conversationStatus});
    if (!m_keepAlive.isActive())
        m_keepAlive.start(m_counts.keepAliveMs());
}

void WidgetEventHub::closed(quint64 key)
{
    drop(key);
}

void WidgetEventHub::drop(quint64 key)
{
    auto it = m_streams.find(key);
    if (it == m_streams.end())
        return;
    m_counts.release(it->second.visitorId);
    m_streams.erase(it);
    if (m_streams.empty())
        m_keepAlive.stop();
}

void WidgetEventHub::keepAlive()
{
    static const QByteArray kComment = QByteArrayLiteral(": keep-alive\n\n");
    std::vector<quint64> gone;
    for (const auto &[key, entry] : m_streams) {
        if (!entry.stream.write(kComment))
            gone.push_back(key);
    }
    for (quint64 key : gone)
        drop(key);
}

bool WidgetEventHub::streams(const QString &conversationId) const
{
    for (const auto &[key, entry] : m_streams) {
        if (entry.conversationId == conversationId)
            return true;
    }
    return false;
}

void WidgetEventHub::broadcast(const QString &conversationId, const QByteArray &bytes)
{
    std::vector<quint64> gone;
    for (const auto &[key, entry] : m_streams) {
        if (entry.conversationId == conversationId && !entry.stream.write(bytes))
            gone.push_back(key);
    }
    for (quint64 key : gone)
        drop(key);
}

Message WidgetEventHub::markDelivered(const Message &m) const
{
    if (m.direction != QLatin1String("outgoing") || m.delivery.status != QLatin1String("sent"))
        return m;
    const Message now = m_conversations.updateStatus(m.id, QStringLiteral("delivered"));
    if (now.delivery.status != m.delivery.status) {
        if (m_selfDelivered.size() > 1000)
            m_selfDelivered.clear();
        m_selfDelivered.insert(m.id);
    }
    return now;
}

void WidgetEventHub::onChanged(EventBus::Entity entity, const QString &id, EventBus::Change change)
{
    if (m_streams.empty())
        return;
    try {
        if (entity == EventBus::Entity::Message) {
            if (change != EventBus::Change::Created && m_selfDelivered.remove(id))
                return; // our own move to delivered: the streams have the message already
            std::optional<Message> m = m_conversations.findMessage(id);
            if (!m || !streams(m->conversationId))
                return;
            // A status report of the reply we are about to mark delivered is sent by that move itself.
            const bool isNew = change == EventBus::Change::Created;
            const Message now = markDelivered(*m);
            if (!isNew && now.delivery.status != m->delivery.status)
                return; // the move to delivered notifies again; that event carries it
            broadcast(m->conversationId, sseEvent("message", widgetMessageJson(now), isNew ? now.id : QString()));
        } else if (entity == EventBus::Entity::Conversation) {
            bool watched = false;
            for (const auto &[key, entry] : m_streams)
                watched = watched || entry.conversationId == id;
            if (!watched)
                return;
            const std::optional<Conversation> v = m_conversations.find(id);
            if (!v)
                return;
            std::vector<quint64> gone;
            for (auto &[key, entry] : m_streams) {
                if (entry.conversationId != id || entry.conversationStatus == v->status)
                    continue;
                entry.conversationStatus = v->status;
                if (!entry.stream.write(sseEvent("conversation", QJsonObject{{QStringLiteral("status"), v->status}})))
                    gone.push_back(key);
            }
            for (quint64 key : gone)
                drop(key);
        }
    } catch (const std::exception &e) {
        // a message deleted meanwhile, a database hiccup: the page re-fetches on its next connect
        qCWarning(lcWidgetEvents) << "widget event for" << entity << id << "not pushed:" << e.what();
    }
}
