#include "server/api/apirequest.h"

#include "model/accounts/apikeyrepository.h"
#include "model/core/jsonwriter.h"

#include <QJsonArray>

bool Principal::allows(const QString &scope) const
{
    return kind == User || (kind == ApiKey && ApiKey::grants(scopes, scope));
}

QByteArray compactJson(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

ApiResponse ApiResponse::ok(const QJsonValue &data, const QString &message)
{
    QJsonObject o{{QStringLiteral("success"), true}, {QStringLiteral("data"), data}};
    if (!message.isEmpty())
        o.insert(QStringLiteral("message"), message);
    return raw(o, 200);
}

ApiResponse ApiResponse::created(const QJsonValue &data, const QString &message)
{
    ApiResponse r = ok(data, message);
    r.status = 201;
    return r;
}

ApiResponse ApiResponse::message(const QString &message)
{
    return raw(QJsonObject{{QStringLiteral("success"), true}, {QStringLiteral("message"), message}}, 200);
}

ApiResponse ApiResponse::page(const QJsonArray &items, int page, int limit, qint64 total)
{
    const qint64 totalPages = limit > 0 ? (total + limit - 1) / limit : 0;
    return raw(
        QJsonObject{{QStringLiteral("success"), true},
                    {QStringLiteral("data"), items},
                    {QStringLiteral("pagination"), QJsonObject{{QStringLiteral("page"), page},
                                                               {QStringLiteral("limit"), limit},
                                                               {QStringLiteral("total"), double(total)},
                                                               {QStringLiteral("totalPages"), double(totalPages)}}}},
        200);
}

ApiResponse ApiResponse::okJson(const QByteArray &dataJson)
{
    ApiResponse r;
    r.body.reserve(dataJson.size() + 32);
    r.body.append("{\"data\":").append(dataJson).append(",\"success\":true}");
    return r;
}

ApiResponse ApiResponse::pageJson(const QByteArray &itemsJson, int page, int limit, qint64 total)
{
    const qint64 totalPages = limit > 0 ? (total + limit - 1) / limit : 0;
    JsonWriter w;
    w.beginObject();
    w.key("data").rawJson(itemsJson);
    w.key("pagination").beginObject();
    w.key("limit").value(limit).key("page").value(page).key("total").value(total).key("totalPages").value(totalPages);
    w.endObject();
    w.key("success").value(true);
    w.endObject();
    ApiResponse r;
    r.body = w.take();
    return r;
}

ApiResponse ApiResponse::raw(const QJsonObject &object, int status)
{
    ApiResponse r;
    r.status = status;
    r.body = compactJson(object);
    return r;
}

ApiResponse ApiResponse::error(int status, const QString &code, const QString &message, const QJsonObject &details)
{
    QJsonObject error{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!details.isEmpty())
        error.insert(QStringLiteral("details"), details);
    return raw(QJsonObject{{QStringLiteral("success"), false}, {QStringLiteral("error"), error}}, status);
}

ApiResponse ApiResponse::protocolError(int status)
{
    static const struct
    {
        int status;
        const char *code;
    } codes[] = {
        {400, "BAD_REQUEST"},
        {408, "REQUEST_TIMEOUT"},
        {411, "LENGTH_REQUIRED"},
        {413, "PAYLOAD_TOO_LARGE"},
        {431, "HEADERS_TOO_LARGE"},
        {501, "NOT_IMPLEMENTED"},
        {505, "HTTP_VERSION_NOT_SUPPORTED"},
    };
    if (status == 500)
        return error(500, QStringLiteral("INTERNAL"), QStringLiteral("Internal server error"));
    for (const auto &c : codes) {
        if (c.status == status)
            return error(status, QLatin1String(c.code), QLatin1String(httpReasonPhrase(status)));
    }
    return error(status, QStringLiteral("INTERNAL"), QLatin1String(httpReasonPhrase(status)));
}
