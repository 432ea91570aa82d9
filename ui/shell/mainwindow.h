#pragma once

#include "model/accounts/userrepository.h"
#include "model/core/store.h"
#include "ui/shell/jumpbox.h"
#include "ui/shell/settingsdialog.h"
#include "ui/shell/welcomedialog.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <vector>

class ApiKeyRepository;
class NotificationCenter;
class QLabel;
class QListWidget;
class QMenu;
class QShortcut;
class QStackedWidget;

// The desktop window: areas listed on the left, the chosen area on the right, File, Settings and
// Help menus, and a status bar whose permanent label tells whether the embedded API server runs. It
// builds none of its areas and Settings pages: it receives them (addArea, addSettingsPage,
// setRecordOpener) from the app's composition root (app/windowcontents.cpp), which builds and wires
// every one. It uses the model directly, never the HTTP server.
class MainWindow : public QMainWindow
{
    Q_OBJECT
    // The area shown (its index in the navigation), which WindowState keeps between starts.
    Q_PROPERTY(int currentArea READ currentArea WRITE setCurrentArea)
public:
    // apiKeys: what the welcome's first API key is made with.
    MainWindow(ApiKeyRepository &apiKeys, const Store &store, QWidget *parent = nullptr);
    // Carries out a delete still waiting for its Undo before the areas go.
    ~MainWindow() override;

    // What the window's keys do in an area: Ctrl+F calls focusSearch, Ctrl+N newRecord (either may
    // be empty: the key does nothing there).
    struct AreaKeys
    {
        std::function<void()> focusSearch;
        std::function<void()> newRecord;
    };
    // Adds an area to the navigation, with its line icon (resources/icons/ui/<iconName>.svg); returns
    // its index. Alt+1 … Alt+9 show the areas in this order.
    int addArea(const QString &title, QWidget *view, AreaKeys keys = {}, const QString &iconName = {});
    // The count beside an area's name: what needs the user (unread conversations in the accent
    // colour, their overdue tasks in red); 0 shows none. The views compute it with a repository
    // query when they reload on the event bus's news, and tell the window. The entry's accessible
    // name says it: "Gelen kutusu, 3 okunmamış", "Görevler, 2 gecikmiş".
    enum class CountKind
    {
        Unread,
        Overdue
    };
    void setAreaCount(QWidget *view, int count, CountKind kind);
    int areaCount(QWidget *view) const;
    QListWidget *navigation() const { return m_navigation; }
    // How "Jump to" (Ctrl+K) opens a record of this kind in the area that holds it (the composition
    // root sets one for each kind as it adds the area).
    void setRecordOpener(JumpBox::Kind kind, std::function<void(const QString &id)> open);
    // Ctrl+K: the "Jump to" box over the window (made on first use, empty at each opening).
    void showJumpBox();
    JumpBox *jumpBox() const { return m_jump; }
    // Opens a record in its area, as a choice in "Jump to" does.
    void openRecord(JumpBox::Kind kind, const QString &id);
    // Help > Keyboard shortcuts: every key of the window in a table.
    void showShortcuts();
    // The window's own keys (Ctrl+K, Ctrl+F, Ctrl+N, Alt+1 …), found by objectName in tests.
    QShortcut *shortcut(const QString &objectName) const;
    // Shows the area of this view (as a click on its name does).
    void showArea(QWidget *view);
    int currentArea() const;
    void setCurrentArea(int index); // an index out of range is ignored
    // Task reminders and new messages: toast, list behind the status bar's button, desktop.
    NotificationCenter *notifications() const { return m_notifications; }

    // Settings. The window owns the one Settings dialog and every page in it: a page is registered
    // once with a factory, the dialog is made (with all registered pages) when Settings first opens,
    // and closing it only hides it, so its pages stay however often it opens. Each page gets an item
    // in the Settings menu that opens the dialog on it.
    using SettingsPageFactory = std::function<QWidget *(QWidget *parent)>;
    // Who may open a page: configuration (webhooks, channels, media, users, …) is the admin's; an
    // agent's Settings hold only what is theirs (their API keys).
    enum class SettingsAccess
    {
        AdminOnly,
        Everyone
    };
    // title: the page's name in the dialog; menuText: its Settings menu item ("&Webhooks…"). The
    // menu action is named after the page: "webhooksPage" gets "webhooksAction".
    void addSettingsPage(const QString &title, const QString &menuText, const QString &objectName,
                         SettingsPageFactory factory, SettingsAccess access = SettingsAccess::AdminOnly);
    // The Settings dialog, made on first use (hidden until shown).
    SettingsDialog *settingsDialog();
    // Opens Settings (window-modal, without blocking) on the page with this objectName.
    void showSettings(const QString &pageObjectName);

