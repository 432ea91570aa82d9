#pragma once

#include "model/tasks/task.h"
#include "ui/shell/fielderrors.h"

#include <QDialog>
#include <QHash>
#include <QJsonObject>

class TaskRepository;
class QCheckBox;
class QComboBox;
class RecordPicker;
class QDateEdit;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTimeEdit;

// Creates or edits a task, with its reminder and recurrence. OK builds the JSON body an API client
// would send and hands it to the repository (one validation for window and API); a refusal keeps
// the dialog open with the message on top and each field's detail under that field.
class TaskDialog : public QDialog
{
    Q_OBJECT
public:
    explicit TaskDialog(TaskRepository &tasks, QWidget *parent = nullptr);
    TaskDialog(TaskRepository &tasks, const Task &task, QWidget *parent = nullptr);

    bool isEditing() const { return !m_original.id.isEmpty(); }
    // What OK stores now. On an edit, the status and the assignee only when changed here (a move or
    // an assignment made elsewhere is kept).
    TaskChanges changes() const;
    const Task &savedTask() const { return m_saved; }
    // Preselects a contact for a new task.
    void setContactId(const QString &contactId);
    // Preselects a deal for a new task (the deal detail's "Add task…").
    void setDealId(const QString &dealId);

    void accept() override;

signals:
    void taskSaved(const QString &id);

private:
    void build();
    void load(const Task &t);
    void showError(const QString &message, const QJsonObject &details);
    void updateEnabled();

    TaskRepository &m_tasks;
    Task m_original;
    Task m_saved;

    QFormLayout *m_form = nullptr;
    FieldErrors m_errors;
    QLineEdit *m_title = nullptr;
    QPlainTextEdit *m_description = nullptr;
    QComboBox *m_type = nullptr;
    QComboBox *m_priority = nullptr;
    QComboBox *m_status = nullptr;
    QCheckBox *m_hasDue = nullptr;
    QDateEdit *m_dueDate = nullptr;
    QCheckBox *m_hasTime = nullptr;
    QTimeEdit *m_dueTime = nullptr;
    RecordPicker *m_contact = nullptr;
    RecordPicker *m_deal = nullptr;
    QComboBox *m_assignee = nullptr;
    QCheckBox *m_remind = nullptr;
    QSpinBox *m_before = nullptr;
    QComboBox *m_frequency = nullptr;
    QSpinBox *m_interval = nullptr;
    QList<QCheckBox *> m_days;
    QCheckBox *m_hasEnd = nullptr;
    QDateEdit *m_endDate = nullptr;
};
