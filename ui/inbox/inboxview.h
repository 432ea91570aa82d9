#pragma once

#include "model/accounts/userrepository.h"
#include "model/core/store.h"
#include "model/deals/pipelinerepository.h"
#include "model/inbox/conversationrepository.h"

#include <QDate>
#include <QHash>
#include <QIcon>
#include <QPointer>
#include <QStringList>
#include <QTimeZone>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <memory>

class AiFeedbackButtons;
class ComposerDrafts;
class ContactRepository;
class ElidedLabel;
class DealRepository;
class InboxComposer;
class MessageEdit;
class TaskRepository;
class QCheckBox;
class QComboBox;
class QFrame;
class QHBoxLayout;
class QLabel;
class QTextEdit;
class QLineEdit;
class QListWidget;
class QMenu;
class QPushButton;
class QToolButton;

namespace InboxText {
// "WhatsApp", "Instagram", "Telegram", "Web widget" for a channel key (the key when unknown).
QString channelName(const QString &channel);
// "open", "pending", "closed" in the window's language.
QString statusName(const QString &status);
// When a message came, as the list shows it: the time today, "Yesterday", else the short date.
QString when(const QString &iso, const QDate &today);
// The thread's day separator: "Today", "Yesterday", else the date with the weekday.
QString dayName(const QDate &day, const QDate &today);
// "Image", "Document", … for a message type, in the window's language.
QString messageKind(const QString &type);
// The channel's mark in the conversation list (drawn, in the service's colour).
QIcon channelIcon(const QString &channel);
// Who a conversation is with: the contact's name ("(no name)" without one), or for an anonymous
// web visitor "Website visitor 3F9K2A" in the window's language.
QString conversationName(const Conversation &v);
// Why the assistant handed a conversation to a person (Conversation::aiHandoff), as the end of a
// sentence in the window's language: "the knowledge base has no answer"; an unknown reason as it is.
QString handoffReason(const QString &reason);
} // namespace InboxText

// Tells the agent about a new incoming message while the window is not in front. The desktop hands
// it to the window's NotificationCenter (app/inboxarea.cpp); tests put a recording one in its place.
class InboxNotifier
{
public:
    virtual ~InboxNotifier() = default;
    virtual void notify(const QString &conversationId, const QString &title, const QString &text) = 0;
    // The agent opened the conversation: what was announced of it is read.
    virtual void read(const QString &conversationId) { Q_UNUSED(conversationId) }
};

// The contact side panel of the Inbox: the conversation's contact (name, phone, e-mail, company),
// its deals and its open tasks, with buttons that open them (the deal detail, the task dialog, the
// contact dialog). Follows the bus.
class InboxContactPanel : public QWidget
{
    Q_OBJECT
public:
    InboxContactPanel(const Store &store, QWidget *parent = nullptr);
    ~InboxContactPanel() override;

    void showContact(const QString &contactId);
    // A conversation without a contact (an anonymous web visitor's): says the visitor has not given
    // a name yet and offers "Create contact…", which attaches the conversation to the contact saved.
    void showVisitor(const QString &conversationId, const QString &label);
    QString visitorConversationId() const { return m_visitorConversationId; }
    QString contactId() const { return m_contactId; }
    // Call while no task dialog of the panel is open (the app sets it once at start).
    void setTasksTimeZone(const QTimeZone &tz);
    QListWidget *dealList() const { return m_deals; }
    QListWidget *taskList() const { return m_tasks; }

public slots:
    void reload();
    void openContact();
    void openDeal();
    void openTask();
    // The contact dialog for the visitor shown, empty but for its source; saving it attaches the
    // conversation (WidgetVisitorRepository::identify, as the widget's own identify does).
    void createContactForVisitor();

signals:
    // "Open contact": the app may show the Contacts area instead of the dialog.
    void contactRequested(const QString &contactId);

private:
    Store m_store;
    std::unique_ptr<ContactRepository> m_contacts;
    std::unique_ptr<DealRepository> m_dealRepo;
    std::unique_ptr<TaskRepository> m_taskRepo;
    PipelineRepository m_pipelines;
    QTimer m_reloadTimer;
    QString m_contactId;
    QLabel *m_name = nullptr;
    QTextEdit *m_details = nullptr;
    QListWidget *m_deals = nullptr;
    QListWidget *m_tasks = nullptr;
    QPushButton *m_openContact = nullptr;
    QPushButton *m_openDeal = nullptr;
    QPushButton *m_openTask = nullptr;
    QPushButton *m_createContact = nullptr;
    QLabel *m_dealsLabel = nullptr;
    QLabel *m_tasksLabel = nullptr;
    QString m_visitorConversationId;
    QString m_visitorLabel;
};

