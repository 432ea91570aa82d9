#include "server/http/httpengine.h"

#include "server/http/httpconnection.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QLoggingCategory>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>
#include <QTimer>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <vector>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif
#ifdef __GLIBC__
#include <malloc.h>
#endif

Q_LOGGING_CATEGORY(lcHttpEngine, "liaison.http.engine")

namespace {

constexpr int kMaxOutstanding = 16;                  // parsed but unanswered requests per connection
constexpr qint64 kSocketReadBuffer = 256 * 1024;     // QAbstractSocket buffer: TCP backpressure beyond it
constexpr qint64 kMaxReadChunk = 256 * 1024;         // bytes moved into the parser per read
constexpr qint64 kMaxWriteBacklog = 1024 * 1024;     // stop parsing while more is waiting to be sent
constexpr qsizetype kMaxChunkSizeLine = 1024;        // "1a2b;ext=..." line of a chunked body
constexpr qint64 kMaxLingerBytes = 64 * 1024 * 1024; // dropped after an early 413 before closing
constexpr qint64 kContentLengthOverflow = qint64(1) << 60;

inline char asciiLower(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c + ('a' - 'A')) : c;
}

// a (any case) equals the lower-case literal b
inline bool equalsLower(const char *a, qsizetype n, const char *lower, qsizetype m)
{
    if (n != m)
        return false;
    for (qsizetype i = 0; i < n; ++i) {
        if (asciiLower(a[i]) != lower[i])
            return false;
    }
    return true;
}

template<size_t M>
inline bool equalsLower(const char *a, qsizetype n, const char (&lower)[M])
{
    return equalsLower(a, n, lower, M - 1);
}

template<size_t M>
inline bool equalsLower(const QByteArray &a, const char (&lower)[M])
{
    return equalsLower(a.constData(), a.size(), lower, M - 1);
}

// RFC 9110 tchar
inline bool isTokenChar(unsigned char c)
{
    static const struct Table
    {
        bool v[256] = {};
        Table()
        {
            for (int c = '0'; c <= '9'; ++c)
                v[c] = true;
            for (int c = 'a'; c <= 'z'; ++c)
                v[c] = true;
            for (int c = 'A'; c <= 'Z'; ++c)
                v[c] = true;
            for (const char *p = "!#$%&'*+-.^_`|~"; *p; ++p)
                v[static_cast<unsigned char>(*p)] = true;
        }
    } table;
    return table.v[c];
}

inline bool isToken(const char *p, qsizetype n)
{
    if (n <= 0)
        return false;
    for (qsizetype i = 0; i < n; ++i) {
        if (!isTokenChar(static_cast<unsigned char>(p[i])))
            return false;
    }
    return true;
}

inline const char *findByte(const char *p, qsizetype n, char c)
{
    return n > 0 ? static_cast<const char *>(std::memchr(p, c, size_t(n))) : nullptr;
}

// Shares static data for the common spellings instead of allocating.
QByteArray internMethod(const char *p, qsizetype n)
{
    static const QByteArray known[] = {
        QByteArrayLiteral("GET"),   QByteArrayLiteral("POST"), QByteArrayLiteral("PUT"),    QByteArrayLiteral("DELETE"),
        QByteArrayLiteral("PATCH"), QByteArrayLiteral("HEAD"), QByteArrayLiteral("OPTIONS")};
    for (const QByteArray &k : known) {
        if (k.size() == n && std::memcmp(k.constData(), p, size_t(n)) == 0)
            return k;
    }
    return QByteArray(p, n);
}

QByteArray internHeaderName(const char *p, qsizetype n)
{
    static const QByteArray known[] = {
        QByteArrayLiteral("Host"),
        QByteArrayLiteral("host"),
        QByteArrayLiteral("User-Agent"),
        QByteArrayLiteral("user-agent"),
        QByteArrayLiteral("Accept"),
        QByteArrayLiteral("accept"),
        QByteArrayLiteral("Accept-Encoding"),
        QByteArrayLiteral("accept-encoding"),
        QByteArrayLiteral("Accept-Language"),
        QByteArrayLiteral("accept-language"),
        QByteArrayLiteral("Connection"),
        QByteArrayLiteral("connection"),
        QByteArrayLiteral("Content-Type"),
        QByteArrayLiteral("content-type"),
        QByteArrayLiteral("Content-Length"),
        QByteArrayLiteral("content-length"),
        QByteArrayLiteral("Authorization"),
        QByteArrayLiteral("authorization"),
        QByteArrayLiteral("Cookie"),
        QByteArrayLiteral("cookie"),
        QByteArrayLiteral("If-None-Match"),
        QByteArrayLiteral("if-none-match"),
        QByteArrayLiteral("X-Request-Id"),
        QByteArrayLiteral("x-request-id"),
    };
    for (const QByteArray &k : known) {
        if (k.size() == n && std::memcmp(k.constData(), p, size_t(n)) == 0)
            return k;
    }
    return QByteArray(p, n);
}

// Appends the decimal digits of v (v >= 0).
inline void appendNumber(QByteArray &out, qint64 v)
{
    char buf[24];
    int i = sizeof buf;
    do {
        buf[--i] = char('0' + v % 10);
        v /= 10;
    } while (v > 0 && i > 0);
    out.append(buf + i, qsizetype(sizeof buf) - i);
}

// Value of a header made only of digits; -1 when invalid.
qint64 parseDecimal(const QByteArray &value)
{
    if (value.isEmpty())
        return -1;
    qint64 v = 0;
    for (char c : value) {
        if (c < '0' || c > '9')
            return -1;
        v = v >= kContentLengthOverflow / 10 ? kContentLengthOverflow : v * 10 + (c - '0');
    }
    return v;
}

// Does the comma-separated list contain the token (case-insensitive)?
bool listContainsToken(const char *p, qsizetype n, const char *lower, qsizetype m)
{
    qsizetype i = 0;
    while (i < n) {
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == ','))
            ++i;
        qsizetype start = i;
        while (i < n && p[i] != ',')
            ++i;
        qsizetype end = i;
        while (end > start && (p[end - 1] == ' ' || p[end - 1] == '\t'))
            --end;
        if (equalsLower(p + start, end - start, lower, m))
            return true;
    }
    return false;
}

