// The window driven from the keyboard, offscreen: the real MainWindow as the app composes it (its
// areas, Home, Contacts, Deals, Tasks, Inbox, Campaigns and Assistant, and its Settings pages) over the real
// repositories, an agent signed in. Down and Enter from the contacts' search, Enter and Escape in the
// table; Ctrl+F, Ctrl+N and Alt+1 … Alt+7 wherever the focus is (and not while a dialog is in front);
// Ctrl+K's "Jump to" finding each kind of record and opening it, also over 100,000 contacts without
// holding up the typing; the board's and the task list's search and "Mine"; the Inbox's search;
// Ctrl+1 still a quick reply; Help > Keyboard shortcuts.
#include "tests/ui/uitest.h"

#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/testsupport.h"
#include "tests/ui/wholewindow.h"
#include "ui/assistant/assistanttestconsole.h"
#include "ui/assistant/assistantview.h"
#include "ui/assistant/knowledgebasepanel.h"
#include "ui/contacts/contactdetailpane.h"
#include "ui/contacts/contactdialog.h"
#include "ui/contacts/contactsview.h"
#include "ui/contacts/contacttablemodel.h"
#include "ui/deals/dealcolumnmodel.h"
#include "ui/deals/dealdialogs.h"
#include "ui/deals/dealeditdialog.h"
#include "ui/deals/deallistmodel.h"
#include "ui/deals/pipelineboard.h"
#include "ui/inbox/inboxview.h"
#include "ui/inbox/messageedit.h"
#include "ui/shell/jumpbox.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/shortcutsdialog.h"
#include "ui/tasks/taskdialog.h"
#include "ui/tasks/tasksview.h"
#include "ui/tasks/tasktablemodel.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QShortcut>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTextCursor>
#include <QToolButton>

#include <memory>

using namespace UiTest;

class TestKeyboard final : public QObject
{
    Q_OBJECT

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    Store::Actor m_actor;
    User m_me, m_other;
    std::unique_ptr<WholeWindow> m_app;
    MainWindow *m_window = nullptr;
    TasksView *m_tasksView = nullptr;
    InboxView *m_inbox = nullptr;
    QString m_sukru, m_ahmet, m_deal, m_task, m_conversation;

    Store desk() const { return Store(*m_bus).actingAs(m_actor); }

