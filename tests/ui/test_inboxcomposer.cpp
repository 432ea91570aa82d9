// The Inbox composer's attachments and templates offscreen: attaching (button path, drop onto the
// thread), the preview row, Send with the caption; template picker → placeholders → live preview →
// the right components; errors inline (too large, channel unavailable, empty placeholder); the
// WhatsApp 24-hour hint; the assistant's draft in the composer (sent and linked to its answer,
// discarded, never over the agent's text). Fake senders record the calls; the real paths (OutgoingMessages with
// MediaService and ChannelSender, as the app wires them) send on the widget channel, which needs no
// provider.
#include "messaging/channels/channelregistry.h"
#include "model/inbox/templaterepository.h"
#include "tests/support/fakeclock.h"
#include "tests/ui/uitest.h"

#include "messaging/channels/channelsender.h"
#include "messaging/channels/outgoing.h"
#include "messaging/media/mediaservice.h"
#include "model/accounts/userrepository.h"
#include "model/assistant/aianswerrepository.h"
#include "model/assistant/assistantconversation.h"
#include "model/contacts/contactrepository.h"
#include "model/core/eventbus.h"
#include "model/core/timeutil.h"
#include "model/inbox/conversationrepository.h"
#include "model/inbox/messagetemplate.h"
#include "tests/support/testsupport.h"
#include "ui/inbox/aifeedbackbuttons.h"
#include "ui/inbox/inboxcomposer.h"
#include "ui/inbox/inboxview.h"

#include <QDialog>
#include <QFrame>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QUrl>
#include <QtTest>

#include <stdexcept>

using namespace UiTest;

namespace {
const QByteArray kPng = QByteArray::fromHex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                                            "0000000d49444154789c6360000000020001e221bc330000000049454e44ae426082");

struct FileCall
{
    QString conversationId;
    QString path;
    QString caption;
};

struct TemplateCall
{
    QString conversationId;
    QString name;
    QString language;
    QStringList parameters;
    QStringList payloads;
};
} // namespace

class TestInboxComposer final : public QObject
{
    Q_OBJECT
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    FakeClock m_clock; // the view's clock: the system's until a test moves it
    std::unique_ptr<ConversationRepository> m_repo;
    std::unique_ptr<InboxView> m_view;
    QTemporaryDir m_files;
    QString m_widgetConv;
    QString m_whatsappConv;
    QVector<FileCall> m_fileCalls;
    QVector<TemplateCall> m_templateCalls;

    InboxComposer *extras() { return m_view->composerExtras(); }
    QPlainTextEdit *composer() { return m_view->findChild<QPlainTextEdit *>("composer"); }
    QPushButton *sendButton() { return m_view->findChild<QPushButton *>("sendButton"); }
    QLabel *errorLabel() { return m_view->findChild<QLabel *>("errorLabel"); }
    QListWidget *thread() { return m_view->findChild<QListWidget *>("thread"); }

