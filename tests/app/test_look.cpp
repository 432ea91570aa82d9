// The window's look, offscreen, with the areas wired as the app wires them (addTasksArea,
// addInboxArea): the navigation's icons and counts (unread conversations, the signed-in user's
// overdue tasks) following the event bus, their accessible names; the dark theme applied to the
// application; every area's empty state with its one action, which does what it says.
#include "app/inboxarea.h"
#include "app/tasksarea.h"
#include "messaging/channels/channelregistry.h"
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/eventbus.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"
#include "model/tasks/taskscheduler.h"
#include "tests/support/fakeclock.h"
#include "tests/support/privatebus.h"
#include "tests/support/testsupport.h"
#include "tests/ui/composedwindow.h"
#include "tests/ui/uitest.h"
#include "ui/contacts/contactdialog.h"
#include "ui/contacts/contactsview.h"
#include "ui/deals/dealeditdialog.h"
#include "ui/deals/pipelineboard.h"
#include "ui/inbox/inboxview.h"
#include "ui/shell/desktopscheme.h"
#include "ui/shell/emptyhint.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/navigationdelegate.h"
#include "ui/shell/settingsdialog.h"
#include "ui/shell/theme.h"
#include "ui/shell/uikit.h"
#include "ui/tasks/tasksview.h"

#include <QAccessible>
#include <QDBusConnection>
#include <QDBusError>
#include <QDBusVariant>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <atomic>

using namespace UiTest;

namespace {
// The freedesktop settings portal as a desktop runs it: ReadOne of org.freedesktop.appearance
// color-scheme, and SettingChanged when the user switches.
class FakePortal : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.portal.Settings")
public:
    std::atomic<uint> value{1};

public slots:
    QDBusVariant ReadOne(const QString &ns, const QString &key)
    {
        return QDBusVariant(ns == "org.freedesktop.appearance" && key == "color-scheme" ? QVariant(uint(value))
                                                                                        : QVariant(uint(0)));
    }

signals:
    void SettingChanged(const QString &ns, const QString &key, const QDBusVariant &value);
};

QDateTime utc(int y, int mo, int d, int h, int mi = 0)
{
    return QDateTime(QDate(y, mo, d), QTime(h, mi), QTimeZone::utc());
}
} // namespace

class TestLook : public QObject
{
    Q_OBJECT

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    FakeClock m_clock;
    User m_user;
    Store::Actor m_actor;
    std::unique_ptr<ContactRepository> m_contacts;
    std::unique_ptr<ApiKeyRepository> m_keys;
    std::unique_ptr<TaskRepository> m_tasks;
    std::unique_ptr<ConversationRepository> m_conversations;
    std::unique_ptr<MainWindow> m_window;
    TasksView *m_tasksView = nullptr;
    InboxView *m_inbox = nullptr;
    QTemporaryDir m_dataDir;

    Store store() const { return Store(*m_bus, m_clock); }

    // The window of a signed-in user (an admin or an agent), its areas as the app adds them.
    void openWindow(const QString &role)
    {
        m_user = UserRepository(store()).create(role + "@ornek.com.tr", "Selin Aksoy", role, "x");
        m_actor = {m_user.id, m_user.name, m_user.role};
        const Store desk = store().actingAs(m_actor);
        m_contacts = std::make_unique<ContactRepository>(desk);
        m_keys = std::make_unique<ApiKeyRepository>(desk);
        m_tasks = std::make_unique<TaskRepository>(desk, QTimeZone::utc());
        m_conversations = std::make_unique<ConversationRepository>(desk);
        m_window = std::make_unique<ComposedWindow>(*m_contacts, *m_keys, desk);
        m_window->setSignedInUser(m_user);
        m_tasksView = addTasksArea(*m_window, *m_tasks, desk);
        addInboxArea(*m_window, *m_conversations, desk, std::make_shared<ChannelRegistry>(),
                     {MediaConfig{}, m_dataDir.path(), [] { return QString(); }});
        m_inbox = m_window->findChild<InboxView *>();
        QVERIFY(m_inbox);
        m_window->resize(1366, 768);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    QListWidgetItem *navItem(QWidget *area) const
    {
        auto *stack = m_window->findChild<QStackedWidget *>(QStringLiteral("areaStack"));
        return m_window->navigation()->item(stack->indexOf(area));
    }

    // What a screen reader reads for the navigation's entry of this area.
    QString accessibleName(QWidget *area) const
    {
        QAccessibleInterface *list = QAccessible::queryAccessibleInterface(m_window->navigation());
        auto *stack = m_window->findChild<QStackedWidget *>(QStringLiteral("areaStack"));
        const int row = stack->indexOf(area);
        for (int i = 0; list && i < list->childCount(); ++i) {
            QAccessibleInterface *child = list->child(i);
            if (child && child->role() == QAccessible::ListItem && i == row)
                return child->text(QAccessible::Name);
        }
        return navItem(area)->data(Qt::AccessibleTextRole).toString();
    }

    QString contactId()
    {
        return ContactRepository(store())
            .create(ContactRules::parse({{"firstName", "Ayşe"}, {"lastName", "Yılmaz"}, {"phone", "+905321234567"}}))
            .id;
    }

private slots:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
        m_clock.set(utc(2026, 11, 26, 10, 0));
    }

