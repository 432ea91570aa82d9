#pragma once

#include <QString>

#include <optional>

// Where a team's shared PostgreSQL database is: the setting database/url, written as libpq reads a
// URL, postgresql://[user@]host[:port]/dbname[?sslmode=…&connect_timeout=…] ("postgres://" too).
// The password is never part of it: it comes from the secret store (database.password), so that
// liaison.ini holds nothing secret.
struct DatabaseUrl
{
    QString user; // empty: libpq's default (the system user's name)
    QString host; // a name, an IPv4 address, or an IPv6 address (without brackets)
    int port = 5432;
    QString dbname;
    QString sslmode = QStringLiteral("prefer"); // disable, allow, prefer, require, verify-ca, verify-full
    int connectTimeoutSeconds = 10;

    // nullopt and *error set when the text is not such a URL (the error says what is wrong).
    static std::optional<DatabaseUrl> parse(const QString &text, QString *error);
    // The URL again, for messages and logs.
    QString toString() const;
    // The options QPSQL passes to libpq (QSqlDatabase::setConnectOptions).
    QString connectOptions() const;
};
