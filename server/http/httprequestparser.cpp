#include "server/http/httprequestparser.h"

#include "server/http/httpsyntax.h"

#include <algorithm>

using namespace HttpSyntax;

namespace {

constexpr qsizetype kMaxChunkSizeLine = 1024; // "1a2b;ext=..." line of a chunked body

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

} // namespace

HttpRequestParser::HttpRequestParser(const HttpLimits &limits)
    : m_limits(limits)
{
}

void HttpRequestParser::append(const char *data, qsizetype size)
{
    if (size <= 0)
        return;
    std::copy_n(data, size, reserve(size));
    commit(size);
}

char *HttpRequestParser::reserve(qsizetype size)
{
    if (m_pos > 0) {
        if (m_pos >= m_in.size())
            m_in.resize(0); // keeps the capacity
        else
            m_in.remove(0, m_pos);
        m_pos = 0;
    }
    m_reserved = m_in.size();
    m_in.resize(m_reserved + size);
    return m_in.data() + m_reserved;
}

void HttpRequestParser::commit(qsizetype written)
{
    m_in.resize(m_reserved + std::max<qsizetype>(written, 0));
}

HttpRequestParser::Event HttpRequestParser::next()
{
    m_event = Event::NeedMore;
    while (m_event == Event::NeedMore && m_pos < m_in.size() && step()) {
    }
    return m_event;
}

HttpRequest HttpRequestParser::takeRequest()
{
    HttpRequest request = std::move(m_req);
    resetRequest();
    return request;
}

void HttpRequestParser::reset()
{
    resetRequest();
    m_in.clear();
    m_pos = 0;
    m_scanned = 0;
}

// One parsing step over buffered input; false when more input is needed.
bool HttpRequestParser::step()
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

// The next line of a head or trailer section (CR LF or LF ended, the CR dropped), counted against
// maxHeaderBytes; false when none is complete yet, or when the section grew too large (then refused
// with 431).
bool HttpRequestParser::headLine(const char *&line, qsizetype &len)
{
    const char *base = m_in.constData() + m_pos;
    const qsizetype available = m_in.size() - m_pos;
    const char *nl = findByte(base + m_scanned, available - m_scanned, '\n');
    if (!nl) {
        m_scanned = available;
        if (m_headBytes + available > m_limits.maxHeaderBytes)
            fail(431);
        return false;
    }
    len = nl - base;
    m_headBytes += len + 1;
    m_pos += len + 1;
    m_scanned = 0;
    if (m_headBytes > m_limits.maxHeaderBytes) {
        fail(431);
        return false;
    }
    if (len > 0 && base[len - 1] == '\r')
        --len;
    line = base;
    return true;
}

bool HttpRequestParser::stepHead()
{
    const char *base = nullptr;
    qsizetype len = 0;
    if (!headLine(base, len))
        return m_event == Event::Error; // refused (431): the step used the input; otherwise more is needed
    if (!m_gotRequestLine) {
        if (len == 0) {
            // empty lines before a request line are ignored (RFC 9112 2.2): they are not part of a
            // request, and how many arrived in one read does not matter
            m_headBytes = 0;
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

bool HttpRequestParser::parseRequestLine(const char *line, qsizetype len)
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

bool HttpRequestParser::parseHeaderLine(const char *line, qsizetype len)
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
    if (++m_headerCount > m_limits.maxHeaderCount) {
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

bool HttpRequestParser::headComplete()
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
    if (m_contentLength > m_limits.maxBodyBytes) {
        const qint64 stillComing = m_expectContinue ? 0 : std::max<qint64>(m_contentLength - (m_in.size() - m_pos), 0);
        fail(413);
        m_bodyStillComing = stillComing;
        return true;
    }
    const bool expectsBody = m_chunked || m_contentLength > 0;
    if (m_expectContinue && !m_http10 && expectsBody)
        m_event = Event::ContinueExpected; // the body follows once the client reads "100 Continue"
    if (m_chunked) {
        m_state = State::ChunkSize;
        m_scanned = 0;
    } else if (m_contentLength > 0) {
        m_state = State::Body;
        m_req.body.reserve(qsizetype(std::min<qint64>(m_contentLength, 1024 * 1024)));
    } else {
        complete();
    }
    return true;
}

bool HttpRequestParser::stepBody()
{
    const qsizetype available = m_in.size() - m_pos;
    const qint64 need = m_contentLength - m_req.body.size();
    const qsizetype take = qsizetype(std::min<qint64>(available, need));
    if (take <= 0)
        return false;
    m_req.body.append(m_in.constData() + m_pos, take);
    m_pos += take;
    if (m_req.body.size() == m_contentLength)
        complete();
    return true;
}

bool HttpRequestParser::stepChunkSize()
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
        if (size > m_limits.maxBodyBytes || size >= kContentLengthOverflow / 16)
            break; // too large already: rejected below
        size = size * 16 + digit;
    }
    if (i == 0) {
        fail(400);
        return true;
    }
    // what may follow: chunk extensions (ignored), whitespace, CR
    if (i < len && base[i] != ';' && base[i] != ' ' && base[i] != '\t' && base[i] != '\r') {
        if (size > m_limits.maxBodyBytes || size >= kContentLengthOverflow / 16)
            fail(413);
        else
            fail(400);
        return true;
    }
    if (size > m_limits.maxBodyBytes - m_req.body.size()) {
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

bool HttpRequestParser::stepChunkData()
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

bool HttpRequestParser::stepChunkEnd()
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

bool HttpRequestParser::stepTrailers()
{
    const char *base = nullptr;
    qsizetype len = 0;
    if (!headLine(base, len))
        return m_event == Event::Error; // refused (431): the step used the input; otherwise more is needed
    if (++m_headerCount > m_limits.maxHeaderCount + 1) {
        fail(431);
        return true;
    }
    if (len == 0) {
        complete();
        return true;
    }
    // trailer fields are discarded, but must look like fields
    const char *colon = findByte(base, len, ':');
    if (!colon || !isToken(base, colon - base))
        fail(400);
    return true;
}

void HttpRequestParser::resetRequest()
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

void HttpRequestParser::complete()
{
    m_lastHttp10 = m_http10;
    m_lastKeepAlive = m_http10 ? (m_connectionKeepAlive && !m_connectionClose) : !m_connectionClose;
    m_event = Event::Request;
}

void HttpRequestParser::fail(int status)
{
    // everything not yet parsed is dropped
    reset();
    m_errorStatus = status;
    m_bodyStillComing = 0;
    m_event = Event::Error;
}
