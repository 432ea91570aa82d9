// Fuzz target: the HTTP/1.1 request parser of HttpEngine (server/http), driven through a real
// socket. Each input is the byte stream a client sends on one connection: it is written (in one to
// three pieces, split where a hash of the input says) into one end of a socketpair whose other end
// the engine adopts, the event loop runs until the answers stop coming, the client half-closes, and
// the loop runs until the engine has dropped the connection. Checked: no crash or sanitizer report,
// the connection is gone afterwards (no descriptor or connection leak), and what the engine wrote
// back is a well-framed sequence of HTTP/1.1 responses (status lines, headers, Content-Length or
// chunked bodies, nothing after Connection: close).
//
// The handler answers according to the path, so that the engine's response side is exercised too:
//   /defer…     answered later, from the harness loop, in reverse order (pipelining keeps the order)
//   /throw…     the handler throws (the engine answers 500)
//   /stream…    a streaming (chunked) answer that echoes the request body, then ends
//   /status/N…  status N (invalid ones become 500 in the engine)
//   /big…       a 256 KiB body
//   /close…     the handler asks for Connection: close
//   /cl…        the handler sets its own Content-Length (ignored, except for HEAD)
//   anything    200 "METHOD target bodysize"
// The X-Echo request header and the percent-decoded query are copied into response headers: a value
// with CR, LF or NUL must be dropped by the engine, which the framing check would notice otherwise.
#include "tests/fuzz/fuzzsupport.h"

#include "server/http/httpengine.h"

#include <QElapsedTimer>
#include <QEventLoop>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {
constexpr qsizetype kMaxAnswerBytes = 8 * 1024 * 1024; // beyond it the answer is drained but not checked
constexpr int kQuietRounds = 3;                        // event-loop rounds without output: the engine is done
constexpr int kMaxSettleRounds = 400;
constexpr int kCloseTimeoutMs = 3000; // the engine must drop a half-closed connection within this
// socketpair() gets the lowest free descriptors: should the engine leak its end, the numbers climb.
constexpr int kMaxDescriptorDrift = 64;

struct State
{
    HttpEngine *engine = nullptr;
    std::vector<HttpResponder> deferred;
    QList<QByteArray> methods; // of the requests the handler saw on the current connection, in order
};

State *g_state = nullptr;
int g_firstDescriptor = -1;
bool g_verbose = false; // LIAISON_FUZZ_VERBOSE=1: print each answer (for writing seeds)
// LIAISON_FUZZ_IGNORE_KNOWN=1 (scripts/fuzz.sh FUZZ_IGNORE_KNOWN=1): steer clear of the known finding
// below, to look for others.
bool g_ignoreKnown = false;

void handle(const HttpRequest &request, const HttpResponder &responder)
{
    State &s = *g_state;
    s.methods.append(request.method);
    const QByteArray &path = request.path;
    if (path.startsWith("/throw"))
        throw std::runtime_error("fuzz: the handler throws");
    if (path.startsWith("/defer")) {
        s.deferred.push_back(responder);
        return;
    }
    HttpResponse r;
    if (path.startsWith("/status/"))
        r.status = path.mid(8, 4).toInt();
    r.setHeader("Content-Type", "text/plain");
    const QByteArray echo = request.header("X-Echo");
    if (!echo.isEmpty())
        r.headers.append(qMakePair(QByteArrayLiteral("X-Echo"), echo));
    if (!request.query.isEmpty())
        r.headers.append(qMakePair(QByteArrayLiteral("X-Query"), QByteArray::fromPercentEncoding(request.query)));
    if (path.startsWith("/close"))
        r.setHeader("Connection", "close");
    if (path.startsWith("/cl"))
        r.setHeader("Content-Length", "12345");
    // Known finding: to a HEAD request the engine writes the chunked terminator "0\r\n\r\n" after the
    // head of a stream (a body where none may be); the framing check reports it as bytes after an
    // answer with Connection: close.
    if (path.startsWith("/stream") && !(g_ignoreKnown && request.method == "HEAD")) {
        r.body = "retry: 1000\n\n";
        const HttpStream stream = responder.stream(std::move(r));
        stream.write(request.body);
        stream.write("data: fuzz\n\n");
        stream.end();
        return;
    }
    if (path.startsWith("/big"))
        r.body = QByteArray(256 * 1024, 'b');
    else
        r.body = request.method + ' ' + request.target + ' ' + QByteArray::number(request.body.size());
    responder.respond(std::move(r));
}

void answerDeferred()
{
    State &s = *g_state;
    // Newest first: the engine must still write them in request order.
    while (!s.deferred.empty()) {
        const HttpResponder responder = s.deferred.back();
        s.deferred.pop_back();
        HttpResponse r;
        r.body = "deferred";
        responder.respond(std::move(r));
    }
}

// Reads what the engine wrote so far; false once the engine closed its end.
bool readAnswer(int fd, QByteArray &answer, bool &overflow)
{
    char buf[65536];
    for (int i = 0; i < 1024; ++i) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) {
            if (answer.size() + n <= kMaxAnswerBytes)
                answer.append(buf, qsizetype(n));
            else
                overflow = true;
            continue;
        }
        if (n == 0)
            return false;
        if (errno == EINTR)
            continue;
        return true; // EAGAIN, or an error: nothing more now
    }
    return true;
}

