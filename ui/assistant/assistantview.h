#pragma once

#include "model/core/store.h"

#include <QWidget>

#include <memory>

class AssistantTestConsole;
class KnowledgeBasePanel;
class KnowledgeIndex;
class QTabWidget;

// The Assistant area: the knowledge base the assistant answers from (its entries, their editor,
// CSV import and export) and the test console (a question asked as a customer would, with what the
// assistant makes of it), each in a tab. The console reads the process's KnowledgeIndex, the one the
// composition root holds; a candidate opened from it opens in the knowledge base's editor, and a save
// there asks the console's question again.
class AssistantView : public QWidget
{
    Q_OBJECT
public:
    AssistantView(const Store &store, std::shared_ptr<KnowledgeIndex> index, QWidget *parent = nullptr);

    QTabWidget *tabs() const { return m_tabs; }
    KnowledgeBasePanel *knowledgeBase() const { return m_knowledge; }
    AssistantTestConsole *testConsole() const { return m_console; }

public slots:
    // Ctrl+F: the knowledge base's search (the console's question when the console is in front).
    void focusSearch();
    // Ctrl+N: a new entry.
    void newEntry();
    void openEntry(const QString &id);

private:
    QTabWidget *m_tabs = nullptr;
    KnowledgeBasePanel *m_knowledge = nullptr;
    AssistantTestConsole *m_console = nullptr;
};