// The Inbox area: conversations (most recent activity first, with status, channel, "assigned to me",
// "unread" and "waiting" filters and unread badges), the selected thread with delivery ticks, a composer
// with quick replies ("/" or the Quick replies button), assign/close/reopen/tags, and the contact
// side panel. A new incoming message appears live and, when the window is not active, is announced
// through the InboxNotifier (a tray message on the desktop). Sending goes through
// the function set with setSender() — the app gives it the server's channel path (connector check,
// pending → sent/failed) so that the window sends exactly as the API does. Follows the event bus
// ("conversation", "message") live.
//
// The assistant (docs/api.md, "The assistant in the inbox"): its messages show as its own (its name
// and mark) with thumbs up and down under each whose answer is stored, which record the signed-in
// user's feedback (AiAnswerRepository::giveFeedback) and show it; its draft reply (a channel whose
// auto-reply is "suggest") is put into the empty composer under a bar that says so, with thumbs and
// "Discard"; the reply sent while it is there is the answer's message
// (AssistantConversation::draftSent). A conversation it handed over has a banner under the header
// with the reason and "Hand back to the assistant"; the list marks it.
//
// The composer's text belongs to the conversation it was written in (ComposerDrafts): switching to
// another conversation keeps it as that conversation's draft and shows the new one's own draft, so
// that nothing written for one customer can be sent to another. A reply whose send is refused leaves
// the composer: it shows in its own thread as "Not sent" with Retry, Edit and Discard.
class InboxView : public QWidget
{
    Q_OBJECT
public:
    // Sends text into a conversation; throws (std::exception) with a message to show on refusal.
    using Sender = std::function<Message(const QString &conversationId, const QString &text)>;

    InboxView(ConversationRepository &conversations, const Store &store, QWidget *parent = nullptr);
    ~InboxView() override;

    void setSender(Sender sender);
    // Canned answers offered by the Quick replies button and "/" in the composer; the saver is
    // called when the user edits them (the app stores them as inbox/quickReplies).
    void setQuickReplies(const QStringList &replies);
    QStringList quickReplies() const { return m_quickReplies; }
    void setQuickRepliesSaver(std::function<void(const QStringList &)> saver) { m_saveQuickReplies = std::move(saver); }
    // Inserts quick reply `index` into the composer at the cursor.
    void insertQuickReply(int index);
    // Opens the quick replies menu under the composer (what "/" in an empty composer does).
    void showQuickReplies();
    QMenu *quickRepliesMenu() const { return m_quickMenu; }
    // Replaces the tray notifier (not owned; nullptr: no notifications).
    void setNotifier(InboxNotifier *notifier) { m_notifier = notifier; }
    // Whether the window counts as in front (notifications only when it does not); tests set it.
    void setActiveCheck(std::function<bool()> check) { m_isActive = std::move(check); }
    void setTasksTimeZone(const QTimeZone &tz);
    InboxContactPanel *contactPanel() const { return m_contactPanel; }
    // Where a later composer part (attachments, templates) adds its buttons.
    QHBoxLayout *composerRow() const { return m_composerRow; }
    // Attachments, templates and the 24-hour hint of the composer (their senders are set on it).
    InboxComposer *composerExtras() const { return m_composerExtras; }
    // The signed-in agent ("Assign to me"); empty disables the button. Drafts are the user's own.
    void setCurrentUser(const QString &userId, const QString &name);
    // Replying to a conversation nobody has assigns it to the one who replied (inbox/assignOnReply,
    // on unless turned off).
    void setAssignOnReply(bool on) { m_assignOnReply = on; }
    // Keeps the drafts and unsent replies in this INI file (DATA/drafts.ini) rather than in memory.
    void setDraftsFile(const QString &iniPath);
    ComposerDrafts &drafts() const { return *m_drafts; }
    // Sends the conversation's unsent replies again, oldest first (stops at the first refusal).
    void retryUnsent();

