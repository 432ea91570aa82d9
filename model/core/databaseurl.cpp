#include "model/core/databaseurl.h"

#include <QUrl>
#include <QUrlQuery>

namespace {
const QStringList kSslModes = {QStringLiteral("disable"), QStringLiteral("allow"),     QStringLiteral("prefer"),
                               QStringLiteral("require"), QStringLiteral("verify-ca"), QStringLiteral("verify-full")};

std::optional<DatabaseUrl> refuse(QString *error, const QString &why)
{
    if (error)
        *error = why;
    return std::nullopt;
}
} // namespace

std::optional<DatabaseUrl> DatabaseUrl::parse(const QString &text, QString *error)
{
    const QString given = text.trimmed();
    const QUrl url(given, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != QLatin1String("postgresql") && scheme != QLatin1String("postgres")))
        return refuse(error, QStringLiteral("not a PostgreSQL URL (postgresql://user@host:port/dbname)"));
    if (!url.password().isEmpty())
        return refuse(error, QStringLiteral("the URL holds a password: put it in the secret store "
                                            "(database.password) instead"));
    DatabaseUrl u;
    u.user = url.userName(QUrl::FullyDecoded);
    u.host = url.host(QUrl::FullyDecoded);
    if (u.host.isEmpty())
        return refuse(error, QStringLiteral("the URL names no host"));
    u.port = url.port(5432);
    if (u.port < 1 || u.port > 65535)
        return refuse(error, QStringLiteral("the port must be from 1 to 65535"));
    u.dbname = url.path(QUrl::FullyDecoded).mid(1);
    if (u.dbname.isEmpty() || u.dbname.contains(QLatin1Char('/')))
        return refuse(error, QStringLiteral("the URL names no database (…/dbname)"));
    const QUrlQuery query(url);
    for (const auto &item : query.queryItems(QUrl::FullyDecoded)) {
        if (item.first == QLatin1String("sslmode")) {
            if (!kSslModes.contains(item.second))
                return refuse(error,
                              QStringLiteral("sslmode must be one of %1").arg(kSslModes.join(QStringLiteral(", "))));
            u.sslmode = item.second;
        } else if (item.first == QLatin1String("connect_timeout")) {
            bool ok = false;
            const int seconds = item.second.toInt(&ok);
            if (!ok || seconds < 1 || seconds > 600)
                return refuse(error, QStringLiteral("connect_timeout must be a number of seconds from 1 to 600"));
            u.connectTimeoutSeconds = seconds;
        } else {
            return refuse(
                error,
                QStringLiteral("unknown URL parameter %1 (sslmode and connect_timeout are read)").arg(item.first));
        }
    }
    return u;
}

QString DatabaseUrl::toString() const
{
    QUrl url;
    url.setScheme(QStringLiteral("postgresql"));
    url.setUserName(user);
    url.setHost(host);
    url.setPort(port);
    url.setPath(QLatin1Char('/') + dbname);
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("sslmode"), sslmode);
    url.setQuery(query);
    return url.toString();
}

QString DatabaseUrl::connectOptions() const
{
    return QStringLiteral("sslmode=%1;connect_timeout=%2").arg(sslmode).arg(connectTimeoutSeconds);
}
