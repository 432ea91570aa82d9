#pragma once

#include "model/core/errors.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <array>
#include <optional>

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
QJsonObject sample(const QString &event, const QString &now);
// A whole test envelope {id, event, timestamp, data, test: true} as compact bytes.
QByteArray testBody(const QString &event, const QString &now);
} // namespace WebhookEvents

// Which receivers outgoing webhooks may reach (webhooks/allowedTargets): public addresses only,
// also private networks (a team's own automation server), or also this machine.
enum class WebhookTargets
{
    Public,
    Private,
    Local
};

// What an IP address is, for that rule. Never: link-local and cloud metadata (169.254.0.0/16,
// fe80::/10), multicast, reserved and broadcast ranges, Teredo: no setting reaches them.
enum class AddressScope
{
    Public,
    Private,
    Loopback,
    Never
};

// The rules of the install for outgoing subscriptions (from the "webhooks" settings).
struct WebhookPolicy
{
    static constexpr int kDefaultMaxSubscriptions = 25;
    WebhookTargets targets = WebhookTargets::Public;
    bool allowInsecureLocal = false; // webhooks/allowInsecureLocal: plain http to loopback receivers
    // webhooks/maxSubscriptions: every event is stored once per subscription, so their number
    // multiplies the delivery work and the log.
    int maxSubscriptions = kDefaultMaxSubscriptions;
};

// An IPv6 address in network order; an IPv4 address is held IPv4-mapped (::ffff:a.b.c.d).
struct IpAddress
{
    std::array<quint8, 16> bytes{};
    bool isV4Mapped() const;
    QString toString() const;
};

namespace WebhookRules {
// The one message for a receiver whose address is not allowed, at creation, at delivery and from
// the test endpoint alike: it tells nothing about the address, the port or why.
QString refusedTargetMessage();
// Checks a receiver URL: https, or plain http to a loopback host when allowInsecureLocal; a host
// written as an address (in any form, see literalAddress) or named localhost must be allowed by
// the policy. Names are checked again on their resolved addresses at each delivery. Null when
// fine, else the reason.
ModelText urlProblem(const QString &url, const WebhookPolicy &policy = {});
// The reason of urlProblem() in English; empty when fine.
QString checkUrl(const QString &url, const WebhookPolicy &policy = {});
// The address a URL's host names literally, in every form a resolver reads: IPv6 with or without
// brackets (IPv4-mapped and -compatible included), IPv4 as inet_aton reads it: 1 to 4 parts, each
// decimal, octal (leading 0) or hexadecimal (0x), so "127.1", "2130706433", "0x7f000001",
// "017700000001" and "0" are all addresses. Nullopt for a name.
std::optional<IpAddress> literalAddress(const QString &host);
AddressScope scopeOf(const IpAddress &address);
// Whether a receiver at `address` may be reached: plain http only on loopback with
// allowInsecureLocal; https by the policy's targets.
bool allowsAddress(const WebhookPolicy &policy, bool plainHttp, const IpAddress &address);
// A name that is refused before any lookup: "localhost" and "*.localhost" unless loopback is
// allowed, and the cloud metadata name.
bool refusesName(const WebhookPolicy &policy, bool plainHttp, const QString &host);
// "public", "private", "local"
bool parseTargets(const QString &text, WebhookTargets *out);
QString targetsName(WebhookTargets targets);
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
