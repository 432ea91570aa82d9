#include "ui/campaigns/campaigneditor.h"

#include "model/core/errors.h"
#include "model/core/timeutil.h"
#include "ui/campaigns/campaigntext.h"
#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSpinBox>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

namespace {
// The steps table's columns.
enum StepColumn
{
    StepWaitColumn,
    StepSubjectColumn,
    StepColumnCount
};

// A contact to fill the preview when the audience has none (or none is chosen).
Contact campaignSampleContact()
{
    Contact c;
    c.firstName = CampaignEditor::tr("Ayşe");
    c.lastName = CampaignEditor::tr("Yılmaz");
    c.email = QStringLiteral("ayse@ornek.com.tr");
    c.phone = QStringLiteral("+905321234567");
    c.company = CampaignEditor::tr("Örnek Ltd.");
    c.position = CampaignEditor::tr("Purchasing manager");
    return c;
}
} // namespace

CampaignEditor::CampaignEditor(CampaignRepository &campaigns, const Store &store, QWidget *parent)
    : QDialog(parent)
    , m_campaigns(campaigns)
    , m_segments(store)
{
    build();
    setWindowTitle(tr("New campaign"));
    updateVisibility();
    loadSample();
    updateNow();
}

CampaignEditor::CampaignEditor(CampaignRepository &campaigns, const Store &store, const Campaign &campaign,
                               QWidget *parent)
    : QDialog(parent)
    , m_campaigns(campaigns)
    , m_segments(store)
{
    build();
    load(campaign);
    setWindowTitle(tr("Campaign “%1”").arg(campaign.name));
    updateVisibility();
    loadSample();
    updateNow();
}

CampaignEditor::~CampaignEditor()
{
    disconnect(m_focusWatch);
}

