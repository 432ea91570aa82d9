#include "tests/support/faketelegram.h"

#include <QJsonDocument>
#include <QTimerEvent>
#include <QUrlQuery>

namespace {
QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

HttpResponse answer(int status, const QJsonObject &body)
{
    HttpResponse r;
    r.status = status;
    r.setHeader("Content-Type", "application/json");
    r.body = json(body);
    return r;
}

HttpResponse ok(const QJsonValue &result)
{
    return answer(200, {{QStringLiteral("ok"), true}, {QStringLiteral("result"), result}});
}

HttpResponse error(int status, const QString &description, const QJsonObject &parameters = {})
{
    QJsonObject body{{QStringLiteral("ok"), false},
                     {QStringLiteral("error_code"), status},
                     {QStringLiteral("description"), description}};
    if (!parameters.isEmpty())
        body.insert(QStringLiteral("parameters"), parameters);
    return answer(status, body);
}

QString idText(const QJsonValue &v)
{
    if (v.isDouble())
        return QString::number(qint64(v.toDouble()));
    return v.toString();
}

const QStringList kSendMethods{QStringLiteral("sendMessage"),  QStringLiteral("sendPhoto"),
                               QStringLiteral("sendDocument"), QStringLiteral("sendVideo"),
                               QStringLiteral("sendAudio"),    QStringLiteral("sendLocation")};
} // namespace

FakeTelegram::FakeTelegram(const QString &token, QObject *parent)
    : QObject(parent)
    , m_token(token)
    , m_engine(std::make_unique<HttpEngine>())
{
    m_engine->setHandler(
        [this](const HttpRequest &request, const HttpResponder &responder) { handle(request, responder); });
    if (!m_engine->listen(QHostAddress::LocalHost, 0, std::nullopt))
        qFatal("fake Telegram cannot listen: %s", qPrintable(m_engine->errorString()));
}

FakeTelegram::~FakeTelegram() = default;

QString FakeTelegram::baseUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(m_engine->serverPort());
}

QList<FakeTelegram::Call> FakeTelegram::sends() const
{
    QList<Call> out;
    for (const Call &c : m_calls) {
        if (kSendMethods.contains(c.method) && c.status == 200)
            out << c;
    }
    return out;
}

QList<FakeTelegram::Call> FakeTelegram::callsOf(const QString &method) const
{
    QList<Call> out;
    for (const Call &c : m_calls) {
        if (c.method == method)
            out << c;
    }
    return out;
}

qint64 FakeTelegram::queueUpdate(QJsonObject update)
{
    if (!update.contains(QLatin1String("update_id")))
        update.insert(QStringLiteral("update_id"), double(m_nextUpdateId++));
    const qint64 id = qint64(update.value(QLatin1String("update_id")).toDouble());
    m_updates << update;
    answerHeld();
    return id;
}

qint64 FakeTelegram::queueText(qint64 chatId, const QString &text, const QString &firstName, const QString &lastName,
                               const QString &username)
{
    QJsonObject from{{QStringLiteral("id"), double(chatId)},
                     {QStringLiteral("is_bot"), false},
                     {QStringLiteral("first_name"), firstName}};
    if (!lastName.isEmpty())
        from.insert(QStringLiteral("last_name"), lastName);
    if (!username.isEmpty())
        from.insert(QStringLiteral("username"), username);
    QJsonObject chat = from;
    chat.remove(QStringLiteral("is_bot"));
    chat.insert(QStringLiteral("type"), QStringLiteral("private"));
    return queueUpdate(
        {{QStringLiteral("message"), QJsonObject{{QStringLiteral("message_id"), double(m_nextMessageId++)},
                                                 {QStringLiteral("from"), from},
                                                 {QStringLiteral("chat"), chat},
                                                 {QStringLiteral("date"), double(QDateTime::currentSecsSinceEpoch())},
                                                 {QStringLiteral("text"), text}}}});
}

