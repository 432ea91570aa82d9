#pragma once

class AppSettings;
class Store;
class MainWindow;

// Settings > Media in the desktop window: the page reads DATA/media and the media table directly
// and saves the "media/…" keys to liaison.ini (effective at the next start).
void addMediaPage(MainWindow &window, const AppSettings &settings, const Store &store);