    QString writeFile(const QString &name, const QByteArray &bytes)
    {
        QFile f(m_files.filePath(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return {};
        return f.fileName();
    }

    static MessageContent text(const QString &t)
    {
        MessageContent c;
        c.text = t;
        return c;
    }

    // The assistant's draft for the conversation, as the auto-reply "suggest" leaves it: its answer
    // recorded, then the draft set.
    AiAnswer suggest(const QString &conversationId, const QString &reply)
    {
        AssistantReply r;
        r.answered = true;
        r.answer = reply;
        r.language = "en";
        AiAnswerOrigin origin;
        origin.mode = "draft";
        origin.channel = "widget";
        origin.conversationId = conversationId;
        const AiAnswer a = AiAnswerRepository(Store(*m_bus)).record("When does my parcel come?", r, origin);
        AssistantConversation(Store(*m_bus)).setDraft(conversationId, reply, a.id);
        return a;
    }
    QFrame *draftBar() { return m_view->aiDraftBar(); }
    QLabel *draftLabel() { return m_view->findChild<QLabel *>("aiDraftLabel"); }

    void useFakeSenders()
    {
        extras()->setFileSender([this](const QString &conv, const QString &path, const QString &caption) {
            m_fileCalls.append({conv, path, caption});
            return Message{};
        });
        extras()->setTemplateSender([this](const QString &conv, const QString &name, const QString &language,
                                           const QStringList &parameters, const QStringList &payloads) {
            m_templateCalls.append({conv, name, language, parameters, payloads});
            return Message{};
        });
    }

    // As app/inboxarea.cpp wires them: the server's media and channel path.
    void useRealSenders(const QString &baseUrl, std::shared_ptr<ChannelRegistry> registry = {})
    {
        EventBus *bus = m_bus.get();
        auto sender = std::make_shared<ChannelSender>(Store(*bus), std::move(registry));
        MediaConfig config;
        config.maxUploadBytes = 1024;
        auto media = std::make_shared<MediaService>(config, m_db->dir(), Store(*bus), [baseUrl] { return baseUrl; });
        const MessageSender agent{"agent", "user_1", "Ali"};
        extras()->setMaxFileBytes(config.maxUploadBytes);
        extras()->setFileSender(
            [sender, media, agent](const QString &conv, const QString &path, const QString &caption) {
                return OutgoingMessages::sendLocalFile(*sender, *media, conv, path, caption, agent);
            });
        extras()->setTemplateSender([sender, agent](const QString &conv, const QString &name, const QString &language,
                                                    const QStringList &parameters, const QStringList &payloads) {
            return OutgoingMessages::sendTemplate(*sender, conv, name, language,
                                                  OutgoingMessages::templateComponents(parameters, payloads), agent);
        });
    }

    void createTemplates()
    {
        TemplateRepository templates(testStore());
        templates.create(
            TemplateRules::parse({{"name", "order_ready"},
                                  {"language", "en_US"},
                                  {"category", "utility"},
                                  {"body", "Hi {{1}}, your order {{2}} is ready"},
                                  {"buttons", QJsonArray{QJsonObject{{"type", "quick_reply"}, {"text", "Thanks"}},
                                                         QJsonObject{{"type", "quick_reply"}, {"text", "Call me"}}}}},
                                 true));
        templates.create(TemplateRules::parse(
            {{"name", "draft_offer"}, {"language", "en_US"}, {"body", "Offer {{1}}"}, {"status", "pending"}}, true));
    }

    // Opens the picker, chooses order_ready and fills its placeholders.
    void chooseOrderReady()
    {
        click(extras()->templateButton());
        auto *picker = modal<QDialog>();
        QVERIFY(picker);
        QCOMPARE(picker->objectName(), QString("templatePicker"));
        auto *list = picker->findChild<QListWidget *>("templateList");
        QCOMPARE(list->count(), 1); // only approved templates
        QVERIFY2(list->item(0)->text().contains("order_ready (en_US)"), qPrintable(list->item(0)->text()));
        QVERIFY(list->item(0)->text().contains("Hi {{1}}, your order {{2}} is ready"));
        list->setCurrentRow(0);
        click(qobject_cast<QPushButton *>(dialogButton(picker, QDialogButtonBox::Ok)));
        QTRY_VERIFY(!extras()->templatePicker());
        QVERIFY(extras()->chosenTemplate().has_value());
        QCOMPARE(extras()->parameterEdits().size(), 2);
        auto *preview = m_view->findChild<QLabel *>("templatePreview");
        QCOMPARE(preview->text(), QString("Hi {{1}}, your order {{2}} is ready"));
        extras()->parameterEdits().at(0)->insert("Ayşe");                         // keyClicks takes ASCII only
        QCOMPARE(preview->text(), QString("Hi Ayşe, your order {{2}} is ready")); // live
        QTest::keyClicks(extras()->parameterEdits().at(1), "#42");
        QCOMPARE(preview->text(), QString("Hi Ayşe, your order #42 is ready"));
        auto *buttons = m_view->findChild<QWidget *>("templateButtons");
        QVERIFY(buttons->isVisible());
        QStringList texts;
        for (auto *b : buttons->findChildren<QPushButton *>())
            texts << b->text();
        QCOMPARE(texts, QStringList({"Thanks", "Call me"}));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_files.isValid());
    }

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
        // Ayşe wrote 25 hours ago: outside WhatsApp's window.
        const FakeClock before(QDateTime::currentDateTimeUtc().addSecs(-25 * 3600));
        ConversationRepository(Store(*m_bus, before)).receive(m_whatsappConv, text("Selam"));
        m_widgetConv = m_repo->findOrCreate(bob, "widget", "visitor_1").id;
        m_repo->receive(m_widgetConv, text("Hello?"));
        m_clock.setOffset(0);
        m_view = std::make_unique<InboxView>(*m_repo, Store(*m_bus, m_clock));
        EventBus *bus = m_bus.get();
        m_view->setSender([bus](const QString &conv, const QString &t) {
            return ChannelSender(Store(*bus)).send(conv, text(t), {"agent", "user_1", "Ali"});
        });
        m_fileCalls.clear();
        m_templateCalls.clear();
        m_view->resize(900, 600);
        m_view->show();
    }

