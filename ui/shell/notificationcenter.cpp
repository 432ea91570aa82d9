#include "ui/shell/notificationcenter.h"

#include "model/core/timeutil.h"
#include "ui/shell/uikit.h"

#include <QApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QStatusBar>
#include <QStyle>
#include <QSystemTrayIcon>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace {
const QString kService = QStringLiteral("org.freedesktop.Notifications");
const QString kPath = QStringLiteral("/org/freedesktop/Notifications");
const QString kInterface = QStringLiteral("org.freedesktop.Notifications");
} // namespace

NotificationCenter::NotificationCenter(QWidget *window, const Clock &clock)
    : QObject(window)
    , m_window(window)
    , m_clock(clock)
{
    setObjectName(QStringLiteral("notificationCenter"));
    m_button = new QToolButton(window);
    m_button->setObjectName(QStringLiteral("notificationsButton"));
    m_button->setAccessibleName(tr("Notifications"));
    m_button->setAutoRaise(true);
    m_button->setPopupMode(QToolButton::InstantPopup);
    m_button->setIcon(window->style()->standardIcon(QStyle::SP_MessageBoxInformation));
    m_button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_menu = new QMenu(m_button);
    m_menu->setObjectName(QStringLiteral("notificationsMenu"));
    m_button->setMenu(m_menu);
    connect(m_menu, &QMenu::aboutToShow, this, &NotificationCenter::rebuildMenu);
    if (auto *main = qobject_cast<QMainWindow *>(window))
        main->statusBar()->addWidget(m_button);

    // The toast: a small panel over the window's bottom-left corner.
    m_toast = new QFrame(window);
    m_toast->setObjectName(QStringLiteral("notificationToast"));
    m_toast->setFrameShape(QFrame::StyledPanel);
    m_toast->setAutoFillBackground(true);
    m_toast->setCursor(Qt::PointingHandCursor);
    m_toast->setMinimumWidth(280);
    m_toast->setMaximumWidth(380);
    auto *layout = new QVBoxLayout(m_toast);
    layout->setContentsMargins(12, 8, 12, 8);
    m_toastTitle = new QLabel(m_toast);
    m_toastTitle->setTextFormat(Qt::PlainText); // data from outside is never markup
    QFont bold = m_toastTitle->font();
    bold.setBold(true);
    m_toastTitle->setFont(bold);
    m_toastText = new QLabel(m_toast);
    m_toastText->setTextFormat(Qt::PlainText);
    m_toastText->setWordWrap(true);
    layout->addWidget(m_toastTitle);
    layout->addWidget(m_toastText);
    m_toastActions = new QWidget(m_toast);
    m_toastActions->setObjectName(QStringLiteral("notificationActions"));
    m_toastActions->setCursor(Qt::ArrowCursor);
    auto *actionsLayout = new QHBoxLayout(m_toastActions);
    actionsLayout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_toastActions);
    m_toastActions->hide();
    m_toastMore = new QLabel(m_toast);
    m_toastMore->setObjectName(QStringLiteral("notificationMore"));
    m_toastMore->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_toastMore);
    m_toastMore->hide();
    m_toast->installEventFilter(this);
    m_toast->hide();
    m_toastTimer = new QTimer(this);
    m_toastTimer->setSingleShot(true);
    m_toastTimer->setInterval(kToastMs);
    connect(m_toastTimer, &QTimer::timeout, this, &NotificationCenter::showNextOrHide);
    window->installEventFilter(this); // keeps the toast in its corner when the window resizes

    QDBusConnection::sessionBus().connect(kService, kPath, kInterface, QStringLiteral("ActionInvoked"), this,
                                          SLOT(onDesktopAction(uint, QString)));
    updateButton();
}

NotificationCenter::~NotificationCenter() = default;

void NotificationCenter::setDesktopBus(const QString &connectionName)
{
    m_busName = connectionName;
    desktopBus().connect(kService, kPath, kInterface, QStringLiteral("ActionInvoked"), this,
                         SLOT(onDesktopAction(uint, QString)));
}

