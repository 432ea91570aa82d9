#include "webhooksender.h"

#include "timeutil.h"
#include "webhook.h"

#include <QHostAddress>
#include <QHostInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslConfiguration>
#include <QTimer>

namespace {
constexpr int kExcerptBytes = 1024;

bool isRefusedAddress(const QHostAddress &a)
{
    // 169.254.0.0/16 (link-local, cloud metadata at 169.254.169.254) and fe80::/10, also IPv4-mapped.
    bool mapped = false;
    const quint32 v4 = a.toIPv4Address(&mapped);
    if (mapped || a.protocol() == QAbstractSocket::IPv4Protocol)
        return (v4 >> 16) == ((169u << 8) | 254u);
    return a.isLinkLocal();
}
} // namespace

WebhookSender::WebhookSender(WebhookConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_nam(new QNetworkAccessManager(this))
{
    m_nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
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
    const QByteArray signature = WebhookRules::signature(secret, body);
    auto refuse = [this, id](const QString &why) {
        QTimer::singleShot(0, this, [this, id, why] { complete(id, {0, why, 0, {}, false}); });
    };
    if (WebhookRules::isLinkLocalHost(host)) {
        refuse(QStringLiteral("refused: the receiver is a link-local or metadata address"));
        return;
    }
    const QHostAddress literal(host);
    if (!literal.isNull()) {
        if (isRefusedAddress(literal))
            refuse(QStringLiteral("refused: the receiver is a link-local or metadata address"));
        else
            QTimer::singleShot(0, this, [=] { post(id, url, body, signature, event, deliveryId); });
        return;
    }
    // A name is resolved first so that one resolving to a metadata address is refused. (The
    // connection resolves it again: a DNS answer that changes in between is not caught.)
    QHostInfo::lookupHost(host, this, [=](const QHostInfo &info) {
        if (!m_pending.contains(id))
            return;
        if (info.error() != QHostInfo::NoError || info.addresses().isEmpty()) {
            complete(id,
                     {0, QStringLiteral("DNS lookup of %1 failed: %2").arg(host, info.errorString()), 0, {}, false});
            return;
        }
        for (const QHostAddress &a : info.addresses()) {
            if (isRefusedAddress(a)) {
                complete(id,
                         {0,
                          QStringLiteral("refused: %1 resolves to the link-local address %2").arg(host, a.toString()),
                          0,
                          {},
                          false});
                return;
            }
        }
        post(id, url, body, signature, event, deliveryId);
    });
}

void WebhookSender::post(quint64 id, const QUrl &url, const QByteArray &body, const QByteArray &signature,
                         const QString &event, const QString &deliveryId)
{
    if (!m_pending.contains(id))
        return;
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("Liaison-Webhooks/1.0"));
    request.setRawHeader("X-Service-Signature", signature);
    request.setRawHeader("X-Service-Event", event.toUtf8());
    request.setRawHeader("X-Service-Delivery", deliveryId.toUtf8());
    request.setRawHeader("X-Service-Timestamp", TimeUtil::nowIso().toLatin1());
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
