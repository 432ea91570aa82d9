// Bulk sending to a segment: N contacts (default 10,000) with phones in a segment, one bulk send
// of an approved template through POST /api/v1/messages/bulk semantics (BulkSendRepository), the
// delivery-thread services (BulkExpander, ChannelDispatcher) in this thread, and a connector that
// answers at once. Prints the time to queue, to expand, to send, the messages/s achieved and the
// most sends seen in any one-second window (held to the channel limit).
// Usage: bench_bulk [contacts] [sendPerSecond] (default 10000 80; 0 for unlimited).
#include "messaging/channels/bulkexpander.h"
#include "messaging/channels/channeldispatcher.h"
#include "messaging/channels/channelregistry.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/inbox/bulksend.h"
#include "model/inbox/messagetemplate.h"
#include "model/inbox/templaterepository.h"
#include "tests/support/scriptedconnector.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QSqlQuery>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int contacts = argc > 1 ? qMax(10, atoi(argv[1])) : 10000;
    const int perSecond = argc > 2 ? qMax(0, atoi(argv[2])) : 80;
    TempDatabase db;
    EventBus bus;

    QElapsedTimer t;
    t.start();
    {
        Transaction tx;
        ContactRepository repo(testStore());
        for (int i = 0; i < contacts; ++i)
            repo.create(ContactRules::parse(
                {{QStringLiteral("firstName"), QStringLiteral("Bulk %1").arg(i)},
                 {QStringLiteral("phone"), QStringLiteral("+90532%1").arg(i, 7, 10, QLatin1Char('0'))},
                 {QStringLiteral("tags"), QJsonArray{QStringLiteral("campaign")}}}));
        tx.commit();
    }
    std::printf("seeded %d contacts in %.1f s\n", contacts, t.elapsed() / 1000.0);

    const Segment segment =
        SegmentRepository(testStore())
            .create(SegmentRules::parse(
                {{QStringLiteral("name"), QStringLiteral("Campaign")},
                 {QStringLiteral("filters"),
                  QJsonObject{{QStringLiteral("logic"), QStringLiteral("AND")},
                              {QStringLiteral("rules"),
                               QJsonArray{QJsonObject{{QStringLiteral("field"), QStringLiteral("tags")},
                                                      {QStringLiteral("operator"), QStringLiteral("contains")},
                                                      {QStringLiteral("value"), QStringLiteral("campaign")}}}}}}}));
    const MessageTemplate tpl =
        TemplateRepository(testStore())
            .create(TemplateRules::parse({{QStringLiteral("name"), QStringLiteral("promo")},
                                          {QStringLiteral("language"), QStringLiteral("tr")},
                                          {QStringLiteral("body"), QStringLiteral("Merhaba {{1}}!")}},
                                         true));
    const QJsonArray components{QJsonObject{
        {QStringLiteral("type"), QStringLiteral("body")},
        {QStringLiteral("parameters"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                              {QStringLiteral("text"), QStringLiteral("dostum")}}}}}};

    ChannelsConfig config;
    config.whatsapp.phoneNumberId = QStringLiteral("1065");
    config.whatsapp.accessToken = QStringLiteral("token");
    config.whatsapp.sendPerSecond = perSecond;
    auto registry = std::make_shared<ChannelRegistry>(config);

    BulkRequest request;
    request.channel = QStringLiteral("whatsapp");
    request.segmentId = segment.id;
    request.tpl = tpl;
    request.components = components;
    request.renderedText = TemplateRules::render(tpl, components);
    t.restart();
    const BulkSend bulk = BulkSendRepository(Store(bus)).create(request);
    std::printf("bulk queued (answer of POST /messages/bulk): %lld recipients in %.1f ms\n", bulk.total,
                t.nsecsElapsed() / 1e6);

    BulkExpander expander{Store(bus)};
    ChannelDispatcher dispatcher(registry, Store(bus));
    auto *connector = new ScriptedConnector;
    dispatcher.setConnector(connector);
    QElapsedTimer expandTimer;
    expandTimer.start();
    double expandedMs = -1;
    int sentCount = 0;
    QObject::connect(&dispatcher, &ChannelDispatcher::sendFinished, [&](const QString &, int) { ++sentCount; });
    QElapsedTimer sendTimer;
    sendTimer.start();
    const qint64 deadlineMs = qint64(contacts) * 1000 / qMax(1, perSecond) * 2 + 60000;
    while (sentCount < bulk.total && sendTimer.elapsed() < deadlineMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        if (expandedMs < 0) {
            QSqlQuery q = Database::exec(
                QStringLiteral("SELECT count(*) FROM bulk_recipients WHERE message_id IS NULL AND error IS NULL"));
            q.next();
            if (q.value(0).toInt() == 0)
                expandedMs = expandTimer.nsecsElapsed() / 1e6;
        }
    }
    const double sendS = sendTimer.nsecsElapsed() / 1e9;
    int maxWindow = 0;
    const auto &sends = connector->sends;
    for (int i = 0, j = 0; i < sends.size(); ++i) {
        while (sends.at(j).atMs <= sends.at(i).atMs - 1000)
            ++j;
        maxWindow = qMax(maxWindow, i - j + 1);
    }
    std::printf("expanded into pending messages in %.0f ms (%.0f recipients/s)\n", expandedMs,
                expandedMs > 0 ? bulk.total / (expandedMs / 1000.0) : 0.0);
    std::printf("sent %d of %lld in %.1f s = %.1f messages/s (limit %s); most sends in any one-second window: %d\n",
                sentCount, bulk.total, sendS, sentCount / sendS,
                perSecond > 0 ? qPrintable(QString::number(perSecond) + QStringLiteral("/s")) : "none", maxWindow);
    return sentCount == bulk.total ? 0 : 1;
}