// One round of the event loop, then the deferred answers and the bytes written back.
void pump(int fd, QByteArray &answer, bool &overflow, bool &open)
{
    QCoreApplication::processEvents(QEventLoop::AllEvents);
    answerDeferred();
    if (open)
        open = readAnswer(fd, answer, overflow);
}

void writeAll(int fd, const char *data, size_t size, QByteArray &answer, bool &overflow, bool &open)
{
    size_t done = 0;
    for (int round = 0; done < size && round < 100000; ++round) {
        const ssize_t n = ::send(fd, data + done, size - done, MSG_NOSIGNAL);
        if (n > 0) {
            done += size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            pump(fd, answer, overflow, open); // the engine reads, and writes back
            continue;
        }
        return; // EPIPE or ECONNRESET: the engine closed the connection (an error answer)
    }
}

bool equalsNoCase(const QByteArray &a, const char *b)
{
    return a.compare(QByteArray(b), Qt::CaseInsensitive) == 0;
}

bool isTokenChar(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c != 0 && std::strchr("!#$%&'*+-.^_`|~", c));
}

// Checks the framing of what the engine wrote. An answer cut short at the end is fine (the
// connection may be torn down mid-write); anything malformed before that is not.
void checkAnswer(const QByteArray &a, const QList<QByteArray> &methods)
{
    qsizetype pos = 0;
    int index = 0; // final (non-1xx) responses seen
    while (pos < a.size()) {
        const qsizetype headEnd = a.indexOf("\r\n\r\n", pos);
        if (headEnd < 0) {
            const QByteArray rest = a.mid(pos, 9);
            if (!QByteArray("HTTP/1.1 ").startsWith(rest))
                FuzzSupport::fail("an answer does not start with HTTP/1.1");
            return;
        }
        const QList<QByteArray> lines = a.mid(pos, headEnd - pos).split('\n');
        pos = headEnd + 4;
        const QByteArray statusLine = lines.first();
        if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.size() < 13 || statusLine.at(12) != ' ')
            FuzzSupport::fail("a malformed status line");
        bool ok = false;
        const int status = statusLine.mid(9, 3).toInt(&ok);
        if (!ok || status < 100 || status > 599)
            FuzzSupport::fail("a status code out of range");
        qint64 contentLength = -1;
        bool chunked = false;
        bool close = false;
        for (int i = 0; i < lines.size(); ++i) {
            QByteArray line = lines.at(i);
            if (!line.endsWith('\r') && i + 1 < lines.size())
                FuzzSupport::fail("a header line ends in a bare LF");
            if (line.endsWith('\r'))
                line.chop(1);
            if (line.contains('\r') || line.contains('\0'))
                FuzzSupport::fail("a CR or NUL inside a header line (header injection)");
            if (i == 0)
                continue;
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0 || !std::all_of(line.begin(), line.begin() + colon, isTokenChar))
                FuzzSupport::fail("a malformed response header line");
            const QByteArray name = line.left(colon);
            const QByteArray value = line.mid(colon + 1).trimmed();
            if (equalsNoCase(name, "content-length")) {
                if (contentLength >= 0)
                    FuzzSupport::fail("two Content-Length headers");
                contentLength = value.toLongLong(&ok);
                if (!ok || contentLength < 0)
                    FuzzSupport::fail("a malformed Content-Length");
            } else if (equalsNoCase(name, "transfer-encoding")) {
                if (!equalsNoCase(value, "chunked") || chunked)
                    FuzzSupport::fail("an unexpected Transfer-Encoding");
                chunked = true;
            } else if (equalsNoCase(name, "connection")) {
                close = close || value.toLower().contains("close");
            }
        }
        if (status < 200) {
            if (status != 100 || contentLength >= 0 || chunked)
                FuzzSupport::fail("an interim answer other than a bare 100 Continue");
            continue;
        }
        const bool head = index < methods.size() && methods.at(index) == "HEAD";
        ++index;
        if (index > methods.size() + 1)
            FuzzSupport::fail("more answers than requests (plus one error answer)");
        if (chunked && contentLength >= 0)
            FuzzSupport::fail("both Content-Length and chunked");
        if (status == 204 || status == 304) {
            if (contentLength >= 0 || chunked)
                FuzzSupport::fail("a body framing on a 204/304");
        } else if (chunked) {
            if (!close)
                FuzzSupport::fail("a chunked stream that does not close the connection");
            if (!head) {
                for (int chunk = 0;; ++chunk) {
                    const qsizetype eol = a.indexOf("\r\n", pos);
                    if (eol < 0 || chunk > 100000)
                        return; // cut short
                    bool hexOk = false;
                    const qint64 size = a.mid(pos, eol - pos).toLongLong(&hexOk, 16);
                    if (!hexOk || size < 0)
                        FuzzSupport::fail("a malformed chunk size line");
                    pos = eol + 2;
                    if (size == 0) {
                        if (a.size() - pos >= 2 && a.mid(pos, 2) != "\r\n")
                            FuzzSupport::fail("no CRLF after the last chunk");
                        pos += 2;
                        break;
                    }
                    if (a.size() - pos < size + 2)
                        return; // cut short
                    if (a.mid(pos + size, 2) != "\r\n")
                        FuzzSupport::fail("no CRLF after a chunk");
                    pos += size + 2;
                }
            }
        } else if (contentLength >= 0) {
            if (!head)
                pos += contentLength;
        } else {
            // No framing: an HTTP/1.0 stream, whose body lasts until the connection closes.
            if (!close)
                FuzzSupport::fail("a body without Content-Length, chunked or Connection: close");
            return;
        }
        if (close && pos < a.size())
            FuzzSupport::fail("bytes after an answer with Connection: close");
    }
}

