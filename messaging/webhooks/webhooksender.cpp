#include "messaging/webhooks/webhooksender.h"

#include "model/core/timeutil.h"
#include "model/webhooks/webhook.h"

#include <QHostAddress>
#include <QHostInfo>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QSslConfiguration>
#include <QTimer>

#include <algorithm>

namespace {
constexpr int kExcerptBytes = 1024;

IpAddress toIpAddress(const QHostAddress &a)
{
    IpAddress ip;
    if (a.protocol() == QAbstractSocket::IPv4Protocol) {
        const quint32 v4 = a.toIPv4Address();
        ip.bytes[10] = ip.bytes[11] = 0xff;
        for (int i = 0; i < 4; ++i)
            ip.bytes[12 + i] = quint8(v4 >> (24 - 8 * i));
    } else {
        const Q_IPV6ADDR v6 = a.toIPv6Address();
        std::copy(std::begin(v6.c), std::end(v6.c), ip.bytes.begin());
    }
    return ip;
}
} // namespace

WebhookSender::WebhookSender(WebhookConfig config, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_clock(&clock)
    , m_nam(new QNetworkAccessManager(this))
{
    m_nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_nam->setProxy(QNetworkProxy::NoProxy); // the address checked is the address connected to
}

WebhookSender::~WebhookSender()
{
    abandonAll();
}

void WebhookSender::abandonAll()
{
    const auto replies = m_replies;
    m_replies.clear();
    for (const Pending &p : std::as_const(m_pending))
        delete p.deadline;
    m_pending.clear();
    for (const QPointer<QNetworkReply> &reply : replies) {
        if (reply) {
            reply->disconnect(this);
            reply->abort();
            reply->deleteLater();
        }
    }
}

void WebhookSender::send(const QString &urlText, const QByteArray &body, const QString &secret, const QString &event,
                         const QString &deliveryId, Callback callback)
{
    const quint64 id = m_nextId++;
    Pending &p = m_pending[id];
    p.callback = std::move(callback);
    p.timer.start();
    // The whole attempt (DNS, connect, TLS, answer) must fit in the timeout.
    p.deadline = new QTimer(this);
    p.deadline->setSingleShot(true);
    connect(p.deadline, &QTimer::timeout, this, [this, id] {
        auto it = m_pending.find(id);
        if (it == m_pending.end())
            return;
        it->timedOut = true;
        QPointer<QNetworkReply> reply = m_replies.value(id);
        if (reply)
            reply->abort(); // finished() follows and reports the timeout
        else
            complete(id, {0, QStringLiteral("timeout after %1 s").arg(m_config.timeoutSeconds), 0, {}, false});
    });
    p.deadline->start(m_config.timeoutSeconds * 1000);

    const QUrl url(urlText);
    const QString host = url.host();
    const bool plainHttp = url.scheme().compare(QLatin1String("http"), Qt::CaseInsensitive) == 0;
    const WebhookPolicy policy = m_config.policy();
    const QByteArray signature = WebhookRules::signature(secret, body);
    auto refuse = [this, id] {
        QTimer::singleShot(0, this, [this, id] {
            complete(id, {0, WebhookRules::refusedTargetMessage(), 0, {}, false});
        });
    };
    if (const std::optional<IpAddress> literal = WebhookRules::literalAddress(host)) {
        if (!WebhookRules::allowsAddress(policy, plainHttp, *literal)) {
            refuse();
            return;
        }
        const QHostAddress address(literal->toString());
        QTimer::singleShot(0, this, [=] { post(id, url, address, body, signature, event, deliveryId); });
        return;
    }
    if (WebhookRules::refusesName(policy, plainHttp, host)) {
        refuse();
        return;
    }
    // The name is resolved here, every address it has is checked, and the request goes to one of
    // those very addresses (the URL's host replaced, the name kept for Host, SNI and the certificate
    // check): an answer that changes between the check and the connection cannot slip through.
    QHostInfo::lookupHost(host, this, [=](const QHostInfo &info) {
        if (!m_pending.contains(id))
            return;
        if (info.error() != QHostInfo::NoError || info.addresses().isEmpty()) {
            complete(id,
                     {0, QStringLiteral("DNS lookup of %1 failed: %2").arg(host, info.errorString()), 0, {}, false});
            return;
        }
        const QList<QHostAddress> addresses = info.addresses();
        for (const QHostAddress &a : addresses) {
            if (!WebhookRules::allowsAddress(policy, plainHttp, toIpAddress(a))) {
                complete(id, {0, WebhookRules::refusedTargetMessage(), 0, {}, false});
                return;
            }
        }
        // IPv4 first: a machine without an IPv6 route still reaches a receiver that has both.
        const auto v4 = std::find_if(addresses.begin(), addresses.end(), [](const QHostAddress &a) {
            return a.protocol() == QAbstractSocket::IPv4Protocol;
        });
        post(id, url, v4 != addresses.end() ? *v4 : addresses.first(), body, signature, event, deliveryId);
    });
}

void WebhookSender::post(quint64 id, const QUrl &url, const QHostAddress &address, const QByteArray &body,
                         const QByteArray &signature, const QString &event, const QString &deliveryId)
{
    if (!m_pending.contains(id))
        return;
    QUrl target = url;
    target.setHost(address.toString());
    QNetworkRequest request(target);
    if (!WebhookRules::literalAddress(url.host())) {
        QByteArray hostHeader = url.host(QUrl::FullyEncoded).toLatin1();
        if (url.port() != -1)
            hostHeader += ':' + QByteArray::number(url.port());
        request.setRawHeader("Host", hostHeader);
        request.setPeerVerifyName(url.host());
    }
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("Liaison-Webhooks/1.0"));
    request.setRawHeader("X-Service-Signature", signature);
    request.setRawHeader("X-Service-Event", event.toUtf8());
    request.setRawHeader("X-Service-Delivery", deliveryId.toUtf8());
    request.setRawHeader("X-Service-Timestamp", TimeUtil::iso(m_clock->now()).toLatin1());
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    if (!m_config.caCertificates.isEmpty())
        ssl.addCaCertificates(m_config.caCertificates);
    if (!m_config.verifyTls)
        ssl.setPeerVerifyMode(QSslSocket::VerifyNone);
    request.setSslConfiguration(ssl);

    QNetworkReply *reply = m_nam->post(request, body);
    m_replies.insert(id, reply);
    connect(reply, &QNetworkReply::readyRead, this, [this, id, reply] {
        auto it = m_pending.find(id);
        // Only an excerpt is kept; the rest is read and dropped so that a big answer costs no memory.
        while (reply->bytesAvailable() > 0) {
            const QByteArray chunk = reply->read(16 * 1024);
            if (it != m_pending.end() && it->excerpt.size() < kExcerptBytes)
                it->excerpt.append(chunk.left(kExcerptBytes - it->excerpt.size()));
        }
    });
    connect(reply, &QNetworkReply::finished, this, [this, id, reply] { finished(id, reply); });
}

