#pragma once

// A local Telegram Bot API for tests (docs/channels.md §2) on plain HTTP loopback (our HttpEngine):
// {baseUrl}/bot<token>/<method>, parameters from a JSON body or the query string. It checks our
// requests (the token in the path, chat_id, each method's fields, caption and text lengths,
// reply_markup's inline keyboard) and lists what it found wrong in problems(); holds getUpdates
// until an update is queued or its timeout passes; answers 429 with retry_after when told, 409 to
// getUpdates while a webhook is set, 403 for a chat that blocked the bot, 400 for an unknown chat.

#include "server/http/httpengine.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QSet>
#include <QStringList>

#include <memory>

class FakeTelegram : public QObject
{
    Q_OBJECT
public:
    struct Call
    {
        QString method;     // "sendMessage"
        QJsonObject params; // the JSON body (or query) as received
        qint64 atMs = 0;    // ms since the epoch
        int status = 0;     // what the fake answered (0: held getUpdates not answered yet)
    };

    explicit FakeTelegram(const QString &token = QStringLiteral("123456:TEST-token_abc"), QObject *parent = nullptr);
    ~FakeTelegram() override;

    QString baseUrl() const;
    QString token() const { return m_token; }
    qint64 botId() const { return m_token.section(QLatin1Char(':'), 0, 0).toLongLong(); }

    // Every call, in order; sends(): the send* calls that were answered 200.
    const QList<Call> &calls() const { return m_calls; }
    QList<Call> sends() const;
    QList<Call> callsOf(const QString &method) const;
    QStringList problems() const { return m_problems; }

    // Queues an update (update_id assigned when missing; returned) and answers a held getUpdates.
    qint64 queueUpdate(QJsonObject update);
    // A text message update from a private chat.
    qint64 queueText(qint64 chatId, const QString &text, const QString &firstName = QStringLiteral("Ann"),
                     const QString &lastName = {}, const QString &username = QStringLiteral("ann"));
    // The offset getUpdates last confirmed (updates below it are gone).
    qint64 confirmedOffset() const { return m_confirmed; }
    // Keep confirmed updates (a bot that crashed before confirming sees them again).
    bool redeliverConfirmed = false;

    // The next `count` send* calls answer 429 with retry_after.
    void throttleSends(int count, int retryAfterSeconds);
    // Sends to this chat answer 403 "Forbidden: bot was blocked by the user".
    void blockChat(const QString &chatId) { m_blocked.insert(chatId); }
    // Sends to this chat answer 400 "Bad Request: chat not found".
    void unknownChat(const QString &chatId) { m_unknown.insert(chatId); }
    // The next `count` calls of any method answer this status (500, 502…).
    void failNext(int count, int status) { m_failCount = count, m_failStatus = status; }
    // getUpdates answers 409 while a webhook is set (setWebhook sets it, deleteWebhook clears it).
    void setWebhookUrl(const QString &url) { m_webhookUrl = url; }
    QString webhookUrl() const { return m_webhookUrl; }
    QString webhookSecret() const { return m_webhookSecret; }

Q_SIGNALS:
    void called(const QString &method);

private:
    struct Held
    {
        HttpResponder responder;
        qint64 offset = 0;
        int callIndex = -1;
        int timerId = 0;
    };
    void handle(const HttpRequest &request, const HttpResponder &responder);
    QJsonObject params(const HttpRequest &request, bool *ok);
    void problem(const QString &what) { m_problems << what; }
    QJsonArray pendingFrom(qint64 offset) const;
    void confirm(qint64 offset);
    void answerHeld();
    void timerEvent(QTimerEvent *event) override;
    QJsonObject sendMessageResult(const QString &chatId, const QString &method, const QJsonObject &params);

    QString m_token;
    std::unique_ptr<HttpEngine> m_engine;
    QList<Call> m_calls;
    QStringList m_problems;
    QList<QJsonObject> m_updates;
    qint64 m_nextUpdateId = 100000;
    qint64 m_confirmed = 0;
    qint64 m_nextMessageId = 1;
    QList<Held> m_held;
    int m_throttleCount = 0;
    int m_retryAfter = 0;
    int m_failCount = 0;
    int m_failStatus = 500;
    QSet<QString> m_blocked;
    QSet<QString> m_unknown;
    QString m_webhookUrl;
    QString m_webhookSecret;
};
