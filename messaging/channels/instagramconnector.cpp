#include "messaging/channels/instagramconnector.h"

#include "messaging/channels/graphapi.h"
#include "messaging/channels/providerclient.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QTimer>

Q_DECLARE_LOGGING_CATEGORY(lcChannels)

namespace {
constexpr int kInstagramMaxThrottleSeconds = 64;
}

InstagramConnector::InstagramConnector(const InstagramConfig &config, int timeoutSeconds, QObject *parent)
    : ChannelConnector(parent)
    , m_config(config)
    , m_client(new ProviderClient(config.apiBaseUrl, timeoutSeconds, this))
{
}

QJsonObject InstagramConnector::requestBody(const Message &message, const QString &to, QString *why)
{
    if (to.isEmpty()) {
        *why = QStringLiteral("no Instagram-scoped id to send to");
        return {};
    }
    QJsonObject content;
    const QString &type = message.type;
    if (type == QLatin1String("text")) {
        if (message.text.isEmpty()) {
            *why = QStringLiteral("empty text");
            return {};
        }
        if (message.text.size() > kMaxTextLength) {
            *why = QStringLiteral("Instagram text is limited to %1 characters (this one has %2)")
                       .arg(kMaxTextLength)
                       .arg(message.text.size());
            return {};
        }
        content = {{QStringLiteral("text"), message.text}};
    } else if (type == QLatin1String("image") || type == QLatin1String("video") || type == QLatin1String("audio") ||
               type == QLatin1String("document")) {
        *why = GraphApi::mediaUrlProblem(message.mediaUrl, type);
        if (!why->isEmpty())
            return {};
        const QString kind = type == QLatin1String("document") ? QStringLiteral("file") : type;
        content = {{QStringLiteral("attachment"),
                    QJsonObject{{QStringLiteral("type"), kind},
                                {QStringLiteral("payload"), QJsonObject{{QStringLiteral("url"), message.mediaUrl}}}}}};
    } else {
        *why = QStringLiteral("Instagram cannot send a %1 message").arg(type);
        return {};
    }
    return {{QStringLiteral("recipient"), QJsonObject{{QStringLiteral("id"), to}}},
            {QStringLiteral("message"), content}};
}

void InstagramConnector::post(const QJsonObject &body, std::function<void(const ProviderReply &)> done)
{
    QNetworkRequest request = m_client->request(QLatin1Char('/') + m_config.accountId + QStringLiteral("/messages"));
    ProviderClient::setBearer(request, m_config.accessToken);
    m_client->postJson(request, body, std::move(done));
}

void InstagramConnector::send(const Message &message, const QString &to, std::function<void(const SendOutcome &)> done)
{
    QString why;
    const QJsonObject body = requestBody(message, to, &why);
    if (body.isEmpty()) {
        QTimer::singleShot(0, this, [done = std::move(done), why] { done(SendOutcome::failed(why)); });
        return;
    }
    QString caption = message.type == QLatin1String("text")
                          ? QString()
                          : (message.caption.isEmpty() ? message.text : message.caption);
    caption = caption.left(kMaxTextLength);
    QPointer<InstagramConnector> self(this);
    post(body, [self, done = std::move(done), caption, to](const ProviderReply &reply) {
        const QString id = reply.json.value(QLatin1String("message_id")).toString();
        const SendOutcome outcome = GraphApi::outcome(reply, id, self ? self->m_throttleSeconds : 1);
        if (self) {
            if (GraphApi::isThrottle(reply))
                self->m_throttleSeconds = qMin(kInstagramMaxThrottleSeconds, self->m_throttleSeconds * 2);
            else if (outcome.kind == SendOutcome::Sent)
                self->m_throttleSeconds = 1;
        }
        if (outcome.kind == SendOutcome::Sent && self && !caption.isEmpty()) {
            // Best effort: the attachment is delivered whatever happens to its caption.
            const QJsonObject text{{QStringLiteral("recipient"), QJsonObject{{QStringLiteral("id"), to}}},
                                   {QStringLiteral("message"), QJsonObject{{QStringLiteral("text"), caption}}}};
            self->post(text, [done, outcome](const ProviderReply &captionReply) {
                if (captionReply.status != 200)
                    qCWarning(lcChannels) << "instagram caption of" << outcome.providerMessageId << "not sent: HTTP"
                                          << captionReply.status << captionReply.networkError;
                done(outcome);
            });
            return;
        }
        done(outcome);
    });
}

void InstagramConnector::probe(std::function<void(bool ok, const QString &detail)> done)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("fields"), QStringLiteral("id,username"));
    QNetworkRequest request = m_client->request(QLatin1Char('/') + m_config.accountId, query);
    ProviderClient::setBearer(request, m_config.accessToken);
    m_client->get(request, [done = std::move(done)](const ProviderReply &reply) {
        const QString user = reply.json.value(QLatin1String("username")).toString();
        GraphApi::probeResult(reply, user.isEmpty() ? QStringLiteral("connected") : QLatin1Char('@') + user, done);
    });
}
