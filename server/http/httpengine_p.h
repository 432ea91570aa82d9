#pragma once

// Internal to the HTTP engine: the state its connections share with it (limits, TLS, the clock,
// the cached Date header, the connection list). Not part of the public API.

#include "server/http/httpconnection.h"
#include "server/http/httpengine.h"

#include <QElapsedTimer>
#include <QHash>
#include <QLoggingCategory>
#include <QSslConfiguration>
#include <QTimer>

#include <algorithm>
#include <ctime>
#include <optional>
#include <vector>

Q_DECLARE_LOGGING_CATEGORY(lcHttpEngine)

struct HttpEngine::Private
{
    explicit Private(HttpEngine *q)
        : q(q)
    {
        clock.start();
        QObject::connect(&sweepTimer, &QTimer::timeout, q, [this] { sweep(); });
        trimTimer.setSingleShot(true);
        trimTimer.setInterval(kTrimDelayMs);
        QObject::connect(&trimTimer, &QTimer::timeout, q, [this] { trimHeap(); });
    }

    HttpEngine *q;
    Handler handler;
    ErrorWriter errorWriter;
    HttpLimits limits;
    HttpTcpServer *server = nullptr;
    std::optional<QSslConfiguration> tls;
    QString errorString;
    std::vector<HttpConnection *> connections;
    QHash<QByteArray, int> perClient; // open connections by HttpConnection::clientKey()
    QTimer sweepTimer;
    // Every TLS connection takes some 60 kB of heap (OpenSSL's buffers, the socket's); glibc keeps
    // what is freed in the thread's arena rather than giving it back, so 1,000 idle connections
    // opened and closed left the process ~90 MB bigger for good (not a leak: it plateaus, and
    // malloc_trim(0) brings it back to the start). After many connections closed and few left,
    // the free heap is returned to the system once things are quiet.
    static constexpr int kTrimAfterClosed = 256;
    static constexpr int kTrimDelayMs = 2000;
    QTimer trimTimer;
    int closedSinceTrim = 0;
    quint64 trims = 0;
    QElapsedTimer clock;
    bool shuttingDown = false;
    bool destroying = false;
    std::function<void(qintptr)> distributor;

    std::time_t dateSecond = -1;
    quint64 evicted = 0;
    QByteArray dateValue;

    qint64 now() const { return clock.elapsed(); }

    // The answer to a request the engine refuses itself (malformed, too large, too slow) or whose
    // handler threw: the owner's error writer, or a short plain-text one.
    HttpResponse errorResponse(int status) const
    {
        if (errorWriter) {
            HttpResponse r = errorWriter(status);
            r.status = status;
            return r;
        }
        HttpResponse r;
        r.status = status;
        r.headers.append(qMakePair(QByteArrayLiteral("Content-Type"), QByteArrayLiteral("text/plain; charset=utf-8")));
        r.body = QByteArray::number(status) + ' ' + httpReasonPhrase(status) + '\n';
        return r;
    }

    int sweepInterval() const
    {
        const int shortest = std::min(
            {limits.idleTimeoutMs, limits.requestTimeoutMs, limits.headerTimeoutMs, limits.handshakeTimeoutMs});
        return std::clamp(shortest / 4, 10, 1000);
    }

    // RFC 7231 IMF-fixdate, recomputed at most once per second.
    const QByteArray &date();
    void incoming(qintptr handle);
    // Makes room for a new connection at a cap (of one client when `client` is given, else of the
    // engine). First the connection that has waited longest for a request (a keep-alive connection
    // between requests, or one whose TLS handshake or first request has not begun): idle connections
    // cannot lock out new clients. Else one still receiving its request, the oldest, of the client
    // with the most connections: slow or stalled requests cannot lock out new clients either, and a
    // client that sends its requests in time is not the one that pays. Connections whose request is
    // with the handler, or whose answer is being written or streamed, are never closed for this.
    // False when there is no such connection.
    bool makeRoom(const QByteArray *client);
    void adopt(qintptr handle);
    void remove(HttpConnection *connection);
    void trimHeap();
    void sweep();
    // Runs the handler; a missing handler or one that throws gets a 500.
    void invoke(const HttpRequest &request, const HttpResponder &responder);
};
