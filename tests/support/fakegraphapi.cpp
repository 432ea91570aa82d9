#include "tests/support/fakegraphapi.h"

#include "messaging/channels/graphapi.h"
#include "server/api/graphwebhook.h"
#include "server/api/multipart.h"
#include "server/http/httpengine.h"

#include <QJsonDocument>

namespace {

const QString kVersion = QStringLiteral("/v19.0");

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

HttpResponse answer(int status, const QJsonObject &body)
{
    HttpResponse r;
    r.status = status;
    r.body = json(body);
    r.headers.emplaceBack("Content-Type", "application/json");
    return r;
}

HttpResponse graphError(int status, int code, const QString &message, const QString &details = {})
{
    QJsonObject error{{QStringLiteral("message"), message},
                      {QStringLiteral("type"), QStringLiteral("OAuthException")},
                      {QStringLiteral("code"), code},
                      {QStringLiteral("fbtrace_id"), QStringLiteral("AbCdEfGh")}};
    if (!details.isEmpty())
        error.insert(QStringLiteral("error_data"),
                     QJsonObject{{QStringLiteral("messaging_product"), QStringLiteral("whatsapp")},
                                 {QStringLiteral("details"), details}});
    return answer(status, {{QStringLiteral("error"), error}});
}

bool allDigits(const QString &s)
{
    if (s.isEmpty())
        return false;
    for (const QChar c : s) {
        if (!c.isDigit())
            return false;
    }
    return true;
}

QString onlyKeys(const QJsonObject &o, const QStringList &allowed, const QString &where)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!allowed.contains(it.key()))
            return QStringLiteral("%1: unexpected field %2").arg(where, it.key());
    }
    return {};
}

QString checkMedia(const QJsonObject &m, const QString &type)
{
    const bool link = m.value(QLatin1String("link")).toString().startsWith(QLatin1String("http"));
    const bool id = !m.value(QLatin1String("id")).toString().isEmpty();
    if (link == id)
        return QStringLiteral("%1 needs exactly one of link (an http(s) URL) or id").arg(type);
    QStringList allowed{QStringLiteral("link"), QStringLiteral("id")};
    if (type != QLatin1String("audio"))
        allowed << QStringLiteral("caption");
    if (type == QLatin1String("document"))
        allowed << QStringLiteral("filename");
    return onlyKeys(m, allowed, type);
}

QString checkWhatsApp(const QJsonObject &b)
{
    if (b.value(QLatin1String("messaging_product")).toString() != QLatin1String("whatsapp"))
        return QStringLiteral("messaging_product must be whatsapp");
    if (b.value(QLatin1String("recipient_type")).toString() != QLatin1String("individual"))
        return QStringLiteral("recipient_type must be individual");
    const QString to = b.value(QLatin1String("to")).toString();
    if (!allDigits(to) || to.size() < 7 || to.size() > 15)
        return QStringLiteral("to must be the phone's digits without +");
    const QString type = b.value(QLatin1String("type")).toString();
    const QJsonObject o = b.value(type).toObject();
    if (o.isEmpty())
        return QStringLiteral("the %1 object is missing").arg(type);
    if (type == QLatin1String("text")) {
        if (o.value(QLatin1String("body")).toString().isEmpty() ||
            o.value(QLatin1String("body")).toString().size() > 4096)
            return QStringLiteral("text.body must have 1 to 4096 characters");
        if (!o.value(QLatin1String("preview_url")).isBool())
            return QStringLiteral("text.preview_url must be a boolean");
        return onlyKeys(o, {QStringLiteral("body"), QStringLiteral("preview_url")}, type);
    }
    if (type == QLatin1String("image") || type == QLatin1String("video") || type == QLatin1String("document") ||
        type == QLatin1String("audio"))
        return checkMedia(o, type);
    if (type == QLatin1String("location")) {
        if (!o.value(QLatin1String("latitude")).isDouble() || !o.value(QLatin1String("longitude")).isDouble())
            return QStringLiteral("location needs numeric latitude and longitude");
        return onlyKeys(o,
                        {QStringLiteral("latitude"), QStringLiteral("longitude"), QStringLiteral("name"),
                         QStringLiteral("address")},
                        type);
    }
    if (type == QLatin1String("template")) {
        if (o.value(QLatin1String("name")).toString().isEmpty())
            return QStringLiteral("template.name is missing");
        if (o.value(QLatin1String("language")).toObject().value(QLatin1String("code")).toString().isEmpty())
            return QStringLiteral("template.language.code is missing");
        for (const QJsonValue &cv : o.value(QLatin1String("components")).toArray()) {
            const QJsonObject c = cv.toObject();
            const QString ct = c.value(QLatin1String("type")).toString();
            if (ct != QLatin1String("header") && ct != QLatin1String("body") && ct != QLatin1String("button"))
                return QStringLiteral("component type %1 is not header, body or button").arg(ct);
            if (ct == QLatin1String("button")) {
                if (c.value(QLatin1String("sub_type")).toString().isEmpty())
                    return QStringLiteral("button component needs sub_type");
                if (!c.value(QLatin1String("index")).isString())
                    return QStringLiteral("button component index must be a string");
            }
            for (const QJsonValue &pv : c.value(QLatin1String("parameters")).toArray()) {
                const QJsonObject p = pv.toObject();
                const QString pt = p.value(QLatin1String("type")).toString();
                if (pt.isEmpty() || !p.contains(pt))
                    return QStringLiteral("parameter of type '%1' lacks its value").arg(pt);
            }
        }
        return {};
    }
    return QStringLiteral("unknown message type %1").arg(type);
}

