#pragma once

#include "server/http/httptypes.h"

// Turns the bytes a client sends on one connection into HTTP/1.1 requests, with no socket: the
// connection appends what it reads and asks for the next event. Framing follows RFC 9112: request
// line, header fields (no obs-fold), then a body by Content-Length or chunked transfer coding
// (extensions ignored, trailer fields read and discarded). Pipelined requests come out one by one
// in order. Refused (with the status the engine answers): a malformed request line or field (400),
// an HTTP version other than 1.0/1.1 (505), Transfer-Encoding other than "chunked" (501), both
// Transfer-Encoding and Content-Length (400, a request-smuggling guard), more header bytes or fields
// than the limits allow (431), a body over maxBodyBytes (413, on Content-Length before any body byte
// is read). After an error the parser has dropped its input and the request; the connection answers
// and closes.
class HttpRequestParser
{
public:
    enum class Event
    {
        NeedMore,         // every buffered byte is used: append more
        Request,          // a complete request: takeRequest()
        ContinueExpected, // the head asked for "100 Continue" before sending its body; call next() again
        Error,            // refused: errorStatus()
    };

    // The limits are read at each check (the engine may change them); they must outlive the parser.
    explicit HttpRequestParser(const HttpLimits &limits);

    void append(const char *data, qsizetype size);
    void append(const QByteArray &data) { append(data.constData(), data.size()); }
    // For reading straight from a socket: room for up to `size` more bytes at the returned pointer;
    // then commit(n) with the number actually written there (0 or less: none).
    char *reserve(qsizetype size);
    void commit(qsizetype written);

    // Parses buffered input until something happens.
    Event next();

    // After Event::Request: the request (moved out) and how it framed the connection.
    HttpRequest takeRequest();
    bool http10() const { return m_lastHttp10; }
    // The request allows another on the connection (HTTP/1.1 without "Connection: close", or
    // HTTP/1.0 with "Connection: keep-alive").
    bool keepAlive() const { return m_lastKeepAlive; }

    // After Event::Error.
    int errorStatus() const { return m_errorStatus; }
    // After a 413 refused on Content-Length (without Expect: 100-continue): how many announced body
    // bytes the client has yet to send, so that the connection can read and drop them before closing.
    qint64 bodyStillComing() const { return m_bodyStillComing; }

    bool hasInput() const { return m_pos < m_in.size(); }
    // Part of a request has arrived (buffered bytes, or a head or body under way).
    bool inRequest() const { return hasInput() || m_gotRequestLine || m_headBytes > 0 || m_state != State::Head; }
    // The request line and header fields of the request under way are in: its body is arriving.
    bool inBody() const { return m_state != State::Head; }
    // Body bytes of the request under way received so far (chunked: the data, not the framing).
    qint64 bodyReceived() const { return m_req.body.size(); }
    // Forgets the request under way and every buffered byte.
    void reset();

private:
    enum class State
    {
        Head,
        Body,
        ChunkSize,
        ChunkData,
        ChunkEnd,
        Trailers
    };

    bool headLine(const char *&line, qsizetype &len);
    bool step();
    bool stepHead();
    bool stepBody();
    bool stepChunkSize();
    bool stepChunkData();
    bool stepChunkEnd();
    bool stepTrailers();
    bool parseRequestLine(const char *line, qsizetype len);
    bool parseHeaderLine(const char *line, qsizetype len);
    bool headComplete();
    void complete();
    void fail(int status);
    void resetRequest();

    const HttpLimits &m_limits;
    Event m_event = Event::NeedMore;
    int m_errorStatus = 0;
    qint64 m_bodyStillComing = 0;
    bool m_lastHttp10 = false;
    bool m_lastKeepAlive = true;

    // Input
    QByteArray m_in;
    qsizetype m_pos = 0;      // first unconsumed byte of m_in
    qsizetype m_scanned = 0;  // bytes after m_pos already searched for '\n'
    qsizetype m_reserved = 0; // size of m_in before reserve()

    // Request being parsed
    State m_state = State::Head;
    HttpRequest m_req;
    bool m_gotRequestLine = false;
    bool m_http10 = false;
    qint64 m_headBytes = 0;
    int m_headerCount = 0;
    qint64 m_contentLength = -1;
    bool m_chunked = false;
    bool m_badTransferEncoding = false;
    bool m_connectionClose = false;
    bool m_connectionKeepAlive = false;
    bool m_expectContinue = false;
    qint64 m_chunkRemaining = 0;
};
