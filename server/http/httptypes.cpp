#include "server/http/httptypes.h"

#include "server/http/httpsyntax.h"

using HttpSyntax::equalsIgnoreCase;

QByteArray httpClientKey(const QHostAddress &address, bool loopbackAsOne)
{
    if (loopbackAsOne && address.isLoopback())
        return QByteArrayLiteral("loopback");
    bool v4 = false;
    const quint32 ip4 = address.toIPv4Address(&v4); // also an IPv4-mapped IPv6 address
    if (v4) {
        if (loopbackAsOne && (ip4 >> 24) == 127)
            return QByteArrayLiteral("loopback");
        return QHostAddress(ip4).toString().toLatin1();
    }
    if (address.protocol() == QAbstractSocket::IPv6Protocol) {
        Q_IPV6ADDR bytes = address.toIPv6Address();
        for (int i = 8; i < 16; ++i)
            bytes[i] = 0;
        return QHostAddress(bytes).toString().toLatin1() + "/64";
    }
    return address.toString().toLatin1();
}

QByteArray HttpRequest::header(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (equalsIgnoreCase(h.first, name))
            return h.second;
    }
    return QByteArray();
}

bool HttpRequest::hasHeader(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (equalsIgnoreCase(h.first, name))
            return true;
    }
    return false;
}

void HttpResponse::setHeader(const QByteArray &name, const QByteArray &value)
{
    bool replaced = false;
    for (qsizetype i = 0; i < headers.size();) {
        if (equalsIgnoreCase(headers.at(i).first, name)) {
            if (!replaced) {
                headers[i].second = value;
                replaced = true;
                ++i;
            } else {
                headers.removeAt(i);
            }
        } else {
            ++i;
        }
    }
    if (!replaced)
        headers.append(qMakePair(name, value));
}

QByteArray HttpResponse::header(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (equalsIgnoreCase(h.first, name))
            return h.second;
    }
    return QByteArray();
}

const char *httpReasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 101:
        return "Switching Protocols";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 203:
        return "Non-Authoritative Information";
    case 204:
        return "No Content";
    case 205:
        return "Reset Content";
    case 206:
        return "Partial Content";
    case 300:
        return "Multiple Choices";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 303:
        return "See Other";
    case 304:
        return "Not Modified";
    case 307:
        return "Temporary Redirect";
    case 308:
        return "Permanent Redirect";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 402:
        return "Payment Required";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 407:
        return "Proxy Authentication Required";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 411:
        return "Length Required";
    case 412:
        return "Precondition Failed";
    case 413:
        return "Content Too Large";
    case 414:
        return "URI Too Long";
    case 415:
        return "Unsupported Media Type";
    case 416:
        return "Range Not Satisfiable";
    case 417:
        return "Expectation Failed";
    case 421:
        return "Misdirected Request";
    case 422:
        return "Unprocessable Content";
    case 425:
        return "Too Early";
    case 426:
        return "Upgrade Required";
    case 428:
        return "Precondition Required";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 451:
        return "Unavailable For Legal Reasons";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    case 505:
        return "HTTP Version Not Supported";
    case 507:
        return "Insufficient Storage";
    default:
        break;
    }
    if (status >= 200 && status < 300)
        return "OK";
    if (status >= 300 && status < 400)
        return "Redirection";
    if (status >= 400 && status < 500)
        return "Client Error";
    if (status >= 500 && status < 600)
        return "Server Error";
    return "Unknown";
}
