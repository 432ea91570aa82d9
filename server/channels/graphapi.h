#pragma once

#include "server/channels/channelconnector.h"
#include "server/channels/providerclient.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

struct ApiRequest;
struct ApiResponse;

// What the Meta channels (WhatsApp Cloud API, Instagram messaging) share: the Graph API's error
// shape, the hub.verify_token handshake and the X-Hub-Signature-256 check of their webhooks
// (channels.md §1 and §3).
namespace GraphApi {

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

// A Graph error {error:{code, message, error_data:{details}, error_subcode}} as one line for
// failedReason: "131047: more than 24 hours since the customer last wrote: send a template".
QString reason(const QJsonObject &error, int httpStatus);

// Maps one send answer to an outcome. sentId: the provider's message id of a 2xx answer (empty: the
// answer had none). throttleSeconds: the wait for a throughput limit (130429 / 4 / 613…), which
// pauses the whole channel.
SendOutcome outcome(const ProviderReply &reply, const QString &sentId, int throttleSeconds);

// Whether an outcome came from a throughput limit of the whole account (the connector grows its wait).
bool isThrottle(const ProviderReply &reply);

// Why a media message's link cannot be fetched by Meta (empty: it can): the provider downloads
// the file itself, so the link must be an absolute http(s) URL.
QString mediaUrlProblem(const QString &url, const QString &type);

// The probe: 200 → ok with a detail; otherwise the reason.
void probeResult(const ProviderReply &reply, const QString &okDetail,
                 const std::function<void(bool, const QString &)> &done);

} // namespace GraphApi
