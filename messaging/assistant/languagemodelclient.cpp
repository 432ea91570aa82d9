#include "messaging/assistant/languagemodelclient.h"

#include "messaging/channels/providerclient.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QTimer>

namespace {

QString languageName(const QString &language)
{
    if (language == QLatin1String("tr"))
        return QStringLiteral("Turkish");
    if (language == QLatin1String("en"))
        return QStringLiteral("English");
    return language;
}

} // namespace

LanguageModelClient::LanguageModelClient(const LanguageModelConfig &config, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_client(new ProviderClient(config.baseUrl.trimmed(), qMax(1, config.timeoutSeconds), this))
{
}

LanguageModelClient::~LanguageModelClient() = default;

bool LanguageModelClient::isValid(QString *why) const
{
    return m_config.enabled() && m_client->isValid(why);
}

QJsonObject LanguageModelClient::requestBody(const LanguageModelConfig &config, const PhrasingRequest &request)
{
    QString system =
        QStringLiteral("You answer a shop's customers for its support team. Use ONLY the knowledge entries below; "
                       "never add facts, prices, dates or promises that are not in them. Answer in %1, briefly "
                       "and politely, as a chat message. If the entries do not answer the customer's question, "
                       "reply with the single word %2 and nothing else.\n\nKnowledge entries:")
            .arg(languageName(request.language), QLatin1String(kDeclineWord));
    int n = 0;
    for (const KnowledgeEntry &e : request.entries)
        system += QStringLiteral("\n[%1] Question: %2\nAnswer: %3").arg(++n).arg(e.question, e.answer);
    QJsonArray messages{
        QJsonObject{{QStringLiteral("role"), QStringLiteral("system")}, {QStringLiteral("content"), system}}};
    for (const ChatTurn &t : request.history) {
        if ((t.role == QLatin1String("user") || t.role == QLatin1String("assistant")) && !t.content.isEmpty())
            messages.append(QJsonObject{{QStringLiteral("role"), t.role}, {QStringLiteral("content"), t.content}});
    }
    messages.append(
        QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), request.question}});
    QJsonObject body{{QStringLiteral("messages"), messages},
                     {QStringLiteral("temperature"), 0.2},
                     {QStringLiteral("max_tokens"), 400},
                     {QStringLiteral("stream"), false}};
    if (!config.model.isEmpty())
        body.insert(QStringLiteral("model"), config.model);
    return body;
}

Phrasing LanguageModelClient::readReply(const ProviderReply &reply)
{
    Phrasing p;
    if (!reply.reached()) {
        p.error = reply.networkError;
        return p;
    }
    if (reply.status < 200 || reply.status >= 300) {
        const QJsonValue message =
            reply.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("message"));
        p.error = QStringLiteral("HTTP %1%2")
                      .arg(reply.status)
                      .arg(message.isString() ? QStringLiteral(": ") + message.toString() : QString());
        return p;
    }
    const QString text = reply.json.value(QStringLiteral("choices"))
                             .toArray()
                             .at(0)
                             .toObject()
                             .value(QStringLiteral("message"))
                             .toObject()
                             .value(QStringLiteral("content"))
                             .toString()
                             .trimmed();
    if (text.isEmpty()) {
        p.error = QStringLiteral("the answer held no text");
        return p;
    }
    QString bare = text;
    bare.remove(QLatin1Char('.')).remove(QLatin1Char('"')).remove(QLatin1Char('*'));
    if (bare.trimmed().compare(QLatin1String(kDeclineWord), Qt::CaseInsensitive) == 0) {
        p.outcome = Phrasing::Declined;
        return p;
    }
    p.outcome = Phrasing::Phrased;
    p.text = text;
    return p;
}

void LanguageModelClient::phrase(const PhrasingRequest &request, const std::function<void(const Phrasing &)> &done)
{
    QString why;
    if (!isValid(&why)) {
        Phrasing p;
        p.error = m_config.enabled() ? why : QStringLiteral("no language model is set up");
        done(p);
        return;
    }
    QNetworkRequest r = m_client->request(QStringLiteral("/chat/completions"));
    if (!m_config.apiKey.isEmpty())
        ProviderClient::setBearer(r, m_config.apiKey);
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    m_client->postJson(r, requestBody(m_config, request), [done, timer](const ProviderReply &reply) {
        Phrasing p = readReply(reply);
        p.latencyMs = int(timer->elapsed());
        done(p);
    });
}

Phrasing LanguageModelClient::phraseAndWait(const PhrasingRequest &request)
{
    // Shared with the callback, which may come after the wait gave up.
    struct Wait
    {
        Phrasing result;
        bool finished = false;
        QEventLoop *loop = nullptr;
    };
    auto wait = std::make_shared<Wait>();
    phrase(request, [wait](const Phrasing &p) {
        wait->result = p;
        wait->finished = true;
        if (wait->loop)
            wait->loop->quit();
    });
    if (wait->finished)
        return wait->result;
    QEventLoop loop;
    wait->loop = &loop;
    QTimer guard;
    guard.setSingleShot(true);
    QObject::connect(&guard, &QTimer::timeout, &loop, &QEventLoop::quit);
    guard.start((qMax(1, m_config.timeoutSeconds) + 2) * 1000);
    loop.exec();
    wait->loop = nullptr;
    if (!wait->finished)
        wait->result.error = QStringLiteral("no answer within %1 s").arg(m_config.timeoutSeconds);
    return wait->result;
}