void FakeTelegram::throttleSends(int count, int retryAfterSeconds)
{
    m_throttleCount = count;
    m_retryAfter = retryAfterSeconds;
}

QJsonObject FakeTelegram::params(const HttpRequest &request, bool *okOut)
{
    *okOut = true;
    QJsonObject p;
    const QUrlQuery query(QString::fromUtf8(request.query));
    for (const auto &item : query.queryItems(QUrl::FullyDecoded))
        p.insert(item.first, item.second);
    if (!request.body.isEmpty()) {
        const QByteArray type = request.header("Content-Type");
        if (!type.startsWith("application/json")) {
            problem(QStringLiteral("%1: body with Content-Type %2, expected JSON")
                        .arg(QString::fromUtf8(request.path), QString::fromUtf8(type)));
            *okOut = false;
            return p;
        }
        QJsonParseError e;
        const QJsonDocument doc = QJsonDocument::fromJson(request.body, &e);
        if (!doc.isObject()) {
            problem(QStringLiteral("%1: body is not a JSON object").arg(QString::fromUtf8(request.path)));
            *okOut = false;
            return p;
        }
        const QJsonObject body = doc.object();
        for (auto it = body.begin(); it != body.end(); ++it)
            p.insert(it.key(), it.value());
    }
    return p;
}

QJsonArray FakeTelegram::pendingFrom(qint64 offset) const
{
    QJsonArray out;
    for (const QJsonObject &u : m_updates) {
        if (qint64(u.value(QLatin1String("update_id")).toDouble()) >= offset)
            out.append(u);
        if (out.size() >= 100)
            break;
    }
    return out;
}

void FakeTelegram::confirm(qint64 offset)
{
    if (offset <= 0)
        return;
    m_confirmed = qMax(m_confirmed, offset);
    if (redeliverConfirmed)
        return;
    m_updates.removeIf(
        [this](const QJsonObject &u) { return qint64(u.value(QLatin1String("update_id")).toDouble()) < m_confirmed; });
}

void FakeTelegram::answerHeld()
{
    for (qsizetype i = 0; i < m_held.size();) {
        const QJsonArray updates = pendingFrom(m_held.at(i).offset);
        if (updates.isEmpty()) {
            ++i;
            continue;
        }
        Held h = m_held.takeAt(i);
        killTimer(h.timerId);
        if (h.callIndex >= 0 && h.callIndex < m_calls.size())
            m_calls[h.callIndex].status = 200;
        h.responder.respond(ok(updates));
    }
}

void FakeTelegram::timerEvent(QTimerEvent *event)
{
    for (qsizetype i = 0; i < m_held.size(); ++i) {
        if (m_held.at(i).timerId != event->timerId())
            continue;
        Held h = m_held.takeAt(i);
        killTimer(h.timerId);
        if (h.callIndex >= 0 && h.callIndex < m_calls.size())
            m_calls[h.callIndex].status = 200;
        h.responder.respond(ok(QJsonArray()));
        return;
    }
}

QJsonObject FakeTelegram::sendMessageResult(const QString &chatId, const QString &method, const QJsonObject &p)
{
    bool numeric = false;
    const qint64 chat = chatId.toLongLong(&numeric);
    QJsonObject m{{QStringLiteral("message_id"), double(m_nextMessageId++)},
                  {QStringLiteral("date"), double(QDateTime::currentSecsSinceEpoch())},
                  {QStringLiteral("chat"),
                   QJsonObject{{QStringLiteral("id"), numeric ? QJsonValue(double(chat)) : QJsonValue(chatId)},
                               {QStringLiteral("type"), QStringLiteral("private")}}}};
    if (method == QLatin1String("sendMessage"))
        m.insert(QStringLiteral("text"), p.value(QLatin1String("text")));
    if (p.contains(QLatin1String("caption")))
        m.insert(QStringLiteral("caption"), p.value(QLatin1String("caption")));
    return m;
}

