#pragma once

// The main window as the app's composition root (app/windowcontents.h) gives it to the tests of the
// window: Contacts and Deals (addRecordAreas) and the API's Settings pages (addApiPages), made by
// the app's own functions. A test adds Tasks, the Inbox or other pages itself when it needs them.

#include "app/windowcontents.h"
#include "ui/shell/mainwindow.h"

class ComposedWindow : public MainWindow
{
public:
    ComposedWindow(ContactRepository &contacts, ApiKeyRepository &keys, const Store &store, QWidget *parent = nullptr)
        : MainWindow(keys, store, parent)
    {
        addRecordAreas(*this, contacts, store);
        addApiPages(*this, keys, store, WebhookPolicy());
    }
};
