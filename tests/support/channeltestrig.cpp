#include "tests/support/channeltestrig.h"

#include "messaging/channels/channelregistry.h"
#include "model/core/database.h"
#include "model/inbox/conversationrepository.h"

#include <QSqlQuery>

ChannelTestRig::ChannelTestRig() = default;

ChannelTestRig::~ChannelTestRig()
{
    stop();
    m_registry.reset();
}

void ChannelTestRig::start(const ChannelsConfig &channels, bool withDispatcher)
{
    stop();
    m_registry = std::make_shared<ChannelRegistry>(channels);
    m_server = std::make_unique<TestServer>(m_db.dir(), [&](ServerConfig &c) {
        c.channels = channels;
        c.channelRegistry = m_registry;
    });
    if (withDispatcher)
        m_dispatcher = std::make_unique<ChannelDispatcher>(m_registry, m_server->store());
    m_client = std::make_unique<ApiClient>(m_server->baseUrl(), m_server->certificate());
    m_client->setToken(m_server->createApiKey());
}

void ChannelTestRig::stop()
{
    m_dispatcher.reset();
    m_client.reset();
    m_server.reset();
}

int ChannelTest::count(const QString &sql, const QVariantList &values)
{
    QSqlQuery q = Database::exec(sql, values);
    q.next();
    return q.value(0).toInt();
}

Message ChannelTest::message(const QString &id)
{
    return ConversationRepository(testStore()).getMessage(id);
}

std::optional<SendOutcome> ChannelTest::sendWith(ChannelConnector &connector, const Message &m, const QString &to)
{
    std::optional<SendOutcome> out;
    connector.send(m, to, [&out](const SendOutcome &o) { out = o; });
    waitUntil([&] { return out.has_value(); });
    return out;
}
