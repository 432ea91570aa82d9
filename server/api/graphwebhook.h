#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

struct ApiRequest;
struct ApiResponse;

// The webhooks of the Meta channels (WhatsApp Cloud API, Instagram messaging) as they arrive: the
// hub.verify_token handshake and the X-Hub-Signature-256 check (docs/api.md, channels).
namespace GraphWebhook {

// "sha256=<hex HMAC-SHA256(appSecret, body)>", the X-Hub-Signature-256 Meta sends.
QByteArray signature(const QByteArray &body, const QString &appSecret);
// The header matches the raw body (constant-time comparison); false when either is empty.
bool signatureValid(const QByteArray &body, const QByteArray &header, const QString &appSecret);

// GET handshake: hub.mode=subscribe and hub.verify_token equal to ours answer 200 with
// hub.challenge as text/plain; anything else throws DomainError Forbidden (also when no token is set).
ApiResponse verifyHandshake(const ApiRequest &request, const QString &verifyToken);

// POST webhook gate: throws DomainError Unavailable "Channel unavailable" when the channel is not configured
// or has no app secret (its webhooks cannot be verified), 401 when the signature is missing or
// wrong. Returns the body (already parsed by the middleware).
QJsonObject checkWebhook(const ApiRequest &request, const QString &channel, bool configured, const QString &appSecret);

} // namespace GraphWebhook
