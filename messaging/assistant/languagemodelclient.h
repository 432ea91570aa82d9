#pragma once

#include "model/assistant/assistant.h"
#include "model/assistant/knowledgeentry.h"

#include <QObject>
#include <QString>
#include <QVector>

#include <functional>

class ProviderClient;
struct ProviderReply;

// The optional language model of the assistant (settings ai/llmBaseUrl, ai/llmModel,
// ai/llmTimeoutSeconds; secret ai.llmApiKey). Empty base URL: no model.
struct LanguageModelConfig
{
    QString baseUrl; // e.g. http://127.0.0.1:8080/v1 (llama.cpp's server), http://127.0.0.1:11434/v1 (Ollama)
    QString model;
    QString apiKey; // sent as a bearer token when set
    int timeoutSeconds = 20;

    bool enabled() const { return !baseUrl.trimmed().isEmpty(); }
};

// What the model is asked: the customer's question and the conversation before it, the language to
// answer in, and the knowledge entries retrieval found (the only facts it may use).
struct PhrasingRequest
{
    QString question;
    QString language; // tr, en
    QVector<ChatTurn> history;
    QVector<KnowledgeEntry> entries;
};

struct Phrasing
{
    enum Outcome
    {
        Phrased,  // text is the answer
        Declined, // the model said the entries do not answer: hand off
        Failed    // no usable answer (timeout, refused, an error status, no text): keep retrieval's
    };
    Outcome outcome = Failed;
    QString text;
    QString error;
    int latencyMs = 0;
};

// An OpenAI-compatible chat completions client: POST {baseUrl}/chat/completions with
// {model, messages, temperature, max_tokens}, the answer read from choices[0].message.content. The
// system message gives the entries and asks for an answer from them alone, in the customer's
// language, or the single word HANDOFF when they do not answer (kDeclineWord): that is a decline.
// The base URL must be https, or http on a loopback address (ChannelUrls::allowed). Lives in the
// thread that made it; callbacks run there, once each.
class LanguageModelClient : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *kDeclineWord = "HANDOFF";

    explicit LanguageModelClient(const LanguageModelConfig &config, QObject *parent = nullptr);
    ~LanguageModelClient() override;

    const LanguageModelConfig &config() const { return m_config; }
    bool isValid(QString *why = nullptr) const;

    void phrase(const PhrasingRequest &request, const std::function<void(const Phrasing &)> &done);
    // The same, waiting for the answer in a local event loop bounded by the timeout (a server
    // handler's way: other requests of the thread are served meanwhile; no transaction may be open).
    Phrasing phraseAndWait(const PhrasingRequest &request);

    static QJsonObject requestBody(const LanguageModelConfig &config, const PhrasingRequest &request);
    static Phrasing readReply(const ProviderReply &reply);

private:
    LanguageModelConfig m_config;
    ProviderClient *m_client;
};