QString checkInstagram(const QJsonObject &b)
{
    if (b.value(QLatin1String("recipient")).toObject().value(QLatin1String("id")).toString().isEmpty())
        return QStringLiteral("recipient.id is missing");
    const QJsonObject m = b.value(QLatin1String("message")).toObject();
    const bool text = m.contains(QLatin1String("text"));
    const bool attachment = m.contains(QLatin1String("attachment"));
    if (text == attachment)
        return QStringLiteral("message needs exactly one of text or attachment");
    if (text) {
        const QString t = m.value(QLatin1String("text")).toString();
        if (t.isEmpty() || t.size() > 1000)
            return QStringLiteral("message.text must have 1 to 1000 characters");
        return {};
    }
    const QJsonObject a = m.value(QLatin1String("attachment")).toObject();
    static const QStringList types{QStringLiteral("image"), QStringLiteral("video"), QStringLiteral("audio"),
                                   QStringLiteral("file")};
    if (!types.contains(a.value(QLatin1String("type")).toString()))
        return QStringLiteral("attachment.type must be image, video, audio or file");
    if (!a.value(QLatin1String("payload"))
             .toObject()
             .value(QLatin1String("url"))
             .toString()
             .startsWith(QLatin1String("http")))
        return QStringLiteral("attachment.payload.url must be an http(s) URL");
    return {};
}

} // namespace

FakeGraphApi::FakeGraphApi(QObject *parent)
    : QObject(parent)
{
    start();
}

FakeGraphApi::~FakeGraphApi()
{
    if (m_engine)
        m_engine->shutdown(0);
}

void FakeGraphApi::start()
{
    m_engine = std::make_unique<HttpEngine>();
    m_engine->setHandler([this](const HttpRequest &http, const HttpResponder &responder) {
        Request r;
        r.method = http.method;
        r.path = QString::fromUtf8(http.path);
        r.query = QUrlQuery(QString::fromUtf8(http.query));
        r.authorization = http.header("Authorization");
        r.contentType = http.header("Content-Type");
        r.body = http.body;
        r.json = QJsonDocument::fromJson(http.body).object();
        const HttpResponse response = handle(r);
        requests.append(r);
        responder.respond(response);
        Q_EMIT received();
    });
    if (!m_engine->listen(QHostAddress::LocalHost, m_port, std::nullopt))
        qFatal("fake Graph API cannot listen: %s", qPrintable(m_engine->errorString()));
    m_port = m_engine->serverPort();
}

QString FakeGraphApi::baseUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1%2").arg(m_port).arg(kVersion);
}

void FakeGraphApi::setDown(bool down)
{
    if (down && m_engine) {
        m_engine->shutdown(0);
        m_engine.reset();
    } else if (!down && !m_engine) {
        start();
    }
}

void FakeGraphApi::failNext(int code, int providerStatus, const QString &details)
{
    m_failures.push_back({code, providerStatus, details});
}

void FakeGraphApi::throttle(int n)
{
    for (int i = 0; i < n; ++i)
        failNext(130429, 400, QStringLiteral("Message failed to send because there were too many messages"));
}

QList<FakeGraphApi::Request> FakeGraphApi::sends() const
{
    QList<Request> out;
    for (const Request &r : requests) {
        if (r.method == "POST" && r.path.endsWith(QLatin1String("/messages")))
            out.append(r);
    }
    return out;
}

