#include "ui/tasks/taskdialog.h"

#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/errors.h"
#include "model/deals/dealrepository.h"
#include "model/tasks/taskrepository.h"
#include "ui/shell/errortext.h"
#include "ui/shell/recordpicker.h"
#include "ui/shell/uikit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTimeEdit>
#include <QVBoxLayout>

TaskDialog::TaskDialog(TaskRepository &tasks, QWidget *parent)
    : QDialog(parent)
    , m_tasks(tasks)
{
    build();
    UiKit::nameFormFields(this); // each field named by its row's label, for a screen reader
    setWindowTitle(tr("New task"));
    m_dueDate->setDate(m_tasks.today());
    // A new task is the signed-in user's unless they give it to someone else.
    if (const QString me = m_tasks.store().actorOr({}); !me.isEmpty())
        m_assignee->setCurrentIndex(qMax(0, m_assignee->findData(me)));
}

TaskDialog::TaskDialog(TaskRepository &tasks, const Task &task, QWidget *parent)
    : QDialog(parent)
    , m_tasks(tasks)
    , m_original(task)
{
    build();
    UiKit::nameFormFields(this); // each field named by its row's label, for a screen reader
    setWindowTitle(tr("Edit task"));
    load(task);
}

void TaskDialog::build()
{
    setObjectName(QStringLiteral("taskDialog"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_errors.createFormLabel(this));
    m_form = new QFormLayout;
    layout->addLayout(m_form);

    auto cell = [this](QWidget *w, const QString &key) { return m_errors.cell(w, {key}, this); };
    auto row = [this](std::initializer_list<QWidget *> widgets) { return FieldErrors::row(widgets, this); };

    m_title = new QLineEdit(this);
    m_title->setObjectName(QStringLiteral("titleEdit"));
    m_title->setPlaceholderText(tr("What needs doing?"));
    m_title->setAccessibleName(tr("Title", "the title field, as a screen reader names it"));
    m_form->addRow(tr("Title:"), cell(m_title, QStringLiteral("title")));
    m_description = new QPlainTextEdit(this);
    m_description->setObjectName(QStringLiteral("descriptionEdit"));
    m_description->setFixedHeight(4 * fontMetrics().height());
    m_form->addRow(tr("Description:"), cell(m_description, QStringLiteral("description")));

    m_type = new QComboBox(this);
    m_type->setObjectName(QStringLiteral("typeCombo"));
    m_type->addItem(tr("Task"), QStringLiteral("task"));
    m_type->addItem(tr("Call"), QStringLiteral("call"));
    m_type->addItem(tr("Meeting"), QStringLiteral("meeting"));
    m_type->addItem(tr("E-mail"), QStringLiteral("email"));
    m_type->addItem(tr("Follow-up"), QStringLiteral("followup"));
    m_priority = new QComboBox(this);
    m_priority->setObjectName(QStringLiteral("priorityCombo"));
    m_priority->addItem(tr("Low"), QStringLiteral("low"));
    m_priority->addItem(tr("Medium"), QStringLiteral("medium"));
    m_priority->addItem(tr("High"), QStringLiteral("high"));
    m_priority->addItem(tr("Urgent"), QStringLiteral("urgent"));
    m_priority->setCurrentIndex(1);
    m_status = new QComboBox(this);
    m_status->setObjectName(QStringLiteral("statusCombo"));
    m_status->addItem(tr("To do"), QStringLiteral("pending"));
    m_status->addItem(tr("In progress"), QStringLiteral("in_progress"));
    m_status->addItem(tr("Done"), QStringLiteral("completed"));
    m_status->addItem(tr("Cancelled"), QStringLiteral("cancelled"));
    m_form->addRow(tr("Type:"),
                   row({m_type, new QLabel(tr("Priority:")), m_priority, new QLabel(tr("Status:")), m_status}));
    m_form->addRow(QString(), m_errors.addLabel(QStringLiteral("status"), this));

    m_hasDue = new QCheckBox(tr("Due"), this);
    m_hasDue->setObjectName(QStringLiteral("hasDueCheck"));
    m_dueDate = new QDateEdit(this);
    m_dueDate->setObjectName(QStringLiteral("dueDateEdit"));
    m_dueDate->setCalendarPopup(true);
    m_hasTime = new QCheckBox(tr("at"), this);
    m_hasTime->setObjectName(QStringLiteral("hasTimeCheck"));
    m_dueTime = new QTimeEdit(QTime(9, 0), this);
    m_dueTime->setObjectName(QStringLiteral("dueTimeEdit"));
    m_form->addRow(tr("Due date:"), cell(row({m_hasDue, m_dueDate, m_hasTime, m_dueTime}), QStringLiteral("dueDate")));

    m_contact = createContactPicker(ContactRepository(m_tasks.store()), this);
    m_form->addRow(tr("Contact:"), cell(m_contact, QStringLiteral("contactId")));

    m_deal = createDealPicker(DealRepository(m_tasks.store()), this);
    m_form->addRow(tr("Deal:"), cell(m_deal, QStringLiteral("dealId")));

    m_assignee = new QComboBox(this);
    m_assignee->setObjectName(QStringLiteral("assigneeCombo"));
    fillActiveUsers(m_assignee, tr("(unassigned)"), UserRepository(m_tasks.store()));
    m_form->addRow(tr("Assigned to:"), cell(m_assignee, QStringLiteral("assignedTo")));

    m_remind = new QCheckBox(tr("Remind me"), this);
    m_remind->setObjectName(QStringLiteral("remindCheck"));
    m_before = new QSpinBox(this);
    m_before->setObjectName(QStringLiteral("beforeSpin"));
    m_before->setRange(0, 525600);
    m_before->setValue(15);
    m_before->setSuffix(tr(" minutes before"));
    m_form->addRow(tr("Reminder:"), cell(row({m_remind, m_before}), QStringLiteral("reminder")));

    m_frequency = new QComboBox(this);
    m_frequency->setObjectName(QStringLiteral("frequencyCombo"));
    m_frequency->addItem(tr("Does not repeat"), QString());
    m_frequency->addItem(tr("Daily"), QStringLiteral("daily"));
    m_frequency->addItem(tr("Weekly"), QStringLiteral("weekly"));
    m_frequency->addItem(tr("Monthly"), QStringLiteral("monthly"));
    m_frequency->addItem(tr("Yearly"), QStringLiteral("yearly"));
    m_interval = new QSpinBox(this);
    m_interval->setObjectName(QStringLiteral("intervalSpin"));
    m_interval->setRange(1, 1000);
    m_interval->setPrefix(tr("every "));
    auto *days = new QWidget(this);
    auto *daysLayout = new QHBoxLayout(days);
    daysLayout->setContentsMargins(0, 0, 0, 0);
    const QStringList dayLabels{tr("Mon"), tr("Tue"), tr("Wed"), tr("Thu"), tr("Fri"), tr("Sat"), tr("Sun")};
    for (int i = 0; i < 7; ++i) {
        auto *box = new QCheckBox(dayLabels.at(i), days);
        box->setObjectName(TaskRules::Days.at(i) + QLatin1String("Check"));
        daysLayout->addWidget(box);
        m_days << box;
    }
    daysLayout->addStretch(1);
    m_hasEnd = new QCheckBox(tr("until"), this);
    m_hasEnd->setObjectName(QStringLiteral("hasEndCheck"));
    m_endDate = new QDateEdit(m_tasks.today().addMonths(3), this);
    m_endDate->setObjectName(QStringLiteral("endDateEdit"));
    m_endDate->setCalendarPopup(true);
    auto *recurrence = new QWidget(this);
    auto *recLayout = new QVBoxLayout(recurrence);
    recLayout->setContentsMargins(0, 0, 0, 0);
    recLayout->addWidget(row({m_frequency, m_interval, m_hasEnd, m_endDate}));
    recLayout->addWidget(days);
    m_form->addRow(tr("Repeat:"), cell(recurrence, QStringLiteral("recurrence")));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &TaskDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &TaskDialog::reject);
    layout->addWidget(buttons);

    for (QCheckBox *box : {m_hasDue, m_hasTime, m_remind, m_hasEnd})
        connect(box, &QCheckBox::toggled, this, &TaskDialog::updateEnabled);
    connect(m_frequency, &QComboBox::currentIndexChanged, this, &TaskDialog::updateEnabled);
    updateEnabled();
}

