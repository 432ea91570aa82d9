#include "messaging/channels/whatsappconnector.h"

#include "messaging/channels/graphapi.h"
#include "messaging/channels/providerclient.h"
#include "model/inbox/mediarepository.h"

#include <QFile>
#include <QHttpMultiPart>
#include <QJsonArray>
#include <QPointer>
#include <QTimer>

namespace {

constexpr int kWhatsAppMaxThrottleSeconds = 64;

QString digitsOnly(const QString &address)
{
    QString out;
    for (const QChar c : address) {
        if (c.isDigit())
            out.append(c);
    }
    return out;
}

// The spec's template components ({type, sub_type, index (number), parameters}) in the Graph shape:
// index is a string there; anything else is passed on as given.
QJsonArray graphComponents(const QJsonArray &components)
{
    QJsonArray out;
    for (const QJsonValue &v : components) {
        QJsonObject c = v.toObject();
        const QJsonValue index = c.value(QLatin1String("index"));
        if (index.isDouble())
            c.insert(QStringLiteral("index"), QString::number(index.toInteger()));
        if (c.value(QLatin1String("type")).toString() == QLatin1String("button") &&
            !c.contains(QLatin1String("sub_type")))
            c.insert(QStringLiteral("sub_type"), QStringLiteral("quick_reply"));
        out.append(c);
    }
    return out;
}

} // namespace

WhatsAppConnector::WhatsAppConnector(const WhatsAppConfig &config, int timeoutSeconds, QObject *parent,
                                     std::optional<MediaRepository> media)
    : ChannelConnector(parent)
    , m_config(config)
    , m_client(new ProviderClient(config.apiBaseUrl, timeoutSeconds, this))
    , m_media(std::move(media))
{
}

QJsonObject WhatsAppConnector::requestBody(const Message &message, const QString &to, QString *why,
                                           const QString &uploadedId)
{
    const QString recipient = digitsOnly(to);
    if (recipient.isEmpty()) {
        *why = QStringLiteral("no WhatsApp phone number to send to");
        return {};
    }
    QJsonObject body{{QStringLiteral("messaging_product"), QStringLiteral("whatsapp")},
                     {QStringLiteral("recipient_type"), QStringLiteral("individual")},
                     {QStringLiteral("to"), recipient},
                     {QStringLiteral("type"), message.type}};
    const QString &type = message.type;
    QJsonObject content;
    if (type == QLatin1String("text")) {
        if (message.text.isEmpty()) {
            *why = QStringLiteral("empty text");
            return {};
        }
        content = {{QStringLiteral("body"), message.text}, {QStringLiteral("preview_url"), false}};
    } else if (type == QLatin1String("image") || type == QLatin1String("video") || type == QLatin1String("document") ||
               type == QLatin1String("audio")) {
        if (uploadedId.isEmpty()) {
            *why = GraphApi::mediaUrlProblem(message.mediaUrl, type);
            if (!why->isEmpty())
                return {};
            content = {{QStringLiteral("link"), message.mediaUrl}};
        } else {
            content = {{QStringLiteral("id"), uploadedId}};
        }
        // Audio takes a link only; the others a caption, a document also its file name.
        const QString caption = message.caption.isEmpty() ? message.text : message.caption;
        if (type != QLatin1String("audio") && !caption.isEmpty())
            content.insert(QStringLiteral("caption"), caption);
        if (type == QLatin1String("document") && !message.filename.isEmpty())
            content.insert(QStringLiteral("filename"), message.filename);
    } else if (type == QLatin1String("location")) {
        const QJsonObject p = message.payload;
        if (!p.value(QLatin1String("latitude")).isDouble() || !p.value(QLatin1String("longitude")).isDouble()) {
            *why = QStringLiteral("a location needs latitude and longitude");
            return {};
        }
        content = {{QStringLiteral("latitude"), p.value(QLatin1String("latitude"))},
                   {QStringLiteral("longitude"), p.value(QLatin1String("longitude"))}};
        for (const QLatin1String key : {QLatin1String("name"), QLatin1String("address")}) {
            if (!p.value(key).toString().isEmpty())
                content.insert(key, p.value(key));
        }
    } else if (type == QLatin1String("template")) {
        const QJsonObject p = message.payload;
        const QString name = p.value(QLatin1String("templateName")).toString();
        if (name.isEmpty()) {
            *why = QStringLiteral("a template message needs templateName");
            return {};
        }
        QString language = p.value(QLatin1String("templateLanguage")).toString();
        if (language.isEmpty())
            language = QStringLiteral("en_US");
        content = {{QStringLiteral("name"), name},
                   {QStringLiteral("language"), QJsonObject{{QStringLiteral("code"), language}}}};
        const QJsonArray components = graphComponents(p.value(QLatin1String("components")).toArray());
        if (!components.isEmpty())
            content.insert(QStringLiteral("components"), components);
    } else {
        *why = QStringLiteral("WhatsApp cannot send a %1 message").arg(type);
        return {};
    }
    body.insert(type, content);
    return body;
}

