// The window's notification centre, offscreen: a posted notification shows as a toast in the
// window's corner and in the list behind the status bar's button with the unread count; a click on
// the toast or on its list entry brings the window up and says which task or conversation to open;
// text from outside stays plain; at most kMaxKept are kept.

#include "tests/support/privatebus.h"
#include "tests/ui/uitest.h"

#include "tests/ui/windowfixture.h"
#include "ui/shell/notificationcenter.h"

#include <QDBusConnection>
#include <QDBusError>
#include <QFrame>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QToolButton>

using namespace UiTest;

// The desktop's notification service (org.freedesktop.Notifications) as a test's own: it records
// what it is asked, and says a button was pressed as the desktop would.
class FakeNotifications : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    struct Shown
    {
        uint id;
        QString summary;
        QStringList actions;
        QVariantMap hints;
        int timeout;
    };
    QList<Shown> shown;
    QList<uint> closed;

public slots:
    uint Notify(const QString &, uint, const QString &, const QString &summary, const QString &,
                const QStringList &actions, const QVariantMap &hints, int timeout)
    {
        shown.append({uint(shown.size() + 1), summary, actions, hints, timeout});
        return shown.last().id;
    }
    void CloseNotification(uint id) { closed.append(id); }

signals:
    void ActionInvoked(uint id, const QString &action);
};

class TestNotificationCenter final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<WindowFixture> m_fixture;
    std::unique_ptr<MainWindow> m_window;

    NotificationCenter *center() const { return m_window->notifications(); }

