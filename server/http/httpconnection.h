#pragma once

// Internal to the HTTP engine: one accepted connection, fed through its request parser, with its
// queue of responses (kept in request order). Not part of the public API.

#include "server/http/httpengine.h"
#include "server/http/httprequestparser.h"

#include <QHostAddress>
#include <QObject>
#include <QTcpServer>
#include <QTcpSocket>

#include <deque>
#include <functional>

// Accepts sockets itself (no pending-connection queue): the engine wraps the descriptor in a
// QTcpSocket or a QSslSocket (server-side handshake) and counts it against maxConnections at once.
class HttpTcpServer : public QTcpServer
{
public:
    explicit HttpTcpServer(std::function<void(qintptr)> onIncoming, QObject *parent = nullptr)
        : QTcpServer(parent)
        , m_onIncoming(std::move(onIncoming))
    {
    }

protected:
    void incomingConnection(qintptr handle) override { m_onIncoming(handle); }

private:
    std::function<void(qintptr)> m_onIncoming;
};

class HttpConnection : public QObject
{
    Q_OBJECT
public:
    HttpConnection(HttpEngine::Private *engine, QTcpSocket *socket, bool tls, QByteArray clientKey, QObject *parent);
    ~HttpConnection() override;

    void start();
    // Queues the answer to request `sequence`; ignored when unknown, already answered or closing.
    void respond(quint64 sequence, HttpResponse &&response);
    // Streaming responses (HttpResponder::stream / HttpStream).
    bool startStream(quint64 sequence, HttpResponse &&head, std::function<void()> &&onClosed);
    bool streamWrite(quint64 sequence, const QByteArray &data);
    void streamEnd(quint64 sequence);
    bool streamOpen(quint64 sequence) const;
    qint64 streamBacklog(quint64 sequence) const;
    bool isOpen() const { return !m_dead && !m_closing; }
    // Waiting for a request: no request arriving, no answer pending or being written, no stream.
    // A connection still in its TLS handshake counts as idle since it was accepted.
    bool isIdle() const
    {
        return !m_dead && !m_closing && !m_streaming && m_queue.empty() && m_requestStartedAt < 0 &&
               m_socket->bytesToWrite() == 0;
    }
    qint64 idleSince() const { return m_idleSince; }
    // Still receiving a request (its head or its body) with nothing to answer: a slow or stalled
    // client, since receivingSince(). Closed to make room at the connection caps when none is idle.
    bool isReceiving() const
    {
        return !m_dead && !m_closing && !m_streaming && m_queue.empty() && m_requestStartedAt >= 0 &&
               !m_noMoreRequests && !m_paused;
    }
    qint64 receivingSince() const { return m_requestStartedAt; }
    // httpClientKey() of the peer: what the per-client cap counts.
    const QByteArray &clientKey() const { return m_clientKey; }
    void checkTimeouts(qint64 now);
    void beginShutdown();
    // Aborts the socket and detaches from the engine; the object is deleted later.
    void terminate();
    // Used by ~HttpEngine: drop the socket without calling back into the engine.
    void detachForDestruction();

private:
    struct Slot
    {
        quint64 sequence = 0;
        bool ready = false;
        bool interim = false; // "100 Continue": written in order, not a response
        bool head = false;    // HEAD request: no body bytes
        bool keepAlive = true;
        bool http10 = false;
        HttpResponse response;
        bool stream = false;      // a streaming response (its head is `response`)
        bool streamEnded = false; // end() came before the head was written
        QByteArray streamPending; // written before the head went out
        std::function<void()> onClosed;
    };

    void onReadyRead();
    void onEncrypted();
    void onDisconnected();
    void onError(QAbstractSocket::SocketError error);
    void onBytesWritten();

    void processInput();
    bool canParse() const;
    bool pull();
    bool parse();
    void dispatch();
    // The head of the request under way is complete: its body's clock starts (once).
    void noteBodyStart();
    void fail(int status);

    void flush();
    void beginStreaming(Slot &slot);
    bool writeStreamData(const QByteArray &data);
    // Tells every stream of this connection (running or still queued) that it is over.
    void releaseStreams();
    QByteArray serialize(Slot &slot, bool &close) const;
    void closeGracefully();
    void drainLinger();
    void finishLinger();
    Slot *findSlot(quint64 sequence);
    qint64 now() const;
    const HttpLimits &limits() const;

    HttpEngine::Private *m_engine;
    QTcpSocket *m_socket;
    QHostAddress m_peerAddress;
    QByteArray m_clientKey;
    quint16 m_peerPort = 0;
    bool m_tls;

    // Connection state
    bool m_handshaking = false;
    bool m_closing = false;        // final response written, socket is flushing and closing
    bool m_dead = false;           // detached from the engine; waiting for deleteLater
    bool m_noMoreRequests = false; // parse nothing further (Connection: close, error, shutdown)
    bool m_lastRequest = false;    // shutdown began while this request was arriving: answer it, then close
    bool m_inProcess = false;
    bool m_reprocess = false;
    bool m_flushing = false;
    bool m_paused = false; // stopped parsing on the outstanding cap or the write backlog
    qint64 m_createdAt = 0;
    qint64 m_idleSince = 0;
    qint64 m_requestStartedAt = -1; // -1: no request in progress
    qint64 m_bodyStartedAt = -1;    // the request's head was complete then (-1: head still arriving)
    qint64 m_bodyBaseBytes = 0;     // body bytes already in at m_bodyStartedAt
    qint64 m_closingSince = 0;
    // After an early error answer (413 from Content-Length) the rest of the body is read and dropped
    // before closing (a "lingering close"), so that a client still uploading gets to read the answer
    // instead of a connection reset. At most this many bytes, for at most HttpLimits::lingerTimeoutMs.
    qint64 m_lingerBudget = 0;
    bool m_lingering = false;
    qint64 m_lastWriteProgress = 0;
    qint64 m_sampledBacklog = 0;

    HttpRequestParser m_parser;

    // Streaming: set once a stream's head is written; the connection then carries nothing else.
    bool m_streaming = false;
    bool m_streamChunked = false;
    quint64 m_streamSequence = 0;
    std::function<void()> m_streamClosed;

    // Responses
    std::deque<Slot> m_queue;
    int m_outstanding = 0; // non-interim slots in m_queue
    quint64 m_nextSequence = 1;
};
