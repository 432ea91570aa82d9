#pragma once

class AppSettings;
class MainWindow;
class Store;

// Hands the desktop's settings to the areas that need them once they are in the window: the
// tasks time zone (tasks/timeZone) to the deal detail, the Inbox contact panel and the assistant's
// statistics, the assistant's thresholds (ai/answerThreshold, ai/marginThreshold) to its test
// console and suggestions, and the Inbox
// quick replies (inbox/quickReplies, a string list in liaison.ini; written back when the user edits
// them; with --set, one string whose answers are separated by "|").
void applyDesktopSettings(MainWindow &window, const AppSettings &settings);

// Settings > Contacts: the calling code of numbers without "+" (contacts/defaultCallingCode), saved
// to liaison.ini and applied at once to the window, the API and incoming webhooks.
void addContactsPage(MainWindow &window, const AppSettings &settings);

// Settings > Users (admins only): who signs in, their roles; passwords hashed, and sessions ended,
// by the model's account rules (UserRepository), as through the API.
void addUsersPage(MainWindow &window, const Store &store);

// Settings > Templates (admins only): the message templates the composer offers.
void addTemplatesPage(MainWindow &window, const Store &store);

// Settings → Appearance (everyone's): follow the desktop, light or dark (appearance/theme), applied
// at once and saved to liaison.ini; the window's language (ui/language), saved for the next start.
void addAppearancePage(MainWindow &window, const AppSettings &settings);
