// The Inbox beyond list, thread and composer, offscreen over the real repositories: the "assigned
// to me" and "unread" filters with the unread badge, the contact side panel (contact, deals, open
// tasks, buttons that open them), tray notifications of incoming messages through the notifier
// interface, quick replies ("/" and the editor), tags and the assignee choice, the assistant's
// hand-off banner and the way back.
#include "tests/ui/uitest.h"

#include "messaging/channels/channelsender.h"
#include "model/accounts/userrepository.h"
#include "model/assistant/assistanthandoff.h"
#include "model/contacts/contactrepository.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/widgetvisitorrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/testsupport.h"
#include "tests/ui/uilayout.h"
#include "ui/contacts/contactdialog.h"
#include "ui/deals/dealdialogs.h"
#include "ui/inbox/inboxview.h"
#include "ui/tasks/taskdialog.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFrame>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTextEdit>
#include <QtTest>

using namespace UiTest;

namespace {
class RecordingNotifier : public InboxNotifier
{
public:
    struct Call
    {
        QString conversationId, title, text;
    };
    QVector<Call> calls;
    void notify(const QString &conversationId, const QString &title, const QString &text) override
    {
        calls.append({conversationId, title, text});
    }
};

MessageContent text(const QString &t)
{
    MessageContent c;
    c.text = t;
    return c;
}
} // namespace