QStringList FakeGraphApi::problems() const
{
    QStringList out;
    for (const Request &r : requests) {
        if (!r.problem.isEmpty())
            out.append(r.method + ' ' + r.path + QStringLiteral(": ") + r.problem);
    }
    return out;
}

HttpResponse FakeGraphApi::handle(Request &r)
{
    if (!r.path.startsWith(kVersion + QLatin1Char('/'))) {
        r.problem = QStringLiteral("path without the API version");
        return graphError(400, 2500, QStringLiteral("Unknown path components"));
    }
    r.path = r.path.mid(kVersion.size());
    if (r.authorization != "Bearer " + token.toUtf8()) {
        r.problem = QStringLiteral("wrong or missing bearer token");
        return graphError(401, 190, QStringLiteral("Invalid OAuth access token - Cannot parse access token"));
    }
    const QString wa = QLatin1Char('/') + phoneNumberId;
    const QString ig = QLatin1Char('/') + instagramAccountId;
    if (r.method == "GET" && r.path == wa)
        return answer(200, {{QStringLiteral("verified_name"), QStringLiteral("Liaison Test")},
                            {QStringLiteral("display_phone_number"), QStringLiteral("15550783881")},
                            {QStringLiteral("id"), phoneNumberId}});
    if (r.method == "GET" && r.path == ig)
        return answer(200, {{QStringLiteral("id"), instagramAccountId},
                            {QStringLiteral("username"), QStringLiteral("liaison_test")}});
    if (r.method == "POST" && r.path == wa + QStringLiteral("/media")) {
        // Media upload (docs/channels.md §1): multipart with messaging_product=whatsapp and a file part.
        const MultipartForm form = MultipartForm::parse(r.contentType, r.body);
        const MultipartPart *product = form.part(u"messaging_product");
        const MultipartPart *file = form.part(u"file");
        if (!form.isValid())
            r.problem = QStringLiteral("media upload is not multipart/form-data: ") + form.errorString();
        else if (!product || product->body != QByteArrayView("whatsapp"))
            r.problem = QStringLiteral("media upload without messaging_product=whatsapp");
        else if (!file || !file->hasFilename || file->mimeType().isEmpty() || file->body.isEmpty())
            r.problem = QStringLiteral("media upload without a file part (filename, Content-Type, bytes)");
        if (!r.problem.isEmpty())
            return graphError(400, 100, QStringLiteral("(#100) Invalid parameter"), r.problem);
        uploads.append({file->filename, file->mimeType(), file->body.toByteArray()});
        return answer(200, {{QStringLiteral("id"), QStringLiteral("media.FAKE%1").arg(m_next++)}});
    }
    const bool whatsapp = r.path == wa + QStringLiteral("/messages");
    const bool instagram = r.path == ig + QStringLiteral("/messages");
    if (r.method != "POST" || (!whatsapp && !instagram)) {
        r.problem = QStringLiteral("unknown endpoint");
        return graphError(400, 2500, QStringLiteral("Unknown path components: %1").arg(r.path));
    }
    if (!r.contentType.startsWith("application/json")) {
        r.problem = QStringLiteral("Content-Type is not application/json");
        return graphError(400, 100, QStringLiteral("(#100) Invalid parameter"));
    }
    r.problem = whatsapp ? checkWhatsApp(r.json) : checkInstagram(r.json);
    if (!r.problem.isEmpty())
        return graphError(400, 100, QStringLiteral("(#100) Invalid parameter"), r.problem);
    if (!m_failures.empty()) {
        const Failure f = m_failures.front();
        m_failures.pop_front();
        return graphError(f.status, f.code, QStringLiteral("(#%1) Fake error").arg(f.code), f.details);
    }
    const int n = m_next++;
    if (whatsapp) {
        const QString to = r.json.value(QLatin1String("to")).toString();
        return answer(200, {{QStringLiteral("messaging_product"), QStringLiteral("whatsapp")},
                            {QStringLiteral("contacts"),
                             QJsonArray{QJsonObject{{QStringLiteral("input"), to}, {QStringLiteral("wa_id"), to}}}},
                            {QStringLiteral("messages"),
                             QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("wamid.FAKE%1").arg(n)}}}}});
    }
    return answer(200, {{QStringLiteral("recipient_id"),
                         r.json.value(QLatin1String("recipient")).toObject().value(QLatin1String("id"))},
                        {QStringLiteral("message_id"), QStringLiteral("mid.FAKE%1").arg(n)}});
}

