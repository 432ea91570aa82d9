#include "ui/shell/windowstate.h"

#include <QAbstractButton>
#include <QCoreApplication>
#include <QEvent>
#include <QHeaderView>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QWidget>

namespace {
constexpr int kVersion = 1;
constexpr char kKeepChecked[] = "liaisonKeepChecked"; // the property keepChecked() sets

// "contactsView/contactsSplitter": the object names from the window down; empty when a widget on
// the way has none (it could not be told apart from its siblings).
QString pathOf(const QWidget *window, const QObject *object)
{
    QStringList names;
    for (const QObject *o = object; o && o != window; o = o->parent()) {
        if (!o->objectName().isEmpty() && !o->objectName().startsWith(QLatin1String("qt_")))
            names.prepend(o->objectName());
    }
    return object->objectName().isEmpty() ? QString() : names.join(QLatin1Char('/'));
}
} // namespace

WindowState::WindowState(QWidget *window, QString iniPath)
    : QObject(window)
    , m_window(window)
    , m_path(std::move(iniPath))
{
    window->installEventFilter(this);
    connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, this, &WindowState::save);
}

void WindowState::restore()
{
    QSettings ini(m_path, QSettings::IniFormat);
    if (ini.value(QStringLiteral("version")).toInt() != kVersion)
        return;
    m_window->restoreGeometry(ini.value(QStringLiteral("window/geometry")).toByteArray());
    // A window saved wider or taller than the screen it comes back on (a long text widened it, or
    // another monitor) fits the screen again.
    if (const QScreen *screen = m_window->screen()) {
        const QRect available = screen->availableGeometry();
        if (m_window->width() > available.width() || m_window->height() > available.height())
            m_window->resize(m_window->size().boundedTo(available.size()));
        // … and lies on it whole (its foot with the status bar was once off the screen's bottom).
        QRect place = m_window->geometry();
        place.moveRight(qMin(place.right(), available.right()));
        place.moveBottom(qMin(place.bottom(), available.bottom()));
        place.moveLeft(qMax(place.left(), available.left()));
        place.moveTop(qMax(place.top(), available.top()));
        if (const QPoint shift = place.topLeft() - m_window->geometry().topLeft(); !shift.isNull())
            m_window->move(m_window->pos() + shift); // pos() is the frame's: shifted, not replaced
    }
    const QVariant area = ini.value(QStringLiteral("window/area"));
    if (area.isValid() && m_window->property("currentArea").isValid())
        m_window->setProperty("currentArea", area.toInt());
    ini.beginGroup(QStringLiteral("splitters"));
    for (QSplitter *splitter : m_window->findChildren<QSplitter *>()) {
        const QString key = pathOf(m_window, splitter);
        if (!key.isEmpty() && ini.contains(key))
            splitter->restoreState(ini.value(key).toByteArray());
    }
    ini.endGroup();
    ini.beginGroup(QStringLiteral("tables"));
    for (QTableView *table : m_window->findChildren<QTableView *>()) {
        const QString key = pathOf(m_window, table);
        QHeaderView *header = table->horizontalHeader();
        if (key.isEmpty() || !ini.contains(key + QStringLiteral("/state")))
            continue;
        if (ini.value(key + QStringLiteral("/columns")).toInt() != header->count())
            continue; // the table's columns changed since: its defaults fit better
        header->restoreState(ini.value(key + QStringLiteral("/state")).toByteArray());
    }
    ini.endGroup();
    ini.beginGroup(QStringLiteral("toggles"));
    for (QAbstractButton *button : m_window->findChildren<QAbstractButton *>()) {
        if (!button->property(kKeepChecked).toBool())
            continue;
        const QString key = pathOf(m_window, button);
        if (!key.isEmpty() && ini.contains(key))
            button->setChecked(ini.value(key).toBool());
    }
    ini.endGroup();
}

void WindowState::keepChecked(QAbstractButton *button)
{
    button->setProperty(kKeepChecked, true);
}

void WindowState::save() const
{
    QSettings ini(m_path, QSettings::IniFormat);
    ini.setValue(QStringLiteral("version"), kVersion);
    ini.setValue(QStringLiteral("window/geometry"), m_window->saveGeometry());
    if (const QVariant area = m_window->property("currentArea"); area.isValid())
        ini.setValue(QStringLiteral("window/area"), area);
    ini.beginGroup(QStringLiteral("splitters"));
    for (const QSplitter *splitter : m_window->findChildren<QSplitter *>()) {
        const QString key = pathOf(m_window, splitter);
        if (!key.isEmpty())
            ini.setValue(key, splitter->saveState());
    }
    ini.endGroup();
    ini.beginGroup(QStringLiteral("tables"));
    for (const QTableView *table : m_window->findChildren<QTableView *>()) {
        const QString key = pathOf(m_window, table);
        if (key.isEmpty())
            continue;
        ini.setValue(key + QStringLiteral("/columns"), table->horizontalHeader()->count());
        ini.setValue(key + QStringLiteral("/state"), table->horizontalHeader()->saveState());
    }
    ini.endGroup();
    ini.beginGroup(QStringLiteral("toggles"));
    for (const QAbstractButton *button : m_window->findChildren<QAbstractButton *>()) {
        if (!button->property(kKeepChecked).toBool())
            continue;
        if (const QString key = pathOf(m_window, button); !key.isEmpty())
            ini.setValue(key, button->isChecked());
    }
    ini.endGroup();
    ini.sync();
}

bool WindowState::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::Close)
        save();
    return QObject::eventFilter(watched, event);
}
