#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QString>

// One parsed HTTP/1.1 request, owned by value (nothing points back into the connection).
struct HttpRequest
{
    QByteArray method;  // "GET", upper case as sent
    QByteArray target;  // the raw request target, "/api/v1/contacts?page=2"
    QByteArray path;    // target before '?', percent-decoding NOT applied
    QByteArray query;   // target after '?', without the '?'
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

const char *httpReasonPhrase(int status);
