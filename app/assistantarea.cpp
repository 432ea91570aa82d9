#include "app/assistantarea.h"

#include "ui/assistant/assistantview.h"
#include "ui/shell/mainwindow.h"

AssistantView *addAssistantArea(MainWindow &window, const Store &store, std::shared_ptr<KnowledgeIndex> index)
{
    auto *view = new AssistantView(store, std::move(index));
    window.addArea(AssistantView::tr("Assistant"), view,
                   {[view] { view->focusSearch(); }, [view] { view->newEntry(); }}, QStringLiteral("assistant"));
    return view;
}
