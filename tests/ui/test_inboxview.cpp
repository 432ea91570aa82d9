// The Inbox area offscreen over the real repositories: list with filters and unread badges, the
// thread with ticks, the composer sending through the same channel path as the API (widget sent,
// unconfigured WhatsApp refused with "Channel unavailable"), close/reopen/assign, live updates, the
// assistant's messages with their thumbs.
#include "tests/ui/uitest.h"

#include "messaging/channels/channelsender.h"
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/assistant/aianswerrepository.h"
#include "model/assistant/assistantconversation.h"
#include "model/assistant/assistanthandoff.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "tests/support/fakeclock.h"
#include "tests/support/testsupport.h"
#include "tests/ui/composedwindow.h"
#include "tests/ui/uilayout.h"
#include "ui/inbox/aifeedbackbuttons.h"
#include "ui/inbox/chatbubbledelegate.h"
#include "ui/inbox/composerdrafts.h"
#include "ui/inbox/inboxview.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/theme.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QCursor>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace UiTest;

class TestInboxView final : public QObject
{
    Q_OBJECT
    FakeClock m_later; // declared first: it outlives m_view, which may hold a store on it
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    std::unique_ptr<ConversationRepository> m_repo;
    std::unique_ptr<InboxView> m_view;
    QString m_widgetConv;
    QString m_whatsappConv;

    QListWidget *list() { return m_view->findChild<QListWidget *>("conversationList"); }
    QListWidget *thread() { return m_view->findChild<QListWidget *>("thread"); }
    QString listText(int row) { return list()->item(row)->text(); }

    MessageContent text(const QString &t)
    {
        MessageContent c;
        c.text = t;
        return c;
    }

    QListWidgetItem *threadItem(const QString &messageId)
    {
        for (int i = 0; i < thread()->count(); ++i) {
            if (thread()->item(i)->data(Qt::UserRole).toString() == messageId)
                return thread()->item(i);
        }
        return nullptr;
    }
    AiFeedbackButtons *thumbsOf(const QString &messageId)
    {
        QListWidgetItem *item = threadItem(messageId);
        return item ? qobject_cast<AiFeedbackButtons *>(thread()->itemWidget(item)) : nullptr;
    }

    // A message of the assistant in the conversation, and the answer it is (none: answer false).
    Message assistantMessage(const QString &conversationId, const QString &reply, bool answer = true)
    {
        const Message m = m_repo->addOutgoing(conversationId, text(reply), {"ai", QString(), "Asistan"}, "sent");
        if (answer) {
            AssistantReply r;
            r.answered = true;
            r.answer = reply;
            r.language = "tr";
            AiAnswerOrigin origin;
            origin.mode = "auto_reply";
            origin.channel = "widget";
            origin.conversationId = conversationId;
            origin.messageId = m.id;
            AiAnswerRepository(Store(*m_bus)).record("Kargom ne zaman gelir?", r, origin);
        }
        return m;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
        m_repo = std::make_unique<ConversationRepository>(Store(*m_bus));
        ContactRepository contacts(testStore());
        const QString ayse =
            contacts.create(ContactRules::parse({{"firstName", "Ayşe"}, {"phone", "+905321234567"}})).id;
        const QString bob =
            contacts.create(ContactRules::parse({{"firstName", "Bob"}, {"email", "bob@example.com"}})).id;
        m_whatsappConv = m_repo->findOrCreate(ayse, "whatsapp", "+905321234567").id;
        m_repo->receive(m_whatsappConv, text("Selam"));
        m_widgetConv = m_repo->findOrCreate(bob, "widget", "visitor_1").id;
        m_repo->receive(m_widgetConv, text("Hello?"));
        m_repo->receive(m_widgetConv, text("Anyone there?"));
        m_view = std::make_unique<InboxView>(*m_repo, Store(*m_bus));
        EventBus *bus = m_bus.get();
        m_view->setSender([bus](const QString &conv, const QString &t) {
            MessageContent c;
            c.text = t;
            return ChannelSender(Store(*bus)).send(conv, c, {"agent", "user_1", "Ali"});
        });
        m_view->resize(900, 600);
        m_view->show();
    }

    void cleanup()
    {
        m_view.reset();
        m_repo.reset();
        m_bus.reset();
        m_db.reset();
    }

    void listShowsUnreadBadgesMostRecentFirst()
    {
        QCOMPARE(list()->count(), 2);
        QVERIFY2(listText(0).contains("Bob (2 unread)"), qPrintable(listText(0)));
        QVERIFY(listText(0).contains("Anyone there?"));
        QVERIFY(list()->item(0)->font().bold());
        QVERIFY(listText(1).contains("Ayşe (1 unread)"));
        // The second line opens with when the last message came, without seconds (a long name never
        // hides it), then the message after a middle dot, never its Latin-1 misreading ("Â·"); the
        // channel is the row's icon and tooltip.
        static const QRegularExpression time(QStringLiteral("^\\d{1,2}:\\d{2} \u00b7 "));
        QVERIFY2(time.match(listText(1).section('\n', 1, 1)).hasMatch(), qPrintable(listText(1)));
        QVERIFY2(list()->item(1)->toolTip().startsWith("WhatsApp"), qPrintable(list()->item(1)->toolTip()));
        for (int i = 0; i < list()->count(); ++i)
            QVERIFY2(!listText(i).contains(QChar(0x00C2)), qPrintable(listText(i)));
        // Each row carries its channel's mark, and the marks differ.
        const QImage widget = list()->item(0)->icon().pixmap(16).toImage();
        const QImage whatsapp = list()->item(1)->icon().pixmap(16).toImage();
        QVERIFY(!widget.isNull() && !whatsapp.isNull());
        QVERIFY(widget != whatsapp);
        QCOMPARE(whatsapp.pixelColor(8, 1).green() > 150, true); // WhatsApp's green ring
    }

