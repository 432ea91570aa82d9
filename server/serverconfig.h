#pragma once

#include "messaging/assistant/languagemodelclient.h"
#include "messaging/channels/channelconfig.h"
#include "messaging/media/mediaconfig.h"
#include "messaging/webhooks/webhookconfig.h"
#include "model/assistant/assistant.h"
#include "server/http/httpengine.h"

#include <QByteArray>
#include <QHostAddress>
#include <QString>
#include <QThread>
#include <QTimeZone>

#include <memory>

class ChannelRegistry;
class KnowledgeIndex;

// Everything the API server needs, read from settings by the app (or set by tests).
struct ServerConfig
{
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 8443;
    bool tls = true;
    QString dataDir;
    QString tlsCert; // empty: DATA/tls/cert.pem, generated at first start
    QString tlsKey;
    int rateLimitPerMinute = 100;      // per credential; 0: no limit
    int loginFailuresPerWindow = 10;   // failed password checks per account and client address per 15 minutes
    int loginFailuresPerAccount = 30;  // ... per account from any address
    int loginFailuresPerAddress = 100; // ... per client address for any account
    int accessTokenMinutes = 15;       // 15 to 60
    int refreshTokenDays = 30;
    QByteArray jwtKey; // from the secret store
    // Team mode: access tokens are signed with the keys of the database's signing_keys table, which
    // every copy shares (SigningKeyRepository), not with jwtKey.
    bool jwtKeysInDatabase = false;
    int threads = 0;                                       // server threads; 0: one per core (at most 8)
    QTimeZone tasksTimeZone = QTimeZone::systemTimeZone(); // "today" and "overdue" of tasks (tasks/timeZone)
    HttpLimits limits;
    WebhookConfig webhooks;  // section "webhooks": the API's URL checks and POST /webhooks/:id/test
    MediaConfig media;       // section "media": upload limit, lifetime, public base URL
    ChannelsConfig channels; // section "channels"
    // SMS campaigns' status callbacks (POST /webhooks/sms/status): the auth token that signs them
    // (secret channels/sms/authToken; empty: the callback answers 503) and campaigns/publicBaseUrl,
    // the base of the URL the provider was given (empty: the server's own, as the request names it).
    QString smsAuthToken;
    QString smsPublicBaseUrl;
    // The process's channel state (shared with the window and the delivery thread); null: one made
    // from `channels` for this server.
    std::shared_ptr<ChannelRegistry> channelRegistry;
    // The process's knowledge index of the assistant (shared with the window and the delivery
    // thread); null: one made for this server's group of threads (ApiShared).
    std::shared_ptr<KnowledgeIndex> knowledgeIndex;
    // The assistant's thresholds (settings ai/answerThreshold, ai/marginThreshold).
    AssistantThresholds assistant;
    // The assistant's optional language model (ai/llmBaseUrl, ai/llmModel, ai/llmTimeoutSeconds,
    // secret ai.llmApiKey): POST /ai/chat and /ai/test-knowledge ask it; empty base URL: none.
    LanguageModelConfig languageModel;

    int threadCount() const { return threads > 0 ? threads : qBound(1, QThread::idealThreadCount(), 8); }
};
