#include "server/http/httpconnection.h"

#include "server/http/httpengine_p.h"
#include "server/http/httpsyntax.h"

#include <QSslSocket>

#include <algorithm>
#include <cstring>
#include <vector>

// One accepted connection: the socket's life (TLS handshake, timeouts, lingering close, shutdown),
// the queue of answers in request order, and streaming. The bytes become requests in
// HttpRequestParser.

using namespace HttpSyntax;

namespace {

constexpr int kMaxOutstanding = 16;                  // parsed but unanswered requests per connection
constexpr qint64 kSocketReadBuffer = 256 * 1024;     // QAbstractSocket buffer: TCP backpressure beyond it
constexpr qint64 kMaxReadChunk = 256 * 1024;         // bytes moved into the parser per read
constexpr qint64 kMaxWriteBacklog = 1024 * 1024;     // stop parsing while more is waiting to be sent
constexpr qint64 kMaxLingerBytes = 64 * 1024 * 1024; // dropped after an early 413 or a 408 before closing

} // namespace

// ---------------------------------------------------------------------------------------------
// HttpConnection

HttpConnection::HttpConnection(HttpEngine::Private *engine, QTcpSocket *socket, bool tls, QByteArray clientKey,
                               QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_socket(socket)
    , m_clientKey(std::move(clientKey))
    , m_tls(tls)
    , m_parser(engine->limits)
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
    m_parser.reset();
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
        // The head within headerTimeoutMs; then the body at bodyMinBytesPerSecond at least (after
        // headerTimeoutMs for its start); the whole request within requestTimeoutMs.
        bool late = t - m_requestStartedAt >= l.requestTimeoutMs;
        if (m_bodyStartedAt < 0) {
            late = late || t - m_requestStartedAt >= l.headerTimeoutMs;
        } else if (l.bodyMinBytesPerSecond > 0) {
            const qint64 received = std::max<qint64>(0, m_parser.bodyReceived() - m_bodyBaseBytes);
            const qint64 allowance = qint64(l.headerTimeoutMs) + received * 1000 / l.bodyMinBytesPerSecond;
            late = late || t - m_bodyStartedAt >= allowance;
        }
        if (late) {
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
        if (m_bodyStartedAt >= 0) {
            m_bodyStartedAt = now();
            m_bodyBaseBytes = m_parser.bodyReceived();
        }
    }
    do {
        m_reprocess = false;
        while (canParse()) {
            if (m_parser.hasInput() && parse())
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
        m_parser.reset();
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
    const qint64 n = std::min(available, kMaxReadChunk);
    const qint64 got = m_socket->read(m_parser.reserve(qsizetype(n)), n);
    m_parser.commit(qsizetype(got));
    if (got <= 0)
        return false;
    if (m_requestStartedAt < 0)
        m_requestStartedAt = now();
    return true;
}

// Takes what the parser makes of the buffered input; false when it needs more.
bool HttpConnection::parse()
{
    switch (m_parser.next()) {
    case HttpRequestParser::Event::NeedMore:
        if (!m_parser.inRequest())
            m_requestStartedAt = -1; // only empty lines so far: not a request yet
        else
            noteBodyStart();
        return false;
    case HttpRequestParser::Event::Request:
        dispatch();
        return true;
    case HttpRequestParser::Event::ContinueExpected: {
        Slot interim;
        interim.ready = true;
        interim.interim = true;
        m_queue.push_back(std::move(interim));
        flush();
        noteBodyStart(); // the body's clock starts when the client is told to send it
        return true;
    }
    case HttpRequestParser::Event::Error:
        if (m_parser.errorStatus() == 413)
            m_lingerBudget = std::min(m_parser.bodyStillComing(), kMaxLingerBytes);
        fail(m_parser.errorStatus());
        return true;
    }
    return false;
}

void HttpConnection::noteBodyStart()
{
    if (m_bodyStartedAt < 0 && m_parser.inBody()) {
        m_bodyStartedAt = now();
        m_bodyBaseBytes = m_parser.bodyReceived();
    }
}

void HttpConnection::dispatch()
{
    // A request that was still arriving when shutdown began is the connection's last one.
    HttpRequest request = m_parser.takeRequest();
    const bool keepAlive = !m_lastRequest && m_parser.keepAlive();
    Slot slot;
    slot.sequence = m_nextSequence++;
    slot.head = request.method.size() == 4 && std::memcmp(request.method.constData(), "HEAD", 4) == 0;
    slot.keepAlive = keepAlive;
    slot.http10 = m_parser.http10();
    const quint64 sequence = slot.sequence;
    m_queue.push_back(std::move(slot));
    ++m_outstanding;
    if (!keepAlive)
        m_noMoreRequests = true;

    request.peerAddress = m_peerAddress;
    request.peerPort = m_peerPort;
    request.encrypted = m_tls;
    m_requestStartedAt = m_parser.hasInput() ? now() : -1;
    m_bodyStartedAt = -1;

    m_engine->invoke(request, HttpResponder(QPointer<HttpConnection>(this), sequence));
}

void HttpConnection::fail(int status)
{
    // everything not yet parsed is dropped; the error answer goes out after the pending ones
    m_parser.reset();
    m_requestStartedAt = -1;
    m_bodyStartedAt = -1;
    if (m_closing || m_dead)
        return;
    m_noMoreRequests = true;
    Slot slot;
    slot.sequence = m_nextSequence++;
    slot.ready = true;
    slot.keepAlive = false;
    slot.response = m_engine->errorResponse(status);
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
        r = m_engine->errorResponse(500);
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

qint64 HttpConnection::streamBacklog(quint64 sequence) const
{
    if (m_dead)
        return 0;
    if (m_streaming)
        return sequence == m_streamSequence ? m_socket->bytesToWrite() : 0;
    for (const Slot &s : m_queue) {
        if (!s.interim && s.sequence == sequence)
            return s.streamPending.size();
    }
    return 0;
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
