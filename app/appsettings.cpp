#include "app/appsettings.h"

#include "app/secrets/secretstore.h"
#include "messaging/assistant/assistantsettingsrules.h"
#include "messaging/campaigns/smssettingsrules.h"
#include "messaging/channels/channelconfig.h"

#include <QCoreApplication>
#include <QDir>
#include <QRegularExpression>
#include <QSettings>
#include <QSslCertificate>
#include <QUrl>

AppSettings::AppSettings(QString dataDir)
    : m_dataDir(std::move(dataDir))
{
}

bool AppSettings::addOverride(const QString &assignment, QString *error)
{
    const qsizetype eq = assignment.indexOf(QLatin1Char('='));
    const QString key = assignment.left(eq).trimmed();
    if (eq <= 0 || !key.contains(QLatin1Char('/')) || key.startsWith(QLatin1Char('/')) ||
        key.endsWith(QLatin1Char('/'))) {
        *error = QStringLiteral("--set needs section/key=value, got \"%1\"").arg(assignment);
        return false;
    }
    m_overrides.insert(key, assignment.mid(eq + 1));
    return true;
}

QVariant AppSettings::value(const QString &key, const QVariant &fallback) const
{
    auto it = m_overrides.constFind(key);
    if (it != m_overrides.constEnd())
        return *it;
    QSettings ini(iniPath(), QSettings::IniFormat);
    return ini.value(key, fallback);
}

QString AppSettings::iniPath() const
{
    return QDir(m_dataDir).filePath(QStringLiteral("liaison.ini"));
}

bool AppSettings::writeIni(const QString &iniFile, const QHash<QString, QString> &values, QString *error)
{
    QSettings ini(iniFile, QSettings::IniFormat);
    for (auto it = values.begin(); it != values.end(); ++it) {
        const QString value = it.value().trimmed();
        if (value.isEmpty())
            ini.remove(it.key());
        else
            ini.setValue(it.key(), value);
    }
    ini.sync();
    if (ini.status() != QSettings::NoError) {
        *error = QStringLiteral("%1 cannot be written").arg(iniFile);
        return false;
    }
    return true;
}

QString AppSettings::databasePath() const
{
    return value(QStringLiteral("database/path"), QDir(m_dataDir).filePath(QStringLiteral("liaison.db"))).toString();
}

bool parseListen(const QString &text, QHostAddress *address, quint16 *port)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return false;
    QString host = text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    if (host == QLatin1String("localhost"))
        host = QStringLiteral("127.0.0.1");
    bool ok = false;
    const uint p = text.mid(colon + 1).toUInt(&ok);
    if (!ok || p > 65535 || !address->setAddress(host))
        return false;
    *port = quint16(p);
    return true;
}

namespace {
bool readInt(const AppSettings &s, const QString &key, int fallback, int min, int max, int *out, QString *error)
{
    bool ok = false;
    const int v = s.value(key, fallback).toString().toInt(&ok);
    if (!ok || v < min || v > max) {
        *error = QStringLiteral("setting %1 must be an integer from %2 to %3").arg(key).arg(min).arg(max);
        return false;
    }
    *out = v;
    return true;
}
} // namespace

bool AppSettings::startCheckSeconds(int *seconds, QString *error) const
{
    return readInt(*this, QStringLiteral("database/startCheckSeconds"), 20, 1, 3600, seconds, error);
}

bool AppSettings::backupKeep(int *keep, QString *error) const
{
    return readInt(*this, QStringLiteral("backup/keep"), 7, 0, 3650, keep, error);
}

int AppSettings::backupKeep() const
{
    int keep = 7;
    QString error;
    if (!backupKeep(&keep, &error)) {
        qWarning("%s; keeping 7 backups", qPrintable(error));
        keep = 7;
    }
    return keep;
}

Backup::Place AppSettings::backupPlace() const
{
    return {m_dataDir, databasePath(), QDir(m_dataDir).filePath(QStringLiteral("media"))};
}

