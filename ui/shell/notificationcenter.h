#pragma once

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QString>
#include <QVector>

class Clock;
class QDBusConnection;
class QFrame;
class QLabel;
class QMenu;
class QSystemTrayIcon;
class QTimer;
class QToolButton;
class QWidget;

// Where the window tells the user what happened while they looked elsewhere (a task reminder, a
// new message): one place for all of them, visible on every desktop. Each notification shows as a
// toast in the window's corner for a few seconds, stays in the list behind the status bar's
// notifications button (with the unread count) until cleared, and is also handed to the desktop:
// the freedesktop notification service over D-Bus when the session has one (GNOME, KDE, …), else
// the system tray when there is one. A click on any of them emits activated(kind, id).
class NotificationCenter : public QObject
{
    Q_OBJECT
public:
    struct Notification
    {
        QString kind; // "task", "conversation"
        QString id;   // the task's or conversation's id
        QString title;
        QString text;
        QDateTime at;
        bool read = false;
    };
    static constexpr int kMaxKept = 100;
    static constexpr int kToastMs = 8000;

    // window: where the toast shows and whose status bar holds the button.
    // clock: the store's, so that a notice is stamped with the time the rest of the app uses.
    NotificationCenter(QWidget *window, const Clock &clock);
    ~NotificationCenter() override;

    void post(const QString &kind, const QString &id, const QString &title, const QString &text);
    const QVector<Notification> &notifications() const { return m_items; } // newest first
    int unreadCount() const;
    void markAllRead();
    // The notifications of one record (a conversation opened, a task opened) read.
    void markRead(const QString &kind, const QString &id);
    void clear();

    QToolButton *button() const { return m_button; }
    QFrame *toast() const { return m_toast; }
    // Whether post() hands notifications to the desktop too (off in tests).
    void setDesktopNotifications(bool on) { m_desktop = on; }
    // Opens the entry at `index` of notifications() as a click on it does.
    void activate(int index);
    // Buttons on the toast of one kind, as (key, label): a task reminder's Done and Snooze. Such a
    // toast stays until one of them is pressed (or it is closed), rather than leaving after
    // kToastMs: a busy person does not miss it. The key "open" opens the record (activated());
    // the others emit actionTriggered(). The desktop's notification offers the same buttons and
    // stays until dealt with too; dealt with in either place, it leaves both.
    void setActions(const QString &kind, const QList<QPair<QString, QString>> &actions);
    QWidget *toastActions() const { return m_toastActions; }
    // Notifications with buttons not dealt with yet, newest first: the toast shows the newest and
    // says how many more wait; each one dealt with (or closed) brings up the next, and a plain
    // notice that leaves after kToastMs brings them back. None is lost behind another.
    int waitingCount() const { return int(m_waiting.size()); }
    QLabel *toastMore() const { return m_toastMore; }
    // The D-Bus connection (by name) on which the desktop's notification service is looked for;
    // the session bus unless a test gives its own.
    void setDesktopBus(const QString &connectionName);

signals:
    void activated(const QString &kind, const QString &id);
    void actionTriggered(const QString &kind, const QString &id, const QString &action);
    void changed();

private slots:
    // org.freedesktop.Notifications.ActionInvoked: the user clicked one of ours on the desktop.
    void onDesktopAction(uint id, const QString &action);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateButton();
    void showToast(const Notification &n);
    // A button of a notification pressed, in the window or on the desktop.
    void act(const QString &kind, const QString &id, const QString &key);
    // After the toast's notification was dealt with or timed out: the next waiting one, or none.
    void showNextOrHide();
    int indexOf(const QString &kind, const QString &id) const;
    QDBusConnection desktopBus() const; // setDesktopBus()'s, else the session bus
    void closeOnDesktop(const QString &kind, const QString &id);
    void placeToast();
    void rebuildMenu();
    void toDesktop(const Notification &n);

    QWidget *m_window;
    const Clock &m_clock;
    QVector<Notification> m_items;
    QToolButton *m_button;
    QMenu *m_menu;
    QFrame *m_toast;
    QLabel *m_toastTitle;
    QLabel *m_toastText;
    QWidget *m_toastActions;
    QLabel *m_toastMore;
    QVector<QPair<QString, QString>> m_waiting;               // (kind, id) with buttons, not dealt with; newest first
    QString m_busName;                                        // empty: the session bus
    QHash<QString, QList<QPair<QString, QString>>> m_actions; // by kind
    QTimer *m_toastTimer;
    int m_toastIndex = -1;
    QSystemTrayIcon *m_tray = nullptr;
    bool m_desktop = true;
    QHash<uint, QPair<QString, QString>> m_desktopIds; // D-Bus notification id -> (kind, id)
};
