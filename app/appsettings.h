#pragma once

#include "serverconfig.h"

#include <QHash>
#include <QString>
#include <QVariant>

// Settings of one data directory: DATA/liaison.ini, overridden for this run by --set section/key=value.
// Every key, its default and meaning is listed in the README ("Settings keys").
class AppSettings
{
public:
    explicit AppSettings(QString dataDir);

    // "section/key=value"; false (with the reason) when it is not of that form.
    bool addOverride(const QString &assignment, QString *error);
    QVariant value(const QString &key, const QVariant &fallback = {}) const;
    bool isOverridden(const QString &key) const { return m_overrides.contains(key); }
    const QHash<QString, QString> &overrides() const { return m_overrides; }
    QString dataDir() const { return m_dataDir; }
    QString databasePath() const;

    // The server's part; false with a reason when a value is malformed (e.g. server/listen).
    bool serverConfig(ServerConfig *config, QString *error) const;

private:
    QString m_dataDir;
    QHash<QString, QString> m_overrides;
};

// "127.0.0.1:8443", "[::1]:8443", "0.0.0.0:9000"
bool parseListen(const QString &text, QHostAddress *address, quint16 *port);
