#include "messaging/campaigns/campaignsender.h"

#include "messaging/campaigns/smsclient.h"
#include "model/contacts/contact.h"

#include "messaging/mail/mailmessage.h"
#include "messaging/mail/smtpsession.h"
#include "model/core/database.h"
#include "model/core/errors.h"

#include <QDateTime>
#include <QLoggingCategory>
#include <QThread>

Q_LOGGING_CATEGORY(lcCampaigns, "liaison.campaigns")

CampaignMailWorker::CampaignMailWorker(const MailConfig &config)
    : m_config(config)
{
}

CampaignMailWorker::~CampaignMailWorker() = default;

void CampaignMailWorker::send(const CampaignSend &send, const MailMessage &message,
                              const std::function<void(const CampaignSendResult &)> &done)
{
    if (!m_composer)
        m_composer = std::make_unique<MailComposer>(m_config);
    if (!m_session)
        m_session = std::make_unique<SmtpSession>(m_config);
    CampaignSendResult result;
    result.recipientId = send.recipientId;
    const QByteArray data = m_composer->compose(message, QDateTime::currentDateTimeUtc());
    const SmtpOutcome outcome = m_session->send(m_config.envelopeSender(send.recipientId), send.address, data);
    result.code = outcome.code;
    result.detail = outcome.detail;
    switch (outcome.kind) {
    case SmtpOutcome::Sent:
        result.kind = CampaignSendResult::Sent;
        result.providerId = QLatin1Char('<') + message.messageId + QLatin1Char('>');
        break;
    case SmtpOutcome::HardBounce:
        result.kind = CampaignSendResult::HardBounce;
        break;
    case SmtpOutcome::SoftFailure:
        result.kind = CampaignSendResult::SoftFailure;
        break;
    }
    done(result);
}

