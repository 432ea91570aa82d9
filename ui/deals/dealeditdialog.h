#pragma once

#include "model/deals/deal.h"
#include "model/deals/pipeline.h"
#include "ui/shell/fielderrors.h"

#include <QDialog>
#include <QHash>
#include <QJsonObject>

class AmountEdit;
class DealRepository;
class QCheckBox;
class QComboBox;
class RecordPicker;
class QDateEdit;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

// Creates or edits a deal with every field of the API: name, value, currency, pipeline, stage,
// probability, contact, owner, expected close date and notes (description). OK builds the body an
// API client would send (create: every field; edit: only the changed ones, as PATCH /deals/:id)
// and hands it to the repository, so window and API share one validation; a refusal keeps the
// dialog open with the message on top and each field's detail under its field. Choosing a stage
// sets the probability to that stage's default (it can still be changed). The value is an
// AmountEdit: empty is 0, and an amount it refuses keeps the dialog open without saving.
class DealEditDialog : public QDialog
{
    Q_OBJECT
public:
    // A new deal, in this pipeline (empty: the default one).
    DealEditDialog(DealRepository &deals, const QString &pipelineId, QWidget *parent = nullptr);
    // Edits an existing deal.
    DealEditDialog(DealRepository &deals, const Deal &deal, QWidget *parent = nullptr);
    // The amount field's news stops before the dialog's members go (see WonDialog).
    ~DealEditDialog() override;

    bool isEditing() const { return !m_original.id.isEmpty(); }
    // What OK stores now: every field for a new deal, what changed for an edit.
    DealChanges changes() const;
    const Deal &savedDeal() const { return m_saved; }
    void setContactId(const QString &contactId);

    void accept() override;

signals:
    void dealSaved(const QString &id);

private:
    void build(const QString &pipelineId);
    void load(const Deal &d);
    void fillStages(const QString &select);
    void onStageChosen();
    void showError(const QString &message, const QJsonObject &details);

    DealRepository &m_deals;
    Deal m_original;
    Deal m_saved;
    QVector<Pipeline> m_pipelines;

    QFormLayout *m_form = nullptr;
    FieldErrors m_errors;
    QLineEdit *m_name = nullptr;
    AmountEdit *m_value = nullptr;
    bool m_valueRefused = false; // the form's error shows why the value was refused
    QComboBox *m_currency = nullptr;
    QComboBox *m_pipeline = nullptr;
    QComboBox *m_stage = nullptr;
    QSpinBox *m_probability = nullptr;
    RecordPicker *m_contact = nullptr;
    QComboBox *m_owner = nullptr;
    QCheckBox *m_hasClose = nullptr;
    QDateEdit *m_closeDate = nullptr;
    QPlainTextEdit *m_description = nullptr;
};
