#pragma once

#include "ui/settings/emailpage.h"

class AppSettings;
class MainWindow;
class SecretStore;

// Settings > E-mail in the desktop (an admin's page): the form filled from the settings (mail/…
// keys of DATA/liaison.ini or --set) and the secret store (mail.password, mail.dkimKey); Save
// writes the non-secret keys to liaison.ini (an empty value removes the key) and the secrets to the
// store (an empty one is removed). Campaigns read them at the next start.
void addEmailPage(MainWindow &window, AppSettings &settings, SecretStore &secrets);

namespace EmailSettings {
// The form's values as stored now.
EmailPage::Values values(const AppSettings &settings, SecretStore &secrets);
// Writes the values: non-secrets to the ini file, secrets to the store.
bool save(const EmailPage::Values &values, const QString &iniFile, SecretStore &secrets, QString *error);
} // namespace EmailSettings