    void cleanup()
    {
        if (QWidget *w = QApplication::activeModalWidget())
            w->close();
        m_view.reset();
        m_repo.reset();
        m_bus.reset();
        m_db.reset();
    }

    void buttonsNeedAConversationAndSenders()
    {
        QVERIFY(!extras()->attachButton()->isEnabled());
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QVERIFY(!extras()->attachButton()->isEnabled()); // no file sender yet
        useFakeSenders();
        QVERIFY(extras()->attachButton()->isEnabled());
        QVERIFY(extras()->templateButton()->isEnabled());
        QVERIFY(extras()->attachButton()->isVisible());
    }

    void attachedFileIsSentWithCaption()
    {
        useFakeSenders();
        QVERIFY(m_view->selectConversation(m_widgetConv));
        const QString path = writeFile("photo.png", kPng);
        QVERIFY(extras()->attachFile(path));
        auto *row = m_view->findChild<QWidget *>("attachmentRow");
        QVERIFY(row->isVisible());
        const QString label = extras()->attachmentLabel()->text();
        QVERIFY2(label.contains("photo.png") && label.contains("image") &&
                     label.contains(QLocale().formattedDataSize(kPng.size())),
                 qPrintable(label));
        QTest::keyClicks(composer(), "Your invoice");
        click(sendButton());
        QCOMPARE(m_fileCalls.size(), 1);
        QCOMPARE(m_fileCalls.first().conversationId, m_widgetConv);
        QCOMPARE(m_fileCalls.first().path, QFileInfo(path).absoluteFilePath());
        QCOMPARE(m_fileCalls.first().caption, QString("Your invoice"));
        QCOMPARE(composer()->toPlainText(), QString());
        QVERIFY(!row->isVisible());
        QVERIFY(extras()->attachedFile().isEmpty());
        QVERIFY(!errorLabel()->isVisible());
    }

    void droppedFileIsAttached()
    {
        useFakeSenders();
        QVERIFY(m_view->selectConversation(m_widgetConv));
        const QString path = writeFile("notes.txt", "meeting notes");
        QMimeData mimeData;
        QMimeData *mime = &mimeData;
        mime->setUrls({QUrl::fromLocalFile(path)});
        QWidget *target = thread()->viewport();
        const QPoint at = target->rect().center();
        QDragEnterEvent enter(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(at), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &drop);
        QVERIFY(drop.isAccepted());
        QCOMPARE(extras()->attachedFile(), QFileInfo(path).absoluteFilePath());
        QVERIFY(extras()->attachmentLabel()->text().contains("document"));
        // Remove: Send goes back to text.
        click(m_view->findChild<QToolButton *>("removeAttachment"));
        QVERIFY(extras()->attachedFile().isEmpty());
        QTest::keyClicks(composer(), "Plain text");
        click(sendButton());
        QVERIFY(m_fileCalls.isEmpty());
        QCOMPARE(m_repo->latestMessages(m_widgetConv, 1).first().text, QString("Plain text"));
    }

    void tooLargeFileIsRefusedInline()
    {
        useFakeSenders();
        extras()->setMaxFileBytes(16);
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QVERIFY(!extras()->attachFile(writeFile("big.pdf", QByteArray(17, 'x'))));
        QVERIFY(errorLabel()->isVisible());
        QVERIFY2(errorLabel()->text().contains("too large"), qPrintable(errorLabel()->text()));
        QVERIFY(extras()->attachedFile().isEmpty());
        QVERIFY(!QApplication::activeModalWidget());
        QVERIFY(!extras()->attachFile(m_files.filePath("missing.pdf")));
        QVERIFY(errorLabel()->text().contains("missing.pdf"));
    }

