#include "messaging/channels/telegramconnector.h"

#include "messaging/channels/providerclient.h"

#include <QJsonArray>
#include <QPointer>
#include <QRegularExpression>

namespace {
QString str(const char *s)
{
    return QString::fromLatin1(s);
}

// Telegram chat ids are integers (negative for groups); "@channelname" is also accepted.
QJsonValue chatIdValue(const QString &to)
{
    bool ok = false;
    const qint64 id = to.toLongLong(&ok);
    if (ok)
        return QJsonValue(double(id));
    return QJsonValue(to);
}

QString chatIdText(const QJsonValue &v)
{
    if (v.isDouble())
        return QString::number(qint64(v.toDouble()));
    return v.toString();
}

QString describe(const ProviderReply &reply)
{
    const QString description = reply.json.value(QLatin1String("description")).toString();
    if (!description.isEmpty())
        return description;
    return QStringLiteral("HTTP %1").arg(reply.status);
}
} // namespace

TelegramConnector::TelegramConnector(const TelegramConfig &config, int timeoutSeconds, QObject *parent)
    : ChannelConnector(parent)
    , m_config(config)
    , m_client(new ProviderClient(config.apiBaseUrl, timeoutSeconds, this))
{
}

TelegramConnector::~TelegramConnector() = default;

QString TelegramConnector::methodPath(const QString &token, const QString &method)
{
    return QStringLiteral("/bot") + token + QLatin1Char('/') + method;
}

QString TelegramConnector::cut(const QString &text, int max)
{
    if (text.size() <= max)
        return text;
    QString out = text.left(max - 1);
    if (!out.isEmpty() && out.back().isHighSurrogate())
        out.chop(1);
    return out + QChar(0x2026);
}

QString TelegramConnector::templateText(const Message &message)
{
    QStringList params;
    const QJsonArray components = message.payload.value(QLatin1String("components")).toArray();
    for (const QJsonValue &c : components) {
        const QJsonObject component = c.toObject();
        if (component.value(QLatin1String("type")).toString() != QLatin1String("body"))
            continue;
        for (const QJsonValue &p : component.value(QLatin1String("parameters")).toArray())
            params << p.toObject().value(QLatin1String("text")).toString();
    }
    if (!message.text.isEmpty()) {
        QString text = message.text;
        static const QRegularExpression placeholder(QStringLiteral("\\{\\{(\\d+)\\}\\}"));
        QString out;
        qsizetype last = 0;
        QRegularExpressionMatchIterator it = placeholder.globalMatch(text);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            out += text.mid(last, m.capturedStart() - last);
            const int n = m.captured(1).toInt();
            out += (n >= 1 && n <= params.size()) ? params.at(n - 1) : m.captured(0);
            last = m.capturedEnd();
        }
        out += text.mid(last);
        return out;
    }
    QString name = message.payload.value(QLatin1String("templateName")).toString();
    if (name.isEmpty())
        name = message.payload.value(QLatin1String("name")).toString();
    QStringList lines;
    if (!name.isEmpty())
        lines << name;
    lines << params;
    return lines.join(QLatin1Char('\n'));
}

QJsonObject TelegramConnector::quickReplyKeyboard(const QJsonObject &payload)
{
    QJsonArray rows;
    const QJsonArray components = payload.value(QLatin1String("components")).toArray();
    for (const QJsonValue &c : components) {
        const QJsonObject component = c.toObject();
        if (component.value(QLatin1String("type")).toString() != QLatin1String("button") ||
            component.value(QLatin1String("sub_type")).toString(QStringLiteral("quick_reply")) !=
                QLatin1String("quick_reply"))
            continue;
        for (const QJsonValue &p : component.value(QLatin1String("parameters")).toArray()) {
            const QJsonObject parameter = p.toObject();
            const QString data = parameter.value(QLatin1String("payload")).toString();
            if (data.isEmpty())
                continue;
            // callback_data is at most 64 bytes: cut on a character boundary.
            QString shortData = data;
            while (shortData.toUtf8().size() > kMaxCallbackData)
                shortData.chop(1);
            if (!shortData.isEmpty() && shortData.back().isHighSurrogate())
                shortData.chop(1);
            const QString label = parameter.value(QLatin1String("text")).toString(data);
            rows.append(QJsonArray{QJsonObject{{str("text"), cut(label, 64)}, {str("callback_data"), shortData}}});
        }
    }
    if (rows.isEmpty())
        return {};
    return {{str("inline_keyboard"), rows}};
}

