#pragma once

#include "messaging/webhooks/webhookconfig.h"
#include "model/webhooks/webhookrepository.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <functional>

class QHostAddress;
class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

// Sends one signed webhook request: POST with Content-Type application/json and the X-Service-*
// headers, no redirects followed, no proxy, TLS verified unless the config says otherwise, a total
// deadline of timeoutSeconds. The receiver's address must be allowed by webhooks/allowedTargets
// (WebhookRules::allowsAddress): a name is resolved first, all its addresses are checked, and the
// request is sent to a checked address. The callback gets the result once, in this object's thread.
class WebhookSender : public QObject
{
    Q_OBJECT
public:
    using Callback = std::function<void(const WebhookAttemptResult &)>;

    // clock: the time of the X-Service-Timestamp header.
    WebhookSender(WebhookConfig config, const Clock &clock, QObject *parent = nullptr);
    ~WebhookSender() override;

    void send(const QString &url, const QByteArray &body, const QString &secret, const QString &event,
              const QString &deliveryId, Callback callback);
    // Aborts every request without calling back (used on shutdown: those deliveries stay in flight
    // in the database and are sent again at the next start).
    void abandonAll();
    int inFlight() const { return int(m_pending.size()); }

private:
    struct Pending
    {
        Callback callback;
        QElapsedTimer timer;
        QByteArray excerpt;
        QTimer *deadline = nullptr;
        bool timedOut = false;
    };
    void post(quint64 id, const QUrl &url, const QHostAddress &address, const QByteArray &body,
              const QByteArray &signature, const QString &event, const QString &deliveryId);
    void complete(quint64 id, WebhookAttemptResult result);
    void finished(quint64 id, QNetworkReply *reply);

    WebhookConfig m_config;
    const Clock *m_clock;
    QNetworkAccessManager *m_nam;
    quint64 m_nextId = 1;
    QHash<quint64, Pending> m_pending;
    QHash<quint64, QPointer<QNetworkReply>> m_replies;
};