    void cleanup()
    {
        for (QWidget *w : QApplication::topLevelWidgets()) {
            if (auto *d = qobject_cast<QDialog *>(w); d && d->isVisible())
                d->reject();
        }
        m_window.reset();
        m_conversations.reset();
        m_tasks.reset();
        m_keys.reset();
        m_contacts.reset();
        m_bus.reset();
        m_db.reset();
        Theme::instance().setChoice(Theme::Choice::Light);
    }

    // Each area has its line icon in the navigation, drawn from the resources.
    void everyAreaHasItsIcon()
    {
        openWindow("admin");
        QListWidget *nav = m_window->navigation();
        QCOMPARE(nav->count(), 4);
        const QStringList icons{"contacts", "deals", "tasks", "inbox"};
        for (int i = 0; i < nav->count(); ++i) {
            QCOMPARE(nav->item(i)->data(NavigationDelegate::IconRole).toString(), icons.at(i));
            QVERIFY2(!UiKit::icon(icons.at(i), Qt::black).isNull(), qPrintable(icons.at(i)));
        }
        QCOMPARE(NavigationDelegate::countText(7), QString("7"));
        QCOMPARE(NavigationDelegate::countText(250), QString("99+"));
    }

    // A message in makes the conversation unread: the Inbox's count follows the bus, in its name too;
    // reading it takes the count away.
    void inboxCountFollowsUnreadConversations()
    {
        openWindow("admin");
        QCOMPARE(m_window->areaCount(m_inbox), 0);
        QCOMPARE(accessibleName(m_inbox), QString("Inbox"));
        ConversationRepository other(store()); // as the API's thread would
        const Conversation v = other.findOrCreate(contactId(), "whatsapp", "+905321234567");
        MessageContent hello;
        hello.text = "Merhaba, fiyat alabilir miyim?";
        other.receive(v.id, hello);
        QTRY_COMPARE(m_window->areaCount(m_inbox), 1);
        QCOMPARE(accessibleName(m_inbox), QString("Inbox, 1 unread"));
        QCOMPARE(navItem(m_inbox)->data(NavigationDelegate::CountToneRole).toInt(), int(UiKit::Tone::Accent));
        other.markRead(v.id);
        QTRY_COMPARE(m_window->areaCount(m_inbox), 0);
        QCOMPARE(accessibleName(m_inbox), QString("Inbox"));
    }

    // A task of the signed-in user passes its due time: the scheduler's "overdue" on the bus
    // refreshes Tasks and its count; someone else's overdue task is not counted; done, it goes.
    void tasksCountFollowsTheUsersOverdueTasks()
    {
        openWindow("agent");
        QCOMPARE(m_window->areaCount(m_tasksView), 0);
        TaskRepository api(store(), QTimeZone::utc());
        const QString other = UserRepository(store()).create("murat@ornek.com.tr", "Murat Çelik", "agent", "x").id;
        const Task mine = api.create(TaskRules::parse(
            {{"title", "Teklifi gönder"}, {"dueDate", "2026-11-26T11:00:00.000Z"}, {"assignedTo", m_user.id}}));
        api.create(TaskRules::parse(
            {{"title", "Murat'ın işi"}, {"dueDate", "2026-11-26T09:00:00.000Z"}, {"assignedTo", other}}));
        QTest::qWait(TasksView::RefreshDelayMs * 3);   // negative check: the refreshes that follow count nothing
        QCOMPARE(m_window->areaCount(m_tasksView), 0); // not yet due; the other one is not theirs
        m_clock.set(utc(2026, 11, 26, 11, 30));
        TaskScheduler scheduler(store(), QTimeZone::utc());
        QVERIFY(scheduler.checkNow() >= 1); // task.overdue, told on the bus
        QTRY_COMPARE(m_window->areaCount(m_tasksView), 1);
        QCOMPARE(accessibleName(m_tasksView), QString("Tasks, 1 overdue"));
        QCOMPARE(navItem(m_tasksView)->data(NavigationDelegate::CountToneRole).toInt(), int(UiKit::Tone::Danger));
        api.setStatus(mine.id, "completed");
        QTRY_COMPARE(m_window->areaCount(m_tasksView), 0);
        QCOMPARE(accessibleName(m_tasksView), QString("Tasks"));
    }

