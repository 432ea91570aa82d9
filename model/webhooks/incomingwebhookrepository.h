#pragma once

#include "model/webhooks/webhook.h"

#include <QJsonObject>

#include <optional>

class EventBus;

// What an incoming webhook call is answered: the HTTP status and either data or an error.
struct IncomingResult
{
    int status = 200;
    QString code; // error code when status >= 400
    QString message;
    QJsonObject data;
    QJsonObject details;
};

// Incoming webhook endpoints (POST {base}/webhooks/incoming/<id>) and the log of their calls.
// An endpoint runs one action with the call's data: contact.upsert (create, or update the contact
// with the same e-mail, else the same phone), deal.upsert, task.create, message.received (stored
// in the call log until conversations exist). Usable from any thread.
class IncomingWebhookRepository
{
public:
    explicit IncomingWebhookRepository(EventBus *bus = nullptr);

    struct Saved
    {
        IncomingWebhook endpoint;
        QString secret; // when one was generated: shown once
    };
    // {name, action, secret?}: secret a string of 16+ characters, or true to generate one; absent: unsigned.
    Saved create(const QJsonObject &body, const QString &actor = {});
    void remove(const QString &id);
    std::optional<IncomingWebhook> find(const QString &id) const;
    IncomingWebhook get(const QString &id) const;
    QVector<IncomingWebhook> list(int page = 1, int limit = 1000, qint64 *total = nullptr) const;
    // Newest first; endpointId empty: all endpoints.
    QVector<IncomingWebhookCall> calls(const QString &endpointId, int page, int limit, qint64 *total = nullptr) const;

    // Handles one call: 404 unknown endpoint (not logged), 401 bad or missing signature when the
    // endpoint has a secret, 400 malformed body ({event: string, data: object}), then the action.
    // Every call to a known endpoint is logged.
    IncomingResult receive(const QString &endpointId, const QByteArray &body, const QByteArray &signatureHeader,
                           const QString &actor = {});

private:
    IncomingResult run(const IncomingWebhook &endpoint, const QString &event, const QJsonObject &data,
                       QString *resultId);

    EventBus *m_bus;
};