    void senderRefusalIsShownAndAttachmentKept()
    {
        extras()->setFileSender([](const QString &, const QString &, const QString &) -> Message {
            throw std::runtime_error("Too many messages on this channel: try again in 1 second");
        });
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QVERIFY(extras()->attachFile(writeFile("photo.png", kPng)));
        QTest::keyClicks(composer(), "caption");
        click(sendButton());
        QVERIFY(errorLabel()->isVisible());
        QVERIFY(errorLabel()->text().contains("try again"));
        QVERIFY(!extras()->attachedFile().isEmpty()); // try again later
        QCOMPARE(composer()->toPlainText(), QString("caption"));
        QVERIFY(!QApplication::activeModalWidget());
    }

    void realPathSendsFileOnWidgetChannel()
    {
        useRealSenders("https://crm.example.test/");
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QVERIFY(extras()->attachFile(writeFile("photo.png", kPng)));
        QTest::keyClicks(composer(), "The photo");
        click(sendButton());
        QVERIFY2(!errorLabel()->isVisible(), qPrintable(errorLabel()->text()));
        const Message m = m_repo->latestMessages(m_widgetConv, 1).first();
        QCOMPARE(m.type, QString("image"));
        QCOMPARE(m.text, QString("The photo"));
        QCOMPARE(m.delivery.status, QString("sent"));
        const QJsonObject json = m.toJson();
        const QString url = json.value("mediaUrl").toString();
        QVERIFY2(url.startsWith("https://crm.example.test/media/media_"), qPrintable(url));
        const QString mediaId = m.payload.value("mediaId").toString();
        const std::optional<Media> media = MediaRepository(testStore(), m_db->dir() + "/media").find(mediaId);
        QVERIFY(media);
        QCOMPARE(media->messageId, m.id);
        QCOMPARE(media->conversationId, m_widgetConv);
        QCOMPARE(media->mimeType, QString("image/png"));
        QTRY_VERIFY(thread()->item(thread()->count() - 1)->text().contains("The photo"));
    }

    void realPathRefusalsStoreNothing()
    {
        useRealSenders("https://crm.example.test");
        // WhatsApp is not configured here: 503 before anything is stored.
        QVERIFY(m_view->selectConversation(m_whatsappConv));
        QVERIFY(extras()->attachFile(writeFile("photo.png", kPng)));
        click(sendButton());
        QVERIFY(errorLabel()->isVisible());
        QVERIFY2(errorLabel()->text().contains("The channel cannot send now (not configured)"),
                 qPrintable(errorLabel()->text()));
        QCOMPARE(MediaRepository::usage().files, qint64(0));
        // Over the media limit (the server checks too, should the window's limit be off).
        extras()->setMaxFileBytes(0);
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QVERIFY(extras()->attachFile(writeFile("big.bin", QByteArray(2048, 'x'))));
        click(sendButton());
        QVERIFY2(errorLabel()->text().contains("too large"), qPrintable(errorLabel()->text()));
        QCOMPARE(MediaRepository::usage().files, qint64(0));
    }

    void rateLimitedFileStoresNothing()
    {
        ChannelsConfig channels;
        channels.widgetSendPerSecond = 1;
        auto registry = std::make_shared<ChannelRegistry>(channels);
        useRealSenders("https://crm.example.test", registry);
        QVERIFY(m_view->selectConversation(m_widgetConv));
        // The widget's one-second window is full (a send stamped in the future keeps it full
        // whatever the machine's speed): refused before the file is stored.
        QVERIFY(registry->tryAcquireSend(QStringLiteral("widget"), QDateTime::currentMSecsSinceEpoch() + 20000));
        QVERIFY(extras()->attachFile(writeFile("two.png", kPng)));
        click(sendButton());
        QVERIFY(errorLabel()->isVisible());
        QVERIFY2(errorLabel()->text().contains("Too many messages on this channel: try again in"),
                 qPrintable(errorLabel()->text()));
        QCOMPARE(MediaRepository::usage().files, qint64(0));
        QVERIFY(!extras()->attachedFile().isEmpty());
    }