    // Choosing Dark sets the dark palette on the application, re-tones a red label, and Light
    // brings the light one back; Follow the desktop takes the desktop's scheme.
    void themeChoiceAppliesThePalette()
    {
        openWindow("admin");
        QLabel *error = UiKit::errorLabel(m_window.get());
        Theme::instance().setChoice(Theme::Choice::Dark);
        QCOMPARE(UiKit::scheme(), UiKit::Scheme::Dark);
        QCOMPARE(QApplication::palette().color(QPalette::Window),
                 UiKit::palette(UiKit::Scheme::Dark).color(QPalette::Window));
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 60);
        QVERIFY(QApplication::palette().color(QPalette::Text).lightness() > 200);
        QCOMPARE(m_window->navigation()->palette().color(QPalette::Text),
                 UiKit::palette(UiKit::Scheme::Dark).color(QPalette::Text));
        QVERIFY2(error->styleSheet().contains(UiKit::color(UiKit::Tone::Danger, UiKit::Scheme::Dark).name()),
                 qPrintable(error->styleSheet()));
        Theme::instance().setChoice(Theme::Choice::Light);
        QCOMPARE(UiKit::scheme(), UiKit::Scheme::Light);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 200);
        QVERIFY(error->styleSheet().contains("#c0392b"));
        QCOMPARE(Theme::choiceFromKey("dark"), Theme::Choice::Dark);
        QCOMPARE(Theme::choiceFromKey(" Light "), Theme::Choice::Light);
        bool ok = true;
        QCOMPARE(Theme::choiceFromKey("purple", &ok), Theme::Choice::System);
        QVERIFY(!ok);
        QCOMPARE(Theme::keyOf(Theme::Choice::System), QString("system"));
    }

    // Text in the tones that mean something stays readable on both schemes' base colour (WCAG's
    // 4.5:1 for text).
    void tonesAreReadableInBothSchemes()
    {
        auto luminance = [](const QColor &c) {
            auto channel = [](qreal v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
            return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
        };
        auto contrast = [&](const QColor &a, const QColor &b) {
            const qreal la = luminance(a), lb = luminance(b);
            return (qMax(la, lb) + 0.05) / (qMin(la, lb) + 0.05);
        };
        for (UiKit::Scheme s : {UiKit::Scheme::Light, UiKit::Scheme::Dark}) {
            const QPalette p = UiKit::palette(s);
            for (UiKit::Tone t : {UiKit::Tone::Normal, UiKit::Tone::Danger, UiKit::Tone::Success, UiKit::Tone::Warning,
                                  UiKit::Tone::Accent, UiKit::Tone::Muted}) {
                for (QPalette::ColorRole bg : {QPalette::Base, QPalette::Window}) {
                    const qreal c = contrast(UiKit::color(t, s), p.color(bg));
                    QVERIFY2(c >= 4.5, qPrintable(QString("scheme %1 tone %2 on %3: %4:1")
                                                      .arg(int(s))
                                                      .arg(int(t))
                                                      .arg(int(bg))
                                                      .arg(c, 0, 'f', 2)));
                }
            }
            QVERIFY(contrast(p.color(QPalette::HighlightedText), p.color(QPalette::Highlight)) >= 4.5);
        }
    }

    // The desktop's scheme: the portal's values, GTK theme names and settings.ini.
    void desktopSchemeReadsThePortalAndGtk()
    {
        bool known = false;
        QCOMPARE(DesktopColorScheme::fromPortalValue(1, &known), DesktopColorScheme::Scheme::Dark);
        QVERIFY(known);
        QCOMPARE(DesktopColorScheme::fromPortalValue(2, &known), DesktopColorScheme::Scheme::Light);
        QVERIFY(known);
        DesktopColorScheme::fromPortalValue(0, &known);
        QVERIFY(!known);
        QVERIFY(DesktopColorScheme::gtkNameIsDark("Adwaita:dark"));
        QVERIFY(DesktopColorScheme::gtkNameIsDark("Yaru-dark"));
        QVERIFY(DesktopColorScheme::gtkNameIsDark("Breeze-Dark"));
        QVERIFY(!DesktopColorScheme::gtkNameIsDark("Adwaita"));
        QVERIFY(!DesktopColorScheme::gtkNameIsDark("Darkroom")); // a name, not a variant
        QTemporaryDir config;
        QVERIFY(DesktopColorScheme::gtkPrefersDark("Adwaita:dark", config.path(), &known));
        QVERIFY(known);
        QVERIFY(!DesktopColorScheme::gtkPrefersDark(QString(), config.path(), &known));
        QVERIFY(!known);
        QDir(config.path()).mkpath("gtk-3.0");
        QFile ini(config.filePath("gtk-3.0/settings.ini"));
        QVERIFY(ini.open(QIODevice::WriteOnly));
        ini.write("[Settings]\ngtk-theme-name=Adwaita\ngtk-application-prefer-dark-theme=1\n");
        ini.close();
        QVERIFY(DesktopColorScheme::gtkPrefersDark(QString(), config.path(), &known));
        QVERIFY(known);
    }

    // On a D-Bus session of its own, a portal that says dark: the scheme is dark, read from the
    // portal; the user switches the desktop to light: SettingChanged turns it light at once.
    void desktopSchemeFollowsThePortal()
    {
        PrivateSessionBus session;
        if (!session.available())
            QSKIP(qPrintable(session.why()));
        const QString address = session.address();
        {
            QDBusConnection desktop = QDBusConnection::connectToBus(address, "fakeDesktop");
            QVERIFY2(desktop.isConnected(), qPrintable(desktop.lastError().message()));
            // The portal answers from a thread of its own, as another process would.
            QThread thread;
            auto *portal = new FakePortal;
            QVERIFY(desktop.registerObject("/org/freedesktop/portal/desktop", portal,
                                           QDBusConnection::ExportAllSlots | QDBusConnection::ExportAllSignals));
            portal->moveToThread(&thread); // with what the registration made for it
            thread.start();
            auto stop = qScopeGuard([&thread] {
                thread.quit();
                thread.wait();
            });
            // The user switches the desktop: the portal tells it from its own thread.
            auto say = [portal](const QString &key, uint value) {
                QMetaObject::invokeMethod(
                    portal,
                    [portal, key, value] {
                        if (key == "color-scheme")
                            portal->value = value;
                        emit portal->SettingChanged("org.freedesktop.appearance", key, QDBusVariant(value));
                    },
                    Qt::BlockingQueuedConnection);
            };
            QVERIFY(desktop.registerService("org.freedesktop.portal.Desktop"));
            QDBusConnection app = QDBusConnection::connectToBus(address, "app");
            {
                DesktopColorScheme scheme(app, nullptr);
                QCOMPARE(scheme.scheme(), DesktopColorScheme::Scheme::Dark);
                QCOMPARE(scheme.source(), DesktopColorScheme::Source::Portal);
                QSignalSpy changed(&scheme, &DesktopColorScheme::schemeChanged);
                say("color-scheme", 2);
                QTRY_COMPARE(scheme.scheme(), DesktopColorScheme::Scheme::Light);
                QCOMPARE(changed.size(), 1);
                // Another setting of the portal changes nothing.
                say("accent-color", 1);
                QTest::qWait(100); // negative check: no change follows it
                QCOMPARE(scheme.scheme(), DesktopColorScheme::Scheme::Light);
                // The theme follows it while the choice is the desktop's.
                Theme::instance().followDesktop(&scheme);
                Theme::instance().setChoice(Theme::Choice::System);
                QCOMPARE(UiKit::scheme(), UiKit::Scheme::Light);
                say("color-scheme", 1);
                QTRY_COMPARE(UiKit::scheme(), UiKit::Scheme::Dark);
                Theme::instance().followDesktop(nullptr);
            }
            desktop.unregisterObject("/org/freedesktop/portal/desktop");
            QMetaObject::invokeMethod(
                portal, [portal] { delete portal; }, Qt::BlockingQueuedConnection); // in its thread
            QDBusConnection::disconnectFromBus("app");
            QDBusConnection::disconnectFromBus("fakeDesktop");
        }
    }

    // No contacts: the explanation and New contact…, which opens the form; a search that finds
    // nothing offers to clear it, which shows the contacts again.
    void contactsEmptyStatesAct()
    {
        openWindow("admin");
        ContactsView *contacts = m_window->findChild<ContactsView *>();
        m_window->showArea(m_window->findChild<QStackedWidget *>("areaStack")->widget(0));
        auto *table = contacts->findChild<QTableView *>("contactsTable");
        QVERIFY(table);
        QLabel *hint = table->viewport()->findChild<QLabel *>("emptyHint");
        QVERIFY(hint);
        QTRY_VERIFY(hint->isVisible());
        QPushButton *action = emptyHintAction(hint);
        QVERIFY(action && action->isVisible());
        QCOMPARE(action->accessibleName(), QString("New contact…"));
        click(action);
        QTRY_VERIFY(modal<ContactDialog>());
        modal<ContactDialog>()->reject();

        contactId();
        QTRY_VERIFY(!hint->isVisible());
        auto *search = contacts->findChild<QLineEdit *>("searchEdit");
        QVERIFY(search);
        search->setText("zzzq");
        QTest::keyClick(search, Qt::Key_Return);
        QTRY_VERIFY(hint->isVisible());
        QCOMPARE(emptyHintAction(hint)->text(), QString("Clear the search"));
        click(emptyHintAction(hint));
        QVERIFY(search->text().isEmpty());
        QTRY_VERIFY(!hint->isVisible());
    }

    // An empty pipeline: the board says so over its columns with New deal…, which opens the form.
    void dealsEmptyStateActs()
    {
        openWindow("admin");
        auto *board = m_window->findChild<PipelineBoard *>();
        m_window->showArea(board);
        QWidget *state = board->findChild<QWidget *>("emptyState");
        QVERIFY(state);
        QTRY_VERIFY(state->isVisible());
        QLabel *hint = state->findChild<QLabel *>("emptyHint");
        QVERIFY(hint->text().contains("No deals"));
        QCOMPARE(emptyHintAction(hint)->text(), QString("New deal…"));
        click(emptyHintAction(hint));
        QTRY_VERIFY(modal<DealEditDialog>());
        modal<DealEditDialog>()->reject();
    }

    // Tasks: an empty tab offers New task… (the dialog opens); the empty Overdue tab shows all tasks.
    void tasksEmptyStatesAct()
    {
        openWindow("admin");
        m_window->showArea(m_tasksView);
        m_tasksView->tabs()->setCurrentIndex(TasksView::AllTab);
        QLabel *all = m_tasksView->table(TasksView::AllTab)->viewport()->findChild<QLabel *>("emptyHint");
        QTRY_VERIFY(all->isVisible());
        QCOMPARE(emptyHintAction(all)->text(), QString("New task…"));
        click(emptyHintAction(all));
        QTRY_VERIFY(m_tasksView->openDialog() && m_tasksView->openDialog()->isVisible());
        m_tasksView->openDialog()->reject();
        m_tasksView->tabs()->setCurrentIndex(TasksView::OverdueTab);
        QLabel *overdue = m_tasksView->table(TasksView::OverdueTab)->viewport()->findChild<QLabel *>("emptyHint");
        QTRY_VERIFY(overdue->isVisible());
        QCOMPARE(emptyHintAction(overdue)->text(), QString("Show all tasks"));
        click(emptyHintAction(overdue));
        QCOMPARE(m_tasksView->tabs()->currentIndex(), int(TasksView::AllTab));
    }

    // No conversation: an admin is led to Settings → Channels; an agent, who cannot set channels
    // up, gets the explanation without a button; a search without a match offers to clear it.
    void inboxEmptyStatesAct()
    {
        openWindow("admin");
        m_window->showArea(m_inbox);
        QLabel *hint = m_inbox->emptyHint();
        QTRY_VERIFY(hint->isVisible());
        QCOMPARE(emptyHintAction(hint)->text(), QString("Set up channels…"));
        click(emptyHintAction(hint));
        QTRY_VERIFY(m_window->settingsDialog()->isVisible());
        m_window->settingsDialog()->reject();

        m_inbox->searchField()->setText("zzzq");
        QTest::keyClick(m_inbox->searchField(), Qt::Key_Return);
        QTRY_COMPARE(emptyHintAction(hint)->text(), QString("Clear the search"));
        click(emptyHintAction(hint));
        QVERIFY(m_inbox->searchField()->text().isEmpty());
        QTRY_COMPARE(emptyHintAction(hint)->text(), QString("Set up channels…"));

        User agent = m_user;
        agent.role = "agent";
        m_actor.role = "agent";
        m_window->setSignedInUser(agent);
        QTRY_VERIFY(!emptyHintAction(hint)->isVisibleTo(hint->parentWidget()));
    }
};

QTEST_MAIN(TestLook)
#include "test_look.moc"
