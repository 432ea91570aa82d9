#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkRequest>
#include <QObject>
#include <QUrlQuery>

#include <functional>

class QHttpMultiPart;
class QNetworkAccessManager;
class QNetworkReply;

// What a provider answered to one request.
struct ProviderReply
{
    int status = 0;       // HTTP status; 0 when no answer came (networkError says why)
    QString networkError; // connection refused, TLS failure, timeout…
    QByteArray body;
    QJsonObject json; // the body when it is a JSON object
    QByteArray header(const QByteArray &name) const;
    QList<QPair<QByteArray, QByteArray>> headers;
    bool reached() const { return status > 0; }
};

// HTTP client of the channel connectors (delivery thread): one base URL (https, or http on a
// loopback address for local fakes; checked by ChannelUrls::allowed), TLS verified, every request
// bounded by the timeout. Callbacks run in the client's thread, exactly once each; requests still
// running when the client is destroyed are abandoned without a callback.
class ProviderClient : public QObject
{
    Q_OBJECT
public:
    using Callback = std::function<void(const ProviderReply &)>;

    ProviderClient(const QString &baseUrl, int timeoutSeconds, QObject *parent = nullptr);
    ~ProviderClient() override;

    // False (with why) when the base URL is not allowed: every request then fails at once.
    bool isValid(QString *why = nullptr) const;
    QString baseUrl() const { return m_base; }

    // base URL + path (path starts with '/'), with the query.
    QNetworkRequest request(const QString &path, const QUrlQuery &query = {}) const;
    void get(const QNetworkRequest &request, Callback done);
    void postJson(QNetworkRequest request, const QJsonObject &body, Callback done);
    void postForm(QNetworkRequest request, const QUrlQuery &form, Callback done);
    // Takes ownership of the multipart.
    void postMultipart(const QNetworkRequest &request, QHttpMultiPart *multipart, Callback done);
    // The bearer header most providers take.
    static void setBearer(QNetworkRequest &request, const QString &token);

private:
    void track(QNetworkReply *reply, Callback done);

    QString m_base;
    int m_timeoutMs;
    QNetworkAccessManager *m_nam;
};