    QString currentConversationId() const { return m_currentId; }
    // Selects a conversation in the list (and marks it read); one the search or a filter hides is
    // shown by widening the list to every conversation.
    bool selectConversation(const QString &id);
    // Shows a conversation from elsewhere in the window (a contact's "Send a message", a
    // notification): the list read again, its filters cleared when they hide it, the composer ready.
    bool openConversation(const QString &id);
    // The list of the conversations waiting for an answer (the "Waiting" filter), or of one channel
    // (empty: every channel), every other filter and the search cleared (what Home's figures open).
    void showFiltered(bool waiting, const QString &channel = {});
    // How many conversations the list shows at most (the most recent ones).
    static constexpr int kListLimit = 200;
    // The search over the list: every word begins a word of the contact's name (folded as the
    // contacts' search folds text); it waits this long after the last keystroke.
    QLineEdit *searchField() const { return m_search; }
    static constexpr int SearchDelayMs = 200;
    MessageEdit *composer() const { return m_composer; }
    // How many conversations have unread messages (ConversationRepository::unreadConversations), as
    // of the list's last reload (the bus's news reloads it): the badge above the list and the
    // window's navigation show it.
    int unreadCount() const { return m_unread; }
    // What the empty list's button does when there is no conversation at all: Settings → Channels
    // (the app sets it for those who may configure; unset: the empty list has no button).
    void setChannelsOpener(std::function<void()> open);
    QLabel *emptyHint() const { return m_emptyHint; }
    // The assistant's parts: the hand-off banner under the header, the bar of its draft over the
    // composer (each hidden when the conversation has none).
    QFrame *handoffBanner() const { return m_handoffBanner; }
    QFrame *aiDraftBar() const { return m_aiDraftBar; }

signals:
    void unreadCountChanged(int count);

public slots:
    void reload();
    // Puts the cursor in the search field, its text selected (Ctrl+F).
    void focusSearch();
    // Puts the cursor in the composer (Ctrl+N: a new reply).
    void focusComposer();

protected:
    // Delete (or Backspace) on the selected tag removes it.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void reloadList();
    // Every filter off (not the search), without reloading.
    void clearFilters();
    // What the empty list says when no search limits it.
    static QString emptyListHint();
    // The empty list's sentence and its one action, for the search and filters in force.
    void updateEmptyState();
    void reloadThread();
    void onSelectionChanged();
    void onBusChanged(EventBus::Entity entity, const QString &id, EventBus::Change change);
    void announceIfIncoming(const QString &messageId);
    void send();
    // Sends one reply into the current conversation; false (and the reason) when refused, else the
    // message's id in messageId.
    bool sendText(const QString &text, QString *why, QString *messageId = nullptr);
    // The assistant's parts of the open conversation (v: none selected).
    void updateHandoff(const std::optional<Conversation> &v);
    void updateAiDraft(const std::optional<Conversation> &v);
    // The draft's text into the composer (after what the agent wrote), from the bar's "Use".
    void useAiDraft();
    void discardAiDraft();
    // After a reply was sent as messageId: when the assistant's draft was in the composer, the reply
    // is its answer's message and the draft is gone.
    void linkSentDraft(const QString &messageId);
    void handBack();
    // Records the signed-in user's thumbs on the answer messageId names, and shows what was stored.
    void rateAnswer(const QString &messageId, int rating, const QString &reason, AiFeedbackButtons *buttons);
    // Tab reaches the thumbs of the message the thread's cursor is on (else of the last one), right
    // after the thread; the others are for the mouse, so that Tab does not pass through all of them.
    void updateThumbsTabOrder();
    void styleAssistantBars();
    // The composer's text is kept as the draft of the conversation it was written in; then the
    // composer shows the draft of `conversationId`.
    void switchDraft(const QString &conversationId);
    void saveDraft();
    // After a reply went out: the conversation becomes the replier's when nobody had it.
    void claimOnReply();
    void setComposerText(const QString &text);
    void updateUnsentBar();
    void editUnsent(const QString &unsentId);
    void discardUnsent(const QString &unsentId);
    void addTag();
    void removeTag();
    void assignTo(int index);
    void editQuickReplies();
    void rebuildQuickMenu();
    void reloadAssignees();
    void setStatus(const QString &status);
    void assignToMe();
    void showError(const QString &text);
    static QString tick(const Message &m);
    static QString tickMark(const QString &status);

