// The window's composition root (app/windowcontents.cpp) as the app calls it: every area in the
// navigation's order with its icon and Alt key; every Settings page in the menu's order, an agent
// seeing only their own; "Jump to" opening each kind of record in its area; the areas' links to
// each other (a contact's deal on the board, a contact's conversation in the Inbox, the Inbox's
// "Open contact" in Contacts) and pipeline editing following who signs in. MainWindow itself
// builds none of them.
#include "model/accounts/userrepository.h"
#include "model/core/eventbus.h"
#include "model/dashboard/dashboard.h"
#include "model/deals/dealrepository.h"
#include "tests/support/testsupport.h"
#include "tests/ui/uilayout.h"
#include "tests/ui/wholewindow.h"
#include "ui/assistant/assistantview.h"
#include "ui/campaigns/campaignsview.h"
#include "ui/contacts/contactdetailpane.h"
#include "ui/contacts/contactsview.h"
#include "ui/deals/deallistmodel.h"
#include "ui/deals/pipelineboard.h"
#include "ui/home/homeview.h"
#include "ui/inbox/inboxview.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/navigationdelegate.h"
#include "ui/shell/settingsdialog.h"
#include "ui/shell/theme.h"
#include "ui/shell/uikit.h"
#include "ui/tasks/taskdialog.h"
#include "ui/tasks/tasksview.h"

#include <QAbstractButton>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QShortcut>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QToolButton>
#include <QtTest>

#include <memory>

class TestWindowContents final : public QObject
{
    Q_OBJECT

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    User m_admin, m_agent;
    Store::Actor m_actor;
    std::unique_ptr<WholeWindow> m_app;
    MainWindow *m_window = nullptr;

    Store desk() const { return Store(*m_bus).actingAs(m_actor); }
    QStackedWidget *stack() const { return m_window->findChild<QStackedWidget *>(QStringLiteral("areaStack")); }
    QWidget *areaOf(QWidget *view) const
    {
        while (view && view->parentWidget() != stack())
            view = view->parentWidget();
        return view;
    }
    int areaIndexOf(QWidget *view) const { return stack()->indexOf(areaOf(view)); }
    // The pages the Settings menu offers now, by their objectName, in its order.
    QStringList settingsMenu() const
    {
        QStringList pages;
        for (QAction *a : m_window->findChild<QMenu *>(QStringLiteral("settingsMenu"))->actions()) {
            if (a->isVisible() && !a->data().toString().isEmpty())
                pages << a->data().toString();
        }
        return pages;
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
        const Store plain(*m_bus);
        m_admin = UserRepository(plain).create("selin@ornek.com.tr", "Selin Aksoy", "admin", "x");
        m_agent = UserRepository(plain).create("murat@ornek.com.tr", "Murat Çelik", "agent", "x");
        m_actor = {m_admin.id, m_admin.name, m_admin.role};
        m_app = std::make_unique<WholeWindow>(desk(), m_admin);
        m_window = &m_app->window;
    }

    void cleanup()
    {
        m_window = nullptr;
        m_app.reset();
        m_bus.reset();
        m_db.reset();
    }

    void theAreasInTheirOrder()
    {
        QListWidget *navigation = m_window->navigation();
        QStringList titles, icons;
        for (int i = 0; i < navigation->count(); ++i) {
            titles << navigation->item(i)->text();
            icons << navigation->item(i)->data(NavigationDelegate::IconRole).toString();
        }
        QCOMPARE(titles, QStringList({"Home", "Contacts", "Deals", "Tasks", "Inbox", "Campaigns", "Assistant"}));
        QCOMPARE(icons, QStringList({"home", "contacts", "deals", "tasks", "inbox", "campaigns", "assistant"}));
        QCOMPARE(m_window->currentArea(), 0);
        QCOMPARE(areaIndexOf(m_window->findChild<HomeView *>()), 0);
        QCOMPARE(areaIndexOf(m_window->findChild<ContactsView *>()), 1);
        QCOMPARE(areaIndexOf(m_window->findChild<PipelineBoard *>()), 2);
        QCOMPARE(areaIndexOf(m_window->findChild<TasksView *>()), 3);
        QCOMPARE(areaIndexOf(m_window->findChild<InboxView *>()), 4);
        QCOMPARE(areaIndexOf(m_window->findChild<CampaignsView *>()), 5);
        QCOMPARE(areaIndexOf(m_window->findChild<AssistantView *>()), 6);
        for (int i = 1; i <= 9; ++i) {
            QShortcut *key = m_window->shortcut(QStringLiteral("areaShortcut%1").arg(i));
            QVERIFY(key);
            QCOMPARE(key->isEnabled(), i <= 7);
        }
    }