    // "Today" is the store's clock's: two days on, the messages of the machine's today are of the
    // day before yesterday, and the list says when with the same clock.
    void daysAreTheStoresDays()
    {
        m_later.setOffset(2 * 86400);
        m_view = std::make_unique<InboxView>(*m_repo, Store(*m_bus, m_later));
        m_view->resize(1000, 700);
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QTRY_VERIFY(thread()->count() > 0);
        const QString day = thread()->item(0)->data(ChatBubbleDelegate::DayRole).toString();
        QVERIFY(!day.isEmpty());
        QVERIFY2(day != QLatin1String("Today"), qPrintable(day));
        QCOMPARE(day, InboxText::dayName(QDate::currentDate(), QDate::currentDate().addDays(2)));
    }

    void threadIsAChatWithBubblesSendersAndDays()
    {
        // Two messages of an earlier day, then today's.
        const auto old = m_repo->latestMessages(m_widgetConv, 10);
        QCOMPARE(old.size(), 2);
        const QString earlier = QDateTime::currentDateTimeUtc().addDays(-3).toString(Qt::ISODateWithMs);
        Database::exec("UPDATE messages SET created_at = ? WHERE id = ?", {earlier, old.at(0).id});
        Database::exec("UPDATE messages SET created_at = ? WHERE id = ?", {earlier, old.at(1).id});
        ChannelSender(Store(*m_bus)).send(m_widgetConv, text("Hi Bob"), {"agent", "user_1", "Ali"});
        m_view->resize(1000, 700);
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QTRY_COMPARE(thread()->count(), 3);
        auto day = [&](int row) { return thread()->item(row)->data(ChatBubbleDelegate::DayRole).toString(); };
        auto sender = [&](int row) { return thread()->item(row)->data(ChatBubbleDelegate::SenderRole).toString(); };
        QCOMPARE(day(0), InboxText::dayName(QDateTime::fromString(earlier, Qt::ISODateWithMs).toLocalTime().date(),
                                            QDate::currentDate()));
        QVERIFY(!day(0).isEmpty());
        QCOMPARE(day(1), QString()); // the same day: no second separator
        QCOMPARE(day(2), QString("Today"));
        QCOMPARE(sender(0), QString("Bob"));
        QCOMPARE(sender(1), QString()); // the same sender again is not repeated
        QCOMPARE(sender(2), QString("Ali"));
        QVERIFY(!thread()->item(2)->data(ChatBubbleDelegate::TimeRole).toString().isEmpty());
        QVERIFY(
            !thread()->item(2)->data(ChatBubbleDelegate::TimeRole).toString().contains(QRegularExpression(":\\d\\d:")));

        // Incoming bubbles sit on the left, outgoing ones on the right, none wider than the share.
        auto *delegate = qobject_cast<ChatBubbleDelegate *>(thread()->itemDelegate());
        QVERIFY(delegate);
        const int width = thread()->viewport()->width();
        for (int row = 0; row < 3; ++row) {
            const QRect item = thread()->visualItemRect(thread()->item(row));
            const QRect bubble = delegate->bubbleRect(item, thread()->model()->index(row, 0));
            QVERIFY(bubble.width() <= width * ChatBubbleDelegate::kMaxWidthShare + 1);
            if (row < 2)
                QVERIFY2(bubble.left() < width / 4, qPrintable(QString::number(bubble.left())));
            else
                QVERIFY2(bubble.right() > width * 3 / 4, qPrintable(QString::number(bubble.right())));
            QVERIFY(item.contains(bubble));
        }
        // A long message wraps inside its bubble: its row grows, the bubble stays within the share.
        ChannelSender(Store(*m_bus))
            .send(m_widgetConv, text(QString("uzun ").repeated(200)), {"agent", "user_1", "Ali"});
        QTRY_COMPARE(thread()->count(), 4);
        const QRect longItem = thread()->visualItemRect(thread()->item(3));
        QVERIFY(longItem.height() > 5 * thread()->fontMetrics().height());
        QVERIFY(delegate->bubbleRect(longItem, thread()->model()->index(3, 0)).width() <=
                width * ChatBubbleDelegate::kMaxWidthShare + 1);
        // It paints without trouble (and shows something).
        const QImage shot = thread()->viewport()->grab().toImage();
        QVERIFY(!shot.isNull());
    }

