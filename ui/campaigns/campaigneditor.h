#pragma once

#include "model/campaigns/campaignrepository.h"
#include "model/contacts/contact.h"
#include "model/contacts/segmentrepository.h"
#include "ui/shell/fielderrors.h"

#include <QDialog>
#include <QPointer>
#include <QTimer>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QTextBrowser;
class QToolButton;

// A campaign's editor: name, channel, type, the audience (a segment) with a live count of who would
// receive it, the schedule, the subject and body (an e-mail's HTML, an SMS's text, a WhatsApp
// template's name) with a rendered preview whose merge fields are filled from a contact of the
// audience, the merge fields to insert, drip or triggered steps (each its wait, subject and body)
// and a test send. Save creates or changes the campaign (only while DRAFT or SCHEDULED); a refusal
// shows in the form, translated, and what was typed stays.
class CampaignEditor : public QDialog
{
    Q_OBJECT
public:
    // A new campaign.
    CampaignEditor(CampaignRepository &campaigns, const Store &store, QWidget *parent = nullptr);
    // An existing one.
    CampaignEditor(CampaignRepository &campaigns, const Store &store, const Campaign &campaign,
                   QWidget *parent = nullptr);
    ~CampaignEditor() override;

    QString campaignId() const { return m_id; }
    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *channelBox() const { return m_channel; }
    QComboBox *typeBox() const { return m_type; }
    QComboBox *audienceBox() const { return m_audience; }
    QLabel *audienceCount() const { return m_count; }
    QLineEdit *subjectEdit() const { return m_subject; }
    QPlainTextEdit *bodyEdit() const { return m_body; }
    QLineEdit *templateEdit() const { return m_template; }
    QTextBrowser *preview() const { return m_preview; }
    QListWidget *mergeFieldList() const { return m_fields; }
    QCheckBox *scheduleCheck() const { return m_scheduleOn; }
    QDateTimeEdit *scheduleEdit() const { return m_schedule; }
    QTableWidget *stepsTable() const { return m_steps; }
    QComboBox *triggerBox() const { return m_trigger; }
    QLineEdit *templateParamsEdit() const { return m_templateParams; }
    // The drip and triggered steps' send window: hours and weekdays (Monday first).
    QSpinBox *windowFromBox() const { return m_windowFrom; }
    QSpinBox *windowToBox() const { return m_windowTo; }
    QToolButton *windowDay(int day) const { return m_windowDays.value(day - 1); }
    QLineEdit *testAddresses() const { return m_testAddresses; }
    QPushButton *testButton() const { return m_testButton; }
    QLabel *testResult() const { return m_testResult; }
    QLabel *formError() const { return m_formError; }
    QPushButton *saveButton() const { return m_save; }

    // Waits this long after the last change before it counts the audience or renders the preview.
    static constexpr int UpdateDelayMs = 150;

public slots:
    // Saves; true when saved (the dialog closes). False with the refusal shown in the form.
    bool save();
    // Saves (a new campaign first) and queues a test send to the addresses typed.
    bool sendTest();
    // Inserts the merge field selected in the list at the body's cursor.
    void insertMergeField();
    // Counts the audience and renders the preview now.
    void updateNow();
    void addStep();
    void removeStep();

signals:
    void saved(const QString &id);

private:
    void build();
    void load(const Campaign &c);
    CampaignChanges changes();
    bool saveDraft(); // save() without closing
    void updateVisibility();
    void updateAudience();
    void updatePreview();
    void loadSample();
    // The drip steps: the editors show the selected step's subject and body.
    void storeStep(int row);
    // The template values as typed, split at ";" (empty ones dropped).
    QStringList templateParams() const;
    void showStep(int row);
    int currentStep() const;

    CampaignRepository &m_campaigns;
    SegmentRepository m_segments;
    QString m_id;
    QString m_status = QStringLiteral("DRAFT");
    QVector<DripStep> m_stepData;
    int m_shownStep = -1;
    Contact m_sample;
    bool m_sampleFromAudience = false;
    QFormLayout *m_form = nullptr;
    QLineEdit *m_name = nullptr;
    QComboBox *m_channel = nullptr;
    QComboBox *m_type = nullptr;
    QComboBox *m_audience = nullptr;
    QLabel *m_count = nullptr;
    QComboBox *m_trigger = nullptr;
    QLineEdit *m_triggerValue = nullptr;
    QWidget *m_triggerRow = nullptr;
    QCheckBox *m_scheduleOn = nullptr;
    QDateTimeEdit *m_schedule = nullptr;
    QGroupBox *m_stepsBox = nullptr;
    QTableWidget *m_steps = nullptr;
    QSpinBox *m_windowFrom = nullptr;
    QSpinBox *m_windowTo = nullptr;
    QList<QToolButton *> m_windowDays; // Monday … Sunday
    QLineEdit *m_subject = nullptr;
    QLabel *m_subjectLabel = nullptr;
    QLineEdit *m_template = nullptr;
    QLineEdit *m_templateLanguage = nullptr;
    QLabel *m_templateLabel = nullptr;
    QWidget *m_templateRow = nullptr;
    QPlainTextEdit *m_body = nullptr;
    QLabel *m_bodyLabel = nullptr;
    QTabWidget *m_side = nullptr;
    QTextBrowser *m_preview = nullptr;
    QLabel *m_sampleLabel = nullptr;
    QListWidget *m_fields = nullptr;
    QLineEdit *m_testAddresses = nullptr;
    QPushButton *m_testButton = nullptr;
    QLabel *m_testResult = nullptr;
    QLabel *m_formError = nullptr;
    QPushButton *m_save = nullptr;
    QPointer<QWidget> m_lastText; // the subject or the body, where a merge field goes
    // QApplication::focusChanged: cut in the destructor, since ~QDialog hides the dialog and moves the
    // focus after this class's members are gone (the QObject's own disconnect comes too late).
    QMetaObject::Connection m_focusWatch;
    QLineEdit *m_templateParams = nullptr;
    QLabel *m_templateParamsLabel = nullptr;
    FieldErrors m_errors;
    QTimer m_audienceTimer;
    QTimer m_previewTimer;
};
