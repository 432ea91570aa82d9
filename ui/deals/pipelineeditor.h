#pragma once

#include "model/deals/pipeline.h"
#include "model/deals/pipelinerepository.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;

// Edits the pipelines: add and delete pipelines, rename one, make it the default, and edit its
// stages (add, rename, remove, reorder, default probability and rottenDays per stage). The closing
// stages Won and Lost stay last and cannot be removed (their names can change). Save sends the
// whole ordered stage list, as PATCH /pipelines/:id does; a refusal (a stage that still holds
// deals: 409) is shown in the dialog and nothing is changed.
class PipelineEditorDialog : public QDialog
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        ProbabilityColumn,
        RottenColumn,
        ColumnCount
    };
    static constexpr int KeyRole = Qt::UserRole + 1;
    static constexpr int KindRole = Qt::UserRole + 2;
    static constexpr int StoredNameRole = Qt::UserRole + 3;
    static constexpr int ShownNameRole = Qt::UserRole + 4;

    PipelineEditorDialog(PipelineRepository &pipelines, const QString &pipelineId, QWidget *parent = nullptr);

    QString pipelineId() const { return m_current; }
    QTableWidget *stagesTable() const { return m_stages; }
    QLabel *errorLabel() const { return m_error; }
    // What Save writes: the name, the stages in their order, the default flag.
    PipelineChanges changes() const;

public slots:
    void showPipeline(const QString &id);
    void addStage();
    void removeStage();
    void moveStage(int delta);
    bool save();
    void addPipeline();
    void deletePipeline();

signals:
    void pipelineSaved(const QString &id);

private:
    void reloadList();
    void appendRow(const PipelineStage &stage);
    void setError(const QString &text);
    void updateButtons();

    PipelineRepository &m_pipelines;
    QString m_current;
    QString m_storedName;
    QString m_shownName;
    QListWidget *m_list = nullptr;
    QLineEdit *m_newName = nullptr;
    QPushButton *m_addPipeline = nullptr;
    QPushButton *m_deletePipeline = nullptr;
    QLineEdit *m_name = nullptr;
    QCheckBox *m_default = nullptr;
    QTableWidget *m_stages = nullptr;
    QPushButton *m_addStage = nullptr;
    QPushButton *m_removeStage = nullptr;
    QPushButton *m_up = nullptr;
    QPushButton *m_down = nullptr;
    QPushButton *m_save = nullptr;
    QLabel *m_error = nullptr;
};