    void theSettingsPagesInTheirOrderAndForWhom()
    {
        const QStringList all{"apiKeysPage",
                              "webhooksPage",
                              "incomingWebhooksPage",
                              "widgetSettingsPage",
                              "channelsPage",
                              "emailPage",
                              "smsPage",
                              "mediaPage",
                              "backupPage",
                              "assistantPage",
                              "contactsSettingsPage",
                              "appearancePage",
                              "usersPage",
                              "templatesPage"};
        QCOMPARE(settingsMenu(), all);
        SettingsDialog *dialog = m_window->settingsDialog();
        for (const QString &page : all)
            QVERIFY2(dialog->showPage(page), qPrintable(page));
        // An agent configures nothing: their API keys and the look are theirs.
        m_window->setSignedInUser(m_agent);
        QCOMPARE(settingsMenu(), QStringList({"apiKeysPage", "appearancePage"}));
        QVERIFY(!m_window->findChild<PipelineBoard *>()
                     ->findChild<QPushButton *>("editPipelinesButton")
                     ->isVisibleTo(m_window->findChild<PipelineBoard *>()));
        m_window->setSignedInUser(m_admin);
        QCOMPARE(settingsMenu(), all);
        QVERIFY(m_window->findChild<PipelineBoard *>()
                    ->findChild<QPushButton *>("editPipelinesButton")
                    ->isVisibleTo(m_window->findChild<PipelineBoard *>()));
    }

    // Settings → Appearance offers the window's languages by their own names and saves the choice as
    // ui/language for the next start (the translations are loaded before the first dialog).
    void appearanceSavesTheLanguageForTheNextStart()
    {
        SettingsDialog *dialog = m_window->settingsDialog();
        QVERIFY(dialog->showPage("appearancePage"));
        auto *language = dialog->findChild<QComboBox *>("languageCombo");
        QVERIFY(language);
        QStringList keys, names;
        for (int i = 0; i < language->count(); ++i) {
            keys << language->itemData(i).toString();
            names << language->itemText(i);
        }
        QCOMPARE(keys, QStringList({"system", "en", "tr", "de"}));
        QCOMPARE(names.mid(1), QStringList({"English", "Türkçe", "Deutsch"}));
        QCOMPARE(language->currentIndex(), 0);
        QVERIFY(dialog->findChild<QLabel *>("languageNote")->text().contains("next start"));
        language->setCurrentIndex(3);
        emit language->activated(3);
        QCOMPARE(m_app->settings.value("ui/language").toString(), QString("de"));
        language->setCurrentIndex(0);
        emit language->activated(0);
        QCOMPARE(m_app->settings.value("ui/language").toString(), QString("system"));
    }

