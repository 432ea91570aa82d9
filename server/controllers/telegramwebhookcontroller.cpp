#include "server/controllers/telegramwebhookcontroller.h"

#include "messaging/channels/channelconnector.h"
#include "messaging/channels/channelregistry.h"
#include "messaging/channels/telegramupdate.h"
#include "model/core/errors.h"
#include "model/inbox/inboundrecorder.h"
#include "server/api/crypto.h"
#include "server/api/schemas.h"

using namespace Schema;

TelegramWebhookController::TelegramWebhookController(std::shared_ptr<ChannelRegistry> channels, const Store &store)
    : m_channels(channels ? std::move(channels) : ChannelRegistry::defaults())
    , m_recorder(store)
{
}

TelegramWebhookController::~TelegramWebhookController() = default;

void TelegramWebhookController::registerRoutes(Router &router)
{
    // POST /webhooks/telegram
    router.add(
        "POST", QStringLiteral("/webhooks/telegram"), "receiveTelegramUpdate",
        [this](ApiRequest &r) { return receive(r); }, Access::publicRoute(),
        RouteDoc{QStringLiteral("Channel webhooks"),
                 QStringLiteral("Receive one Telegram Update (webhook mode)"),
                 object({{QStringLiteral("update_id"), integer(0)},
                         {QStringLiteral("message"), object({})},
                         {QStringLiteral("callback_query"), object({})}},
                        {QStringLiteral("update_id")}),
                 object({{QStringLiteral("success"), boolean()},
                         {QStringLiteral("data"), object({{QStringLiteral("recorded"), boolean()},
                                                          {QStringLiteral("messageId"), nullable(string())}})},
                         {QStringLiteral("method"), string()},
                         {QStringLiteral("callback_query_id"), string()}}),
                 {},
                 {400, 403, 503}}
            .described(
                QStringLiteral("Receive one Telegram Update (mode webhook); X-Telegram-Bot-Api-Secret-Token must "
                               "equal channels/telegram/secretToken. A button tap is answered with "
                               "{method: answerCallbackQuery, callback_query_id}")));
}

ApiResponse TelegramWebhookController::receive(ApiRequest &request)
{
    const TelegramConfig &config = m_channels->config().telegram;
    if (!config.configured() || config.secretToken.isEmpty()) {
        throw DomainError(DomainError::Unavailable, QStringLiteral("CHANNEL_UNAVAILABLE"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Channel unavailable")),
                          QJsonObject{{QStringLiteral("channel"), QStringLiteral("telegram")},
                                      {QStringLiteral("reason"),
                                       config.configured() ? QStringLiteral("no secret token set: webhook calls "
                                                                            "cannot be verified")
                                                           : QStringLiteral("not configured")}});
    }
    const QByteArray secret = request.http.header("X-Telegram-Bot-Api-Secret-Token");
    if (!constantTimeEquals(secret, config.secretToken.toUtf8()))
        throw DomainError(
            DomainError::Forbidden, QStringLiteral("FORBIDDEN"),
            secret.isEmpty()
                ? ModelText(QT_TRANSLATE_NOOP("ModelError", "Missing X-Telegram-Bot-Api-Secret-Token header"))
                : ModelText(QT_TRANSLATE_NOOP("ModelError", "X-Telegram-Bot-Api-Secret-Token does not match")));
    if (!request.hasBody)
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "The webhook body must be a Telegram Update (a JSON object)")));
    const TelegramUpdate::Parsed parsed =
        TelegramUpdate::parse(request.body, config.botToken.section(QLatin1Char(':'), 0, 0));
    if (parsed.kind == TelegramUpdate::Kind::Malformed)
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Not a Telegram Update: %1"), {parsed.why}));
    QJsonObject data{{QStringLiteral("recorded"), false}, {QStringLiteral("messageId"), QJsonValue::Null}};
    if (parsed.kind == TelegramUpdate::Kind::Message) {
        bool created = false;
        const Message m = m_recorder.record(parsed.message, &created);
        data.insert(QStringLiteral("recorded"), created);
        data.insert(QStringLiteral("messageId"), m.id);
        if (!parsed.callbackQueryId.isEmpty()) {
            // Telegram runs a method given in the webhook's answer: this stops the button's spinner.
            return ApiResponse::raw({{QStringLiteral("method"), QStringLiteral("answerCallbackQuery")},
                                     {QStringLiteral("callback_query_id"), parsed.callbackQueryId},
                                     {QStringLiteral("success"), true},
                                     {QStringLiteral("data"), data}});
        }
    }
    return ApiResponse::ok(data);
}
