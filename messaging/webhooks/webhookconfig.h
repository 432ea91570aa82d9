#pragma once

#include "model/webhooks/webhook.h"

#include <QList>

#include <QSslCertificate>
#include <iterator>

// Settings of outgoing webhooks (section "webhooks" of liaison.ini), read by AppSettings.
struct WebhookConfig
{
    // Seconds before retries 1..n (webhooks/retryDelays, comma-separated); after the last retry
    // fails the subscription is disabled.
    static constexpr int kDefaultRetryDelays[] = {60, 300, 1800, 7200, 86400};
    QList<int> retryDelays = QList<int>(std::begin(kDefaultRetryDelays), std::end(kDefaultRetryDelays));
    int timeoutSeconds = 30; // webhooks/timeoutSeconds: a 2xx must arrive within it
    // A claimed delivery stays this copy's for timeoutSeconds and this margin; after it, another
    // copy sharing the PostgreSQL database sends it again (the first one stopped mid-attempt).
    int leaseMarginSeconds = 60;     // webhooks/leaseMarginSeconds
    bool verifyTls = true;           // webhooks/verifyTls: false only for testing (a warning is logged)
    bool allowInsecureLocal = false; // webhooks/allowInsecureLocal: plain http to loopback receivers
    WebhookTargets allowedTargets = WebhookTargets::Public; // webhooks/allowedTargets: public, private, local
    int concurrencyPerSubscription = 1;    // webhooks/concurrencyPerSubscription: 1 keeps strict event order
    int maxConcurrent = 16;                // webhooks/maxConcurrent: requests in flight in all
    int pollIntervalMs = 1000;             // webhooks/pollIntervalMs: outbox polling besides event-bus wake-ups
    QList<QSslCertificate> caCertificates; // webhooks/caFile: extra trusted CAs (PEM) for private receivers

    int maxSubscriptions = WebhookPolicy::kDefaultMaxSubscriptions; // webhooks/maxSubscriptions
    int logRetentionDays = 30; // webhooks/logRetentionDays: finished deliveries and incoming calls kept

    WebhookPolicy policy() const { return {allowedTargets, allowInsecureLocal, maxSubscriptions}; }
};
