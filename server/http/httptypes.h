#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QString>

// One parsed HTTP/1.1 request, owned by value (nothing points back into the connection).
struct HttpRequest
{
    QByteArray method;                            // "GET", upper case as sent
    QByteArray target;                            // the raw request target, "/api/v1/contacts?page=2"
    QByteArray path;                              // target before '?', percent-decoding NOT applied
    QByteArray query;                             // target after '?', without the '?'
    QList<QPair<QByteArray, QByteArray>> headers; // names as sent; values trimmed
    QByteArray body;
    QHostAddress peerAddress;
    quint16 peerPort = 0;
    bool encrypted = false;

    // Case-insensitive header lookup; the first value, or an empty array.
    QByteArray header(const QByteArray &name) const;
    bool hasHeader(const QByteArray &name) const;
};

struct HttpResponse
{
    int status = 200;
    QList<QPair<QByteArray, QByteArray>> headers; // Content-Length, Date, Connection are added by the engine
    QByteArray body;

    void setHeader(const QByteArray &name, const QByteArray &value);
    QByteArray header(const QByteArray &name) const;
};

struct HttpLimits
{
    qint64 maxHeaderBytes = 64 * 1024;      // request line + headers; over it: 431 and close
    int maxHeaderCount = 100;               // over it: 431 and close
    qint64 maxBodyBytes = 10 * 1024 * 1024; // over it: 413 and close (checked against Content-Length before reading)
    int idleTimeoutMs = 60 * 1000;          // a keep-alive connection with no request in progress is closed after this
    int requestTimeoutMs = 30 * 1000;       // a whole request (headers and body) at most this long: 408 and close
    int headerTimeoutMs = 10 * 1000;        // request line and headers within this of the request's first byte: 408
    int bodyMinBytesPerSecond = 1024;       // then the body gets headerTimeoutMs plus 1 s for each this many bytes
                                            // received: a body slower than that is 408 (0: only requestTimeoutMs)
    int handshakeTimeoutMs = 10 * 1000;     // TLS handshake
    int lingerTimeoutMs = 3 * 1000;         // after an early 413, how long the rest of the body is read and dropped
    int maxConnections = 1024;              // at it, the longest-idle connection is closed for a new one; when
                                            // none is idle, the oldest request still arriving from the client with
                                            // the most connections; when none, the new one is closed at once
    int maxConnectionsPerClient = 256;      // per client address (IPv6: per /64 prefix); at it, that client's
                                            // longest-idle connection or its oldest request still arriving is
                                            // closed for its new one; when neither, the new one is closed (0: none)
};

// The address a client is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 address as
// its IPv4 address), an IPv6 address by its /64 prefix (what one subscriber is given). With
// loopbackAsOne, every loopback address (127.0.0.0/8, ::1) is the same client: one machine, which can
// send from any of them.
QByteArray httpClientKey(const QHostAddress &address, bool loopbackAsOne = false);

const char *httpReasonPhrase(int status);
