#pragma once

#include "model/webhooks/webhook.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

// What a create or an update of an outgoing subscription sets; an update leaves an unset field as
// it is. events: known event names, or "*".
struct WebhookChanges
{
    std::optional<QString> url;
    std::optional<QStringList> events;
    std::optional<QString> secret; // absent on create: one is generated
    std::optional<QString> description;
    std::optional<bool> active;
    bool rotateSecret = false; // update only: generate a new secret
};

// What a new incoming webhook endpoint is: a name, its action (IncomingActions::all()) and, when its
// calls must be signed, a secret given or generated.
struct IncomingWebhookChanges
{
    QString name;
    QString action;
    QString secret;              // empty: unsigned, unless generateSecret
    bool generateSecret = false; // a secret is generated (and shown once)
};

namespace WebhookRules {
// Reads a subscription's request body: BadRequest naming every field of a wrong type or format (each
// with its first problem). Empty url or events read as absent.
WebhookChanges parse(const QJsonObject &body, const WebhookPolicy &policy);
// The same field rules on changes however they were filled in (the repository checks every write),
// normalising them as it goes (url and description trimmed; events without repeats, "*" alone);
// then, creating: Unprocessable for a missing url or events; updating: BadRequest for a secret with rotateSecret.
void check(WebhookChanges &changes, const WebhookPolicy &policy, bool creating);

// Reads an incoming endpoint's request body {name, action, secret?}: secret a string, or true to
// generate one. BadRequest for wrong types or formats, then Unprocessable for what is missing.
IncomingWebhookChanges parseIncoming(const QJsonObject &body);
// The same rules on an endpoint however it was filled in; trims the name.
void checkIncoming(IncomingWebhookChanges &changes);
} // namespace WebhookRules