void TaskDialog::updateEnabled()
{
    m_dueDate->setEnabled(m_hasDue->isChecked());
    m_hasTime->setEnabled(m_hasDue->isChecked());
    m_dueTime->setEnabled(m_hasDue->isChecked() && m_hasTime->isChecked());
    m_before->setEnabled(m_remind->isChecked());
    const QString freq = m_frequency->currentData().toString();
    m_interval->setEnabled(!freq.isEmpty());
    m_hasEnd->setEnabled(!freq.isEmpty());
    m_endDate->setEnabled(!freq.isEmpty() && m_hasEnd->isChecked());
    for (QCheckBox *box : std::as_const(m_days))
        box->setEnabled(freq == QLatin1String("weekly"));
}

void TaskDialog::setContactId(const QString &contactId)
{
    const std::optional<Contact> c =
        contactId.isEmpty() ? std::nullopt : ContactRepository(m_tasks.store()).find(contactId);
    m_contact->setCurrent(c ? c->id : QString(), c ? c->displayName() : QString());
}

void TaskDialog::setDealId(const QString &dealId)
{
    const std::optional<Deal> d = dealId.isEmpty() ? std::nullopt : DealRepository(m_tasks.store()).find(dealId);
    m_deal->setCurrent(d ? d->id : QString(), d ? d->name : QString());
}