bool TelegramConnector::buildRequest(const Message &message, const QString &to, QString *method, QJsonObject *body,
                                     QString *why)
{
    QJsonObject b{{str("chat_id"), chatIdValue(to)}};
    const QString &type = message.type;
    auto media = [&](const char *apiMethod, const char *field) {
        if (message.mediaUrl.isEmpty()) {
            *why = QStringLiteral("a %1 message needs a mediaUrl").arg(type);
            return false;
        }
        *method = str(apiMethod);
        b.insert(str(field), message.mediaUrl);
        QString caption = message.caption.isEmpty() ? message.text : message.caption;
        if (!caption.isEmpty())
            b.insert(str("caption"), cut(caption, kMaxCaption));
        return true;
    };
    if (type == QLatin1String("text")) {
        if (message.text.isEmpty()) {
            *why = QStringLiteral("a text message needs a text");
            return false;
        }
        *method = str("sendMessage");
        b.insert(str("text"), cut(message.text, kMaxText));
    } else if (type == QLatin1String("image")) {
        if (!media("sendPhoto", "photo"))
            return false;
    } else if (type == QLatin1String("video")) {
        if (!media("sendVideo", "video"))
            return false;
    } else if (type == QLatin1String("audio")) {
        if (!media("sendAudio", "audio"))
            return false;
    } else if (type == QLatin1String("document")) {
        if (!media("sendDocument", "document"))
            return false;
    } else if (type == QLatin1String("location")) {
        const QJsonValue lat = message.payload.value(QLatin1String("latitude"));
        const QJsonValue lon = message.payload.value(QLatin1String("longitude"));
        if (!lat.isDouble() || !lon.isDouble() || qAbs(lat.toDouble()) > 90 || qAbs(lon.toDouble()) > 180) {
            *why = QStringLiteral("a location message needs latitude and longitude");
            return false;
        }
        *method = str("sendLocation");
        b.insert(str("latitude"), lat);
        b.insert(str("longitude"), lon);
    } else if (type == QLatin1String("template")) {
        const QString text = templateText(message);
        if (text.isEmpty()) {
            *why = QStringLiteral("a template message needs a templateName or a text");
            return false;
        }
        *method = str("sendMessage");
        b.insert(str("text"), cut(text, kMaxText));
        const QJsonObject keyboard = quickReplyKeyboard(message.payload);
        if (!keyboard.isEmpty())
            b.insert(str("reply_markup"), keyboard);
    } else {
        *why = QStringLiteral("Telegram cannot send a message of type %1").arg(type);
        return false;
    }
    *body = b;
    return true;
}

SendOutcome TelegramConnector::outcome(const ProviderReply &reply, const QString &chatId)
{
    if (!reply.reached())
        return SendOutcome::down(QStringLiteral("Telegram unreachable: %1").arg(reply.networkError));
    const int status = reply.status;
    if (status >= 200 && status < 300) {
        const QJsonObject result = reply.json.value(QLatin1String("result")).toObject();
        const QJsonValue messageId = result.value(QLatin1String("message_id"));
        if (reply.json.value(QLatin1String("ok")).toBool() && messageId.isDouble()) {
            QString chat = chatIdText(result.value(QLatin1String("chat")).toObject().value(QLatin1String("id")));
            if (chat.isEmpty())
                chat = chatId;
            return SendOutcome::sent(chat + QLatin1Char(':') + QString::number(qint64(messageId.toDouble())));
        }
        return SendOutcome::retry(QStringLiteral("Telegram gave an unexpected answer (HTTP %1)").arg(status));
    }
    if (status == 429) {
        int after =
            reply.json.value(QLatin1String("parameters")).toObject().value(QLatin1String("retry_after")).toInt();
        if (after <= 0)
            after = reply.header("Retry-After").toInt();
        SendOutcome o = SendOutcome::retry(QStringLiteral("Telegram: %1").arg(describe(reply)), qMax(1, after));
        o.channelThrottled = true;
        return o;
    }
    if (status >= 500)
        return SendOutcome::retry(QStringLiteral("Telegram: %1").arg(describe(reply)));
    if (status == 401 || status == 404)
        return SendOutcome::failed(QStringLiteral("Telegram refused the bot token: %1").arg(describe(reply)));
    return SendOutcome::failed(QStringLiteral("Telegram: %1").arg(describe(reply)));
}

void TelegramConnector::send(const Message &message, const QString &to, std::function<void(const SendOutcome &)> done)
{
    QString method;
    QJsonObject body;
    QString why;
    if (to.isEmpty()) {
        done(SendOutcome::failed(QStringLiteral("the conversation has no Telegram chat id")));
        return;
    }
    if (!buildRequest(message, to, &method, &body, &why)) {
        done(SendOutcome::failed(why));
        return;
    }
    m_client->postJson(m_client->request(methodPath(m_config.botToken, method)), body,
                       [done, to](const ProviderReply &reply) { done(outcome(reply, to)); });
}

void TelegramConnector::probe(std::function<void(bool ok, const QString &detail)> done)
{
    if (m_config.botToken.isEmpty()) {
        done(false, QStringLiteral("no bot token"));
        return;
    }
    m_client->get(m_client->request(methodPath(m_config.botToken, str("getMe"))), [done](const ProviderReply &reply) {
        if (!reply.reached()) {
            done(false, QStringLiteral("Telegram unreachable: %1").arg(reply.networkError));
            return;
        }
        const QJsonObject me = reply.json.value(QLatin1String("result")).toObject();
        if (reply.status == 200 && reply.json.value(QLatin1String("ok")).toBool()) {
            const QString username = me.value(QLatin1String("username")).toString();
            const QString name = me.value(QLatin1String("first_name")).toString();
            done(true, QStringLiteral("connected as @%1 (%2)").arg(username, name));
            return;
        }
        if (reply.status == 401 || reply.status == 404) {
            done(false, QStringLiteral("the bot token was refused: %1").arg(describe(reply)));
            return;
        }
        done(false, QStringLiteral("Telegram answered %1").arg(describe(reply)));
    });
}