private slots:
    void init()
    {
        m_fixture = std::make_unique<WindowFixture>();
        m_window = m_fixture->window();
        center()->setDesktopNotifications(false);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup()
    {
        m_window.reset();
        m_fixture.reset();
    }

    void aNotificationShowsAsToastAndInTheList()
    {
        QToolButton *button = center()->button();
        QVERIFY(!button->isEnabled()); // nothing yet
        center()->post("task", "task_1", "Task reminder", "Call the bank — due 14:00");
        QFrame *toast = center()->toast();
        QVERIFY(toast->isVisible());
        QVERIFY(m_window->rect().contains(toast->geometry()));     // inside the window, in its corner
        QVERIFY(toast->geometry().left() < m_window->width() / 2); // over the notifications button
        QVERIFY(toast->geometry().bottom() > m_window->height() / 2);
        const QList<QLabel *> labels = toast->findChildren<QLabel *>();
        QCOMPARE(labels.at(0)->text(), QString("Task reminder"));
        QCOMPARE(labels.at(1)->text(), QString("Call the bank — due 14:00"));
        QVERIFY(button->isEnabled());
        QCOMPARE(button->text(), QString("1 new"));

        center()->post("conversation", "conv_1", "New message from Ayşe", "Teklif hazır mı?");
        QCOMPARE(button->text(), QString("2 new"));
        QCOMPARE(center()->notifications().first().id, QString("conv_1")); // newest first
        QCOMPARE(labels.at(0)->text(), QString("New message from Ayşe"));
    }

    // A notice is stamped with the store's time, as every record is.
    void aNotificationTakesTheStoresTime()
    {
        const QDateTime at(QDate(2026, 11, 27), QTime(9, 41), Qt::UTC);
        m_fixture->clock.set(at);
        center()->post("task", "task_1", "Task reminder", "Call the bank");
        QCOMPARE(center()->notifications().first().at, at.toLocalTime());
    }

    void aReminderStaysUntilDealtWithAndOffersItsActions()
    {
        center()->setActions("task", {{"open", "Open"}, {"done", "Done"}, {"snooze10", "10 min"}});
        QSignalSpy acted(center(), &NotificationCenter::actionTriggered);
        QSignalSpy opened(center(), &NotificationCenter::activated);
        center()->post("task", "task_1", "Task reminder",
                       "Ayşe Hanım'ı ara — due 14:00\nAyşe Yılmaz · +90 532 123 45 67");
        QFrame *toast = center()->toast();
        QVERIFY(toast->isVisible());
        QVERIFY(center()->toastActions()->isVisible());
        // No timer takes it away, as one does a plain toast after kToastMs.
        for (const QTimer *timer : center()->findChildren<QTimer *>())
            QVERIFY(!timer->isActive());
        auto *done = center()->toastActions()->findChild<QPushButton *>("notificationAction_done");
        QVERIFY(done);
        QTest::mouseClick(done, Qt::LeftButton);
        QCOMPARE(acted.size(), 1);
        QCOMPARE(acted.first(), (QVariantList{"task", "task_1", "done"}));
        QVERIFY(!toast->isVisible());
        QCOMPARE(center()->unreadCount(), 0);
        // Open opens the record; a conversation's toast has no buttons and leaves by itself.
        center()->post("task", "task_2", "Task reminder", "Teklifi gönder");
        QTest::mouseClick(center()->toastActions()->findChild<QPushButton *>("notificationAction_open"),
                          Qt::LeftButton);
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened.first(), (QVariantList{"task", "task_2"}));
        center()->post("conversation", "conv_1", "New message", "Merhaba");
        QVERIFY(!center()->toastActions()->isVisible());
    }

    // Two reminders and a message at once: the newest shows, saying how many more wait; the
    // message leaves by itself and the reminder comes back; each one dealt with brings up the next.
    void remindersWaitBehindEachOtherAndNoneIsLost()
    {
        center()->setActions("task", {{"open", "Open"},
                                      {"done", "Done"},
                                      {"snooze10", "10 minutes"},
                                      {"snooze60", "1 hour"},
                                      {"tomorrow", "Tomorrow 9:00"}});
        QSignalSpy acted(center(), &NotificationCenter::actionTriggered);
        center()->post("task", "task_1", "Task reminder", "Call the bank");
        center()->post("task", "task_2", "Task reminder", "Send the offer");
        QFrame *toast = center()->toast();
        // Every button whole, also on a toast that replaced another.
        const QList<QPushButton *> buttons = center()->toastActions()->findChildren<QPushButton *>();
        QCOMPARE(buttons.size(), 6); // five and the close button
        for (const QPushButton *b : buttons) {
            QVERIFY2(b->isVisible(), qPrintable(b->text()));
            if (b->objectName() != "notificationClose") // narrow on purpose: ×
                QVERIFY2(b->width() >= b->sizeHint().width(), qPrintable(b->text()));
        }
        QLabel *text = toast->findChildren<QLabel *>().at(1);
        QCOMPARE(text->text(), QString("Send the offer"));
        QCOMPARE(center()->waitingCount(), 2);
        QVERIFY(center()->toastMore()->isVisible());
        QCOMPARE(center()->toastMore()->text(), QString("1 more waiting"));
        // A message in between shows for a while, then the newest reminder is back.
        auto *timer = center()->findChild<QTimer *>();
        QVERIFY(timer);
        timer->setInterval(20);
        center()->post("conversation", "conv_1", "New message", "Merhaba");
        QCOMPARE(text->text(), QString("Merhaba"));
        QCOMPARE(center()->toastMore()->text(), QString("2 more waiting"));
        QTRY_COMPARE(text->text(), QString("Send the offer"));
        QVERIFY(toast->isVisible());
        // Done on it: the first one shows, nothing more behind it.
        QTest::mouseClick(center()->toastActions()->findChild<QPushButton *>("notificationAction_done"),
                          Qt::LeftButton);
        QCOMPARE(acted.size(), 1);
        QCOMPARE(acted.first(), (QVariantList{"task", "task_2", "done"}));
        QVERIFY(toast->isVisible());
        QCOMPARE(text->text(), QString("Call the bank"));
        QVERIFY(!center()->toastMore()->isVisible());
        // Closed: gone from the corner, still unread in the list (the missed ones).
        QTest::mouseClick(center()->toastActions()->findChild<QPushButton *>("notificationClose"), Qt::LeftButton);
        QVERIFY(!toast->isVisible());
        QCOMPARE(center()->waitingCount(), 0);
        QVERIFY(!center()->notifications().at(2).read); // task_1: newest first, after conv_1 and task_2
        QCOMPARE(center()->notifications().at(2).id, QString("task_1"));
    }

    // On a D-Bus session of the test's own, a notification service: a reminder reaches it with
    // its buttons and stays (critical, no timeout); Snooze pressed there acts as in the window and
    // takes the toast away; Done pressed in the window closes the desktop's.
    void theDesktopNotificationCarriesTheButtons()
    {
        PrivateSessionBus session;
        if (!session.available())
            QSKIP(qPrintable(session.why()));
        const QString address = session.address();
        {
            QDBusConnection desktop = QDBusConnection::connectToBus(address, "fakeDesktop");
            QVERIFY2(desktop.isConnected(), qPrintable(desktop.lastError().message()));
            QThread thread; // the service answers from a thread of its own, as another process would
            auto *service = new FakeNotifications;
            QVERIFY(desktop.registerObject("/org/freedesktop/Notifications", service,
                                           QDBusConnection::ExportAllSlots | QDBusConnection::ExportAllSignals));
            service->moveToThread(&thread);
            thread.start();
            auto stop = qScopeGuard([&thread, service, &desktop] {
                desktop.unregisterObject("/org/freedesktop/Notifications");
                QMetaObject::invokeMethod(
                    service, [service] { delete service; }, Qt::BlockingQueuedConnection);
                thread.quit();
                thread.wait();
                QDBusConnection::disconnectFromBus("app");
                QDBusConnection::disconnectFromBus("fakeDesktop");
            });
            QVERIFY(desktop.registerService("org.freedesktop.Notifications"));
            QVERIFY(QDBusConnection::connectToBus(address, "app").isConnected());
            auto inService = [service](auto f) {
                QMetaObject::invokeMethod(
                    service, [service, f] { f(service); }, Qt::BlockingQueuedConnection);
            };

            center()->setDesktopBus("app");
            center()->setDesktopNotifications(true);
            center()->setActions("task", {{"open", "Open"}, {"done", "Done"}, {"snooze10", "10 min"}});
            QSignalSpy acted(center(), &NotificationCenter::actionTriggered);
            center()->post("task", "task_1", "Task reminder", "Call the bank");
            FakeNotifications::Shown first;
            inService([&first](FakeNotifications *s) {
                if (!s->shown.isEmpty())
                    first = s->shown.first();
            });
            QCOMPARE(first.summary, QString("Task reminder"));
            QCOMPARE(first.actions, (QStringList{"default", "Open", "done", "Done", "snooze10", "10 min"}));
            QCOMPARE(first.hints.value("urgency").toInt(), 2);
            QCOMPARE(first.timeout, 0);
            // Snooze on the desktop: the window acts, its toast leaves.
            inService([id = first.id](FakeNotifications *s) { emit s->ActionInvoked(id, "snooze10"); });
            QTRY_COMPARE(acted.size(), 1);
            QCOMPARE(acted.first(), (QVariantList{"task", "task_1", "snooze10"}));
            QVERIFY(!center()->toast()->isVisible());
            // Done in the window: the desktop's notification is closed.
            center()->post("task", "task_2", "Task reminder", "Send the offer");
            uint second = 0;
            inService([&second](FakeNotifications *s) { second = s->shown.size() == 2 ? s->shown.last().id : 0; });
            QVERIFY(second != 0);
            QTest::mouseClick(center()->toastActions()->findChild<QPushButton *>("notificationAction_done"),
                              Qt::LeftButton);
            QList<uint> closed;
            QTRY_VERIFY((inService([&closed](FakeNotifications *s) { closed = s->closed; }), closed.contains(second)));
            // A message: a plain notice that leaves by itself.
            center()->post("conversation", "conv_1", "New message", "Merhaba");
            FakeNotifications::Shown message;
            inService([&message](FakeNotifications *s) { message = s->shown.last(); });
            QCOMPARE(message.actions, (QStringList{"default", "Open"}));
            QCOMPARE(message.timeout, NotificationCenter::kToastMs);
            center()->setDesktopNotifications(false);
        }
    }

    void aClickOnTheToastOpensIt()
    {
        QSignalSpy activated(center(), &NotificationCenter::activated);
        center()->post("conversation", "conv_9", "New message from Emre", "Merhaba");
        QTest::mouseClick(center()->toast(), Qt::LeftButton);
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated.first().at(0).toString(), QString("conversation"));
        QCOMPARE(activated.first().at(1).toString(), QString("conv_9"));
        QVERIFY(!center()->toast()->isVisible());
        QCOMPARE(center()->unreadCount(), 0);
        QCOMPARE(center()->button()->text(), QString());
    }

    void theListOpensEachAndMarksAllRead()
    {
        center()->post("task", "task_a", "Task reminder", "A");
        center()->post("task", "task_b", "Task reminder", "B");
        QMenu *menu = center()->button()->menu();
        emit menu->aboutToShow();
        QList<QAction *> actions = menu->actions();
        QCOMPARE(actions.size(), 2 + 1 + 2); // two entries, a separator, mark read, clear
        QVERIFY(actions.at(0)->text().contains("B"));
        QSignalSpy activated(center(), &NotificationCenter::activated);
        actions.at(1)->trigger();
        QCOMPARE(activated.first().at(1).toString(), QString("task_a"));
        QCOMPARE(center()->unreadCount(), 1);
        emit menu->aboutToShow();
        menu->actions().at(3)->trigger(); // Mark all as read
        QCOMPARE(center()->unreadCount(), 0);
        emit menu->aboutToShow();
        menu->actions().at(4)->trigger(); // Clear
        QVERIFY(center()->notifications().isEmpty());
        QVERIFY(!center()->button()->isEnabled());
    }

    void openingARecordReadsItsNotifications()
    {
        center()->post("conversation", "conv_1", "New message from Ayşe", "1");
        center()->post("conversation", "conv_2", "New message from Emre", "2");
        center()->post("conversation", "conv_1", "New message from Ayşe", "3");
        QCOMPARE(center()->unreadCount(), 3);
        center()->markRead("conversation", "conv_1");
        QCOMPARE(center()->unreadCount(), 1);
        QCOMPARE(center()->button()->text(), QString("1 new"));
        center()->markRead("task", "conv_2"); // another kind: untouched
        QCOMPARE(center()->unreadCount(), 1);
        center()->markRead("conversation", "conv_2");
        QCOMPARE(center()->button()->text(), QString());
        QVERIFY(center()->button()->styleSheet().isEmpty()); // no longer red
    }

    void markupStaysPlainAndAmpersandsShow()
    {
        center()->post("conversation", "c", "New message from <h1>Big</h1>", "<img src=x> & more");
        const QList<QLabel *> labels = center()->toast()->findChildren<QLabel *>();
        QCOMPARE(labels.at(0)->textFormat(), Qt::PlainText);
        QCOMPARE(labels.at(1)->textFormat(), Qt::PlainText);
        QMenu *menu = center()->button()->menu();
        emit menu->aboutToShow();
        QVERIFY(menu->actions().at(0)->text().contains("&& more")); // not a mnemonic
    }

    void keepsAtMostTheNewest()
    {
        for (int i = 0; i < NotificationCenter::kMaxKept + 20; ++i)
            center()->post("task", QString("task_%1").arg(i), "Task reminder", QString::number(i));
        QCOMPARE(center()->notifications().size(), NotificationCenter::kMaxKept);
        QCOMPARE(center()->notifications().first().id, QString("task_%1").arg(NotificationCenter::kMaxKept + 19));
    }
};

QTEST_MAIN(TestNotificationCenter)
#include "test_notificationcenter.moc"
