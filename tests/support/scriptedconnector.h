#pragma once

// A channel connector for tests: answers each send with the next scripted outcome (Sent with
// "wamid.<message id>" when none is left) after delayMs, and records every send.
#include "messaging/channels/channelconnector.h"

#include <QDateTime>
#include <QTimer>

#include <deque>

class ScriptedConnector final : public ChannelConnector
{
public:
    explicit ScriptedConnector(QString channel = QStringLiteral("whatsapp"))
        : m_channel(std::move(channel))
    {
    }
    QString channel() const override { return m_channel; }
    void send(const Message &message, const QString &to, std::function<void(const SendOutcome &)> done) override
    {
        sends.append({message.id, to, QDateTime::currentMSecsSinceEpoch()});
        messages.append(message);
        SendOutcome outcome = SendOutcome::sent(QStringLiteral("wamid.") + message.id);
        if (!script.empty()) {
            outcome = script.front();
            script.pop_front();
        }
        QTimer::singleShot(delayMs, this, [done, outcome]() { done(outcome); });
    }
    void probe(std::function<void(bool, const QString &)> done) override { done(probeOk, QStringLiteral("probe")); }

    struct Sent
    {
        QString messageId;
        QString to;
        qint64 atMs;
    };
    QList<Sent> sends;
    QList<Message> messages;
    std::deque<SendOutcome> script;
    int delayMs = 0;
    bool probeOk = true;

private:
    QString m_channel;
};