    // The welcome (first admin account, the API's address, a first API key): how the account is
    // made (the app hashes the password). showWelcome() opens it window-modal without blocking: on
    // the account page while no user exists, else on the API page.
    void setAccountCreator(WelcomeDialog::AccountCreator creator) { m_accountCreator = std::move(creator); }
    // The welcome's offer to read phone numbers without + as numbers of `country` (+code).
    void setCallingCodeOffer(const QString &country, const QString &code, WelcomeDialog::CallingCodeSaver save)
    {
        m_offeredCountry = country;
        m_offeredCode = code;
        m_saveCallingCode = std::move(save);
    }
    void showWelcome();
    // The open welcome dialog (nullptr when none).
    WelcomeDialog *welcomeDialog() const { return m_welcome; }

    // The user the window works as (the app's session signs them in and out; an empty id: nobody).
    // Shown in the status bar; an agent's window offers no configuration (the admin-only Settings
    // pages are gone until an admin signs in; the areas follow signedInUserChanged).
    void setSignedInUser(const User &user);
    const User &signedInUser() const { return m_user; }
    // Whether the window offers configuration: an admin is signed in, or no account exists yet (the
    // machine's owner setting up, as an API key without an owner acts as an admin).
    bool mayConfigure() const { return m_user.id.isEmpty() || m_user.role == QLatin1String("admin"); }

protected:
    // The window's keys win over a text field's own use of them (Ctrl+K deletes to the end of the
    // line in a field on X11): a ShortcutOverride for one of them inside this window is not given to
    // the focused widget.
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    // The welcome made the first account (the app signs it in).
    void accountCreated(const User &user);
    // File > Sign out (the app ends the session and asks who signs in next).
    void signOutRequested();
    // File > Change password… (the app asks for the current and the new one).
    void changePasswordRequested();
    // Someone else signed in, or the signed-in user's name or role changed.
    void signedInUserChanged(const User &user);

public slots:
    // "API: https://127.0.0.1:8443 — running", or "API server stopped: <detail>".
    void setServerStatus(const QString &address, bool running, const QString &detail = {});
    // The API's base URL while it runs (empty otherwise): what incoming webhook URLs and the web
    // widget's snippet are made of.
    QString serverAddress() const { return m_serverAddress; }
    // Opens Settings (window-modal, without blocking) on the API keys page.
    void showApiKeys();
    // Opens Settings on the Webhooks / Incoming webhooks page.
    void showWebhooks();
    void showIncomingWebhooks();

private:
    struct SettingsPageEntry
    {
        QString title;
        QString objectName;
        SettingsPageFactory factory;
        SettingsAccess access;
        QAction *action;
    };
    bool mayOpen(const SettingsPageEntry &entry) const
    {
        return entry.access == SettingsAccess::Everyone || mayConfigure();
    }
    // Makes the entry's page and adds it to the (existing) Settings dialog.
    void addToDialog(const SettingsPageEntry &entry);
    // The navigation's colours for the scheme in force (again after a change).
    void styleNavigation();

    ApiKeyRepository &m_apiKeys;
    QMenu *m_settingsMenu = nullptr;
    std::vector<SettingsPageEntry> m_settingsPages;
    Store m_store;
    UserRepository m_users;
    QListWidget *m_navigation = nullptr;
    QStackedWidget *m_stack = nullptr;
    NotificationCenter *m_notifications = nullptr;
    QLabel *m_serverStatus = nullptr;
    QLabel *m_userLabel = nullptr;
    QAction *m_signOut = nullptr;
    QAction *m_changePassword = nullptr;
    std::vector<AreaKeys> m_areaKeys;
    std::vector<QShortcut *> m_areaShortcuts;                   // Alt+1 … Alt+9
    QList<QKeySequence> m_windowKeys;                           // every key of the window's own shortcuts
    QHash<int, std::function<void(const QString &)>> m_openers; // by JumpBox::Kind
    QPointer<JumpBox> m_jump;
    User m_user;
    QPointer<SettingsDialog> m_settings;
    QPointer<WelcomeDialog> m_welcome;
    WelcomeDialog::AccountCreator m_accountCreator;
    QString m_offeredCountry, m_offeredCode;
    WelcomeDialog::CallingCodeSaver m_saveCallingCode;
    QString m_serverDetail;
    QString m_serverAddress; // the API's base URL while it runs (incoming webhook URLs)
};
