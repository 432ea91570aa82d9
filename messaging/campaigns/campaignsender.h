#pragma once

#include "messaging/campaigns/campaignmail.h"
#include "messaging/campaigns/campaignsconfig.h"
#include "model/campaigns/campaignrepository.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <deque>
#include <functional>
#include <memory>

class QThread;
class CampaignMailWorker;
class SmsClient;

// The campaigns' sender (e-mail and SMS), a delivery-thread service (docs/architecture.md, "Campaigns").
// Each round it starts the SCHEDULED campaigns whose time came, claims due recipients of the SENDING
// e-mail campaigns (CampaignRepository::claim: a lease, so that copies sharing one PostgreSQL
// database never send one recipient at once) as far as the pace allows, and hands each to one of
// `concurrency` worker threads, each holding one SMTP connection (SmtpSession) that it reuses. The
// outcomes come back here and are recorded in small batches (CampaignRepository::record): a
// recipient is claimed before its send and marked after it. What a stopped process had claimed and
// not recorded (at most kQueuePerWorker × concurrency + kRecordBatch messages: the duplicate window)
// is claimed again when its lease ends. Pace: a send counts against messagesPerSecond from its
// start until a second after its outcome (so no second holds more messages received either), at most maxPerHour in any
// hour (every copy's sends counted). A campaign whose sends fail maxSendErrors times in a row pauses itself and says
// why. SMS campaigns go the same way through SmsClient (asynchronous requests in this thread, at most
// campaigns/sms/concurrency at once) with their own pace (campaigns/sms/*); their delivery comes
// later through the status callback. A campaign on a channel that is not set up (e-mail, SMS) is
// paused with the reason. WhatsApp campaigns are handed to the inbox's WhatsApp channel
// (CampaignRepository::handToWhatsApp: a template message per recipient, queued behind agent sends),
// whose dispatcher sends them at the channel's pace; paused with the reason when WhatsApp is not set up.
// Drip and triggered campaigns: each round also lets contacts in (new segment members every
// campaigns/audienceCheckSeconds, the outbox's events that match a trigger) and releases their due
// steps as recipients (CampaignRepository::advanceDrips), which are then sent as above.
class CampaignSender : public QObject
{
    Q_OBJECT
public:
    static constexpr int kQueuePerWorker = 2;
    static constexpr int kRecordBatch = 20;
    static constexpr int kRecordDelayMs = 20;
    static constexpr int kDripBatch = 500;     // steps released in one round at most
    static constexpr int kWhatsAppBatch = 200; // WhatsApp recipients queued in one transaction

    CampaignSender(const CampaignsConfig &config, const Store &store, QObject *parent = nullptr);
    ~CampaignSender() override;
    // A factory for DeliveryThread::addService.
    static std::function<QObject *(QObject *)> factory(const CampaignsConfig &config, const Store &store);

    int inFlight() const { return m_inFlight + m_smsInFlight; }

public Q_SLOTS:
    void wake();

Q_SIGNALS:
    // After a batch of outcomes was recorded.
    void recorded(int count);

private:
    struct Worker
    {
        QThread *thread = nullptr;
        CampaignMailWorker *mailer = nullptr;
        int queued = 0;
    };
    // Starts the scheduled campaigns whose time came and pauses those no sender here can send; then a
    // round. On the poll timer and when a campaign changes.
    void housekeeping();
    // Claims and hands out as many as the pace and the workers allow.
    void tick();
    void tickMail();
    void tickSms();
    void tickWhatsApp();
    void pauseUnsendable();
    void finished(int worker, const CampaignSendResult &result);
    void smsFinished(const CampaignSendResult &result);
    void outcome(const CampaignSendResult &result);
    void flush();
    int budget();
    int smsBudget();
    // room limited by the channel's pace: messagesPerSecond (a send counting from its start until a
    // second after its outcome) and maxPerHour.
    int paced(const QString &channel, const CampaignPace &pace, int room, int inFlight, std::deque<qint64> &ended);
    void tickAt(qint64 ms);

    CampaignsConfig m_config;
    Store m_store;
    CampaignRepository m_campaigns;
    CampaignMail::Links m_links;
    QList<Worker> m_workers;
    int m_inFlight = 0;
    std::deque<qint64> m_ended; // ms at which the outcomes of the last second came back
    SmsClient *m_sms = nullptr; // null: SMS is not set up
    int m_smsInFlight = 0;
    std::deque<qint64> m_smsEnded;
    QVector<CampaignSendResult> m_results;
    QHash<QString, QString> m_campaignOf; // recipient id -> campaign id, while in flight
    QHash<QString, int> m_errorsInRow;    // per campaign
    QTimer m_soon;
    QTimer m_poll;
    QTimer m_next;
    QTimer m_flush;
    qint64 m_audienceCheckedAt = 0; // ms since the epoch: when the drip segments were last read
};

// One worker thread's side: composes (MIME, DKIM) and sends over its own SMTP connection.
class CampaignMailWorker : public QObject
{
    Q_OBJECT
public:
    explicit CampaignMailWorker(const MailConfig &config);
    ~CampaignMailWorker() override;
    // In the worker's thread; done is called there with the outcome.
    void send(const CampaignSend &send, const MailMessage &message,
              const std::function<void(const CampaignSendResult &)> &done);

private:
    MailConfig m_config;
    std::unique_ptr<class MailComposer> m_composer;
    std::unique_ptr<class SmtpSession> m_session;
};
