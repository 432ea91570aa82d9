#pragma once

#include "model/core/eventbus.h"
#include "model/inbox/message.h"
#include "server/http/httpengine.h"

#include <QHash>
#include <QJsonObject>
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <atomic>
#include <map>

class ConversationRepository;

// What a visitor sees of a message: no ids of contacts, users or API keys.
QJsonObject widgetMessageJson(const Message &m);

// One server-sent event: "id: …\nevent: …\ndata: …\n\n" (id omitted when empty). `data` is compact
// JSON, so it never holds a line break.
QByteArray sseEvent(const QByteArray &event, const QJsonObject &data, const QString &id = {});

// The widget's event streams of every server thread of one group (ApiShared): how many are open,
// per visitor and in all, and the keep-alive period. Thread-safe.
class WidgetStreams
{
public:
    static constexpr int kMaxPerVisitor = 5;
    static constexpr int kMax = 500;
    static constexpr int kDefaultKeepAliveMs = 20000;

    enum class Admission
    {
        Admitted,
        VisitorFull,
        ServerFull
    };
    // Reserves a place for one more stream of this visitor. Once Admitted, exactly one of
    // WidgetEventHub::attach() or release() must follow.
    Admission admit(const QString &visitorId);
    void release(const QString &visitorId);
    int open() const;

    // The comment keep-alive period of streams started afterwards (tests shorten it).
    int keepAliveMs() const { return m_keepAliveMs.load(); }
    void setKeepAliveMs(int ms) { m_keepAliveMs.store(qMax(10, ms)); }

private:
    mutable QMutex m_mutex;
    QHash<QString, int> m_perVisitor;
    int m_total = 0;
    std::atomic<int> m_keepAliveMs{kDefaultKeepAliveMs};
};

// The live push of the web widget in one server thread: the open server-sent-event streams of
// visitors (GET /widget/v1/events). Changes reach it from the EventBus (queued into this thread,
// whichever thread wrote them): a message of a streamed conversation, new or with a new status,
// becomes an `event: message` (a new one with `id: <message id>`, so that Last-Event-ID resumes after
// it); a change of the conversation's status an `event: conversation` {status}. A comment keeps each
// stream alive every WidgetStreams::keepAliveMs(). An agent reply written to an open stream counts as
// fetched: it moves from sent to delivered, as GET /widget/v1/messages does.
//
// Streams are limited per visitor (WidgetStreams::kMaxPerVisitor: a few tabs) and in all
// (WidgetStreams::kMax), counted across the server threads that share a WidgetStreams.
class WidgetEventHub : public QObject
{
    Q_OBJECT
public:
    // Hears the changes on the bus of the conversations' store.
    WidgetEventHub(ConversationRepository &conversations, WidgetStreams &streams, QObject *parent = nullptr);
    ~WidgetEventHub() override;

    // Starts the stream on the responder (head: status and headers, body: the first events) and
    // keeps it until it ends; releases the reservation when the stream could not start.
    void attach(const HttpResponder &responder, HttpResponse head, const QString &visitorId,
                const QString &conversationId, const QString &conversationStatus);
    int streamCount() const { return int(m_streams.size()); }

    // A reply is on its way to the visitor: sent becomes delivered (no-op otherwise). Returns the
    // message as it is now.
    Message markDelivered(const Message &m) const;

private:
    struct Entry
    {
        HttpStream stream;
        QString visitorId;
        QString conversationId;
        QString conversationStatus;
    };

    void onChanged(EventBus::Entity entity, const QString &id, EventBus::Change change);
    void closed(quint64 key);
    void drop(quint64 key);
    void keepAlive();
    bool streams(const QString &conversationId) const;
    void broadcast(const QString &conversationId, const QByteArray &bytes);

    ConversationRepository &m_conversations;
    WidgetStreams &m_counts;
    std::map<quint64, Entry> m_streams;
    quint64 m_nextKey = 1;
    QTimer m_keepAlive;
    // Replies this hub itself moved to delivered: their status notification brings nothing new to
    // the streams that just received them.
    mutable QSet<QString> m_selfDelivered;
};
