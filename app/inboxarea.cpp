#include "app/inboxarea.h"

#include "messaging/channels/channelregistry.h"
#include "messaging/channels/channelsender.h"
#include "messaging/channels/outgoing.h"
#include "messaging/media/mediaservice.h"
#include "model/inbox/conversationrepository.h"
#include "ui/inbox/inboxcomposer.h"
#include "ui/inbox/inboxview.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/notificationcenter.h"

namespace {
// Hands the inbox's "new message" notifications to the window's notification centre.
class CenterNotifier : public QObject, public InboxNotifier
{
public:
    CenterNotifier(NotificationCenter *center, QObject *parent)
        : QObject(parent)
        , m_center(center)
    {
    }
    void notify(const QString &conversationId, const QString &title, const QString &text) override
    {
        m_center->post(QStringLiteral("conversation"), conversationId, title, text);
    }
    void read(const QString &conversationId) override
    {
        m_center->markRead(QStringLiteral("conversation"), conversationId);
    }

private:
    NotificationCenter *m_center;
};
} // namespace

InboxView *addInboxArea(MainWindow &window, ConversationRepository &conversations, const Store &store,
                        std::shared_ptr<ChannelRegistry> channels, const InboxMediaSetup &media)
{
    auto *inbox = new InboxView(conversations, store);
    // Replies carry the signed-in user ("Assign to me" assigns to them); with nobody signed in (no
    // account yet), "Assign to me" stays disabled and replies carry the name "Liaison".
    auto agentOf = [](const User &user) {
        return MessageSender{QStringLiteral("agent"), user.id,
                             user.id.isEmpty() ? QStringLiteral("Liaison") : user.name};
    };
    // Shared by the senders below, and changed in place when someone else signs in.
    auto agent = std::make_shared<MessageSender>(agentOf(window.signedInUser()));
    inbox->setCurrentUser(agent->id, agent->name);
    QObject::connect(&window, &MainWindow::signedInUserChanged, inbox, [inbox, agent, agentOf](const User &user) {
        *agent = agentOf(user);
        inbox->setCurrentUser(agent->id, agent->name);
    });
    auto sender = std::make_shared<ChannelSender>(store, std::move(channels));
    // Refusals (a channel down, its rate, a file too large) reach the composer as DomainErrors, which
    // it shows in the window's words (ErrorText).
    inbox->setSender([sender, agent](const QString &conversationId, const QString &text) {
        MessageContent content;
        content.text = text;
        return sender->send(conversationId, content, *agent);
    });
    auto mediaService = std::make_shared<MediaService>(media.config, media.dataDir, store, media.baseUrl);
    InboxComposer *composer = inbox->composerExtras();
    composer->setMaxFileBytes(media.config.maxUploadBytes);
    composer->setFileSender(
        [sender, mediaService, agent](const QString &conversationId, const QString &path, const QString &caption) {
            return OutgoingMessages::sendLocalFile(*sender, *mediaService, conversationId, path, caption, *agent);
        });
    composer->setTemplateSender([sender, agent](const QString &conversationId, const QString &templateName,
                                                const QString &language, const QStringList &parameters,
                                                const QStringList &buttonPayloads) {
        return OutgoingMessages::sendTemplate(*sender, conversationId, templateName, language,
                                              OutgoingMessages::templateComponents(parameters, buttonPayloads), *agent);
    });
    window.addArea(InboxView::tr("Inbox"), inbox,
                   {[inbox] { inbox->focusSearch(); }, [inbox] { inbox->focusComposer(); }}, QStringLiteral("inbox"));
    // The navigation's count: the conversations with unread messages, counted when the list reloads
    // on the bus's news (a message in, a conversation read).
    window.setAreaCount(inbox, inbox->unreadCount(), MainWindow::CountKind::Unread);
    QObject::connect(inbox, &InboxView::unreadCountChanged, &window,
                     [&window, inbox](int count) { window.setAreaCount(inbox, count, MainWindow::CountKind::Unread); });
    // No conversation at all: the empty list leads to Settings → Channels, for whoever may set them up.
    auto channelsOpener = [&window]() -> std::function<void()> {
        if (!window.mayConfigure())
            return {};
        return [&window] { window.showSettings(QStringLiteral("channelsPage")); };
    };
    inbox->setChannelsOpener(channelsOpener());
    QObject::connect(&window, &MainWindow::signedInUserChanged, inbox,
                     [inbox, channelsOpener] { inbox->setChannelsOpener(channelsOpener()); });
    // "Jump to": the conversation in the list (the list widens when its filters hide it).
    window.setRecordOpener(JumpBox::Conversation, [&window, inbox](const QString &id) {
        window.showArea(inbox);
        inbox->reload();
        inbox->selectConversation(id);
    });
    // New messages while the window is not in front: the window's notification centre.
    auto *notifier = new CenterNotifier(window.notifications(), inbox);
    inbox->setNotifier(notifier);
    QObject::connect(window.notifications(), &NotificationCenter::activated, inbox,
                     [&window, inbox](const QString &kind, const QString &id) {
                         if (kind != QLatin1String("conversation"))
                             return;
                         window.showArea(inbox);
                         inbox->openConversation(id);
                     });
    return inbox;
}