void FakeTelegram::handle(const HttpRequest &request, const HttpResponder &responder)
{
    const QString path = QString::fromUtf8(request.path);
    const QString prefix = QStringLiteral("/bot") + m_token + QLatin1Char('/');
    Call call;
    call.atMs = QDateTime::currentMSecsSinceEpoch();
    if (!path.startsWith(QLatin1String("/bot"))) {
        problem(QStringLiteral("path without /bot<token>: %1").arg(path));
        responder.respond(error(404, QStringLiteral("Not Found")));
        return;
    }
    if (!path.startsWith(prefix)) {
        call.method = path.section(QLatin1Char('/'), 2);
        call.status = 401;
        m_calls << call;
        Q_EMIT called(call.method);
        responder.respond(error(401, QStringLiteral("Unauthorized")));
        return;
    }
    call.method = path.mid(prefix.size());
    bool parsed = false;
    call.params = params(request, &parsed);
    const QJsonObject &p = call.params;
    auto finish = [&](const HttpResponse &r) {
        call.status = r.status;
        m_calls << call;
        Q_EMIT called(call.method);
        responder.respond(r);
    };
    if (!parsed)
        return finish(error(400, QStringLiteral("Bad Request: unreadable parameters")));
    if (m_failCount > 0) {
        --m_failCount;
        return finish(error(m_failStatus, QStringLiteral("Internal Server Error")));
    }
    const QString &method = call.method;

    if (method == QLatin1String("getMe")) {
        return finish(ok(QJsonObject{{QStringLiteral("id"), double(botId())},
                                     {QStringLiteral("is_bot"), true},
                                     {QStringLiteral("first_name"), QStringLiteral("Liaison Test")},
                                     {QStringLiteral("username"), QStringLiteral("liaison_test_bot")}}));
    }
    if (method == QLatin1String("getUpdates")) {
        if (!m_webhookUrl.isEmpty())
            return finish(error(409, QStringLiteral("Conflict: can't use getUpdates method while webhook is active; "
                                                    "use deleteWebhook to delete the webhook first")));
        const QJsonValue offsetValue = p.value(QLatin1String("offset"));
        const qint64 offset =
            offsetValue.isString() ? offsetValue.toString().toLongLong() : qint64(offsetValue.toDouble());
        const int timeout = p.value(QLatin1String("timeout")).isString()
                                ? p.value(QLatin1String("timeout")).toString().toInt()
                                : p.value(QLatin1String("timeout")).toInt();
        const QJsonArray allowed = p.value(QLatin1String("allowed_updates")).toArray();
        if (!allowed.contains(QStringLiteral("message")) || !allowed.contains(QStringLiteral("callback_query")))
            problem(QStringLiteral("getUpdates: allowed_updates should list message and callback_query"));
        confirm(offset);
        const QJsonArray updates = pendingFrom(offset);
        if (!updates.isEmpty() || timeout <= 0)
            return finish(ok(updates));
        call.status = 0;
        m_calls << call;
        Q_EMIT called(call.method);
        Held h;
        h.responder = responder;
        h.offset = offset;
        h.callIndex = int(m_calls.size() - 1);
        h.timerId = startTimer(timeout * 1000);
        m_held << h;
        return;
    }
    if (method == QLatin1String("setWebhook")) {
        const QString url = p.value(QLatin1String("url")).toString();
        if (!url.startsWith(QLatin1String("https://")))
            return finish(error(400, QStringLiteral("Bad Request: bad webhook: An HTTPS URL must be provided")));
        m_webhookUrl = url;
        m_webhookSecret = p.value(QLatin1String("secret_token")).toString();
        return finish(ok(true));
    }
    if (method == QLatin1String("deleteWebhook")) {
        m_webhookUrl.clear();
        return finish(ok(true));
    }
    if (method == QLatin1String("answerCallbackQuery")) {
        if (p.value(QLatin1String("callback_query_id")).toString().isEmpty())
            problem(QStringLiteral("answerCallbackQuery without callback_query_id"));
        return finish(ok(true));
    }
    if (!kSendMethods.contains(method)) {
        problem(QStringLiteral("unknown method %1").arg(method));
        return finish(error(404, QStringLiteral("Not Found: method not found")));
    }

    // The send methods.
    const QJsonValue chatValue = p.value(QLatin1String("chat_id"));
    if (!chatValue.isDouble() && !(chatValue.isString() && !chatValue.toString().isEmpty())) {
        problem(QStringLiteral("%1 without chat_id").arg(method));
        return finish(error(400, QStringLiteral("Bad Request: chat_id is empty")));
    }
    const QString chatId = idText(chatValue);
    auto requireString = [&](const char *field) {
        const QJsonValue v = p.value(QLatin1String(field));
        if (!v.isString() || v.toString().isEmpty()) {
            problem(QStringLiteral("%1 without %2").arg(method, QString::fromLatin1(field)));
            return false;
        }
        return true;
    };
    if (method == QLatin1String("sendMessage")) {
        if (!requireString("text"))
            return finish(error(400, QStringLiteral("Bad Request: message text is empty")));
        if (p.value(QLatin1String("text")).toString().size() > 4096) {
            problem(QStringLiteral("sendMessage text over 4096 characters"));
            return finish(error(400, QStringLiteral("Bad Request: message is too long")));
        }
    } else if (method == QLatin1String("sendLocation")) {
        if (!p.value(QLatin1String("latitude")).isDouble() || !p.value(QLatin1String("longitude")).isDouble()) {
            problem(QStringLiteral("sendLocation without numeric latitude/longitude"));
            return finish(error(400, QStringLiteral("Bad Request: wrong latitude or longitude")));
        }
    } else {
        const QString field = method.mid(4).toLower(); // sendPhoto -> photo
        if (!requireString(field.toLatin1().constData()))
            return finish(error(400, QStringLiteral("Bad Request: there is no %1 in the request").arg(field)));
        if (p.value(QLatin1String("caption")).toString().size() > 1024) {
            problem(QStringLiteral("%1 caption over 1024 characters").arg(method));
            return finish(error(400, QStringLiteral("Bad Request: message caption is too long")));
        }
    }
    if (p.contains(QLatin1String("reply_markup"))) {
        QJsonValue markup = p.value(QLatin1String("reply_markup"));
        if (markup.isString())
            markup = QJsonDocument::fromJson(markup.toString().toUtf8()).object();
        const QJsonArray rows = markup.toObject().value(QLatin1String("inline_keyboard")).toArray();
        bool good = !rows.isEmpty();
        for (const QJsonValue &row : rows) {
            for (const QJsonValue &b : row.toArray()) {
                const QJsonObject button = b.toObject();
                const QByteArray data = button.value(QLatin1String("callback_data")).toString().toUtf8();
                if (button.value(QLatin1String("text")).toString().isEmpty() || data.isEmpty() || data.size() > 64)
                    good = false;
            }
        }
        if (!good) {
            problem(QStringLiteral("%1: reply_markup is not a valid inline keyboard").arg(method));
            return finish(error(400, QStringLiteral("Bad Request: can't parse reply keyboard markup JSON object")));
        }
    }
    if (m_throttleCount > 0) {
        --m_throttleCount;
        return finish(error(429, QStringLiteral("Too Many Requests: retry after %1").arg(m_retryAfter),
                            {{QStringLiteral("retry_after"), m_retryAfter}}));
    }
    if (m_blocked.contains(chatId))
        return finish(error(403, QStringLiteral("Forbidden: bot was blocked by the user")));
    if (m_unknown.contains(chatId))
        return finish(error(400, QStringLiteral("Bad Request: chat not found")));
    return finish(ok(sendMessageResult(chatId, method, p)));
}
