#include "app/smssettings.h"

#include "app/appsettings.h"
#include "app/secrets/secretstore.h"
#include "messaging/campaigns/smsclient.h"
#include "messaging/campaigns/smssettingsrules.h"
#include "messaging/channels/providerclient.h"
#include "ui/shell/errortext.h"
#include "ui/shell/mainwindow.h"

#include <QPointer>
#include <QThread>

SmsPage::Values SmsSettings::values(const AppSettings &settings, SecretStore &secrets)
{
    SmsPage::Values out;
    for (const QString &key : SmsSettingsRules::keys()) {
        QString fallback;
        if (const std::optional<SmsSettingsRules::IntRange> range = SmsSettingsRules::intRange(key))
            fallback = QString::number(range->fallback);
        else if (key == SmsSettingsRules::apiBaseUrlKey())
            fallback = SmsConfig().apiBaseUrl;
        out.insert(key, settings.value(key, fallback).toString().trimmed());
    }
    const QString token = SmsSettingsRules::authTokenSecret();
    out.insert(token, QString::fromUtf8(secrets.read(token).value_or(QByteArray())).trimmed());
    return out;
}

FieldProblems SmsSettings::check(const SmsPage::Values &values)
{
    return SmsSettingsRules::problems(values);
}

bool SmsSettings::save(const SmsPage::Values &values, const QString &iniFile, SecretStore &secrets, QString *error)
{
    const FieldProblems problems = check(values);
    if (!problems.isEmpty()) {
        *error = QStringLiteral("%1 %2").arg(problems.firstKey(), ErrorText::text(problems.first()));
        return false;
    }
    return AppSettings::writeIniAndSecret(iniFile, values, SmsSettingsRules::authTokenSecret(), secrets, error);
}

void SmsSettings::testSend(const SmsPage::Values &values, const QString &to, const QString &body, QObject *context,
                           SmsPage::TestDone done)
{
    SmsConfig config;
    config.apiBaseUrl = values.value(SmsSettingsRules::apiBaseUrlKey(), config.apiBaseUrl).trimmed();
    while (config.apiBaseUrl.endsWith(QLatin1Char('/')))
        config.apiBaseUrl.chop(1);
    if (config.apiBaseUrl.isEmpty())
        config.apiBaseUrl = SmsConfig().apiBaseUrl;
    config.accountSid = values.value(SmsSettingsRules::accountSidKey()).trimmed();
    config.authToken = values.value(SmsSettingsRules::authTokenSecret()).trimmed();
    config.from = values.value(SmsSettingsRules::fromKey()).trimmed();
    config.timeoutSeconds = values.value(SmsSettingsRules::timeoutKey()).toInt();
    if (config.timeoutSeconds <= 0)
        config.timeoutSeconds = SmsSettingsRules::intRange(SmsSettingsRules::timeoutKey())->fallback;
    // The client lives and answers in its own thread (the window never waits on the network); the
    // outcome crosses back to context's thread. The thread ends after the one answer, which the
    // timeout bounds.
    auto *thread = new QThread;
    thread->setObjectName(QStringLiteral("smsTestSend"));
    QPointer<QObject> target(context);
    QObject::connect(thread, &QThread::started, [thread, config, to, body, target, done] {
        auto *client = new SmsClient(config, QString());
        client->post(to, body, [client, thread, target, done](const ProviderReply &reply) {
            SmsPage::TestOutcome o;
            o.reached = reply.reached();
            o.status = reply.status;
            o.networkError = reply.networkError;
            o.sid = reply.json.value(QStringLiteral("sid")).toString();
            o.providerStatus = reply.json.value(QStringLiteral("status")).toString();
            o.providerCode = reply.json.value(QStringLiteral("code")).toInt();
            o.providerMessage = reply.json.value(QStringLiteral("message")).toString().left(300);
            if (o.reached && o.providerMessage.isEmpty() && (o.status < 200 || o.status >= 300))
                o.providerMessage = QString::fromUtf8(reply.body.left(300)).simplified();
            if (target)
                QMetaObject::invokeMethod(
                    target.data(), [done, o] { done(o); }, Qt::QueuedConnection);
            client->deleteLater();
            thread->quit();
        });
    });
    QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

void addSmsPage(MainWindow &window, AppSettings &settings, SecretStore &secrets)
{
    window.addSettingsPage(SmsPage::tr("SMS"), SmsPage::tr("&SMS…"), QStringLiteral("smsPage"),
                           [&settings, &secrets](QWidget *parent) {
                               auto *page = new SmsPage(parent);
                               page->setValues(SmsSettings::values(settings, secrets));
                               page->setCheckFunction(&SmsSettings::check);
                               const QString ini = settings.iniPath();
                               page->setSaveFunction([ini, &secrets](const SmsPage::Values &values, QString *error) {
                                   return SmsSettings::save(values, ini, secrets, error);
                               });
                               page->setTestFunction([page](const SmsPage::Values &values, const QString &to,
                                                            const QString &body, SmsPage::TestDone done) {
                                   SmsSettings::testSend(values, to, body, page, std::move(done));
                               });
                               return page;
                           });
}
