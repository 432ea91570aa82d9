#pragma once

#include "messaging/channels/channelconnector.h"
#include "messaging/channels/channelregistry.h"
#include "model/inbox/conversationrepository.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>
#include <memory>

// The send queue of the provider channels, in the delivery thread. Pending outgoing messages
// (stored by ChannelSender) are handed to their channel's connector, agent and API sends before
// bulk ones, at most sendPerSecond per channel in any one-second window and kMaxInFlight at once.
// Outcomes: sent (provider id recorded), failed (reason recorded), or retried after the provider's
// own wait or channels/retryDelays (failed once those are used up). A provider that cannot be
// reached is marked down in the ChannelRegistry (new sends answer 503) and probed every
// probeIntervalSeconds until it answers. Wakes on EventBus message changes and polls every
// pollIntervalMs. Each send is claimed in the database (ConversationRepository::claimSend) and the
// per-second rate counts every copy's claims, so copies sharing one PostgreSQL database send each
// message once and hold the rate together. A message in flight when the process stops is sent again
// at the next start (SQLite) or by another copy when its lease ends (PostgreSQL). An outcome that
// cannot be recorded because the database is away (a restart, a full disk) is kept, the message
// still in flight here, and recorded when the database answers, before this copy claims anything
// more: the provider's answer is never forgotten and the message never sent twice by this copy.
class ChannelDispatcher : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxInFlight = 16;
    // How much longer than a second a send counts against the channel's per-second rate.
    static constexpr int kRateMarginMs = 50;

    // Creates the connectors of the configured channels (ChannelConnectors::create).
    ChannelDispatcher(std::shared_ptr<ChannelRegistry> registry, const Store &store, QObject *parent = nullptr);
    ~ChannelDispatcher() override;

    // A factory for DeliveryThread::addService.
    static std::function<QObject *(QObject *)> factory(std::shared_ptr<ChannelRegistry> registry, const Store &store);

    // Replaces the connector of its channel (tests); takes ownership.
    void setConnector(ChannelConnector *connector);
    ChannelConnector *connector(const QString &channel) const { return m_connectors.value(channel); }
    int inFlight(const QString &channel) const;

public Q_SLOTS:
    // Runs a send round soon (coalesced).
    void wake();
    // Asks the channel's provider whether it answers (Settings "Test connection"): probed() follows.
    void probe(const QString &channel);

Q_SIGNALS:
    // After each outcome has been recorded; kind: SendOutcome::Kind.
    void sendFinished(const QString &messageId, int kind);
    void probed(const QString &channel, bool ok, const QString &detail);

private:
    // How long a claimed send stays this copy's: the provider's timeout and a margin. A copy that
    // stops with sends in flight leaves them to another copy after it (at least once).
    int m_leaseSeconds = 90;
    struct ChannelState
    {
        QSet<QString> inFlight;
        qint64 throttledUntil = 0; // ms: the whole channel waits (Telegram 429)
    };
    void tick();
    void start(ChannelConnector *connector, const OutgoingSend &send);
    void record(const OutgoingSend &send, const SendOutcome &outcome);
    // Records the kept outcomes in order; false while the database cannot take them.
    bool recordKept();
    // Stores one outcome; false when it must wait for the database.
    bool store(const OutgoingSend &send, const SendOutcome &outcome);
    void probeDown();
    qint64 nowMs() const;

    std::shared_ptr<ChannelRegistry> m_registry;
    Store m_store;
    ConversationRepository m_conversations;
    QHash<QString, ChannelConnector *> m_connectors;
    QHash<QString, ChannelState> m_state;
    QTimer m_soon;
    QTimer m_poll;
    QTimer m_next;
    QTimer m_probe;
    static constexpr int kRecordRetryMs = 1000;
    QList<std::pair<OutgoingSend, SendOutcome>> m_kept; // outcomes waiting for the database
    QTimer m_recordRetry;
};

namespace ChannelConnectors {
// The connectors of the channels configured in `config`, children of parent (delivery thread);
// the store reaches the media files WhatsApp uploads. A new channel adds its line here.
QList<ChannelConnector *> create(const ChannelsConfig &config, const Store &store, QObject *parent);
} // namespace ChannelConnectors