const char *errorCode(int status)
{
    switch (status) {
    case 400:
        return "BAD_REQUEST";
    case 408:
        return "REQUEST_TIMEOUT";
    case 411:
        return "LENGTH_REQUIRED";
    case 413:
        return "PAYLOAD_TOO_LARGE";
    case 431:
        return "HEADERS_TOO_LARGE";
    case 501:
        return "NOT_IMPLEMENTED";
    case 505:
        return "HTTP_VERSION_NOT_SUPPORTED";
    default:
        return "INTERNAL";
    }
}

HttpResponse errorResponse(int status)
{
    HttpResponse r;
    r.status = status;
    r.headers.append(qMakePair(QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json")));
    if (status == 500) {
        r.body =
            QByteArrayLiteral(R"({"success":false,"error":{"code":"INTERNAL","message":"Internal server error"}})");
    } else {
        r.body = QByteArrayLiteral(R"({"success":false,"error":{"code":")") + errorCode(status) +
                 QByteArrayLiteral(R"(","message":")") + httpReasonPhrase(status) + QByteArrayLiteral(R"("}})");
    }
    return r;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// HttpEngine::Private

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
    HttpLimits limits;
    HttpTcpServer *server = nullptr;
    std::optional<QSslConfiguration> tls;
    QString errorString;
    std::vector<HttpConnection *> connections;
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

    int sweepInterval() const
    {
        const int shortest = std::min({limits.idleTimeoutMs, limits.requestTimeoutMs, limits.handshakeTimeoutMs});
        return std::clamp(shortest / 4, 10, 1000);
    }

    // RFC 7231 IMF-fixdate, recomputed at most once per second.
    const QByteArray &date()
    {
        const std::time_t t = std::time(nullptr);
        if (t != dateSecond) {
            static const char days[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
            static const char months[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
            std::tm tm{};
#ifdef Q_OS_WIN
            gmtime_s(&tm, &t);
#else
            gmtime_r(&t, &tm);
#endif
            char buf[64];
            const int n =
                std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday % 7], tm.tm_mday,
                              months[tm.tm_mon % 12], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
            dateValue = QByteArray(buf, std::max(0, n));
            dateSecond = t;
        }
        return dateValue;
    }

    void incoming(qintptr handle)
    {
        if (distributor && !shuttingDown) {
            distributor(handle);
            return;
        }
        adopt(handle);
    }

    // At capacity, the connection that has waited longest for a request (a keep-alive connection
    // between requests, or one whose TLS handshake or first request has not begun) is closed to
    // make room: idle connections cannot lock out new clients. Connections with a request or an
    // answer in progress are never closed for this. False when every connection is busy.
    bool evictIdlest()
    {
        HttpConnection *idlest = nullptr;
        for (HttpConnection *c : connections) {
            if (c->isIdle() && (!idlest || c->idleSince() < idlest->idleSince()))
                idlest = c;
        }
        if (!idlest)
            return false;
        ++evicted;
        idlest->terminate(); // removes it from `connections`
        return true;
    }

    void adopt(qintptr handle)
    {
        if (shuttingDown || (int(connections.size()) >= limits.maxConnections && !evictIdlest())) {
            QTcpSocket reject;
            if (reject.setSocketDescriptor(handle))
                reject.abort();
#ifdef Q_OS_UNIX
            else
                ::close(int(handle));
#endif
            return;
        }
        QTcpSocket *socket = tls ? new QSslSocket : new QTcpSocket;
        if (!socket->setSocketDescriptor(handle)) {
            delete socket;
#ifdef Q_OS_UNIX
            ::close(int(handle));
#endif
            return;
        }
        auto *connection = new HttpConnection(this, socket, tls.has_value(), q);
        connections.push_back(connection);
        if (!sweepTimer.isActive())
            sweepTimer.start(sweepInterval());
        emit q->connectionCountChanged(int(connections.size()));
        connection->start();
    }

    void remove(HttpConnection *connection)
    {
        if (destroying)
            return;
        auto it = std::find(connections.begin(), connections.end(), connection);
        if (it == connections.end())
            return;
        connections.erase(it);
        if (connections.empty())
            sweepTimer.stop();
        if (++closedSinceTrim >= kTrimAfterClosed && connections.size() < size_t(kTrimAfterClosed / 4))
            trimTimer.start(); // (re)started: runs once the closing has calmed down
        emit q->connectionCountChanged(int(connections.size()));
    }

    void trimHeap()
    {
        closedSinceTrim = 0;
        ++trims;
#ifdef __GLIBC__
        malloc_trim(0);
#endif
    }

    void sweep()
    {
        const qint64 t = now();
        const std::vector<HttpConnection *> snapshot = connections;
        for (HttpConnection *c : snapshot) {
            // a connection removed by an earlier one's callbacks is still alive (deleteLater)
            c->checkTimeouts(t);
        }
    }

    void invoke(const HttpRequest &request, const HttpResponder &responder)
    {
        if (!handler) {
            responder.respond(errorResponse(500));
            return;
        }
        try {
            handler(request, responder);
        } catch (const std::exception &e) {
            qCWarning(lcHttpEngine) << "request handler threw:" << e.what();
            responder.respond(errorResponse(500));
        } catch (...) {
            qCWarning(lcHttpEngine) << "request handler threw an unknown exception";
            responder.respond(errorResponse(500));
        }
    }
};

// ---------------------------------------------------------------------------------------------
// HttpResponder

HttpResponder::HttpResponder(QPointer<HttpConnection> connection, quint64 sequence)
    : m_connection(std::move(connection))
    , m_sequence(sequence)
{
}

void HttpResponder::respond(HttpResponse response) const
{
    if (HttpConnection *c = m_connection.data())
        c->respond(m_sequence, std::move(response));
}

HttpStream HttpResponder::stream(HttpResponse head, std::function<void()> onClosed) const
{
    HttpConnection *c = m_connection.data();
    if (!c || !c->startStream(m_sequence, std::move(head), std::move(onClosed)))
        return {};
    return HttpStream(m_connection, m_sequence);
}

bool HttpResponder::isConnected() const
{
    const HttpConnection *c = m_connection.data();
    return c && c->isOpen();
}

// ---------------------------------------------------------------------------------------------
// HttpStream

HttpStream::HttpStream(QPointer<HttpConnection> connection, quint64 sequence)
    : m_connection(std::move(connection))
    , m_sequence(sequence)
{
}

bool HttpStream::write(const QByteArray &data) const
{
    HttpConnection *c = m_connection.data();
    return c && c->streamWrite(m_sequence, data);
}

void HttpStream::end() const
{
    if (HttpConnection *c = m_connection.data())
        c->streamEnd(m_sequence);
}

bool HttpStream::isOpen() const
{
    const HttpConnection *c = m_connection.data();
    return c && c->streamOpen(m_sequence);
}

// ---------------------------------------------------------------------------------------------
// HttpConnection

HttpConnection::HttpConnection(HttpEngine::Private *engine, QTcpSocket *socket, bool tls, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_socket(socket)
    , m_tls(tls)
{
    m_socket->setParent(this);
    m_createdAt = now();
    m_idleSince = m_createdAt;
    m_lastWriteProgress = m_createdAt;
}

HttpConnection::~HttpConnection()
{
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
}

qint64 HttpConnection::now() const
{
    return m_engine->now();
}

const HttpLimits &HttpConnection::limits() const
{
    return m_engine->limits;
}

void HttpConnection::start()
{
    m_socket->setReadBufferSize(kSocketReadBuffer);
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_peerAddress = m_socket->peerAddress();
    m_peerPort = m_socket->peerPort();

    connect(m_socket, &QIODevice::readyRead, this, &HttpConnection::onReadyRead);
    connect(m_socket, &QAbstractSocket::disconnected, this, &HttpConnection::onDisconnected);
    connect(m_socket, &QAbstractSocket::errorOccurred, this, &HttpConnection::onError);

    if (m_tls) {
        auto *ssl = static_cast<QSslSocket *>(m_socket);
        ssl->setSslConfiguration(*m_engine->tls);
        connect(ssl, &QSslSocket::encrypted, this, &HttpConnection::onEncrypted);
        m_handshaking = true;
        ssl->startServerEncryption();
    } else if (m_socket->bytesAvailable() > 0) {
        processInput();
    }
}

void HttpConnection::onReadyRead()
{
    if (m_lingering) {
        drainLinger();
        return;
    }
    processInput();
}

void HttpConnection::onEncrypted()
{
    if (m_dead)
        return;
    m_handshaking = false;
    m_idleSince = now();
    if (m_engine->shuttingDown) {
        beginShutdown();
        return;
    }
    processInput();
}

void HttpConnection::onDisconnected()
{
    terminate();
}

void HttpConnection::onError(QAbstractSocket::SocketError error)
{
    if (m_dead)
        return;
    // RemoteHostClosedError is followed by disconnected(); anything else (handshake failure,
    // reset, ...) ends the connection now.
    if (error != QAbstractSocket::RemoteHostClosedError || m_socket->state() == QAbstractSocket::UnconnectedState)
        terminate();
}

void HttpConnection::onBytesWritten()
{
    // connected only while parsing is paused on the write backlog (no per-response signal cost)
    if (m_socket->bytesToWrite() >= kMaxWriteBacklog)
        return;
    disconnect(m_socket, &QIODevice::bytesWritten, this, &HttpConnection::onBytesWritten);
    if (m_paused && !m_inProcess && canParse())
        processInput();
}

void HttpConnection::terminate()
{
    if (m_dead)
        return;
    m_dead = true;
    m_closing = true;
    releaseStreams();
    m_queue.clear();
    m_outstanding = 0;
    m_socket->disconnect(this);
    m_socket->abort();
    m_engine->remove(this);
    deleteLater();
}

void HttpConnection::detachForDestruction()
{
    m_dead = true;
    m_closing = true;
    m_streamClosed = nullptr; // the engine is going away: its queued calls would be dropped anyway
    m_queue.clear();
    m_socket->disconnect(this);
    m_socket->abort();
}

void HttpConnection::closeGracefully()
{
    if (m_closing)
        return;
    if (m_streaming && m_streamChunked)
        m_socket->write("0\r\n\r\n", 5); // the last chunk: a clean end of the body
    m_closing = true;
    m_noMoreRequests = true;
    m_closingSince = now();
    releaseStreams();
    m_queue.clear();
    m_outstanding = 0;
    m_in.clear();
    m_pos = 0;
    if (m_lingerBudget > 0) {
        m_lingering = true;
        drainLinger();
        return;
    }
    m_socket->disconnectFromHost(); // writes what is buffered first
    if (!m_dead && m_socket->state() == QAbstractSocket::UnconnectedState)
        terminate();
}

void HttpConnection::drainLinger()
{
    while (m_lingering && m_lingerBudget > 0) {
        const qint64 n = std::min(m_socket->bytesAvailable(), m_lingerBudget);
        if (n <= 0)
            return;
        m_lingerBudget -= m_socket->skip(n);
    }
    if (m_lingering)
        finishLinger();
}

void HttpConnection::finishLinger()
{
    m_lingering = false;
    m_lingerBudget = 0;
    m_socket->disconnectFromHost();
    if (!m_dead && m_socket->state() == QAbstractSocket::UnconnectedState)
        terminate();
}

void HttpConnection::beginShutdown()
{
    if (m_dead || m_closing)
        return;
    if (m_streaming) {
        closeGracefully(); // ends the stream's body
        return;
    }
    if (m_handshaking) {
        terminate();
        return;
    }
    if (m_requestStartedAt >= 0 && !m_noMoreRequests) {
        // A request is partly received: let it arrive (the request timeout still bounds the wait),
        // answer it, then close.
        m_lastRequest = true;
        return;
    }
    m_noMoreRequests = true;
    if (m_outstanding == 0)
        closeGracefully();
}

void HttpConnection::checkTimeouts(qint64 t)
{
    if (m_dead)
        return;
    const HttpLimits &l = limits();
    if (m_handshaking) {
        if (t - m_createdAt >= l.handshakeTimeoutMs)
            terminate();
        return;
    }
    if (m_lingering) {
        if (t - m_closingSince >= l.lingerTimeoutMs)
            finishLinger();
        return;
    }
    if (m_closing) {
        // the peer does not take the last bytes: give up
        if (t - m_closingSince >= std::max(1000, l.requestTimeoutMs))
            terminate();
        return;
    }
    // output progress, sampled here rather than on every bytesWritten()
    const qint64 pending = m_socket->bytesToWrite();
    if (pending == 0 || pending < m_sampledBacklog)
        m_lastWriteProgress = t;
    m_sampledBacklog = pending;
    if (pending > 0 && t - m_lastWriteProgress >= std::max(l.requestTimeoutMs, l.idleTimeoutMs)) {
        terminate(); // the peer stopped reading
        return;
    }
    if (m_streaming) {
        // idle counts from the last write: keep-alives keep a stream open
        if (t - m_idleSince >= l.idleTimeoutMs)
            closeGracefully();
        return;
    }
    if (m_requestStartedAt >= 0 && !m_paused && !m_noMoreRequests) {
        if (t - m_requestStartedAt >= l.requestTimeoutMs) {
            // The client may still be sending: read and drop that for a while after the 408, as
            // after an early 413. Closed at once, the socket would answer its next bytes with a
            // reset, which can destroy the 408 before the client has read it.
            m_lingerBudget = kMaxLingerBytes;
            fail(408);
        }
        return;
    }
    if (m_queue.empty() && m_requestStartedAt < 0 && t - m_idleSince >= l.idleTimeoutMs) {
        if (m_socket->bytesToWrite() > 0)
            terminate();
        else
            closeGracefully();
    }
}

// ----- input -----

bool HttpConnection::canParse() const
{
    return !m_dead && !m_closing && !m_handshaking && !m_noMoreRequests && m_outstanding < kMaxOutstanding &&
           m_socket->bytesToWrite() < kMaxWriteBacklog;
}

void HttpConnection::processInput()
{
    if (m_inProcess) {
        m_reprocess = true;
        return;
    }
    if (m_dead || m_handshaking)
        return;
    m_inProcess = true;
    if (m_paused && canParse()) {
        m_paused = false;
        if (m_requestStartedAt >= 0)
            m_requestStartedAt = now(); // the wait was ours, not the client's
    }
    do {
        m_reprocess = false;
        while (canParse()) {
            if (m_pos < m_in.size() && step())
                continue;
            if (!pull())
                break;
        }
    } while (m_reprocess && canParse());
    m_inProcess = false;
    if (m_dead || m_closing)
        return;
    if (m_noMoreRequests) {
        // nothing further is parsed: drop what the client sent after the last request
        m_in.clear();
        m_pos = 0;
        m_scanned = 0;
        if (m_socket->bytesAvailable() > 0)
            m_socket->skip(m_socket->bytesAvailable());
    } else if (!canParse()) {
        m_paused = true;
        if (m_socket->bytesToWrite() >= kMaxWriteBacklog)
            connect(m_socket, &QIODevice::bytesWritten, this, &HttpConnection::onBytesWritten, Qt::UniqueConnection);
    }
}

bool HttpConnection::pull()
{
    const qint64 available = m_socket->bytesAvailable();
    if (available <= 0)
        return false;
    if (m_pos > 0) {
        if (m_pos >= m_in.size())
            m_in.resize(0); // keeps the capacity
        else
            m_in.remove(0, m_pos);
        m_pos = 0;
    }
    const qint64 n = std::min(available, kMaxReadChunk);
    const qsizetype old = m_in.size();
    m_in.resize(old + qsizetype(n));
    const qint64 got = m_socket->read(m_in.data() + old, n);
    m_in.resize(old + qsizetype(std::max<qint64>(got, 0)));
    if (got <= 0)
        return false;
    if (m_requestStartedAt < 0)
        m_requestStartedAt = now();
    return true;
}

// One parsing step over buffered input; false when more input is needed.
bool HttpConnection::step()
{
    switch (m_state) {
    case State::Head:
        return stepHead();
    case State::Body:
        return stepBody();
    case State::ChunkSize:
        return stepChunkSize();
    case State::ChunkData:
        return stepChunkData();
    case State::ChunkEnd:
        return stepChunkEnd();
    case State::Trailers:
        return stepTrailers();
    }
    return false;
}

bool HttpConnection::stepHead()
{
    const char *base = m_in.constData() + m_pos;
    const qsizetype available = m_in.size() - m_pos;
    const char *nl = findByte(base + m_scanned, available - m_scanned, '\n');
    if (!nl) {
        m_scanned = available;
        if (m_headBytes + available > limits().maxHeaderBytes) {
            fail(431);
            return true;
        }
        return false;
    }
    qsizetype len = nl - base;
    m_headBytes += len + 1;
    m_pos += len + 1;
    m_scanned = 0;
    if (m_headBytes > limits().maxHeaderBytes) {
        fail(431);
        return true;
    }
    if (len > 0 && base[len - 1] == '\r')
        --len;
    if (!m_gotRequestLine) {
        if (len == 0) {
            // empty lines before a request line are ignored (RFC 9112 2.2)
            if (m_pos == m_in.size()) {
                m_headBytes = 0;
                m_requestStartedAt = -1;
            }
            return true;
        }
        if (parseRequestLine(base, len))
            m_gotRequestLine = true;
        return true;
    }
    if (len == 0)
        return headComplete();
    parseHeaderLine(base, len);
    return true;
}

bool HttpConnection::parseRequestLine(const char *line, qsizetype len)
{
    const char *sp1 = findByte(line, len, ' ');
    if (!sp1) {
        fail(400);
        return false;
    }
    const qsizetype methodLen = sp1 - line;
    const char *target = sp1 + 1;
    const char *end = line + len;
    const char *sp2 = findByte(target, end - target, ' ');
    if (!sp2 || !isToken(line, methodLen)) {
        fail(400);
        return false;
    }
    const qsizetype targetLen = sp2 - target;
    const char *version = sp2 + 1;
    const qsizetype versionLen = end - version;
    if (targetLen <= 0) {
        fail(400);
        return false;
    }
    for (qsizetype i = 0; i < targetLen; ++i) {
        const unsigned char c = static_cast<unsigned char>(target[i]);
        if (c <= 0x20 || c == 0x7f) {
            fail(400);
            return false;
        }
    }
    if (versionLen == 8 && std::memcmp(version, "HTTP/1.", 7) == 0 && (version[7] == '1' || version[7] == '0')) {
        m_http10 = version[7] == '0';
    } else if (versionLen == 8 && std::memcmp(version, "HTTP/", 5) == 0 && version[5] >= '0' && version[5] <= '9' &&
               version[6] == '.' && version[7] >= '0' && version[7] <= '9') {
        fail(505);
        return false;
    } else {
        fail(400);
        return false;
    }

    m_req.method = internMethod(line, methodLen);
    m_req.target = QByteArray(target, targetLen);

    // absolute-form (RFC 9112 3.2.2): the path starts after the authority
    qsizetype pathStart = 0;
    if (targetLen > 0 && target[0] != '/') {
        const char *scheme = findByte(target, targetLen, ':');
        if (scheme && scheme + 2 < target + targetLen && scheme[1] == '/' && scheme[2] == '/') {
            const char *authority = scheme + 3;
            const char *slash = authority;
            while (slash < target + targetLen && *slash != '/' && *slash != '?')
                ++slash;
            pathStart = slash - target;
        }
    }
    const char *q = findByte(target + pathStart, targetLen - pathStart, '?');
    const qsizetype pathEnd = q ? q - target : targetLen;
    if (pathStart == 0 && pathEnd == targetLen) {
        m_req.path = m_req.target; // shared, no copy
    } else if (pathEnd == pathStart) {
        m_req.path = QByteArrayLiteral("/");
    } else {
        m_req.path = QByteArray(target + pathStart, pathEnd - pathStart);
    }
    if (q)
        m_req.query = QByteArray(q + 1, targetLen - pathEnd - 1);
    m_req.headers.reserve(16);
    return true;
}

bool HttpConnection::parseHeaderLine(const char *line, qsizetype len)
{
    if (line[0] == ' ' || line[0] == '\t') { // obs-fold
        fail(400);
        return false;
    }
    const char *colon = findByte(line, len, ':');
    if (!colon) {
        fail(400);
        return false;
    }
    const qsizetype nameLen = colon - line;
    if (!isToken(line, nameLen)) {
        fail(400);
        return false;
    }
    const char *v = colon + 1;
    const char *e = line + len;
    while (v < e && (*v == ' ' || *v == '\t'))
        ++v;
    while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
        --e;
    for (const char *p = v; p < e; ++p) {
        const unsigned char c = static_cast<unsigned char>(*p);
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            fail(400);
            return false;
        }
    }
    if (++m_headerCount > limits().maxHeaderCount) {
        fail(431);
        return false;
    }
    const qsizetype valueLen = e - v;

    // the headers the engine itself interprets
    bool ok = true;
    switch (nameLen) {
    case 6:
        if (equalsLower(line, nameLen, "expect")) {
            if (equalsLower(v, valueLen, "100-continue"))
                m_expectContinue = true;
        }
        break;
    case 10:
        if (equalsLower(line, nameLen, "connection")) {
            if (listContainsToken(v, valueLen, "close", 5))
                m_connectionClose = true;
            if (listContainsToken(v, valueLen, "keep-alive", 10))
                m_connectionKeepAlive = true;
        }
        break;
    case 14:
        if (equalsLower(line, nameLen, "content-length")) {
            const qint64 cl = parseDecimal(QByteArray::fromRawData(v, valueLen));
            if (cl < 0 || (m_contentLength >= 0 && m_contentLength != cl))
                ok = false;
            else
                m_contentLength = cl;
        }
        break;
    case 17:
        if (equalsLower(line, nameLen, "transfer-encoding")) {
            if (m_chunked || !equalsLower(v, valueLen, "chunked"))
                m_badTransferEncoding = true;
            else
                m_chunked = true;
        }
        break;
    default:
        break;
    }
    if (!ok) {
        fail(400);
        return false;
    }
    m_req.headers.append(qMakePair(internHeaderName(line, nameLen), QByteArray(v, valueLen)));
    return true;
}

bool HttpConnection::headComplete()
{
    const bool hasTransferEncoding = m_chunked || m_badTransferEncoding;
    if (hasTransferEncoding && m_contentLength >= 0) {
        fail(400); // request smuggling guard (RFC 9112 6.1)
        return true;
    }
    if (m_badTransferEncoding) {
        fail(501);
        return true;
    }
    if (m_contentLength > limits().maxBodyBytes) {
        if (!m_expectContinue)
            m_lingerBudget = std::min<qint64>(m_contentLength - (m_in.size() - m_pos), kMaxLingerBytes);
        fail(413);
        return true;
    }
    const bool expectsBody = m_chunked || m_contentLength > 0;
    if (m_expectContinue && !m_http10 && expectsBody) {
        Slot interim;
        interim.ready = true;
        interim.interim = true;
        m_queue.push_back(std::move(interim));
        flush();
        if (m_closing || m_dead)
            return true;
    }
    if (m_chunked) {
        m_state = State::ChunkSize;
        m_scanned = 0;
    } else if (m_contentLength > 0) {
        m_state = State::Body;
        m_req.body.reserve(qsizetype(std::min<qint64>(m_contentLength, 1024 * 1024)));
    } else {
        dispatch();
    }
    return true;
}

bool HttpConnection::stepBody()
{
    const qsizetype available = m_in.size() - m_pos;
    const qint64 need = m_contentLength - m_req.body.size();
    const qsizetype take = qsizetype(std::min<qint64>(available, need));
    if (take <= 0)
        return false;
    m_req.body.append(m_in.constData() + m_pos, take);
    m_pos += take;
    if (m_req.body.size() == m_contentLength)
        dispatch();
    return true;
}

bool HttpConnection::stepChunkSize()
{
    const char *base = m_in.constData() + m_pos;
    const qsizetype available = m_in.size() - m_pos;
    const char *nl = findByte(base + m_scanned, available - m_scanned, '\n');
    if (!nl) {
        m_scanned = available;
        if (available > kMaxChunkSizeLine) {
            fail(400);
            return true;
        }
        return false;
    }
    const qsizetype len = nl - base;
    m_pos += len + 1;
    m_scanned = 0;
    if (len > kMaxChunkSizeLine) {
        fail(400);
        return true;
    }
    qint64 size = 0;
    qsizetype i = 0;
    for (; i < len; ++i) {
        const char c = base[i];
        int digit;
        if (c >= '0' && c <= '9')
            digit = c - '0';
        else if (c >= 'a' && c <= 'f')
            digit = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            digit = c - 'A' + 10;
        else
            break;
        if (size > limits().maxBodyBytes || size >= kContentLengthOverflow / 16)
            break; // too large already: rejected below
        size = size * 16 + digit;
    }
    if (i == 0) {
        fail(400);
        return true;
    }
    // what may follow: chunk extensions (ignored), whitespace, CR
    if (i < len && base[i] != ';' && base[i] != ' ' && base[i] != '\t' && base[i] != '\r') {
        if (size > limits().maxBodyBytes || size >= kContentLengthOverflow / 16)
            fail(413);
        else
            fail(400);
        return true;
    }
    if (size > limits().maxBodyBytes - m_req.body.size()) {
        fail(413);
        return true;
    }
    if (size == 0) {
        m_state = State::Trailers;
    } else {
        m_chunkRemaining = size;
        m_state = State::ChunkData;
        if (m_req.body.capacity() - m_req.body.size() < size)
            m_req.body.reserve(m_req.body.size() + qsizetype(std::min<qint64>(size, 1024 * 1024)));
    }
    return true;
}

bool HttpConnection::stepChunkData()
{
    const qsizetype available = m_in.size() - m_pos;
    const qsizetype take = qsizetype(std::min<qint64>(available, m_chunkRemaining));
    if (take <= 0)
        return false;
    m_req.body.append(m_in.constData() + m_pos, take);
    m_pos += take;
    m_chunkRemaining -= take;
    if (m_chunkRemaining == 0)
        m_state = State::ChunkEnd;
    return true;
}

bool HttpConnection::stepChunkEnd()
{
    const qsizetype available = m_in.size() - m_pos;
    if (available < 1)
        return false;
    const char c = m_in.at(m_pos);
    if (c == '\n') {
        m_pos += 1;
    } else if (c == '\r') {
        if (available < 2)
            return false;
        if (m_in.at(m_pos + 1) != '\n') {
            fail(400);
            return true;
        }
        m_pos += 2;
    } else {
        fail(400);
        return true;
    }
    m_state = State::ChunkSize;
    m_scanned = 0;
    return true;
}

bool HttpConnection::stepTrailers()
{
    const char *base = m_in.constData() + m_pos;
    const qsizetype available = m_in.size() - m_pos;
    const char *nl = findByte(base + m_scanned, available - m_scanned, '\n');
    if (!nl) {
        m_scanned = available;
        if (m_headBytes + available > limits().maxHeaderBytes) {
            fail(431);
            return true;
        }
        return false;
    }
    qsizetype len = nl - base;
    m_headBytes += len + 1;
    m_pos += len + 1;
    m_scanned = 0;
    if (m_headBytes > limits().maxHeaderBytes || ++m_headerCount > limits().maxHeaderCount + 1) {
        fail(431);
        return true;
    }
    if (len > 0 && base[len - 1] == '\r')
        --len;
    if (len == 0) {
        dispatch();
        return true;
    }
    // trailer fields are discarded, but must look like fields
    const char *colon = findByte(base, len, ':');
    if (!colon || !isToken(base, colon - base))
        fail(400);
    return true;
}

void HttpConnection::resetRequest()
{
    m_state = State::Head;
    m_req = HttpRequest();
    m_gotRequestLine = false;
    m_http10 = false;
    m_headBytes = 0;
    m_headerCount = 0;
    m_contentLength = -1;
    m_chunked = false;
    m_badTransferEncoding = false;
    m_connectionClose = false;
    m_connectionKeepAlive = false;
    m_expectContinue = false;
    m_chunkRemaining = 0;
    m_scanned = 0;
}

void HttpConnection::dispatch()
{
    // A request that was still arriving when shutdown began is the connection's last one.
    const bool keepAlive =
        !m_lastRequest && (m_http10 ? (m_connectionKeepAlive && !m_connectionClose) : !m_connectionClose);
    Slot slot;
    slot.sequence = m_nextSequence++;
    slot.head = m_req.method.size() == 4 && std::memcmp(m_req.method.constData(), "HEAD", 4) == 0;
    slot.keepAlive = keepAlive;
    slot.http10 = m_http10;
    const quint64 sequence = slot.sequence;
    m_queue.push_back(std::move(slot));
    ++m_outstanding;
    if (!keepAlive)
        m_noMoreRequests = true;

    HttpRequest request = std::move(m_req);
    resetRequest();
    request.peerAddress = m_peerAddress;
    request.peerPort = m_peerPort;
    request.encrypted = m_tls;
    m_requestStartedAt = m_pos < m_in.size() ? now() : -1;

    m_engine->invoke(request, HttpResponder(QPointer<HttpConnection>(this), sequence));
}

void HttpConnection::fail(int status)
{
    // everything not yet parsed is dropped; the error answer goes out after the pending ones
    resetRequest();
    m_in.clear();
    m_pos = 0;
    m_requestStartedAt = -1;
    if (m_closing || m_dead)
        return;
    m_noMoreRequests = true;
    Slot slot;
    slot.sequence = m_nextSequence++;
    slot.ready = true;
    slot.keepAlive = false;
    slot.response = errorResponse(status);
    m_queue.push_back(std::move(slot));
    ++m_outstanding;
    flush();
}

// ----- output -----

HttpConnection::Slot *HttpConnection::findSlot(quint64 sequence)
{
    for (Slot &s : m_queue) {
        if (!s.interim && s.sequence == sequence)
            return &s;
    }
    return nullptr;
}

void HttpConnection::respond(quint64 sequence, HttpResponse &&response)
{
    if (m_dead || m_closing)
        return;
    Slot *slot = findSlot(sequence);
    if (!slot || slot->ready)
        return; // unknown, already answered, or dropped
    slot->response = std::move(response);
    slot->ready = true;
    flush();
}

void HttpConnection::flush()
{
    if (m_flushing)
        return;
    m_flushing = true;
    bool wrote = false;
    while (!m_queue.empty() && m_queue.front().ready && !m_closing && !m_dead && !m_streaming) {
        Slot slot = std::move(m_queue.front());
        m_queue.pop_front();
        if (slot.interim) {
            static const QByteArray kContinue = QByteArrayLiteral("HTTP/1.1 100 Continue\r\n\r\n");
            m_socket->write(kContinue);
            continue;
        }
        --m_outstanding;
        if (slot.stream) {
            beginStreaming(slot);
            break;
        }
        bool close = !slot.keepAlive || (m_noMoreRequests && m_outstanding == 0);
        const QByteArray bytes = serialize(slot, close);
        m_socket->write(bytes);
        wrote = true;
        if (close) {
            closeGracefully();
            break;
        }
    }
    m_flushing = false;
    if (m_dead || m_closing || m_streaming)
        return;
    if (wrote && m_queue.empty() && m_requestStartedAt < 0)
        m_idleSince = now();
    if (m_noMoreRequests && m_outstanding == 0) {
        closeGracefully(); // shutdown while the last answer was being waited for
        return;
    }
    if (m_paused && !m_inProcess && canParse())
        processInput();
}

QByteArray HttpConnection::serialize(Slot &slot, bool &close) const
{
    HttpResponse &r = slot.response;
    if (r.status < 200 || r.status > 599)
        r = errorResponse(500);
    const bool noBodyStatus = r.status == 204 || r.status == 304;

    qsizetype headerBytes = 0;
    for (const auto &h : r.headers)
        headerBytes += h.first.size() + h.second.size() + 4;
    const bool writeBody = !slot.head && !noBodyStatus;
    const QByteArray &date = m_engine->date();
    const char *reason = httpReasonPhrase(r.status);
    const qsizetype reasonLen = qsizetype(std::strlen(reason));

    QByteArray out;
    out.reserve(9 + 4 + reasonLen + 2 + headerBytes + 40 + 8 + date.size() + 2 + 26 + 2 +
                (writeBody ? r.body.size() : 0));
    out.append("HTTP/1.1 ", 9);
    appendNumber(out, r.status);
    out.append(' ');
    out.append(reason, reasonLen);
    out.append("\r\n", 2);

    qint64 headContentLength = -1;
    for (const auto &h : r.headers) {
        const QByteArray &name = h.first;
        const QByteArray &value = h.second;
        switch (name.size()) {
        case 4:
            if (equalsLower(name, "date"))
                continue;
            break;
        case 10:
            if (equalsLower(name, "connection")) {
                if (listContainsToken(value.constData(), value.size(), "close", 5))
                    close = true;
                continue;
            }
            if (equalsLower(name, "keep-alive"))
                continue;
            break;
        case 14:
            if (equalsLower(name, "content-length")) {
                if (slot.head)
                    headContentLength = parseDecimal(value);
                continue;
            }
            break;
        case 17:
            if (equalsLower(name, "transfer-encoding"))
                continue;
            break;
        default:
            break;
        }
        // no header injection: names must be tokens, values free of CR/LF/NUL
        if (!isToken(name.constData(), name.size()) || value.contains('\r') || value.contains('\n') ||
            value.contains('\0'))
            continue;
        out.append(name);
        out.append(": ", 2);
        out.append(value);
        out.append("\r\n", 2);
    }
    if (slot.stream) {
        if (!slot.http10)
            out.append("Transfer-Encoding: chunked\r\n", 28);
    } else if (!noBodyStatus) {
        out.append("Content-Length: ", 16);
        if (slot.head && r.body.isEmpty() && headContentLength >= 0)
            appendNumber(out, headContentLength);
        else
            appendNumber(out, r.body.size());
        out.append("\r\n", 2);
    }
    out.append("Date: ", 6);
    out.append(date);
    out.append("\r\n", 2);
    if (close)
        out.append("Connection: close\r\n", 19);
    else if (slot.http10)
        out.append("Connection: keep-alive\r\n", 24);
    out.append("\r\n", 2);
    if (writeBody)
        out.append(r.body);
    return out;
}

// ----- streaming -----

bool HttpConnection::startStream(quint64 sequence, HttpResponse &&head, std::function<void()> &&onClosed)
{
    if (m_dead || m_closing)
        return false;
    Slot *slot = findSlot(sequence);
    if (!slot || slot->ready)
        return false;
    if (head.status < 200 || head.status > 599 || head.status == 204 || head.status == 304) {
        respond(sequence, std::move(head));
        return false;
    }
    slot->stream = true;
    slot->streamPending = std::move(head.body);
    head.body.clear();
    slot->response = std::move(head);
    slot->onClosed = std::move(onClosed);
    slot->ready = true;
    // No request after this one will be answered on this connection; drop what was not parsed yet.
    m_noMoreRequests = true;
    flush();
    return true;
}

void HttpConnection::beginStreaming(Slot &slot)
{
    bool close = true;
    m_socket->write(serialize(slot, close));
    m_streaming = true;
    // A HEAD answer has no body at all: not even the chunked end marker closeGracefully() would write.
    m_streamChunked = !slot.http10 && !slot.head;
    m_streamSequence = slot.sequence;
    m_streamClosed = std::move(slot.onClosed);
    m_idleSince = now();
    m_requestStartedAt = -1;
    if (!slot.head && !slot.streamPending.isEmpty())
        writeStreamData(slot.streamPending);
    if (!m_closing && (slot.head || slot.streamEnded || m_engine->shuttingDown))
        closeGracefully();
}

bool HttpConnection::writeStreamData(const QByteArray &data)
{
    if (m_socket->bytesToWrite() > HttpStream::kMaxBacklog) {
        terminate(); // the reader does not keep up: cut it off rather than buffer without bound
        return false;
    }
    if (m_streamChunked) {
        QByteArray size = QByteArray::number(data.size(), 16);
        size.append("\r\n", 2);
        m_socket->write(size);
        m_socket->write(data);
        m_socket->write("\r\n", 2);
    } else {
        m_socket->write(data);
    }
    m_idleSince = now();
    return true;
}

bool HttpConnection::streamWrite(quint64 sequence, const QByteArray &data)
{
    if (m_dead || m_closing)
        return false;
    if (m_streaming) {
        if (sequence != m_streamSequence)
            return false;
        return data.isEmpty() || writeStreamData(data);
    }
    Slot *slot = findSlot(sequence);
    if (!slot || !slot->stream || slot->streamEnded)
        return false;
    if (slot->streamPending.size() + data.size() > HttpStream::kMaxBacklog)
        return false;
    slot->streamPending.append(data);
    return true;
}

void HttpConnection::streamEnd(quint64 sequence)
{
    if (m_dead || m_closing)
        return;
    if (m_streaming) {
        if (sequence == m_streamSequence)
            closeGracefully();
        return;
    }
    if (Slot *slot = findSlot(sequence); slot && slot->stream)
        slot->streamEnded = true;
}

bool HttpConnection::streamOpen(quint64 sequence) const
{
    if (m_dead || m_closing)
        return false;
    if (m_streaming)
        return sequence == m_streamSequence;
    for (const Slot &s : m_queue) {
        if (!s.interim && s.sequence == sequence)
            return s.stream && !s.streamEnded;
    }
    return false;
}

void HttpConnection::releaseStreams()
{
    std::vector<std::function<void()>> callbacks;
    if (m_streamClosed)
        callbacks.push_back(std::move(m_streamClosed));
    m_streamClosed = nullptr;
    for (Slot &s : m_queue) {
        if (s.onClosed) {
            callbacks.push_back(std::move(s.onClosed));
            s.onClosed = nullptr;
        }
    }
    // queued: the stream's owner may be writing to it right now
    for (auto &cb : callbacks)
        QMetaObject::invokeMethod(m_engine->q, std::move(cb), Qt::QueuedConnection);
}

// ---------------------------------------------------------------------------------------------
// HttpEngine

HttpEngine::HttpEngine(QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this))
{
}