    void templatePickerFillsPlaceholdersAndSends()
    {
        createTemplates();
        useFakeSenders();
        QVERIFY(m_view->selectConversation(m_whatsappConv));
        chooseOrderReady();
        click(sendButton());
        QCOMPARE(m_templateCalls.size(), 1);
        const TemplateCall call = m_templateCalls.first();
        QCOMPARE(call.conversationId, m_whatsappConv);
        QCOMPARE(call.name, QString("order_ready"));
        QCOMPARE(call.language, QString("en_US"));
        QCOMPARE(call.parameters, QStringList({"Ayşe", "#42"}));
        QCOMPARE(call.payloads, QStringList({"Thanks", "Call me"}));
        QVERIFY(!extras()->chosenTemplate());
        QVERIFY(!m_view->findChild<QWidget *>("templatePanel")->isVisible());
    }

    void emptyPlaceholderIsRefusedInline()
    {
        createTemplates();
        useFakeSenders();
        QVERIFY(m_view->selectConversation(m_whatsappConv));
        chooseOrderReady();
        extras()->parameterEdits().at(1)->clear();
        click(sendButton());
        QVERIFY(m_templateCalls.isEmpty());
        QVERIFY(errorLabel()->isVisible());
        QVERIFY2(errorLabel()->text().contains("{{2}}"), qPrintable(errorLabel()->text()));
        QVERIFY(extras()->chosenTemplate());
    }

    void realPathSendsTemplateComponents()
    {
        createTemplates();
        useRealSenders("https://crm.example.test");
        QVERIFY(m_view->selectConversation(m_widgetConv));
        chooseOrderReady();
        click(sendButton());
        QVERIFY2(!errorLabel()->isVisible(), qPrintable(errorLabel()->text()));
        const Message m = m_repo->latestMessages(m_widgetConv, 1).first();
        QCOMPARE(m.type, QString("template"));
        QCOMPARE(m.text, QString("Hi Ayşe, your order #42 is ready"));
        QCOMPARE(m.payload.value("templateName").toString(), QString("order_ready"));
        QCOMPARE(m.payload.value("templateLanguage").toString(), QString("en_US"));
        const QJsonArray components = m.payload.value("components").toArray();
        QCOMPARE(components.size(), 3);
        const QJsonObject body = components.at(0).toObject();
        QCOMPARE(body.value("type").toString(), QString("body"));
        QCOMPARE(body.value("parameters").toArray().at(1).toObject(), QJsonObject({{"type", "text"}, {"text", "#42"}}));
        const QJsonObject button = components.at(2).toObject();
        QCOMPARE(button.value("type").toString(), QString("button"));
        QCOMPARE(button.value("sub_type").toString(), QString("quick_reply"));
        QCOMPARE(button.value("index").toInt(), 1);
        QCOMPARE(button.value("parameters").toArray().first().toObject(),
                 QJsonObject({{"type", "payload"}, {"payload", "Call me"}}));
        // The same content the API builds for these components.
        const MessageTemplate tpl = TemplateRepository(testStore()).approved("order_ready", "en_US");
        QCOMPARE(OutgoingMessages::templateContent(tpl, components).text, m.text);
    }

    void attachmentAndTemplateReplaceEachOther()
    {
        createTemplates();
        useFakeSenders();
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QVERIFY(extras()->attachFile(writeFile("photo.png", kPng)));
        extras()->chooseTemplate(TemplateRepository(testStore()).approved("order_ready", "en_US"));
        QVERIFY(extras()->attachedFile().isEmpty());
        QVERIFY(extras()->attachFile(writeFile("photo.png", kPng)));
        QVERIFY(!extras()->chosenTemplate());
        // Another conversation drops what was attached for this one.
        QVERIFY(m_view->selectConversation(m_whatsappConv));
        QVERIFY(extras()->attachedFile().isEmpty());
    }