void CampaignEditor::build()
{
    setObjectName(QStringLiteral("campaignEditor"));
    auto *outer = new QVBoxLayout(this);
    m_formError = m_errors.createFormLabel(this);
    outer->addWidget(m_formError);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    outer->addWidget(splitter, 1);

    // Left: what the campaign is and says.
    auto *left = new QWidget(splitter);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto *form = m_form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    leftLayout->addLayout(form);

    m_name = new QLineEdit(left);
    m_name->setObjectName(QStringLiteral("campaignName"));
    m_name->setMaxLength(200);
    m_name->setPlaceholderText(tr("e.g. November newsletter"));
    form->addRow(tr("&Name"), m_errors.cell(m_name, {QStringLiteral("name")}, left));

    m_channel = new QComboBox(left);
    m_channel->setObjectName(QStringLiteral("campaignChannel"));
    for (const QString &c : CampaignRules::Channels)
        m_channel->addItem(CampaignText::channel(c), c);
    m_type = new QComboBox(left);
    m_type->setObjectName(QStringLiteral("campaignType"));
    for (const QString &t : CampaignRules::Types)
        m_type->addItem(CampaignText::type(t), t);
    m_type->setItemData(0, tr("One message to the whole audience, now or at a set time"), Qt::ToolTipRole);
    m_type->setItemData(1, tr("A series of messages, each a set time after the one before"), Qt::ToolTipRole);
    m_type->setItemData(2, tr("A series of messages that starts for a contact when something happens"),
                        Qt::ToolTipRole);
    auto *typeLabel = new QLabel(tr("&Type"), left);
    typeLabel->setBuddy(m_type);
    auto *channelRow = new QWidget(left);
    auto *channelLayout = new QHBoxLayout(channelRow);
    channelLayout->setContentsMargins(0, 0, 0, 0);
    channelLayout->addWidget(m_channel, 1);
    channelLayout->addWidget(typeLabel);
    channelLayout->addWidget(m_type, 1);
    form->addRow(tr("&Channel"), channelRow);

    m_audience = new QComboBox(left);
    m_audience->setObjectName(QStringLiteral("campaignAudience"));
    m_audience->addItem(tr("Choose a segment…"), QString());
    try {
        for (const Segment &s : m_segments.list(false))
            m_audience->addItem(s.name, s.id);
    } catch (const std::exception &) {
        // No segments to offer: the box says to choose one, and saving says why it cannot.
    }
    m_audience->setMinimumContentsLength(16);
    m_audience->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_audience->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed); // the count under it on one line
    m_count = new QLabel(left);
    m_count->setObjectName(QStringLiteral("audienceCount"));
    m_count->setTextFormat(Qt::PlainText);
    m_count->setWordWrap(true);
    UiKit::setTone(m_count, UiKit::Tone::Muted);
    auto *audienceCell = m_errors.cell(m_audience, {QStringLiteral("broadcastListId")}, left);
    audienceCell->addWidget(m_count);
    form->addRow(tr("&Audience"), audienceCell);

    m_triggerRow = new QWidget(left);
    auto *triggerLayout = new QHBoxLayout(m_triggerRow);
    triggerLayout->setContentsMargins(0, 0, 0, 0);
    m_trigger = new QComboBox(m_triggerRow);
    m_trigger->setObjectName(QStringLiteral("campaignTrigger"));
    for (const QString &e : CampaignRules::TriggerEvents)
        m_trigger->addItem(CampaignText::triggerEvent(e), e);
    m_triggerValue = new QLineEdit(m_triggerRow);
    m_triggerValue->setObjectName(QStringLiteral("campaignTriggerValue"));
    m_triggerValue->setAccessibleName(tr("Tag or stage"));
    triggerLayout->addWidget(m_trigger, 1);
    triggerLayout->addWidget(m_triggerValue, 1);
    form->addRow(tr("Starts &when"), m_triggerRow);

    auto *scheduleRow = new QWidget(left);
    auto *scheduleLayout = new QHBoxLayout(scheduleRow);
    scheduleLayout->setContentsMargins(0, 0, 0, 0);
    m_scheduleOn = new QCheckBox(tr("Send at"), scheduleRow);
    m_scheduleOn->setObjectName(QStringLiteral("campaignScheduleOn"));
    m_schedule = new QDateTimeEdit(scheduleRow);
    m_schedule->setObjectName(QStringLiteral("campaignSchedule"));
    m_schedule->setAccessibleName(tr("Send at"));
    m_schedule->setCalendarPopup(true);
    m_schedule->setDisplayFormat(QLocale().dateTimeFormat(QLocale::ShortFormat).remove(QStringLiteral(":ss")));
    m_schedule->setDateTime(QDateTime::currentDateTime().addSecs(3600));
    m_schedule->setEnabled(false);
    scheduleLayout->addWidget(m_scheduleOn);
    scheduleLayout->addWidget(m_schedule, 1);
    auto *scheduleCell = m_errors.cell(scheduleRow, {QStringLiteral("scheduledAt")}, left);
    form->addRow(tr("Schedule"), scheduleCell);
    connect(m_scheduleOn, &QCheckBox::toggled, m_schedule, &QWidget::setEnabled);

    // Drip and triggered campaigns: the steps, each with its wait; the subject and body below are
    // the selected step's.
    m_stepsBox = new QGroupBox(tr("Steps"), left);
    m_stepsBox->setObjectName(QStringLiteral("campaignStepsBox"));
    auto *stepsLayout = new QVBoxLayout(m_stepsBox);
    m_steps = new QTableWidget(0, StepColumnCount, m_stepsBox);
    m_steps->setObjectName(QStringLiteral("campaignSteps"));
    m_steps->setAccessibleName(tr("Steps"));
    m_steps->setHorizontalHeaderLabels({tr("Wait (hours)"), tr("Subject")});
    m_steps->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_steps->setSelectionMode(QAbstractItemView::SingleSelection);
    m_steps->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_steps->verticalHeader()->hide();
    m_steps->horizontalHeader()->setStretchLastSection(true);
    m_steps->horizontalHeader()->setSectionResizeMode(StepWaitColumn, QHeaderView::ResizeToContents);
    m_steps->setMaximumHeight(130);
    auto *stepButtons = new QVBoxLayout;
    auto *addStepButton = new QPushButton(tr("Add step"), m_stepsBox);
    addStepButton->setObjectName(QStringLiteral("addStepButton"));
    auto *removeStepButton = new QPushButton(tr("Remove step"), m_stepsBox);
    removeStepButton->setObjectName(QStringLiteral("removeStepButton"));
    stepButtons->addWidget(addStepButton);
    stepButtons->addWidget(removeStepButton);
    stepButtons->addStretch(1);
    auto *stepsTop = new QHBoxLayout;
    stepsTop->addWidget(m_steps, 1);
    stepsTop->addLayout(stepButtons);
    stepsLayout->addLayout(stepsTop);
    // When the steps may go out: hours of the day and weekdays, in the tasks' time zone.
    auto *windowRow = new QHBoxLayout;
    auto *windowLabel = new QLabel(tr("Sending hours"), m_stepsBox);
    m_windowFrom = new QSpinBox(m_stepsBox);
    m_windowFrom->setObjectName(QStringLiteral("windowFromHour"));
    m_windowFrom->setAccessibleName(tr("From hour"));
    m_windowFrom->setRange(0, 23);
    m_windowFrom->setSuffix(tr(":00"));
    m_windowTo = new QSpinBox(m_stepsBox);
    m_windowTo->setObjectName(QStringLiteral("windowToHour"));
    m_windowTo->setAccessibleName(tr("To hour"));
    m_windowTo->setRange(1, 24);
    m_windowTo->setValue(24);
    m_windowTo->setSuffix(tr(":00"));
    windowLabel->setBuddy(m_windowFrom);
    windowRow->addWidget(windowLabel);
    windowRow->addWidget(m_windowFrom);
    windowRow->addWidget(new QLabel(QStringLiteral("–"), m_stepsBox));
    windowRow->addWidget(m_windowTo);
    windowRow->addStretch(1);
    stepsLayout->addLayout(windowRow);
    auto *daysRow = new QHBoxLayout;
    auto *daysLabel = new QLabel(tr("Days"), m_stepsBox);
    daysRow->addWidget(daysLabel);
    for (int day = 1; day <= 7; ++day) {
        auto *b = new QToolButton(m_stepsBox);
        b->setObjectName(QStringLiteral("windowDay%1").arg(day));
        b->setText(QLocale().dayName(day, QLocale::ShortFormat));
        b->setAccessibleName(QLocale().dayName(day, QLocale::LongFormat));
        b->setToolTip(tr("None chosen: every day"));
        b->setCheckable(true);
        daysRow->addWidget(b);
        m_windowDays << b;
    }
    daysRow->addStretch(1);
    stepsLayout->addLayout(daysRow);
    // The two rows' fields start at one edge.
    const int labelWidth = qMax(windowLabel->sizeHint().width(), daysLabel->sizeHint().width());
    windowLabel->setMinimumWidth(labelWidth);
    daysLabel->setMinimumWidth(labelWidth);
    connect(m_windowFrom, &QSpinBox::valueChanged, this, [this](int from) {
        m_windowTo->setMinimum(from + 1); // the window ends after it begins
    });
    leftLayout->addWidget(m_stepsBox);
    connect(addStepButton, &QPushButton::clicked, this, &CampaignEditor::addStep);
    connect(removeStepButton, &QPushButton::clicked, this, &CampaignEditor::removeStep);
    connect(m_steps, &QTableWidget::currentCellChanged, this, [this](int row, int, int previous, int) {
        if (previous != row) {
            storeStep(m_shownStep);
            showStep(row);
        }
    });

    auto *content = new QFormLayout;
    content->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    leftLayout->addLayout(content);
    m_subject = new QLineEdit(left);
    m_subject->setObjectName(QStringLiteral("campaignSubject"));
    m_subject->setMaxLength(500);
    m_subjectLabel = new QLabel(tr("&Subject"), left);
    m_subjectLabel->setBuddy(m_subject);
    content->addRow(m_subjectLabel, m_errors.cell(m_subject, {QStringLiteral("subject")}, left));
    m_templateRow = new QWidget(left);
    auto *templateLayout = new QHBoxLayout(m_templateRow);
    templateLayout->setContentsMargins(0, 0, 0, 0);
    m_template = new QLineEdit(m_templateRow);
    m_template->setObjectName(QStringLiteral("campaignTemplate"));
    m_template->setPlaceholderText(tr("an approved template's name"));
    m_templateLanguage = new QLineEdit(m_templateRow);
    m_templateLanguage->setObjectName(QStringLiteral("campaignTemplateLanguage"));
    m_templateLanguage->setPlaceholderText(QStringLiteral("tr"));
    m_templateLanguage->setAccessibleName(tr("Template language"));
    m_templateLanguage->setMaximumWidth(fontMetrics().averageCharWidth() * 10);
    templateLayout->addWidget(m_template, 1);
    templateLayout->addWidget(m_templateLanguage);
    m_templateLabel = new QLabel(tr("Te&mplate"), left);
    m_templateLabel->setBuddy(m_template);
    content->addRow(
        m_templateLabel,
        m_errors.cell(m_templateRow, {QStringLiteral("templateName"), QStringLiteral("templateLanguage")}, left));
    // The template's body parameters {{1}}, {{2}}, … separated by ";", each with merge fields.
    m_templateParams = new QLineEdit(left);
    m_templateParams->setObjectName(QStringLiteral("campaignTemplateParams"));
    m_templateParams->setPlaceholderText(tr("{{1}}; {{2}}; … e.g. {{firstName|there}}; November"));
    m_templateParamsLabel = new QLabel(tr("Template &values"), left);
    m_templateParamsLabel->setBuddy(m_templateParams);
    content->addRow(m_templateParamsLabel, m_errors.cell(m_templateParams, {QStringLiteral("templateParams")}, left));
    connect(m_templateParams, &QLineEdit::textChanged, this, [this] { m_previewTimer.start(); });
    m_body = new QPlainTextEdit(left);
    m_body->setObjectName(QStringLiteral("campaignBody"));
    m_body->setTabChangesFocus(true);
    m_bodyLabel = new QLabel(tr("&Message"), left);
    m_bodyLabel->setBuddy(m_body);
    content->addRow(m_bodyLabel, m_errors.cell(m_body, {QStringLiteral("htmlContent"), QStringLiteral("steps")}, left));
    leftLayout->setStretchFactor(content, 1);

    // Right: the preview, the merge fields and a test send.
    m_side = new QTabWidget(splitter);
    m_side->setObjectName(QStringLiteral("campaignSideTabs"));
    auto *previewPage = new QWidget(m_side);
    auto *previewLayout = new QVBoxLayout(previewPage);
    m_sampleLabel = new QLabel(previewPage);
    m_sampleLabel->setObjectName(QStringLiteral("previewSample"));
    m_sampleLabel->setTextFormat(Qt::PlainText);
    m_sampleLabel->setWordWrap(true);
    UiKit::setTone(m_sampleLabel, UiKit::Tone::Muted);
    m_preview = new QTextBrowser(previewPage);
    m_preview->setObjectName(QStringLiteral("campaignPreview"));
    m_preview->setAccessibleName(tr("Preview"));
    m_preview->setOpenLinks(false);
    previewLayout->addWidget(m_sampleLabel);
    previewLayout->addWidget(m_preview, 1);
    m_side->addTab(previewPage, tr("Preview"));

    auto *fieldsPage = new QWidget(m_side);
    auto *fieldsLayout = new QVBoxLayout(fieldsPage);
    auto *fieldsIntro = new QLabel(tr("Double-click a field to insert it at the cursor. A fallback follows a bar: "
                                      "{{firstName|there}}."),
                                   fieldsPage);
    fieldsIntro->setWordWrap(true);
    m_fields = new QListWidget(fieldsPage);
    m_fields->setObjectName(QStringLiteral("mergeFields"));
    m_fields->setAccessibleName(tr("Merge fields"));
    auto *insert = new QPushButton(tr("Insert"), fieldsPage);
    insert->setObjectName(QStringLiteral("insertMergeField"));
    fieldsLayout->addWidget(fieldsIntro);
    fieldsLayout->addWidget(m_fields, 1);
    fieldsLayout->addWidget(insert, 0, Qt::AlignLeft);
    m_side->addTab(fieldsPage, tr("Merge fields"));
    connect(m_fields, &QListWidget::itemDoubleClicked, this, &CampaignEditor::insertMergeField);
    connect(insert, &QPushButton::clicked, this, &CampaignEditor::insertMergeField);

    auto *testPage = new QWidget(m_side);
    auto *testLayout = new QVBoxLayout(testPage);
    auto *testIntro = new QLabel(tr("Send this campaign to a few addresses only, to see it as they will. Test "
                                    "sends are not counted in the statistics. A new campaign is saved first."),
                                 testPage);
    testIntro->setWordWrap(true);
    m_testAddresses = new QLineEdit(testPage);
    m_testAddresses->setObjectName(QStringLiteral("testAddresses"));
    m_testAddresses->setAccessibleName(tr("Test addresses"));
    m_testAddresses->setPlaceholderText(tr("addresses, separated by commas"));
    m_testButton = new QPushButton(tr("Send test"), testPage);
    m_testButton->setObjectName(QStringLiteral("sendTestButton"));
    m_testResult = new QLabel(testPage);
    m_testResult->setObjectName(QStringLiteral("testResult"));
    m_testResult->setTextFormat(Qt::PlainText);
    m_testResult->setWordWrap(true);
    testLayout->addWidget(testIntro);
    testLayout->addWidget(m_testAddresses);
    testLayout->addWidget(m_testButton, 0, Qt::AlignLeft);
    testLayout->addWidget(m_testResult);
    testLayout->addStretch(1);
    m_side->addTab(testPage, tr("Test send"));
    connect(m_testButton, &QPushButton::clicked, this, &CampaignEditor::sendTest);

    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    // The side's three tabs whole (not behind scroll arrows).
    m_side->setMinimumWidth(m_side->tabBar()->sizeHint().width() + 2 * UiKit::Space::S);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    m_save = buttons->button(QDialogButtonBox::Save);
    m_save->setObjectName(QStringLiteral("saveCampaignButton"));
    outer->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &CampaignEditor::save);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    m_audienceTimer.setSingleShot(true);
    m_audienceTimer.setInterval(UpdateDelayMs);
    connect(&m_audienceTimer, &QTimer::timeout, this, &CampaignEditor::updateAudience);
    m_previewTimer.setSingleShot(true);
    m_previewTimer.setInterval(UpdateDelayMs);
    connect(&m_previewTimer, &QTimer::timeout, this, &CampaignEditor::updatePreview);
    connect(m_audience, &QComboBox::currentIndexChanged, this, [this] {
        m_audienceTimer.start();
        loadSample();
        m_previewTimer.start();
    });
    connect(m_channel, &QComboBox::currentIndexChanged, this, [this] {
        loadSample(); // also updates what the channel shows
        m_audienceTimer.start();
        m_previewTimer.start();
    });
    connect(m_type, &QComboBox::currentIndexChanged, this, [this] {
        if (m_type->currentData().toString() != QLatin1String("BROADCAST") && m_stepData.isEmpty()) {
            // The first step is what was written so far.
            DripStep first;
            first.subject = m_subject->text();
            first.htmlContent = m_body->toPlainText();
            first.templateName = m_template->text();
            m_stepData << first;
            m_shownStep = -1;
            m_steps->setRowCount(0);
            m_steps->insertRow(0);
            m_steps->setItem(0, StepSubjectColumn, new QTableWidgetItem(first.subject));
            auto *wait = new QSpinBox(m_steps);
            wait->setRange(0, 24 * 365);
            m_steps->setCellWidget(0, StepWaitColumn, wait);
            m_steps->setCurrentCell(0, StepSubjectColumn);
        }
        updateVisibility();
    });
    connect(m_trigger, &QComboBox::currentIndexChanged, this, &CampaignEditor::updateVisibility);
    connect(m_subject, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_previewTimer.start();
        if (QTableWidgetItem *item = m_steps->item(m_shownStep, StepSubjectColumn))
            item->setText(text);
    });
    connect(m_body, &QPlainTextEdit::textChanged, this, [this] { m_previewTimer.start(); });
    connect(m_template, &QLineEdit::textChanged, this, [this] { m_previewTimer.start(); });

    m_focusWatch = connect(qApp, &QApplication::focusChanged, this, [this](QWidget *, QWidget *now) {
        if (now == m_subject || now == m_body)
            m_lastText = now;
    });

    UiKit::nameFormFields(this);
    // As large as the screen allows, up to a comfortable editor.
    const QRect screen = this->screen() ? this->screen()->availableGeometry() : QRect(0, 0, 1366, 768);
    resize(qMin(1120, screen.width() - 40), qMin(720, screen.height() - 60));
}