    // The window as the app composes it (composeWindow: every area with its keys and its "Jump to"
    // opener, every Settings page), the signed-in user at it.
    void makeWindow()
    {
        m_app = std::make_unique<WholeWindow>(desk(), m_me);
        m_window = &m_app->window;
        m_tasksView = m_window->findChild<TasksView *>();
        m_inbox = m_window->findChild<InboxView *>();
        QVERIFY(m_tasksView && m_inbox);
        m_window->resize(1366, 768);
        m_window->show();
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window));
    }

    // A key pressed where the focus is, as the keyboard delivers it (shortcuts first).
    static void press(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QWidget *target = QApplication::focusWidget();
        if (!target)
            target = QApplication::activeWindow();
        QVERIFY(target);
        QTest::keyClick(target, Qt::Key(key), modifiers);
    }

    // Types text into the focused field as text (Turkish letters included).
    static void typeText(QLineEdit *field, const QString &text)
    {
        field->setFocus();
        field->insert(text);
    }

    QLineEdit *contactsSearch() const { return m_window->findChild<ContactsView *>()->searchField(); }
    PipelineBoard *board() const { return m_window->findChild<PipelineBoard *>(); }

    JumpBox *jumpTo(const QString &text)
    {
        // Offscreen, nothing gives the window back its activation when a dialog over it closes.
        m_window->activateWindow();
        if (!QTest::qWaitForWindowActive(m_window))
            return nullptr;
        press(Qt::Key_K, Qt::ControlModifier);
        JumpBox *box = m_window->jumpBox();
        if (!box || !box->isVisible())
            return nullptr;
        box->field()->insert(text);
        if (!QTest::qWaitFor([box] { return !box->busy(); }, 5000))
            return nullptr;
        return box;
    }

    // The rows of one kind in the jump box's list (headings left out).
    static QStringList hitsOf(JumpBox *box, JumpBox::Kind kind)
    {
        QStringList out;
        for (int i = 0; i < box->results()->count(); ++i) {
            QListWidgetItem *item = box->results()->item(i);
            if ((item->flags() & Qt::ItemIsSelectable) && item->data(JumpBox::KindRole).toInt() == kind)
                out << item->data(JumpBox::IdRole).toString();
        }
        return out;
    }

    // Moves the box's choice with Down to the record `id` and presses Enter.
    static bool chooseWithKeys(JumpBox *box, const QString &id)
    {
        for (int i = 0; i < box->results()->count(); ++i) {
            if (box->results()->currentItem() && box->results()->currentItem()->data(JumpBox::IdRole) == id) {
                QTest::keyClick(box->field(), Qt::Key_Return);
                return true;
            }
            QTest::keyClick(box->field(), Qt::Key_Down);
        }
        return false;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
        const Store plain(*m_bus);
        m_me = UserRepository(plain).create("murat@ornek.com.tr", "Murat Çelik", "agent", "x");
        m_other = UserRepository(plain).create("selin@ornek.com.tr", "Selin Aksoy", "admin", "x");
        m_actor = {m_me.id, m_me.name, m_me.role};
        ContactRepository contacts(desk());
        m_sukru = contacts
                      .create(ContactRules::parse(
                          {{"firstName", "Şükrü"}, {"lastName", "Demirci"}, {"email", "sukru@ornek.com.tr"}}))
                      .id;
        m_ahmet =
            contacts
                .create(ContactRules::parse({{"firstName", "Ahmet"}, {"lastName", "Kaya"}, {"phone", "+905551112233"}}))
                .id;
        contacts.create(ContactRules::parse({{"firstName", "Bob"}, {"email", "bob@example.com"}}));
        DealRepository deals(desk());
        m_deal = deals
                     .create(DealRules::parse({{"name", "Demirci lisans yenileme"},
                                               {"value", 12000},
                                               {"contactId", m_sukru},
                                               {"assignedTo", m_me.id}}))
                     .id;
        deals.create(DealRules::parse({{"name", "Lisans ek paket"}, {"value", 3000}, {"assignedTo", m_other.id}}));
        deals.create(DealRules::parse({{"name", "Danışmanlık"}, {"value", 5000}, {"assignedTo", m_me.id}}));
        TaskRepository tasks(desk());
        m_task = tasks.create(TaskRules::parse({{"title", "Şükrü Bey'i ara"}, {"assignedTo", m_me.id}})).id;
        tasks.create(TaskRules::parse({{"title", "Aramayı planla"}, {"assignedTo", m_other.id}}));
        tasks.create(TaskRules::parse({{"title", "Teklif gönder"}, {"assignedTo", m_me.id}}));
        ConversationRepository conversations(desk());
        m_conversation = conversations.findOrCreate(m_sukru, "whatsapp", "+905321234567").id;
        MessageContent hello;
        hello.text = "Merhaba";
        conversations.receive(m_conversation, hello);
        const QString bob = conversations.findOrCreate(m_ahmet, "widget", "visitor_1").id;
        conversations.receive(bob, hello);
        makeWindow();
    }

    void cleanup()
    {
        m_window = nullptr;
        m_tasksView = nullptr;
        m_inbox = nullptr;
        m_app.reset();
        m_bus.reset();
        m_db.reset();
    }

    void downAndEnterMoveFromTheSearchIntoTheTable()
    {
        ContactsView *view = m_window->findChild<ContactsView *>();
        QLineEdit *search = contactsSearch();
        search->setFocus();
        QTest::keyClicks(search, "kaya");
        press(Qt::Key_Down); // before the typing pause ends: searched first
        QVERIFY(view->table()->hasFocus());
        QCOMPARE(view->model()->rowCount(), 1);
        QCOMPARE(view->currentContactId(), m_ahmet);

        press(Qt::Key_Escape);
        QVERIFY(search->hasFocus());
        QCOMPARE(search->selectedText(), QString("kaya"));

        // Nothing found: the cursor stays in the search, to change it.
        search->clear();
        QTest::keyClicks(search, "zzz");
        press(Qt::Key_Return);
        QVERIFY(search->hasFocus());

        search->clear();
        QTest::keyClicks(search, "sukru");
        press(Qt::Key_Return);
        QVERIFY(view->table()->hasFocus());
        QCOMPARE(view->currentContactId(), m_sukru);
        QVERIFY(view->table()->selectionModel()->isRowSelected(0, {}));

        // Enter on the row: the contact opens as a double-click opens it.
        press(Qt::Key_Return);
        auto *dialog = modal<ContactDialog>();
        QVERIFY(dialog);
        QCOMPARE(dialog->findChild<QLineEdit *>("firstNameEdit")->text(), QString("Şükrü"));
        dialog->reject();
    }

    void altDigitsSwitchAreasAndCtrlFFindsTheAreasSearch()
    {
        m_window->findChild<ContactsView *>()->table()->setFocus(); // the keys work inside a child widget
        press(Qt::Key_3, Qt::AltModifier);
        QCOMPARE(m_window->currentArea(), 2);
        press(Qt::Key_F, Qt::ControlModifier);
        QVERIFY(board()->searchField()->hasFocus());

        press(Qt::Key_4, Qt::AltModifier);
        QCOMPARE(m_window->currentArea(), 3);
        press(Qt::Key_F, Qt::ControlModifier);
        QVERIFY(m_tasksView->searchField()->hasFocus());

        press(Qt::Key_5, Qt::AltModifier);
        QCOMPARE(m_window->currentArea(), 4);
        press(Qt::Key_F, Qt::ControlModifier);
        QVERIFY(m_inbox->searchField()->hasFocus());

        press(Qt::Key_2, Qt::AltModifier);
        QCOMPARE(m_window->currentArea(), 1);
        press(Qt::Key_F, Qt::ControlModifier);
        QVERIFY(contactsSearch()->hasFocus());
        press(Qt::Key_6, Qt::AltModifier);
        QCOMPARE(m_window->currentArea(), 5); // Campaigns
        press(Qt::Key_7, Qt::AltModifier);
        QCOMPARE(m_window->currentArea(), 6); // the Assistant: Ctrl+F in its knowledge base's search
        press(Qt::Key_F, Qt::ControlModifier);
        auto *assistant = m_window->findChild<AssistantView *>();
        QVERIFY(assistant->knowledgeBase()->searchField()->hasFocus());
        // With the test console in front, Ctrl+F goes to its question.
        assistant->tabs()->setCurrentWidget(assistant->testConsole());
        press(Qt::Key_F, Qt::ControlModifier);
        QVERIFY(assistant->testConsole()->questionField()->hasFocus());
        QVERIFY(!m_window->shortcut("areaShortcut8")->isEnabled()); // seven areas
    }

    void ctrlNMakesANewRecordOfTheAreaInFront()
    {
        press(Qt::Key_2, Qt::AltModifier);
        press(Qt::Key_N, Qt::ControlModifier);
        auto *contact = modal<ContactDialog>();
        QVERIFY(contact);
        // A dialog in front: the window's keys wait.
        press(Qt::Key_3, Qt::AltModifier);
        QCOMPARE(m_window->currentArea(), 1);
        press(Qt::Key_K, Qt::ControlModifier);
        QVERIFY(!m_window->jumpBox());
        contact->reject();
        QTRY_VERIFY(!modal<ContactDialog>());
        QTRY_VERIFY(QApplication::activeWindow() == m_window);

        press(Qt::Key_3, Qt::AltModifier);
        press(Qt::Key_N, Qt::ControlModifier);
        QVERIFY(board()->editDialog() && board()->editDialog()->isVisible());
        board()->editDialog()->reject();
        QTRY_VERIFY(QApplication::activeWindow() == m_window);

        press(Qt::Key_4, Qt::AltModifier);
        press(Qt::Key_N, Qt::ControlModifier);
        QVERIFY(m_tasksView->quickAddField()->hasFocus());

        press(Qt::Key_5, Qt::AltModifier);
        QVERIFY(m_inbox->selectConversation(m_conversation));
        press(Qt::Key_N, Qt::ControlModifier);
        QVERIFY(m_inbox->composer()->hasFocus());
    }

    void jumpToFindsEachKindFoldedAndOpensIt()
    {
        contactsSearch()->setFocus(); // Ctrl+K inside a field (where it could delete to the line's end)
        JumpBox *box = jumpTo("sukru");
        QVERIFY(box);
        QCOMPARE(hitsOf(box, JumpBox::Contact), QStringList{m_sukru});
        QCOMPARE(hitsOf(box, JumpBox::Deal), QStringList{m_deal}); // by its contact
        QCOMPARE(hitsOf(box, JumpBox::Conversation), QStringList{m_conversation});
        QCOMPARE(hitsOf(box, JumpBox::Task), QStringList{m_task});
        QCOMPARE(box->results()->item(0)->text(), JumpBox::tr("Contacts")); // a heading, never chosen
        QCOMPARE(box->results()->currentItem()->data(JumpBox::IdRole).toString(), m_sukru);

        // A contact: Contacts in front, the record shown.
        QTest::keyClick(box->field(), Qt::Key_Return);
        QVERIFY(!box->isVisible());
        QCOMPARE(m_window->currentArea(), 1);
        QCOMPARE(m_window->findChild<ContactsView *>()->currentContactId(), m_sukru);

        // A deal: the board's deal detail.
        box = jumpTo("DEMİRCİ LİSANS");
        QVERIFY(box);
        QVERIFY(chooseWithKeys(box, m_deal));
        QCOMPARE(m_window->currentArea(), 2);
        QVERIFY(board()->detailDialog());
        board()->detailDialog()->close();

        // A conversation: the Inbox with it selected, even when its search hides it.
        m_inbox->searchField()->setText("kaya");
        QTRY_COMPARE(m_inbox->findChild<QListWidget *>("conversationList")->count(), 1);
        box = jumpTo("şükrü");
        QVERIFY(box);
        QVERIFY(chooseWithKeys(box, m_conversation));
        QCOMPARE(m_window->currentArea(), 4);
        QCOMPARE(m_inbox->currentConversationId(), m_conversation);

        // A task: the task dialog in Tasks.
        box = jumpTo("bey");
        QVERIFY(box);
        QCOMPARE(hitsOf(box, JumpBox::Task), QStringList{m_task});
        QVERIFY(chooseWithKeys(box, m_task));
        QCOMPARE(m_window->currentArea(), 3);
        QVERIFY(m_tasksView->openDialog());
        m_tasksView->openDialog()->reject();

        // Nothing found says so; Escape closes the box.
        box = jumpTo("zzzz");
        QVERIFY(box);
        QCOMPARE(box->results()->count(), 0);
        QVERIFY(box->findChild<QLabel *>("jumpStatus")->text().contains("zzzz"));
        QTest::keyClick(box->field(), Qt::Key_Escape);
        QVERIFY(!box->isVisible());
    }

    void enterRightAfterTypingOpensTheFirstMatch()
    {
        press(Qt::Key_K, Qt::ControlModifier);
        JumpBox *box = m_window->jumpBox();
        QVERIFY(box && box->isVisible());
        QTest::keyClicks(box->field(), "ahmet");
        QTest::keyClick(box->field(), Qt::Key_Return); // before the pause ends
        QTRY_VERIFY(!box->isVisible());
        QCOMPARE(m_window->findChild<ContactsView *>()->currentContactId(), m_ahmet);
    }

    void jumpToKeepsTypingFreeOverManyContacts()
    {
        constexpr int Total = 100000, Chunk = 10000;
        for (int done = 0; done < Total; done += Chunk) {
            QVector<QJsonObject> bodies;
            for (int i = done; i < done + Chunk; ++i)
                bodies.append({{"firstName", i % 7 == 0 ? QStringLiteral("Ahmet") : QStringLiteral("Ayşe")},
                               {"lastName", QStringLiteral("Kişi%1").arg(i)},
                               {"email", QStringLiteral("k%1@ornek.com.tr").arg(i)}});
            QCOMPARE(m_app->contacts.insertBulk(bodies), Chunk);
        }
        press(Qt::Key_K, Qt::ControlModifier);
        JumpBox *box = m_window->jumpBox();
        QVERIFY(box && box->isVisible());
        qint64 slowest = 0;
        QElapsedTimer total;
        total.start();
        for (const char *word : {"a", "ah", "ahm", "ahme", "ahmet", "ahmet ", "ahmet k", "ahmet ki"}) {
            box->field()->setText(QString::fromLatin1(word));
            box->searchNow(); // every keystroke searched at once: the worker is kept busy
            QElapsedTimer key;
            key.start();
            QTest::qWait(5); // the window's events in between, as between keystrokes
            slowest = qMax(slowest, key.elapsed());
        }
        QVERIFY2(slowest < 100, qPrintable(QString::number(slowest)));
        QVERIFY(QTest::qWaitFor([box] { return !box->busy(); }, 10000));
        qInfo("matches for \"ahmet ki\" over %d contacts after %lld ms (slowest event round %lld ms)", Total,
              total.elapsed(), slowest);
        QCOMPARE(hitsOf(box, JumpBox::Contact).size(), JumpBox::kPerKind);
        box->reject();
    }

    void theBoardsSearchAndMineFilterTheCards()
    {
        press(Qt::Key_3, Qt::AltModifier);
        PipelineBoard *b = board();
        const QString stage = DealRepository(desk()).get(m_deal).stage;
        DealColumnModel *column = b->columnModel(stage);
        QCOMPARE(column->rowCount(), 3);
        typeText(b->searchField(), "lisans");
        QTRY_COMPARE(column->rowCount(), 2);
        QVERIFY(b->columnHeader(stage)->text().contains(PipelineBoard::tr("%1 of %2").arg(2).arg(3)));
        b->mineToggle()->click();
        QCOMPARE(column->rowCount(), 1);
        QCOMPARE(column->dealAt(0).id, m_deal);
        b->searchField()->clear();
        typeText(b->searchField(), "DANIŞMAN");
        QTRY_COMPARE(column->dealAt(0).name, QString("Danışmanlık"));
        QCOMPARE(column->rowCount(), 1);
        b->searchField()->setText("lisans");
        QTRY_COMPARE(column->dealAt(0).id, m_deal);
        b->searchField()->setText("danisman"); // folded: ş and ı as s and i
        QTRY_COMPARE(column->dealAt(0).name, QString("Danışmanlık"));
        b->mineToggle()->click();
        b->searchField()->clear();
        QTRY_COMPARE(column->rowCount(), 3);
        QCOMPARE(b->mineToggle()->accessibleName(), b->mineToggle()->text());
    }

    void theDealListSortsFiltersAndOpens()
    {
        press(Qt::Key_3, Qt::AltModifier);
        PipelineBoard *b = board();
        b->findChild<QToolButton *>("listToggle")->click();
        QVERIFY(b->isListShown());
        QTableView *list = b->listView();
        QAbstractItemModel *rows = list->model();
        QCOMPARE(rows->rowCount(), 3);
        auto valueOf = [rows](int row) { return rows->index(row, DealListModel::ValueColumn).data().toString(); };
        auto nameOf = [rows](int row) { return rows->index(row, DealListModel::NameColumn).data().toString(); };
        // A click on a header sorts by it (numbers as numbers), a second click the other way.
        const QHeaderView *header = list->horizontalHeader();
        const int x = header->sectionViewportPosition(DealListModel::ValueColumn) + 5;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
        const Qt::SortOrder first = header->sortIndicatorOrder();
        QCOMPARE(nameOf(0),
                 first == Qt::AscendingOrder ? QString("Lisans ek paket") : QString("Demirci lisans yenileme"));
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
        QCOMPARE(nameOf(0),
                 first == Qt::AscendingOrder ? QString("Demirci lisans yenileme") : QString("Lisans ek paket"));
        QVERIFY(valueOf(0).endsWith("TRY"));

        // The board's search and Mine hold for the list too.
        typeText(b->searchField(), "lisans");
        QTRY_COMPARE(rows->rowCount(), 2);
        b->mineToggle()->click();
        QCOMPARE(rows->rowCount(), 1);
        QCOMPARE(nameOf(0), QString("Demirci lisans yenileme"));

        // Enter on a row opens the deal.
        list->setFocus();
        list->setCurrentIndex(rows->index(0, 0));
        press(Qt::Key_Return);
        QVERIFY(b->detailDialog());
        b->detailDialog()->close();
        b->mineToggle()->click();
        b->findChild<QToolButton *>("listToggle")->click();
        QVERIFY(!b->isListShown());
    }

    void theTaskListsSearchAndMineFilterTheRows()
    {
        press(Qt::Key_4, Qt::AltModifier);
        m_tasksView->tabs()->setCurrentIndex(TasksView::AllTab);
        TaskTableModel *all = m_tasksView->model(TasksView::AllTab);
        // The agent at the window starts on their own tasks; "Mine" off shows everyone's.
        QVERIFY(m_tasksView->mineToggle()->isChecked());
        QCOMPARE(all->rowCount(), 2);
        m_tasksView->mineToggle()->click();
        QCOMPARE(all->rowCount(), 3);
        typeText(m_tasksView->searchField(), "ara");
        // Every word typed begins a word of the title: "ara" and "Aramayı", not "Teklif gönder".
        QTRY_COMPARE(all->rowCount(), 2);
        m_tasksView->mineToggle()->click();
        QCOMPARE(all->rowCount(), 1);
        QCOMPARE(all->taskAt(0).id, m_task);
        QCOMPARE(m_tasksView->filterCombo("assigneeFilter")->currentData().toString(), QString("@me"));
        m_tasksView->searchField()->setText("ŞÜKRÜ");
        QTRY_COMPARE(all->taskAt(0).id, m_task);
        m_tasksView->searchField()->setText("sukru bey");
        QTRY_COMPARE(all->rowCount(), 1);
        m_tasksView->searchField()->setText("zzz");
        QTRY_COMPARE(all->rowCount(), 0);
        QVERIFY(m_tasksView->table(TasksView::AllTab)->findChild<QLabel *>("emptyHint")->text().contains("zzz"));
        // The assignee filter moves the toggle.
        m_tasksView->filterCombo("assigneeFilter")->setCurrentIndex(0);
        QVERIFY(!m_tasksView->mineToggle()->isChecked());
        m_tasksView->searchField()->clear();
        QTRY_COMPARE(all->rowCount(), 3);
    }

    void theInboxSearchFiltersByContactName()
    {
        press(Qt::Key_5, Qt::AltModifier);
        auto *list = m_inbox->findChild<QListWidget *>("conversationList");
        QCOMPARE(list->count(), 2);
        typeText(m_inbox->searchField(), "DEMİRCİ");
        QTRY_COMPARE(list->count(), 1);
        QVERIFY(list->item(0)->text().contains("Şükrü"));
        m_inbox->searchField()->setText("sukru dem");
        QTRY_COMPARE(list->count(), 1);
        m_inbox->searchField()->setText("merhaba"); // the message, not the name
        QTRY_COMPARE(list->count(), 0);
        QVERIFY(list->findChild<QLabel *>("emptyHint")->text().contains("merhaba"));
        m_inbox->searchField()->clear();
        QTRY_COMPARE(list->count(), 2);
    }

    void ctrlDigitsStayTheInboxsQuickReplies()
    {
        m_inbox->setQuickReplies({"Merhaba, nasıl yardımcı olabilirim?", "Teşekkürler!"});
        press(Qt::Key_5, Qt::AltModifier);
        QVERIFY(m_inbox->selectConversation(m_conversation));
        m_inbox->composer()->setFocus();
        press(Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(m_inbox->composer()->toPlainText(), QString("Teşekkürler!"));
        QCOMPARE(m_window->currentArea(), 4); // Ctrl+2 is not Alt+2
        press(Qt::Key_1, Qt::ControlModifier);
        QVERIFY(m_inbox->composer()->toPlainText().contains("Merhaba, nasıl"));
        // Ctrl+K in the composer is "Jump to", not a cut of the line's end.
        const QString written = m_inbox->composer()->toPlainText();
        QTextCursor start = m_inbox->composer()->textCursor();
        start.movePosition(QTextCursor::Start);
        m_inbox->composer()->setTextCursor(start);
        press(Qt::Key_K, Qt::ControlModifier);
        QVERIFY(m_window->jumpBox() && m_window->jumpBox()->isVisible());
        m_window->jumpBox()->reject();
        QCOMPARE(m_inbox->composer()->toPlainText(), written);
        m_inbox->composer()->clear();
    }

    void helpListsTheKeyboardShortcuts()
    {
        auto *action = m_window->findChild<QAction *>("shortcutsAction");
        QVERIFY(action);
        action->trigger();
        auto *dialog = modal<ShortcutsDialog>();
        QVERIFY(dialog);
        QTableWidget *table = dialog->table();
        QStringList keys;
        for (int row = 0; row < table->rowCount(); ++row)
            keys << table->item(row, 1)->text();
        for (const QKeySequence &k : {QKeySequence(Qt::CTRL | Qt::Key_K), QKeySequence(QKeySequence::Find),
                                      QKeySequence(QKeySequence::New), QKeySequence(Qt::ALT | Qt::Key_7)})
            QVERIFY2(keys.contains(k.toString(QKeySequence::NativeText)), qPrintable(keys.join(", ")));
        QVERIFY(!keys.contains(QKeySequence(Qt::ALT | Qt::Key_8).toString(QKeySequence::NativeText)));
        dialog->grab().save(QDir::temp().filePath("liaison-shortcuts.png"));
        dialog->reject();
    }
};

QTEST_MAIN(TestKeyboard)
#include "test_keyboard.moc"
