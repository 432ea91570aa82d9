#pragma once

// A local fake of Meta's Graph API for the WhatsApp Cloud API and the Instagram Send API, on plain
// HTTP loopback (our HttpEngine; ChannelUrls allows http on loopback). It checks the shape of our
// requests (path, bearer token, JSON fields, docs/channels.md §1 and §3), records them, and answers like
// Meta: a wamid / {recipient_id, message_id}, or the Graph error it was told to give, or nothing at
// all while it is down (connection refused). MetaWebhook builds and signs the webhook bodies Meta
// would send to our server.

#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QUrlQuery>

#include <deque>
#include <memory>

class HttpEngine;

class FakeGraphApi : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        QByteArray method;
        QString path; // without the version prefix: "/106540352242922/messages"
        QUrlQuery query;
        QByteArray authorization;
        QByteArray contentType;
        QByteArray body;
        QJsonObject json;
        QString problem; // what was wrong with its shape (empty: nothing)
    };

    explicit FakeGraphApi(QObject *parent = nullptr);
    ~FakeGraphApi() override;

    // http://127.0.0.1:<port>/v19.0
    QString baseUrl() const;
    // Connection refused while down; the same port again when back up.
    void setDown(bool down);
    // The next sends (either channel) answer this Graph error, in order.
    void failNext(int code, int providerStatus = 400, const QString &details = {});
    // The next n sends answer 130429 (throughput limit).
    void throttle(int n);

    QString phoneNumberId = QStringLiteral("106540352242922");
    QString instagramAccountId = QStringLiteral("17841400000000001");
    QString token = QStringLiteral("EAAtest-token");

    QList<Request> requests;
    // Files uploaded to POST /{phoneNumberId}/media.
    struct Upload
    {
        QString filename;
        QByteArray mimeType;
        QByteArray bytes;
    };
    QList<Upload> uploads;
    // The POST .../messages requests only.
    QList<Request> sends() const;
    QStringList problems() const;

Q_SIGNALS:
    void received();

private:
    struct Failure
    {
        int code;
        int status;
        QString details;
    };
    void start();
    HttpResponse handle(Request &r);

    std::unique_ptr<HttpEngine> m_engine;
    quint16 m_port = 0;
    std::deque<Failure> m_failures;
    int m_next = 1;
};

namespace MetaWebhook {
// X-Hub-Signature-256 of a body.
QByteArray sign(const QByteArray &body, const QString &secret);
// POSTs the body to our server (no bearer), signed with secret unless signature is given (an empty
// signature sends no header).
HttpResult post(const QString &serverUrl, const QSslCertificate &ca, const QString &path, const QByteArray &body,
                const QString &secret);
HttpResult postWithSignature(const QString &serverUrl, const QSslCertificate &ca, const QString &path,
                             const QByteArray &body, const QByteArray &signature);
QByteArray bytes(const QJsonObject &body);

// WhatsApp: one change of field "messages" with the given value parts.
QJsonObject whatsapp(const QJsonObject &value, const QString &phoneNumberId = QStringLiteral("106540352242922"));
QJsonObject whatsappMessages(const QString &waId, const QString &name, const QJsonArray &messages,
                             const QString &phoneNumberId = QStringLiteral("106540352242922"));
QJsonObject whatsappText(const QString &waId, const QString &name, const QString &wamid, const QString &text);
QJsonObject whatsappStatus(const QString &wamid, const QString &status, const QString &recipient,
                           const QJsonArray &errors = {});
// Instagram: entry[0].messaging = items.
QJsonObject instagram(const QJsonArray &messaging, const QString &accountId = QStringLiteral("17841400000000001"));
QJsonObject instagramMessage(const QString &igsid, const QJsonObject &message,
                             const QString &accountId = QStringLiteral("17841400000000001"));
} // namespace MetaWebhook
