// Fuzz target: HttpRequestParser (server/http) on its own, with no socket and no event loop: the
// framing itself, where fuzz_http spends its time in the engine around it. The first byte
// of an input picks the limits (the defaults, or small ones so that 413 and 431 are reached), the
// rest is what a client sends on one connection. It is parsed three times: whole, cut in two or
// three pieces where a hash of the input says, and byte by byte (first 4 KiB). Checked:
//  - every cut gives the same requests (method, target, path, query, headers, body, framing) and the
//    same refusal: framing never depends on how TCP splits the stream;
//  - a request keeps the limits (body, header count) and is well-formed (method a token, a path, no
//    CR or LF in a field);
//  - a refusal is one of the statuses the engine answers (400, 413, 431, 501, 505);
//  - parsing ends: at most one event per input byte, plus one.
#include "tests/fuzz/fuzzsupport.h"

#include "server/http/httprequestparser.h"

#include <QByteArray>
#include <QList>

#include <cstring>

namespace {

struct Outcome
{
    QList<QByteArray> requests; // each request, flattened
    int error = 0;
    int continues = 0;
    bool operator==(const Outcome &o) const
    {
        return requests == o.requests && error == o.error && continues == o.continues;
    }
};

bool isTokenChar(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

QByteArray flatten(const HttpRequest &r, const HttpRequestParser &parser, const HttpLimits &limits)
{
    if (r.method.isEmpty())
        FuzzSupport::fail("a request without a method");
    for (char c : r.method) {
        if (!isTokenChar(c))
            FuzzSupport::fail("a method that is not a token");
    }
    if (r.target.isEmpty() || r.path.isEmpty())
        FuzzSupport::fail("a request without a target or a path");
    if (r.body.size() > limits.maxBodyBytes)
        FuzzSupport::fail("a body over maxBodyBytes");
    if (r.headers.size() > limits.maxHeaderCount)
        FuzzSupport::fail("more fields than maxHeaderCount");
    QByteArray out = r.method + ' ' + r.target + ' ' + r.path + '?' + r.query;
    out += parser.http10() ? " 1.0" : " 1.1";
    out += parser.keepAlive() ? " ka\n" : " close\n";
    for (const auto &h : r.headers) {
        if (h.first.isEmpty() || h.first.contains('\r') || h.first.contains('\n') || h.second.contains('\r') ||
            h.second.contains('\n'))
            FuzzSupport::fail("a field with an empty name or a line break");
        out += h.first + ": " + h.second + '\n';
    }
    out += '\n' + r.body;
    return out;
}

// Appends the pieces one after the other, taking every event after each.
Outcome parse(const QByteArray &input, const QList<qsizetype> &cuts, const HttpLimits &limits)
{
    HttpRequestParser parser(limits);
    Outcome outcome;
    qsizetype events = 0;
    qsizetype from = 0;
    for (qsizetype i = 0; i <= cuts.size() && outcome.error == 0; ++i) {
        const qsizetype to = i < cuts.size() ? cuts.at(i) : input.size();
        parser.append(input.constData() + from, to - from);
        from = to;
        for (;;) {
            const HttpRequestParser::Event e = parser.next();
            if (e == HttpRequestParser::Event::NeedMore)
                break;
            if (++events > input.size() + 1)
                FuzzSupport::fail("more events than input bytes");
            if (e == HttpRequestParser::Event::ContinueExpected) {
                ++outcome.continues;
                continue;
            }
            if (e == HttpRequestParser::Event::Error) {
                outcome.error = parser.errorStatus();
                const int s = outcome.error;
                if (s != 400 && s != 413 && s != 431 && s != 501 && s != 505)
                    FuzzSupport::fail("a refusal with an unexpected status");
                if (parser.bodyStillComing() < 0 || (s != 413 && parser.bodyStillComing() != 0))
                    FuzzSupport::fail("bodyStillComing out of range");
                if (parser.hasInput() || parser.inRequest())
                    FuzzSupport::fail("input kept after a refusal");
                break;
            }
            outcome.requests.append(flatten(parser.takeRequest(), parser, limits));
        }
    }
    return outcome;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***argv)
{
    FuzzSupport::initApplication(*argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    HttpLimits limits;
    if (data[0] & 1) {
        limits.maxHeaderBytes = 512;
        limits.maxHeaderCount = 8;
        limits.maxBodyBytes = 64;
    }
    const QByteArray input(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));

    const Outcome whole = parse(input, {}, limits);

    // Two cut points from a hash of the input (FNV-1a), the second one optional.
    quint32 hash = 2166136261u;
    for (char c : input)
        hash = (hash ^ quint8(c)) * 16777619u;
    QList<qsizetype> cuts;
    if (!input.isEmpty()) {
        const qsizetype a = qsizetype(hash % quint32(input.size() + 1));
        const qsizetype b = qsizetype((hash >> 16) % quint32(input.size() + 1));
        cuts = {std::min(a, b), std::max(a, b)};
    }
    if (!(parse(input, cuts, limits) == whole))
        FuzzSupport::fail("cutting the input in pieces changed the requests");

    const qsizetype bytewise = std::min<qsizetype>(input.size(), 4096);
    if (bytewise == input.size()) {
        QList<qsizetype> everyByte;
        everyByte.reserve(bytewise);
        for (qsizetype i = 1; i < bytewise; ++i)
            everyByte.append(i);
        if (!(parse(input, everyByte, limits) == whole))
            FuzzSupport::fail("feeding the input byte by byte changed the requests");
    }
    return 0;
}
