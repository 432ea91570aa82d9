#include "messaging/channels/telegrampoller.h"

#include "messaging/channels/providerclient.h"
#include "messaging/channels/telegramconnector.h"
#include "messaging/channels/telegramupdate.h"
#include "model/core/database.h"

#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcTelegram, "liaison.channels.telegram")

TelegramPoller::TelegramPoller(const TelegramConfig &config, int timeoutSeconds, const Store &store, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_recorder(store)
    // A long poll stays open pollTimeoutSeconds: the request's own bound comes on top of it.
    , m_client(new ProviderClient(config.apiBaseUrl, config.pollTimeoutSeconds + qMax(1, timeoutSeconds), this))
    , m_botId(config.botToken.section(QLatin1Char(':'), 0, 0))
{
    m_timer.setSingleShot(true);
    if (m_config.mode == QLatin1String("webhook")) {
        if (!m_config.webhookUrl.isEmpty()) {
            connect(&m_timer, &QTimer::timeout, this, &TelegramPoller::setWebhook);
            m_timer.start(0);
        }
        return;
    }
    connect(&m_timer, &QTimer::timeout, this, &TelegramPoller::poll);
    m_timer.start(0);
}

TelegramPoller::~TelegramPoller() = default; // m_client (a child) aborts the request in flight

std::function<QObject *(QObject *)> TelegramPoller::factory(const TelegramConfig &config, int timeoutSeconds,
                                                            const Store &store)
{
    return [config, timeoutSeconds, store](QObject *parent) -> QObject * {
        return new TelegramPoller(config, timeoutSeconds, store, parent);
    };
}

void TelegramPoller::poll()
{
    // Copies sharing one PostgreSQL database: exactly one polls (an advisory lock, held by this
    // thread's connection, that goes with it when the copy stops). The others ask again every
    // kStandbySeconds, so one of them takes over within a minute.
    bool polling = false;
    try {
        polling = Database::holdLock(Database::Lock::TelegramPoller);
    } catch (const std::exception &e) {
        qCWarning(lcTelegram) << "cannot take the Telegram polling lock:" << e.what();
    }
    if (!polling) {
        if (!m_standby)
            qCInfo(lcTelegram) << "another copy of Liaison polls Telegram; this one stands by";
        m_standby = true;
        retryLater(kStandbySeconds);
        return;
    }
    if (m_standby)
        qCInfo(lcTelegram) << "polling Telegram (the copy that polled has stopped)";
    m_standby = false;
    ++m_polls;
    const QJsonObject body{
        {QStringLiteral("offset"), double(m_offset)},
        {QStringLiteral("timeout"), m_config.pollTimeoutSeconds},
        {QStringLiteral("limit"), 100},
        {QStringLiteral("allowed_updates"), QJsonArray{QStringLiteral("message"), QStringLiteral("callback_query")}}};
    m_client->postJson(
        m_client->request(TelegramConnector::methodPath(m_config.botToken, QStringLiteral("getUpdates"))), body,
        [this](const ProviderReply &reply) { handle(reply); });
}

void TelegramPoller::retryLater(int seconds)
{
    m_timer.start(qMax(0, seconds) * m_backoffUnitMs);
}

void TelegramPoller::handle(const ProviderReply &reply)
{
    Q_EMIT polled(reply.status);
    const QString description = reply.json.value(QLatin1String("description")).toString();
    if (reply.status != 200 || !reply.json.value(QLatin1String("ok")).toBool()) {
        ++m_failures;
        const int backoff = qMin(kMaxBackoffSeconds, 1 << qMin(m_failures - 1, 6));
        if (reply.status == 429) {
            const int after =
                reply.json.value(QLatin1String("parameters")).toObject().value(QLatin1String("retry_after")).toInt();
            qCInfo(lcTelegram) << "getUpdates throttled; retrying in" << qMax(1, after) << "s";
            retryLater(qMax(1, after));
            return;
        }
        if (reply.status == 409) {
            if (!m_conflictLogged) {
                qCWarning(lcTelegram).noquote()
                    << "getUpdates refused (409): a webhook is set for this bot, so polling receives nothing."
                    << "Set channels/telegram/mode=webhook, or remove the webhook (deleteWebhook) to poll."
                    << description;
                m_conflictLogged = true;
            }
            retryLater(kMaxBackoffSeconds);
            return;
        }
        if (reply.status == 401 || reply.status == 404) {
            qCWarning(lcTelegram).noquote() << "getUpdates: the bot token was refused:" << description;
            retryLater(kMaxBackoffSeconds);
            return;
        }
        qCInfo(lcTelegram).noquote() << "getUpdates failed:"
                                     << (reply.reached()
                                             ? QStringLiteral("HTTP %1 %2").arg(reply.status).arg(description)
                                             : reply.networkError)
                                     << "; retrying in" << backoff << "s";
        retryLater(backoff);
        return;
    }
    m_failures = 0;
    m_conflictLogged = false;
    const QJsonArray updates = reply.json.value(QLatin1String("result")).toArray();
    for (const QJsonValue &v : updates) {
        const QJsonObject update = v.toObject();
        const qint64 id = TelegramUpdate::updateId(update);
        if (id < 0)
            continue;
        if (id < m_offset)
            continue; // already confirmed
        const TelegramUpdate::Parsed parsed = TelegramUpdate::parse(update, m_botId);
        bool created = false;
        if (parsed.kind == TelegramUpdate::Kind::Message) {
            try {
                m_recorder.record(parsed.message, &created);
            } catch (const std::exception &e) {
                // Not confirmed: Telegram gives it again at the next poll.
                qCWarning(lcTelegram) << "recording update" << id << "failed:" << e.what();
                ++m_failures;
                retryLater(qMin(kMaxBackoffSeconds, 1 << qMin(m_failures - 1, 6)));
                return;
            }
            if (!parsed.callbackQueryId.isEmpty()) {
                // Stops the button's spinner in the user's app; the answer does not matter.
                m_client->postJson(m_client->request(TelegramConnector::methodPath(
                                       m_config.botToken, QStringLiteral("answerCallbackQuery"))),
                                   {{QStringLiteral("callback_query_id"), parsed.callbackQueryId}},
                                   [](const ProviderReply &) {});
            }
        } else if (parsed.kind == TelegramUpdate::Kind::Malformed) {
            qCInfo(lcTelegram).noquote() << "skipping update" << id << ":" << parsed.why;
        }
        m_offset = id + 1;
        Q_EMIT updateHandled(id, created);
    }
    m_timer.start(0);
}

void TelegramPoller::setWebhook()
{
    QJsonObject body{
        {QStringLiteral("url"), m_config.webhookUrl},
        {QStringLiteral("allowed_updates"), QJsonArray{QStringLiteral("message"), QStringLiteral("callback_query")}}};
    if (m_config.secretToken.isEmpty())
        qCWarning(lcTelegram) << "channels/telegram/secretToken is not set: POST /webhooks/telegram refuses every call";
    else
        body.insert(QStringLiteral("secret_token"), m_config.secretToken);
    m_client->postJson(
        m_client->request(TelegramConnector::methodPath(m_config.botToken, QStringLiteral("setWebhook"))), body,
        [this](const ProviderReply &reply) {
            const bool ok = reply.status == 200 && reply.json.value(QLatin1String("ok")).toBool();
            const QString detail = reply.reached() ? reply.json.value(QLatin1String("description"))
                                                         .toString(QStringLiteral("HTTP %1").arg(reply.status))
                                                   : reply.networkError;
            if (ok)
                qCInfo(lcTelegram).noquote() << "webhook set to" << m_config.webhookUrl;
            else
                qCWarning(lcTelegram).noquote() << "setWebhook" << m_config.webhookUrl << "failed:" << detail;
            Q_EMIT webhookSet(ok, detail);
        });
}
