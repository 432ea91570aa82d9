#include "messaging/channels/channeldispatcher.h"

#include "messaging/channels/channelregistry.h"
#include "messaging/channels/instagramconnector.h"
#include "messaging/channels/telegramconnector.h"
#include "messaging/channels/whatsappconnector.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"

#include <QLoggingCategory>
#include <QPointer>

#include <limits>

Q_LOGGING_CATEGORY(lcChannels, "liaison.channels")

QList<ChannelConnector *> ChannelConnectors::create(const ChannelsConfig &config, const Store &store, QObject *parent)
{
    QList<ChannelConnector *> connectors;
    if (config.whatsapp.configured()) {
        std::optional<MediaRepository> media;
        if (!config.mediaDir.isEmpty())
            media.emplace(store, config.mediaDir);
        connectors << new WhatsAppConnector(config.whatsapp, config.timeoutSeconds, parent, std::move(media));
    }
    if (config.instagram.configured())
        connectors << new InstagramConnector(config.instagram, config.timeoutSeconds, parent);
    if (config.telegram.configured())
        connectors << new TelegramConnector(config.telegram, config.timeoutSeconds, parent);
    return connectors;
}

ChannelDispatcher::ChannelDispatcher(std::shared_ptr<ChannelRegistry> registry, const Store &store, QObject *parent)
    : QObject(parent)
    , m_registry(registry ? std::move(registry) : ChannelRegistry::defaults())
    , m_store(store)
    , m_conversations(store)
{
    for (ChannelConnector *c : ChannelConnectors::create(m_registry->config(), m_store, this))
        setConnector(c);
    m_leaseSeconds = qMax(1, m_registry->config().timeoutSeconds) + qMax(1, m_registry->config().leaseMarginSeconds);
    if (Database::dialect() == Database::Dialect::SQLite) {
        try {
            if (const int n = m_conversations.releaseSendClaims())
                qCInfo(lcChannels) << n << "messages were being sent when the process stopped: sending again";
        } catch (const std::exception &e) {
            qCWarning(lcChannels) << "cannot release the claims of the last run:" << e.what();
        }
    }
    m_soon.setSingleShot(true);
    m_soon.setInterval(0);
    connect(&m_soon, &QTimer::timeout, this, &ChannelDispatcher::tick);
    m_next.setSingleShot(true);
    connect(&m_next, &QTimer::timeout, this, &ChannelDispatcher::tick);
    m_poll.setInterval(qMax(50, m_registry->config().pollIntervalMs));
    connect(&m_poll, &QTimer::timeout, this, &ChannelDispatcher::tick);
    m_poll.start();
    m_recordRetry.setSingleShot(true);
    connect(&m_recordRetry, &QTimer::timeout, this, [this] {
        if (recordKept())
            wake();
    });
    m_probe.setInterval(qMax(1, m_registry->config().probeIntervalSeconds) * 1000);
    connect(&m_probe, &QTimer::timeout, this, &ChannelDispatcher::probeDown);
    m_probe.start();
    connect(&m_store.bus(), &EventBus::changed, this,
            [this](EventBus::Entity entity, const QString &, EventBus::Change change) {
                if (entity == EventBus::Entity::Message && change == EventBus::Change::Created)
                    wake();
            });
    wake();
}

ChannelDispatcher::~ChannelDispatcher() = default;

std::function<QObject *(QObject *)> ChannelDispatcher::factory(std::shared_ptr<ChannelRegistry> registry,
                                                               const Store &store)
{
    return [registry, store](QObject *parent) -> QObject * { return new ChannelDispatcher(registry, store, parent); };
}

void ChannelDispatcher::setConnector(ChannelConnector *connector)
{
    const QString channel = connector->channel();
    delete m_connectors.value(channel);
    connector->setParent(this);
    m_connectors.insert(channel, connector);
    wake();
}

int ChannelDispatcher::inFlight(const QString &channel) const
{
    return int(m_state.value(channel).inFlight.size());
}

qint64 ChannelDispatcher::nowMs() const
{
    return m_store.now().toMSecsSinceEpoch();
}

