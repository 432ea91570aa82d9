// Media throughput: the multipart parser on its own (MB/s on a 16 MiB body with a file full of
// CRs and boundary look-alikes), then uploads and downloads over real HTTPS on loopback (files of
// the given size, one after the other, so that latency per request is what is measured).
//   bench_media [fileKiB=1024] [uploads=50]
#include "model/accounts/apikeyrepository.h"
#include "server/api/multipart.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QStandardPaths>

#include <algorithm>
#include <cstdio>

namespace {
double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    return values.at(qMin<qsizetype>(values.size() - 1, qsizetype(p * values.size())));
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const QStringList args = app.arguments();
    const int fileKiB = args.value(1, QStringLiteral("1024")).toInt();
    const int uploads = args.value(2, QStringLiteral("50")).toInt();

    // 1. Parser alone.
    QByteArray big(16 * 1024 * 1024, Qt::Uninitialized);
    QRandomGenerator rng(42);
    for (qsizetype i = 0; i < big.size(); ++i)
        big[i] = char(rng.bounded(256));
    for (qsizetype i = 0; i + 16 < big.size(); i += 4093)
        memcpy(big.data() + i, "\r\n--BenchBound", 14); // boundary look-alikes the parser must skip
    const QByteArray boundary = "BenchBoundary0123456789";
    const QByteArray body = Multipart::serialize(
        {{QStringLiteral("caption"), "hello", {}, false, {}},
         {QStringLiteral("file"), big, QStringLiteral("big.bin"), true, "application/octet-stream"}},
        boundary);
    const int rounds = 20;
    QElapsedTimer t;
    t.start();
    qsizetype parsedBytes = 0;
    for (int i = 0; i < rounds; ++i) {
        const MultipartForm form = MultipartForm::parse("multipart/form-data; boundary=" + boundary, body);
        if (!form.isValid() || form.parts().size() != 2) {
            std::fprintf(stderr, "parse failed: %s\n", qPrintable(form.errorString()));
            return 1;
        }
        parsedBytes += body.size();
    }
    const double parseSeconds = t.nsecsElapsed() / 1e9;
    std::printf("multipart parse: %d x %.1f MiB in %.3f s = %.0f MiB/s\n", rounds, body.size() / 1048576.0,
                parseSeconds, parsedBytes / 1048576.0 / parseSeconds);

    // 2. Upload and download over HTTPS.
    TempDatabase db;
    TestServer server(db.dir());
    ApiClient client(server.baseUrl(), server.certificate());
    client.setToken(server.createApiKey());
    QByteArray file(fileKiB * 1024, Qt::Uninitialized);
    for (qsizetype i = 0; i < file.size(); ++i)
        file[i] = char(rng.bounded(256));
    const QByteArray uploadBody = Multipart::serialize(
        {{QStringLiteral("file"), file, QStringLiteral("f.bin"), true, "application/octet-stream"}}, boundary);
    const QList<QPair<QByteArray, QByteArray>> headers{{"Content-Type", "multipart/form-data; boundary=" + boundary}};
    QList<double> upMs;
    QList<double> downMs;
    QStringList urls;
    QElapsedTimer all;
    all.start();
    for (int i = 0; i < uploads; ++i) {
        QElapsedTimer one;
        one.start();
        const HttpResult r = client.call("POST", QStringLiteral("/api/v1/media/upload"), uploadBody, headers, 60000);
        upMs << one.nsecsElapsed() / 1e6;
        if (r.status != 201) {
            std::fprintf(stderr, "upload failed: %d %s\n", r.status, r.body.constData());
            return 1;
        }
        urls << r.data().value(QStringLiteral("url")).toString().mid(server.baseUrl().size());
    }
    const double upSeconds = all.nsecsElapsed() / 1e9;
    ApiClient anonymous(server.baseUrl(), server.certificate());
    all.restart();
    for (const QString &url : std::as_const(urls)) {
        QElapsedTimer one;
        one.start();
        const HttpResult r = anonymous.get(url);
        downMs << one.nsecsElapsed() / 1e6;
        if (r.status != 200 || r.body.size() != file.size()) {
            std::fprintf(stderr, "download failed: %d\n", r.status);
            return 1;
        }
    }
    const double downSeconds = all.nsecsElapsed() / 1e9;
    const double mib = uploads * file.size() / 1048576.0;
    std::printf("upload   %d x %d KiB over HTTPS: %.1f uploads/s, %.1f MiB/s, p50 %.1f ms, p95 %.1f ms\n", uploads,
                fileKiB, uploads / upSeconds, mib / upSeconds, percentile(upMs, 0.5), percentile(upMs, 0.95));
    std::printf("download %d x %d KiB over HTTPS: %.1f downloads/s, %.1f MiB/s, p50 %.1f ms, p95 %.1f ms\n", uploads,
                fileKiB, uploads / downSeconds, mib / downSeconds, percentile(downMs, 0.5), percentile(downMs, 0.95));
    return 0;
}