    // The assistant's draft goes into the empty composer, marked as its suggestion; the agent thumbs
    // it, edits it and sends it the usual way: the reply is the answer's message and the draft is gone.
    void assistantDraftIsSentFromTheComposerAndLinked()
    {
        const User ali = UserRepository(testStore()).create("ali@example.com", "Ali", "agent", "x");
        m_view->setCurrentUser(ali.id, ali.name);
        const AiAnswer answer = suggest(m_widgetConv, "Parcels leave within 2 working days.");
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QCOMPARE(composer()->toPlainText(), QString("Parcels leave within 2 working days."));
        QVERIFY(draftBar()->isVisible());
        QVERIFY2(draftLabel()->text().startsWith("The assistant's suggestion is in the reply box"),
                 qPrintable(draftLabel()->text()));
        QVERIFY(!m_view->findChild<QPushButton *>("useAiDraftButton")->isVisible());
        QVERIFY(!draftBar()->accessibleName().isEmpty());
        // The list says it is a suggestion, not the agent's own draft.
        auto *list = m_view->findChild<QListWidget *>("conversationList");
        QTRY_VERIFY(list->item(0)->text().contains("Suggestion: Parcels leave"));

        auto *thumbs = m_view->findChild<AiFeedbackButtons *>("aiDraftFeedback");
        QVERIFY(thumbs && thumbs->isVisible());
        click(thumbs->upButton());
        AiAnswerRepository answers(testStore());
        QCOMPARE(answers.feedbackOf(answer.id, ali.id)->rating, 1);
        QVERIFY(thumbs->upButton()->isChecked());

        composer()->moveCursor(QTextCursor::End);
        QTest::keyClicks(composer(), " Thanks!");
        click(sendButton());
        const QVector<Message> sent = m_repo->latestMessages(m_widgetConv, 10);
        QCOMPARE(sent.last().text, QString("Parcels leave within 2 working days. Thanks!"));
        QCOMPARE(sent.last().sender.type, QString("agent"));
        QCOMPARE(answers.find(answer.id)->messageId, sent.last().id);
        QVERIFY(m_repo->get(m_widgetConv).aiDraft.isEmpty());
        QTRY_VERIFY(!draftBar()->isVisible());
        QVERIFY(composer()->toPlainText().isEmpty());
        // The message sent is the answer's: its thumbs show what was given on the draft.
        auto *threadThumbs =
            qobject_cast<AiFeedbackButtons *>(thread()->itemWidget(thread()->item(thread()->count() - 1)));
        QVERIFY(threadThumbs);
        QVERIFY(threadThumbs->upButton()->isChecked());
    }

    // "Discard" drops the draft and takes it out of the composer; nothing is sent.
    void assistantDraftIsDiscarded()
    {
        suggest(m_widgetConv, "Parcels leave within 2 working days.");
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QCOMPARE(composer()->toPlainText(), QString("Parcels leave within 2 working days."));
        const int before = m_repo->latestMessages(m_widgetConv, 10).size();
        click(m_view->findChild<QPushButton *>("discardAiDraftButton"));
        QVERIFY(m_repo->get(m_widgetConv).aiDraft.isEmpty());
        QVERIFY(composer()->toPlainText().isEmpty());
        QTRY_VERIFY(!draftBar()->isVisible());
        QCOMPARE(m_repo->latestMessages(m_widgetConv, 10).size(), before);
        // Nobody signed in: the suggestion's thumbs are not offered.
        suggest(m_widgetConv, "Again.");
        QTRY_VERIFY(draftBar()->isVisible());
        QVERIFY(!m_view->findChild<AiFeedbackButtons *>("aiDraftFeedback")->upButton()->isEnabled());
    }

