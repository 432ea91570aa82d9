#pragma once

#include <memory>

class ChannelRegistry;
class ConversationRepository;
class EventBus;
class MainWindow;

// Adds the Inbox area to the window: its composer sends through the server's channel path
// (ChannelSender), and "Assign to me" uses the desktop's agent, the first user account.
void addInboxArea(MainWindow &window, ConversationRepository &conversations, EventBus &bus,
                  std::shared_ptr<ChannelRegistry> channels);
