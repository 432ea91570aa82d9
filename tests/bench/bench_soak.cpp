// A soak of the real server: `liaison serve` (two threads, rate limit off) under mixed API load for
// SOAK_MINUTES (default 10): searches, reads and list pages; creates, changes and deletes; refused
// writes (409 duplicates, 400 bodies, 404s); three webhook subscriptions to every event fanned out to
// a loopback HTTPS receiver; and every 20 s a storm of 500 idle TLS connections held 10 s and closed.
// Every minute it prints requests, answers by status, latency, the server's RSS and open files, the
// WAL size and the webhooks received. Exit 1 when any answer was a 5xx or a transport error, or
// the server did not stop cleanly.
// On PostgreSQL (SOAK_POSTGRES_URL, a database of its own) the database goes away in the middle:
// at half time the shell command SOAK_PG_STOP stops it, SOAK_OUTAGE_SECONDS (default 20) later
// SOAK_PG_START starts it again (scripts/soak.sh --postgres sets all three). Meanwhile, and for 30 s
// after, a 503 with Retry-After is the expected answer; a 500, a transport error, a 503 without
// Retry-After or later than that are failures, and so is a server that does not answer 2xx again or
// delivers no webhook after the restart.
//   bench_soak [minutes]      LIAISON_BINARY: the liaison executable (default: next to this one)
#include "tests/support/webhookreceiver.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

namespace {
const QString kSecret = QStringLiteral("soak-secret-0123456789");
constexpr int kWorkers = 12;
constexpr int kIdleStorm = 500;

const char *const kFirst[] = {"Ayşe",  "Mehmet", "Zeynep", "Emre",   "Elif",  "Burak", "Nazlı",
                              "Çağrı", "Gökhan", "Şule",   "İrem",   "Oğuz",  "Ümit",  "Derya",
                              "Kaan",  "Sevgi",  "Tolga",  "Yıldız", "Ilgın", "Barış"};
const char *const kLast[] = {"Yılmaz", "Kaya",   "Demir", "Şahin",  "Çelik",
                             "Yıldız", "Öztürk", "Aydın", "Arslan", "Doğan"};

qint64 procValueKb(qint64 pid, const char *key)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(key))
            return line.mid(int(qstrlen(key))).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

int openFiles(qint64 pid)
{
    return int(QDir(QStringLiteral("/proc/%1/fd").arg(pid)).entryList(QDir::NoDotAndDotDot | QDir::System).size());
}