HttpEngine::~HttpEngine()
{
    d->destroying = true;
    d->sweepTimer.stop();
    delete d->server;
    d->server = nullptr;
    const std::vector<HttpConnection *> connections = std::move(d->connections);
    d->connections.clear();
    for (HttpConnection *c : connections) {
        c->detachForDestruction();
        delete c;
    }
}

void HttpEngine::setHandler(Handler handler)
{
    d->handler = std::move(handler);
}

void HttpEngine::setLimits(const HttpLimits &limits)
{
    d->limits = limits;
    if (d->sweepTimer.isActive())
        d->sweepTimer.start(d->sweepInterval());
}

const HttpLimits &HttpEngine::limits() const
{
    return d->limits;
}

bool HttpEngine::listen(const QHostAddress &address, quint16 port, const std::optional<QSslConfiguration> &tls)
{
    if (isListening()) {
        d->errorString = QStringLiteral("The engine is already listening");
        return false;
    }
    if (tls) {
        if (!QSslSocket::supportsSsl()) {
            d->errorString = QStringLiteral("TLS is not available (no SSL backend)");
            return false;
        }
        if (tls->localCertificate().isNull() || tls->privateKey().isNull()) {
            d->errorString = QStringLiteral("The TLS configuration has no certificate or no private key");
            return false;
        }
    }
    delete d->server;
    d->server = new HttpTcpServer([this](qintptr handle) { d->incoming(handle); }, this);
    d->tls = tls;
    d->shuttingDown = false;
    if (!d->server->listen(address, port)) {
        d->errorString = d->server->errorString();
        delete d->server;
        d->server = nullptr;
        return false;
    }
    d->errorString.clear();
    return true;
}

