#pragma once

#include "conversationrepository.h"

#include <QTimer>
#include <QWidget>

#include <functional>

class EventBus;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

// The Inbox area: conversations (most recent activity first, with status and channel filters and
// unread badges), the selected thread with delivery ticks, and a composer. Sending goes through
// the function set with setSender() — the app gives it the server's channel path (connector check,
// pending → sent/failed) so that the window sends exactly as the API does. Follows the event bus
// ("conversation", "message") live.
class InboxView : public QWidget
{
    Q_OBJECT
public:
    // Sends text into a conversation; throws (std::exception) with a message to show on refusal.
    using Sender = std::function<Message(const QString &conversationId, const QString &text)>;

    InboxView(ConversationRepository &conversations, EventBus &bus, QWidget *parent = nullptr);

    void setSender(Sender sender);
    // The signed-in agent ("Assign to me"); empty disables the button.
    void setCurrentUser(const QString &userId, const QString &name);

    QString currentConversationId() const { return m_currentId; }
    // Selects a conversation in the list (and marks it read).
    bool selectConversation(const QString &id);
    // How many conversations the list shows at most (the most recent ones).
    static constexpr int kListLimit = 200;

public slots:
    void reload();

private:
    void reloadList();
    void reloadThread();
    void onSelectionChanged();
    void onBusChanged(const QString &entity, const QString &id, const QString &change);
    void send();
    void setStatus(const QString &status);
    void assignToMe();
    void showError(const QString &text);
    static QString tick(const Message &m);

    ConversationRepository &m_conversations;
    Sender m_sender;
    QString m_userId;
    QString m_currentId;
    QComboBox *m_statusFilter = nullptr;
    QComboBox *m_channelFilter = nullptr;
    QListWidget *m_list = nullptr;
    QLabel *m_header = nullptr;
    QListWidget *m_thread = nullptr;
    QLineEdit *m_composer = nullptr;
    QPushButton *m_send = nullptr;
    QPushButton *m_close = nullptr;
    QPushButton *m_reopen = nullptr;
    QPushButton *m_assign = nullptr;
    QLabel *m_error = nullptr;
    QTimer m_reloadTimer;
    bool m_loading = false;
};
