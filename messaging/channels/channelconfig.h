#pragma once

#include "model/core/errors.h"

#include <QList>
#include <QString>
#include <QUrl>

// Settings of the messaging channels (section "channels" of liaison.ini, read by AppSettings;
// secrets from the keychain unless given with --set). A channel is configured when its
// credentials are set; an unconfigured channel answers 503 "Channel unavailable".
struct WhatsAppConfig
{
    QString apiBaseUrl = QStringLiteral("https://graph.facebook.com/v19.0"); // channels/whatsapp/apiBaseUrl
    QString phoneNumberId;                                                   // channels/whatsapp/phoneNumberId
    QString accessToken;                                                     // secret
    QString appSecret;   // secret: verifies X-Hub-Signature-256 of incoming webhooks
    QString verifyToken; // secret: the hub.verify_token of the GET handshake
    int sendPerSecond = 80;
    bool configured() const { return !phoneNumberId.isEmpty() && !accessToken.isEmpty(); }
};

struct TelegramConfig
{
    QString apiBaseUrl = QStringLiteral("https://api.telegram.org"); // channels/telegram/apiBaseUrl
    QString botToken;                                                // secret
    QString mode = QStringLiteral("polling");                        // polling (getUpdates) or webhook
    QString secretToken; // secret: X-Telegram-Bot-Api-Secret-Token of webhook calls
    // channels/telegram/webhookUrl (mode webhook): when set, setWebhook(url, secret_token) is called once
    // at start (our public https URL + /webhooks/telegram); empty: the admin registers the webhook.
    QString webhookUrl;
    int pollTimeoutSeconds = 25; // getUpdates long-poll timeout
    int sendPerSecond = 30;
    bool configured() const { return !botToken.isEmpty(); }
};

struct InstagramConfig
{
    QString apiBaseUrl = QStringLiteral("https://graph.facebook.com/v19.0"); // channels/instagram/apiBaseUrl
    QString accountId = QStringLiteral("me"); // channels/instagram/accountId: IG user id or "me"
    QString accessToken;                      // secret
    QString appSecret;                        // secret
    QString verifyToken;                      // secret
    int sendPerSecond = 40;
    bool configured() const { return !accessToken.isEmpty(); }
};

struct ChannelsConfig
{
    WhatsAppConfig whatsapp;
    TelegramConfig telegram;
    InstagramConfig instagram;
    int widgetSendPerSecond = 0; // channels/widget/sendPerSecond; 0: unlimited
    // channels/widget/visitorName: how an anonymous widget visitor (no name, e-mail or phone given
    // yet, so no contact) is labelled, followed by a short id: "Website visitor 3F9K2A" (the
    // window's language by default; empty: "Website visitor").
    QString widgetVisitorName;
    // channels/retryDelays: seconds before the retries of a send that failed for a passing reason
    // (network error, provider 5xx, throughput limit without its own wait).
    QList<int> retryDelays{5, 30, 120, 600, 1800};
    int timeoutSeconds = 30; // channels/timeoutSeconds: one provider request
    // channels/leaseMarginSeconds: a claimed send stays this copy's for timeoutSeconds and this
    // margin; after it another copy sharing the PostgreSQL database sends it (the first stopped).
    int leaseMarginSeconds = 60;
    int pollIntervalMs = 1000;     // channels/pollIntervalMs: the send queue besides event-bus wake-ups
    int probeIntervalSeconds = 30; // channels/probeIntervalSeconds: how often a down provider is probed
    // DATA/media, where uploaded files live (set by the app): WhatsApp uploads a message's file from
    // here (POST /{phoneNumberId}/media) and sends it by id; empty: media go by link only.
    QString mediaDir;

    // The send limit of a channel per second; 0 for unlimited.
    int sendPerSecond(const QString &channel) const
    {
        if (channel == QLatin1String("whatsapp"))
            return whatsapp.sendPerSecond;
        if (channel == QLatin1String("telegram"))
            return telegram.sendPerSecond;
        if (channel == QLatin1String("instagram"))
            return instagram.sendPerSecond;
        if (channel == QLatin1String("widget"))
            return widgetSendPerSecond;
        return 0;
    }
    bool configured(const QString &channel) const
    {
        if (channel == QLatin1String("whatsapp"))
            return whatsapp.configured();
        if (channel == QLatin1String("telegram"))
            return telegram.configured();
        if (channel == QLatin1String("instagram"))
            return instagram.configured();
        return channel == QLatin1String("widget");
    }
};

namespace ChannelUrls {
// A provider base URL must be https; plain http only on a loopback address (local fakes). Why a
// URL is not allowed, as a text the window translates (null: it is allowed).
inline ModelText problem(const QUrl &url)
{
    if (!url.isValid() || url.host().isEmpty())
        return ModelText(QT_TRANSLATE_NOOP("ModelError", "not a valid URL"));
    if (url.scheme() == QLatin1String("https"))
        return {};
    if (url.scheme() == QLatin1String("http")) {
        const QString host = url.host();
        if (host == QLatin1String("localhost") || host.startsWith(QLatin1String("127.")) ||
            host == QLatin1String("::1"))
            return {};
        return ModelText(QT_TRANSLATE_NOOP("ModelError", "plain http is allowed only on a loopback address"));
    }
    return ModelText(QT_TRANSLATE_NOOP("ModelError", "the scheme must be https"));
}

inline bool allowed(const QUrl &url, QString *why = nullptr)
{
    const ModelText text = problem(url);
    if (text.isNull())
        return true;
    if (why)
        *why = text.english();
    return false;
}
} // namespace ChannelUrls
