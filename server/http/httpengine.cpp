#include "server/http/httpengine.h"

#include "server/http/httpengine_p.h"

#include <QEventLoop>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>

#include <cstdio>
#include <exception>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif
#ifdef __GLIBC__
#include <malloc.h>
#endif

// Listening, accepting (with the connection cap), the sweep of timeouts, and shutdown. A connection's
// life is in httpconnection.cpp, the request syntax in httprequestparser.cpp.

Q_LOGGING_CATEGORY(lcHttpEngine, "liaison.http.engine")

// ---------------------------------------------------------------------------------------------
// HttpEngine::Private

const QByteArray &HttpEngine::Private::date()
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

void HttpEngine::Private::incoming(qintptr handle)
{
    if (distributor && !shuttingDown) {
        distributor(handle);
        return;
    }
    adopt(handle);
}

bool HttpEngine::Private::makeRoom(const QByteArray *client)
{
    HttpConnection *idlest = nullptr;
    HttpConnection *slowest = nullptr;
    int slowestClientCount = 0;
    for (HttpConnection *c : connections) {
        if (client && c->clientKey() != *client)
            continue;
        if (c->isIdle()) {
            if (!idlest || c->idleSince() < idlest->idleSince())
                idlest = c;
        } else if (!idlest && c->isReceiving()) {
            const int count = client ? 0 : perClient.value(c->clientKey());
            if (!slowest || count > slowestClientCount ||
                (count == slowestClientCount && c->receivingSince() < slowest->receivingSince())) {
                slowest = c;
                slowestClientCount = count;
            }
        }
    }
    HttpConnection *victim = idlest ? idlest : slowest;
    if (!victim)
        return false;
    ++evicted;
    victim->terminate(); // removes it from `connections`
    return true;
}

void HttpEngine::Private::adopt(qintptr handle)
{
    QTcpSocket *socket = nullptr;
    if (!shuttingDown) {
        socket = tls ? new QSslSocket : new QTcpSocket;
        if (!socket->setSocketDescriptor(handle)) {
            delete socket;
#ifdef Q_OS_UNIX
            ::close(int(handle));
#endif
            return;
        }
    }
    QByteArray client = socket ? httpClientKey(socket->peerAddress()) : QByteArray();
    const bool room = socket &&
                      (limits.maxConnectionsPerClient <= 0 ||
                       perClient.value(client) < limits.maxConnectionsPerClient || makeRoom(&client)) &&
                      (int(connections.size()) < limits.maxConnections || makeRoom(nullptr));
    if (!room) {
        if (socket) {
            socket->abort();
            delete socket;
            return;
        }
        QTcpSocket reject;
        if (reject.setSocketDescriptor(handle))
            reject.abort();
#ifdef Q_OS_UNIX
        else
            ::close(int(handle));
#endif
        return;
    }
    ++perClient[client];
    auto *connection = new HttpConnection(this, socket, tls.has_value(), std::move(client), q);
    connections.push_back(connection);
    if (!sweepTimer.isActive())
        sweepTimer.start(sweepInterval());
    emit q->connectionCountChanged(int(connections.size()));
    connection->start();
}

void HttpEngine::Private::remove(HttpConnection *connection)
{
    if (destroying)
        return;
    auto it = std::find(connections.begin(), connections.end(), connection);
    if (it == connections.end())
        return;
    connections.erase(it);
    if (auto count = perClient.find(connection->clientKey()); count != perClient.end() && --*count <= 0)
        perClient.erase(count);
    if (connections.empty())
        sweepTimer.stop();
    if (++closedSinceTrim >= kTrimAfterClosed && connections.size() < size_t(kTrimAfterClosed / 4))
        trimTimer.start(); // (re)started: runs once the closing has calmed down
    emit q->connectionCountChanged(int(connections.size()));
}

void HttpEngine::Private::trimHeap()
{
    closedSinceTrim = 0;
    ++trims;
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

void HttpEngine::Private::sweep()
{
    const qint64 t = now();
    const std::vector<HttpConnection *> snapshot = connections;
    for (HttpConnection *c : snapshot) {
        // a connection removed by an earlier one's callbacks is still alive (deleteLater)
        c->checkTimeouts(t);
    }
}

void HttpEngine::Private::invoke(const HttpRequest &request, const HttpResponder &responder)
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

qint64 HttpStream::backlog() const
{
    const HttpConnection *c = m_connection.data();
    return c ? c->streamBacklog(m_sequence) : 0;
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

void HttpEngine::setErrorWriter(ErrorWriter writer)
{
    d->errorWriter = std::move(writer);
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
