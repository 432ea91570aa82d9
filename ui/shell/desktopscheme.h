#pragma once

#include <QDBusConnection>
#include <QObject>
#include <QString>

class QDBusVariant;

// Whether the desktop wants light or dark windows. Qt 6.4 has no QStyleHints::colorScheme (6.5+), so
// it is read where GNOME, KDE and the other desktops publish it: the freedesktop settings portal
// (D-Bus org.freedesktop.portal.Desktop, interface org.freedesktop.portal.Settings, ReadOne, or Read
// of portals before version 2, of org.freedesktop.appearance color-scheme: 0 no preference, 1 dark,
// 2 light), followed through its SettingChanged signal. Without a portal (or with "no preference"):
// the GTK theme the desktop names (GTK_THEME "Adwaita:dark", or gtk-application-prefer-dark-theme /
// a "…-dark" gtk-theme-name in ~/.config/gtk-3.0/settings.ini); else light.
class DesktopColorScheme : public QObject
{
    Q_OBJECT
public:
    enum class Scheme
    {
        Light,
        Dark
    };
    Q_ENUM(Scheme)
    // Where it came from (for the log and the tests).
    enum class Source
    {
        Portal,
        Gtk,
        Default
    };
    Q_ENUM(Source)

    // Reads the portal on `bus` (the session bus by default; a test's private bus) once, and follows it.
    explicit DesktopColorScheme(QObject *parent = nullptr);
    DesktopColorScheme(const QDBusConnection &bus, QObject *parent);

    Scheme scheme() const { return m_scheme; }
    Source source() const { return m_source; }

    // The portal's color-scheme value: 1 dark, 2 light, anything else no preference (nullopt-like:
    // false in *known).
    static Scheme fromPortalValue(uint value, bool *known);
    // A GTK theme name ("Adwaita:dark", "Yaru-dark", "Breeze-Dark", "Adwaita"): dark when it says so.
    static bool gtkNameIsDark(const QString &name);
    // The GTK fallback: $GTK_THEME, then settings.ini of GTK 3 and 4 in the config folder.
    static bool gtkPrefersDark(const QString &gtkThemeEnv, const QString &configDir, bool *known);

    static constexpr int kPortalTimeoutMs = 400;

signals:
    void schemeChanged(DesktopColorScheme::Scheme scheme);

private slots:
    void onSettingChanged(const QString &ns, const QString &key, const QDBusVariant &value);

private:
    void readPortal();
    void fallBack();
    void set(Scheme scheme, Source source);

    QDBusConnection m_bus;
    Scheme m_scheme = Scheme::Light;
    Source m_source = Source::Default;
};