namespace MetaWebhook {

QByteArray sign(const QByteArray &body, const QString &secret)
{
    return GraphWebhook::signature(body, secret);
}

QByteArray bytes(const QJsonObject &body)
{
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

HttpResult postWithSignature(const QString &serverUrl, const QSslCertificate &ca, const QString &path,
                             const QByteArray &body, const QByteArray &signature)
{
    ApiClient client(serverUrl, ca);
    QList<QPair<QByteArray, QByteArray>> headers;
    if (!signature.isEmpty())
        headers.append({"X-Hub-Signature-256", signature});
    return client.call("POST", path, body, headers);
}

HttpResult post(const QString &serverUrl, const QSslCertificate &ca, const QString &path, const QByteArray &body,
                const QString &secret)
{
    return postWithSignature(serverUrl, ca, path, body, sign(body, secret));
}

QJsonObject whatsapp(const QJsonObject &value, const QString &phoneNumberId)
{
    QJsonObject v = value;
    v.insert(QStringLiteral("messaging_product"), QStringLiteral("whatsapp"));
    v.insert(QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("display_phone_number"), QStringLiteral("15550783881")},
                         {QStringLiteral("phone_number_id"), phoneNumberId}});
    const QJsonObject change{{QStringLiteral("field"), QStringLiteral("messages")}, {QStringLiteral("value"), v}};
    return {{QStringLiteral("object"), QStringLiteral("whatsapp_business_account")},
            {QStringLiteral("entry"), QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("102290129340398")},
                                                             {QStringLiteral("changes"), QJsonArray{change}}}}}};
}

QJsonObject whatsappMessages(const QString &waId, const QString &name, const QJsonArray &messages,
                             const QString &phoneNumberId)
{
    QJsonArray items;
    for (const QJsonValue &m : messages) {
        QJsonObject o = m.toObject();
        if (!o.contains(QLatin1String("from")))
            o.insert(QStringLiteral("from"), waId);
        if (!o.contains(QLatin1String("timestamp")))
            o.insert(QStringLiteral("timestamp"), QStringLiteral("1749416383"));
        items.append(o);
    }
    const QJsonObject contact{{QStringLiteral("profile"), QJsonObject{{QStringLiteral("name"), name}}},
                              {QStringLiteral("wa_id"), waId}};
    return whatsapp({{QStringLiteral("contacts"), QJsonArray{contact}}, {QStringLiteral("messages"), items}},
                    phoneNumberId);
}

QJsonObject whatsappText(const QString &waId, const QString &name, const QString &wamid, const QString &text)
{
    return whatsappMessages(waId, name,
                            {QJsonObject{{QStringLiteral("id"), wamid},
                                         {QStringLiteral("type"), QStringLiteral("text")},
                                         {QStringLiteral("text"), QJsonObject{{QStringLiteral("body"), text}}}}});
}

QJsonObject whatsappStatus(const QString &wamid, const QString &status, const QString &recipient,
                           const QJsonArray &errors)
{
    QJsonObject s{{QStringLiteral("id"), wamid},
                  {QStringLiteral("status"), status},
                  {QStringLiteral("timestamp"), QStringLiteral("1750857384")},
                  {QStringLiteral("recipient_id"), recipient}};
    if (!errors.isEmpty())
        s.insert(QStringLiteral("errors"), errors);
    return whatsapp({{QStringLiteral("statuses"), QJsonArray{s}}});
}

QJsonObject instagram(const QJsonArray &messaging, const QString &accountId)
{
    return {{QStringLiteral("object"), QStringLiteral("instagram")},
            {QStringLiteral("entry"), QJsonArray{QJsonObject{{QStringLiteral("id"), accountId},
                                                             {QStringLiteral("time"), 1715346000},
                                                             {QStringLiteral("messaging"), messaging}}}}};
}

QJsonObject instagramMessage(const QString &igsid, const QJsonObject &message, const QString &accountId)
{
    return {{QStringLiteral("sender"), QJsonObject{{QStringLiteral("id"), igsid}}},
            {QStringLiteral("recipient"), QJsonObject{{QStringLiteral("id"), accountId}}},
            {QStringLiteral("timestamp"), 1715346000000.0},
            {QStringLiteral("message"), message}};
}

} // namespace MetaWebhook