    void theConversationUnderTheMouseStaysWhenMessagesArrive()
    {
        ContactRepository contacts(testStore());
        QStringList ids;
        for (int i = 0; i < 40; ++i) {
            const QString c = contacts
                                  .create(ContactRules::parse({{"firstName", QString("Kişi %1").arg(i)},
                                                               {"email", QString("k%1@ornek.com.tr").arg(i)}}))
                                  .id;
            ids << m_repo->findOrCreate(c, "widget", QString("visitor_x%1").arg(i)).id;
            m_repo->receive(ids.last(), text("Merhaba"));
        }
        m_view->resize(900, 400);
        QTRY_COMPARE(list()->count(), 42);
        list()->scrollToItem(list()->item(15), QAbstractItemView::PositionAtTop);
        QTRY_VERIFY(list()->verticalScrollBar()->value() > 0);
        const QPoint at = list()->visualItemRect(list()->item(18)).center();
        QCursor::setPos(list()->viewport()->mapToGlobal(at));
        QTest::mouseMove(list()->viewport(), at);
        QTRY_VERIFY(list()->itemAt(at));
        const QString aimed = list()->itemAt(at)->text();
        // A message in a conversation further down moves it to the top of the list.
        m_repo->receive(ids.first(), text("Yeni mesaj"));
        QTRY_VERIFY(list()->item(0)->text().contains("Yeni mesaj"));
        // (the anchor settles once the list is filled again)
        QTRY_COMPARE(list()->itemAt(at) ? list()->itemAt(at)->text() : QString(), aimed);
    }

    void composerTakesSeveralLinesAndEnterSends()
    {
        QVERIFY(m_view->selectConversation(m_widgetConv));
        auto *composer = m_view->findChild<QPlainTextEdit *>("composer");
        const int oneLine = composer->height();
        QTest::keyClicks(composer, "Line one");
        QTest::keyClick(composer, Qt::Key_Return, Qt::ShiftModifier);
        QTest::keyClicks(composer, "Line two");
        QTest::keyClick(composer, Qt::Key_Return, Qt::ShiftModifier);
        QTest::keyClicks(composer, "Line three");
        QCOMPARE(composer->toPlainText(), QString("Line one\nLine two\nLine three"));
        QTRY_VERIFY(composer->height() > oneLine); // it grows with its text
        QCOMPARE(m_repo->get(m_widgetConv).totalMessages, 2);
        QTest::keyClick(composer, Qt::Key_Return);
        QTRY_COMPARE(m_repo->get(m_widgetConv).totalMessages, 3);
        QCOMPARE(m_repo->latestMessages(m_widgetConv, 1).first().text, QString("Line one\nLine two\nLine three"));
        QCOMPARE(composer->toPlainText(), QString());
        QTRY_COMPARE(composer->height(), oneLine);
    }

    void filtersByStatusAndChannel()
    {
        auto *channel = m_view->findChild<QComboBox *>("channelFilter");
        channel->setCurrentIndex(channel->findData("whatsapp"));
        QCOMPARE(list()->count(), 1);
        QVERIFY(listText(0).contains("Ayşe"));
        channel->setCurrentIndex(0);
        m_repo->close(m_whatsappConv);
        auto *status = m_view->findChild<QComboBox *>("statusFilter");
        status->setCurrentIndex(status->findData("closed"));
        QTRY_COMPARE(list()->count(), 1);
        QVERIFY(listText(0).contains("Ayşe"));
        status->setCurrentIndex(status->findData("open"));
        QCOMPARE(list()->count(), 1);
        QVERIFY(listText(0).contains("Bob"));
    }

    void selectingMarksReadAndShowsThread()
    {
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QCOMPARE(thread()->count(), 2);
        QVERIFY(thread()->item(1)->text().contains("Anyone there?"));
        QTRY_VERIFY(!listText(0).contains("unread"));
        QCOMPARE(m_repo->get(m_widgetConv).unreadCount, 0);
        QVERIFY(m_view->findChild<QLabel *>("threadHeader")->text().contains("Bob"));
    }

    void composerSendsThroughChannelWithTick()
    {
        QVERIFY(m_view->selectConversation(m_widgetConv));
        auto *composer = m_view->findChild<QPlainTextEdit *>("composer");
        QTest::keyClicks(composer, "Hi Bob, how can I help?");
        click(m_view->findChild<QPushButton *>("sendButton"));
        QCOMPARE(composer->toPlainText(), QString());
        QTRY_COMPARE(thread()->count(), 3);
        QVERIFY2(thread()->item(2)->toolTip().endsWith(" · sent"), qPrintable(thread()->item(2)->toolTip()));
        QCOMPARE(thread()->item(2)->data(ChatBubbleDelegate::TickRole).toString(), QString("✓"));
        QCOMPARE(thread()->item(2)->text(), QString("Hi Bob, how can I help?"));
        QCOMPARE(m_repo->latestMessages(m_widgetConv, 1).first().delivery.status, QString("sent"));
        // The visitor's page fetched it: the tick follows live.
        m_repo->updateStatus(m_repo->latestMessages(m_widgetConv, 1).first().id, "delivered");
        QTRY_COMPARE(thread()->item(2)->data(ChatBubbleDelegate::TickRole).toString(), QString("✓✓"));
        QVERIFY(thread()->item(2)->toolTip().endsWith(" · delivered"));
    }