CampaignSender::CampaignSender(const CampaignsConfig &config, const Store &store, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_store(store)
    , m_campaigns(store)
{
    m_links.publicBaseUrl = config.publicBaseUrl;
    // SQLite: what this data directory's last process claimed and did not record is due at once
    // (PostgreSQL: another copy may be sending it; it is due when its lease ends).
    if (Database::dialect() == Database::Dialect::SQLite) {
        try {
            if (const int n = m_campaigns.releaseClaims())
                qCInfo(lcCampaigns) << n << "campaign messages left in flight by the last run are due again";
        } catch (const std::exception &e) {
            qCWarning(lcCampaigns) << "releasing campaign claims failed:" << e.what();
        }
    }
    m_links.tracking = config.tracking;
    const int workers = qBound(1, config.email.concurrency, 32);
    if (config.mail.usable()) {
        for (int i = 0; i < workers; ++i) {
            Worker w;
            w.thread = new QThread(this);
            w.thread->setObjectName(QStringLiteral("campaign-mail-%1").arg(i));
            w.mailer = new CampaignMailWorker(config.mail);
            w.mailer->moveToThread(w.thread);
            connect(w.thread, &QThread::finished, w.mailer, &QObject::deleteLater);
            w.thread->start();
            m_workers.append(w);
        }
    }
    if (config.smsApi.usable()) {
        auto *sms = new SmsClient(config.smsApi, SmsClient::statusCallbackUrl(config.publicBaseUrl), this);
        QString why;
        if (sms->isValid(&why))
            m_sms = sms;
        else {
            qCWarning(lcCampaigns) << "channels/sms/apiBaseUrl refused:" << why << "; SMS campaigns are not sent";
            delete sms;
        }
    }
    m_soon.setSingleShot(true);
    m_soon.setInterval(0);
    connect(&m_soon, &QTimer::timeout, this, &CampaignSender::tick);
    m_next.setSingleShot(true);
    connect(&m_next, &QTimer::timeout, this, &CampaignSender::tick);
    m_poll.setInterval(qMax(50, config.pollIntervalMs));
    connect(&m_poll, &QTimer::timeout, this, &CampaignSender::housekeeping);
    m_poll.start();
    m_flush.setSingleShot(true);
    m_flush.setInterval(kRecordDelayMs);
    connect(&m_flush, &QTimer::timeout, this, &CampaignSender::flush);
    // A campaign started, resumed or given test sends here (another copy's: the poll).
    connect(&store.bus(), &EventBus::changed, this,
            [this](EventBus::Entity entity, const QString &, EventBus::Change change) {
                if (entity == EventBus::Entity::Campaign)
                    housekeeping();
                else if (entity == EventBus::Entity::CampaignRecipient && change == EventBus::Change::Created)
                    wake();
            });
    housekeeping();
}

CampaignSender::~CampaignSender()
{
    // The workers finish the message they are sending; their outcomes arrive no more, so the rows
    // stay claimed and are sent again after their lease (the duplicate window).
    for (const Worker &w : std::as_const(m_workers)) {
        w.thread->requestInterruption();
        w.thread->quit();
    }
    for (const Worker &w : std::as_const(m_workers))
        w.thread->wait();
    try {
        flush();
    } catch (...) {
    }
}

std::function<QObject *(QObject *)> CampaignSender::factory(const CampaignsConfig &config, const Store &store)
{
    return [config, store](QObject *parent) -> QObject * { return new CampaignSender(config, store, parent); };
}

void CampaignSender::wake()
{
    if (!m_soon.isActive())
        m_soon.start();
}

int CampaignSender::budget()
{
    // Paced, a worker gets a message only when it is idle, so that a send starts when it is counted.
    const bool paced = m_config.email.perSecond > 0;
    const int depth = paced ? 1 : kQueuePerWorker;
    int room = 0;
    for (const Worker &w : std::as_const(m_workers))
        room += qMax(0, depth - w.queued);
    return this->paced(QStringLiteral("email"), m_config.email, room, m_inFlight, m_ended);
}

int CampaignSender::smsBudget()
{
    const int room = qBound(1, m_config.sms.concurrency, 256) - m_smsInFlight;
    return paced(QStringLiteral("sms"), m_config.sms, room, m_smsInFlight, m_smsEnded);
}

int CampaignSender::paced(const QString &channel, const CampaignPace &pace, int room, int inFlight,
                          std::deque<qint64> &ended)
{
    if (pace.perSecond > 0) {
        // A send counts against the second from its start until a second after its outcome came
        // back: then no second holds more than perSecond messages *received* either, whatever the
        // latency of each (a slow first message, its connection opening, cannot bunch with the next).
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        while (!ended.empty() && ended.front() <= now - 1000)
            ended.pop_front();
        room = qMin(room, pace.perSecond - inFlight - int(ended.size()));
        if (room <= 0 && !ended.empty())
            tickAt(qMax<qint64>(1, ended.front() + 1000 - now));
    }
    if (room > 0 && pace.maxPerHour > 0) {
        const qint64 sent = m_campaigns.sentSince(channel, m_store.now().addSecs(-3600));
        // In flight, and done but not yet recorded (either channel's: an overcount is safe), count too.
        room = qMin<qint64>(room, qMax<qint64>(0, pace.maxPerHour - sent - inFlight - m_results.size()));
    }
    return qMax(0, room);
}

void CampaignSender::tickAt(qint64 ms)
{
    // One timer for both channels: the earlier round wins (a round recomputes both).
    if (!m_next.isActive() || m_next.remainingTime() > ms)
        m_next.start(int(ms));
}

void CampaignSender::pauseUnsendable()
{
    // Campaigns that no sender here can send are paused with the reason, never left waiting.
    if (!m_config.whatsapp) {
        for (const QString &id : m_campaigns.sending(QStringLiteral("whatsapp")))
            m_campaigns.pause(
                id, {}, ModelText(QT_TRANSLATE_NOOP("ModelError", "WhatsApp is not set up (Settings, Channels)")));
    }
    if (!m_sms) {
        for (const QString &id : m_campaigns.sending(QStringLiteral("sms")))
            m_campaigns.pause(id, {},
                              ModelText(QT_TRANSLATE_NOOP("ModelError", "SMS sending is not set up (Settings, SMS)")));
    }
    if (m_workers.isEmpty()) {
        for (const QString &id : m_campaigns.sending(QStringLiteral("email")))
            m_campaigns.pause(
                id, {}, ModelText(QT_TRANSLATE_NOOP("ModelError", "E-mail sending is not set up (Settings, E-mail)")));
    }
}

void CampaignSender::housekeeping()
{
    try {
        m_campaigns.startDue();
        pauseUnsendable();
    } catch (const std::exception &e) {
        qCWarning(lcCampaigns) << "starting due campaigns failed:" << e.what();
    }
    try {
        const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
        if (nowMs - m_audienceCheckedAt >= m_config.audienceCheckMs) {
            m_audienceCheckedAt = nowMs;
            m_campaigns.enrolNewMembers();
        }
        m_campaigns.processTriggers();
        m_campaigns.advanceDrips(kDripBatch, m_config.timeZone);
    } catch (const std::exception &e) {
        qCWarning(lcCampaigns) << "drip and triggered campaigns' round failed:" << e.what();
    }
    wake();
}

void CampaignSender::tick()
{
    // Each channel's round on its own: one failing does not hold the other.
    for (void (CampaignSender::*round)() :
         {&CampaignSender::tickMail, &CampaignSender::tickSms, &CampaignSender::tickWhatsApp}) {
        try {
            (this->*round)();
        } catch (const DatabaseUnavailable &e) {
            qCWarning(lcCampaigns) << "campaign round: the database is away:" << e.what();
        } catch (const std::exception &e) {
            qCWarning(lcCampaigns) << "campaign round failed:" << e.what();
        }
    }
}

void CampaignSender::tickMail()
{
    if (m_workers.isEmpty())
        return;
    const int room = budget();
    if (room <= 0)
        return;
    const QVector<CampaignSend> claimed =
        m_campaigns.claim(QStringLiteral("email"), room, m_config.leaseSeconds, m_config.email.perSecond);
    if (!claimed.isEmpty() && m_links.key.isEmpty() && !m_links.publicBaseUrl.isEmpty())
        m_links.key = m_campaigns.linkKey();
    for (const CampaignSend &send : claimed) {
        // The least busy worker.
        int best = 0;
        for (int i = 1; i < m_workers.size(); ++i) {
            if (m_workers.at(i).queued < m_workers.at(best).queued)
                best = i;
        }
        Worker &w = m_workers[best];
        ++w.queued;
        ++m_inFlight;
        m_campaignOf.insert(send.recipientId, send.campaignId);
        const MailMessage message = CampaignMail::compose(send, m_config.mail, m_links);
        QPointer<CampaignSender> self(this);
        CampaignMailWorker *mailer = w.mailer;
        QMetaObject::invokeMethod(
            mailer,
            [mailer, send, message, self, best] {
                mailer->send(send, message, [self, best](const CampaignSendResult &result) {
                    QMetaObject::invokeMethod(
                        self.data(),
                        [self, best, result] {
                            if (self)
                                self->finished(best, result);
                        },
                        Qt::QueuedConnection);
                });
            },
            Qt::QueuedConnection);
    }
    if (claimed.size() == room)
        wake(); // more may wait: the next round after the outcomes queued meanwhile
}

void CampaignSender::tickSms()
{
    if (!m_sms)
        return;
    const int room = smsBudget();
    if (room <= 0)
        return;
    const QVector<CampaignSend> claimed =
        m_campaigns.claim(QStringLiteral("sms"), room, m_config.leaseSeconds, m_config.sms.perSecond);
    if (!claimed.isEmpty() && m_links.key.isEmpty() && !m_links.publicBaseUrl.isEmpty())
        m_links.key = m_campaigns.linkKey();
    for (const CampaignSend &send : claimed) {
        ++m_smsInFlight;
        m_campaignOf.insert(send.recipientId, send.campaignId);
        const QString e164 = ContactRules::toE164(send.address);
        QPointer<CampaignSender> self(this);
        // The callback runs in this thread: later, or at once when the request cannot start.
        m_sms->send(send.recipientId, e164.isEmpty() ? send.address : e164, CampaignMail::smsText(send, m_links),
                    [self](const CampaignSendResult &result) {
                        if (self)
                            self->smsFinished(result);
                    });
    }
    if (claimed.size() == room)
        wake();
}

void CampaignSender::tickWhatsApp()
{
    if (!m_config.whatsapp)
        return;
    // Queued in the inbox (a transaction per batch); the channel's dispatcher sends at its pace.
    if (m_campaigns.handToWhatsApp(kWhatsAppBatch) == kWhatsAppBatch)
        wake();
}

void CampaignSender::finished(int worker, const CampaignSendResult &result)
{
    if (worker >= 0 && worker < m_workers.size())
        --m_workers[worker].queued;
    --m_inFlight;
    m_ended.push_back(QDateTime::currentMSecsSinceEpoch());
    outcome(result);
}

void CampaignSender::smsFinished(const CampaignSendResult &result)
{
    --m_smsInFlight;
    m_smsEnded.push_back(QDateTime::currentMSecsSinceEpoch());
    outcome(result);
}

void CampaignSender::outcome(const CampaignSendResult &result)
{
    m_results.append(result);
    const QString campaign = m_campaignOf.take(result.recipientId);
    if (result.kind == CampaignSendResult::SoftFailure || result.kind == CampaignSendResult::Failed) {
        const int errors = ++m_errorsInRow[campaign];
        if (m_config.maxSendErrors > 0 && errors == m_config.maxSendErrors) {
            try {
                flush();
                m_campaigns.pause(campaign, {},
                                  ModelText(QT_TRANSLATE_NOOP("ModelError", "Paused after %1 send errors in a row: %2"),
                                            {errors, result.detail.left(200)}));
                m_errorsInRow.remove(campaign);
            } catch (const std::exception &e) {
                qCWarning(lcCampaigns) << "pausing campaign" << campaign << "failed:" << e.what();
            }
        }
    } else {
        m_errorsInRow.remove(campaign);
    }
    if (m_results.size() >= kRecordBatch)
        flush();
    else if (!m_flush.isActive())
        m_flush.start();
    wake();
}

void CampaignSender::flush()
{
    if (m_results.isEmpty())
        return;
    try {
        m_campaigns.record(m_results, m_config.retryDelays);
        const int n = int(m_results.size());
        m_results.clear();
        m_flush.setInterval(kRecordDelayMs);
        Q_EMIT recorded(n);
    } catch (const std::exception &e) {
        // Kept and recorded at the next flush: the outcome is never forgotten.
        qCWarning(lcCampaigns) << "recording campaign outcomes failed:" << e.what();
        m_flush.start(1000);
    }
}
