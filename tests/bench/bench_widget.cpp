// Web widget live push figures over real HTTPS on loopback (one server thread, this process): how
// long N visitors take to open their event streams (TLS handshake + GET /widget/v1/events), the
// latency from an agent's reply (POST /api/v1/conversations/:id/messages) to the event arriving on
// the visitor's stream while N streams are open. Usage: bench_widget [streams] [replies] (default 400 x 200; at most
// 500 streams, the server's limit). Prints its figures.
#include "model/core/database.h"
#include "model/inbox/widgetvisitorrepository.h"
#include "server/controllers/widgetevents.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

namespace {
struct Stream
{
    std::unique_ptr<QSslSocket> socket;
    QByteArray received;
    QString conversationId;
};

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const int streams = std::clamp(argc > 1 ? atoi(argv[1]) : 400, 1, WidgetStreams::kMax);
    const int replies = std::max(1, argc > 2 ? atoi(argv[2]) : 200);

    TempDatabase db;
    TestServer server(db.dir());
    ApiClient agent(server.baseUrl(), server.certificate());
    agent.setToken(server.createApiKey());
    WidgetVisitorRepository visitors(server.store());

    std::vector<Stream> open;
    open.resize(static_cast<size_t>(streams));
    std::vector<QString> tokens;
    for (int i = 0; i < streams; ++i) {
        const auto created = visitors.create(QStringLiteral("Visitor %1").arg(i), {});
        tokens.push_back(created.token);
        open[size_t(i)].conversationId = created.visitor.conversationId;
    }

    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.addCaCertificate(server.certificate());
    const quint16 port = server.server().port();
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < streams; ++i) {
        Stream &s = open[size_t(i)];
        s.socket = std::make_unique<QSslSocket>();
        s.socket->setSslConfiguration(ssl);
        QSslSocket *socket = s.socket.get();
        QByteArray *buffer = &s.received;
        const QByteArray request = "GET /widget/v1/events?token=" + tokens[size_t(i)].toUtf8() +
                                   " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n";
        QObject::connect(socket, &QSslSocket::encrypted, [socket, request] { socket->write(request); });
        QObject::connect(socket, &QIODevice::readyRead, [socket, buffer] { buffer->append(socket->readAll()); });
        socket->connectToHostEncrypted(QStringLiteral("127.0.0.1"), port, QStringLiteral("localhost"));
    }
    const bool allOpen = QTest::qWaitFor(
        [&] {
            return std::all_of(open.begin(), open.end(),
                               [](const Stream &s) { return s.received.contains(": connected"); });
        },
        120000);
    const double openMs = double(t.nsecsElapsed()) / 1e6;
    if (!allOpen) {
        std::fprintf(stderr, "not every stream opened (%d open on the server)\n",
                     server.server().shared().widget.streams.open());
        return 1;
    }

    std::vector<double> latencies;
    int lost = 0;
    for (int r = 0; r < replies; ++r) {
        Stream &s = open[size_t(QRandomGenerator::global()->bounded(streams))];
        QElapsedTimer one;
        one.start();
        const HttpResult posted = agent.post(QStringLiteral("/api/v1/conversations/%1/messages").arg(s.conversationId),
                                             {{QStringLiteral("type"), QStringLiteral("text")},
                                              {QStringLiteral("text"), QStringLiteral("reply %1").arg(r)}});
        const QByteArray id = posted.data().value(QLatin1String("id")).toString().toUtf8();
        if (posted.status != 201 || id.isEmpty()) {
            ++lost;
            continue;
        }
        if (QTest::qWaitFor([&] { return s.received.contains("id: " + id); }, 10000))
            latencies.push_back(double(one.nsecsElapsed()) / 1e6);
        else
            ++lost;
    }

    std::printf("widget live push over HTTPS, one server thread, %d open event streams\n", streams);
    std::printf("  open %d streams (TLS + GET /widget/v1/events): %.0f ms total, %.2f ms per stream\n", streams, openMs,
                openMs / streams);
    std::printf("  agent reply POST -> event on the visitor's stream (%d replies, %zu measured, %d lost):\n", replies,
                latencies.size(), lost);
    std::printf("    p50 %.2f ms, p95 %.2f ms, max %.2f ms\n", percentile(latencies, 0.5), percentile(latencies, 0.95),
                latencies.empty() ? 0.0 : *std::max_element(latencies.begin(), latencies.end()));
    std::printf("  streams still open on the server afterwards: %d\n", server.server().shared().widget.streams.open());
    open.clear();
    return lost == 0 ? 0 : 1;
}
