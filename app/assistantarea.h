#pragma once

#include <memory>

class AssistantView;
class KnowledgeIndex;
class MainWindow;
class Store;

// The Assistant area in the window: in the navigation (its Alt key, its icon), Ctrl+F in the
// knowledge base's search (the console's question when it is in front) and Ctrl+N a new entry. index:
// the process's knowledge index, which the test console asks. Returns the view (the window owns it).
AssistantView *addAssistantArea(MainWindow &window, const Store &store, std::shared_ptr<KnowledgeIndex> index);
