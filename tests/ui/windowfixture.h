#pragma once

// A main window over a throw-away database and event bus, for the tests of what the window itself
// does (notifications, remembered arrangement). Declare it before the windows it makes.

#include "model/accounts/apikeyrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/eventbus.h"
#include "tests/support/fakeclock.h"
#include "tests/support/testsupport.h"
#include "tests/ui/composedwindow.h"
#include "ui/shell/mainwindow.h"

#include <QStandardPaths>

#include <memory>

struct WindowFixture
{
    WindowFixture() { QStandardPaths::setTestModeEnabled(true); }

    std::unique_ptr<MainWindow> window() { return std::make_unique<ComposedWindow>(contacts, keys, Store(bus, clock)); }

    TempDatabase db;
    EventBus bus;
    FakeClock clock; // follows the system clock until a test sets it
    ContactRepository contacts{Store(bus, clock)};
    ApiKeyRepository keys{Store(bus, clock)};
};
