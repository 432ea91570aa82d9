#include "app/windowcontents.h"

#include "app/appsettings.h"
#include "app/assistantarea.h"
#include "app/assistantsettings.h"
#include "app/backupsettings.h"
#include "app/campaignsarea.h"
#include "app/channelssettings.h"
#include "app/desktopsettings.h"
#include "app/emailsettings.h"
#include "app/homearea.h"
#include "app/inboxarea.h"
#include "app/mediasettings.h"
#include "app/smssettings.h"
#include "app/tasksarea.h"
#include "model/assistant/knowledgeindex.h"
#include "ui/contacts/contactdetailpane.h"
#include "ui/contacts/contactsview.h"
#include "ui/contacts/segmentspanel.h"
#include "ui/deals/pipelineboard.h"
#include "ui/inbox/inboxview.h"
#include "ui/settings/apikeyspage.h"
#include "ui/settings/incomingwebhookspage.h"
#include "ui/settings/webhookspage.h"
#include "ui/settings/widgetsettingspage.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"

void composeWindow(MainWindow &window, const WindowParts &parts)
{
    // The areas, in the navigation's order (Alt+1 … Alt+7).
    HomeView *home = addHomeArea(window, parts.desk);
    const RecordAreas records = addRecordAreas(window, parts.contacts, parts.desk); // Contacts, Deals
    TasksView *tasks = addTasksArea(window, parts.tasks, parts.desk);
    InboxView *inbox = addInboxArea(window, parts.conversations, parts.desk, parts.channelRegistry,
                                    {parts.media, parts.settings.dataDir(), parts.publicBaseUrl});
    // Home's figures open the areas they count.
    wireHome(window, home, records.deals, tasks, inbox);
    addCampaignsArea(window, parts.desk);
    // The assistant's knowledge base and its test console, asking the process's knowledge index.
    addAssistantArea(window, parts.desk,
                     parts.knowledgeIndex ? parts.knowledgeIndex : std::make_shared<KnowledgeIndex>());
    // A contact's conversation opens in the Inbox; the Inbox's "Open contact" opens the contact's
    // record in Contacts (its deals, conversations and timeline), not an edit form.
    ContactsView *contacts = records.contacts;
    QObject::connect(contacts->detailPane(), &ContactDetailPane::conversationActivated, inbox,
                     [&window, inbox](const QString &id) {
                         window.showArea(inbox);
                         inbox->openConversation(id);
                     });
    QObject::connect(inbox->contactPanel(), &InboxContactPanel::contactRequested, contacts,
                     [&window, contacts](const QString &id) { window.openRecord(JumpBox::Contact, id); });
    applyDesktopSettings(window, parts.settings);

    // Settings, in the menu's and the dialog's order.
    addApiPages(window, parts.apiKeys, parts.desk, parts.settings.webhookConfig().policy());
    addChannelsPage(window, parts.settings, parts.secrets, parts.channels, parts.channelRegistry, parts.publicBaseUrl);
    addEmailPage(window, parts.settings, parts.secrets);
    addSmsPage(window, parts.settings, parts.secrets);
    addMediaPage(window, parts.settings, parts.desk);
    addBackupPage(window, parts.settings);
    addAssistantPage(window, parts.settings, parts.secrets);
    addContactsPage(window, parts.settings);
    addAppearancePage(window, parts.settings);
    addUsersPage(window, parts.desk);
    addTemplatesPage(window, parts.desk);
}

RecordAreas addRecordAreas(MainWindow &window, ContactRepository &contacts, const Store &store)
{
    auto *view = new ContactsView(contacts, store);
    QWidget *contactsArea = SegmentsPanel::besideContacts(view, store);
    window.addArea(MainWindow::tr("Contacts"), contactsArea,
                   {[view] { view->focusSearch(); }, [view] { view->newContact(); }}, QStringLiteral("contacts"));
    window.setRecordOpener(JumpBox::Contact, [&window, contactsArea, view](const QString &id) {
        window.showArea(contactsArea);
        view->openContact(id);
    });
    auto *board = new PipelineBoard(store);
    window.addArea(MainWindow::tr("Deals"), board, {[board] { board->focusSearch(); }, [board] { board->newDeal(); }},
                   QStringLiteral("deals"));
    window.setRecordOpener(JumpBox::Deal, [&window, board](const QString &id) {
        window.showArea(board);
        board->openDeal(id);
    });
    QObject::connect(view->detailPane(), &ContactDetailPane::dealActivated, board,
                     [&window](const QString &id) { window.openRecord(JumpBox::Deal, id); });
    // Another person at the window starts on every contact, not on the last one's search; pipeline
    // editing is configuration (an admin's, or anyone's before the first account).
    board->setPipelineEditing(window.mayConfigure());
    QObject::connect(&window, &MainWindow::signedInUserChanged, board,
                     [&window, view, board, last = window.signedInUser().id](const User &user) mutable {
                         if (!last.isEmpty() && user.id != last)
                             view->startOver();
                         last = user.id;
                         board->setPipelineEditing(window.mayConfigure());
                     });
    return {view, board};
}

void addApiPages(MainWindow &window, ApiKeyRepository &apiKeys, const Store &store, const WebhookPolicy &policy)
{
    window.addSettingsPage(
        SettingsDialog::tr("API keys"), MainWindow::tr("&API keys…"), QStringLiteral("apiKeysPage"),
        [&apiKeys, store](QWidget *parent) { return new ApiKeysPage(apiKeys, store, parent); },
        MainWindow::SettingsAccess::Everyone);
    window.addSettingsPage(MainWindow::tr("Webhooks"), MainWindow::tr("&Webhooks…"), QStringLiteral("webhooksPage"),
                           [store, policy](QWidget *parent) { return new WebhooksPage(store, policy, parent); });
    // The URLs shown are made of the API's address when the page is made (Settings opens after the
    // server started).
    window.addSettingsPage(MainWindow::tr("Incoming webhooks"), MainWindow::tr("&Incoming webhooks…"),
                           QStringLiteral("incomingWebhooksPage"), [&window, store](QWidget *parent) {
                               return new IncomingWebhooksPage(store, window.serverAddress(), parent);
                           });
    window.addSettingsPage(
        MainWindow::tr("Web widget"), MainWindow::tr("Web &widget…"), QStringLiteral("widgetSettingsPage"),
        [&window](QWidget *parent) { return new WidgetSettingsPage(window.serverAddress(), parent); });
}
