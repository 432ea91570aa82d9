#pragma once

#include "messaging/channels/channelconfig.h"
#include "model/inbox/inboundrecorder.h"

#include <QObject>
#include <QTimer>

#include <functional>

class ProviderClient;
struct ProviderReply;

// The receiving side of the Telegram channel, a delivery-thread service.
// Mode "polling" (default): long-polls getUpdates (offset = last recorded update_id + 1, timeout =
// pollTimeoutSeconds, allowed_updates message + callback_query) and records each update through
// InboundRecorder; an update is confirmed (offset moved past it) only once recorded, and a
// re-delivered one is recorded once (providerId "<chat_id>:<message_id>"). Errors back off 1 s,
// 2 s, 4 s… up to kMaxBackoffSeconds (a 429 waits its retry_after); a 409 (a webhook is set) is
// logged once. The offset lives in memory: after a restart Telegram re-delivers what was not
// confirmed (at most 24 h) and the dedupe keeps it once.
// Mode "webhook": with channels/telegram/webhookUrl set, calls setWebhook(url, secret_token) once at
// start; without it, does nothing (updates arrive at POST /webhooks/telegram).
// Destroying the poller aborts the request in flight.
class TelegramPoller : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxBackoffSeconds = 60;
    // A copy that does not poll (another holds the lock) asks again this often.
    static constexpr int kStandbySeconds = 30;

    TelegramPoller(const TelegramConfig &config, int timeoutSeconds, const Store &store, QObject *parent = nullptr);
    ~TelegramPoller() override;

    // A factory for DeliveryThread::addService.
    static std::function<QObject *(QObject *)> factory(const TelegramConfig &config, int timeoutSeconds,
                                                       const Store &store);

    // The next offset asked for (last recorded update_id + 1; 0 before the first update).
    qint64 offset() const { return m_offset; }
    int pollCount() const { return m_polls; }
    // Backoff of the next retry in milliseconds (tests shorten it); the doubling still applies.
    void setBackoffUnitMs(int ms) { m_backoffUnitMs = ms; }

Q_SIGNALS:
    // After each update handled (recorded or ignored); created: a new message was recorded.
    void updateHandled(qint64 updateId, bool created);
    // After each getUpdates answer or failure (status 0: not reached).
    void polled(int status);
    // Webhook mode: setWebhook answered.
    void webhookSet(bool ok, const QString &detail);

private:
    void poll();
    void handle(const ProviderReply &reply);
    void retryLater(int seconds);
    void setWebhook();

    TelegramConfig m_config;
    InboundRecorder m_recorder;
    ProviderClient *m_client;
    QString m_botId;
    QTimer m_timer;
    qint64 m_offset = 0;
    int m_failures = 0;
    int m_polls = 0;
    bool m_standby = false; // another copy polls
    int m_backoffUnitMs = 1000;
    bool m_conflictLogged = false;
};
