#pragma once

#include "app/inboxarea.h"
#include "model/webhooks/webhook.h"

#include <QString>

#include <functional>
#include <memory>

class ApiKeyRepository;
class AppSettings;
class ChannelRegistry;
class ContactRepository;
class ContactsView;
class KnowledgeIndex;
class ConversationRepository;
class MainWindow;
class PipelineBoard;
class SecretStore;
class Store;
class TaskRepository;
struct ChannelsConfig;

// The composition root of the desktop window: every area and every Settings page is built and
// wired here (app/windowcontents.cpp reads as the list of what the window holds, in its order).
// MainWindow receives them; it builds none itself. A new area or page is one line in
// composeWindow() (its builder beside the others: here for small ones, a file of its own in app/
// for larger ones, as the Inbox and Channels have).

// What the window's areas and pages are made of; each outlives the window.
struct WindowParts
{
    const Store &desk; // the window's store, writing as the signed-in user
    ContactRepository &contacts;
    ApiKeyRepository &apiKeys;
    TaskRepository &tasks;
    ConversationRepository &conversations;
    AppSettings &settings;
    SecretStore &secrets;
    const ChannelsConfig &channels;
    std::shared_ptr<ChannelRegistry> channelRegistry;
    MediaConfig media;
    // The base URL of media links and of the providers' webhooks: media/publicBaseUrl, else the
    // running server's (empty while none runs); asked each time it is needed.
    std::function<QString()> publicBaseUrl;
    // The process's index of the assistant's knowledge base (one per process, shared with whoever
    // else asks it); none: the window makes its own.
    std::shared_ptr<KnowledgeIndex> knowledgeIndex;
};

// Every area (Home, Contacts, Deals, Tasks, Inbox, Campaigns, Assistant) and every Settings page, wired to each other
// and to the window, and the desktop's settings applied to them.
void composeWindow(MainWindow &window, const WindowParts &parts);

// The pieces composeWindow() is made of that the window's tests build on their own:
// Contacts (beside its segments) and Deals, their keys, "Jump to" openers, a contact's deal opening
// on the board, and both following who signs in (another person starts on every contact; pipeline
// editing is an admin's).
struct RecordAreas
{
    ContactsView *contacts = nullptr;
    PipelineBoard *deals = nullptr;
};
RecordAreas addRecordAreas(MainWindow &window, ContactRepository &contacts, const Store &store);
// Settings > API keys (everyone's: their own keys), Webhooks, Incoming webhooks and Web widget:
// the pages of the API. policy: the receivers Webhooks accepts (webhooks/allowedTargets, …).
void addApiPages(MainWindow &window, ApiKeyRepository &apiKeys, const Store &store, const WebhookPolicy &policy);
