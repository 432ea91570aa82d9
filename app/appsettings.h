#pragma once

#include "messaging/assistant/assistantautoreply.h"
#include "messaging/campaigns/campaignsconfig.h"
#include "model/backup/backup.h"
#include "server/serverconfig.h"

#include <QHash>
#include <QString>
#include <QVariant>

class SecretStore;

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
    // database/startCheckSeconds: how long the check of the SQLite file may take when the window or
    // the server starts (default 20, 1 to 3600); past it the start goes on with a warning. False
    // with a reason when malformed.
    bool startCheckSeconds(int *seconds, QString *error) const;
    // DATA/liaison.ini.
    QString iniPath() const;
    // backup/keep: how many backups DATA/backups keeps (default 7, 0 to 3650); 0 turns the daily
    // automatic backup off. False with a reason when malformed.
    bool backupKeep(int *keep, QString *error) const;
    // As above; the default when the value is malformed (logged).
    int backupKeep() const;
    // Where the data directory's database and uploads are, for a backup.
    Backup::Place backupPlace() const;
    // What a Settings page saves: each key written to the ini file, trimmed; an empty value removes
    // the key. False with the reason when the file cannot be written.
    static bool writeIni(const QString &iniFile, const QHash<QString, QString> &values, QString *error);
    // The same for a page with one secret: the value of secretName, trimmed, to the secret store
    // (removed when blank), the other keys to the ini file. False with the reason.
    static bool writeIniAndSecret(const QString &iniFile, const QHash<QString, QString> &values,
                                  const QString &secretName, SecretStore &secrets, QString *error);

    // The server's part; false with a reason when a value is malformed (e.g. server/listen).
    bool serverConfig(ServerConfig *config, QString *error) const;
    // Section "media": maxUploadBytes (default 16 MiB, 1 to 1 GiB), lifetimeDays (default 30),
    // publicBaseUrl (an http(s) URL; empty: the server's own). False with a reason when malformed.
    bool mediaConfig(MediaConfig *config, QString *error) const;
    // ai/answerThreshold and ai/marginThreshold (0 to 1; defaults AssistantThresholds'). False with a
    // reason when malformed.
    bool assistantThresholds(AssistantThresholds *thresholds, QString *error) const;
    // The assistant's language model (ai/llmBaseUrl: https, or http on a loopback address; empty:
    // none; ai/llmModel; ai/llmTimeoutSeconds 1 to 600, default 20; the key is the secret
    // ai.llmApiKey, filled by the caller) and the inbox's auto-reply (ai/autoReply/<channel>: off,
    // suggest or on, default off; ai/name, default "Asistan"). False with a reason when malformed.
    bool languageModelConfig(LanguageModelConfig *config, QString *error) const;
    bool autoReplyConfig(AutoReplyConfig *config, QString *error) const;
    // tasks/timeZone: an IANA name ("Europe/Istanbul"); empty or absent: the machine's time zone.
    // "Today" and "overdue" of tasks are computed in it. False with a reason for an unknown name.
    bool tasksTimeZone(QTimeZone *timeZone, QString *error) const;
    // As above; the machine's zone when the setting is invalid (serverConfig() reports that).
    QTimeZone tasksTimeZone() const
    {
        QTimeZone tz;
        QString error;
        return tasksTimeZone(&tz, &error) ? tz : QTimeZone::systemTimeZone();
    }
    // Section "webhooks": retryDelays (seconds, comma-separated), timeoutSeconds, verifyTls,
    // allowInsecureLocal, concurrencyPerSubscription, maxConcurrent, pollIntervalMs, caFile.
    // False with a reason for a malformed value.
    bool webhookConfig(WebhookConfig *config, QString *error) const;
    // As above; a malformed value is logged and its default used (the delivery thread's start).
    WebhookConfig webhookConfig() const;
    // Section "channels" (whatsapp/telegram/instagram/widget keys, retryDelays, timeoutSeconds,
    // pollIntervalMs, probeIntervalSeconds). Secrets come from the settings only when given with
    // --set (never from liaison.ini); the app fills the others from the keychain.
    bool channelsConfig(ChannelsConfig *config, QString *error) const;
    // Sections "mail" (smtpHost, smtpPort, security, user, from, verifyTls, dkimDomain, dkimSelector,
    // timeoutSeconds) and "campaigns" (publicBaseUrl, tracking, email/messagesPerSecond,
    // email/concurrency, email/maxPerHour, maxSendErrors, retryDelays, pollIntervalMs,
    // audienceCheckSeconds; the drip send windows' zone is tasks/timeZone). The secrets
    // mail.password and mail.dkimKey come from the secret store (the app fills them). False with a
    // reason for a malformed value.
    bool campaignsConfig(CampaignsConfig *config, QString *error) const;

private:
    bool readDripSettings(CampaignsConfig *config, QString *error) const;

    QString m_dataDir;
    QHash<QString, QString> m_overrides;
};

// "127.0.0.1:8443", "[::1]:8443", "0.0.0.0:9000"
bool parseListen(const QString &text, QHostAddress *address, quint16 *port);
