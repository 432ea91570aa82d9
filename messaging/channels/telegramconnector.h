#pragma once

#include "messaging/channels/channelconnector.h"

#include <QJsonObject>

class ProviderClient;
struct ProviderReply;

// The Telegram Bot API (docs/channels.md §2): {apiBaseUrl}/bot<token>/<method> with JSON bodies.
// Text -> sendMessage, image -> sendPhoto, video -> sendVideo, audio -> sendAudio, document ->
// sendDocument (media by URL), location -> sendLocation. Telegram has no templates: a template is
// sent as its rendered text (see templateText) with its quick-reply buttons as an inline keyboard.
// Answers: ok -> Sent "<chat_id>:<message_id>"; 429 -> Retry after parameters.retry_after with the
// whole bot throttled; other 4xx (chat not found, bot blocked, bad token) -> Failed with the
// description; 5xx -> Retry; no answer -> Retry with providerDown.
class TelegramConnector : public ChannelConnector
{
    Q_OBJECT
public:
    static constexpr int kMaxText = 4096;       // sendMessage text
    static constexpr int kMaxCaption = 1024;    // media captions
    static constexpr int kMaxCallbackData = 64; // bytes of an inline button's callback_data

    TelegramConnector(const TelegramConfig &config, int timeoutSeconds, QObject *parent = nullptr);
    ~TelegramConnector() override;

    QString channel() const override { return QStringLiteral("telegram"); }
    void send(const Message &message, const QString &to, std::function<void(const SendOutcome &)> done) override;
    void probe(std::function<void(bool ok, const QString &detail)> done) override;

    // The Bot API method and JSON body for a message to chat `to`; false (with why) when the message
    // cannot be expressed (missing media URL, bad coordinates).
    static bool buildRequest(const Message &message, const QString &to, QString *method, QJsonObject *body,
                             QString *why);
    // A template's text: message.text with "{{1}}", "{{2}}"… replaced by the body parameters, or
    // when there is no text, the template name followed by the parameters, one per line.
    static QString templateText(const Message &message);
    // The inline keyboard of the template's quick-reply buttons (empty object when none).
    static QJsonObject quickReplyKeyboard(const QJsonObject &payload);
    // Maps a Bot API answer to a send outcome; chatId: the chat sent to.
    static SendOutcome outcome(const ProviderReply &reply, const QString &chatId);
    // The path of a Bot API method: /bot<token>/<method>.
    static QString methodPath(const QString &token, const QString &method);
    // Cuts text to at most `max` characters, ending with "…" when cut.
    static QString cut(const QString &text, int max);

private:
    TelegramConfig m_config;
    ProviderClient *m_client;
};
