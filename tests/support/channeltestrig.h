#pragma once

#include "messaging/channels/channelconnector.h"
#include "messaging/channels/channeldispatcher.h"
#include "messaging/channels/channelregistry.h"
#include "tests/support/testsupport.h"

#include <QTest>

#include <memory>
#include <optional>

// The set-up the channel API tests share: a migrated TempDatabase, a TestServer whose
// ChannelRegistry holds the given channels, an ApiClient with a full-scope API key and, when asked
// for, a ChannelDispatcher on the server's bus. Torn down dispatcher first, database last.
class ChannelTestRig
{
public:
    ChannelTestRig();
    ~ChannelTestRig();

    // (Re)starts the server with these channels (a new registry and API key); the database stays.
    void start(const ChannelsConfig &channels, bool withDispatcher = true);
    // Stops the dispatcher, the client and the server; the database and the registry stay.
    void stop();

    TempDatabase &db() { return m_db; }
    TestServer &server() { return *m_server; }
    ApiClient &client() { return *m_client; }
    const std::shared_ptr<ChannelRegistry> &registry() const { return m_registry; }
    ChannelDispatcher &dispatcher() { return *m_dispatcher; }

private:
    TempDatabase m_db;
    std::shared_ptr<ChannelRegistry> m_registry;
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<ApiClient> m_client;
    std::unique_ptr<ChannelDispatcher> m_dispatcher;
};

// Helpers of the channel tests.
namespace ChannelTest {
// The first column of the first row of sql (a count).
int count(const QString &sql, const QVariantList &values = {});
// The stored message (throws NotFound).
Message message(const QString &id);

// Runs the event loop until pred holds, at most ms.
template<typename Pred>
bool waitUntil(Pred pred, int ms = 10000)
{
    return QTest::qWaitFor(pred, ms);
}

// Sends through the connector and waits (at most 10 s) for its answer; none: nullopt.
std::optional<SendOutcome> sendWith(ChannelConnector &connector, const Message &m, const QString &to);
} // namespace ChannelTest