QDBusConnection NotificationCenter::desktopBus() const
{
    return m_busName.isEmpty() ? QDBusConnection::sessionBus() : QDBusConnection(m_busName);
}

int NotificationCenter::indexOf(const QString &kind, const QString &id) const
{
    for (int i = 0; i < m_items.size(); ++i) {
        if (m_items.at(i).kind == kind && m_items.at(i).id == id)
            return i;
    }
    return -1;
}

int NotificationCenter::unreadCount() const
{
    return int(std::count_if(m_items.begin(), m_items.end(), [](const Notification &n) { return !n.read; }));
}

void NotificationCenter::post(const QString &kind, const QString &id, const QString &title, const QString &text)
{
    Notification n{kind, id, title, text, m_clock.now().toLocalTime(), false};
    m_items.prepend(n);
    if (m_items.size() > kMaxKept)
        m_items.resize(kMaxKept);
    updateButton();
    if (m_actions.contains(kind)) {
        m_waiting.removeAll({kind, id}); // a reminder again: it moves to the front
        m_waiting.prepend({kind, id});
    }
    showToast(n);
    if (m_desktop)
        toDesktop(n);
    emit changed();
}

void NotificationCenter::markAllRead()
{
    for (Notification &n : m_items)
        n.read = true;
    updateButton();
    emit changed();
}

void NotificationCenter::markRead(const QString &kind, const QString &id)
{
    bool any = false;
    for (Notification &n : m_items) {
        if (!n.read && n.kind == kind && n.id == id) {
            n.read = true;
            any = true;
        }
    }
    if (!any)
        return;
    updateButton();
    emit changed();
}

void NotificationCenter::clear()
{
    m_items.clear();
    m_waiting.clear();
    m_toast->hide();
    updateButton();
    emit changed();
}

void NotificationCenter::activate(int index)
{
    if (index < 0 || index >= m_items.size())
        return;
    m_items[index].read = true;
    const Notification n = m_items.at(index);
    updateButton();
    if (m_waiting.removeAll({n.kind, n.id}) > 0)
        closeOnDesktop(n.kind, n.id);
    showNextOrHide();
    m_window->show();
    m_window->raise();
    m_window->activateWindow();
    emit activated(n.kind, n.id);
    emit changed();
}

void NotificationCenter::updateButton()
{
    const int unread = unreadCount();
    m_button->setText(unread > 0 ? tr("%n new", nullptr, unread) : QString());
    // Unread ones stand out in the status bar: a red, bold count.
    m_button->setStyleSheet(unread > 0 ? QStringLiteral("QToolButton { color: %1; font-weight: bold; }")
                                             .arg(UiKit::color(UiKit::Tone::Danger).name())
                                       : QString());
    m_button->setToolTip(m_items.isEmpty() ? tr("No notifications") : tr("Notifications (%1)").arg(m_items.size()));
    m_button->setEnabled(!m_items.isEmpty());
}

void NotificationCenter::rebuildMenu()
{
    m_menu->clear();
    const QLocale locale;
    for (int i = 0; i < m_items.size(); ++i) {
        const Notification &n = m_items.at(i);
        QString line = QStringLiteral("%1  %2 — %3")
                           .arg(locale.toString(n.at.time(), QLocale::ShortFormat), n.title, n.text.left(90));
        line.replace(QLatin1Char('&'), QStringLiteral("&&")); // a menu text: & is a mnemonic
        QAction *action = m_menu->addAction(line, this, [this, i] { activate(i); });
        QFont f = action->font();
        f.setBold(!n.read);
        action->setFont(f);
    }
    if (!m_items.isEmpty()) {
        m_menu->addSeparator();
        m_menu->addAction(tr("Mark all as read"), this, &NotificationCenter::markAllRead);
        m_menu->addAction(tr("Clear"), this, &NotificationCenter::clear);
    }
}

