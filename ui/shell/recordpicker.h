#pragma once

#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/deals/dealrepository.h"

#include <QString>
#include <QVector>
#include <QWidget>

#include <functional>

class QAbstractItemView;
class QComboBox;
class QCompleter;
class QLineEdit;
class QStandardItemModel;
class QTimer;

// A searchable choice of one record (a contact, a deal) for a form: the user types, the matches of
// the whole table (never a first page of it) appear under the field with what tells namesakes
// apart (e-mail, phone, company; a deal's contact, stage and value), and a click or Enter chooses
// one. Clearing the text chooses none. Text that names no choice when the field loses focus goes
// back to the current choice, or chooses the only match: the field never holds a half-chosen value.
class RecordPicker : public QWidget
{
    Q_OBJECT
public:
    struct Choice
    {
        QString id;
        QString title;  // what the field shows once chosen
        QString detail; // what tells it from its namesakes in the list
    };
    // The matches for what was typed (empty text: the most recent ones), best first.
    using Search = std::function<QVector<Choice>(const QString &text)>;

    static constexpr int kDebounceMs = 120;
    static constexpr int IdRole = Qt::UserRole + 1; // of the offered rows
    static constexpr int TitleRole = Qt::UserRole + 2;
    static constexpr int kMaxChoices = 30;

    RecordPicker(Search search, const QString &placeholder, QWidget *parent = nullptr);
    // Disconnects the field first: destroying it with focus emits editingFinished, which must not
    // reach this half-destroyed picker.
    ~RecordPicker() override;

    QString currentId() const { return m_id; }
    QString currentTitle() const { return m_title; }
    // Chooses id (shown as title); an empty id chooses none.
    void setCurrent(const QString &id, const QString &title);
    QLineEdit *lineEdit() const { return m_edit; }
    // The list under the field (for tests: what is offered now).
    QStandardItemModel *choices() const { return m_model; }
    QAbstractItemView *popup() const;
    // Searches now instead of after the typing pause (for tests).
    void searchNow();

Q_SIGNALS:
    void currentChanged(const QString &id);

private:
    void refill(const QVector<Choice> &choices);
    void choose(const QString &id, const QString &title);
    void settle();

    Search m_search;
    QLineEdit *m_edit;
    QCompleter *m_completer;
    QStandardItemModel *m_model;
    QTimer *m_debounce;
    QString m_id;
    QString m_title;
    bool m_choosing = false;
};

// The pickers of the forms: every contact (full-text search over name, e-mail, phone, company) and
// every deal (name, contact, company).
RecordPicker *createContactPicker(const ContactRepository &contacts, QWidget *parent);
RecordPicker *createDealPicker(const DealRepository &deals, QWidget *parent);

// Fills the choice of a user to assign (a deal's owner, a task's or a conversation's assignee):
// `none` (data: an empty id) and then the active users by name (their e-mail when nameless), data
// their ids. A deactivated user keeps what they hold but takes nothing new. When the users cannot be
// read, `none` alone.
void fillActiveUsers(QComboBox *combo, const QString &none, const UserRepository &users);
