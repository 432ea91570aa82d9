#pragma once

// A local fake of the Twilio Messages API on plain HTTP loopback (our HttpEngine; ChannelUrls allows
// http on loopback), header-only so that the messaging tests (which link liaison_http, not the
// server) can use it. It checks the shape of our requests (path, HTTP Basic credentials,
// form-encoded To, From, Body, StatusCallback), records them with the time they arrived, and
// answers like Twilio: 201 with a message sid, 400 with error 21211 for a number it was told is
// bad, 500 for the first request to a number it was told to fail once.

#include "server/http/httpengine.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QUrlQuery>

#include <memory>

class FakeTwilio
{
public:
    struct Request
    {
        QString path;
        QByteArray authorization;
        QByteArray contentType;
        QString to, from, body, statusCallback;
        QString sid; // the sid answered (empty: refused)
        int status = 0;
        double receivedAt = 0; // seconds since the epoch
        QString problem;       // what was wrong with its shape (empty: nothing)
    };

    QString accountSid = QStringLiteral("AC0123456789abcdef0123456789abcdef");
    QString authToken = QStringLiteral("twilio-test-token-42");
    QSet<QString> badNumbers;  // answered 400 with Twilio error 21211
    QSet<QString> failOnceFor; // the first request to each answered 500
    QList<Request> requests;

    FakeTwilio()
    {
        m_engine.setHandler(
            [this](const HttpRequest &http, const HttpResponder &responder) { responder.respond(handle(http)); });
        if (!m_engine.listen(QHostAddress::LocalHost, 0, std::nullopt))
            qFatal("fake Twilio API cannot listen: %s", qPrintable(m_engine.errorString()));
    }
    ~FakeTwilio() { m_engine.shutdown(0); }

    QString baseUrl() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_engine.serverPort()); }

    QStringList problems() const
    {
        QStringList out;
        for (const Request &r : requests) {
            if (!r.problem.isEmpty())
                out << r.problem;
        }
        return out;
    }

    static QString formValue(const QByteArray &body, const QString &name)
    {
        for (const QByteArray &part : body.split('&')) {
            const qsizetype eq = part.indexOf('=');
            QByteArray key = part.left(eq), value = eq >= 0 ? part.mid(eq + 1) : QByteArray();
            key.replace('+', ' ');
            value.replace('+', ' ');
            if (QString::fromUtf8(QByteArray::fromPercentEncoding(key)) == name)
                return QString::fromUtf8(QByteArray::fromPercentEncoding(value));
        }
        return {};
    }

private:
    static HttpResponse json(int status, const QJsonObject &o)
    {
        HttpResponse r;
        r.status = status;
        r.body = QJsonDocument(o).toJson(QJsonDocument::Compact);
        r.headers.emplaceBack("Content-Type", "application/json");
        return r;
    }

    HttpResponse handle(const HttpRequest &http)
    {
        Request r;
        r.receivedAt = QDateTime::currentMSecsSinceEpoch() / 1000.0;
        r.path = QString::fromUtf8(http.path);
        r.authorization = http.header("Authorization");
        r.contentType = http.header("Content-Type");
        r.to = formValue(http.body, QStringLiteral("To"));
        r.from = formValue(http.body, QStringLiteral("From"));
        r.body = formValue(http.body, QStringLiteral("Body"));
        r.statusCallback = formValue(http.body, QStringLiteral("StatusCallback"));
        const QString path = QStringLiteral("/2010-04-01/Accounts/%1/Messages.json").arg(accountSid);
        const QByteArray basic = "Basic " + (accountSid + QLatin1Char(':') + authToken).toUtf8().toBase64();
        if (http.method != "POST" || r.path != path)
            r.problem = QStringLiteral("unexpected %1 %2").arg(QString::fromUtf8(http.method), r.path);
        else if (r.authorization != basic)
            r.problem = QStringLiteral("wrong Authorization: %1").arg(QString::fromUtf8(r.authorization));
        else if (!r.contentType.startsWith("application/x-www-form-urlencoded"))
            r.problem = QStringLiteral("wrong Content-Type: %1").arg(QString::fromUtf8(r.contentType));
        else if (!r.to.startsWith(QLatin1Char('+')) || r.from.isEmpty() || r.body.isEmpty())
            r.problem = QStringLiteral("To, From or Body missing: %1").arg(QString::fromUtf8(http.body));
        HttpResponse answer;
        if (!r.problem.isEmpty()) {
            r.status = 401;
            answer = json(401, {{QStringLiteral("code"), 20003},
                                {QStringLiteral("message"), r.problem},
                                {QStringLiteral("status"), 401}});
        } else if (badNumbers.contains(r.to)) {
            r.status = 400;
            answer =
                json(400, {{QStringLiteral("code"), 21211},
                           {QStringLiteral("message"),
                            QStringLiteral("The 'To' number %1 is not a valid phone number.").arg(r.to)},
                           {QStringLiteral("more_info"), QStringLiteral("https://www.twilio.com/docs/errors/21211")},
                           {QStringLiteral("status"), 400}});
        } else if (failOnceFor.remove(r.to)) {
            r.status = 500;
            answer = json(500, {{QStringLiteral("code"), 20500},
                                {QStringLiteral("message"), QStringLiteral("Internal")},
                                {QStringLiteral("status"), 500}});
        } else {
            r.status = 201;
            r.sid = QStringLiteral("SM%1").arg(++m_next, 32, 16, QLatin1Char('0'));
            answer = json(201, {{QStringLiteral("sid"), r.sid},
                                {QStringLiteral("account_sid"), accountSid},
                                {QStringLiteral("to"), r.to},
                                {QStringLiteral("from"), r.from},
                                {QStringLiteral("body"), r.body},
                                {QStringLiteral("status"), QStringLiteral("queued")}});
        }
        requests.append(r);
        return answer;
    }

    HttpEngine m_engine;
    int m_next = 0;
};