namespace {
bool readBool(const AppSettings &s, const QString &key, bool fallback, bool *out, QString *error)
{
    const QString v = s.value(key, fallback ? QStringLiteral("true") : QStringLiteral("false")).toString().toLower();
    if (v == QLatin1String("true") || v == QLatin1String("1") || v == QLatin1String("yes"))
        *out = true;
    else if (v == QLatin1String("false") || v == QLatin1String("0") || v == QLatin1String("no"))
        *out = false;
    else {
        *error = QStringLiteral("setting %1 must be true or false").arg(key);
        return false;
    }
    return true;
}

// Seconds separated by commas (1 to 20 of them, 0 to 30 days each); absent: *out unchanged.
bool readDelays(const AppSettings &s, const QString &key, QList<int> *out, QString *error)
{
    const QString delays = s.value(key).toString().trimmed();
    if (delays.isEmpty())
        return true;
    QList<int> list;
    for (const QString &part : delays.split(QLatin1Char(','))) {
        bool ok = false;
        const int v = part.trimmed().toInt(&ok);
        if (!ok || v < 0 || v > 30 * 86400) {
            *error = QStringLiteral("setting %1 must be seconds separated by commas (0 to 2592000 each), got \"%2\"")
                         .arg(key, delays);
            return false;
        }
        list << v;
    }
    if (list.size() > 20) {
        *error = QStringLiteral("setting %1 must list 1 to 20 delays").arg(key);
        return false;
    }
    *out = list;
    return true;
}

// A base URL of a provider: https, or http on a loopback address.
bool readBaseUrl(const AppSettings &s, const QString &key, QString *out, QString *error)
{
    const QString url = s.value(key, *out).toString().trimmed();
    QString why;
    if (!ChannelUrls::allowed(QUrl(url), &why)) {
        *error = QStringLiteral("setting %1: %2 (got \"%3\")").arg(key, why, url);
        return false;
    }
    *out = url;
    return true;
}
} // namespace

bool AppSettings::serverConfig(ServerConfig *c, QString *error) const
{
    const QString listen = value(QStringLiteral("server/listen"), QStringLiteral("127.0.0.1:8443")).toString();
    if (!parseListen(listen, &c->address, &c->port)) {
        *error = QStringLiteral("server/listen must be HOST:PORT, got \"%1\"").arg(listen);
        return false;
    }
    c->dataDir = m_dataDir;
    c->tlsCert = value(QStringLiteral("server/tlsCert")).toString();
    c->tlsKey = value(QStringLiteral("server/tlsKey")).toString();
    if (!tasksTimeZone(&c->tasksTimeZone, error))
        return false;
    if (!webhookConfig(&c->webhooks, error))
        return false;
    if (!channelsConfig(&c->channels, error))
        return false;
    if (!mediaConfig(&c->media, error))
        return false;
    if (!assistantThresholds(&c->assistant, error) || !languageModelConfig(&c->languageModel, error))
        return false;
    int idleSeconds = 60;
    int requestSeconds = 30;
    int headerSeconds = 10;
    HttpLimits &l = c->limits;
    return readBool(*this, QStringLiteral("server/tls"), true, &c->tls, error) &&
           readInt(*this, QStringLiteral("server/rateLimitPerMinute"), 100, 0, 1000000, &c->rateLimitPerMinute,
                   error) &&
           readInt(*this, QStringLiteral("server/loginFailuresPer15Minutes"), 10, 0, 100000, &c->loginFailuresPerWindow,
                   error) &&
           readInt(*this, QStringLiteral("server/loginFailuresPerAccountPer15Minutes"), 30, 0, 100000,
                   &c->loginFailuresPerAccount, error) &&
           readInt(*this, QStringLiteral("server/loginFailuresPerAddressPer15Minutes"), 100, 0, 100000,
                   &c->loginFailuresPerAddress, error) &&
           readInt(*this, QStringLiteral("server/idleTimeoutSeconds"), 60, 1, 86400, &idleSeconds, error) &&
           readInt(*this, QStringLiteral("server/requestTimeoutSeconds"), 30, 1, 86400, &requestSeconds, error) &&
           readInt(*this, QStringLiteral("server/headerTimeoutSeconds"), 10, 1, 86400, &headerSeconds, error) &&
           readInt(*this, QStringLiteral("server/bodyMinBytesPerSecond"), 1024, 0, 1 << 30, &l.bodyMinBytesPerSecond,
                   error) &&
           readInt(*this, QStringLiteral("server/maxConnections"), 1024, 1, 1000000, &l.maxConnections, error) &&
           readInt(*this, QStringLiteral("server/maxConnectionsPerClient"), 256, 0, 1000000, &l.maxConnectionsPerClient,
                   error) &&
           readInt(*this, QStringLiteral("server/threads"), 0, 0, 8, &c->threads, error) &&
           readInt(*this, QStringLiteral("auth/accessTokenMinutes"), 15, 15, 60, &c->accessTokenMinutes, error) &&
           readInt(*this, QStringLiteral("auth/refreshTokenDays"), 30, 1, 365, &c->refreshTokenDays, error) &&
           (l.idleTimeoutMs = idleSeconds * 1000, l.requestTimeoutMs = requestSeconds * 1000,
            l.headerTimeoutMs = headerSeconds * 1000, true);
}

