#pragma once

#include "messaging/channels/channelconnector.h"
#include "messaging/channels/providerclient.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

// What the Meta channels (WhatsApp Cloud API, Instagram messaging) share when they send: the Graph
// API's error shape and what an answer means. (Their webhooks' handshake and signature are checked
// in server/api/graphwebhook.h.)
namespace GraphApi {

// A Graph error {error:{code, message, error_data:{details}, error_subcode}} as one line for
// failedReason: "131047: more than 24 hours since the customer last wrote: send a template";
// providerStatus: the HTTP status of the provider's answer, named when the error says nothing else.
QString reason(const QJsonObject &error, int providerStatus);

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
