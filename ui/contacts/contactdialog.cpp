#include "ui/contacts/contactdialog.h"

#include "model/contacts/contact.h"
#include "model/contacts/contactrepository.h"
#include "model/core/errors.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {
const char *const AddressKeys[] = {"street", "city", "country"};

QStringList splitTags(const QString &text)
{
    QStringList tags;
    for (const QString &part : text.split(QLatin1Char(','))) {
        if (!part.trimmed().isEmpty())
            tags << part.trimmed();
    }
    return tags;
}
} // namespace

ContactDialog::ContactDialog(ContactRepository &contacts, QWidget *parent)
    : QDialog(parent)
    , m_contacts(contacts)
{
    build();
    UiKit::nameFormFields(this); // each field named by its row's label, for a screen reader
    setWindowTitle(tr("New contact"));
}

ContactDialog::ContactDialog(ContactRepository &contacts, const Contact &contact, QWidget *parent)
    : QDialog(parent)
    , m_contacts(contacts)
    , m_original(contact)
{
    build();
    UiKit::nameFormFields(this); // each field named by its row's label, for a screen reader
    setWindowTitle(tr("Edit %1").arg(contact.displayName()));
    load(contact);
}

QLineEdit *ContactDialog::addField(const QString &key, const QString &label, const QString &placeholder)
{
    auto *edit = new QLineEdit(this);
    edit->setObjectName(key + QLatin1String("Edit"));
    edit->setPlaceholderText(placeholder);
    m_edits.insert(key, edit);

    m_form->addRow(label, m_errors.cell(edit, {key}, this));
    return edit;
}

void ContactDialog::build()
{
    setObjectName(QStringLiteral("contactDialog"));
    auto *layout = new QVBoxLayout(this);

    layout->addWidget(m_errors.createFormLabel(this));

    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(m_form);

    addField(QStringLiteral("firstName"), tr("First name:"));
    addField(QStringLiteral("lastName"), tr("Last name:"));
    addField(QStringLiteral("email"), tr("E-mail:"), tr("name@example.com"));
    addField(QStringLiteral("phone"), tr("Phone:"), tr("+90 532 123 45 67"));
    addField(QStringLiteral("company"), tr("Company:"));
    addField(QStringLiteral("position"), tr("Position:"));
    addField(QStringLiteral("street"), tr("Street:"));
    addField(QStringLiteral("city"), tr("City:"));
    addField(QStringLiteral("country"), tr("Country:"));
    addField(QStringLiteral("tags"), tr("Tags:"), tr("comma separated, e.g. vip, istanbul"));

    m_source = new QComboBox(this);
    m_source->setObjectName(QStringLiteral("sourceCombo"));
    m_source->setEditable(true);
    m_source->setInsertPolicy(QComboBox::NoInsert);
    m_source->addItems({QString(), QStringLiteral("manual"), QStringLiteral("whatsapp"), QStringLiteral("instagram"),
                        QStringLiteral("telegram"), QStringLiteral("widget"), QStringLiteral("import")});
    m_form->addRow(tr("Source:"), m_errors.cell(m_source, {QStringLiteral("source")}, this));

    m_leadScore = new QSpinBox(this);
    m_leadScore->setObjectName(QStringLiteral("leadScoreSpin"));
    m_leadScore->setRange(0, 100);
    m_form->addRow(tr("Lead score:"), m_errors.cell(m_leadScore, {QStringLiteral("leadScore")}, this));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->setObjectName(QStringLiteral("buttons"));
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Save"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ContactDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ContactDialog::reject);
    layout->addWidget(buttons);

    setMinimumWidth(420);
}

void ContactDialog::load(const Contact &c)
{
    m_edits.value(QStringLiteral("firstName"))->setText(c.firstName);
    m_edits.value(QStringLiteral("lastName"))->setText(c.lastName);
    m_edits.value(QStringLiteral("email"))->setText(c.email);
    m_edits.value(QStringLiteral("phone"))->setText(c.phone);
    m_edits.value(QStringLiteral("company"))->setText(c.company);
    m_edits.value(QStringLiteral("position"))->setText(c.position);
    for (const char *key : AddressKeys)
        m_edits.value(QLatin1String(key))->setText(c.address.value(QLatin1String(key)).toString());
    m_edits.value(QStringLiteral("tags"))->setText(c.tags.join(QLatin1String(", ")));
    m_source->setCurrentText(c.source);
    m_leadScore->setValue(c.leadScore);
}

void ContactDialog::prefill(const Contact &c)
{
    load(c);
}