    // A widget visitor names themselves with markup: every label shows it as typed, never as rich text.
    void markupInAVisitorsNameStaysPlainText()
    {
        const QString name = "<h1>Büyük</h1><img src=x>";
        const QString id = ContactRepository(testStore())
                               .create(ContactRules::parse({{"firstName", name}, {"email", "h1@example.com"}}))
                               .id;
        const QString conv = m_repo->findOrCreate(id, "widget", "visitor_h1").id;
        m_repo->receive(conv, text("<b>kalın</b>"));
        QTRY_VERIFY(m_view->selectConversation(conv));
        int shown = 0;
        for (QLabel *label : m_view->findChildren<QLabel *>()) {
            if (!label->text().contains("<h1>") && !label->text().contains("<b>"))
                continue;
            ++shown;
            QVERIFY2(label->textFormat() == Qt::PlainText, qPrintable(label->objectName()));
        }
        QVERIFY(shown > 0);
        auto *header = m_view->findChild<QLabel *>("threadHeader");
        QVERIFY2(header->text().contains(name), qPrintable(header->text()));
    }

    QPlainTextEdit *composer() { return m_view->findChild<QPlainTextEdit *>("composer"); }
    QWidget *unsentBar() { return m_view->findChild<QWidget *>("unsentBar"); }
    // Typed as the keyboard would put it (QTest::keyClicks takes Latin-1 only: no ş, ı, ğ).
    void typeText(const QString &text)
    {
        composer()->setFocus();
        composer()->insertPlainText(text);
    }
    QListWidgetItem *lastBubble() { return thread()->count() ? thread()->item(thread()->count() - 1) : nullptr; }

    void refusedReplyStaysInItsOwnConversation()
    {
        // Ayşe's WhatsApp cannot send (no channel set up): her reply is refused.
        QVERIFY(m_view->selectConversation(m_whatsappConv));
        typeText("Ayşe Hanım, size özel fiyat 1.250 TL");
        QTest::keyClick(composer(), Qt::Key_Return);
        // Said once, in the bar over the composer (not again under it).
        QCOMPARE(m_view->findChild<QLabel *>("unsentLabel")->text(),
                 QString("Not sent: “Ayşe Hanım, size özel fiyat 1.250 TL” (The channel cannot send now (not "
                         "configured))"));
        QVERIFY(!m_view->findChild<QLabel *>("errorLabel")->isVisible());
        QCOMPARE(m_repo->get(m_whatsappConv).totalMessages, 1);
        // The reply leaves the composer and stays in Ayşe's thread, marked, with Retry beside it.
        QCOMPARE(composer()->toPlainText(), QString());
        QVERIFY(lastBubble());
        QCOMPARE(lastBubble()->text(), QString("Ayşe Hanım, size özel fiyat 1.250 TL"));
        QVERIFY(lastBubble()->data(ChatBubbleDelegate::NoteRole).toString().startsWith("Not sent: "));
        QVERIFY(unsentBar()->isVisible());
        QVERIFY(m_view->findChild<QPushButton *>("retryUnsentButton")->isEnabled());

        // Bob's conversation next, and Enter at once: nothing of Ayşe's reply reaches Bob.
        const int bobBefore = m_repo->get(m_widgetConv).totalMessages;
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QCOMPARE(composer()->toPlainText(), QString());
        QVERIFY(!unsentBar()->isVisible());
        QTest::keyClick(composer(), Qt::Key_Return);
        QCOMPARE(m_repo->get(m_widgetConv).totalMessages, bobBefore);
        for (const Message &m : m_repo->latestMessages(m_widgetConv, 50))
            QVERIFY2(!m.text.contains("Ayşe"), qPrintable(m.text));
        for (int i = 0; i < thread()->count(); ++i)
            QVERIFY(!thread()->item(i)->text().contains("Ayşe"));

        // Back with Ayşe: still there; Retry meets the same refusal and keeps it.
        QVERIFY(m_view->selectConversation(m_whatsappConv));
        QCOMPARE(lastBubble()->text(), QString("Ayşe Hanım, size özel fiyat 1.250 TL"));
        click(m_view->findChild<QPushButton *>("retryUnsentButton"));
        QCOMPARE(m_view->drafts().unsent(m_whatsappConv).size(), 1);
        QCOMPARE(m_repo->get(m_whatsappConv).totalMessages, 1);
        // Edit takes it back into her composer; Discard of another refused one removes it.
        click(m_view->findChild<QPushButton *>("editUnsentButton"));
        QCOMPARE(composer()->toPlainText(), QString("Ayşe Hanım, size özel fiyat 1.250 TL"));
        QVERIFY(!unsentBar()->isVisible());
        QTest::keyClick(composer(), Qt::Key_Return);
        QVERIFY(unsentBar()->isVisible());
        click(m_view->findChild<QPushButton *>("discardUnsentButton"));
        QVERIFY(!unsentBar()->isVisible());
        QVERIFY(m_view->drafts().unsent(m_whatsappConv).isEmpty());
        QCOMPARE(m_repo->get(m_whatsappConv).totalMessages, 1);
    }