void CampaignEditor::load(const Campaign &c)
{
    m_id = c.id;
    m_status = c.status;
    m_name->setText(c.name);
    m_channel->setCurrentIndex(qMax(0, m_channel->findData(c.channel)));
    {
        const QSignalBlocker block(m_type);
        m_type->setCurrentIndex(qMax(0, m_type->findData(c.type)));
    }
    int audience = m_audience->findData(c.broadcastListId);
    if (audience < 0 && !c.broadcastListId.isEmpty()) {
        m_audience->addItem(c.broadcastListId, c.broadcastListId); // a segment deleted since
        audience = m_audience->count() - 1;
    }
    m_audience->setCurrentIndex(qMax(0, audience));
    m_trigger->setCurrentIndex(qMax(0, m_trigger->findData(c.trigger.value(QStringLiteral("event")).toString())));
    m_triggerValue->setText(
        c.trigger.value(QStringLiteral("tag")).toString(c.trigger.value(QStringLiteral("stage")).toString()));
    const std::optional<QDateTime> at = TimeUtil::parse(c.scheduledAt);
    m_scheduleOn->setChecked(at.has_value());
    if (at)
        m_schedule->setDateTime(at->toLocalTime());
    m_subject->setText(c.subject);
    m_body->setPlainText(c.htmlContent);
    m_template->setText(c.templateName);
    m_templateLanguage->setText(c.templateLanguage);
    m_templateParams->setText(c.templateParams.join(QStringLiteral("; ")));
    m_stepData = c.steps;
    m_shownStep = -1;
    m_steps->setRowCount(0);
    for (int i = 0; i < m_stepData.size(); ++i) {
        m_steps->insertRow(i);
        auto *wait = new QSpinBox(m_steps);
        wait->setRange(0, 24 * 365);
        wait->setValue(m_stepData.at(i).delayMinutes / 60);
        m_steps->setCellWidget(i, StepWaitColumn, wait);
        m_steps->setItem(i, StepSubjectColumn, new QTableWidgetItem(m_stepData.at(i).subject));
    }
    m_windowFrom->setValue(c.window.fromHour);
    m_windowTo->setValue(c.window.toHour);
    for (int day = 1; day <= 7; ++day)
        m_windowDays.at(day - 1)->setChecked(c.window.days.contains(day));
    if (c.type != QLatin1String("BROADCAST") && !m_stepData.isEmpty()) {
        const QSignalBlocker block(m_steps);
        m_steps->setCurrentCell(0, StepSubjectColumn);
        showStep(0);
    }
    // A campaign past DRAFT and SCHEDULED is only shown: its content went out as it is.
    if (!c.isEditable()) {
        for (QWidget *w : {static_cast<QWidget *>(m_name), static_cast<QWidget *>(m_channel),
                           static_cast<QWidget *>(m_type), static_cast<QWidget *>(m_audience),
                           static_cast<QWidget *>(m_triggerRow), static_cast<QWidget *>(m_scheduleOn),
                           static_cast<QWidget *>(m_schedule), static_cast<QWidget *>(m_stepsBox)})
            w->setEnabled(false);
        m_subject->setReadOnly(true);
        m_body->setReadOnly(true);
        m_template->setReadOnly(true);
        m_save->setEnabled(false);
        m_save->setToolTip(tr("Only a draft or scheduled campaign can be changed"));
    }
}

