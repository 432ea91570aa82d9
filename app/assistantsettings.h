#pragma once

#include "ui/settings/assistantpage.h"

class AppSettings;
class MainWindow;
class QObject;
class SecretStore;

// Settings > Assistant in the desktop (an admin's page): the form filled from the settings (ai/…
// keys of DATA/liaison.ini or --set, their defaults where unset) and the secret store
// (ai.llmApiKey); the rules AppSettings reads them with check it (AssistantSettingsRules); Save
// writes the keys to liaison.ini and the key to the store. The server, the inbox's auto-reply and
// the window's assistant read them at the next start. "Try the model" asks the real
// LanguageModelClient in a thread of its own.
void addAssistantPage(MainWindow &window, AppSettings &settings, SecretStore &secrets);

namespace AssistantSettings {
// The form's values as stored now (defaults where unset).
AssistantPage::Values values(const AppSettings &settings, SecretStore &secrets);
// Each field's problem (AssistantSettingsRules).
FieldProblems check(const AssistantPage::Values &values);
// Writes the values (checked first): non-secrets to the ini file, the key to the store.
bool save(const AssistantPage::Values &values, const QString &iniFile, SecretStore &secrets, QString *error);
// Asks the model the question with the form's values through LanguageModelClient in a worker
// thread; done is called once in context's thread (not at all when context is gone first).
void tryModel(const AssistantPage::Values &values, const AssistantPage::TestQuestion &question, QObject *context,
              AssistantPage::TestDone done);
} // namespace AssistantSettings
