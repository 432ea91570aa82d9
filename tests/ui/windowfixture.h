#pragma once

// A main window over a throw-away database and event bus, for the tests of what the window itself
// does (notifications, remembered arrangement). Declare it before the windows it makes.

#include "apikeyrepository.h"
#include "contactrepository.h"
#include "eventbus.h"
#include "mainwindow.h"
#include "testsupport.h"

#include <QStandardPaths>

#include <memory>

struct WindowFixture
{
    WindowFixture() { QStandardPaths::setTestModeEnabled(true); }

    std::unique_ptr<MainWindow> window() { return std::make_unique<MainWindow>(contacts, keys, bus); }

    TempDatabase db;
    EventBus bus;
    ContactRepository contacts{&bus};
    ApiKeyRepository keys{&bus};
};