void NotificationCenter::setActions(const QString &kind, const QList<QPair<QString, QString>> &actions)
{
    m_actions.insert(kind, actions);
}

void NotificationCenter::showToast(const Notification &n)
{
    m_toastTitle->setText(n.title);
    m_toastText->setText(n.text.left(300));
    m_toastIndex = indexOf(n.kind, n.id);
    // Its buttons, when its kind has some: then it stays until one is pressed.
    const QList<QPair<QString, QString>> actions = m_actions.value(n.kind);
    auto *row = static_cast<QHBoxLayout *>(m_toastActions->layout());
    while (QLayoutItem *item = row->takeAt(0)) {
        if (QWidget *w = item->widget()) {
            w->hide();
            w->setParent(nullptr);
            w->deleteLater(); // it may be the button whose click led here
        }
        delete item;
    }
    for (const auto &[key, label] : actions) {
        auto *button = new QPushButton(label, m_toastActions);
        button->setObjectName(QStringLiteral("notificationAction_") + key);
        connect(button, &QPushButton::clicked, this,
                [this, key = key, kind = n.kind, id = n.id] { act(kind, id, key); });
        row->addWidget(button);
        button->show(); // on a toast already shown, a new child stays hidden until told (and unsized)
    }
    if (!actions.isEmpty()) {
        auto *close = new QPushButton(QStringLiteral("×"), m_toastActions);
        close->setObjectName(QStringLiteral("notificationClose"));
        close->setAccessibleName(tr("Close"));
        close->setToolTip(tr("Close (it stays in the notifications list)"));
        close->setFixedWidth(close->fontMetrics().horizontalAdvance(QStringLiteral("××")) + 12);
        connect(close, &QPushButton::clicked, this, [this, kind = n.kind, id = n.id] {
            m_waiting.removeAll({kind, id}); // closed: it stays in the list, unread
            showNextOrHide();
        });
        row->addWidget(close);
        close->show();
    }
    m_toastActions->setVisible(!actions.isEmpty());
    // The reminders behind this one: said, so that none is taken for gone.
    const int behind = int(m_waiting.size()) - (m_waiting.contains({n.kind, n.id}) ? 1 : 0);
    m_toastMore->setText(tr("%n more waiting", nullptr, behind));
    m_toastMore->setVisible(behind > 0);
    // Wide enough for every button whole (Turkish labels are longer), text wrapping under them.
    const QMargins margins = m_toast->layout()->contentsMargins();
    const int buttons = actions.isEmpty() ? 0 : m_toastActions->sizeHint().width() + margins.left() + margins.right();
    m_toast->setMinimumWidth(std::max(280, buttons));
    m_toast->setMaximumWidth(std::max(actions.isEmpty() ? 380 : 560, buttons));
    m_toast->adjustSize();
    placeToast();
    m_toast->show();
    m_toast->raise();
    if (actions.isEmpty())
        m_toastTimer->start();
    else
        m_toastTimer->stop(); // stays until dealt with
}

void NotificationCenter::act(const QString &kind, const QString &id, const QString &key)
{
    if (key == QLatin1String("open")) {
        const int i = indexOf(kind, id);
        if (i >= 0)
            activate(i); // takes it off the waiting ones and shows the next
        return;
    }
    m_waiting.removeAll({kind, id});
    closeOnDesktop(kind, id);
    markRead(kind, id);
    showNextOrHide();
    emit actionTriggered(kind, id, key);
}

void NotificationCenter::showNextOrHide()
{
    m_toastTimer->stop();
    for (const auto &[kind, id] : std::as_const(m_waiting)) {
        const int i = indexOf(kind, id);
        if (i >= 0)
            return showToast(m_items.at(i));
    }
    m_waiting.clear(); // none of them is kept any more
    m_toast->hide();
}

