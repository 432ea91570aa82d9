#include "messaging/campaigns/smsclient.h"

#include "messaging/channels/channelconfig.h"
#include "messaging/channels/providerclient.h"

#include <QMessageAuthenticationCode>
#include <QUrlQuery>

#include <algorithm>

SmsClient::SmsClient(const SmsConfig &config, const QString &statusCallbackUrl, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_statusCallbackUrl(statusCallbackUrl)
    , m_client(new ProviderClient(config.apiBaseUrl, config.timeoutSeconds, this))
{
}

SmsClient::~SmsClient() = default;

bool SmsClient::isValid(QString *why) const
{
    return m_client->isValid(why);
}

QString SmsClient::statusCallbackUrl(const QString &publicBaseUrl)
{
    QString base = publicBaseUrl.trimmed();
    if (base.isEmpty())
        return {};
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    return base + QStringLiteral("/webhooks/sms/status");
}

void SmsClient::send(const QString &recipientId, const QString &to, const QString &body,
                     const std::function<void(const CampaignSendResult &)> &done)
{
    post(to, body, [recipientId, done](const ProviderReply &reply) { done(outcome(recipientId, reply)); });
}

void SmsClient::post(const QString &to, const QString &body, const std::function<void(const ProviderReply &)> &done)
{
    QNetworkRequest request =
        m_client->request(QStringLiteral("/2010-04-01/Accounts/%1/Messages.json")
                              .arg(QString::fromLatin1(QUrl::toPercentEncoding(m_config.accountSid))));
    request.setRawHeader("Authorization",
                         "Basic " + (m_config.accountSid + QLatin1Char(':') + m_config.authToken).toUtf8().toBase64());
    request.setRawHeader("Accept", "application/json");
    // Form values: QUrlQuery leaves '+' and '&' alone unless told; encode them so a Turkish text
    // with "+90" or "&" arrives as written.
    QUrlQuery form;
    auto add = [&form](const QString &name, const QString &value) {
        form.addQueryItem(name, QString::fromLatin1(QUrl::toPercentEncoding(value)));
    };
    add(QStringLiteral("To"), to);
    add(QStringLiteral("From"), m_config.from);
    add(QStringLiteral("Body"), body);
    if (!m_statusCallbackUrl.isEmpty())
        add(QStringLiteral("StatusCallback"), m_statusCallbackUrl);
    m_client->postForm(request, form, done);
}

bool SmsClient::isBadNumber(int twilioCode)
{
    // 21211 invalid To, 21214 To cannot be reached, 21217 not a valid number, 21401 invalid
    // number, 21407 not a supported destination, 21421 invalid PhoneNumber, 21610 the recipient
    // answered STOP, 21612 To not reachable by SMS, 21614 not a mobile number.
    static const QList<int> codes = {21211, 21214, 21217, 21401, 21407, 21421, 21610, 21612, 21614};
    return codes.contains(twilioCode);
}

CampaignSendResult SmsClient::outcome(const QString &recipientId, const ProviderReply &reply)
{
    CampaignSendResult r;
    r.recipientId = recipientId;
    r.code = reply.status;
    if (!reply.reached()) {
        r.kind = CampaignSendResult::SoftFailure;
        r.detail =
            reply.networkError.isEmpty() ? QStringLiteral("no answer from the SMS provider") : reply.networkError;
        return r;
    }
    const QString sid = reply.json.value(QStringLiteral("sid")).toString();
    if ((reply.status == 201 || reply.status == 200) && !sid.isEmpty()) {
        r.kind = CampaignSendResult::Sent;
        r.providerId = sid;
        return r;
    }
    const int code = reply.json.value(QStringLiteral("code")).toInt();
    const QString message = reply.json.value(QStringLiteral("message")).toString();
    r.detail = QStringLiteral("SMS provider answered %1").arg(reply.status);
    if (code)
        r.detail += QStringLiteral(" (error %1)").arg(code);
    if (!message.isEmpty())
        r.detail += QStringLiteral(": ") + message.left(300);
    if (reply.status == 429 || reply.status >= 500)
        r.kind = CampaignSendResult::SoftFailure;
    else if (reply.status >= 400 && reply.status < 500 && isBadNumber(code))
        r.kind = CampaignSendResult::HardBounce;
    else if (reply.status >= 200 && reply.status < 300) {
        // Accepted without a sid: it may have been sent; not sent again, but said so.
        r.kind = CampaignSendResult::Sent;
        r.detail = QStringLiteral("SMS provider answered %1 without a message sid").arg(reply.status);
    } else
        r.kind = CampaignSendResult::Failed;
    return r;
}

QByteArray TwilioSignature::sign(const QString &authToken, const QString &url,
                                 const QList<QPair<QString, QString>> &params)
{
    QList<QPair<QString, QString>> sorted = params;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) {
        return a.first == b.first ? a.second < b.second : a.first < b.first;
    });
    QByteArray data = url.toUtf8();
    for (const auto &p : std::as_const(sorted))
        data += p.first.toUtf8() + p.second.toUtf8();
    return QMessageAuthenticationCode::hash(data, authToken.toUtf8(), QCryptographicHash::Sha1).toBase64();
}

QList<QPair<QString, QString>> TwilioSignature::formParams(const QByteArray &body)
{
    QList<QPair<QString, QString>> out;
    for (const QByteArray &part : body.split('&')) {
        if (part.isEmpty())
            continue;
        QByteArray name = part, value;
        if (const qsizetype eq = part.indexOf('='); eq >= 0) {
            name = part.left(eq);
            value = part.mid(eq + 1);
        }
        name.replace('+', ' ');
        value.replace('+', ' ');
        out.append({QString::fromUtf8(QByteArray::fromPercentEncoding(name)),
                    QString::fromUtf8(QByteArray::fromPercentEncoding(value))});
    }
    return out;
}
