#pragma once

class AppSettings;
class MainWindow;

// Settings > Backups in the desktop window: the last backup of DATA/backups, "Back up now", and
// backup/keep saved to liaison.ini (effective at the next start).
void addBackupPage(MainWindow &window, const AppSettings &settings);
