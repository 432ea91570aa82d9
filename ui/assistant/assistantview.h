#pragma once

#include "model/assistant/assistant.h"
#include "model/core/store.h"

#include <QTimeZone>
#include <QWidget>

#include <memory>

class AssistantStatsPanel;
class AssistantTestConsole;
class KnowledgeBasePanel;
class SuggestionsPanel;
class KnowledgeIndex;
class QTabWidget;

// The Assistant area: the knowledge base the assistant answers from (its entries, their editor,
// CSV import and export), the test console (a question asked as a customer would, with what the
// assistant makes of it), the suggestions (the questions it could not answer, grouped, to be answered
// into entries or dismissed) and the statistics (its figures over a period), each in a tab. They read
// the process's KnowledgeIndex, the one the composition root holds; an entry opened from the console
// or the statistics opens in the knowledge base's editor, and a save there asks the console's
// question again.
class AssistantView : public QWidget
{
    Q_OBJECT
public:
    AssistantView(const Store &store, std::shared_ptr<KnowledgeIndex> index, QWidget *parent = nullptr);

    QTabWidget *tabs() const { return m_tabs; }
    KnowledgeBasePanel *knowledgeBase() const { return m_knowledge; }
    AssistantTestConsole *testConsole() const { return m_console; }
    SuggestionsPanel *suggestions() const { return m_suggestions; }
    AssistantStatsPanel *statistics() const { return m_stats; }

    // The assistant's thresholds (ai/answerThreshold, ai/marginThreshold), for the console's decision
    // and the suggestions the knowledge base answers now.
    void setThresholds(AssistantThresholds thresholds);
    // The tasks' time zone (tasks/timeZone): the statistics' days.
    void setTimeZone(const QTimeZone &tz);

public slots:
    // Ctrl+F: the knowledge base's search (the console's question when the console is in front, the
    // list of suggestions when they are).
    void focusSearch();
    // Ctrl+N: a new entry.
    void newEntry();
    void openEntry(const QString &id);

private:
    QTabWidget *m_tabs = nullptr;
    KnowledgeBasePanel *m_knowledge = nullptr;
    AssistantTestConsole *m_console = nullptr;
    SuggestionsPanel *m_suggestions = nullptr;
    AssistantStatsPanel *m_stats = nullptr;
};