void WebhookSender::finished(quint64 id, QNetworkReply *reply)
{
    reply->deleteLater();
    m_replies.remove(id);
    auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    while (reply->bytesAvailable() > 0 && it->excerpt.size() < kExcerptBytes)
        it->excerpt.append(reply->read(kExcerptBytes - it->excerpt.size()));
    WebhookAttemptResult r;
    r.statusCode = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.responseExcerpt = QString::fromUtf8(it->excerpt);
    if (it->timedOut) {
        r.statusCode = 0;
        r.error = QStringLiteral("timeout after %1 s").arg(m_config.timeoutSeconds);
    } else if (r.statusCode >= 200 && r.statusCode < 300) {
        r.success = true;
    } else if (r.statusCode >= 300 && r.statusCode < 400) {
        r.error = QStringLiteral("HTTP %1: redirect to %2 not followed")
                      .arg(r.statusCode)
                      .arg(QString::fromUtf8(reply->rawHeader("Location")).left(300));
    } else if (r.statusCode > 0) {
        r.error = QStringLiteral("HTTP %1").arg(r.statusCode);
    } else {
        r.error = reply->errorString();
    }
    complete(id, r);
}

void WebhookSender::complete(quint64 id, WebhookAttemptResult result)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    Pending p = std::move(*it);
    m_pending.erase(it);
    m_replies.remove(id);
    if (p.deadline)
        p.deadline->deleteLater();
    result.latencyMs = int(p.timer.elapsed());
    if (p.callback)
        p.callback(result);
}
