#pragma once

#include <QMainWindow>
#include <QPointer>

#include "settingsdialog.h"

class ApiKeyRepository;
class ContactRepository;
class ContactsView;
class EventBus;
class QLabel;
class QListWidget;
class QStackedWidget;

// The desktop window: areas listed on the left (Contacts now; Deals, Tasks, Inbox later through
// addArea()), the chosen area on the right, File and Settings menus, and a status bar whose
// permanent label tells whether the embedded API server runs. It uses the model directly, never
// the HTTP server.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(ContactRepository &contacts, ApiKeyRepository &apiKeys, EventBus &bus, QWidget *parent = nullptr);

    // Adds an area to the navigation; returns its index.
    int addArea(const QString &title, QWidget *view);
    ContactsView *contactsView() const { return m_contacts; }
    // The open settings dialog, if any.
    SettingsDialog *settingsDialog() const { return m_settings; }

public slots:
    // "API: https://127.0.0.1:8443 — running", or "API server stopped: <detail>".
    void setServerStatus(const QString &address, bool running, const QString &detail = {});
    // Opens Settings (window-modal, without blocking) on the API keys page.
    void showApiKeys();
    // Opens Settings on the Webhooks / Incoming webhooks page.
    void showWebhooks();
    void showIncomingWebhooks();

public:
    // Settings > Webhooks accepts plain http to loopback receivers (webhooks/allowInsecureLocal).
    void setWebhooksAllowInsecureLocal(bool allow) { m_webhooksInsecureLocal = allow; }

private:
    ApiKeyRepository &m_apiKeys;
    EventBus &m_bus;
    QListWidget *m_navigation = nullptr;
    QStackedWidget *m_stack = nullptr;
    ContactsView *m_contacts = nullptr;
    QLabel *m_serverStatus = nullptr;
    QPointer<SettingsDialog> m_settings;
    QString m_serverAddress;             // the API's base URL while it runs (incoming webhook URLs)
    bool m_webhooksInsecureLocal = false; // webhooks/allowInsecureLocal
};
