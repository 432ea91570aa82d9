// The window's notification centre, offscreen: a posted notification shows as a toast in the
// window's corner and in the list behind the status bar's button with the unread count; a click on
// the toast or on its list entry brings the window up and says which task or conversation to open;
// text from outside stays plain; at most kMaxKept are kept.

#include "tests/ui/uitest.h"

#include "tests/ui/windowfixture.h"
#include "ui/shell/notificationcenter.h"

#include <QFrame>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QToolButton>

using namespace UiTest;

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
