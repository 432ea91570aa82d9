#include "messaging/channels/graphapi.h"

#include "model/core/errors.h"

#include <QUrl>

namespace {

// Account-wide throughput limits: the whole channel waits.
bool isThrottleCode(int code)
{
    switch (code) {
    case 4:      // application request limit
    case 17:     // user request limit
    case 32:     // page request limit
    case 613:    // calls within one hour exceeded
    case 80007:  // Instagram messaging rate limit
    case 130429: // WhatsApp throughput limit (80/s by default)
        return true;
    default:
        return false;
    }
}

// Passing failures on Meta's side: the same message may succeed later.
bool isTransientCode(int code)
{
    switch (code) {
    case 1:      // unknown API error
    case 2:      // temporary API error
    case 131000: // something went wrong
    case 131016: // service unavailable
    case 131057: // account in maintenance (throughput upgrade)
    case 133004: // server temporarily unavailable
        return true;
    default:
        return false;
    }
}

QString knownReason(int code)
{
    switch (code) {
    case 100:
        return QStringLiteral("invalid parameter");
    case 190:
        return QStringLiteral("access token expired or invalid: update the channel's access token");
    case 10:
        return QStringLiteral("permission denied (for Instagram: outside the 24 hour reply window)");
    case 551:
        return QStringLiteral("this person is not available right now");
    case 130429:
        return QStringLiteral("throughput limit reached");
    case 131026:
        return QStringLiteral("message undeliverable (not on WhatsApp, old app, terms not accepted, or blocked)");
    case 131047:
        return QStringLiteral("more than 24 hours since the customer last wrote: send a template");
    case 131048:
        return QStringLiteral("spam rate limit: too many messages from this number were blocked or reported");
    case 131049:
        return QStringLiteral("Meta chose not to deliver this message (marketing engagement limit)");
    case 131056:
        return QStringLiteral("too many messages to this recipient in a short time");
    case 131057:
        return QStringLiteral("business account in maintenance");
    case 132001:
        return QStringLiteral("template does not exist in this language or is not approved");
    default:
        return {};
    }
}

} // namespace

namespace GraphApi {

QString reason(const QJsonObject &error, int providerStatus)
{
    const int code = error.value(QLatin1String("code")).toInt();
    const QString message = error.value(QLatin1String("message")).toString();
    QString details = error.value(QLatin1String("error_data")).toObject().value(QLatin1String("details")).toString();
    if (details.isEmpty())
        details = error.value(QLatin1String("error_user_msg")).toString();
    QString text = knownReason(code);
    if (text.isEmpty())
        text = message.isEmpty() ? QStringLiteral("provider answered HTTP %1").arg(providerStatus) : message;
    else if (!details.isEmpty())
        text += QStringLiteral(" (%1)").arg(details);
    if (code == 0)
        return text;
    return QStringLiteral("%1: %2").arg(code).arg(text).left(500);
}

bool isThrottle(const ProviderReply &reply)
{
    const int code = reply.json.value(QLatin1String("error")).toObject().value(QLatin1String("code")).toInt();
    return isThrottleCode(code) || (reply.status == 429 && !isTransientCode(code) && code != 131056);
}

SendOutcome outcome(const ProviderReply &reply, const QString &sentId, int throttleSeconds)
{
    if (!reply.reached()) {
        // A timeout may have reached the provider: try again, but the provider is not known down.
        if (reply.networkError == QLatin1String("timed out"))
            return SendOutcome::retry(QStringLiteral("provider timed out"));
        return SendOutcome::down(QStringLiteral("provider unreachable: %1").arg(reply.networkError));
    }
    if (reply.status >= 200 && reply.status < 300) {
        if (!sentId.isEmpty())
            return SendOutcome::sent(sentId);
        // Sending again could deliver twice: a final failure the agent can see and retry.
        return SendOutcome::failed(QStringLiteral("the provider accepted the message without a message id"));
    }
    const QJsonObject error = reply.json.value(QLatin1String("error")).toObject();
    const int code = error.value(QLatin1String("code")).toInt();
    const QString why = reason(error, reply.status);
    if (isThrottle(reply)) {
        SendOutcome o = SendOutcome::retry(why.isEmpty() ? QStringLiteral("rate limited") : why, throttleSeconds);
        o.channelThrottled = true;
        return o;
    }
    if (code == 131056 || isTransientCode(code))
        return SendOutcome::retry(why);
    if (reply.status >= 500)
        return SendOutcome::retry(error.isEmpty() ? QStringLiteral("provider answered HTTP %1").arg(reply.status)
                                                  : why);
    return SendOutcome::failed(why);
}

QString mediaUrlProblem(const QString &url, const QString &type)
{
    if (url.isEmpty())
        return QStringLiteral("a %1 message needs a mediaUrl").arg(type);
    const QUrl u(url);
    if (!u.isValid() || u.host().isEmpty() ||
        (u.scheme() != QLatin1String("https") && u.scheme() != QLatin1String("http")))
        return QStringLiteral("mediaUrl must be an absolute http(s) URL the provider can fetch");
    return {};
}

void probeResult(const ProviderReply &reply, const QString &okDetail,
                 const std::function<void(bool, const QString &)> &done)
{
    if (!reply.reached()) {
        done(false, QStringLiteral("provider unreachable: %1").arg(reply.networkError));
        return;
    }
    if (reply.status >= 200 && reply.status < 300) {
        done(true, okDetail);
        return;
    }
    done(false, reason(reply.json.value(QLatin1String("error")).toObject(), reply.status));
}

} // namespace GraphApi
