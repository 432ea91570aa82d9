#include "app/channelssettings.h"

#include "app/appsettings.h"
#include "app/secrets/secretstore.h"
#include "messaging/channels/channelconnector.h"
#include "messaging/channels/channelregistry.h"
#include "messaging/channels/instagramconnector.h"
#include "messaging/channels/telegramconnector.h"
#include "messaging/channels/whatsappconnector.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"

#include <QRegularExpression>
#include <QSettings>

namespace {
QString k(const char *channel, const char *name)
{
    return QStringLiteral("channels/%1/%2").arg(QLatin1String(channel), QLatin1String(name));
}

// A form value over a default: empty keeps the default.
void take(const ChannelsPage::Values &values, const QString &key, QString *out)
{
    const QString v = values.value(key).trimmed();
    if (!v.isEmpty())
        *out = v;
}

bool checkUrl(const QString &key, const QString &url, QString *why)
{
    QString reason;
    if (ChannelUrls::allowed(QUrl(url), &reason))
        return true;
    *why = QStringLiteral("%1: %2").arg(key, reason);
    return false;
}
} // namespace

ChannelsPage::Values ChannelsSettings::values(const ChannelsConfig &c)
{
    return {{k("whatsapp", "apiBaseUrl"), c.whatsapp.apiBaseUrl},
            {k("whatsapp", "phoneNumberId"), c.whatsapp.phoneNumberId},
            {k("whatsapp", "accessToken"), c.whatsapp.accessToken},
            {k("whatsapp", "appSecret"), c.whatsapp.appSecret},
            {k("whatsapp", "verifyToken"), c.whatsapp.verifyToken},
            {k("whatsapp", "sendPerSecond"), QString::number(c.whatsapp.sendPerSecond)},
            {k("telegram", "apiBaseUrl"), c.telegram.apiBaseUrl},
            {k("telegram", "botToken"), c.telegram.botToken},
            {k("telegram", "mode"), c.telegram.mode},
            {k("telegram", "secretToken"), c.telegram.secretToken},
            {k("telegram", "webhookUrl"), c.telegram.webhookUrl},
            {k("instagram", "apiBaseUrl"), c.instagram.apiBaseUrl},
            {k("instagram", "accountId"), c.instagram.accountId},
            {k("instagram", "accessToken"), c.instagram.accessToken},
            {k("instagram", "appSecret"), c.instagram.appSecret},
            {k("instagram", "verifyToken"), c.instagram.verifyToken}};
}

bool ChannelsSettings::config(const ChannelsPage::Values &v, ChannelsConfig *c, QString *why)
{
    take(v, k("whatsapp", "apiBaseUrl"), &c->whatsapp.apiBaseUrl);
    take(v, k("whatsapp", "phoneNumberId"), &c->whatsapp.phoneNumberId);
    take(v, k("whatsapp", "accessToken"), &c->whatsapp.accessToken);
    take(v, k("whatsapp", "appSecret"), &c->whatsapp.appSecret);
    take(v, k("whatsapp", "verifyToken"), &c->whatsapp.verifyToken);
    take(v, k("telegram", "apiBaseUrl"), &c->telegram.apiBaseUrl);
    take(v, k("telegram", "botToken"), &c->telegram.botToken);
    take(v, k("telegram", "mode"), &c->telegram.mode);
    take(v, k("telegram", "secretToken"), &c->telegram.secretToken);
    take(v, k("telegram", "webhookUrl"), &c->telegram.webhookUrl);
    take(v, k("instagram", "apiBaseUrl"), &c->instagram.apiBaseUrl);
    take(v, k("instagram", "accountId"), &c->instagram.accountId);
    take(v, k("instagram", "accessToken"), &c->instagram.accessToken);
    take(v, k("instagram", "appSecret"), &c->instagram.appSecret);
    take(v, k("instagram", "verifyToken"), &c->instagram.verifyToken);
    const QString rate = v.value(k("whatsapp", "sendPerSecond")).trimmed();
    if (!rate.isEmpty()) {
        bool ok = false;
        c->whatsapp.sendPerSecond = rate.toInt(&ok);
        if (!ok || c->whatsapp.sendPerSecond < 0) {
            *why = QStringLiteral("%1 must be a whole number of 0 or more").arg(k("whatsapp", "sendPerSecond"));
            return false;
        }
    }
    if (!checkUrl(k("whatsapp", "apiBaseUrl"), c->whatsapp.apiBaseUrl, why) ||
        !checkUrl(k("telegram", "apiBaseUrl"), c->telegram.apiBaseUrl, why) ||
        !checkUrl(k("instagram", "apiBaseUrl"), c->instagram.apiBaseUrl, why))
        return false;
    if (c->telegram.mode != QLatin1String("polling") && c->telegram.mode != QLatin1String("webhook")) {
        *why = QStringLiteral("%1 must be polling or webhook").arg(k("telegram", "mode"));
        return false;
    }
    static const QRegularExpression secretToken(QStringLiteral("^[A-Za-z0-9_-]{1,256}$"));
    if (!c->telegram.secretToken.isEmpty() && !secretToken.match(c->telegram.secretToken).hasMatch()) {
        *why = QStringLiteral("%1: 1 to 256 characters of A-Z, a-z, 0-9, _ and -").arg(k("telegram", "secretToken"));
        return false;
    }
    if (!c->telegram.webhookUrl.isEmpty() && QUrl(c->telegram.webhookUrl).scheme() != QLatin1String("https")) {
        *why = QStringLiteral("%1 must be an https URL").arg(k("telegram", "webhookUrl"));
        return false;
    }
    return true;
}

