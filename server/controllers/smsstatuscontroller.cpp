#include "server/controllers/smsstatuscontroller.h"

#include "messaging/campaigns/smsclient.h"
#include "model/core/errors.h"
#include "server/api/crypto.h"
#include "server/api/schemas.h"

using namespace Schema;

SmsStatusController::SmsStatusController(const Store &store, const QString &authToken, const QString &publicBaseUrl)
    : m_campaigns(store)
    , m_authToken(authToken)
    , m_publicBaseUrl(publicBaseUrl)
{
}

void SmsStatusController::registerRoutes(Router &router)
{
    RouteDoc doc{QStringLiteral("Channel webhooks"),
                 QStringLiteral("The SMS provider's status callback (Twilio), signed"),
                 object({{QStringLiteral("MessageSid"), string()},
                         {QStringLiteral("MessageStatus"), string()},
                         {QStringLiteral("ErrorCode"), string()}},
                        {QStringLiteral("MessageSid"), QStringLiteral("MessageStatus")}),
                 object({{QStringLiteral("success"), boolean()},
                         {QStringLiteral("data"), object({{QStringLiteral("recorded"), boolean()}})}}),
                 {},
                 {400, 403, 503}};
    doc.description = QStringLiteral("The SMS provider's status callback (Twilio shape, form-encoded MessageSid, "
                                     "MessageStatus, ErrorCode), signed with X-Twilio-Signature: delivered and "
                                     "undelivered/failed update the campaign recipient; other statuses are ignored");
    doc.requestContentType = QStringLiteral("application/x-www-form-urlencoded");
    router.add(
        "POST", QStringLiteral("/webhooks/sms/status"), "receiveSmsStatus", [this](ApiRequest &r) { return status(r); },
        Access::publicRoute(), doc);
}

ApiResponse SmsStatusController::status(ApiRequest &request)
{
    if (m_authToken.isEmpty())
        throw DomainError(DomainError::Unavailable, QStringLiteral("CHANNEL_UNAVAILABLE"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Channel unavailable")),
                          QJsonObject{{QStringLiteral("channel"), QStringLiteral("sms")},
                                      {QStringLiteral("reason"), QStringLiteral("not configured")}});
    const QByteArray signature = request.http.header("X-Twilio-Signature");
    if (signature.isEmpty())
        throw DomainError(DomainError::Forbidden, QStringLiteral("FORBIDDEN"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Missing X-Twilio-Signature header")));
    const QList<QPair<QString, QString>> params = TwilioSignature::formParams(request.http.body);
    // The URL signed is the one the provider called: the configured public base's, or ours as the
    // request names it.
    const QString query =
        request.http.query.isEmpty() ? QString() : QLatin1Char('?') + QString::fromUtf8(request.http.query);
    QStringList urls;
    if (!m_publicBaseUrl.isEmpty())
        urls << SmsClient::statusCallbackUrl(m_publicBaseUrl) + query;
    if (const QByteArray host = request.http.header("Host"); !host.isEmpty())
        urls << (request.http.encrypted ? QStringLiteral("https://") : QStringLiteral("http://")) +
                    QString::fromUtf8(host) + QString::fromUtf8(request.http.target);
    bool good = false;
    for (const QString &url : std::as_const(urls))
        good = constantTimeEquals(TwilioSignature::sign(m_authToken, url, params), signature) || good;
    if (!good)
        throw DomainError(DomainError::Forbidden, QStringLiteral("FORBIDDEN"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "X-Twilio-Signature does not match")));
    QString sid, messageStatus, errorCode;
    for (const auto &p : params) {
        if (p.first == QLatin1String("MessageSid"))
            sid = p.second.trimmed();
        else if (p.first == QLatin1String("MessageStatus"))
            messageStatus = p.second.trimmed().toLower();
        else if (p.first == QLatin1String("ErrorCode"))
            errorCode = p.second.trimmed();
    }
    if (sid.isEmpty() || messageStatus.isEmpty())
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "A status callback needs MessageSid and MessageStatus")));
    bool recorded = false;
    if (messageStatus == QLatin1String("delivered")) {
        recorded = m_campaigns.recordDelivery(QStringLiteral("sms"), sid, true, {});
    } else if (messageStatus == QLatin1String("undelivered") || messageStatus == QLatin1String("failed")) {
        QString detail = QStringLiteral("SMS %1").arg(messageStatus);
        if (!errorCode.isEmpty())
            detail += QStringLiteral(" (error %1)").arg(errorCode.left(20));
        recorded = m_campaigns.recordDelivery(QStringLiteral("sms"), sid, false, detail);
    }
    return ApiResponse::ok(QJsonObject{{QStringLiteral("recorded"), recorded}});
}
