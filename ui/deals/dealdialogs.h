#pragma once

#include "model/core/store.h"
#include "model/tasks/taskrepository.h"

#include "model/deals/pipeline.h"

#include <QDialog>
#include <QTimeZone>

class AmountEdit;
class DealRepository;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

// Asks for the closing data when a card is dropped on Won: the closed value (default: the deal's
// value; an AmountEdit, so an empty or refused amount keeps the dialog open) and a note. OK stores
// it; an error stays in the dialog.
class WonDialog : public QDialog
{
    Q_OBJECT
public:
    WonDialog(DealRepository &deals, const QString &dealId, QWidget *parent = nullptr);
    // The amount field's news stops before the dialog's members go (its focus leaving as the
    // dialog's children are deleted reached a half-destroyed dialog).
    ~WonDialog() override;
    void accept() override;

private:
    DealRepository &m_deals;
    QString m_dealId;
    AmountEdit *m_closedValue;
    QPlainTextEdit *m_note;
    QLabel *m_error;
    bool m_amountRefused = false; // m_error shows why the closed value was refused
};

// Asks why a deal was lost (the reason list of the API), the competitor and a note.
class LostDialog : public QDialog
{
    Q_OBJECT
public:
    LostDialog(DealRepository &deals, const QString &dealId, QWidget *parent = nullptr);
    void accept() override;

private:
    DealRepository &m_deals;
    QString m_dealId;
    QComboBox *m_reason;
    QLineEdit *m_competitor;
    QPlainTextEdit *m_note;
    QLabel *m_error;
};

// A deal's detail: its fields, the activity timeline (newest first) and a box to add a note, the
// deal's tasks (open ones first; double-click edits one, "Add task…" opens the task dialog linked
// to the deal and its contact) and "Edit…" for every field (DealEditDialog). Follows changes of
// the deal and its tasks made anywhere (EventBus).
class DealDetailDialog : public QDialog
{
    Q_OBJECT
public:
    DealDetailDialog(DealRepository &deals, const Store &store, const QString &dealId, QWidget *parent = nullptr,
                     const QTimeZone &tasksTimeZone = QTimeZone::systemTimeZone());
    QListWidget *timeline() const { return m_timeline; }
    QListWidget *taskList() const { return m_tasksList; }
    QString dealId() const { return m_dealId; }

public slots:
    void refresh();
    void addNote();
    void addTask();
    void editDeal();
    // Asks first (MessageBoxes::confirm), then deletes the deal; its tasks are unlinked by the model.
    void deleteDeal();
    void openTask(const QString &taskId);

private:
    void refreshTasks();

    DealRepository &m_deals;
    TaskRepository m_tasks;
    QString m_dealId;
    QLabel *m_summary;
    QListWidget *m_timeline;
    QListWidget *m_tasksList;
    QPlainTextEdit *m_note;
    QComboBox *m_activityType; // note, call, meeting, e-mail
    QPushButton *m_addNote;
    QPushButton *m_addTask;
    QPushButton *m_edit;
    QPushButton *m_delete;
    QLabel *m_error;
};

namespace DealText {
// "Price", "Competitor", … for the loss reasons of the API.
QString lostReason(const QString &reason);
// A stage as the window shows it: the built-in stages of the default pipeline (lead … lost) in the
// window's language while they keep their built-in English name; a name someone gave stays as given.
QString stageName(const PipelineStage &stage);
// The name of stage `key` of pipeline `pipelineId` among `pipelines` (the key when unknown).
QString stageName(const QVector<Pipeline> &pipelines, const QString &pipelineId, const QString &key);
// The built-in pipeline in the window's language while it keeps its built-in name ("Sales").
QString pipelineName(const Pipeline &pipeline);
// "Note", "Call", "Meeting", "E-mail" for a deal activity's type.
QString activityType(const QString &type);
// The types an agent records by hand: note, call, meeting, email.
QStringList manualActivityTypes();
} // namespace DealText