void CampaignEditor::updateVisibility()
{
    const QString channel = m_channel->currentData().toString();
    const QString type = m_type->currentData().toString();
    const bool email = channel == QLatin1String("email");
    const bool whatsapp = channel == QLatin1String("whatsapp");
    const bool broadcast = type == QLatin1String("BROADCAST");
    m_subject->setVisible(email);
    m_subjectLabel->setVisible(email);
    m_templateRow->setVisible(whatsapp);
    m_templateLabel->setVisible(whatsapp);
    m_templateParams->setVisible(whatsapp);
    m_templateParamsLabel->setVisible(whatsapp);
    m_body->setVisible(!whatsapp);
    m_bodyLabel->setVisible(!whatsapp);
    m_bodyLabel->setText(email ? tr("HTML &body") : tr("&Message"));
    m_stepsBox->setVisible(!broadcast);
    const bool triggered = type == QLatin1String("TRIGGERED");
    m_triggerRow->setVisible(triggered);
    m_form->setRowVisible(m_triggerRow, triggered);
    const QString event = m_trigger->currentData().toString();
    m_triggerValue->setVisible(event == QLatin1String("contact.tagged") ||
                               event == QLatin1String("deal.stage_changed"));
    m_triggerValue->setPlaceholderText(event == QLatin1String("contact.tagged") ? tr("the tag") : tr("the stage"));
    // Only a broadcast is scheduled; drip and triggered ones run once started.
    m_scheduleOn->setEnabled(broadcast && m_name->isEnabled());
    if (!broadcast)
        m_scheduleOn->setChecked(false);
    // The merge fields: the built-in ones (unsubscribeUrl only in e-mail), then the sample's custom ones.
    m_fields->clear();
    for (const QString &f : MergeFields::Builtin) {
        if (f == QLatin1String("unsubscribeUrl") && !email)
            continue;
        m_fields->addItem(QStringLiteral("{{%1}}").arg(f));
    }
    const QStringList custom = m_sample.customFields.keys();
    for (const QString &f : custom)
        m_fields->addItem(QStringLiteral("{{%1}}").arg(f));
}