namespace {
// A key of the assistant's settings checked with the rules Settings > Assistant checks too
// (messaging/assistant/assistantsettingsrules.h).
bool checkAssistantSetting(const QString &key, const QString &value, QString *error)
{
    if (const ModelText why = AssistantSettingsRules::problem(key, value); !why.isNull()) {
        *error = QStringLiteral("setting %1 %2").arg(key, why.english());
        return false;
    }
    return true;
}
} // namespace

bool AppSettings::assistantThresholds(AssistantThresholds *t, QString *error) const
{
    for (const auto &[key, out] : {std::pair{AssistantSettingsRules::answerThresholdKey(), &t->answer},
                                   std::pair{AssistantSettingsRules::marginThresholdKey(), &t->margin}}) {
        const QString v = value(key).toString().trimmed();
        if (!checkAssistantSetting(key, v, error))
            return false;
        *out = v.isEmpty() ? AssistantSettingsRules::numberRange(key)->fallback : v.toDouble();
    }
    return true;
}

bool AppSettings::writeIniAndSecret(const QString &iniFile, const QHash<QString, QString> &values,
                                    const QString &secretName, SecretStore &secrets, QString *error)
{
    const QString v = values.value(secretName).trimmed();
    if (!(v.isEmpty() ? secrets.remove(secretName) : secrets.write(secretName, v.toUtf8()))) {
        *error = QStringLiteral("the secret store refused %1").arg(secretName);
        return false;
    }
    QHash<QString, QString> plain = values;
    plain.remove(secretName);
    return writeIni(iniFile, plain, error);
}

bool AppSettings::languageModelConfig(LanguageModelConfig *c, QString *error) const
{
    c->baseUrl = value(AssistantSettingsRules::llmBaseUrlKey()).toString().trimmed();
    while (c->baseUrl.endsWith(QLatin1Char('/')))
        c->baseUrl.chop(1);
    c->model = value(AssistantSettingsRules::llmModelKey()).toString().trimmed();
    const QString timeout = value(AssistantSettingsRules::llmTimeoutKey()).toString().trimmed();
    if (!checkAssistantSetting(AssistantSettingsRules::llmBaseUrlKey(), c->baseUrl, error) ||
        !checkAssistantSetting(AssistantSettingsRules::llmTimeoutKey(), timeout, error))
        return false;
    c->timeoutSeconds =
        timeout.isEmpty() ? int(AssistantSettingsRules::numberRange(AssistantSettingsRules::llmTimeoutKey())->fallback)
                          : timeout.toInt();
    return true;
}

bool AppSettings::autoReplyConfig(AutoReplyConfig *c, QString *error) const
{
    for (const QString &channel : AssistantSettingsRules::channels()) {
        const QString key = AssistantSettingsRules::autoReplyKey(channel);
        const QString mode = value(key).toString().trimmed().toLower();
        if (!checkAssistantSetting(key, mode, error))
            return false;
        c->modes.insert(channel, mode.isEmpty() ? QStringLiteral("off") : mode);
    }
    const QString name = value(AssistantSettingsRules::nameKey()).toString().trimmed();
    if (!name.isEmpty())
        c->name = name.left(AssistantSettingsRules::kMaxName);
    return true;
}

bool AppSettings::tasksTimeZone(QTimeZone *timeZone, QString *error) const
{
    const QString name = value(QStringLiteral("tasks/timeZone")).toString().trimmed();
    if (name.isEmpty()) {
        *timeZone = QTimeZone::systemTimeZone();
        return true;
    }
    const QTimeZone tz(name.toUtf8());
    if (!tz.isValid()) {
        *error = QStringLiteral("setting tasks/timeZone must be an IANA time zone name such as Europe/Istanbul, got "
                                "\"%1\"")
                     .arg(name);
        return false;
    }
    *timeZone = tz;
    return true;
}