    // The whole window in German (its words are the longest of the three) on a 1366 × 768 laptop:
    // no button, field or label of any area or Settings page is cut.
    void everyAreaAndSettingsPageIsWholeInGermanOnALaptop()
    {
        const UiTest::ScopedTranslation german(QStringLiteral("de"));
        QVERIFY2(german.ok(), UiTest::ScopedTranslation::missing);
        const QFont font = QApplication::font();
        Theme::instance().setChoice(Theme::Choice::Light);
        QFont body = font;
        body.setPointSizeF(qMax(body.pointSizeF(), UiKit::kMinBodyPoints));
        QApplication::setFont(body);
        const auto restoreFont = qScopeGuard([font] { QApplication::setFont(font); });
        WholeWindow app(desk(), m_admin);
        MainWindow &window = app.window;
        window.resize(1366, 690);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStringList cut;
        for (int i = 0; i < window.navigation()->count(); ++i) {
            window.navigation()->setCurrentRow(i);
            QCoreApplication::processEvents();
            QVERIFY2(window.width() <= 1366, qPrintable(QString::number(window.width())));
            for (const QString &c : UiTest::clippedControls(&window))
                cut << window.navigation()->item(i)->text() + ": " + c;
        }
        SettingsDialog *dialog = window.settingsDialog();
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        auto *pages = dialog->findChild<QListWidget *>("settingsPages");
        QVERIFY(pages);
        for (int i = 0; i < pages->count(); ++i) {
            pages->setCurrentRow(i);
            QCoreApplication::processEvents();
            for (const QString &c : UiTest::clippedControls(dialog)) {
                // A page taller than the dialog scrolls: what lies below its viewport is not cut.
                if (!c.contains("qt_scrollarea_viewport"))
                    cut << pages->item(i)->text() + ": " + c;
            }
        }
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join("\n")));
    }

    void jumpToOpensEveryKindInItsArea()
    {
        const QString contact =
            m_app->contacts
                .create(ContactRules::parse(
                    {{"firstName", "Şükrü"}, {"lastName", "Demirci"}, {"email", "sukru@ornek.com.tr"}}))
                .id;
        const QString deal =
            DealRepository(desk()).create(DealRules::parse({{"name", "Lisans yenileme"}, {"contactId", contact}})).id;
        const QString task = m_app->tasks.create(TaskRules::parse({{"title", "Şükrü Bey'i ara"}})).id;
        const QString conversation = m_app->conversations.findOrCreate(contact, "whatsapp", "+905321234567").id;
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window));

        m_window->openRecord(JumpBox::Deal, deal);
        QCOMPARE(m_window->currentArea(), 2);
        m_window->openRecord(JumpBox::Task, task);
        QCOMPARE(m_window->currentArea(), 3);
        TaskDialog *taskDialog = m_window->findChild<TasksView *>()->findChild<TaskDialog *>(); // the task, open
        QVERIFY(taskDialog);
        taskDialog->reject();
        m_window->openRecord(JumpBox::Conversation, conversation);
        QCOMPARE(m_window->currentArea(), 4);
        QCOMPARE(m_window->findChild<InboxView *>()->currentConversationId(), conversation);
        m_window->openRecord(JumpBox::Contact, contact);
        QCOMPARE(m_window->currentArea(), 1);
        QCOMPARE(m_window->findChild<ContactsView *>()->currentContactId(), contact);

        // The links between the areas.
        ContactsView *contacts = m_window->findChild<ContactsView *>();
        emit contacts->detailPane()->dealActivated(deal);
        QCOMPARE(m_window->currentArea(), 2);
        emit contacts->detailPane()->conversationActivated(conversation);
        QCOMPARE(m_window->currentArea(), 4);
        emit m_window->findChild<InboxView *>()->contactPanel()->contactRequested(contact);
        QCOMPARE(m_window->currentArea(), 1); // the contact's record in Contacts, in front
        QCOMPARE(contacts->currentContactId(), contact);
    }

    // Home, first, shows the figures the model computes (read in its worker) and each figure opens
    // the view it counts: a stage the Deals list of that stage, won the list of the deals won since
    // the window's start, the tasks Tasks' tab with "Mine", the waiting conversations the Inbox's
    // "Waiting" filter, a channel's bar the Inbox of that channel; news on the bus reads them again.
    void homeShowsTheFiguresAndOpensTheirViews()
    {
        DealRepository deals(desk());
        auto deal = [&deals](const char *name, const char *stage, double value, const char *currency) {
            return deals
                .create(DealRules::parse({{"name", name}, {"stage", stage}, {"value", value}, {"currency", currency}}))
                .id;
        };
        deal("Lisans", "proposal", 10000, "TRY");
        deal("Destek", "proposal", 2000, "USD");
        deal("Kurulum", "lead", 5000, "TRY");
        deals.markWon(deal("Yenileme", "negotiation", 7000, "TRY"), std::nullopt);
        const QDate today = m_app->tasks.today();
        m_app->tasks.create(TaskRules::parse(
            {{"title", "Bugün ara"}, {"dueDate", today.toString(Qt::ISODate)}, {"assignedTo", m_admin.id}}));
        m_app->tasks.create(TaskRules::parse({{"title", "Dün aranacaktı"},
                                              {"dueDate", today.addDays(-1).toString(Qt::ISODate)},
                                              {"assignedTo", m_admin.id}}));
        const QString contact =
            m_app->contacts.create(ContactRules::parse({{"firstName", "Ayşe"}, {"phone", "+905321112233"}})).id;
        const QString waiting = m_app->conversations.findOrCreate(contact, "whatsapp", "+905321112233").id;
        MessageContent text;
        text.text = "Merhaba, fiyat alabilir miyim?";
        m_app->conversations.receive(waiting, text);
        const QString other =
            m_app->contacts.create(ContactRules::parse({{"firstName", "Can"}, {"email", "can@ornek.com.tr"}})).id;
        const QString answered = m_app->conversations.findOrCreate(other, "telegram", "42").id;
        m_app->conversations.receive(answered, text);
        m_app->conversations.addOutgoing(answered, text, {"agent", m_admin.id, m_admin.name}, "sent");

        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window));
        HomeView *home = m_window->findChild<HomeView *>();
        QCOMPARE(m_window->currentArea(), areaIndexOf(home));
        QTRY_VERIFY(home->shownFigures().has_value());
        DashboardRequest request;
        request.userId = m_admin.id;
        const DashboardFigures f = Dashboard(desk(), QTimeZone::systemTimeZone()).figures(request);
        QCOMPARE(f.tasksDueToday, 1);
        QCOMPARE(f.tasksOverdue, 1);
        QCOMPARE(f.waiting, 1);
        QCOMPARE(home->figureValue("dueToday")->text(), QLocale().toString(f.tasksDueToday));
        QCOMPARE(home->figureValue("overdue")->text(), QLocale().toString(f.tasksOverdue));
        QCOMPARE(home->figureValue("waiting")->text(), QString("1"));
        QCOMPARE(home->figureValue("openDeals")->text(), QString("3"));
        // Weighted by the stages (proposal 50 %, lead 10 %), each currency on its own line.
        QCOMPARE(home->figureNote("openDeals")->text(),
                 QString("weighted: %1 TRY\n%2 USD")
                     .arg(QLocale().toString(5500.0, 'f', 0), QLocale().toString(1000.0, 'f', 0)));
        QCOMPARE(home->figureValue("won30")->text(), QString("1"));
        QCOMPARE(home->figureNote("won30")->text(), QLocale().toString(7000.0, 'f', 0) + " TRY");
        QCOMPARE(home->figureValue("lost90")->text(), QString("0"));
        QVERIFY(home->stageRow("proposal"));
        QVERIFY(!home->stageRow("won"));

        // A stage: the Deals list of that stage.
        PipelineBoard *board = m_window->findChild<PipelineBoard *>();
        QTest::mouseClick(home->stageRow("proposal"), Qt::LeftButton);
        QCOMPARE(m_window->currentArea(), areaIndexOf(board));
        QVERIFY(board->isListShown());
        QCOMPARE(board->stageFilter(), QString("proposal"));
        QCOMPARE(board->listModel()->rowCount(), 2);
        // Won in the last 30 days: the won deals closed since.
        m_window->showArea(home);
        QTest::mouseClick(home->figure("won30"), Qt::LeftButton);
        QCOMPARE(board->stageFilter(), QString("won"));
        QCOMPARE(board->listModel()->rowCount(), 1);
        QCOMPARE(board->listModel()->dealAt(0).name, QString("Yenileme"));
        board->clearStageFilter();
        QCOMPARE(board->listModel()->rowCount(), 4);

        // The tasks: Tasks' tab with "Mine".
        TasksView *tasks = m_window->findChild<TasksView *>();
        m_window->showArea(home);
        QTest::mouseClick(home->figure("overdue"), Qt::LeftButton);
        QCOMPARE(m_window->currentArea(), areaIndexOf(tasks));
        QCOMPARE(tasks->tabs()->currentIndex(), int(TasksView::OverdueTab));
        QVERIFY(tasks->mineToggle()->isChecked());
        m_window->showArea(home);
        QTest::keyClick(home->figure("dueToday"), Qt::Key_Space);
        QCOMPARE(tasks->tabs()->currentIndex(), int(TasksView::TodayTab));

        // The waiting conversations: the Inbox's "Waiting" filter.
        InboxView *inbox = m_window->findChild<InboxView *>();
        m_window->showArea(home);
        QTest::mouseClick(home->figure("waiting"), Qt::LeftButton);
        QCOMPARE(m_window->currentArea(), areaIndexOf(inbox));
        QVERIFY(inbox->findChild<QCheckBox *>("waitingFilter")->isChecked());
        QCOMPARE(inbox->findChild<QListWidget *>("conversationList")->count(), 1);
        // A channel's bar: the Inbox of that channel, "Waiting" off.
        m_window->showArea(home);
        home->openChannel("telegram");
        QVERIFY(!inbox->findChild<QCheckBox *>("waitingFilter")->isChecked());
        QCOMPARE(inbox->findChild<QComboBox *>("channelFilter")->currentData().toString(), QString("telegram"));
        QCOMPARE(inbox->findChild<QListWidget *>("conversationList")->count(), 1);

        // Live: the answer leaves nobody waiting.
        m_window->showArea(home);
        m_app->conversations.addOutgoing(waiting, text, {"agent", m_admin.id, m_admin.name}, "sent");
        QTRY_COMPARE(home->figureValue("waiting")->text(), QString("0"));
    }

    // Home whole on a 1366 × 768 laptop and at 1920 × 1080: three currencies' lines in the open
    // deals and the funnel, a long stage name, every figure in its card, nothing cut or scrolled.
    void homeIsWholeOnALaptopAndABigScreen()
    {
        DealRepository deals(desk());
        const char *currencies[] = {"TRY", "USD", "EUR"};
        for (int i = 0; i < 9; ++i)
            deals.create(DealRules::parse({{"name", QStringLiteral("Fırsat %1").arg(i)},
                                           {"stage", i % 2 ? "proposal" : "contact"},
                                           {"value", 1234567.0 * (i + 1)},
                                           {"currency", currencies[i % 3]}}));
        m_window->resize(1366, 690);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window));
        HomeView *home = m_window->findChild<HomeView *>();
        m_window->showArea(home);
        QTRY_VERIFY(home->shownFigures().has_value() && !home->isReading());
        auto whole = [&](const QString &where) {
            QCoreApplication::processEvents();
            const QStringList cut = UiTest::clippedControls(home);
            QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("%1 (the area %2 pixels wide): %3")
                                                   .arg(where)
                                                   .arg(home->width())
                                                   .arg(cut.join(QStringLiteral("; ")))));
            // Nothing below the window's foot: the page fits without scrolling.
            auto *scroll = home->findChild<QScrollArea *>();
            QVERIFY2(!scroll->verticalScrollBar()->isVisible(), qPrintable(where));
        };
        QVERIFY2(m_window->width() <= 1366, qPrintable(QString::number(m_window->width())));
        whole("1366");
        if (QTest::currentTestFailed())
            return;
        m_window->resize(1920, 1050);
        QTRY_COMPARE(m_window->width(), 1920);
        whole("1920");
    }
};

QTEST_MAIN(TestWindowContents)
#include "test_windowcontents.moc"