int CampaignEditor::currentStep() const
{
    return m_steps->currentRow();
}

void CampaignEditor::storeStep(int row)
{
    if (row < 0 || row >= m_stepData.size())
        return;
    DripStep &s = m_stepData[row];
    s.subject = m_subject->text();
    s.htmlContent = m_body->toPlainText();
    s.templateName = m_template->text();
    if (auto *wait = qobject_cast<QSpinBox *>(m_steps->cellWidget(row, StepWaitColumn)))
        s.delayMinutes = wait->value() * 60;
}

void CampaignEditor::showStep(int row)
{
    m_shownStep = row;
    if (row < 0 || row >= m_stepData.size())
        return;
    const DripStep &s = m_stepData.at(row);
    const QSignalBlocker b1(m_subject);
    m_subject->setText(s.subject);
    m_body->setPlainText(s.htmlContent);
    m_template->setText(s.templateName);
    m_previewTimer.start();
}

void CampaignEditor::addStep()
{
    storeStep(m_shownStep);
    if (m_stepData.size() >= CampaignRules::kMaxSteps)
        return;
    DripStep s;
    s.delayMinutes = 24 * 60;
    m_stepData << s;
    const int row = m_steps->rowCount();
    m_steps->insertRow(row);
    auto *wait = new QSpinBox(m_steps);
    wait->setRange(0, 24 * 365);
    wait->setValue(24);
    m_steps->setCellWidget(row, StepWaitColumn, wait);
    m_steps->setItem(row, StepSubjectColumn, new QTableWidgetItem);
    m_steps->setCurrentCell(row, StepSubjectColumn);
    m_subject->setFocus();
}

