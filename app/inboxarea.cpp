#include "inboxarea.h"

#include "channels/channelsender.h"
#include "conversationrepository.h"
#include "inboxview.h"
#include "mainwindow.h"
#include "userrepository.h"

void addInboxArea(MainWindow &window, ConversationRepository &conversations, EventBus &bus,
                  std::shared_ptr<ChannelRegistry> channels)
{
    auto *inbox = new InboxView(conversations, bus);
    // The desktop has no sign-in yet: the window acts as the first user account (the admin made at
    // set-up). Without any user, "Assign to me" stays disabled and replies carry the name "Liaison".
    const QVector<User> users = UserRepository().list();
    const QString userId = users.isEmpty() ? QString() : users.first().id;
    const QString name = users.isEmpty() ? QStringLiteral("Liaison") : users.first().name;
    inbox->setCurrentUser(userId, name);
    auto sender = std::make_shared<ChannelSender>(&bus, std::move(channels));
    inbox->setSender([sender, userId, name](const QString &conversationId, const QString &text) {
        MessageContent content;
        content.text = text;
        return sender->send(conversationId, content, {QStringLiteral("agent"), userId, name});
    });
    window.addArea(InboxView::tr("Inbox"), inbox);
}