bool AppSettings::webhookConfig(WebhookConfig *c, QString *error) const
{
    if (!readDelays(*this, QStringLiteral("webhooks/retryDelays"), &c->retryDelays, error))
        return false;
    const QString caFile = value(QStringLiteral("webhooks/caFile")).toString();
    if (!caFile.isEmpty()) {
        c->caCertificates = QSslCertificate::fromPath(caFile, QSsl::Pem);
        if (c->caCertificates.isEmpty()) {
            *error = QStringLiteral("setting webhooks/caFile: no PEM certificate could be read from %1").arg(caFile);
            return false;
        }
    }
    const QString targets = value(QStringLiteral("webhooks/allowedTargets"), QStringLiteral("public")).toString();
    if (!WebhookRules::parseTargets(targets, &c->allowedTargets)) {
        *error = QStringLiteral("setting webhooks/allowedTargets: '%1' is not public, private or local").arg(targets);
        return false;
    }
    return readInt(*this, QStringLiteral("webhooks/timeoutSeconds"), 30, 1, 300, &c->timeoutSeconds, error) &&
           readInt(*this, QStringLiteral("webhooks/leaseMarginSeconds"), 60, 1, 3600, &c->leaseMarginSeconds, error) &&
           readBool(*this, QStringLiteral("webhooks/verifyTls"), true, &c->verifyTls, error) &&
           readBool(*this, QStringLiteral("webhooks/allowInsecureLocal"), false, &c->allowInsecureLocal, error) &&
           readInt(*this, QStringLiteral("webhooks/concurrencyPerSubscription"), 1, 1, 16,
                   &c->concurrencyPerSubscription, error) &&
           readInt(*this, QStringLiteral("webhooks/maxConcurrent"), 16, 1, 256, &c->maxConcurrent, error) &&
           readInt(*this, QStringLiteral("webhooks/maxSubscriptions"), WebhookPolicy::kDefaultMaxSubscriptions, 1, 1000,
                   &c->maxSubscriptions, error) &&
           readInt(*this, QStringLiteral("webhooks/logRetentionDays"), 30, 1, 3650, &c->logRetentionDays, error) &&
           readInt(*this, QStringLiteral("webhooks/pollIntervalMs"), 1000, 10, 600000, &c->pollIntervalMs, error);
}

WebhookConfig AppSettings::webhookConfig() const
{
    WebhookConfig c;
    QString error;
    if (!webhookConfig(&c, &error)) {
        qWarning("%s; webhook defaults used", qPrintable(error));
        c = WebhookConfig();
    }
    return c;
}

