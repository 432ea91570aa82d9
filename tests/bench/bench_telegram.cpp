// The Telegram channel against the local fake Bot API (plain HTTP loopback), printing:
//  1. outgoing messages/s through ChannelDispatcher -> TelegramConnector with no send limit;
//  2. the same held to channels/telegram/sendPerSecond = 30: messages/s and the most sends the
//     fake saw arrive in any one-second window (paced by send start, so latency jitter may show a
//     few above 30);
//  3. incoming updates/s recorded by TelegramPoller (getUpdates batches of 100 -> InboundRecorder).
// Usage: bench_telegram [outgoing=600] [paced=150] [incoming=2000]
#include "messaging/channels/channeldispatcher.h"
#include "messaging/channels/channelregistry.h"
#include "messaging/channels/telegrampoller.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/inbox/conversationrepository.h"
#include "tests/support/faketelegram.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <algorithm>
#include <cstdio>

namespace {
TelegramConfig config(const FakeTelegram &fake, int perSecond)
{
    TelegramConfig t;
    t.botToken = fake.token();
    t.apiBaseUrl = fake.baseUrl();
    t.sendPerSecond = perSecond;
    t.pollTimeoutSeconds = 1;
    return t;
}

// Queues `count` pending text messages, one conversation per chat; returns their ids.
QStringList queue(int count, int firstChat)
{
    ConversationRepository conversations(testStore());
    QStringList ids;
    Transaction tx;
    for (int i = 0; i < count; ++i) {
        const QString chat = QString::number(firstChat + i);
        const QString contact =
            ContactRepository(testStore())
                .create(ContactRules::parse({{"firstName", "Bench"}, {"email", "bench" + chat + "@example.com"}}))
                .id;
        const QString conv = conversations.findOrCreate(contact, "telegram", chat, "telegram").id;
        MessageContent c;
        c.text = QStringLiteral("Hello %1").arg(chat);
        ids << conversations.addOutgoing(conv, c, {QStringLiteral("api"), QStringLiteral("bench"), QString()}).id;
    }
    tx.commit();
    return ids;
}

struct Run
{
    double seconds = 0;
    int sent = 0;
    int maxPerSecond = 0;
};

Run send(FakeTelegram &fake, EventBus &bus, int perSecond, int count, int firstChat)
{
    ChannelsConfig channels;
    channels.telegram = config(fake, perSecond);
    channels.pollIntervalMs = 20;
    auto registry = std::make_shared<ChannelRegistry>(channels);
    const int before = int(fake.sends().size());
    const QStringList ids = queue(count, firstChat);
    QElapsedTimer timer;
    timer.start();
    ChannelDispatcher dispatcher(registry, Store(bus));
    (void)QTest::qWaitFor([&] { return fake.sends().size() - before >= count; }, 120000);
    Run r;
    r.seconds = timer.elapsed() / 1000.0;
    const QList<FakeTelegram::Call> sends = fake.sends().mid(before);
    r.sent = int(sends.size());
    // The most sends in any window of 1000 ms.
    for (int i = 0, j = 0; i < sends.size(); ++i) {
        while (sends.at(i).atMs - sends.at(j).atMs >= 1000)
            ++j;
        r.maxPerSecond = std::max(r.maxPerSecond, i - j + 1);
    }
    // Let the last outcomes be recorded before the dispatcher goes.
    (void)QTest::qWaitFor([&] { return dispatcher.inFlight(QStringLiteral("telegram")) == 0; }, 10000);
    return r;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const int outgoing = argc > 1 ? atoi(argv[1]) : 600;
    const int paced = argc > 2 ? atoi(argv[2]) : 150;
    const int incoming = argc > 3 ? atoi(argv[3]) : 2000;
    TempDatabase db;
    EventBus bus;
    FakeTelegram fake;

    const Run fast = send(fake, bus, 0, outgoing, 1000000);
    printf("outgoing, no limit:        %d messages in %.2f s = %.0f messages/s (max %d in one second)\n", fast.sent,
           fast.seconds, fast.sent / fast.seconds, fast.maxPerSecond);
    const Run slow = send(fake, bus, 30, paced, 2000000);
    printf("outgoing, sendPerSecond=30: %d messages in %.2f s = %.1f messages/s (max %d in one second; limit 30)\n",
           slow.sent, slow.seconds, slow.sent / slow.seconds, slow.maxPerSecond);

    for (int i = 0; i < incoming; ++i)
        fake.queueText(3000000 + i % 500, QStringLiteral("incoming %1").arg(i));
    QElapsedTimer timer;
    timer.start();
    TelegramPoller poller(config(fake, 30), 10, Store(bus));
    int handled = 0;
    QObject::connect(&poller, &TelegramPoller::updateHandled, [&handled](qint64, bool) { ++handled; });
    (void)QTest::qWaitFor([&] { return handled >= incoming; }, 300000);
    const double seconds = timer.elapsed() / 1000.0;
    printf("incoming, getUpdates:      %d updates in %.2f s = %.0f updates/s recorded (500 chats)\n", handled, seconds,
           handled / seconds);
    fflush(stdout);
    // The dispatcher paces by the start of each send; the fake's one-second windows count arrivals,
    // which HTTP latency jitter can bunch a little above the limit.
    return fast.sent == outgoing && slow.sent == paced && handled == incoming ? 0 : 1;
}
