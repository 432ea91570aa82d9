#pragma once

#include "channelconfig.h"
#include "channelconnector.h"

class ProviderClient;

// The WhatsApp Cloud API (channels.md §1): POST {apiBaseUrl}/{phoneNumberId}/messages with the
// bearer token, one Graph message per Liaison message (text, image, video, document, audio by link,
// location, template). Answers map to outcomes through GraphApi::outcome; a throughput limit
// (130429) pauses the channel with a wait that doubles on each repeat (1 s … 64 s) and resets on
// a success.
class WhatsAppConnector final : public ChannelConnector
{
    Q_OBJECT
public:
    WhatsAppConnector(const WhatsAppConfig &config, int timeoutSeconds, QObject *parent = nullptr);
    QString channel() const override { return QStringLiteral("whatsapp"); }
    void send(const Message &message, const QString &to, std::function<void(const SendOutcome &)> done) override;
    void probe(std::function<void(bool ok, const QString &detail)> done) override;

    // The Graph request body of a message, or an empty object with why set when it cannot be sent
    // on WhatsApp (exposed for tests).
    static QJsonObject requestBody(const Message &message, const QString &to, QString *why);

private:
    WhatsAppConfig m_config;
    ProviderClient *m_client;
    int m_throttleSeconds = 1;
};