quint32 hashOf(const uint8_t *data, size_t size)
{
    quint32 h = 2166136261u;
    for (size_t i = 0; i < size; ++i)
        h = (h ^ data[i]) * 16777619u;
    return h;
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***argv)
{
    // The plain UNIX event dispatcher: fewer layers per round than glib's.
    qputenv("QT_NO_GLIB", "1");
    FuzzSupport::initApplication(*argv);
    g_verbose = qEnvironmentVariableIntValue("LIAISON_FUZZ_VERBOSE") == 1;
    g_ignoreKnown = qEnvironmentVariableIntValue("LIAISON_FUZZ_IGNORE_KNOWN") == 1;
    g_state = new State;
    g_state->engine = new HttpEngine;
    HttpLimits limits;
    // Small limits, so that short inputs reach them (431, 413); timeouts far above one input's run
    // time, so that no timer decides an input's outcome (the fuzzer needs repeatable runs).
    limits.maxHeaderBytes = 4096;
    limits.maxHeaderCount = 24;
    limits.maxBodyBytes = 16 * 1024;
    limits.idleTimeoutMs = 20000;
    limits.requestTimeoutMs = 20000;
    limits.lingerTimeoutMs = 20000;
    limits.maxConnections = 4;
    g_state->engine->setLimits(limits);
    g_state->engine->setHandler(handle);
    if (!g_state->engine->configure(std::nullopt))
        FuzzSupport::fail("HttpEngine::configure");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    State &s = *g_state;
    HttpEngine &engine = *s.engine;
    s.methods.clear();
    s.deferred.clear();

    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        FuzzSupport::fail("socketpair");
    const int client = fds[0];
    if (g_firstDescriptor < 0)
        g_firstDescriptor = client;
    if (client > g_firstDescriptor + kMaxDescriptorDrift)
        FuzzSupport::fail("file descriptors leak: socketpair() numbers keep growing");
    ::fcntl(client, F_SETFL, ::fcntl(client, F_GETFL) | O_NONBLOCK);
    engine.adopt(fds[1]); // the engine owns fds[1] from here on
    if (engine.connectionCount() != 1)
        FuzzSupport::fail("the engine did not adopt the socket");

    // One to three pieces, cut where the hash of the input says: the parser must not care.
    const quint32 h = hashOf(data, size);
    std::vector<size_t> cuts{0, size};
    for (quint32 i = 0, n = h % 3; i < n && size > 1; ++i)
        cuts.push_back(size_t((h >> (8 + 11 * i)) % size));
    std::sort(cuts.begin(), cuts.end());

    QByteArray answer;
    bool overflow = false;
    bool open = true;
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
        if (cuts[i + 1] > cuts[i])
            writeAll(client, reinterpret_cast<const char *>(data) + cuts[i], cuts[i + 1] - cuts[i], answer, overflow,
                     open);
        pump(client, answer, overflow, open);
    }
    // Let the engine parse and answer everything it can before the client half-closes.
    int quiet = 0;
    for (int round = 0; round < kMaxSettleRounds && quiet < kQuietRounds; ++round) {
        const qsizetype before = answer.size();
        pump(client, answer, overflow, open);
        quiet = answer.size() == before && s.deferred.empty() ? quiet + 1 : 0;
    }
    ::shutdown(client, SHUT_WR);
    QElapsedTimer clock;
    clock.start();
    while (engine.connectionCount() > 0 && clock.elapsed() < kCloseTimeoutMs) {
        pump(client, answer, overflow, open);
        if (engine.connectionCount() > 0)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    if (engine.connectionCount() > 0)
        FuzzSupport::fail("the engine kept a connection whose client had closed");
    if (open)
        readAnswer(client, answer, overflow);
    ::close(client);
    // The closed connection's QObjects go now, not at the end of the run.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);

    if (g_verbose) {
        std::fprintf(stderr, "--- %zu bytes in, %d requests handled, %lld bytes answered:\n%s\n", size,
                     int(s.methods.size()), static_cast<long long>(answer.size()),
                     answer.left(600).replace("\r", "\\r").constData());
    }
    if (!overflow)
        checkAnswer(answer, s.methods);
    return 0;
}
