#include "server/api/graphwebhook.h"

#include "model/core/errors.h"
#include "server/api/apirequest.h"
#include "server/api/crypto.h"

#include <QMessageAuthenticationCode>

namespace GraphWebhook {

QByteArray signature(const QByteArray &body, const QString &appSecret)
{
    return "sha256=" + QMessageAuthenticationCode::hash(body, appSecret.toUtf8(), QCryptographicHash::Sha256).toHex();
}

bool signatureValid(const QByteArray &body, const QByteArray &header, const QString &appSecret)
{
    if (appSecret.isEmpty() || header.isEmpty())
        return false;
    // Hex digits may come in either case; ours are lower case.
    return constantTimeEquals(header.trimmed().toLower(), signature(body, appSecret));
}

ApiResponse verifyHandshake(const ApiRequest &request, const QString &verifyToken)
{
    const QString mode = request.queryValue(QStringLiteral("hub.mode"));
    const QByteArray token = request.queryValue(QStringLiteral("hub.verify_token")).toUtf8();
    const QString challenge = request.queryValue(QStringLiteral("hub.challenge"));
    if (verifyToken.isEmpty() || mode != QLatin1String("subscribe") || !constantTimeEquals(token, verifyToken.toUtf8()))
        throw DomainError(DomainError::Forbidden, QStringLiteral("FORBIDDEN"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Webhook verification failed")));
    ApiResponse r;
    r.status = 200;
    r.body = challenge.toUtf8();
    r.headers.emplaceBack("Content-Type", "text/plain; charset=utf-8");
    return r;
}

QJsonObject checkWebhook(const ApiRequest &request, const QString &channel, bool configured, const QString &appSecret)
{
    if (!configured || appSecret.isEmpty()) {
        throw DomainError(
            DomainError::Unavailable, QStringLiteral("CHANNEL_UNAVAILABLE"),
            ModelText(QT_TRANSLATE_NOOP("ModelError", "Channel unavailable")),
            {{QStringLiteral("channel"), channel},
             {QStringLiteral("reason"), configured ? QStringLiteral("no app secret set: webhooks cannot be verified")
                                                   : QStringLiteral("not configured")}});
    }
    const QByteArray header = request.http.header("X-Hub-Signature-256");
    if (header.isEmpty())
        throw DomainError(DomainError::Unauthorized, QStringLiteral("INVALID_SIGNATURE"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "Missing X-Hub-Signature-256 header")));
    if (!signatureValid(request.http.body, header, appSecret))
        throw DomainError(DomainError::Unauthorized, QStringLiteral("INVALID_SIGNATURE"),
                          ModelText(QT_TRANSLATE_NOOP("ModelError", "X-Hub-Signature-256 does not match the body")));
    if (!request.hasBody)
        throw DomainError::badRequest(
            ModelText(QT_TRANSLATE_NOOP("ModelError", "The webhook body must be a JSON object")));
    return request.body;
}

} // namespace GraphWebhook
