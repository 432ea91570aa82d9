#pragma once

#include "model/contacts/contact.h"
#include "ui/shell/fielderrors.h"

#include <QDialog>
#include <QHash>
#include <QJsonObject>

#include <functional>

class ContactRepository;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

// Creates or edits a contact. OK builds the same JSON body an API client would send (create: the
// filled fields; edit: only the changed ones, null for a cleared one) and hands it to the
// repository, so the window and the API share one validation. A refusal keeps the dialog open with
// the message on top and each field's detail under that field.
class ContactDialog : public QDialog
{
    Q_OBJECT
public:
    // A new contact.
    explicit ContactDialog(ContactRepository &contacts, QWidget *parent = nullptr);
    // Edits an existing contact.
    ContactDialog(ContactRepository &contacts, const Contact &contact, QWidget *parent = nullptr);

    bool isEditing() const { return !m_original.id.isEmpty(); }
    // What OK stores now: for a new contact what is filled in, for an edit what differs from the
    // stored contact (an emptied field is cleared).
    ContactChanges changes() const;
    // The stored contact after a successful OK.
    const Contact &savedContact() const { return m_saved; }
    // A new contact's fields filled in from c before the user types (the empty ones stay empty).
    void prefill(const Contact &c);
    // What OK does with a new contact's changes instead of ContactRepository::create (the Inbox
    // creates a web visitor's contact and attaches its conversation in one go); refusals show as
    // create's do.
    void setCreate(std::function<Contact(const ContactChanges &)> create) { m_create = std::move(create); }

    void accept() override;

signals:
    void contactSaved(const QString &id);

private:
    void build();
    void load(const Contact &c);
    QLineEdit *addField(const QString &key, const QString &label, const QString &placeholder = {});
    // The field whose label shows an error detail.
    static QString fieldOf(const QString &detailKey);
    void showError(const QString &message, const QJsonObject &details);

    ContactRepository &m_contacts;
    std::function<Contact(const ContactChanges &)> m_create;
    Contact m_original;
    Contact m_saved;

    QFormLayout *m_form = nullptr;
    QHash<QString, QLineEdit *> m_edits; // JSON key ("firstName", "street", …) -> field
    FieldErrors m_errors;                // the red labels, keyed by JSON key
    QComboBox *m_source = nullptr;
    QSpinBox *m_leadScore = nullptr;
};
