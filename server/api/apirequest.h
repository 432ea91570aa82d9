#pragma once

#include "server/http/httptypes.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>
#include <QUrlQuery>

#include <functional>

class HttpResponder;

// Who made a request: a signed-in user (JWT) or an API key.
struct Principal
{
    enum Kind
    {
        None,
        User,
        ApiKey
    };
    Kind kind = None;
    QString id; // user_… or apikey_…
    QString name;
    QString role;       // a user's role, or the role of an API key's owner
    QStringList scopes; // API keys only; a user has every scope

    bool allows(const QString &scope) const;
    // What configuration routes need: the admin role. A user has its own; an API key acts with its
    // owner's role (a key without an owner, made before keys had owners, acts as an admin).
    bool isAdmin() const { return kind != None && role == QLatin1String("admin"); }
    // The key the rate limit and Idempotency-Key records use.
    QString credentialKey() const { return id; }
};

struct ApiRequest
{
    const HttpRequest &http;
    QString requestId;
    QHash<QString, QString> params; // path parameters, percent-decoded
    QUrlQuery query;                // decoded; '+' read as a space
    QJsonObject body;               // the parsed JSON object (empty when the body was empty)
    bool hasBody = false;
    Principal principal;

    QString param(const QString &name) const { return params.value(name); }
    bool hasQuery(const QString &name) const { return query.hasQueryItem(name); }
    QString queryValue(const QString &name) const { return query.queryItemValue(name, QUrl::FullyDecoded); }
};

struct ApiResponse
{
    int status = 200;
    QByteArray body; // compact JSON
    QList<QPair<QByteArray, QByteArray>> headers;
    // When set, the server does not answer with `body`: it calls this with the responder and the
    // finished head (status, headers, the middleware's own) to start a streaming answer
    // (HttpResponder::stream). Runs in the server thread, right after the handler returns.
    std::function<void(const HttpResponder &, HttpResponse head)> stream;

    // { success: true, data, message? }
    static ApiResponse ok(const QJsonValue &data, const QString &message = {});
    static ApiResponse created(const QJsonValue &data, const QString &message = {});
    // { success: true, message }
    static ApiResponse message(const QString &message);
    // { success: true, data: [...], pagination: { page, limit, total, totalPages } }
    static ApiResponse page(const QJsonArray &items, int page, int limit, qint64 total);
    // The same answers with data already written as compact JSON (JsonWriter): the hot paths.
    static ApiResponse okJson(const QByteArray &dataJson);
    static ApiResponse pageJson(const QByteArray &itemsJson, int page, int limit, qint64 total);
    // A body given as is (e.g. the OpenAPI document).
    static ApiResponse raw(const QJsonObject &object, int status = 200);
    static ApiResponse error(int status, const QString &code, const QString &message, const QJsonObject &details = {});
    // The envelope of a request the HTTP engine refused before any route saw it (400 malformed,
    // 408, 411, 413, 431, 501, 505) or whose handler threw (500): a code per status, the reason
    // phrase as message.
    static ApiResponse protocolError(int status);
};

QByteArray compactJson(const QJsonObject &object);