    void retrySendsWhenTheChannelIsBack()
    {
        bool down = true;
        EventBus *bus = m_bus.get();
        m_view->setSender([bus, &down](const QString &conv, const QString &t) {
            if (down)
                throw DomainError(
                    DomainError::Unavailable, "CHANNEL_UNAVAILABLE", ModelText("Channel unavailable"),
                    FieldProblems{{"reason", ModelText(QT_TRANSLATE_NOOP("ModelError", "not configured"))}},
                    QJsonObject{{"channel", "widget"}});
            MessageContent c;
            c.text = t;
            return ChannelSender(Store(*bus)).send(conv, c, {"agent", "user_1", "Ali"});
        });
        QVERIFY(m_view->selectConversation(m_widgetConv));
        const int before = m_repo->get(m_widgetConv).totalMessages;
        typeText("birinci");
        QTest::keyClick(composer(), Qt::Key_Return);
        typeText("ikinci");
        QTest::keyClick(composer(), Qt::Key_Return);
        QCOMPARE(m_view->drafts().unsent(m_widgetConv).size(), 2);
        QVERIFY(m_view->findChild<QLabel *>("unsentLabel")->text().startsWith("2 replies not sent"));
        down = false;
        click(m_view->findChild<QPushButton *>("retryUnsentButton"));
        QVERIFY(m_view->drafts().unsent(m_widgetConv).isEmpty());
        const auto sent = m_repo->latestMessages(m_widgetConv, 2);
        QCOMPARE(m_repo->get(m_widgetConv).totalMessages, before + 2);
        QCOMPARE(sent.at(0).text, QString("birinci")); // in the order they were written
        QCOMPARE(sent.at(1).text, QString("ikinci"));
        QVERIFY(!unsentBar()->isVisible());
    }

    void aDraftBelongsToItsConversationAndUser()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath("drafts.ini");
        m_view->setDraftsFile(ini);
        m_view->setCurrentUser("user_ali", "Ali");
        QVERIFY(m_view->selectConversation(m_widgetConv));
        typeText("Bob için yarım kalan");
        QVERIFY(m_view->selectConversation(m_whatsappConv));
        QCOMPARE(composer()->toPlainText(), QString()); // never shown in another conversation
        typeText("Ayşe için");
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QCOMPARE(composer()->toPlainText(), QString("Bob için yarım kalan"));
        // Another user signing in on this window sees their own (none), then Ali's comes back.
        m_view->setCurrentUser("user_selin", "Selin");
        QCOMPARE(composer()->toPlainText(), QString());
        m_view->setCurrentUser("user_ali", "Ali");
        QCOMPARE(composer()->toPlainText(), QString("Bob için yarım kalan"));

