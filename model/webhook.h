#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

// Outgoing webhook subscriptions, their deliveries and attempts; incoming webhook endpoints and
// their calls. Stored by WebhookRepository and IncomingWebhookRepository (migration 5).

struct WebhookSubscription
{
    qint64 seq = 0;
    QString id; // wh_…
    QString url;
    QStringList events; // known event names, or "*"
    QString secret;     // never in toJson(): only a hint
    QString description;
    bool active = true;
    int failureCount = 0; // failed attempts since the last success or enable
    QString disabledReason;
    QString disabledAt;
    QString createdAt;
    QString updatedAt;

    bool matches(const QString &event) const;
    // "…3f9a": the last four characters, enough to tell two secrets apart.
    QString secretHint() const;
    QJsonObject toJson() const;
};

struct WebhookDelivery
{
    qint64 seq = 0;
    QString id; // whd_…
    QString webhookId;
    QString eventId;
    QString event;
    QByteArray body; // the exact bytes sent (and signed)
    QString kind;    // "event", "test" (Send test in the window) or "redelivery"
    QString state;   // "pending", "in_flight", "succeeded", "failed"
    int attempts = 0;
    int failures = 0;
    QString nextAttemptAt;
    int lastStatus = 0;
    QString lastError;
    QString createdAt;

    QJsonObject toJson() const;
};

// One HTTP request of a delivery: a line of GET /webhooks/:id/logs.
struct WebhookAttempt
{
    qint64 seq = 0;
    QString deliveryId;
    QString webhookId;
    QString eventId;
    QString event;
    QString kind;
    int attempt = 0; // 1 = the first request, 2..6 = retries 1..5
    QString startedAt;
    QString finishedAt; // empty while in flight
    int statusCode = 0; // 0: no HTTP answer (see error)
    QString error;
    int latencyMs = -1;
    QString responseExcerpt;
    QString nextRetryAt;
    bool success = false;

    QJsonObject toJson() const;
};

struct IncomingWebhook
{
    qint64 seq = 0;
    QString id; // iwh_<40 hex>: unguessable, it is the address
    QString name;
    QString action;
    QString secret; // empty: calls are not signed
    QString createdAt;
    QString lastCallAt;
    int callCount = 0;

    // path: "/webhooks/incoming/<id>"; baseUrl may be empty.
    QJsonObject toJson(const QString &baseUrl) const;
};

struct IncomingWebhookCall
{
    qint64 seq = 0;
    QString id; // iwc_…
    QString endpointId;
    QString receivedAt;
    QString event;
    QString outcome; // "processed", "rejected", "failed" ("stored": message.received before it recorded messages)
    int statusCode = 0;
    QString error;
    QString resultId; // e.g. the contact created or updated
    QByteArray body;

    QJsonObject toJson() const;
};

// The event names of the spec's Events table and a sample `data` for each (POST /webhooks/:id/test).
namespace WebhookEvents {
QStringList all();
bool isKnown(const QString &event);
QJsonObject sample(const QString &event);
// A whole test envelope {id, event, timestamp, data, test: true} as compact bytes.
QByteArray testBody(const QString &event);
} // namespace WebhookEvents

namespace WebhookRules {
// Checks a receiver URL: https, or plain http to a loopback host when allowInsecureLocal; a host
// that is a link-local/metadata address (169.254.0.0/16, fe80::/10) is refused. Empty when fine,
// else the reason.
QString checkUrl(const QString &url, bool allowInsecureLocal);
bool isLoopbackHost(const QString &host);
bool isLinkLocalHost(const QString &host);
// "whsec_" + 32 random bytes in base64url: 49 characters.
QString generateSecret();
constexpr int kMinSecretLength = 16;
constexpr int kMaxSecretLength = 256;
// "sha256=" + lowercase hex HMAC-SHA256 of body keyed with secret.
QByteArray signature(const QString &secret, const QByteArray &body);
// Constant-time check of a received X-Service-Signature header.
bool verifySignature(const QString &secret, const QByteArray &body, const QByteArray &header);
} // namespace WebhookRules

namespace IncomingActions {
// contact.upsert, deal.upsert, task.create, message.received
QStringList all();
} // namespace IncomingActions