void CampaignEditor::removeStep()
{
    const int row = currentStep();
    if (row < 0 || row >= m_stepData.size() || m_stepData.size() <= 1)
        return;
    m_shownStep = -1;
    m_stepData.removeAt(row);
    m_steps->removeRow(row);
    showStep(m_steps->currentRow());
}

CampaignChanges CampaignEditor::changes()
{
    CampaignChanges ch;
    const QString channel = m_channel->currentData().toString();
    const QString type = m_type->currentData().toString();
    ch.name = m_name->text().trimmed();
    ch.channel = channel;
    ch.type = type;
    ch.broadcastListId = m_audience->currentData().toString();
    ch.templateParams = channel == QLatin1String("whatsapp") ? templateParams() : QStringList();
    if (type == QLatin1String("BROADCAST")) {
        ch.subject = channel == QLatin1String("email") ? m_subject->text().trimmed() : QString();
        ch.htmlContent = channel == QLatin1String("whatsapp") ? QString() : m_body->toPlainText();
        ch.templateName = channel == QLatin1String("whatsapp") ? m_template->text().trimmed() : QString();
        ch.templateLanguage = channel == QLatin1String("whatsapp") ? m_templateLanguage->text().trimmed() : QString();
        ch.steps = QVector<DripStep>();
    } else {
        storeStep(m_shownStep);
        ch.steps = m_stepData;
        SendWindow w;
        w.fromHour = m_windowFrom->value();
        w.toHour = qMax(m_windowTo->value(), w.fromHour + 1);
        for (int day = 1; day <= 7; ++day) {
            if (m_windowDays.at(day - 1)->isChecked())
                w.days << day;
        }
        if (w.days.size() == 7)
            w.days.clear(); // every day
        ch.window = w;
    }
    if (type == QLatin1String("TRIGGERED")) {
        const QString event = m_trigger->currentData().toString();
        QJsonObject trigger{{QStringLiteral("event"), event}};
        const QString value = m_triggerValue->text().trimmed();
        if (!value.isEmpty() && event == QLatin1String("contact.tagged"))
            trigger.insert(QStringLiteral("tag"), value);
        else if (!value.isEmpty() && event == QLatin1String("deal.stage_changed"))
            trigger.insert(QStringLiteral("stage"), value);
        ch.trigger = trigger;
    } else {
        ch.trigger = QJsonObject();
    }
    ch.scheduledAt = m_scheduleOn->isChecked() && m_scheduleOn->isEnabled()
                         ? TimeUtil::iso(m_schedule->dateTime().toUTC())
                         : QString();
    return ch;
}

