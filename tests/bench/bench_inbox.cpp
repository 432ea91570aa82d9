// Inbox figures on a temporary database: recording incoming messages (with their events, the
// conversation and contact counters and sentiment, each in its own transaction), sending widget
// replies through ChannelSender (Store(*(stored sent)), one transaction), status reports, the conversation list with
// filters and a thread page over C conversations and M messages, and sends over real HTTPS.
// Usage: bench_inbox [conversations] [messagesPerConversation] (default 2000 x 10). Prints its figures.
#include "messaging/channels/channelsender.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/inbox/conversationrepository.h"
#include "tests/bench/benchtiming.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>

namespace {
MessageContent text(const QString &t)
{
    MessageContent c;
    c.text = t;
    return c;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int conversations = argc > 1 ? qMax(10, atoi(argv[1])) : 2000;
    const int perConversation = argc > 2 ? qMax(1, atoi(argv[2])) : 10;
    TempDatabase db;
    EventBus bus;
    ConversationRepository repo{Store(bus)};

    QVector<QJsonObject> bodies;
    for (int i = 0; i < conversations; ++i)
        bodies << QJsonObject{{"firstName", QStringLiteral("Visitor %1").arg(i)},
                              {"email", QStringLiteral("v%1@example.com").arg(i)}};
    ContactRepository(testStore()).insertBulk(bodies);
    QStringList convIds;
    QElapsedTimer t;
    t.start();
    for (int page = 1; convIds.size() < conversations; ++page) {
        ContactQuery q;
        q.page = page;
        q.limit = 1000;
        const ContactPage contacts = ContactRepository(testStore()).list(q);
        if (contacts.items.isEmpty())
            break;
        for (const Contact &c : contacts.items)
            convIds << repo.findOrCreate(c.id, "widget", c.id).id;
    }
    std::printf("conversations created (conversation.created each): %d in %.0f ms = %.0f/s\n", conversations, ms(t),
                conversations / (ms(t) / 1000));

    const int incoming = conversations * perConversation;
    t.restart();
    for (int round = 0; round < perConversation; ++round) {
        for (const QString &id : std::as_const(convIds))
            repo.receive(id, text(QStringLiteral("Thanks, great price? round %1").arg(round)));
    }
    std::printf("incoming messages recorded (one transaction each, message.received, counters, sentiment): %d in "
                "%.0f ms = %.0f msg/s\n",
                incoming, ms(t), incoming / (ms(t) / 1000));

    ChannelSender sender{Store(bus)};
    const int sends = qMin(conversations, 2000);
    QStringList sent;
    t.restart();
    for (int i = 0; i < sends; ++i)
        sent << sender.send(convIds.at(i), text("Hello from the agent"), {"agent", {}, "Bench"}).id;
    std::printf(
        "widget replies through ChannelSender (Store(*(stored sent)), one transaction): %d in %.0f ms = %.0f msg/s\n",
        sends, ms(t), sends / (ms(t) / 1000));

    t.restart();
    for (const QString &id : std::as_const(sent))
        repo.updateStatus(id, "read");
    std::printf("status reports sent -> read (fills delivered, 2 events): %lld in %.0f ms = %.0f/s\n",
                qint64(sent.size()), ms(t), sent.size() / (ms(t) / 1000));
    t.restart();
    for (const QString &id : std::as_const(sent))
        repo.updateStatus(id, "delivered");
    std::printf("late status reports (no change, no event): %lld in %.0f ms = %.0f/s\n", qint64(sent.size()), ms(t),
                sent.size() / (ms(t) / 1000));

    // The window's navigation counts the unread conversations at every list reload (a message in,
    // one read): half of them read here, so that the count has both kinds to tell apart.
    for (int i = 0; i < convIds.size(); i += 2)
        repo.markRead(convIds.at(i));
    std::printf("unread conversations count (the Inbox badge and navigation; %lld of %d): %.3f ms\n",
                repo.unreadConversations(), conversations, averageMs(200, [&] { repo.unreadConversations(); }));
    ConversationQuery all;
    std::printf("conversation list page 1 (20 of %d, most recent first): %.2f ms\n", conversations,
                averageMs(50, [&] { repo.list(all); }));
    ConversationQuery open;
    open.status = "open";
    open.channel = "widget";
    open.page = 10;
    std::printf("conversation list status=open&channel=widget page 10: %.2f ms\n",
                averageMs(50, [&] { repo.list(open); }));
    MessageFilter filter;
    filter.direction = "incoming";
    std::printf("GET /messages direction=incoming page 1 over %d messages: %.2f ms\n", incoming + sends,
                averageMs(50, [&] { repo.listMessages(filter); }));
    std::printf("thread: latest 50 messages of one conversation: %.3f ms\n",
                averageMs(200, [&] { repo.latestMessages(convIds.first(), 50); }));

    TestServer server(db.dir());
    ApiClient client(server.baseUrl(), server.certificate());
    client.setToken(server.createApiKey());
    const int requests = 300;
    t.restart();
    int ok = 0;
    for (int i = 0; i < requests; ++i) {
        const HttpResult r = client.post("/api/v1/conversations/" + convIds.at(i % convIds.size()) + "/messages",
                                         {{"type", "text"}, {"text", "Over HTTPS"}});
        ok += r.status == 201 ? 1 : 0;
    }
    std::printf("POST /api/v1/conversations/:id/messages over HTTPS (sequential, one client): %d/%d in %.0f ms = "
                "%.0f req/s\n",
                ok, requests, ms(t), requests / (ms(t) / 1000));
    return 0;
}
