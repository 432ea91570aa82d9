#pragma once

#include "messaging/media/mediaconfig.h"

#include <QString>

#include <functional>
#include <memory>

class ChannelRegistry;
class ConversationRepository;
class InboxView;
class Store;
class MainWindow;

// What the composer's attachments need: the media settings, the data directory (DATA/media) and the
// base URL of the links (media/publicBaseUrl, else the running server's; called at each send).
struct InboxMediaSetup
{
    MediaConfig config;
    QString dataDir;
    std::function<QString()> baseUrl;
};

// Adds the Inbox area to the window: its composer sends text, files and templates through the
// server's paths (ChannelSender; OutgoingMessages for files and templates, as the API does), and
// replies and "Assign to me" are the signed-in user's (MainWindow::signedInUser). Returns the view
// (the window owns it); its links with Contacts are the composition root's (app/windowcontents.cpp).
InboxView *addInboxArea(MainWindow &window, ConversationRepository &conversations, const Store &store,
                        std::shared_ptr<ChannelRegistry> channels, const InboxMediaSetup &media);
