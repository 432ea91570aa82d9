#pragma once

#include "messaging/channels/channelconfig.h"
#include "messaging/channels/channelconnector.h"

class ProviderClient;

// Instagram messaging (docs/channels.md §3): POST {apiBaseUrl}/{accountId}/messages with the bearer
// token: {recipient:{id}, message:{text}} or an attachment (image, video, audio, file) by URL.
// Text is limited to 1000 characters (longer fails before any call). A media message's caption
// follows as a second text message once the attachment was accepted (Instagram attachments carry
// no caption); the message's provider id is the attachment's.
class InstagramConnector final : public ChannelConnector
{
    Q_OBJECT
public:
    static constexpr int kMaxTextLength = 1000;

    InstagramConnector(const InstagramConfig &config, int timeoutSeconds, QObject *parent = nullptr);
    QString channel() const override { return QStringLiteral("instagram"); }
    void send(const Message &message, const QString &to, std::function<void(const SendOutcome &)> done) override;
    void probe(std::function<void(bool ok, const QString &detail)> done) override;

    // The Send API body of a message, or an empty object with why set (exposed for tests).
    static QJsonObject requestBody(const Message &message, const QString &to, QString *why);

private:
    void post(const QJsonObject &body, std::function<void(const struct ProviderReply &)> done);

    InstagramConfig m_config;
    ProviderClient *m_client;
    int m_throttleSeconds = 1;
};
