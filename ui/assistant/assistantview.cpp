#include "ui/assistant/assistantview.h"

#include "ui/assistant/assistanttestconsole.h"
#include "ui/assistant/knowledgebasepanel.h"
#include "ui/shell/uikit.h"

#include <QTabWidget>
#include <QVBoxLayout>

AssistantView::AssistantView(const Store &store, std::shared_ptr<KnowledgeIndex> index, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("assistantView"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(UiKit::Space::M, UiKit::Space::M, UiKit::Space::M, UiKit::Space::S);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("assistantTabs"));
    layout->addWidget(m_tabs);
    m_knowledge = new KnowledgeBasePanel(store, m_tabs);
    m_console = new AssistantTestConsole(store, std::move(index), m_tabs);
    m_tabs->addTab(m_knowledge, tr("Knowledge base"));
    m_tabs->addTab(m_console, tr("Test console"));
    m_tabs->setTabToolTip(0, tr("The questions customers ask and the answers the assistant gives"));
    m_tabs->setTabToolTip(1, tr("Ask a question and see what the assistant would answer, and why"));

    // An entry opened from the console is edited over it; once saved, the question is asked again so
    // that the change shows.
    connect(m_console, &AssistantTestConsole::entryRequested, this, &AssistantView::openEntry);
    connect(m_knowledge, &KnowledgeBasePanel::entrySaved, this, [this] {
        if (m_tabs->currentWidget() == m_console && m_console->lastReply())
            m_console->ask();
    });
}

void AssistantView::focusSearch()
{
    if (m_tabs->currentWidget() == m_console) {
        m_console->focusQuestion();
        return;
    }
    m_knowledge->focusSearch();
}

void AssistantView::newEntry()
{
    m_knowledge->newEntry();
}

void AssistantView::openEntry(const QString &id)
{
    m_knowledge->openEntry(id);
}