bool HttpEngine::configure(const std::optional<QSslConfiguration> &tls)
{
    if (tls && (!QSslSocket::supportsSsl() || tls->localCertificate().isNull() || tls->privateKey().isNull())) {
        d->errorString = QStringLiteral("The TLS configuration has no certificate or no private key");
        return false;
    }
    d->tls = tls;
    d->shuttingDown = false;
    return true;
}

void HttpEngine::setDistributor(std::function<void(qintptr)> distributor)
{
    d->distributor = std::move(distributor);
}

void HttpEngine::adopt(qintptr socketDescriptor)
{
    d->adopt(socketDescriptor);
}

quint16 HttpEngine::serverPort() const
{
    return d->server ? d->server->serverPort() : 0;
}

QString HttpEngine::errorString() const
{
    return d->errorString;
}

bool HttpEngine::isListening() const
{
    return d->server && d->server->isListening();
}

bool HttpEngine::shutdown(int timeoutMs)
{
    d->shuttingDown = true;
    if (d->server)
        d->server->close();
    const std::vector<HttpConnection *> snapshot = d->connections;
    for (HttpConnection *c : snapshot)
        c->beginShutdown();
    if (d->connections.empty())
        return true;

    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    connect(this, &HttpEngine::connectionCountChanged, &loop, [&loop](int count) {
        if (count == 0)
            loop.quit();
    });
    timer.start(std::max(0, timeoutMs));
    if (!d->connections.empty())
        loop.exec();
    return d->connections.empty();
}

int HttpEngine::connectionCount() const
{
    return int(d->connections.size());
}

quint64 HttpEngine::evictedConnections() const
{
    return d->evicted;
}

quint64 HttpEngine::heapTrims() const
{
    return d->trims;
}