void WhatsAppConnector::send(const Message &message, const QString &to, std::function<void(const SendOutcome &)> done)
{
    const QString &type = message.type;
    const bool media = type == QLatin1String("image") || type == QLatin1String("video") ||
                       type == QLatin1String("document") || type == QLatin1String("audio");
    const QString mediaId = message.payload.value(QLatin1String("mediaId")).toString();
    if (media && !mediaId.isEmpty() && m_media && (m_uploaded.contains(mediaId) || m_media->find(mediaId))) {
        QPointer<WhatsAppConnector> self(this);
        upload(mediaId, [self, message, to, done](const QString &id, const SendOutcome &failure) {
            if (!self)
                return;
            if (id.isEmpty()) {
                done(failure);
                return;
            }
            QString why;
            const QJsonObject body = requestBody(message, to, &why, id);
            if (body.isEmpty())
                done(SendOutcome::failed(why));
            else
                self->post(body, done);
        });
        return;
    }
    QString why;
    const QJsonObject body = requestBody(message, to, &why);
    if (body.isEmpty()) {
        // Answer later, as the interface promises, never from inside the caller.
        QTimer::singleShot(0, this, [done = std::move(done), why] { done(SendOutcome::failed(why)); });
        return;
    }
    post(body, std::move(done));
}

void WhatsAppConnector::upload(const QString &mediaId,
                               std::function<void(const QString &id, const SendOutcome &failure)> done)
{
    if (const QString known = m_uploaded.value(mediaId); !known.isEmpty()) {
        QTimer::singleShot(0, this, [done = std::move(done), known] { done(known, {}); });
        return;
    }
    const std::optional<Media> media = m_media ? m_media->find(mediaId) : std::nullopt;
    std::optional<QByteArray> bytes = media ? m_media->content(mediaId) : std::nullopt;
    if (!bytes) {
        QTimer::singleShot(0, this, [done = std::move(done), mediaId] {
            done({}, SendOutcome::failed(QStringLiteral("media %1 is no longer stored").arg(mediaId)));
        });
        return;
    }
    auto *multipart = new QHttpMultiPart(QHttpMultiPart::FormDataType);
    QHttpPart product;
    product.setHeader(QNetworkRequest::ContentDispositionHeader,
                      QStringLiteral("form-data; name=\"messaging_product\""));
    product.setBody(QByteArrayLiteral("whatsapp"));
    QHttpPart typePart;
    typePart.setHeader(QNetworkRequest::ContentDispositionHeader, QStringLiteral("form-data; name=\"type\""));
    typePart.setBody(media->mimeType.toUtf8());
    QHttpPart filePart;
    QString safeName = media->filename;
    safeName.replace(QLatin1Char('"'), QLatin1Char('_'));
    filePart.setHeader(QNetworkRequest::ContentDispositionHeader,
                       QStringLiteral("form-data; name=\"file\"; filename=\"%1\"").arg(safeName));
    filePart.setHeader(QNetworkRequest::ContentTypeHeader, media->mimeType.toUtf8());
    filePart.setBody(*bytes);
    multipart->append(product);
    multipart->append(typePart);
    multipart->append(filePart);
    QNetworkRequest request = m_client->request(QLatin1Char('/') + m_config.phoneNumberId + QStringLiteral("/media"));
    ProviderClient::setBearer(request, m_config.accessToken);
    QPointer<WhatsAppConnector> self(this);
    m_client->postMultipart(request, multipart, [self, mediaId, done = std::move(done)](const ProviderReply &reply) {
        const QString id = reply.json.value(QLatin1String("id")).toString();
        const SendOutcome outcome = GraphApi::outcome(reply, id, self ? self->m_throttleSeconds : 1);
        if (outcome.kind != SendOutcome::Sent) {
            SendOutcome failure = outcome;
            failure.error = QStringLiteral("media upload: ") + outcome.error;
            done({}, failure);
            return;
        }
        if (self)
            self->m_uploaded.insert(mediaId, id);
        done(id, {});
    });
}

void WhatsAppConnector::post(const QJsonObject &body, std::function<void(const SendOutcome &)> done)
{
    QNetworkRequest request =
        m_client->request(QLatin1Char('/') + m_config.phoneNumberId + QStringLiteral("/messages"));
    ProviderClient::setBearer(request, m_config.accessToken);
    QPointer<WhatsAppConnector> self(this);
    m_client->postJson(request, body, [self, done = std::move(done)](const ProviderReply &reply) {
        const QString id = reply.json.value(QLatin1String("messages"))
                               .toArray()
                               .at(0)
                               .toObject()
                               .value(QLatin1String("id"))
                               .toString();
        const int wait = self ? self->m_throttleSeconds : 1;
        const SendOutcome outcome = GraphApi::outcome(reply, id, wait);
        if (self) {
            if (GraphApi::isThrottle(reply))
                self->m_throttleSeconds = qMin(kWhatsAppMaxThrottleSeconds, self->m_throttleSeconds * 2);
            else if (outcome.kind == SendOutcome::Sent)
                self->m_throttleSeconds = 1;
        }
        done(outcome);
    });
}

void WhatsAppConnector::probe(std::function<void(bool ok, const QString &detail)> done)
{
    QNetworkRequest request = m_client->request(QLatin1Char('/') + m_config.phoneNumberId);
    ProviderClient::setBearer(request, m_config.accessToken);
    m_client->get(request, [done = std::move(done)](const ProviderReply &reply) {
        QString detail = reply.json.value(QLatin1String("display_phone_number")).toString();
        const QString name = reply.json.value(QLatin1String("verified_name")).toString();
        if (!name.isEmpty())
            detail = detail.isEmpty() ? name : QStringLiteral("%1 (%2)").arg(name, detail);
        GraphApi::probeResult(reply, detail.isEmpty() ? QStringLiteral("connected") : detail, done);
    });
}
