#pragma once

#include "model/deals/dealrepository.h"
#include "model/deals/pipelinerepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"

#include <QTimer>
#include <QWidget>

#include <functional>

class ContactRepository;
class QLabel;
class QMenu;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTextEdit;
class QToolButton;

// The right side of the contacts view: one contact's fields (the ones used most always shown, the
// rest folded under Details), its tags (add and remove), and tabs taking the rest of the height: a
// timeline of everything that happened with it, its notes (oldest first, add one), its deals,
// conversations and tasks. Changes go straight to the repository, which tells the event
// bus; the view then refreshes the table.
class ContactDetailPane : public QWidget
{
    Q_OBJECT
public:
    explicit ContactDetailPane(ContactRepository &contacts, QWidget *parent = nullptr);

    // Shows this contact (an empty id, or one that no longer exists, shows the empty state).
    void showContact(const QString &id);
    QString contactId() const { return m_id; }
    QTabWidget *tabs() const { return m_tabs; }

    // The next thing to do with the shown contact, each prefilled with the contact (and the signed-in
    // user as owner or assignee): a new deal, a new task (with its reminder), a message on one of
    // its channels. The buttons under the Deals, Tasks and Conversations tabs call them.
    void newDeal();
    void newTask();
    // The menu of channels to write on: each conversation of the contact, and WhatsApp to its phone
    // when it has none there yet (made when chosen).
    QMenu *messageMenu() const { return m_messageMenu; }

signals:
    // A double-click on one of the contact's deals or conversations; "Message" on a channel (the
    // conversation is opened in the Inbox, its composer ready).
    void dealActivated(const QString &dealId);
    void conversationActivated(const QString &conversationId);
    // Whether a contact is shown now (false: the empty state); the contacts view gives the pane's
    // room back to the table while it has nothing to show.
    void contactShown(bool shown);

public slots:
    // Reads the shown contact again (after a change made elsewhere).
    void reload();
    // reload() after a short pause (coalesces a burst of changes to its deals, tasks, messages).
    void reloadSoon();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The tabs' titles from their counts, short where the full ones do not fit.
    void retitleTabs();
    // Shows or folds the fields under Details (address, source, lead score, dates).
    void showDetails(bool shown);
    // The tag list as tall as its chips' lines at its width (one or two).
    void fitTags();
    void addTags();
    void removeSelectedTag();
    void addNote();
    void openTask(const QString &taskId);
    void fillMessageMenu();
    // Runs a write to the shown contact: shows its refusal or clears the last one, then reloads.
    bool write(const std::function<void()> &change);
    void setError(const QString &message);

    ContactRepository &m_contacts;
    DealRepository m_deals;
    PipelineRepository m_pipelines;
    ConversationRepository m_conversations;
    TaskRepository m_tasks;
    QString m_id;

    QStackedWidget *m_stack = nullptr;
    QLabel *m_title = nullptr;
    QToolButton *m_detailsToggle = nullptr; // shows the fields under it, or folds them
    QWidget *m_details = nullptr;           // those fields
    QTextEdit *m_email = nullptr;           // wraps a long address anywhere
    QLabel *m_phone = nullptr;
    QLabel *m_company = nullptr;
    QLabel *m_position = nullptr;
    QLabel *m_address = nullptr;
    QLabel *m_source = nullptr;
    QLabel *m_leadScore = nullptr;
    QLabel *m_created = nullptr;
    QLabel *m_updated = nullptr;
    QListWidget *m_tags = nullptr;
    QPushButton *m_removeTag = nullptr;
    QLineEdit *m_newTag = nullptr;
    QPushButton *m_addTag = nullptr;
    QListWidget *m_notes = nullptr;
    QPlainTextEdit *m_newNote = nullptr;
    QPushButton *m_addNote = nullptr;
    QTabWidget *m_tabs = nullptr;
    QListWidget *m_timeline = nullptr;         // notes, deals and their activities, conversations, tasks: newest first
    QListWidget *m_dealList = nullptr;         // the contact's deals
    QListWidget *m_conversationList = nullptr; // its conversations, newest first
    QListWidget *m_taskList = nullptr;         // the contact's tasks, open ones first
    QPushButton *m_newDeal = nullptr;
    QPushButton *m_newTask = nullptr;
    QPushButton *m_message = nullptr;
    QMenu *m_messageMenu = nullptr;
    QTimer m_reloadTimer;
    QLabel *m_error = nullptr;
};