class TestInboxPanels final : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    std::unique_ptr<ConversationRepository> m_repo;
    std::unique_ptr<InboxView> m_view;
    QString m_ayse, m_bob;
    QString m_ayseConv, m_bobConv;
    User m_ali;

    QListWidget *list() { return m_view->findChild<QListWidget *>("conversationList"); }
    QPlainTextEdit *composer() { return m_view->findChild<QPlainTextEdit *>("composer"); }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
        m_repo = std::make_unique<ConversationRepository>(Store(*m_bus));
        m_ali = UserRepository(testStore()).create("ali@example.com", "Ali", "agent", "x");
        ContactRepository contacts(testStore());
        m_ayse =
            contacts
                .create(ContactRules::parse({{"firstName", "Ayşe"}, {"phone", "+905321234567"}, {"company", "Acme"}}))
                .id;
        m_bob = contacts.create(ContactRules::parse({{"firstName", "Bob"}, {"email", "bob@example.com"}})).id;
        m_ayseConv = m_repo->findOrCreate(m_ayse, "widget", "visitor_a").id;
        m_repo->receive(m_ayseConv, text("Selam"));
        m_bobConv = m_repo->findOrCreate(m_bob, "widget", "visitor_b").id;
        m_repo->receive(m_bobConv, text("Hello?"));
        m_view = std::make_unique<InboxView>(*m_repo, Store(*m_bus));
        EventBus *bus = m_bus.get();
        m_view->setSender([bus](const QString &conv, const QString &t) {
            MessageContent c;
            c.text = t;
            return ChannelSender(Store(*bus)).send(conv, c, {"agent", "user_1", "Ali"});
        });
        m_view->setCurrentUser(m_ali.id, m_ali.name);
        m_view->resize(1200, 700);
        m_view->show();
    }

    void cleanup()
    {
        m_view.reset();
        m_repo.reset();
        m_bus.reset();
        m_db.reset();
    }

    void assignedToMeAndUnreadFiltersWithBadge()
    {
        auto *badge = m_view->findChild<QLabel *>("unreadBadge");
        QVERIFY(badge->isVisible());
        QCOMPARE(badge->text(), QString("2 unread"));
        m_repo->assign(m_ayseConv, m_ali.id);
        auto *mine = m_view->findChild<QCheckBox *>("mineFilter");
        QVERIFY(mine->isEnabled());
        mine->setChecked(true);
        QTRY_COMPARE(list()->count(), 1);
        QVERIFY(list()->item(0)->text().contains("Ayşe"));
        mine->setChecked(false);
        QCOMPARE(list()->count(), 2);

        m_repo->markRead(m_bobConv);
        auto *unread = m_view->findChild<QCheckBox *>("unreadFilter");
        unread->setChecked(true);
        QTRY_COMPARE(list()->count(), 1);
        QVERIFY(list()->item(0)->text().contains("Ayşe (1 unread)"));
        QCOMPARE(badge->text(), QString("1 unread"));
        m_repo->receive(m_bobConv, text("Still there?"));
        QTRY_COMPARE(list()->count(), 2);
        QTRY_COMPARE(badge->text(), QString("2 unread"));
    }

    void anAnonymousVisitorBecomesAContactFromThePanel()
    {
        const auto visitor = WidgetVisitorRepository(Store(*m_bus)).create({}, {});
        const QString conv = visitor.visitor.conversationId;
        const QString label = "Website visitor " + visitor.visitor.id.right(6).toUpper();
        m_repo->receive(conv, text("Kargo ücreti ne kadar?"));
        const qint64 contacts = ContactRepository(testStore()).count({});
        // Listed under the visitor's label, and announced by it.
        QTRY_COMPARE(list()->count(), 3);
        QVERIFY2(list()->item(0)->text().startsWith(label), qPrintable(list()->item(0)->text()));
        QVERIFY(m_view->selectConversation(conv));
        QVERIFY2(m_view->findChild<QLabel *>("threadHeader")->text().startsWith(label),
                 qPrintable(m_view->findChild<QLabel *>("threadHeader")->text()));
        InboxContactPanel *panel = m_view->contactPanel();
        QCOMPARE(panel->contactId(), QString());
        QCOMPARE(panel->visitorConversationId(), conv);
        QCOMPARE(panel->findChild<QLabel *>("contactName")->text(), QString("Anonymous web visitor"));
        QVERIFY(panel->findChild<QTextEdit *>("contactDetails")->toPlainText().contains("has not given a name"));
        QVERIFY(!panel->findChild<QPushButton *>("openContactButton")->isVisible());
        QVERIFY(!panel->dealList()->isVisible());
        QPushButton *create = panel->findChild<QPushButton *>("createContactButton");
        QVERIFY(create->isVisible());

        // Create contact…: the contact dialog, prefilled with the source; saving attaches the conversation.
        click(create);
        ContactDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = panel->findChild<ContactDialog *>()) && dialog->isVisible());
        QCOMPARE(dialog->findChild<QComboBox *>("sourceCombo")->currentText(), QString("widget"));
        // Nothing filled in: refused in the dialog's own words, nothing made.
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        QVERIFY(dialog->isVisible());
        QCOMPARE(ContactRepository(testStore()).count({}), contacts);
        dialog->findChild<QLineEdit *>("firstNameEdit")->setText("Deniz");
        dialog->findChild<QLineEdit *>("emailEdit")->setText("deniz@example.com");
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        QTRY_VERIFY(!dialog->isVisible());
        QCOMPARE(ContactRepository(testStore()).count({}), contacts + 1);
        const Conversation after = m_repo->get(conv);
        QVERIFY(after.hasContact());
        QCOMPARE(ContactRepository(testStore()).get(after.contactId).firstName, QString("Deniz"));
        QCOMPARE(ContactRepository(testStore()).get(after.contactId).source, QString("widget"));
        // The panel and the list follow: the contact now, with its buttons.
        QTRY_COMPARE(panel->contactId(), after.contactId);
        QTRY_COMPARE(panel->findChild<QLabel *>("contactName")->text(), QString("Deniz"));
        QVERIFY(panel->findChild<QPushButton *>("openContactButton")->isVisible());
        QVERIFY(!create->isVisible());
        QTRY_VERIFY(list()->item(0)->text().startsWith("Deniz"));
    }

    void contactPanelShowsDealsAndOpenTasksAndOpensThem()
    {
        const Deal deal =
            DealRepository(testStore())
                .create(DealRules::parse({{"name", "Acme fleet"}, {"value", 900}, {"contactId", m_ayse}}));
        TaskRepository tasks(testStore());
        const Task open = tasks.create(TaskRules::parse({{"title", "Call Ayşe back"}, {"contactId", m_ayse}}));
        const Task done = tasks.create(TaskRules::parse({{"title", "Old task"}, {"contactId", m_ayse}}));
        tasks.setStatus(done.id, "completed");
        QVERIFY(m_view->selectConversation(m_ayseConv));
        InboxContactPanel *panel = m_view->contactPanel();
        QCOMPARE(panel->contactId(), m_ayse);
        QCOMPARE(panel->findChild<QLabel *>("contactName")->text(), QString("Ayşe"));
        QVERIFY(panel->findChild<QTextEdit *>("contactDetails")->toPlainText().contains("Acme"));
        QCOMPARE(panel->dealList()->count(), 1);
        QVERIFY(panel->dealList()->item(0)->text().contains("Acme fleet"));
        QCOMPARE(panel->taskList()->count(), 1); // open tasks only
        QVERIFY(panel->taskList()->item(0)->text().contains("Call Ayşe back"));

        panel->dealList()->setCurrentRow(0);
        click(panel->findChild<QPushButton *>("openDealButton"));
        DealDetailDialog *detail = panel->findChild<DealDetailDialog *>();
        QVERIFY(detail && detail->isVisible());
        QCOMPARE(detail->dealId(), deal.id);
        detail->close();

        panel->taskList()->setCurrentRow(0);
        click(panel->findChild<QPushButton *>("openTaskButton"));
        TaskDialog *taskDialog = nullptr;
        QTRY_VERIFY((taskDialog = panel->findChild<TaskDialog *>()) && taskDialog->isVisible());
        QCOMPARE(taskDialog->findChild<QLineEdit *>("titleEdit")->text(), open.title);
        click(dialogButton(taskDialog, QDialogButtonBox::Cancel));

        click(panel->findChild<QPushButton *>("openContactButton"));
        ContactDialog *contactDialog = nullptr;
        QTRY_VERIFY((contactDialog = panel->findChild<ContactDialog *>()) && contactDialog->isVisible());
        click(dialogButton(contactDialog, QDialogButtonBox::Cancel));
        // With the app listening, the button asks it instead.
        QSignalSpy requested(panel, &InboxContactPanel::contactRequested);
        click(panel->findChild<QPushButton *>("openContactButton"));
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toString(), m_ayse);

        // A task added through the API appears in the panel.
        tasks.create(TaskRules::parse({{"title", "Send brochure"}, {"contactId", m_ayse}}));
        TaskRepository(Store(*m_bus)).create(TaskRules::parse({{"title", "Visit"}, {"contactId", m_ayse}}));
        QTRY_COMPARE(panel->taskList()->count(), 3);
        // Another conversation shows its own contact.
        QVERIFY(m_view->selectConversation(m_bobConv));
        QCOMPARE(panel->contactId(), m_bob);
        QCOMPARE(panel->taskList()->item(0)->text(), QString("No open tasks."));
    }

    void incomingMessageNotifiesOnlyWhenTheWindowIsNotActive()
    {
        RecordingNotifier notifier;
        bool active = false;
        m_view->setNotifier(&notifier);
        m_view->setActiveCheck([&active] { return active; });
        m_repo->receive(m_bobConv, text("Price?"));
        QCOMPARE(notifier.calls.size(), 1);
        QCOMPARE(notifier.calls.at(0).conversationId, m_bobConv);
        QVERIFY(notifier.calls.at(0).title.contains("Bob"));
        QCOMPARE(notifier.calls.at(0).text, QString("Price?"));
        QTRY_VERIFY(list()->item(0)->text().contains("Price?")); // and live in the list

        // Our own replies are not announced.
        QVERIFY(m_view->selectConversation(m_bobConv));
        QTest::keyClicks(composer(), "Let me check");
        QTest::keyClick(composer(), Qt::Key_Return);
        QCOMPARE(m_repo->get(m_bobConv).totalMessages, 3);
        QCOMPARE(notifier.calls.size(), 1);

        active = true;
        m_repo->receive(m_ayseConv, text("Hi again"));
        QCOMPARE(notifier.calls.size(), 1);
        m_view->setNotifier(nullptr);
        active = false;
        m_repo->receive(m_ayseConv, text("Hello?"));
        QCOMPARE(notifier.calls.size(), 1);
    }

    void aLongAddressWrapsWholeWithoutWideningThePanel()
    {
        const QString email = "hulya.karadeniz.satinalma.departmani@cokuzunfirmaadi-lojistik-ve-dis-ticaret.com.tr";
        ContactRepository contacts(testStore());
        const QString hulya =
            contacts.create(ContactRules::parse({{"firstName", "Hülya"}, {"lastName", "Karadeniz"}, {"email", email}}))
                .id;
        const QString conv = m_repo->findOrCreate(hulya, "widget", "visitor_h").id;
        m_repo->receive(conv, text("Merhaba"));
        InboxContactPanel *panel = m_view->contactPanel();
        const int before = panel->minimumSizeHint().width();
        m_view->reload();
        QVERIFY(m_view->selectConversation(conv));
        QCOMPARE(panel->contactId(), hulya);
        auto *details = panel->findChild<QTextEdit *>("contactDetails");
        QVERIFY(details->toPlainText().contains(email));                       // the whole address, to read and to copy
        QCOMPARE(panel->minimumSizeHint().width(), before);                    // it does not push the window wider
        QTRY_VERIFY(details->height() >= 2 * details->fontMetrics().height()); // wrapped onto more lines
        QVERIFY(!details->verticalScrollBar()->isVisible());
    }

    void theOpenConversationDoesNotTurnUnread()
    {
        bool active = true;
        m_view->setActiveCheck([&active] { return active; });
        QVERIFY(m_view->selectConversation(m_bobConv));
        QTRY_COMPARE(m_repo->get(m_bobConv).unreadCount, 0);
        m_repo->receive(m_bobConv, text("Are you there?"));
        QCOMPARE(m_repo->get(m_bobConv).unreadCount, 0); // read as it arrived
        // another conversation still counts
        m_repo->receive(m_ayseConv, text("Hi"));
        QVERIFY(m_repo->get(m_ayseConv).unreadCount > 0);
        // the window in the background: the agent has not seen it
        active = false;
        m_repo->receive(m_bobConv, text("Hello?"));
        QCOMPARE(m_repo->get(m_bobConv).unreadCount, 1);
        m_view->setActiveCheck({});
    }

    void quickRepliesInsertWithSlashAndAreEdited()
    {
        QStringList saved;
        m_view->setQuickReplies({"Thanks for writing!", "We open at 9."});
        m_view->setQuickRepliesSaver([&saved](const QStringList &r) { saved = r; });
        QVERIFY(m_view->selectConversation(m_bobConv));
        QMenu *menu = m_view->quickRepliesMenu();
        QTest::keyClicks(composer(), "/");
        QTRY_VERIFY(menu->isVisible());
        QCOMPARE(composer()->toPlainText(), QString());
        menu->actions().at(1)->trigger();
        menu->close();
        QCOMPARE(composer()->toPlainText(), QString("We open at 9."));
        // A slash inside a sentence is just a slash.
        QTest::keyClicks(composer(), " 24/7");
        QCOMPARE(composer()->toPlainText(), QString("We open at 9. 24/7"));

        QAction *edit = menu->findChild<QAction *>("editQuickRepliesAction");
        QVERIFY(edit);
        edit->trigger();
        QDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = m_view->findChild<QDialog *>("quickRepliesDialog")) && dialog->isVisible());
        dialog->findChild<QPlainTextEdit *>("quickRepliesEdit")->setPlainText("Hello!\n\n  See you soon  \n");
        click(dialogButton(dialog, QDialogButtonBox::Ok));
        QCOMPARE(m_view->quickReplies(), QStringList({"Hello!", "See you soon"}));
        QCOMPARE(saved, QStringList({"Hello!", "See you soon"}));
        composer()->clear();
        m_view->insertQuickReply(1);
        QCOMPARE(composer()->toPlainText(), QString("See you soon"));
    }

    void handedOverConversationShowsWhyAndIsHandedBack_data()
    {
        QTest::addColumn<QString>("reason");
        QTest::addColumn<bool>("turkish");
        QTest::addColumn<QString>("banner");
        QTest::newRow("missing_knowledge")
            << "missing_knowledge" << true << "Asistan bu görüşmeyi size devretti: bilgi bankasında yanıtı yok";
        QTest::newRow("low_confidence") << "low_confidence" << true
                                        << "Asistan bu görüşmeyi size devretti: yanıtından emin değil";
        QTest::newRow("ambiguous") << "ambiguous" << true
                                   << "Asistan bu görüşmeyi size devretti: birden çok yanıt uyuyor";
        QTest::newRow("customer_request")
            << "customer_request" << true << "Asistan bu görüşmeyi size devretti: müşteri bir kişiyle görüşmek istedi";
        QTest::newRow("unsupported_language")
            << "unsupported_language" << true << "Asistan bu görüşmeyi size devretti: müşterinin dilini bilmiyor";
        QTest::newRow("English")
            << "customer_request" << false
            << "The assistant handed this conversation over to you: the customer asked for a person";
    }

    // A conversation the assistant handed over says so under its header, with the reason, and is
    // marked in the list; "Hand back to the assistant" ends the hand-off. The bus brings both.
    void handedOverConversationShowsWhyAndIsHandedBack()
    {
        QFETCH(QString, reason);
        QFETCH(bool, turkish);
        QFETCH(QString, banner);
        const UiTest::ScopedTurkish translation(turkish);
        QVERIFY2(translation.ok(), UiTest::ScopedTurkish::missing);
        m_view = std::make_unique<InboxView>(*m_repo, Store(*m_bus));
        m_view->setCurrentUser(m_ali.id, m_ali.name);
        m_view->resize(1200, 700);
        m_view->show();
        QVERIFY(m_view->selectConversation(m_ayseConv));
        QFrame *bar = m_view->handoffBanner();
        QVERIFY(!bar->isVisible());

        AssistantHandoff(Store(*m_bus)).handOff(m_ayseConv, reason);
        QTRY_VERIFY(bar->isVisible());
        auto *label = m_view->findChild<QLabel *>("aiHandoffLabel");
        // "to you" for the person who has it; the others read "to a person".
        if (m_repo->get(m_ayseConv).assignedTo != m_ali.id) {
            banner.replace(QStringLiteral("size devretti"), QStringLiteral("ekibe devretti"))
                .replace(QStringLiteral("over to you"), QStringLiteral("over to a person"));
        }
        QCOMPARE(label->text(), banner);
        QCOMPARE(bar->accessibleName(), banner);
        auto *handBack = m_view->findChild<QPushButton *>("handBackButton");
        QCOMPARE(handBack->text(), QString(turkish ? "Asistana geri ver" : "Hand back to the assistant"));
        QListWidgetItem *row = nullptr;
        for (int i = 0; i < list()->count(); ++i) {
            if (list()->item(i)->data(Qt::UserRole).toString() == m_ayseConv)
                row = list()->item(i);
        }
        QVERIFY(row);
        QVERIFY2(row->text().section('\n', 0, 0).endsWith(turkish ? " · devredildi" : " · handed over"),
                 qPrintable(row->text()));
        QVERIFY(row->toolTip().contains(banner.section(": ", 1)));

        click(handBack);
        QVERIFY(m_repo->get(m_ayseConv).aiHandoff.isEmpty());
        QTRY_VERIFY(!bar->isVisible());
        for (int i = 0; i < list()->count(); ++i)
            QVERIFY(!list()->item(i)->text().contains(turkish ? "devredildi" : "handed over"));
    }

    void tagsAndAssigneeAreEditedInTheThread()
    {
        QVERIFY(m_view->selectConversation(m_bobConv));
        auto *tagEdit = m_view->findChild<QLineEdit *>("tagEdit");
        QTest::keyClicks(tagEdit, "vip, hot");
        QTest::keyClick(tagEdit, Qt::Key_Return);
        QStringList stored = m_repo->get(m_bobConv).tags;
        QCOMPARE(stored.size(), 2);
        QVERIFY(stored.contains("vip") && stored.contains("hot"));
        QVERIFY(tagEdit->text().isEmpty());
        auto *tags = m_view->findChild<QListWidget *>("tagList");
        QTRY_COMPARE(tags->count(), 2);
        tags->setCurrentRow(0);
        const QString removed = tags->item(0)->text();
        click(m_view->findChild<QPushButton *>("removeTagButton"));
        stored = m_repo->get(m_bobConv).tags;
        QCOMPARE(stored.size(), 1);
        QVERIFY(!stored.contains(removed));
        QTRY_COMPARE(tags->count(), 1);
        // Delete on the selected tag removes it too.
        tags->setFocus();
        tags->setCurrentRow(0);
        QTest::keyClick(tags, Qt::Key_Delete);
        QVERIFY(m_repo->get(m_bobConv).tags.isEmpty());
        QTRY_COMPARE(tags->count(), 0);

        auto *assignee = m_view->findChild<QComboBox *>("assigneeCombo");
        const int ali = assignee->findData(m_ali.id);
        QVERIFY(ali > 0);
        assignee->setCurrentIndex(ali);
        emit assignee->activated(ali);
        QCOMPARE(m_repo->get(m_bobConv).assignedTo, m_ali.id);
        QTRY_VERIFY(m_view->findChild<QLabel *>("threadDetails")->text().contains("Ali"));
        assignee->setCurrentIndex(0);
        emit assignee->activated(0);
        QVERIFY(m_repo->get(m_bobConv).assignedTo.isEmpty());
    }
};

QTEST_MAIN(TestInboxPanels)
#include "test_inboxpanels.moc"