bool AppSettings::channelsConfig(ChannelsConfig *c, QString *error) const
{
    auto text = [this](const QString &key, QString *out) { *out = value(key, *out).toString().trimmed(); };
    // Secrets: only from --set (used for this run, written nowhere); never from liaison.ini. The
    // app fills the others from the keychain.
    auto secret = [this](const QString &key, QString *out) {
        if (m_overrides.contains(key))
            *out = m_overrides.value(key).trimmed();
    };
    WhatsAppConfig &w = c->whatsapp;
    text(QStringLiteral("channels/whatsapp/phoneNumberId"), &w.phoneNumberId);
    secret(QStringLiteral("channels/whatsapp/accessToken"), &w.accessToken);
    secret(QStringLiteral("channels/whatsapp/appSecret"), &w.appSecret);
    secret(QStringLiteral("channels/whatsapp/verifyToken"), &w.verifyToken);
    text(QStringLiteral("channels/widget/visitorName"), &c->widgetVisitorName);
    if (c->widgetVisitorName.isEmpty()) // in the window's language (the window loads its translation first)
        c->widgetVisitorName = QCoreApplication::translate("AppSettings", "Website visitor");
    TelegramConfig &t = c->telegram;
    secret(QStringLiteral("channels/telegram/botToken"), &t.botToken);
    text(QStringLiteral("channels/telegram/mode"), &t.mode);
    secret(QStringLiteral("channels/telegram/secretToken"), &t.secretToken);
    text(QStringLiteral("channels/telegram/webhookUrl"), &t.webhookUrl);
    if (!t.webhookUrl.isEmpty() && QUrl(t.webhookUrl).scheme() != QLatin1String("https")) {
        *error =
            QStringLiteral("setting channels/telegram/webhookUrl must be an https URL, got \"%1\"").arg(t.webhookUrl);
        return false;
    }
    if (t.mode != QLatin1String("polling") && t.mode != QLatin1String("webhook")) {
        *error = QStringLiteral("setting channels/telegram/mode must be polling or webhook, got \"%1\"").arg(t.mode);
        return false;
    }
    InstagramConfig &i = c->instagram;
    text(QStringLiteral("channels/instagram/accountId"), &i.accountId);
    secret(QStringLiteral("channels/instagram/accessToken"), &i.accessToken);
    secret(QStringLiteral("channels/instagram/appSecret"), &i.appSecret);
    secret(QStringLiteral("channels/instagram/verifyToken"), &i.verifyToken);
    return readBaseUrl(*this, QStringLiteral("channels/whatsapp/apiBaseUrl"), &w.apiBaseUrl, error) &&
           readBaseUrl(*this, QStringLiteral("channels/telegram/apiBaseUrl"), &t.apiBaseUrl, error) &&
           readBaseUrl(*this, QStringLiteral("channels/instagram/apiBaseUrl"), &i.apiBaseUrl, error) &&
           readInt(*this, QStringLiteral("channels/whatsapp/sendPerSecond"), 80, 0, 100000, &w.sendPerSecond, error) &&
           readInt(*this, QStringLiteral("channels/telegram/sendPerSecond"), 30, 0, 100000, &t.sendPerSecond, error) &&
           readInt(*this, QStringLiteral("channels/telegram/pollTimeoutSeconds"), 25, 0, 50, &t.pollTimeoutSeconds,
                   error) &&
           readInt(*this, QStringLiteral("channels/instagram/sendPerSecond"), 40, 0, 100000, &i.sendPerSecond, error) &&
           readInt(*this, QStringLiteral("channels/widget/sendPerSecond"), 0, 0, 100000, &c->widgetSendPerSecond,
                   error) &&
           readDelays(*this, QStringLiteral("channels/retryDelays"), &c->retryDelays, error) &&
           readInt(*this, QStringLiteral("channels/timeoutSeconds"), 30, 1, 300, &c->timeoutSeconds, error) &&
           readInt(*this, QStringLiteral("channels/leaseMarginSeconds"), 60, 1, 3600, &c->leaseMarginSeconds, error) &&
           readInt(*this, QStringLiteral("channels/pollIntervalMs"), 1000, 10, 600000, &c->pollIntervalMs, error) &&
           readInt(*this, QStringLiteral("channels/probeIntervalSeconds"), 30, 1, 86400, &c->probeIntervalSeconds,
                   error);
}

bool AppSettings::mediaConfig(MediaConfig *c, QString *error) const
{
    int maxBytes = 0;
    if (!readInt(*this, QStringLiteral("media/maxUploadBytes"), int(c->maxUploadBytes), 1, 1024 * 1024 * 1024,
                 &maxBytes, error) ||
        !readInt(*this, QStringLiteral("media/lifetimeDays"), c->lifetimeDays, 1, 3650, &c->lifetimeDays, error))
        return false;
    c->maxUploadBytes = maxBytes;
    QString base = value(QStringLiteral("media/publicBaseUrl")).toString().trimmed();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    if (!base.isEmpty()) {
        const QUrl url(base, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")) ||
            url.host().isEmpty() || url.hasQuery() || url.hasFragment()) {
            *error = QStringLiteral("setting media/publicBaseUrl must be an http(s) URL such as "
                                    "https://crm.example.com, got \"%1\"")
                         .arg(base);
            return false;
        }
    }
    c->publicBaseUrl = base;
    return true;
}

