#pragma once

// The whole window as the app composes it (composeWindow(), app/windowcontents.cpp): every area and
// every Settings page, over repositories of the test's database, with the desktop's settings and
// its secret store (the owner-only file, no keychain) in a throwaway folder. For the tests of the
// window as a whole (what it holds, its keyboard); a test of one area builds less (ComposedWindow).
// Make it after the test's database and event bus, and drop it before them.

#include "app/appsettings.h"
#include "app/secrets/secretstore.h"
#include "app/windowcontents.h"
#include "messaging/channels/channelregistry.h"
#include "model/accounts/apikeyrepository.h"
#include "model/assistant/knowledgeindex.h"
#include "model/contacts/contactrepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"
#include "ui/shell/mainwindow.h"

#include <QTemporaryDir>

#include <memory>

struct WholeWindow
{
    // desk: the window's store, writing as signedIn (none: the window before the first account).
    explicit WholeWindow(const Store &desk, const User &signedIn = {})
        : desk(desk)
    {
        qputenv("DBUS_SESSION_BUS_ADDRESS", ""); // the secret store's file, never the test machine's keychain
        if (!signedIn.id.isEmpty())
            window.setSignedInUser(signedIn);
        composeWindow(window,
                      {desk, contacts, apiKeys, tasks, conversations, settings, secrets, channels,
                       std::make_shared<ChannelRegistry>(channels), MediaConfig{},
                       [] { return QStringLiteral("https://crm.ornek.com.tr"); }, std::make_shared<KnowledgeIndex>()});
    }

    const Store desk;
    ContactRepository contacts{desk};
    ApiKeyRepository apiKeys{desk};
    TaskRepository tasks{desk};
    ConversationRepository conversations{desk};
    QTemporaryDir dir;
    AppSettings settings{dir.path()};
    SecretStore secrets{QStringLiteral("liaison-test-window"), dir.filePath(QStringLiteral("secrets.json"))};
    ChannelsConfig channels;
    MainWindow window{apiKeys, desk};
};
