// Campaign e-mail throughput: N personalised Turkish messages built (MimeWriter), DKIM-signed
// (2048-bit RSA) and sent over STARTTLS with AUTH into the local SMTP sink (tests/support/smtpsink.py),
// through one SmtpSession and through several at once (a thread each, a connection each).
// Prints messages per second for: composing and signing alone; sending into a sink that only
// counts; sending into a sink that parses and writes every message (as the tests'
// sink does). The sink's CPU time is printed too: near the wall time means the Python sink, one
// core, is the limit, not the sender.
//   bench_smtp [messages=2000] [sessions=4]
#include "messaging/mail/mailmessage.h"
#include "messaging/mail/smtpsession.h"
#include "tests/bench/benchtiming.h"
#include "tests/support/smtpsink.h"

#include <QCoreApplication>
#include <QFile>
#include <QMutex>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <atomic>
#include <cstdio>
#include <unistd.h>

namespace {
QByteArray benchDkimKey(const QString &dir)
{
    const QString key = dir + QStringLiteral("/dkim.pem");
    QProcess gen;
    gen.start(QStringLiteral("openssl"),
              {QStringLiteral("genpkey"), QStringLiteral("-algorithm"), QStringLiteral("RSA"),
               QStringLiteral("-pkeyopt"), QStringLiteral("rsa_keygen_bits:2048"), QStringLiteral("-out"), key});
    gen.waitForFinished(60000);
    QFile f(key);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// CPU seconds (user + system) a process has used, from /proc/<pid>/stat.
double benchCpuSeconds(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray stat = f.readAll();
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    // Fields after the name: state is [0], utime [11], stime [12].
    return (fields.value(11).toDouble() + fields.value(12).toDouble()) / double(sysconf(_SC_CLK_TCK));
}

MailMessage benchMessage(int i)
{
    MailMessage m;
    m.toName = QStringLiteral("Ayşe Yılmaz %1").arg(i);
    m.toAddress = QStringLiteral("alici%1@musteri.com.tr").arg(i);
    m.subject = QStringLiteral("Kasım kampanyası: %20 indirim, Ayşe");
    m.html =
        QStringLiteral("<html><body><h1>Merhaba Ayşe Yılmaz,</h1><p>Kasım boyunca İstanbul ve İzmir mağazalarımızda "
                       "<b>tüm ürünlerde</b> %20 indirim var. Çağrı merkezimiz: 0212 555 00 00.</p>"
                       "<p><a href=\"https://ornek.com.tr/t/c/%1/1\">Kampanyayı gör</a> · "
                       "<a href=\"https://ornek.com.tr/t/c/%1/2\">Mağazalarımız</a></p>"
                       "<img src=\"https://ornek.com.tr/t/o/%1.gif\" width=\"1\" height=\"1\" alt=\"\">"
                       "<p style=\"font-size:11px\">Bu e-postaları almak istemiyorsanız "
                       "<a href=\"https://ornek.com.tr/u/%1\">abonelikten çıkın</a>.</p></body></html>")
            .arg(i);
    m.messageId = QStringLiteral("cmp_bench.rcp_%1@ornek.com.tr").arg(i);
    m.headers = {{"List-Unsubscribe", QStringLiteral("<https://ornek.com.tr/u/%1>, <mailto:u+%1@ornek.com.tr>").arg(i)},
                 {"List-Unsubscribe-Post", QStringLiteral("List-Unsubscribe=One-Click")}};
    return m;
}

struct BenchRun
{
    double seconds = 0;
    int sent = 0, failed = 0, connections = 0;
    double sinkCpu = 0;
    QString firstError;
};

// Sends messages 0..count-1 split over `sessions` threads, each composing and sending its share.
BenchRun benchSend(const MailConfig &config, const SmtpSink &sink, int count, int sessions)
{
    BenchRun run;
    std::atomic<int> next{0}, sent{0}, failed{0}, connections{0};
    QString firstError;
    QMutex errorLock;
    const double cpuBefore = benchCpuSeconds(sink.processId());
    QElapsedTimer t;
    t.start();
    QList<QThread *> threads;
    for (int s = 0; s < sessions; ++s) {
        threads.append(QThread::create([&] {
            const MailComposer composer(config);
            SmtpSession session(config);
            for (int i = next++; i < count; i = next++) {
                const MailMessage m = benchMessage(i);
                const SmtpOutcome o = session.send(QStringLiteral("bounce+rcp_%1@ornek.com.tr").arg(i), m.toAddress,
                                                   composer.compose(m, QDateTime::currentDateTimeUtc()));
                if (o.kind == SmtpOutcome::Sent) {
                    ++sent;
                } else {
                    ++failed;
                    const QMutexLocker lock(&errorLock);
                    if (firstError.isEmpty())
                        firstError = o.detail;
                }
            }
            connections += session.connectionsOpened();
        }));
        threads.last()->start();
    }
    for (QThread *th : threads) {
        th->wait();
        delete th;
    }
    run.seconds = ms(t) / 1000.0;
    run.sinkCpu = benchCpuSeconds(sink.processId()) - cpuBefore;
    run.sent = sent;
    run.failed = failed;
    run.connections = connections;
    run.firstError = firstError;
    return run;
}

void benchPrint(const char *what, int sessions, const BenchRun &r)
{
    std::printf("%-34s sessions=%d: %5d sent, %d failed in %.2f s = %6.0f messages/s; connections %d; "
                "sink CPU %.2f s (%.0f%% of the wall time)\n",
                what, sessions, r.sent, r.failed, r.seconds, r.sent / r.seconds, r.connections, r.sinkCpu,
                100.0 * r.sinkCpu / r.seconds);
    if (!r.firstError.isEmpty())
        std::printf("  first failure: %s\n", qPrintable(r.firstError));
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int count = args.value(1, QStringLiteral("2000")).toInt();
    const int sessions = args.value(2, QStringLiteral("4")).toInt();
    QTemporaryDir keys;
    const QByteArray key = benchDkimKey(keys.path());
    if (key.isEmpty()) {
        std::fprintf(stderr, "openssl genpkey failed\n");
        return 1;
    }

    MailConfig config;
    config.smtpHost = QStringLiteral("127.0.0.1");
    config.user = QStringLiteral("kampanya");
    config.password = QStringLiteral("gizli-parola-123");
    config.from = QStringLiteral("Örnek Mağaza <kampanya@ornek.com.tr>");
    config.verifyTls = false; // the sink's certificate is self-signed
    config.dkimDomain = QStringLiteral("ornek.com.tr");
    config.dkimSelector = QStringLiteral("liaison");
    config.dkimKeyPem = key;

    for (const bool sign : {false, true}) {
        MailConfig c = config;
        if (!sign)
            c.dkimKeyPem.clear();
        const MailComposer composer(c);
        QElapsedTimer t;
        t.start();
        qint64 bytes = 0;
        for (int i = 0; i < count; ++i)
            bytes += composer.compose(benchMessage(i), QDateTime::currentDateTimeUtc()).size();
        const double s = ms(t) / 1000.0;
        std::printf("%-34s %5d in %.2f s = %6.0f messages/s (one thread), %lld bytes each\n",
                    sign ? "compose + DKIM sign" : "compose (no DKIM)", count, s, count / s,
                    static_cast<long long>(bytes / qMax(1, count)));
    }

    for (const bool countOnly : {true, false}) {
        SmtpSink::Options o;
        o.user = config.user;
        o.password = config.password;
        o.countOnly = countOnly;
        for (const int n : {1, sessions}) {
            SmtpSink sink(o); // a fresh sink each run: the parsing one writes every message
            if (!sink.isReady()) {
                std::fprintf(stderr, "%s\n", qPrintable(sink.errorText()));
                return 1;
            }
            config.smtpPort = sink.port();
            benchPrint(countOnly ? "STARTTLS+AUTH, sink counts" : "STARTTLS+AUTH, sink parses+writes", n,
                       benchSend(config, sink, count, n));
        }
    }
    return 0;
}
