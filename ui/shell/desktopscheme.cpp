#include "ui/shell/desktopscheme.h"

#include <QDBusArgument>
#include <QDBusMessage>
#include <QDBusVariant>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace {
const QString kService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString kPath = QStringLiteral("/org/freedesktop/portal/desktop");
const QString kInterface = QStringLiteral("org.freedesktop.portal.Settings");
const QString kNamespace = QStringLiteral("org.freedesktop.appearance");
const QString kKey = QStringLiteral("color-scheme");

// A portal answer is a variant, which Read (version 1) wraps in one more variant.
QVariant unwrap(QVariant v)
{
    for (int i = 0; i < 3; ++i) {
        if (v.canConvert<QDBusVariant>() && v.userType() == qMetaTypeId<QDBusVariant>())
            v = v.value<QDBusVariant>().variant();
        else if (v.userType() == qMetaTypeId<QDBusArgument>()) {
            const QDBusArgument arg = v.value<QDBusArgument>();
            if (arg.currentType() != QDBusArgument::VariantType)
                break;
            v = qdbus_cast<QDBusVariant>(arg).variant();
        } else
            break;
    }
    return v;
}
} // namespace

DesktopColorScheme::DesktopColorScheme(QObject *parent)
    : DesktopColorScheme(QDBusConnection::sessionBus(), parent)
{
}

DesktopColorScheme::DesktopColorScheme(const QDBusConnection &bus, QObject *parent)
    : QObject(parent)
    , m_bus(bus)
{
    readPortal();
    if (m_bus.isConnected())
        m_bus.connect(kService, kPath, kInterface, QStringLiteral("SettingChanged"), this,
                      SLOT(onSettingChanged(QString, QString, QDBusVariant)));
}

DesktopColorScheme::Scheme DesktopColorScheme::fromPortalValue(uint value, bool *known)
{
    *known = value == 1 || value == 2;
    return value == 1 ? Scheme::Dark : Scheme::Light;
}

bool DesktopColorScheme::gtkNameIsDark(const QString &name)
{
    const QString n = name.trimmed().toLower();
    return n.endsWith(QLatin1String(":dark")) || n.endsWith(QLatin1String("-dark")) ||
           n.endsWith(QLatin1String("_dark")) || n.contains(QLatin1String("-dark-"));
}

bool DesktopColorScheme::gtkPrefersDark(const QString &gtkThemeEnv, const QString &configDir, bool *known)
{
    *known = false;
    if (!gtkThemeEnv.trimmed().isEmpty()) {
        *known = true;
        return gtkNameIsDark(gtkThemeEnv);
    }
    for (const char *version : {"gtk-4.0", "gtk-3.0"}) {
        const QString file = QDir(configDir).filePath(QLatin1String(version) + QStringLiteral("/settings.ini"));
        if (!QFile::exists(file))
            continue;
        const QSettings ini(file, QSettings::IniFormat);
        const QVariant prefer = ini.value(QStringLiteral("Settings/gtk-application-prefer-dark-theme"));
        if (prefer.isValid()) {
            *known = true;
            const QString p = prefer.toString().trimmed().toLower();
            if (p == QLatin1String("1") || p == QLatin1String("true"))
                return true;
        }
        const QString name = ini.value(QStringLiteral("Settings/gtk-theme-name")).toString();
        if (!name.isEmpty()) {
            *known = true;
            return gtkNameIsDark(name);
        }
    }
    return false;
}

void DesktopColorScheme::readPortal()
{
    if (m_bus.isConnected()) {
        for (const QString &method : {QStringLiteral("ReadOne"), QStringLiteral("Read")}) {
            QDBusMessage call = QDBusMessage::createMethodCall(kService, kPath, kInterface, method);
            call << kNamespace << kKey;
            const QDBusMessage reply = m_bus.call(call, QDBus::Block, kPortalTimeoutMs);
            if (reply.type() != QDBusMessage::ReplyMessage || reply.arguments().isEmpty()) {
                // A portal before version 2 has no ReadOne: Read then; anything else (no portal, no
                // such key): the fallback.
                if (reply.errorName() == QLatin1String("org.freedesktop.DBus.Error.UnknownMethod"))
                    continue;
                break;
            }
            bool ok = false;
            const uint value = unwrap(reply.arguments().constFirst()).toUInt(&ok);
            bool known = false;
            const Scheme s = fromPortalValue(ok ? value : 0, &known);
            if (known) {
                set(s, Source::Portal);
                return;
            }
            break; // no preference: what the GTK theme says
        }
    }
    fallBack();
}

void DesktopColorScheme::fallBack()
{
    bool known = false;
    const bool dark = gtkPrefersDark(qEnvironmentVariable("GTK_THEME"),
                                     QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation), &known);
    set(dark ? Scheme::Dark : Scheme::Light, known ? Source::Gtk : Source::Default);
}

void DesktopColorScheme::onSettingChanged(const QString &ns, const QString &key, const QDBusVariant &value)
{
    if (ns != kNamespace || key != kKey)
        return;
    bool ok = false;
    const uint v = unwrap(value.variant()).toUInt(&ok);
    bool known = false;
    const Scheme s = fromPortalValue(ok ? v : 0, &known);
    if (known)
        set(s, Source::Portal);
    else
        fallBack();
}

void DesktopColorScheme::set(Scheme scheme, Source source)
{
    m_source = source;
    if (scheme == m_scheme)
        return;
    m_scheme = scheme;
    emit schemeChanged(scheme);
}
