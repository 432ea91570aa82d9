#pragma once

#include "messaging/channels/channelconfig.h"
#include "messaging/channels/channelconnector.h"
#include "model/inbox/mediarepository.h"

#include <optional>

class ProviderClient;

// The WhatsApp Cloud API (docs/channels.md §1): POST {apiBaseUrl}/{phoneNumberId}/messages with the
// bearer token, one Graph message per Liaison message (text, image, video, document, audio by link,
// location, template). A media message whose file we hold (payload.mediaId in media) is first
// uploaded (POST /{phoneNumberId}/media, multipart) and sent by the returned id, so the provider
// needs no access to our server; otherwise it goes by link. Answers map to outcomes through
// GraphApi::outcome; a throughput limit
// (130429) pauses the channel with a wait that doubles on each repeat (1 s … 64 s) and resets on
// a success.
class WhatsAppConnector final : public ChannelConnector
{
    Q_OBJECT
public:
    // media: where our files are (none: media messages go by link).
    WhatsAppConnector(const WhatsAppConfig &config, int timeoutSeconds, QObject *parent = nullptr,
                      std::optional<MediaRepository> media = std::nullopt);
    QString channel() const override { return QStringLiteral("whatsapp"); }
    void send(const Message &message, const QString &to, std::function<void(const SendOutcome &)> done) override;
    void probe(std::function<void(bool ok, const QString &detail)> done) override;

    // The Graph request body of a message, or an empty object with why set when it cannot be sent
    // on WhatsApp (exposed for tests).
    // uploadedId: the provider's media id to send a media message by (instead of its link).
    static QJsonObject requestBody(const Message &message, const QString &to, QString *why,
                                   const QString &uploadedId = {});

private:
    void post(const QJsonObject &body, std::function<void(const SendOutcome &)> done);
    // Uploads our media file; done gets the provider's media id, or an outcome when it failed.
    void upload(const QString &mediaId, std::function<void(const QString &id, const SendOutcome &failure)> done);

    WhatsAppConfig m_config;
    ProviderClient *m_client;
    int m_throttleSeconds = 1;
    std::optional<MediaRepository> m_media;
    QHash<QString, QString> m_uploaded; // our media id -> WhatsApp's (valid 30 days; this run only)
};