void ChannelsSettings::probe(const QString &channel, const ChannelsPage::Values &values, int timeoutSeconds,
                             ChannelsPage::ProbeDone done)
{
    ChannelsConfig c;
    QString why;
    if (!config(values, &c, &why)) {
        done(false, why);
        return;
    }
    ChannelConnector *connector = nullptr;
    if (channel == QLatin1String("whatsapp") && c.whatsapp.configured())
        connector = new WhatsAppConnector(c.whatsapp, timeoutSeconds);
    else if (channel == QLatin1String("telegram") && c.telegram.configured())
        connector = new TelegramConnector(c.telegram, timeoutSeconds);
    else if (channel == QLatin1String("instagram") && c.instagram.configured())
        connector = new InstagramConnector(c.instagram, timeoutSeconds);
    if (!connector) {
        done(false, QStringLiteral("fill in the credentials first"));
        return;
    }
    connector->probe([connector, done](bool ok, const QString &detail) {
        connector->deleteLater();
        done(ok, detail);
    });
}

bool ChannelsSettings::save(const ChannelsPage::Values &values, const QString &iniFile, SecretStore &secrets,
                            QString *error)
{
    ChannelsConfig check;
    if (!config(values, &check, error))
        return false;
    const QStringList secretKeys = ChannelsPage::secretKeys();
    for (const QString &key : secretKeys) {
        const QString v = values.value(key).trimmed();
        const bool ok = v.isEmpty() ? secrets.remove(key) : secrets.write(key, v.toUtf8());
        if (!ok) {
            *error = QStringLiteral("the secret store refused %1").arg(key);
            return false;
        }
    }
    ChannelsPage::Values plain = values;
    for (const QString &key : secretKeys)
        plain.remove(key);
    return AppSettings::writeIni(iniFile, plain, error);
}

void addChannelsPage(MainWindow &window, AppSettings &settings, SecretStore &secrets, const ChannelsConfig &current,
                     std::shared_ptr<ChannelRegistry> registry, std::function<QString()> serverBaseUrl)
{
    window.addSettingsPage(
        ChannelsPage::tr("Channels"), ChannelsPage::tr("&Channels…"), QStringLiteral("channelsPage"),
        [=, &settings, &secrets](QWidget *parent) {
            auto *page = new ChannelsPage(parent);
            page->setValues(ChannelsSettings::values(current));
            page->setServerBaseUrl(serverBaseUrl ? serverBaseUrl() : QString());
            page->setStatusFunction([registry](const QString &channel) {
                ChannelsPage::Status s;
                if (!registry)
                    return s;
                s.configured = registry->isConfigured(channel);
                s.down = s.configured && !registry->isAvailable(channel);
                s.reason = registry->downReason(channel);
                return s;
            });
            const int timeout = current.timeoutSeconds;
            page->setProbeFunction(
                [timeout](const QString &channel, const ChannelsPage::Values &values, ChannelsPage::ProbeDone done) {
                    ChannelsSettings::probe(channel, values, timeout, std::move(done));
                });
            const QString ini = settings.iniPath();
            page->setSaveFunction([ini, &secrets](const ChannelsPage::Values &values, QString *error) {
                return ChannelsSettings::save(values, ini, secrets, error);
            });
            return page;
        });
}