bool CampaignEditor::saveDraft()
{
    m_errors.clear();
    try {
        const CampaignChanges ch = changes();
        const Campaign c = m_id.isEmpty() ? m_campaigns.create(ch) : m_campaigns.update(m_id, ch);
        m_id = c.id;
        m_status = c.status;
        emit saved(c.id);
        return true;
    } catch (const DomainError &e) {
        // The fields' problems under their fields; the data that names no field (the unknown merge
        // fields' list) is in the message already.
        const QJsonObject all = ErrorText::details(e);
        QJsonObject fields;
        for (auto it = all.begin(); it != all.end(); ++it) {
            if (it.value().isString())
                fields.insert(it.key(), it.value());
        }
        m_errors.show(ErrorText::of(e), fields, {}, FieldErrors::ListUnplaced);
    } catch (const std::exception &e) {
        m_errors.show(ErrorText::of(e), {});
    }
    return false;
}

bool CampaignEditor::save()
{
    if (!saveDraft())
        return false;
    accept();
    return true;
}

bool CampaignEditor::sendTest()
{
    QStringList addresses;
    for (const QString &a :
         m_testAddresses->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts))
        addresses << a.trimmed();
    if (addresses.isEmpty()) {
        m_testResult->setText(tr("Type at least one address."));
        UiKit::setTone(m_testResult, UiKit::Tone::Danger);
        return false;
    }
    if (m_save->isEnabled() && !saveDraft()) {
        m_testResult->setText(tr("Not sent: the campaign could not be saved (see above)."));
        UiKit::setTone(m_testResult, UiKit::Tone::Danger);
        return false;
    }
    try {
        const QVector<CampaignRecipient> queued = m_campaigns.addTests(m_id, addresses);
        m_testResult->setText(tr("A test is on its way to %n address(es).", nullptr, int(queued.size())));
        UiKit::setTone(m_testResult, UiKit::Tone::Success);
        return true;
    } catch (const std::exception &e) {
        m_testResult->setText(ErrorText::of(e));
        UiKit::setTone(m_testResult, UiKit::Tone::Danger);
        return false;
    }
}