void ChannelDispatcher::wake()
{
    if (!m_soon.isActive())
        m_soon.start();
}

void ChannelDispatcher::tick()
{
    // Outcomes the database could not take yet go first: until they are stored nothing new is
    // claimed (the database is away anyway).
    if (!recordKept())
        return;
    const qint64 now = nowMs();
    const QDateTime nowTime = QDateTime::fromMSecsSinceEpoch(now, Qt::UTC);
    qint64 earliest = std::numeric_limits<qint64>::max();
    for (auto it = m_connectors.cbegin(); it != m_connectors.cend(); ++it) {
        const QString &channel = it.key();
        ChannelState &state = m_state[channel];
        if (state.throttledUntil > now) {
            earliest = qMin(earliest, state.throttledUntil);
            continue;
        }
        const int limit = m_registry->config().sendPerSecond(channel);
        int budget = kMaxInFlight - int(state.inFlight.size());
        bool full = false; // the channel's rate is used up for this second
        QVector<OutgoingSend> started;
        try {
            // Anything to claim? A read first: a round runs after every new message and each poll,
            // and an empty write transaction would still take SQLite's write lock from the API.
            bool anyDue = false;
            if (budget > 0) {
                for (const OutgoingSend &send :
                     m_conversations.dueSends(channel, nowTime, int(state.inFlight.size()) + 1))
                    anyDue = anyDue || !state.inFlight.contains(send.message.id);
            }
            // One copy at a time claims the channel's sends: the count of the last second (every
            // copy's claims, in the database) and the claims after it agree, so the provider's rate
            // holds however many copies send.
            std::optional<Transaction> tx;
            if (anyDue) {
                tx.emplace();
                Database::lockUntilCommit(Database::Lock::ChannelSends, channel);
            }
            ConversationRepository::SendWindow window;
            if (limit > 0) {
                // A claim counts for a second and kRateMarginMs: the request leaves a few ms after
                // its claim is stamped (the commit, the start), and no second of requests may hold more.
                window = m_conversations.sendsStartedSince(
                    channel, QDateTime::fromMSecsSinceEpoch(now - 1000 - kRateMarginMs, Qt::UTC));
                budget = qMin(budget, limit - window.count);
            }
            if (anyDue && budget > 0) {
                const QVector<OutgoingSend> due =
                    m_conversations.dueSends(channel, nowTime, budget + int(state.inFlight.size()));
                for (const OutgoingSend &send : due) {
                    if (budget <= 0)
                        break;
                    if (state.inFlight.contains(send.message.id))
                        continue;
                    // Stamped when it is claimed (not at the round's start): the round may take a while.
                    const QDateTime at = m_store.now();
                    if (!m_conversations.claimSend(send.message.id, at, m_leaseSeconds))
                        continue;
                    if (!window.first)
                        window.first = at;
                    ++window.count;
                    --budget;
                    started.append(send);
                }
            }
            if (tx)
                tx->commit();
            if (limit > 0 && window.count >= limit && window.first) {
                full = true;
                earliest = qMin(earliest, window.first->toMSecsSinceEpoch() + 1001 + kRateMarginMs);
            }
        } catch (const std::exception &e) {
            qCWarning(lcChannels) << "claiming the sends of" << channel << "failed:" << e.what();
            continue;
        }
        for (const OutgoingSend &send : std::as_const(started)) {
            state.inFlight.insert(send.message.id);
            start(it.value(), send);
        }
        if (!full && budget > 0) {
            // Nothing more due now: the next deferred retry, if any.
            try {
                if (const std::optional<QDateTime> at = m_conversations.nextSendAt(channel)) {
                    const qint64 atMs = at->toMSecsSinceEpoch();
                    if (atMs > now)
                        earliest = qMin(earliest, atMs);
                }
            } catch (const std::exception &) {
            }
        }
    }
    if (earliest != std::numeric_limits<qint64>::max())
        m_next.start(int(qBound<qint64>(0, earliest - now, qint64(24) * 3600 * 1000)));
}