bool AppSettings::campaignsConfig(CampaignsConfig *c, QString *error) const
{
    MailConfig &m = c->mail;
    auto text = [this](const QString &key, QString *out) { *out = value(key, *out).toString().trimmed(); };
    text(QStringLiteral("mail/smtpHost"), &m.smtpHost);
    text(QStringLiteral("mail/security"), &m.security);
    m.security = m.security.toLower();
    text(QStringLiteral("mail/user"), &m.user);
    text(QStringLiteral("mail/from"), &m.from);
    text(QStringLiteral("mail/dkimDomain"), &m.dkimDomain);
    text(QStringLiteral("mail/dkimSelector"), &m.dkimSelector);
    text(QStringLiteral("campaigns/publicBaseUrl"), &c->publicBaseUrl);
    SmsConfig &sms = c->smsApi;
    text(SmsSettingsRules::apiBaseUrlKey(), &sms.apiBaseUrl);
    text(SmsSettingsRules::accountSidKey(), &sms.accountSid);
    text(SmsSettingsRules::fromKey(), &sms.from);
    while (sms.apiBaseUrl.endsWith(QLatin1Char('/')))
        sms.apiBaseUrl.chop(1);
    if (sms.apiBaseUrl.isEmpty()) // set empty: the default, as Settings > SMS shows it
        sms.apiBaseUrl = SmsConfig().apiBaseUrl;
    // The rules Settings > SMS checks too (messaging/campaigns/smssettingsrules.h).
    for (const auto &[key, v] : {std::pair{SmsSettingsRules::apiBaseUrlKey(), &sms.apiBaseUrl},
                                 std::pair{SmsSettingsRules::accountSidKey(), &sms.accountSid},
                                 std::pair{SmsSettingsRules::fromKey(), &sms.from}}) {
        if (const ModelText why = SmsSettingsRules::problem(key, *v); !why.isNull()) {
            *error = QStringLiteral("setting %1 %2").arg(key, why.english());
            return false;
        }
    }
    auto smsInt = [this, error](const QString &key, int *out) {
        const SmsSettingsRules::IntRange r = *SmsSettingsRules::intRange(key);
        return readInt(*this, key, r.fallback, r.min, r.max, out, error);
    };
    if (m.security != MailConfig::securityStartTls() && m.security != MailConfig::securityTls() &&
        m.security != MailConfig::securityNone()) {
        *error = QStringLiteral("setting mail/security must be starttls, tls or none, got \"%1\"").arg(m.security);
        return false;
    }
    if (m.security == MailConfig::securityNone() && !m.smtpHost.isEmpty() && !MailConfig::isLoopbackHost(m.smtpHost)) {
        *error = QStringLiteral("setting mail/security=none is allowed only for a loopback host, not \"%1\"")
                     .arg(m.smtpHost);
        return false;
    }
    if (!c->publicBaseUrl.isEmpty()) {
        const QUrl url(c->publicBaseUrl);
        if (!url.isValid() || (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")) ||
            url.host().isEmpty()) {
            *error = QStringLiteral("setting campaigns/publicBaseUrl must be an http(s) URL, got \"%1\"")
                         .arg(c->publicBaseUrl);
            return false;
        }
    }
    return readInt(*this, QStringLiteral("mail/smtpPort"), 587, 1, 65535, &m.smtpPort, error) &&
           readBool(*this, QStringLiteral("mail/verifyTls"), true, &m.verifyTls, error) &&
           readInt(*this, QStringLiteral("mail/timeoutSeconds"), 30, 1, 600, &m.timeoutSeconds, error) &&
           readBool(*this, QStringLiteral("campaigns/tracking"), true, &c->tracking, error) &&
           readInt(*this, QStringLiteral("campaigns/email/messagesPerSecond"), 50, 0, 100000, &c->email.perSecond,
                   error) &&
           readInt(*this, QStringLiteral("campaigns/email/concurrency"), 4, 1, 32, &c->email.concurrency, error) &&
           readInt(*this, QStringLiteral("campaigns/email/maxPerHour"), 0, 0, 100000000, &c->email.maxPerHour, error) &&
           smsInt(SmsSettingsRules::timeoutKey(), &sms.timeoutSeconds) &&
           smsInt(SmsSettingsRules::perSecondKey(), &c->sms.perSecond) &&
           smsInt(SmsSettingsRules::concurrencyKey(), &c->sms.concurrency) &&
           smsInt(SmsSettingsRules::maxPerHourKey(), &c->sms.maxPerHour) &&
           readInt(*this, QStringLiteral("campaigns/maxSendErrors"), 100, 0, 1000000, &c->maxSendErrors, error) &&
           readDelays(*this, QStringLiteral("campaigns/retryDelays"), &c->retryDelays, error) &&
           readInt(*this, QStringLiteral("campaigns/pollIntervalMs"), 1000, 10, 600000, &c->pollIntervalMs, error) &&
           readDripSettings(c, error);
}

bool AppSettings::readDripSettings(CampaignsConfig *c, QString *error) const
{
    int seconds = 60;
    if (!readInt(*this, QStringLiteral("campaigns/audienceCheckSeconds"), 60, 1, 86400, &seconds, error))
        return false;
    c->audienceCheckMs = seconds * 1000;
    return tasksTimeZone(&c->timeZone, error);
}