ContactChanges ContactDialog::changes() const
{
    // A new contact gets what is filled in; an edit only what differs from the stored contact (an
    // emptied field is cleared).
    const bool edit = isEditing();
    ContactChanges changes;

    const auto text = [this](const char *key) { return m_edits.value(QLatin1String(key))->text().trimmed(); };
    const auto putText = [&](std::optional<QString> &field, const QString &value, const QString &original) {
        if (edit ? value != original : !value.isEmpty())
            field = value;
    };
    putText(changes.firstName, text("firstName"), m_original.firstName);
    putText(changes.lastName, text("lastName"), m_original.lastName);
    putText(changes.email, text("email"), m_original.email);
    putText(changes.phone, text("phone"), m_original.phone);
    putText(changes.company, text("company"), m_original.company);
    putText(changes.position, text("position"), m_original.position);
    putText(changes.source, m_source->currentText().trimmed(), m_original.source);

    QJsonObject address;
    QJsonObject originalAddress;
    for (const char *key : AddressKeys) {
        if (!text(key).isEmpty())
            address.insert(QLatin1String(key), text(key));
        const QString part = m_original.address.value(QLatin1String(key)).toString();
        if (!part.isEmpty())
            originalAddress.insert(QLatin1String(key), part);
    }
    if (edit ? address != originalAddress : !address.isEmpty())
        changes.address = address;

    const QStringList tags = splitTags(text("tags"));
    if (edit ? tags != m_original.tags : !tags.isEmpty())
        changes.tags = tags;

    if (!edit || m_leadScore->value() != m_original.leadScore)
        changes.leadScore = m_leadScore->value();
    return changes;
}

void ContactDialog::accept()
{
    m_errors.clear();
    const ContactChanges request = changes();
    try {
        if (isEditing()) {
            m_saved = request.isEmpty() ? m_original : m_contacts.update(m_original.id, request);
        } else {
            m_saved = m_create ? m_create(request) : m_contacts.create(request);
        }
    } catch (const DomainError &e) {
        QJsonObject details = ErrorText::details(e);
        QString message = ErrorText::of(e);
        // A duplicate names the contact that has the e-mail or phone already, not its id.
        if (details.contains(QLatin1String("existingId"))) {
            const QString id = details.take(QLatin1String("existingId")).toString();
            std::optional<Contact> other;
            try {
                other = m_contacts.find(id);
            } catch (const std::exception &) {
            }
            // With what tells namesakes apart: the e-mail (or the phone) and the company.
            QString name = tr("another contact");
            if (other) {
                const bool byPhone = details.contains(QLatin1String("phone"));
                QStringList marks;
                const QString reach = byPhone ? other->email : other->phone;
                if (!reach.isEmpty())
                    marks << reach;
                if (!other->company.isEmpty())
                    marks << other->company;
                name = marks.isEmpty() ? other->displayName()
                                       : tr("%1 (%2)").arg(other->displayName(), marks.join(QStringLiteral(", ")));
            }
            const bool phone = details.contains(QLatin1String("phone"));
            message = phone ? tr("This phone number already belongs to %1.").arg(name)
                            : tr("This e-mail address already belongs to %1.").arg(name);
            details.insert(phone ? QStringLiteral("phone") : QStringLiteral("email"),
                           tr("already belongs to %1").arg(name));
        }
        // A local number while no country is set: say where it is set.
        const QString phone = m_edits.value(QStringLiteral("phone"))->text().trimmed();
        if (details.contains(QLatin1String("phone")) && !phone.startsWith(QLatin1Char('+')) &&
            ContactRules::defaultCallingCode().isEmpty()) {
            details.insert(QStringLiteral("phone"),
                           tr("needs its country code (+90 532 …), or set the country of local "
                              "numbers in Settings → Contacts"));
        }
        showError(message, details);
        return;
    } catch (const std::exception &e) {
        showError(tr("The contact could not be saved: %1").arg(ErrorText::of(e)), {});
        return;
    }
    emit contactSaved(m_saved.id);
    QDialog::accept();
}

QString ContactDialog::fieldOf(const QString &detailKey)
{
    // Details name a field as the API does: "email", "address.city", "tags[2]", "address".
    QString key = detailKey;
    const qsizetype cut = key.indexOf(QLatin1Char('['));
    if (cut >= 0)
        key.truncate(cut);
    if (key.startsWith(QLatin1String("address.")))
        key = key.mid(8);
    else if (key == QLatin1String("address"))
        key = QStringLiteral("street");
    return key;
}

void ContactDialog::showError(const QString &message, const QJsonObject &details)
{
    const QString key = m_errors.show(message, details, &ContactDialog::fieldOf, FieldErrors::ListUnplaced);
    QWidget *firstBad = m_edits.value(key);
    if (!firstBad && key == QLatin1String("source"))
        firstBad = m_source;
    else if (!firstBad && key == QLatin1String("leadScore"))
        firstBad = m_leadScore;
    if (firstBad)
        firstBad->setFocus();
}
