// From a contact, the next thing is done there: its Deals, Tasks and Conversations tabs each carry
// their action (a new deal, a new task with its reminder, a message on one of its channels), each
// prefilled with the contact and the signed-in user as owner or assignee, and a task of the contact
// opens on a double-click.
#include "tests/ui/uitest.h"

#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/testsupport.h"
#include "ui/contacts/contactdetailpane.h"
#include "ui/deals/dealeditdialog.h"
#include "ui/tasks/taskdialog.h"

#include <QAction>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

#include <memory>

using namespace UiTest;

class TestContactActions final : public QObject
{
    Q_OBJECT

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    Store::Actor m_actor;
    User m_murat;
    QString m_ayse;

    Store store() { return Store(*m_bus).actingAs(m_actor); }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
        m_murat = UserRepository(testStore()).create("murat@ornek.com.tr", "Murat Çelik", "agent", "x");
        UserRepository(testStore()).create("selin@ornek.com.tr", "Selin Aksoy", "admin", "x");
        m_actor = {m_murat.id, m_murat.name, m_murat.role};
        m_ayse = ContactRepository(testStore())
                     .create(ContactRules::parse(
                         {{"firstName", "Ayşe"}, {"lastName", "Yılmaz"}, {"phone", "+905321234567"}}))
                     .id;
    }

    void cleanup()
    {
        if (QWidget *modal = QApplication::activeModalWidget())
            modal->close();
        m_bus.reset();
        m_db.reset();
    }

    void nothingToDoWithoutAContact()
    {
        ContactRepository contacts(store());
        ContactDetailPane pane(contacts);
        pane.showContact({});
        for (const char *name : {"contactNewDealButton", "contactNewTaskButton", "contactMessageButton"})
            QVERIFY(!pane.findChild<QPushButton *>(name)->isEnabled());
    }

    void aNewDealFromTheContactIsTheirsAndTheSignedInUsers()
    {
        ContactRepository contacts(store());
        ContactDetailPane pane(contacts);
        pane.resize(420, 600);
        pane.show();
        pane.showContact(m_ayse);
        click(pane.findChild<QPushButton *>("contactNewDealButton"));
        auto *dialog = modal<DealEditDialog>();
        QVERIFY(dialog);
        const DealChanges filled = dialog->changes();
        QCOMPARE(filled.contactId.value_or(QString()), m_ayse);
        QCOMPARE(filled.assignedTo.value_or(QString()), m_murat.id);
        dialog->findChild<QLineEdit *>("nameEdit")->setText("Ayşe Hanım yıllık bakım");
        dialog->accept();
        const QVector<Deal> deals = DealRepository(testStore()).list(DealQuery{}).items;
        QCOMPARE(deals.size(), 1);
        QCOMPARE(deals.first().contactId, m_ayse);
        QCOMPARE(deals.first().assignedTo, m_murat.id);
        QTRY_COMPARE(pane.findChild<QListWidget *>("contactDealList")->count(), 1);
        QCOMPARE(pane.tabs()->currentWidget(), pane.findChild<QListWidget *>("contactDealList")->parentWidget());
    }

    void aNewTaskFromTheContactIsTheirsWithAReminderAndOpensAgain()
    {
        ContactRepository contacts(store());
        TaskRepository tasks(store());
        ContactDetailPane pane(contacts);
        pane.resize(420, 600);
        pane.show();
        pane.showContact(m_ayse);
        click(pane.findChild<QPushButton *>("contactNewTaskButton"));
        auto *dialog = modal<TaskDialog>();
        QVERIFY(dialog);
        TaskChanges filled = dialog->changes();
        QCOMPARE(filled.contactId.value_or(QString()), m_ayse);
        QCOMPARE(filled.assignedTo.value_or(QString()), m_murat.id);
        QVERIFY(dialog->findChild<QWidget *>("remindCheck")); // the reminder is offered there
        dialog->findChild<QLineEdit *>("titleEdit")->setText("Ayşe Hanım'ı geri ara");
        dialog->accept();
        const QVector<Task> all = TaskRepository(testStore()).list(TaskQuery{}).items;
        QCOMPARE(all.size(), 1);
        QCOMPARE(all.first().contactId, m_ayse);
        QCOMPARE(all.first().assignedTo, m_murat.id);
        auto *list = pane.findChild<QListWidget *>("contactTaskList");
        QTRY_COMPARE(list->count(), 1);
        // A double-click opens it.
        emit list->itemActivated(list->item(0));
        auto *again = modal<TaskDialog>();
        QVERIFY(again && again->isEditing());
        QCOMPARE(again->findChild<QLineEdit *>("titleEdit")->text(), QString("Ayşe Hanım'ı geri ara"));
        again->reject();
    }

    void sendAMessageStartsWhatsAppToTheirPhoneOrOpensAConversation()
    {
        ContactRepository contacts(store());
        ContactDetailPane pane(contacts);
        pane.showContact(m_ayse);
        QSignalSpy opened(&pane, &ContactDetailPane::conversationActivated);
        QMenu *menu = pane.messageMenu();
        emit menu->aboutToShow();
        QCOMPARE(menu->actions().size(), 1);
        QVERIFY2(menu->actions().first()->text().contains("+90 532 123 45 67"), // grouped as people read it
                 qPrintable(menu->actions().first()->text()));
        menu->actions().first()->trigger();
        QCOMPARE(opened.size(), 1);
        ConversationRepository conversations(testStore());
        const Conversation v = conversations.get(opened.first().first().toString());
        QCOMPARE(v.contactId, m_ayse);
        QCOMPARE(v.channel, QString("whatsapp"));
        QCOMPARE(v.externalId, QString("+905321234567"));
        // Now there is one: the menu opens it, and makes no second.
        emit menu->aboutToShow();
        QCOMPARE(menu->actions().size(), 1);
        menu->actions().first()->trigger();
        QCOMPARE(opened.size(), 2);
        QCOMPARE(opened.last().first().toString(), v.id);
    }
};

QTEST_MAIN(TestContactActions)
#include "test_contactactions.moc"