void ChannelDispatcher::start(ChannelConnector *connector, const OutgoingSend &send)
{
    QPointer<ChannelDispatcher> self(this);
    connector->send(send.message, send.to, [self, send](const SendOutcome &outcome) {
        if (self)
            self->record(send, outcome);
    });
}

void ChannelDispatcher::record(const OutgoingSend &send, const SendOutcome &outcome)
{
    m_kept.append({send, outcome});
    recordKept();
}

bool ChannelDispatcher::recordKept()
{
    while (!m_kept.isEmpty()) {
        const auto [send, outcome] = m_kept.constFirst();
        if (!store(send, outcome)) {
            if (!m_recordRetry.isActive())
                m_recordRetry.start(kRecordRetryMs);
            return false;
        }
        m_kept.removeFirst();
        m_state[send.message.channel].inFlight.remove(send.message.id);
        if (outcome.kind != SendOutcome::Sent)
            qCInfo(lcChannels).noquote() << send.message.channel << send.message.id
                                         << (outcome.kind == SendOutcome::Failed ? "failed:" : "retry:")
                                         << outcome.error;
        Q_EMIT sendFinished(send.message.id, int(outcome.kind));
        wake();
    }
    return true;
}

bool ChannelDispatcher::store(const OutgoingSend &send, const SendOutcome &outcome)
{
    const QString &channel = send.message.channel;
    ChannelState &state = m_state[channel];
    try {
        switch (outcome.kind) {
        case SendOutcome::Sent:
            m_registry->setUp(channel);
            m_conversations.updateStatus(send.message.id, QStringLiteral("sent"), {}, outcome.providerMessageId);
            break;
        case SendOutcome::Failed:
            m_conversations.updateStatus(send.message.id, QStringLiteral("failed"), outcome.error);
            break;
        case SendOutcome::Retry: {
            if (outcome.providerDown)
                m_registry->setDown(channel, outcome.error);
            if (outcome.channelThrottled && outcome.retryAfterSeconds > 0)
                state.throttledUntil = nowMs() + qint64(outcome.retryAfterSeconds) * 1000;
            const QList<int> &delays = m_registry->config().retryDelays;
            const int attempt = send.attempts + 1; // this attempt's number
            if (attempt > delays.size()) {
                m_conversations.updateStatus(
                    send.message.id, QStringLiteral("failed"),
                    QStringLiteral("gave up after %1 attempts: %2").arg(attempt).arg(outcome.error));
            } else {
                const int wait = outcome.retryAfterSeconds > 0 ? outcome.retryAfterSeconds : delays.at(attempt - 1);
                m_conversations.deferSend(send.message.id, m_store.now().addSecs(wait), outcome.error);
            }
            break;
        }
        }
    } catch (const DatabaseUnavailable &) {
        return false; // the model logs an unreachable database itself, once a minute
    } catch (const DomainError &e) {
        if (e.kind() == DomainError::StorageFull)
            return false;
        qCWarning(lcChannels) << "recording the send of" << send.message.id << "failed:" << e.what();
    } catch (const std::exception &e) {
        qCWarning(lcChannels) << "recording the send of" << send.message.id << "failed:" << e.what();
    }
    return true;
}

void ChannelDispatcher::probe(const QString &channel)
{
    ChannelConnector *connector = m_connectors.value(channel);
    if (!connector) {
        Q_EMIT probed(channel, false, QStringLiteral("not configured"));
        return;
    }
    QPointer<ChannelDispatcher> self(this);
    connector->probe([self, channel](bool ok, const QString &detail) {
        if (!self)
            return;
        if (ok) {
            self->m_registry->setUp(channel);
            self->wake();
        }
        Q_EMIT self->probed(channel, ok, detail);
    });
}

void ChannelDispatcher::probeDown()
{
    for (auto it = m_connectors.cbegin(); it != m_connectors.cend(); ++it) {
        if (m_registry->isConfigured(it.key()) && !m_registry->isAvailable(it.key()))
            probe(it.key());
    }
}