void NotificationCenter::closeOnDesktop(const QString &kind, const QString &id)
{
    QDBusConnection bus = desktopBus();
    for (auto it = m_desktopIds.begin(); it != m_desktopIds.end();) {
        if (it->first == kind && it->second == id) {
            if (bus.isConnected()) {
                QDBusMessage call =
                    QDBusMessage::createMethodCall(kService, kPath, kInterface, QStringLiteral("CloseNotification"));
                call << it.key();
                bus.call(call, QDBus::NoBlock);
            }
            it = m_desktopIds.erase(it);
        } else {
            ++it;
        }
    }
}

void NotificationCenter::placeToast()
{
    const int margin = 16;
    int bottom = m_window->height() - margin;
    if (auto *main = qobject_cast<QMainWindow *>(m_window))
        bottom -= main->statusBar()->height();
    // Bottom left, over the notifications button it belongs to: the bottom right held the Inbox's
    // Send button and the contact's notes.
    m_toast->move(margin, bottom - m_toast->height());
}

bool NotificationCenter::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_toast && event->type() == QEvent::MouseButtonRelease) {
        activate(m_toastIndex);
        return true;
    }
    if (watched == m_window && event->type() == QEvent::Resize && m_toast->isVisible())
        placeToast();
    return QObject::eventFilter(watched, event);
}

void NotificationCenter::toDesktop(const Notification &n)
{
    // The freedesktop notification service (GNOME Shell, KDE, most desktops): no tray needed.
    QDBusConnection bus = desktopBus();
    if (bus.isConnected() && bus.interface() && bus.interface()->isServiceRegistered(kService)) {
        // A reminder carries its buttons (Done, Snooze…) and stays until dealt with: critical
        // urgency and no timeout, as calendars' reminders do; a plain notice leaves by itself.
        QStringList actions{QStringLiteral("default"), tr("Open")};
        const QList<QPair<QString, QString>> buttons = m_actions.value(n.kind);
        for (const auto &[key, label] : buttons) {
            if (key != QLatin1String("open"))
                actions << key << label;
        }
        QVariantMap hints;
        if (!buttons.isEmpty())
            hints.insert(QStringLiteral("urgency"), QVariant::fromValue(uchar(2)));
        QDBusMessage call = QDBusMessage::createMethodCall(kService, kPath, kInterface, QStringLiteral("Notify"));
        call << QStringLiteral("Liaison") << uint(0) << QStringLiteral("liaison") << n.title << n.text << actions
             << hints << int(buttons.isEmpty() ? kToastMs : 0);
        const QDBusMessage reply = bus.call(call, QDBus::Block, 2000);
        if (reply.type() == QDBusMessage::ReplyMessage && !reply.arguments().isEmpty()) {
            m_desktopIds.insert(reply.arguments().first().toUInt(), {n.kind, n.id});
            return;
        }
    }
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        if (!m_tray) {
            m_tray = new QSystemTrayIcon(this);
            QIcon icon = QApplication::windowIcon();
            if (icon.isNull())
                icon = m_window->style()->standardIcon(QStyle::SP_MessageBoxInformation);
            m_tray->setIcon(icon);
            m_tray->setToolTip(QStringLiteral("Liaison"));
            m_tray->show();
            connect(m_tray, &QSystemTrayIcon::messageClicked, this, [this] { activate(0); });
        }
        m_tray->showMessage(n.title, n.text, QSystemTrayIcon::Information, kToastMs);
    }
}

void NotificationCenter::onDesktopAction(uint id, const QString &action)
{
    const auto it = m_desktopIds.constFind(id);
    if (it == m_desktopIds.constEnd())
        return;
    const auto [kind, recordId] = *it;
    m_desktopIds.remove(id); // the desktop closes it on an action
    const QList<QPair<QString, QString>> buttons = m_actions.value(kind);
    const bool known = std::any_of(buttons.begin(), buttons.end(),
                                   [&action](const QPair<QString, QString> &a) { return a.first == action; });
    act(kind, recordId, known ? action : QStringLiteral("open")); // "default": a click on it
}
