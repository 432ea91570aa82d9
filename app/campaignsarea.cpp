#include "app/campaignsarea.h"

#include "ui/campaigns/campaignsview.h"
#include "ui/campaigns/unsubscribelist.h"
#include "ui/shell/mainwindow.h"

CampaignsView *addCampaignsArea(MainWindow &window, const Store &store)
{
    auto *view = new CampaignsView(store);
    window.addArea(CampaignsView::tr("Campaigns"), view,
                   {[view] { view->focusSearch(); }, [view] { view->newCampaign(); }}, QStringLiteral("campaigns"));
    // The store reads the signed-in user at each call: who may remove from the unsubscribe list
    // changes with them.
    QObject::connect(&window, &MainWindow::signedInUserChanged, view->unsubscribeList(),
                     &UnsubscribeList::updateActions);
    return view;
}