    ConversationRepository &m_conversations;
    Store m_store;
    UserRepository m_users;
    Sender m_sender;
    QStringList m_quickReplies;
    std::function<void(const QStringList &)> m_saveQuickReplies;
    InboxNotifier *m_notifier = nullptr;
    std::function<bool()> m_isActive;
    QString m_userId;
    QString m_currentId;
    QLineEdit *m_search = nullptr;
    QLabel *m_emptyHint = nullptr;
    QTimer m_searchTimer;
    QComboBox *m_statusFilter = nullptr;
    QComboBox *m_channelFilter = nullptr;
    QCheckBox *m_mineFilter = nullptr;
    QCheckBox *m_unreadFilter = nullptr;
    QCheckBox *m_waitingFilter = nullptr;
    QLabel *m_unreadBadge = nullptr;
    int m_unread = 0;
    std::function<void()> m_openChannels;
    void styleUnreadBadge();
    QComboBox *m_assignee = nullptr;
    QListWidget *m_tags = nullptr;
    QLineEdit *m_tagEdit = nullptr;
    QPushButton *m_addTag = nullptr;
    QPushButton *m_removeTag = nullptr;
    QToolButton *m_quickButton = nullptr;
    QMenu *m_quickMenu = nullptr;
    QHBoxLayout *m_composerRow = nullptr;
    InboxComposer *m_composerExtras = nullptr;
    InboxContactPanel *m_contactPanel = nullptr;
    QListWidget *m_list = nullptr;
    ElidedLabel *m_header = nullptr;
    ElidedLabel *m_headerDetails = nullptr;
    QListWidget *m_thread = nullptr;
    MessageEdit *m_composer = nullptr;
    QPushButton *m_send = nullptr;
    QPushButton *m_close = nullptr;
    QPushButton *m_reopen = nullptr;
    QPushButton *m_assign = nullptr;
    QLabel *m_error = nullptr;
    QWidget *m_unsentBar = nullptr;
    QLabel *m_unsentLabel = nullptr;
    QPushButton *m_retryUnsent = nullptr;
    QPushButton *m_editUnsent = nullptr;
    QPushButton *m_discardUnsent = nullptr;
    QFrame *m_handoffBanner = nullptr;
    QLabel *m_handoffIcon = nullptr;
    QLabel *m_handoffLabel = nullptr;
    QPushButton *m_handBack = nullptr;
    QFrame *m_aiDraftBar = nullptr;
    QLabel *m_aiDraftIcon = nullptr;
    QLabel *m_aiDraftLabel = nullptr;
    QPushButton *m_useAiDraft = nullptr;
    AiFeedbackButtons *m_aiDraftFeedback = nullptr;
    QPushButton *m_discardAiDraft = nullptr;
    // The assistant's draft of the open conversation as last read (empty: none).
    QString m_aiDraftText;
    QString m_aiDraftAnswerId;
    // The assistant's drafts put into the composer, by conversation: which answer, the composer's
    // text then, and the agent's words before it (empty: it filled the composer). While the text is
    // as it was put, discarding the draft (or its going elsewhere) gives the agent's words back.
    struct PlacedDraft
    {
        QString answerId;
        QString text;
        QString before;
        bool whole() const { return before.trimmed().isEmpty(); }
    };
    QHash<QString, PlacedDraft> m_placedAiDrafts;
    // Whose messages the thread shows: reloading the same conversation keeps its scroll unless it
    // was at the end.
    QString m_threadConversationId;
    QTimer m_reloadTimer;
    bool m_loading = false;
    std::unique_ptr<ComposerDrafts> m_drafts;
    // The conversation whose draft the composer shows (empty: none).
    QString m_draftConversationId;
    bool m_settingComposer = false;
    bool m_assignOnReply = true;
    QTimer m_draftTimer;
};
