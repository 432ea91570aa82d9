#include "ui/assistant/assistantview.h"

#include "ui/assistant/assistantstatspanel.h"
#include "ui/assistant/assistanttestconsole.h"
#include "ui/assistant/knowledgebasepanel.h"
#include "ui/assistant/suggestionspanel.h"
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
    m_console = new AssistantTestConsole(store, index, m_tabs);
    m_suggestions = new SuggestionsPanel(store, index, m_tabs);
    m_stats = new AssistantStatsPanel(store, std::move(index), m_tabs);
    m_tabs->addTab(m_knowledge, tr("Knowledge base"));
    m_tabs->addTab(m_console, tr("Test console"));
    m_tabs->addTab(m_suggestions, tr("Suggestions"));
    m_tabs->addTab(m_stats, tr("Statistics"));
    m_tabs->setTabToolTip(0, tr("The questions customers ask and the answers the assistant gives"));
    m_tabs->setTabToolTip(1, tr("Ask a question and see what the assistant would answer, and why"));
    m_tabs->setTabToolTip(2, tr("Questions the assistant could not answer, grouped: answer them into entries"));
    m_tabs->setTabToolTip(3, tr("How many questions the assistant answered and handed off, and how its answers "
                                "were rated"));

    // An entry opened from the console is edited over it; once saved, the question is asked again so
    // that the change shows.
    connect(m_console, &AssistantTestConsole::entryRequested, this, &AssistantView::openEntry);
    connect(m_stats, &AssistantStatsPanel::entryRequested, this, &AssistantView::openEntry);
    // The console's tab, clicked, takes the keyboard to its question: typing does not go to the
    // navigation behind it.
    connect(m_tabs, &QTabWidget::tabBarClicked, this, [this](int index) {
        if (m_tabs->widget(index) == m_console)
            QMetaObject::invokeMethod(m_console, &AssistantTestConsole::focusQuestion, Qt::QueuedConnection);
    });
    connect(m_knowledge, &KnowledgeBasePanel::entrySaved, this, [this] {
        if (m_tabs->currentWidget() == m_console && m_console->lastReply())
            m_console->ask();
    });
}

void AssistantView::setThresholds(AssistantThresholds thresholds)
{
    m_console->setThresholds(thresholds);
    m_suggestions->setThresholds(thresholds);
    m_stats->setThresholds(thresholds);
}

void AssistantView::setTimeZone(const QTimeZone &tz)
{
    m_stats->setTimeZone(tz);
}

void AssistantView::focusSearch()
{
    if (m_tabs->currentWidget() == m_console) {
        m_console->focusQuestion();
        return;
    }
    if (m_tabs->currentWidget() == m_suggestions) {
        m_suggestions->focusList();
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
