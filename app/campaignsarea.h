#pragma once

class CampaignsView;
class MainWindow;
class Store;

// The Campaigns area in the window: in the navigation (its Alt key, its megaphone icon), Ctrl+F in
// its search and Ctrl+N a new campaign; the unsubscribe list's Remove following who signs in (an
// admin's). Returns the view (the window owns it).
CampaignsView *addCampaignsArea(MainWindow &window, const Store &store);
