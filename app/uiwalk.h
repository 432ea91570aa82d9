#pragma once

class MainWindow;
class QString;
class SignInDialog;

// A walk through the window for the end-to-end test (tests/e2e/test_desktop.cpp) and for looking at
// the product by hand: when LIAISON_UI_WALK names a folder, the desktop app, once its window shows,
// opens every area from the navigation and every Settings page from the Settings menu (twice, with
// the dialog closed in between, as a user reopens it), saves a screenshot of each in that folder,
// writes walk.txt there (one line per step: "area <title> ok", "settings <page> ok|missing"), and
// quits through its own Quit action. With LIAISON_UI_WALK_WATCH=<name> it only waits for a contact of
// that name to show in Contacts (created by another copy; tests/postgres/test_window.cpp) and logs
// when it did. Nothing of it runs unless the variable is set.
void startUiWalk(MainWindow &window, const QString &outDir);

// The sign-in before the window, in a walk: saves signin.png in the walk's folder, then signs in with
// LIAISON_UI_WALK_SIGNIN ("e-mail|password") as a user types it, or cancels without it. The window's
// walk then logs who is signed in ("user <e-mail> <role>"). Nothing runs unless LIAISON_UI_WALK is set.
void walkSignIn(SignInDialog &dialog);