        // A restart: a new Inbox on the same file gives each conversation its draft back.
        typeText("!");
        QTRY_VERIFY_WITH_TIMEOUT(QFile(ini).exists(), 3000);
        m_view.reset(); // the window closes
        m_view = std::make_unique<InboxView>(*m_repo, Store(*m_bus));
        m_view->setDraftsFile(ini);
        m_view->setCurrentUser("user_ali", "Ali");
        m_view->show();
        QVERIFY(m_view->selectConversation(m_whatsappConv));
        QCOMPARE(composer()->toPlainText(), QString("Ayşe için"));
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QCOMPARE(composer()->toPlainText(), QString("Bob için yarım kalan!"));
        // Sent, it is no longer a draft.
        m_view->setSender([bus = m_bus.get()](const QString &conv, const QString &t) {
            MessageContent c;
            c.text = t;
            return ChannelSender(Store(*bus)).send(conv, c, {"agent", "user_ali", "Ali"});
        });
        // The list says where a draft waits, as chat apps do.
        QTRY_VERIFY(listText(1).contains("Draft: Ayşe için") || listText(0).contains("Draft: Ayşe için"));
        {
            ComposerDrafts onDisk(ini);
            onDisk.setUser("user_ali");
            QCOMPARE(onDisk.draft(m_widgetConv), QString("Bob için yarım kalan!"));
            onDisk.setUser("user_selin");
            QCOMPARE(onDisk.draft(m_widgetConv), QString());
        }
        QTest::keyClick(composer(), Qt::Key_Return);
        QCOMPARE(m_view->drafts().draft(m_widgetConv), QString());
        ComposerDrafts onDisk(ini);
        onDisk.setUser("user_ali");
        QCOMPARE(onDisk.draft(m_widgetConv), QString());
        QCOMPARE(onDisk.draft(m_whatsappConv), QString("Ayşe için"));
    }

    void replyingToAnUnassignedConversationAssignsTheReplier()
    {
        const User ali = UserRepository(testStore()).create("ali@example.com", "Ali", "agent", "x");
        const User selin = UserRepository(testStore()).create("selin@example.com", "Selin", "agent", "x");
        m_view->setCurrentUser(ali.id, "Ali");
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QCOMPARE(m_repo->get(m_widgetConv).assignedTo, QString());
        typeText("Merhaba Bob");
        QTest::keyClick(composer(), Qt::Key_Return);
        QCOMPARE(m_repo->get(m_widgetConv).assignedTo, ali.id);
        // Selin's conversation stays Selin's when Ali answers in it.
        m_repo->assign(m_widgetConv, selin.id);
        typeText("Ben de buradayım");
        QTest::keyClick(composer(), Qt::Key_Return);
        QCOMPARE(m_repo->get(m_widgetConv).assignedTo, selin.id);
        // Turned off (inbox/assignOnReply=false): a reply leaves it unassigned.
        m_repo->assign(m_widgetConv, QString());
        m_view->setAssignOnReply(false);
        typeText("Bir sorum var");
        QTest::keyClick(composer(), Qt::Key_Return);
        QCOMPARE(m_repo->get(m_widgetConv).assignedTo, QString());
        // A refused reply assigns nothing either.
        m_view->setAssignOnReply(true);
        QVERIFY(m_view->selectConversation(m_whatsappConv));
        typeText("Ayşe");
        QTest::keyClick(composer(), Qt::Key_Return);
        QCOMPARE(m_repo->get(m_whatsappConv).assignedTo, QString());
    }

    void aDamagedDraftsFileIsNoDraft()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath("drafts.ini");
        QFile f(ini);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[nobody]\n" + m_widgetConv.toUtf8() + "\\unsent=\"[{not json\n\0\xff\xfe garbage");
        f.close();
        m_view->setDraftsFile(ini);
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QVERIFY(m_view->drafts().unsent(m_widgetConv).isEmpty());
        QVERIFY(!unsentBar()->isVisible());
        typeText("yeni");
        QVERIFY(m_view->selectConversation(m_whatsappConv));
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QCOMPARE(composer()->toPlainText(), QString("yeni"));
    }

    void assigneesFollowANewUser()
    {
        auto *assignee = m_view->findChild<QComboBox *>("assigneeCombo");
        QVERIFY(assignee);
        const int before = assignee->count();
        // As the app does when the welcome makes the first account.
        const User u = UserRepository(testStore()).create("selin@example.com", "Selin", "admin", "x");
        m_bus->notify(EventBus::Entity::User, u.id, EventBus::Change::Created);
        QTRY_COMPARE(assignee->count(), before + 1);
        QVERIFY(assignee->findData(u.id) >= 0);
    }

    void closeReopenAndAssignToMe()
    {
        const User u = UserRepository(testStore()).create("ali@example.com", "Ali", "agent", "x");
        m_view->setCurrentUser(u.id, u.name);
        QVERIFY(m_view->selectConversation(m_widgetConv));
        auto *assign = m_view->findChild<QPushButton *>("assignButton");
        click(assign);
        QCOMPARE(m_repo->get(m_widgetConv).assignedTo, u.id);
        QTRY_VERIFY(!assign->isEnabled());
        click(m_view->findChild<QPushButton *>("closeButton"));
        QCOMPARE(m_repo->get(m_widgetConv).status, QString("closed"));
        auto *reopen = m_view->findChild<QPushButton *>("reopenButton");
        QTRY_VERIFY(reopen->isEnabled());
        click(reopen);
        QCOMPARE(m_repo->get(m_widgetConv).status, QString("open"));
        QVERIFY(m_view->findChild<QLabel *>("threadDetails")->text().contains("Ali"));
    }

    // The assistant's messages show as its own (its name, its mark, its tint); under each whose
    // answer is stored, thumbs that record the signed-in user's feedback and show it: the other
    // thumb replaces the first, thumbs down takes a reason, and the thread reads them back. A message
    // whose answer cannot be found has none, and nobody signed in cannot give any.
    void assistantMessagesHaveThumbsThatRecordFeedback()
    {
        const User u = UserRepository(testStore()).create("ali@example.com", "Ali", "agent", "x");
        m_view->setCurrentUser(u.id, u.name);
        const Message answered = assistantMessage(m_widgetConv, "Siparişiniz 2 iş gününde kargoda.");
        const Message unknown = assistantMessage(m_widgetConv, "Bir saniye lütfen.", false);
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QTRY_VERIFY(threadItem(unknown.id));
        QListWidgetItem *item = threadItem(answered.id);
        QVERIFY(item->data(ChatBubbleDelegate::AssistantRole).toBool());
        QCOMPARE(item->data(ChatBubbleDelegate::SenderRole).toString(), QString("Asistan"));
        QVERIFY(threadItem(unknown.id)->data(ChatBubbleDelegate::AssistantRole).toBool());
        QVERIFY(!thumbsOf(unknown.id));
        QVERIFY(!thread()->item(0)->data(ChatBubbleDelegate::AssistantRole).toBool()); // the customer's
        AiFeedbackButtons *thumbs = thumbsOf(answered.id);
        QVERIFY(thumbs);
        QCOMPARE(thumbs->upButton()->accessibleName(), QString("Helpful"));
        QCOMPARE(thumbs->downButton()->accessibleName(), QString("Not helpful"));
        QTRY_VERIFY(thumbs->isVisible());
        // Under the bubble, at its outer edge, inside its own row.
        const auto *delegate = static_cast<ChatBubbleDelegate *>(thread()->itemDelegate());
        const QRect row = thread()->visualItemRect(item);
        const QRect bubble = delegate->bubbleRect(row, thread()->model()->index(thread()->row(item), 0));
        QTRY_VERIFY2(thumbs->geometry().top() > bubble.bottom(), qPrintable(QString::number(thumbs->y())));
        QVERIFY(row.contains(thumbs->geometry()));
        QCOMPARE(thumbs->geometry().right(), bubble.right());

        AiAnswerRepository answers(testStore());
        click(thumbs->upButton());
        QCOMPARE(answers.feedbackOf(answered.id, u.id)->rating, 1);
        QCOMPARE(answers.feedbackOf(answered.id, u.id)->feedbackType, QString("THUMBS"));
        QVERIFY(thumbs->upButton()->isChecked());
        QVERIFY(!thumbs->downButton()->isChecked());
        click(thumbs->upButton()); // a second click keeps it
        QVERIFY(thumbs->upButton()->isChecked());
        QCOMPARE(answers.feedbackOf(answered.id, u.id)->rating, 1);
        // Thumbs down replaces it, and its menu gives the reason.
        thumbs->downButton()->click();
        QCOMPARE(answers.feedbackOf(answered.id, u.id)->rating, -1);
        QVERIFY(thumbs->downButton()->isChecked());
        QVERIFY(!thumbs->upButton()->isChecked());
        auto *outdated = thumbs->reasonMenu()->findChild<QAction *>("outdated");
        QVERIFY(outdated);
        QCOMPARE(outdated->text(), QString("Out of date"));
        outdated->trigger();
        QCOMPARE(answers.feedbackOf(answered.id, u.id)->reason, QString("outdated"));
        QVERIFY(thumbs->downButton()->isChecked());
        QVERIFY(outdated->isChecked());
        // Read back from the store, and said to a screen reader.
        m_view->reload();
        thumbs = thumbsOf(answered.id);
        QVERIFY(thumbs->downButton()->isChecked());
        QCOMPARE(thumbs->reason(), QString("outdated"));
        const QString spoken = threadItem(answered.id)->data(Qt::AccessibleTextRole).toString();
        QVERIFY2(spoken.endsWith("You marked it not helpful: out of date"), qPrintable(spoken));
        // Another user's feedback is theirs: Ali's thumbs stay as Ali gave them.
        AiFeedbackInput other{answered.id, "THUMBS", 1, {}, {}};
        answers.giveFeedback(other, "usr_someone_else");
        m_view->reload();
        QVERIFY(thumbsOf(answered.id)->downButton()->isChecked());

        // The keyboard: Tab from the thread reaches the thumbs of the message its cursor is on.
        m_view->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_view.get()));
        thread()->setFocus();
        thread()->setCurrentItem(threadItem(answered.id));
        QTest::keyClick(thread(), Qt::Key_Tab);
        QTRY_COMPARE(QApplication::focusWidget(), thumbsOf(answered.id)->upButton());
        // Its focus stays when the bus rebuilds the thread.
        m_view->reload();
        QCOMPARE(QApplication::focusWidget(), thumbsOf(answered.id)->upButton());

        // Nobody signed in: nobody to give it.
        m_view->setCurrentUser(QString(), QString());
        QVERIFY(!thumbsOf(answered.id)->upButton()->isEnabled());
        QVERIFY(!thumbsOf(answered.id)->downButton()->isEnabled());
    }

    // Giving feedback on an answer further up, or news on the bus, leaves the thread where it was
    // read; at its end it follows the new messages.
    void theThreadKeepsItsPlaceWhenItIsRebuilt()
    {
        const User u = UserRepository(testStore()).create("ali@example.com", "Ali", "agent", "x");
        m_view->setCurrentUser(u.id, u.name);
        QStringList ids;
        for (int i = 0; i < 20; ++i)
            ids << assistantMessage(m_widgetConv, QStringLiteral("Yanıt %1").arg(i)).id;
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QScrollBar *bar = thread()->verticalScrollBar();
        QTRY_VERIFY(bar->maximum() > 0);
        QTRY_COMPARE(bar->value(), bar->maximum());
        bar->setValue(0);
        AiFeedbackButtons *thumbs = thumbsOf(ids.first());
        QVERIFY(thumbs);
        thumbs->upButton()->click();
        QTest::qWait(150); // the bus's reload
        QVERIFY(thumbsOf(ids.first())->upButton()->isChecked());
        QCOMPARE(bar->value(), 0);
        // At the end, a new message is shown.
        bar->setValue(bar->maximum());
        const Message last = assistantMessage(m_widgetConv, "Son yanıt");
        QTRY_VERIFY(threadItem(last.id));
        QTRY_COMPARE(bar->value(), bar->maximum());
        QVERIFY(thread()->visualItemRect(threadItem(last.id)).bottom() <= thread()->viewport()->height());
    }

    void newIncomingMessageAppearsLive()
    {
        QVERIFY(m_view->selectConversation(m_widgetConv));
        m_repo->receive(m_whatsappConv, text("Fiyat?"));
        QTRY_VERIFY(listText(0).contains("Ayşe (2 unread)"));
        QVERIFY(listText(0).contains("Fiyat?"));
        QCOMPARE(m_view->currentConversationId(), m_widgetConv);
        m_repo->receive(m_widgetConv, text("Still here"));
        QTRY_COMPARE(thread()->count(), 3);
    }

    // What the window's notification centre hears: a new message unless the Inbox is in front of the
    // agent (its list shows it), and that a conversation was opened (its notices are read).
    void announcesUnlessInFrontAndReadsOnOpening()
    {
        struct Recorder : InboxNotifier
        {
            QStringList notified, opened;
            void notify(const QString &id, const QString &, const QString &) override { notified << id; }
            void read(const QString &id) override { opened << id; }
        } recorder;
        m_view->setNotifier(&recorder);
        m_view->setActiveCheck([] { return true; }); // the window is in front
        m_repo->receive(m_whatsappConv, text("Görüldü mü?"));
        QTRY_VERIFY(listText(0).contains("Görüldü mü?"));
        QVERIFY(recorder.notified.isEmpty()); // the Inbox shows it

        m_view->hide(); // the agent works in Contacts
        m_repo->receive(m_widgetConv, text("Hâlâ buradayım"));
        QCOMPARE(recorder.notified, QStringList{m_widgetConv});

        m_view->show();
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QVERIFY(recorder.opened.contains(m_widgetConv));
        m_view->setNotifier(nullptr);
    }

    void everyControlIsWholeOnALaptop_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("English") << QString();
        QTest::newRow("Turkish") << QStringLiteral("tr");
        QTest::newRow("German") << QStringLiteral("de");
    }

    void everyControlIsWholeOnALaptop()
    {
        // The Inbox in the window on a 1366 × 768 screen (the area gets about 1150 pixels beside the
        // navigation), a conversation open with its tags, its contact's deal and agents to assign:
        // no button, field or label of any pane is cut, in English, Turkish and German, whether the
        // conversation is open or closed; nor on a 1920-wide screen.
        QFETCH(QString, language);
        const UiTest::ScopedTranslation translation(language);
        QVERIFY2(translation.ok(), UiTest::ScopedTranslation::missing);
        // The window's look as the program sets it: Fusion, the body text at least 10 points.
        const QFont font = QApplication::font();
        Theme::instance().setChoice(Theme::Choice::Light);
        QFont body = font;
        body.setPointSizeF(qMax(body.pointSizeF(), UiKit::kMinBodyPoints));
        QApplication::setFont(body);
        const auto restoreFont = qScopeGuard([font] { QApplication::setFont(font); });
        // As the demo's: a Telegram conversation with a contact who has a deal, tagged and assigned.
        UserRepository users(testStore());
        const User me = users.create("selin@example.com", "Selin Aksoy", "admin", "x");
        const User murat = users.create("murat@example.com", "Murat Çelik", "agent", "x");
        ContactRepository contacts(testStore());
        const QString zeynep = contacts
                                   .create(ContactRules::parse({{"firstName", "Zeynep"},
                                                                {"lastName", "Arslan"},
                                                                {"email", "zeynep.arslan@ornek.com.tr"},
                                                                {"company", "Toros Yapı"}}))
                                   .id;
        DealRepository(testStore())
            .create(DealRules::parse({{"name", "Şantiye iş güvenliği eğitimi"},
                                      {"value", 185000},
                                      {"currency", "TRY"},
                                      {"contactId", zeynep}}));
        const QString conv = m_repo->findOrCreate(zeynep, "telegram", "zeynep_arslan").id;
        m_repo->receive(conv, text("Toplantıyı perşembeye alabilir miyiz?"));
        m_repo->addTags(conv, {"vip", "teklif"});
        m_repo->assign(conv, murat.id);
        // The assistant's parts too: a message of it with thumbs, its longest hand-off reason and its
        // draft in the composer under its bar.
        assistantMessage(conv, "Toplantılar için takvim bağlantımızı kullanabilirsiniz.");
        AssistantHandoff(testStore()).handOff(conv, "unsupported_language");
        AiAnswerOrigin origin;
        origin.mode = "draft";
        origin.conversationId = conv;
        AssistantReply reply;
        reply.answered = true;
        reply.answer = "Elbette, perşembe saat 10:00 uygun mu?";
        reply.language = "tr";
        AssistantConversation(testStore())
            .setDraft(conv, reply.answer, AiAnswerRepository(testStore()).record("Perşembe?", reply, origin).id);
        ApiKeyRepository keys(testStore());
        ComposedWindow window(contacts, keys, Store(*m_bus));
        auto *view = new InboxView(*m_repo, Store(*m_bus));
        view->setCurrentUser(me.id, me.name);
        window.addArea(InboxView::tr("Inbox"), view);
        window.showArea(view);
        window.resize(1366, 690);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(view->selectConversation(conv));
        QTRY_VERIFY(view->findChild<QListWidget *>("tagList")->count() == 2);
        QVERIFY(view->handoffBanner()->isVisible());
        QVERIFY(view->aiDraftBar()->isVisible());

        auto whole = [&](const QString &where) {
            QCoreApplication::processEvents();
            const QStringList cut = clippedControls(view);
            QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("%1 (the area %2 pixels wide): %3")
                                                   .arg(where)
                                                   .arg(view->width())
                                                   .arg(cut.join(QStringLiteral("; ")))));
        };
        QVERIFY2(window.width() <= 1366, qPrintable(QString::number(window.width())));
        whole("1366, an open conversation");
        if (QTest::currentTestFailed())
            return;
        window.resize(1920, 1050);
        QTRY_COMPARE(window.width(), 1920);
        whole("1920, an open conversation");
        if (QTest::currentTestFailed())
            return;
        window.resize(1366, 690);
        QTRY_VERIFY(window.width() <= 1366);
        m_repo->close(conv);
        QTRY_VERIFY(view->findChild<QPushButton *>("reopenButton")->isEnabled());
        QVERIFY(!view->handoffBanner()->isVisible()); // closing ends the hand-off and the draft
        QVERIFY(!view->aiDraftBar()->isVisible());
        whole("1366, a closed conversation");
        if (QTest::currentTestFailed())
            return;
        window.resize(1920, 1050);
        QTRY_COMPARE(window.width(), 1920);
        whole("1920, a closed conversation");
    }

    void inboxIsAnAreaOfTheMainWindow()
    {
        ContactRepository contacts(testStore());
        ApiKeyRepository keys(testStore());
        ComposedWindow window(contacts, keys, Store(*m_bus));
        auto *view = new InboxView(*m_repo, Store(*m_bus));
        const int index = window.addArea(InboxView::tr("Inbox"), view);
        QVERIFY(index > 0);
        window.show();
        QVERIFY(!window.grab().isNull());
    }
};

QTEST_MAIN(TestInboxView)
#include "test_inboxview.moc"
