#pragma once

#include "model/inbox/message.h"
#include "server/http/httpengine.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <map>

class ConversationRepository;
#include "model/core/eventbus.h"

// What a visitor sees of a message: no ids of contacts, users or API keys.
QJsonObject widgetMessageJson(const Message &m);

// One server-sent event: "id: …\nevent: …\ndata: …\n\n" (id omitted when empty). `data` is compact
// JSON, so it never holds a line break.
QByteArray sseEvent(const QByteArray &event, const QJsonObject &data, const QString &id = {});

// The live push of the web widget in one server thread: the open server-sent-event streams of
// visitors (GET /widget/v1/events). Changes reach it from the EventBus (queued into this thread,
// whichever thread wrote them): a message of a streamed conversation, new or with a new status,
// becomes an `event: message` (a new one with `id: <message id>`, so that Last-Event-ID resumes after
// it); a change of the conversation's status an `event: conversation` {status}. A comment keeps each
// stream alive every keepAliveIntervalMs(). An agent reply written to an open stream counts as
// fetched: it moves from sent to delivered, as GET /widget/v1/messages does.
//
// Streams are limited per visitor (kMaxStreamsPerVisitor: a few tabs) and in all (kMaxStreams),
// counted across every server thread of the process.
class WidgetEventHub : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxStreamsPerVisitor = 5;
    static constexpr int kMaxStreams = 500;
    static constexpr int kDefaultKeepAliveMs = 20000;

    // The comment keep-alive period of hubs created afterwards (tests shorten it).
    static int keepAliveIntervalMs();
    static void setKeepAliveIntervalMs(int ms);
    // Open streams in the whole process.
    static int openStreams();

    WidgetEventHub(EventBus *bus, ConversationRepository &conversations, QObject *parent = nullptr);
    ~WidgetEventHub() override;

    enum class Admission
    {
        Admitted,
        VisitorFull,
        ServerFull
    };
    // Reserves a place for one more stream of this visitor. Once Admitted, exactly one of attach()
    // or release() must follow.
    static Admission admit(const QString &visitorId);
    static void release(const QString &visitorId);

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
    std::map<quint64, Entry> m_streams;
    quint64 m_nextKey = 1;
    QTimer m_keepAlive;
    // Replies this hub itself moved to delivered: their status notification brings nothing new to
    // the streams that just received them.
    mutable QSet<QString> m_selfDelivered;
};
