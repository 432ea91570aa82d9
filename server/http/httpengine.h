#pragma once

#include "server/http/httptypes.h"

#include <QObject>
#include <QPointer>
#include <QSslConfiguration>

#include <functional>
#include <memory>
#include <optional>

class HttpConnection;
class HttpStream;

// Answers one request, now or later. Copyable; answering more than once is ignored, and answering
// a connection that is gone (client hung up, idle-closed) does nothing: the engine never writes
// to a socket that no longer exists. Responses on one connection go out in request order
// (pipelining), whatever order the handler answers them in.
class HttpResponder
{
public:
    HttpResponder() = default;
    HttpResponder(QPointer<HttpConnection> connection, quint64 sequence);
    void respond(HttpResponse response) const;
    // Answers with a streaming response instead (server-sent events): `head` (status, headers, and
    // optionally a first piece of body) goes out when the responses before it on the connection are
    // written, then whatever the returned HttpStream writes. The body is framed with HTTP/1.1 chunked
    // encoding (HTTP/1.0: by closing the connection), and the connection closes when the stream ends:
    // a stream is the last response on its connection. onClosed runs once, queued in the engine's
    // thread, when the stream ends for any reason (end(), client gone, idle timeout, a reader too
    // slow, engine shutdown); never when the returned stream is already closed (connection gone).
    // A HEAD request gets the headers and an ended stream.
    HttpStream stream(HttpResponse head, std::function<void()> onClosed = {}) const;
    bool isConnected() const;

private:
    QPointer<HttpConnection> m_connection;
    quint64 m_sequence = 0;
};

// The writing end of a streaming response (HttpResponder::stream). Copyable; use it in the engine's
// thread only. Writing to a stream whose client left does nothing and returns false. The idle
// timeout counts from the last write: a stream that writes (keep-alive comments for SSE) more often
// than HttpLimits::idleTimeoutMs stays open; one that stays silent longer is ended. A reader that
// lets more than kMaxBacklog bytes pile up, or takes nothing for the idle timeout, is cut off.
class HttpStream
{
public:
    static constexpr qint64 kMaxBacklog = 1024 * 1024;

    HttpStream() = default;
    // Queues the bytes (sent as one chunk); false when the stream is closed. Empty data is ignored.
    bool write(const QByteArray &data) const;
    // Ends the body and closes the connection once the rest is written.
    void end() const;
    bool isOpen() const;
    // The bytes written but not yet taken by the client: a long body (an export) writes its next
    // piece when this is low, so that a slow reader is waited for rather than cut off.
    qint64 backlog() const;

private:
    friend class HttpResponder;
    HttpStream(QPointer<HttpConnection> connection, quint64 sequence);
    QPointer<HttpConnection> m_connection;
    quint64 m_sequence = 0;
};

// A small HTTP/1.1 server on QTcpServer/QSslServer (QtNetwork 6.4). It replaces QAbstractHttpServer
// because of the Qt 6.4 traps (docs/architecture.md): no size limits, no idle timeout, a crash on a
// late reply to a gone client, Connection: close and HTTP/1.0 ignored, HEAD and Expect: 100-continue
// unsupported, pipelined answers out of order. Lives in the thread that created it.
class HttpEngine : public QObject
{
    Q_OBJECT
public:
    // Called in the engine's thread for each complete request, in request order. A HEAD request
    // arrives with method "HEAD": answer it as GET; the engine sends the headers and the
    // Content-Length of the body but no body bytes. Exceptions are caught and answered 500.
    using Handler = std::function<void(const HttpRequest &, const HttpResponder &)>;
    // Writes the answer to a request the engine refuses itself: malformed (400), a header section or
    // a body too large (431, 413), too slow (408), an unsupported version or transfer coding (505,
    // 501), or a handler that threw (500). The status is set by the engine. Without one, the engine
    // answers a short text/plain body ("400 Bad Request").
    using ErrorWriter = std::function<HttpResponse(int status)>;

    explicit HttpEngine(QObject *parent = nullptr);
    ~HttpEngine() override;

    void setHandler(Handler handler);
    void setErrorWriter(ErrorWriter writer);
    void setLimits(const HttpLimits &limits);
    const HttpLimits &limits() const;

    // With a configuration (certificate + key) the engine speaks HTTPS; without, plain HTTP.
    // (TLS is QSslSocket::startServerEncryption on each accepted socket, so maxConnections and
    // handshakeTimeoutMs apply before the handshake.) False, with errorString(), on failure.
    bool listen(const QHostAddress &address, quint16 port, const std::optional<QSslConfiguration> &tls);
    // For an engine that serves connections accepted by another engine's listen() (several server
    // threads): sets the TLS configuration without listening.
    bool configure(const std::optional<QSslConfiguration> &tls);
    // When set, the listening engine hands each accepted socket descriptor to this function (which
    // passes it to some engine's adopt() in that engine's thread) instead of serving it itself.
    void setDistributor(std::function<void(qintptr)> distributor);
    // Serves an accepted connection; call in this engine's thread.
    Q_INVOKABLE void adopt(qintptr socketDescriptor);
    quint16 serverPort() const;
    QString errorString() const;
    bool isListening() const;

    // Stops accepting; closes idle connections at once and the others after their response is
    // written, waiting at most timeoutMs (runs the event loop). Returns true when all closed.
    // Connections still waiting for their handler at the timeout are not aborted: they close
    // after that response (or when the engine is destroyed).
    bool shutdown(int timeoutMs);
    int connectionCount() const;
    // Idle connections closed to admit a new one at maxConnections (HttpLimits::maxConnections).
    quint64 evictedConnections() const;
    // Times the free heap was given back to the system after many connections closed.
    quint64 heapTrims() const;

Q_SIGNALS:
    void connectionCountChanged(int count);

private:
    struct Private;
    std::unique_ptr<Private> d;
    friend class HttpConnection;
};