void TaskDialog::load(const Task &t)
{
    m_title->setText(t.title);
    m_description->setPlainText(t.description);
    m_type->setCurrentIndex(qMax(0, m_type->findData(t.type)));
    m_priority->setCurrentIndex(qMax(0, m_priority->findData(t.priority)));
    m_status->setCurrentIndex(qMax(0, m_status->findData(t.status)));
    m_hasDue->setChecked(!t.dueDate.isEmpty());
    m_hasTime->setChecked(!t.dueDate.isEmpty() && !t.isAllDay());
    if (!t.dueDate.isEmpty()) {
        m_dueDate->setDate(t.dueDay(m_tasks.timeZone()));
        if (!t.isAllDay())
            m_dueTime->setTime(t.dueInstant(m_tasks.timeZone()).toTimeZone(m_tasks.timeZone()).time());
    } else {
        m_dueDate->setDate(m_tasks.today());
    }
    setContactId(t.contactId);
    setDealId(t.dealId);
    if (!t.assignedTo.isEmpty() && m_assignee->findData(t.assignedTo) < 0) {
        const QString name = UserRepository::actorName(t.assignedTo);
        m_assignee->addItem(name.isEmpty() ? t.assignedTo : name, t.assignedTo);
    }
    m_assignee->setCurrentIndex(qMax(0, m_assignee->findData(t.assignedTo)));
    m_remind->setChecked(t.reminder.enabled);
    m_before->setValue(t.reminder.before);
    m_frequency->setCurrentIndex(qMax(0, m_frequency->findData(t.recurrence.frequency)));
    m_interval->setValue(t.recurrence.interval);
    for (int i = 0; i < 7; ++i)
        m_days.at(i)->setChecked(t.recurrence.daysOfWeek.contains(TaskRules::Days.at(i)));
    m_hasEnd->setChecked(!t.recurrence.endDate.isEmpty());
    if (!t.recurrence.endDate.isEmpty())
        m_endDate->setDate(QDate::fromString(t.recurrence.endDate, Qt::ISODate));
    updateEnabled();
}

TaskChanges TaskDialog::changes() const
{
    TaskChanges c;
    c.title = m_title->text().trimmed();
    c.description = m_description->toPlainText().trimmed();
    c.type = m_type->currentData().toString();
    c.priority = m_priority->currentData().toString();
    const QString status = m_status->currentData().toString();
    if (!isEditing() || status != m_original.status)
        c.status = status;
    if (!m_hasDue->isChecked())
        c.dueDate = QString();
    else if (!m_hasTime->isChecked())
        c.dueDate = m_dueDate->date().toString(Qt::ISODate);
    else
        c.dueDate = TimeUtil::iso(QDateTime(m_dueDate->date(), m_dueTime->time(), m_tasks.timeZone()));
    c.contactId = m_contact->currentId();
    c.dealId = m_deal->currentId();
    const QString assignee = m_assignee->currentData().toString();
    // Unchanged on edit: an assignment made elsewhere (PATCH /tasks/:id/assign) is kept.
    if (!isEditing() || assignee != m_original.assignedTo)
        c.assignedTo = assignee;
    c.reminderEnabled = m_remind->isChecked();
    c.reminderBefore = m_before->value();
    TaskRecurrence recurrence; // no frequency: none (an existing one is cleared)
    recurrence.frequency = m_frequency->currentData().toString();
    if (recurrence.isActive()) {
        recurrence.interval = m_interval->value();
        if (recurrence.frequency == QLatin1String("weekly")) {
            for (int i = 0; i < 7; ++i) {
                if (m_days.at(i)->isChecked())
                    recurrence.daysOfWeek << TaskRules::Days.at(i);
            }
        }
        if (m_hasEnd->isChecked())
            recurrence.endDate = m_endDate->date().toString(Qt::ISODate);
    }
    c.recurrence = recurrence;
    return c;
}

void TaskDialog::showError(const QString &message, const QJsonObject &details)
{
    // A nested detail ("recurrence.interval") shows under its first part, with its key.
    m_errors.show(
        message, details, [](const QString &key) { return key.section(QLatin1Char('.'), 0, 0); },
        FieldErrors::ShowNestedKeys);
}

void TaskDialog::accept()
{
    m_errors.clear();
    try {
        if (isEditing())
            m_saved = m_tasks.update(m_original.id, changes()).task;
        else
            m_saved = m_tasks.create(changes());
    } catch (const DomainError &e) {
        showError(ErrorText::of(e), ErrorText::details(e));
        return;
    } catch (const std::exception &e) {
        showError(ErrorText::of(e), {});
        return;
    }
    emit taskSaved(m_saved.id);
    QDialog::accept();
}
