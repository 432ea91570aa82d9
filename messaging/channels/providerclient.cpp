#include "messaging/channels/providerclient.h"

#include "messaging/channels/channelconfig.h"

#include <QHttpMultiPart>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>

QByteArray ProviderReply::header(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

ProviderClient::ProviderClient(const QString &baseUrl, int timeoutSeconds, QObject *parent)
    : QObject(parent)
    , m_base(baseUrl.endsWith(QLatin1Char('/')) ? baseUrl.chopped(1) : baseUrl)
    , m_timeoutMs(qMax(1, timeoutSeconds) * 1000)
    , m_nam(new QNetworkAccessManager(this))
{
    m_nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
}

ProviderClient::~ProviderClient()
{
    // Replies are children of the manager: disconnect them so that no callback runs during teardown.
    for (QNetworkReply *reply : findChildren<QNetworkReply *>()) {
        reply->disconnect(this);
        reply->abort();
    }
}

bool ProviderClient::isValid(QString *why) const
{
    return ChannelUrls::allowed(QUrl(m_base), why);
}

QNetworkRequest ProviderClient::request(const QString &path, const QUrlQuery &query) const
{
    QUrl url(m_base + path);
    if (!query.isEmpty())
        url.setQuery(query);
    QNetworkRequest r(url);
    r.setTransferTimeout(m_timeoutMs);
    r.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("Liaison"));
    return r;
}

void ProviderClient::setBearer(QNetworkRequest &request, const QString &token)
{
    request.setRawHeader("Authorization", "Bearer " + token.toUtf8());
}

void ProviderClient::get(const QNetworkRequest &request, Callback done)
{
    QString why;
    if (!isValid(&why)) {
        done({0, QStringLiteral("base URL %1 refused: %2").arg(m_base, why), {}, {}, {}});
        return;
    }
    track(m_nam->get(request), std::move(done));
}

void ProviderClient::postJson(QNetworkRequest request, const QJsonObject &body, Callback done)
{
    QString why;
    if (!isValid(&why)) {
        done({0, QStringLiteral("base URL %1 refused: %2").arg(m_base, why), {}, {}, {}});
        return;
    }
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    track(m_nam->post(request, QJsonDocument(body).toJson(QJsonDocument::Compact)), std::move(done));
}

void ProviderClient::postForm(QNetworkRequest request, const QUrlQuery &form, Callback done)
{
    QString why;
    if (!isValid(&why)) {
        done({0, QStringLiteral("base URL %1 refused: %2").arg(m_base, why), {}, {}, {}});
        return;
    }
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/x-www-form-urlencoded"));
    track(m_nam->post(request, form.toString(QUrl::FullyEncoded).toUtf8()), std::move(done));
}

void ProviderClient::postMultipart(const QNetworkRequest &request, QHttpMultiPart *multipart, Callback done)
{
    QString why;
    if (!isValid(&why)) {
        delete multipart;
        done({0, QStringLiteral("base URL %1 refused: %2").arg(m_base, why), {}, {}, {}});
        return;
    }
    QNetworkReply *reply = m_nam->post(request, multipart);
    multipart->setParent(reply);
    track(reply, std::move(done));
}

void ProviderClient::track(QNetworkReply *reply, Callback done)
{
    connect(reply, &QNetworkReply::finished, this, [reply, done = std::move(done)]() {
        reply->deleteLater();
        ProviderReply r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = reply->readAll();
        for (const auto &h : reply->rawHeaderPairs())
            r.headers.append(h);
        if (r.status == 0) {
            r.networkError = reply->error() == QNetworkReply::OperationCanceledError ? QStringLiteral("timed out")
                                                                                     : reply->errorString();
        }
        const QJsonDocument doc = QJsonDocument::fromJson(r.body);
        if (doc.isObject())
            r.json = doc.object();
        done(r);
    });
}
