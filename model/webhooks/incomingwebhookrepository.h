#pragma once

#include "model/core/store.h"
#include "model/webhooks/webhook.h"
#include "model/webhooks/webhookchanges.h"

#include <QJsonObject>

#include <optional>

// What an incoming webhook call's action did: a message, the data answered, the record it made.
struct IncomingOutcome
{
    QString message;
    QJsonObject data;
    QString resultId;
};

// Incoming webhook endpoints (POST {base}/webhooks/incoming/<id>) and the log of their calls.
// An endpoint runs one action with the call's data: contact.upsert (create, or update the contact
// with the same e-mail, else the same phone), deal.upsert, task.create, message.received (stored
// in the call log until conversations exist). Usable from any thread.
class IncomingWebhookRepository
{
public:
    explicit IncomingWebhookRepository(const Store &store);

    struct Saved
    {
        IncomingWebhook endpoint;
        QString secret; // when one was generated: shown once
    };
    // name, action, and a secret of 16+ characters or one generated; none: unsigned. Checked here
    // (WebhookRules::checkIncoming) however it was filled in.
    Saved create(IncomingWebhookChanges changes, const QString &actor = {});
    void remove(const QString &id);
    std::optional<IncomingWebhook> find(const QString &id) const;
    IncomingWebhook get(const QString &id) const;
    QVector<IncomingWebhook> list(int page = 1, int limit = 1000, qint64 *total = nullptr) const;
    // Newest first; endpointId empty: all endpoints.
    QVector<IncomingWebhookCall> calls(const QString &endpointId, int page, int limit, qint64 *total = nullptr) const;

    // A call, step by step (the server's receiver runs them and answers):
    // 1. check(): the signature when the endpoint has a secret (DomainError Unauthorized,
    //    INVALID_SIGNATURE) and the body's form {event: string, data: object} (BadRequest); gives
    //    the event name (also of a refused body, when it has one) and the data.
    void check(const IncomingWebhook &endpoint, const QByteArray &body, const QByteArray &signatureHeader,
               QString *event, QJsonObject *data) const;
    // 2. run(): the endpoint's action with the data; throws the action's DomainError, or
    //    Unprocessable ACTION_NOT_AVAILABLE.
    IncomingOutcome run(const IncomingWebhook &endpoint, const QJsonObject &data);
    // 3. recordCall(): the call log row (outcome "processed", "failed" or "rejected"; statusCode: what
    //    the caller was answered) and the endpoint's count; returns the call's id.
    QString recordCall(const IncomingWebhook &endpoint, const QString &event, const QString &outcome, int statusCode,
                       const QString &error, const QString &resultId, const QByteArray &body);

    Store m_store;
};