    // A draft that arrives while the agent is writing never replaces their text: the bar shows it
    // with "Use", which puts it after what they wrote. Discarded, or gone elsewhere, while as it was
    // put, it leaves their words as they were; edited among them, it is theirs.
    void assistantDraftNeverReplacesTheAgentsText()
    {
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QTest::keyClicks(composer(), "Hi Bob,");
        suggest(m_widgetConv, "Parcels leave within 2 working days.");
        QTRY_VERIFY(draftBar()->isVisible());
        QCOMPARE(composer()->toPlainText(), QString("Hi Bob,"));
        QCOMPARE(draftLabel()->text(), QString("The assistant suggests: “Parcels leave within 2 working days.”"));
        auto *use = m_view->findChild<QPushButton *>("useAiDraftButton");
        QVERIFY(use->isVisible());
        click(use);
        QCOMPARE(composer()->toPlainText(), QString("Hi Bob,\nParcels leave within 2 working days."));
        QVERIFY(!use->isVisible());
        QVERIFY(draftLabel()->text().startsWith("The assistant's suggestion is in the reply box"));
        click(m_view->findChild<QPushButton *>("discardAiDraftButton"));
        QCOMPARE(composer()->toPlainText(), QString("Hi Bob,"));
        QVERIFY(m_repo->get(m_widgetConv).aiDraft.isEmpty());
        QTRY_VERIFY(!draftBar()->isVisible());

        // Gone elsewhere (the API, another agent) as it was put: the same.
        suggest(m_widgetConv, "Returns are free for 14 days.");
        QTRY_VERIFY(use->isVisible());
        click(use);
        AssistantConversation(Store(*m_bus)).clearDraft(m_widgetConv);
        QTRY_VERIFY(!draftBar()->isVisible());
        QCOMPARE(composer()->toPlainText(), QString("Hi Bob,"));
        // Edited among the agent's words, it stays theirs.
        suggest(m_widgetConv, "Returns are free for 14 days.");
        QTRY_VERIFY(use->isVisible());
        click(use);
        composer()->moveCursor(QTextCursor::End);
        QTest::keyClicks(composer(), " Best,");
        AssistantConversation(Store(*m_bus)).clearDraft(m_widgetConv);
        QTRY_VERIFY(!draftBar()->isVisible());
        QCOMPARE(composer()->toPlainText(), QString("Hi Bob,\nReturns are free for 14 days. Best,"));

        // Into the emptied composer, then gone unchanged: it leaves the composer.
        composer()->clear();
        suggest(m_widgetConv, "Returns are free for 14 days.");
        QTRY_COMPARE(composer()->toPlainText(), QString("Returns are free for 14 days."));
        AssistantConversation(Store(*m_bus)).clearDraft(m_widgetConv);
        QTRY_VERIFY(composer()->toPlainText().isEmpty());
        QVERIFY(!draftBar()->isVisible());
    }

    // The suggestion put after the agent's words is kept with their draft; after a restart the
    // composer is known to hold it: no "Use" again, and discarding it leaves their words.
    void aSuggestionInTheComposerIsKnownAfterARestart()
    {
        const QString ini = m_files.filePath("drafts.ini");
        QFile::remove(ini);
        m_view->setDraftsFile(ini);
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QTest::keyClicks(composer(), "Hi Bob,");
        suggest(m_widgetConv, "Parcels leave within 2 working days.");
        QTRY_VERIFY(m_view->findChild<QPushButton *>("useAiDraftButton")->isVisible());
        click(m_view->findChild<QPushButton *>("useAiDraftButton"));

        m_view.reset();
        m_view = std::make_unique<InboxView>(*m_repo, Store(*m_bus, m_clock));
        m_view->setDraftsFile(ini);
        m_view->resize(900, 600);
        m_view->show();
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QCOMPARE(composer()->toPlainText(), QString("Hi Bob,\nParcels leave within 2 working days."));
        QVERIFY(draftBar()->isVisible());
        QVERIFY(!m_view->findChild<QPushButton *>("useAiDraftButton")->isVisible());
        QVERIFY(draftLabel()->text().startsWith("The assistant's suggestion is in the reply box"));
        click(m_view->findChild<QPushButton *>("discardAiDraftButton"));
        QCOMPARE(composer()->toPlainText(), QString("Hi Bob,"));
    }

    void windowHintFollowsTheCustomersLastMessage()
    {
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QVERIFY(!extras()->windowHint()->isVisible()); // not WhatsApp
        QVERIFY(m_view->selectConversation(m_whatsappConv));
        QVERIFY(extras()->windowHint()->isVisible());
        QCOMPARE(extras()->windowHint()->text(), QString("Outside the 24-hour window: send a template"));
        // Text can still be typed and sent (the provider decides).
        QVERIFY(composer()->isEnabled());
        QVERIFY(sendButton()->isEnabled());
        // Ayşe writes again: the window is open.
        m_repo->receive(m_whatsappConv, text("Are you there?"));
        QTRY_VERIFY(!extras()->windowHint()->isVisible());
        QVERIFY(!extras()->outsideWindow());
        // A day later without an answer from her, it closes again.
        m_clock.setOffset(24 * 3600 + 60);
        extras()->updateWindowHint();
        QVERIFY(extras()->windowHint()->isVisible());
        QVERIFY(m_view->selectConversation(m_widgetConv));
        QVERIFY(!extras()->windowHint()->isVisible());
    }
};

QTEST_MAIN(TestInboxComposer)
#include "test_inboxcomposer.moc"