QString runCli(const QString &binary, const QStringList &args)
{
    QProcess p;
    p.start(binary, args);
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

struct Minute
{
    int requests = 0;
    QMap<int, int> statuses;
    std::vector<double> latencies;
};

class Soak : public QObject
{
public:
    Soak(const QString &baseUrl, const QString &key, const QSslCertificate &ca, quint16 port)
        : m_base(baseUrl)
        , m_key(key.toLatin1())
        , m_ca(ca)
        , m_port(port)
    {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.addCaCertificate(ca);
        m_ssl = ssl;
    }

    // Synchronous, for set-up only.
    QJsonObject call(const QByteArray &method, const QString &path, const QJsonObject &body = {}, int *status = nullptr)
    {
        QNetworkReply *reply = send(method, path, body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson());
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(30000, &loop, &QEventLoop::quit);
        loop.exec();
        if (status)
            *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QJsonObject json = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        return json;
    }

    void addContact(const QString &id, const QString &email) { m_contacts.push_back({id, email}); }

    // The database outage: 503 is expected from outageBegins() until 30 s after restarted().
    void outageBegins()
    {
        m_outageFrom = m_clock.elapsed();
        m_outageUntil = std::numeric_limits<qint64>::max();
    }
    void restarted()
    {
        m_restartedAt = m_clock.elapsed();
        m_outageUntil = m_restartedAt + 30000;
    }
    qint64 outage503() const { return m_outage503; }
    // Milliseconds from the restart to the first 2xx answer sent after it, -1 while there is none.
    qint64 recoveredAfter() const { return m_recoveredAfter; }

    void start()
    {
        m_clock.start();
        for (int i = 0; i < kWorkers; ++i)
            next();
        m_storm.setInterval(20000);
        connect(&m_storm, &QTimer::timeout, this, [this] { storm(); });
        m_storm.start();
    }

    void stop()
    {
        m_stopping = true;
        m_storm.stop();
        m_idle.clear();
    }
    bool drained() const { return m_inFlight == 0; }

    Minute takeMinute() { return std::exchange(m_minute, Minute()); }
    qint64 total() const { return m_total; }
    qint64 failures() const { return m_failures; }
    QMap<int, qint64> allStatuses() const { return m_all; }

private:
    struct Known
    {
        QString id;
        QString email;
    };

    QNetworkReply *send(const QByteArray &method, const QString &path, const QByteArray &body)
    {
        QNetworkRequest request(QUrl(m_base + path));
        request.setSslConfiguration(m_ssl);
        request.setRawHeader("Authorization", "Bearer " + m_key);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
        return m_nam.sendCustomRequest(request, method, body);
    }

    QString name(QRandomGenerator &r) const
    {
        return QString::fromUtf8(kFirst[r.bounded(int(std::size(kFirst)))]) + QLatin1Char(' ') +
               QString::fromUtf8(kLast[r.bounded(int(std::size(kLast)))]);
    }

    void next()
    {
        if (m_stopping)
            return;
        QRandomGenerator &r = *QRandomGenerator::global();
        const int op = r.bounded(100);
        QByteArray method = "GET";
        QString path;
        QByteArray body;
        const Known known = m_contacts.empty() ? Known() : m_contacts.at(r.bounded(int(m_contacts.size())));
        const int n = ++m_sequence;
        if (op < 30) {
            const QString word = QString::fromUtf8(kFirst[r.bounded(int(std::size(kFirst)))]).left(3);
            path = QStringLiteral("/api/v1/contacts?search=%1&limit=20")
                       .arg(QString::fromUtf8(QUrl::toPercentEncoding(word)));
        } else if (op < 50) {
            path = QStringLiteral("/api/v1/contacts/") + (op < 48 ? known.id : QStringLiteral("contact_missing"));
        } else if (op < 60) {
            path = QStringLiteral("/api/v1/contacts?page=%1&limit=50").arg(1 + r.bounded(20));
        } else if (op < 75) {
            const QStringList parts = name(r).split(QLatin1Char(' '));
            method = "POST";
            path = QStringLiteral("/api/v1/contacts");
            body = QJsonDocument(QJsonObject{{QStringLiteral("firstName"), parts.at(0)},
                                             {QStringLiteral("lastName"), parts.at(1)},
                                             {QStringLiteral("email"), QStringLiteral("soak%1@example.com").arg(n)},
                                             {QStringLiteral("phone"), QStringLiteral("+90532%1").arg(1000000 + n)}})
                       .toJson(QJsonDocument::Compact);
        } else if (op < 80) { // a duplicate e-mail: 409
            method = "POST";
            path = QStringLiteral("/api/v1/contacts");
            body = QJsonDocument(QJsonObject{{QStringLiteral("firstName"), QStringLiteral("Dup")},
                                             {QStringLiteral("email"), known.email}})
                       .toJson(QJsonDocument::Compact);
        } else if (op < 86) {
            method = "PATCH";
            path = QStringLiteral("/api/v1/contacts/") + known.id;
            body = QJsonDocument(QJsonObject{{QStringLiteral("company"), QStringLiteral("Kale %1").arg(n)}})
                       .toJson(QJsonDocument::Compact);
        } else if (op < 90) { // a broken body: 400
            method = "POST";
            path = QStringLiteral("/api/v1/contacts");
            body = "{\"firstName\": \"Yarım";
        } else if (op < 95) {
            path = QStringLiteral("/api/v1/deals?limit=20");
        } else if (op < 97) {
            path = QStringLiteral("/api/v1/segments");
        } else {
            method = "DELETE";
            path = QStringLiteral("/api/v1/contacts/") + known.id;
        }
        ++m_inFlight;
        QElapsedTimer timer;
        timer.start();
        QNetworkReply *reply = send(method, path, body);
        const qint64 sentAt = m_clock.elapsed();
        connect(reply, &QNetworkReply::finished, this, [this, reply, timer, method, path, sentAt] {
            --m_inFlight;
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const qint64 now = m_clock.elapsed();
            const bool inOutage = m_outageFrom >= 0 && now >= m_outageFrom && sentAt <= m_outageUntil;
            if (status >= 200 && status < 300 && m_restartedAt >= 0 && sentAt >= m_restartedAt && m_recoveredAfter < 0)
                m_recoveredAfter = now - m_restartedAt;
            const QByteArray answer = reply->readAll();
            reply->deleteLater();
            ++m_total;
            ++m_minute.requests;
            ++m_minute.statuses[status];
            ++m_all[status];
            m_minute.latencies.push_back(timer.nsecsElapsed() / 1e6);
            if (status == 503 && inOutage && reply->hasRawHeader("Retry-After")) {
                ++m_outage503;
            } else if (status == 0 || status >= 500) {
                ++m_failures;
                std::fprintf(stderr, "soak: %s %s -> %d %s %s\n", method.constData(), qPrintable(path), status,
                             qPrintable(reply->errorString()), answer.left(200).constData());
            }
            if (status == 201 && method == "POST") {
                const QJsonObject data =
                    QJsonDocument::fromJson(answer).object().value(QLatin1String("data")).toObject();
                m_contacts.push_back(
                    {data.value(QLatin1String("id")).toString(), data.value(QLatin1String("email")).toString()});
            }
            next();
        });
    }

    void storm()
    {
        if (m_stopping)
            return;
        for (int i = 0; i < kIdleStorm; ++i) {
            auto s = std::make_unique<QSslSocket>();
            s->setSslConfiguration(m_ssl);
            s->connectToHostEncrypted(QStringLiteral("127.0.0.1"), m_port, QStringLiteral("localhost"));
            m_idle.push_back(std::move(s));
        }
        QTimer::singleShot(10000, this, [this] { m_idle.clear(); });
    }

    QString m_base;
    QByteArray m_key;
    QSslCertificate m_ca;
    quint16 m_port;
    QSslConfiguration m_ssl;
    QNetworkAccessManager m_nam;
    std::vector<Known> m_contacts;
    std::vector<std::unique_ptr<QSslSocket>> m_idle;
    QTimer m_storm;
    Minute m_minute;
    QMap<int, qint64> m_all;
    qint64 m_total = 0;
    qint64 m_failures = 0;
    int m_inFlight = 0;
    int m_sequence = 0;
    bool m_stopping = false;
    QElapsedTimer m_clock;
    qint64 m_outageFrom = -1;
    qint64 m_outageUntil = -1;
    qint64 m_restartedAt = -1;
    qint64 m_outage503 = 0;
    qint64 m_recoveredAfter = -1;
};

// Runs a shell command without blocking the event loop; done(exit code) when it ends.
void runShell(QObject *parent, const QString &command, std::function<void(int)> done)
{
    auto *p = new QProcess(parent);
    p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QObject::connect(p, &QProcess::finished, parent, [p, done](int code, QProcess::ExitStatus status) {
        p->deleteLater();
        done(status == QProcess::NormalExit ? code : -1);
    });
    p->start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command});
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.at(std::min(v.size() - 1, size_t(p * double(v.size()))));
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int minutes =
        std::max(1, app.arguments().value(1, qEnvironmentVariable("SOAK_MINUTES", QStringLiteral("10"))).toInt());
    QString binary = qEnvironmentVariable("LIAISON_BINARY");
    if (binary.isEmpty())
        binary = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("liaison"));
    QTemporaryDir dir;
    WebhookReceiver receiver(kSecret);
    const QString caFile = dir.filePath(QStringLiteral("receiver-ca.pem"));
    {
        QFile f(caFile);
        if (!f.open(QIODevice::WriteOnly) || f.write(receiver.certificate().toPem()) <= 0)
            qFatal("cannot write %s", qPrintable(caFile));
    }
    const QString dataDir = dir.filePath(QStringLiteral("data"));
    const QString postgresUrl = qEnvironmentVariable("SOAK_POSTGRES_URL");
    const QString stopDatabase = qEnvironmentVariable("SOAK_PG_STOP");
    const QString startDatabase = qEnvironmentVariable("SOAK_PG_START");
    const bool outage = !postgresUrl.isEmpty() && !stopDatabase.isEmpty() && !startDatabase.isEmpty();
    const int outageSeconds = qEnvironmentVariableIsSet("SOAK_OUTAGE_SECONDS")
                                  ? std::clamp(qEnvironmentVariableIntValue("SOAK_OUTAGE_SECONDS"), 1, 600)
                                  : 20;
    QStringList database;
    if (!postgresUrl.isEmpty())
        database << QStringLiteral("--set") << QStringLiteral("database/url=") + postgresUrl;
    const QString key = runCli(binary, QStringList{QStringLiteral("apikey"), QStringLiteral("create"),
                                                   QStringLiteral("--name"), QStringLiteral("soak"),
                                                   QStringLiteral("--data-dir"), dataDir} +
                                           database)
                            .trimmed()
                            .split(QLatin1Char('\n'))
                            .constLast()
                            .trimmed();
    if (!key.startsWith(QLatin1String("lk_")))
        qFatal("no API key from %s", qPrintable(binary));

    QProcess server;
    QByteArray serverErr;
    server.setProcessChannelMode(QProcess::SeparateChannels);
    QObject::connect(&server, &QProcess::readyReadStandardError, [&] {
        serverErr += server.readAllStandardError();
        if (serverErr.size() > 1 << 20)
            serverErr = serverErr.right(1 << 19);
    });
    const QStringList set = {QStringLiteral("server/rateLimitPerMinute=0"), QStringLiteral("server/threads=2"),
                             QStringLiteral("webhooks/allowedTargets=local"),
                             QStringLiteral("webhooks/caFile=") + caFile,
                             QStringLiteral("webhooks/pollIntervalMs=200")};
    QStringList args{QStringLiteral("serve"), QStringLiteral("--data-dir"), dataDir, QStringLiteral("--listen"),
                     QStringLiteral("127.0.0.1:0")};
    for (const QString &s : set)
        args << QStringLiteral("--set") << s;
    server.start(binary, args + database);
    QString baseUrl;
    QByteArray out;
    QElapsedTimer wait;
    wait.start();
    static const QRegularExpression listening(QStringLiteral("listening on (https://[^ ]+)/api/v1"));
    while (baseUrl.isEmpty() && wait.elapsed() < 30000 && server.state() != QProcess::NotRunning) {
        server.waitForReadyRead(200);
        out += server.readAllStandardOutput();
        const QRegularExpressionMatch m = listening.match(QString::fromUtf8(out));
        if (m.hasMatch())
            baseUrl = m.captured(1);
    }
    if (baseUrl.isEmpty())
        qFatal("the server did not start: %s", serverErr.constData());
    const quint16 port = quint16(QUrl(baseUrl).port());
    QFile certFile(QDir(dataDir).filePath(QStringLiteral("tls/cert.pem")));
    certFile.open(QIODevice::ReadOnly);
    const QSslCertificate ca(certFile.readAll(), QSsl::Pem);
    const qint64 pid = server.processId();

    Soak soak(baseUrl, key, ca, port);
    for (int i = 0; i < 3; ++i) {
        int status = 0;
        soak.call("POST", QStringLiteral("/api/v1/webhooks"),
                  {{QStringLiteral("url"), receiver.url(QStringLiteral("/soak%1").arg(i))},
                   {QStringLiteral("events"), QJsonArray{QStringLiteral("*")}},
                   {QStringLiteral("secret"), kSecret}},
                  &status);
        if (status != 201)
            qFatal("webhook subscription: %d", status);
    }
    for (int i = 0; i < 1000; ++i) {
        const QString email = QStringLiteral("seed%1@example.com").arg(i);
        const QJsonObject created =
            soak.call("POST", QStringLiteral("/api/v1/contacts"),
                      {{QStringLiteral("firstName"), QString::fromUtf8(kFirst[i % std::size(kFirst)])},
                       {QStringLiteral("lastName"), QString::fromUtf8(kLast[(i / 20) % std::size(kLast)])},
                       {QStringLiteral("email"), email}});
        soak.addContact(created.value(QLatin1String("data")).toObject().value(QLatin1String("id")).toString(), email);
    }
    std::printf("soak: %s, pid %lld, %d minutes, %d requests in flight, %d idle TLS connections every 20 s, %s\n",
                qPrintable(baseUrl), pid, minutes, kWorkers, kIdleStorm,
                postgresUrl.isEmpty() ? "SQLite"
                : outage              ? "PostgreSQL with an outage at half time"
                                      : "PostgreSQL");
    std::printf("%-6s %9s %7s %-44s %7s %7s %8s %5s %8s %9s\n", "minute", "requests", "req/s", "statuses", "p50 ms",
                "p99 ms", "RSS MB", "fds", "WAL MB", "webhooks");
    std::fflush(stdout);

    const QString wal = QDir(dataDir).filePath(QStringLiteral("liaison.db-wal"));
    int minute = 0;
    qint64 webhooksBefore = 0;
    qint64 webhooksSeen = 0; // those of the minutes printed so far
    qint64 webhooksAtRestart = -1;
    bool outageDone = !outage;
    if (outage) {
        QTimer::singleShot(minutes * 30000, &app, [&] {
            soak.outageBegins();
            std::printf("soak: stopping the database\n");
            std::fflush(stdout);
            runShell(&app, stopDatabase, [&](int stopped) {
                std::printf("soak: database stopped (exit %d); starting it again in %d s\n", stopped,
                            outageSeconds);
                std::fflush(stdout);
                QTimer::singleShot((outageSeconds) * 1000, &app, [&] {
                    runShell(&app, startDatabase, [&](int started) {
                        soak.restarted();
                        webhooksAtRestart = webhooksSeen + receiver.requests.size();
                        outageDone = started == 0;
                        std::printf("soak: database started again (exit %d)\n", started);
                        std::fflush(stdout);
                    });
                });
            });
        });
    }
    QTimer tick;
    tick.setInterval(60000);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        ++minute;
        const Minute m = soak.takeMinute();
        QStringList statuses;
        for (auto it = m.statuses.cbegin(); it != m.statuses.cend(); ++it)
            statuses << QStringLiteral("%1:%2").arg(it.key()).arg(it.value());
        const qint64 webhooks = receiver.requests.size();
        std::printf("%-6d %9d %7.0f %-44s %7.1f %7.1f %8.1f %5d %8.1f %9lld\n", minute, m.requests, m.requests / 60.0,
                    qPrintable(statuses.join(QLatin1Char(' '))), percentile(m.latencies, 0.5),
                    percentile(m.latencies, 0.99), procValueKb(pid, "VmRSS:") / 1024.0, openFiles(pid),
                    QFileInfo(wal).size() / 1048576.0, webhooks - webhooksBefore);
        std::fflush(stdout);
        webhooksBefore = webhooks;
        webhooksSeen += webhooks;
        receiver.requests.clear(); // keeps the receiver's memory flat
        webhooksBefore = 0;
        if (minute >= minutes) {
            tick.stop();
            soak.stop();
            QTimer *drain = new QTimer(&app);
            QElapsedTimer drainClock;
            drainClock.start();
            QObject::connect(drain, &QTimer::timeout, [&soak, &app, drainClock] {
                if (soak.drained() || drainClock.elapsed() > 30000)
                    app.quit();
            });
            drain->start(50);
        }
    });
    tick.start();
    soak.start();
    app.exec();

    const qint64 rss = procValueKb(pid, "VmRSS:");
    const qint64 peak = procValueKb(pid, "VmHWM:");
    server.terminate();
    const bool stopped =
        server.waitForFinished(30000) && server.exitStatus() == QProcess::NormalExit && server.exitCode() == 0;
    if (!stopped)
        server.kill();
    QStringList all;
    const QMap<int, qint64> statuses = soak.allStatuses();
    for (auto it = statuses.cbegin(); it != statuses.cend(); ++it)
        all << QStringLiteral("%1:%2").arg(it.key()).arg(it.value());
    const bool snapshotLeak = serverErr.contains("outlived its unit of work");
    std::printf("soak: %lld requests (%s), %lld 5xx or transport errors; RSS at the end %.1f MB, peak %.1f MB; "
                "stopped cleanly: %s; snapshot leaks logged: %s\n",
                soak.total(), qPrintable(all.join(QLatin1Char(' '))), soak.failures(), rss / 1024.0, peak / 1024.0,
                stopped ? "yes" : "no", snapshotLeak ? "yes" : "no");
    bool ok = soak.failures() == 0 && stopped && !snapshotLeak && soak.total() > 0;
    if (outage) {
        const qint64 webhooksAfter = webhooksAtRestart < 0 ? 0 : webhooksSeen + receiver.requests.size() - webhooksAtRestart;
        std::printf("soak: database outage: %lld answers 503 with Retry-After while it was away; first 2xx %lld ms "
                    "after the restart; %lld webhooks delivered after it\n",
                    soak.outage503(), soak.recoveredAfter(), webhooksAfter);
        ok = ok && outageDone && soak.recoveredAfter() >= 0 && webhooksAfter > 0;
    }
    std::printf("soak: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