void CampaignEditor::insertMergeField()
{
    const QListWidgetItem *item = m_fields->currentItem();
    if (!item)
        return;
    // Where the user last wrote: the subject or the body (the body when it is the only one shown).
    QWidget *target = m_lastText && m_lastText->isVisible() ? m_lastText.data()
                      : m_body->isVisible()                 ? static_cast<QWidget *>(m_body)
                                                            : m_subject;
    if (target == m_subject)
        m_subject->insert(item->text());
    else
        m_body->insertPlainText(item->text());
    target->setFocus();
}

void CampaignEditor::loadSample()
{
    m_sample = campaignSampleContact();
    m_sampleFromAudience = false;
    const QString segment = m_audience->currentData().toString();
    if (!segment.isEmpty()) {
        try {
            // One who would receive it: the first of the newest members with an address on the channel.
            const bool email = m_channel->currentData().toString() == QLatin1String("email");
            const ContactPage members = m_segments.contacts(segment, 1, 20);
            for (const Contact &c : members.items) {
                if (!(email ? c.email : c.phone).isEmpty()) {
                    m_sample = c;
                    m_sampleFromAudience = true;
                    break;
                }
            }
        } catch (const std::exception &) {
            // The made-up sample stays.
        }
    }
    updateVisibility();
}

void CampaignEditor::updateNow()
{
    m_audienceTimer.stop();
    m_previewTimer.stop();
    updateAudience();
    updatePreview();
}

void CampaignEditor::updateAudience()
{
    const QString segment = m_audience->currentData().toString();
    if (segment.isEmpty()) {
        m_count->setText(tr("Choose who receives it: a segment of contacts."));
        return;
    }
    try {
        const QJsonObject a = m_campaigns.audiencePreview(segment, m_channel->currentData().toString());
        const QLocale locale;
        const qint64 total = a.value(QStringLiteral("total")).toInteger();
        const qint64 reachable = a.value(QStringLiteral("reachable")).toInteger();
        QStringList skipped;
        const QJsonObject reasons = a.value(QStringLiteral("skipped")).toObject();
        for (auto it = reasons.begin(); it != reasons.end(); ++it) {
            if (it.value().toInteger() > 0)
                skipped << tr("%1 %2").arg(locale.toString(it.value().toInteger()), CampaignText::skipReason(it.key()));
        }
        QString text = tr("%n contact(s) would receive it", nullptr, int(qMin<qint64>(reachable, INT_MAX)));
        if (total != reachable)
            text += QLatin1Char(' ') + tr("(of %1 in the segment; left out: %2)")
                                           .arg(locale.toString(total), skipped.join(QStringLiteral(", ")));
        m_count->setText(text + QLatin1Char('.'));
    } catch (const std::exception &e) {
        m_count->setText(ErrorText::of(e));
    }
}

void CampaignEditor::updatePreview()
{
    const QString channel = m_channel->currentData().toString();
    m_sampleLabel->setText(m_sampleFromAudience
                               ? tr("Filled in for %1, a contact of the audience.").arg(m_sample.displayName())
                               : tr("Filled in for a sample contact, %1.").arg(m_sample.displayName()));
    const QHash<QString, QString> extra{{QStringLiteral("unsubscribeUrl"), QStringLiteral("#unsubscribe")}};
    if (channel == QLatin1String("whatsapp")) {
        QStringList values;
        const QStringList params = templateParams();
        for (int i = 0; i < params.size(); ++i)
            values
                << QStringLiteral("{{%1}} = “%2”").arg(i + 1).arg(MergeFields::render(params.at(i), m_sample, false));
        m_preview->setPlainText(
            values.isEmpty() ? tr("The approved template “%1” is sent as WhatsApp has it.").arg(m_template->text())
                             : tr("The approved template “%1” is sent with %2.")
                                   .arg(m_template->text(), values.join(QStringLiteral(", "))));
        return;
    }
    const QString body = MergeFields::render(m_body->toPlainText(), m_sample, channel == QLatin1String("email"), extra);
    if (channel == QLatin1String("email")) {
        const QString subject = MergeFields::render(m_subject->text(), m_sample, false, extra);
        m_preview->setHtml(QStringLiteral("<p><b>%1</b> %2</p><hr/>%3")
                               .arg(tr("Subject:").toHtmlEscaped(), subject.toHtmlEscaped(), body));
    } else {
        m_preview->setPlainText(body);
    }
}

QStringList CampaignEditor::templateParams() const
{
    QStringList out;
    for (const QString &part : m_templateParams->text().split(QLatin1Char(';'))) {
        if (!part.trimmed().isEmpty())
            out << part.trimmed();
    }
    return out;
}
