#include "app/emailsettings.h"

#include "app/appsettings.h"
#include "app/secrets/secretstore.h"
#include "ui/shell/mainwindow.h"

EmailPage::Values EmailSettings::values(const AppSettings &settings, SecretStore &secrets)
{
    EmailPage::Values out;
    const QStringList secretKeys = EmailPage::secretKeys();
    for (const QString &key : EmailPage::keys()) {
        if (secretKeys.contains(key))
            out.insert(key, QString::fromUtf8(secrets.read(key).value_or(QByteArray())));
        else
            out.insert(key, settings.value(key).toString());
    }
    return out;
}

bool EmailSettings::save(const EmailPage::Values &values, const QString &iniFile, SecretStore &secrets, QString *error)
{
    const QStringList secretKeys = EmailPage::secretKeys();
    for (const QString &key : secretKeys) {
        const QString v = values.value(key).trimmed();
        const bool ok = v.isEmpty() ? secrets.remove(key) : secrets.write(key, values.value(key).toUtf8());
        if (!ok) {
            *error = QStringLiteral("the secret store refused %1").arg(key);
            return false;
        }
    }
    EmailPage::Values plain = values;
    for (const QString &key : secretKeys)
        plain.remove(key);
    return AppSettings::writeIni(iniFile, plain, error);
}

void addEmailPage(MainWindow &window, AppSettings &settings, SecretStore &secrets)
{
    window.addSettingsPage(EmailPage::tr("E-mail"), EmailPage::tr("&E-mail…"), QStringLiteral("emailPage"),
                           [&settings, &secrets](QWidget *parent) {
                               auto *page = new EmailPage(parent);
                               page->setValues(EmailSettings::values(settings, secrets));
                               const QString ini = settings.iniPath();
                               page->setSaveFunction([ini, &secrets](const EmailPage::Values &values, QString *error) {
                                   return EmailSettings::save(values, ini, secrets, error);
                               });
                               return page;
                           });
}
