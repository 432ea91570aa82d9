#pragma once

#include "ui/settings/smspage.h"

class AppSettings;
class MainWindow;
class QObject;
class SecretStore;

// Settings > SMS in the desktop (an admin's page): the form filled from the settings (channels/sms/…
// and campaigns/sms/… keys of DATA/liaison.ini or --set, their defaults where unset) and the secret
// store (channels/sms/authToken); the rules AppSettings reads them with check it
// (SmsSettingsRules); Save writes the non-secret keys to liaison.ini and the token to the store.
// Campaigns read them at the next start. The test send goes through the real SmsClient in a
// thread of its own.
void addSmsPage(MainWindow &window, AppSettings &settings, SecretStore &secrets);

namespace SmsSettings {
// The form's values as stored now (defaults where unset).
SmsPage::Values values(const AppSettings &settings, SecretStore &secrets);
// Each field's problem (SmsSettingsRules).
FieldProblems check(const SmsPage::Values &values);
// Writes the values (checked first): non-secrets to the ini file, the token to the store.
bool save(const SmsPage::Values &values, const QString &iniFile, SecretStore &secrets, QString *error);
// Sends body to `to` with the form's values through SmsClient in a worker thread; done is called
// once in context's thread (not at all when context is gone first).
void testSend(const SmsPage::Values &values, const QString &to, const QString &body, QObject *context,
              SmsPage::TestDone done);
} // namespace SmsSettings
