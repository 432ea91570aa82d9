#include "ui/settings/assistantpage.h"

#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {
const QString kBaseUrl = QStringLiteral("ai/llmBaseUrl");
const QString kModel = QStringLiteral("ai/llmModel");
const QString kApiKey = QStringLiteral("ai.llmApiKey");
const QString kTimeout = QStringLiteral("ai/llmTimeoutSeconds");
const QString kAnswerThreshold = QStringLiteral("ai/answerThreshold");
const QString kMarginThreshold = QStringLiteral("ai/marginThreshold");
const QString kName = QStringLiteral("ai/name");
const QString kAutoReply = QStringLiteral("ai/autoReply/");

// The inbox's channels in the order the Inbox lists them, by the names their customers know.
QList<std::pair<QString, QString>> autoReplyChannels()
{
    return {{QStringLiteral("whatsapp"), QStringLiteral("WhatsApp")},
            {QStringLiteral("instagram"), QStringLiteral("Instagram")},
            {QStringLiteral("telegram"), QStringLiteral("Telegram")},
            {QStringLiteral("widget"), AssistantPage::tr("Website")}};
}

// A muted line under a field: what it does.
QLabel *meaningLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    UiKit::setType(label, UiKit::Type::Caption);
    UiKit::setTone(label, UiKit::Tone::Muted);
    return label;
}
} // namespace

AssistantPage::AssistantPage(QWidget *parent)
    : QWidget(parent)
    , m_form(this,
             tr("The assistant answers customers' questions from the knowledge base, and hands to a person what it "
                "cannot answer. The language model's key is kept in the system keychain; changes take effect at the "
                "next start."),
             QStringLiteral("assistant"))
{
    setObjectName(QStringLiteral("assistantPage"));
    QWidget *content = m_form.content();

    auto *model = new QGroupBox(tr("Language model"), content);
    model->setObjectName(QStringLiteral("assistantModelGroup"));
    auto *modelForm = new QFormLayout(model);
    modelForm->addRow(meaningLabel(tr("Optional: an OpenAI-compatible server (llama.cpp's llama-server, Ollama's /v1 "
                                      "or a hosted service) that words the answer from the entries the assistant "
                                      "found. Without one, customers get the entry's answer as written."),
                                   model));
    // Examples, not defaults: without a base URL there is no model.
    m_form.addField(modelForm, kBaseUrl, tr("API base URL"),
                    tr("e.g. %1").arg(QStringLiteral("http://127.0.0.1:8080/v1")), false, &m_errors);
    m_form.addField(modelForm, kModel, tr("Model"), tr("e.g. %1").arg(QStringLiteral("qwen2.5-3b-instruct")), false,
                    &m_errors);
    m_form.addField(modelForm, kApiKey, tr("API key"), tr("Only if the server asks for one"), true, &m_errors);
    auto *keyRow = new QHBoxLayout;
    m_keyState = new QLabel(model);
    m_keyState->setObjectName(QStringLiteral("assistantKeyState"));
    m_keyState->setTextFormat(Qt::PlainText);
    m_keyState->setWordWrap(true);
    UiKit::setTone(m_keyState, UiKit::Tone::Muted);
    m_removeKey = new QPushButton(tr("Remove the stored key"), model);
    m_removeKey->setObjectName(QStringLiteral("removeAssistantKey"));
    keyRow->addWidget(m_keyState, 1);
    keyRow->addWidget(m_removeKey);
    modelForm->addRow(QString(), keyRow);
    m_timeout = new QSpinBox(model);
    m_timeout->setObjectName(kTimeout);
    // Any whole number: the settings' rules (the check function) say which are allowed, under the field.
    m_timeout->setRange(0, 100000);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setToolTip(tr("How long one answer of the model may take; past it the entry's answer is sent"));
    modelForm->addRow(tr("Timeout"), m_errors.cell(FieldErrors::row({m_timeout}, model), {kTimeout}, model));
    auto *testRow = new QHBoxLayout;
    m_testButton = new QPushButton(tr("Try the model"), model);
    m_testButton->setObjectName(QStringLiteral("assistantTryModel"));
    m_testButton->setToolTip(
        tr("Ask the model one question with the values above (saved or not): “%1”").arg(testQuestion().question));
    m_testResult = new QLabel(model);
    m_testResult->setObjectName(QStringLiteral("assistantTestResult"));
    m_testResult->setTextFormat(Qt::PlainText); // the model's words are never markup
    m_testResult->setWordWrap(true);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    testRow->addWidget(m_testButton, 0, Qt::AlignTop);
    testRow->addWidget(m_testResult, 1);
    modelForm->addRow(QString(), testRow);
    m_form.groups()->addWidget(model);
    connect(m_removeKey, &QPushButton::clicked, this, [this] {
        m_storedKey.clear();
        field(kApiKey)->clear();
        updateKeyState();
    });
    connect(field(kApiKey), &QLineEdit::textChanged, this, &AssistantPage::updateKeyState);
    connect(m_testButton, &QPushButton::clicked, this, &AssistantPage::tryModel);

    auto *decision = new QGroupBox(tr("When the assistant answers"), content);
    decision->setObjectName(QStringLiteral("assistantThresholdsGroup"));
    auto *decisionForm = new QFormLayout(decision);
    addThreshold(decisionForm, kAnswerThreshold, tr("Answer threshold"),
                 tr("The assistant answers when its best entry covers the question at least this well (0 to 1; "
                    "default 0.30); below it, the question goes to a person. Higher: fewer answers, surer ones."));
    addThreshold(decisionForm, kMarginThreshold, tr("Margin threshold"),
                 tr("The lead the best entry needs over the next one with another answer (0 to 1; default 0.02); "
                    "closer than this, the question is ambiguous and goes to a person."));
    m_form.groups()->addWidget(decision);

    auto *inbox = new QGroupBox(tr("In the Inbox"), content);
    inbox->setObjectName(QStringLiteral("assistantAutoReplyGroup"));
    auto *inboxForm = new QFormLayout(inbox);
    inboxForm->addRow(meaningLabel(tr("Off: the assistant stays out of the channel's conversations. Suggest: its "
                                      "answer waits in the composer for an agent to send, change or discard. On: it "
                                      "answers at once, and hands to a person what it cannot answer."),
                                   inbox));
    // Two channels a row: the four fit beside each other's names without scrolling the page.
    auto *channels = new QGridLayout;
    channels->setHorizontalSpacing(UiKit::Space::M);
    channels->setVerticalSpacing(UiKit::Space::S);
    int i = 0;
    for (const auto &[channel, name] : autoReplyChannels()) {
        auto *box = new QComboBox(inbox);
        box->setObjectName(kAutoReply + channel);
        box->addItem(tr("Off"), QStringLiteral("off"));
        box->addItem(tr("Suggest"), QStringLiteral("suggest"));
        box->addItem(tr("On"), QStringLiteral("on"));
        box->setAccessibleName(name);
        auto *label = new QLabel(name, inbox);
        label->setBuddy(box);
        channels->addWidget(label, i / 2, (i % 2) * 2);
        channels->addWidget(box, i / 2, (i % 2) * 2 + 1);
        m_autoReply.insert(channel, box);
        ++i;
    }
    channels->setColumnStretch(4, 1);
    inboxForm->addRow(channels);
    QLineEdit *name =
        m_form.addField(inboxForm, kName, tr("The assistant's name"), QStringLiteral("Asistan"), false, &m_errors);
    name->setMaxLength(100);
    name->setToolTip(tr("The name customers see on the assistant's messages"));
    m_form.groups()->addWidget(inbox);
    m_form.groups()->addStretch(1);

    connect(m_form.saveButton(), &QPushButton::clicked, this, &AssistantPage::save);
    UiKit::nameFormFields(this);
    updateKeyState();
}

QDoubleSpinBox *AssistantPage::addThreshold(QFormLayout *form, const QString &key, const QString &label,
                                            const QString &meaning)
{
    QWidget *parent = form->parentWidget();
    auto *box = new QDoubleSpinBox(parent);
    box->setObjectName(key);
    // Wider than allowed, as the other pages' numbers: the rules refuse under the field what is not.
    box->setRange(0, 9.99);
    box->setDecimals(2);
    box->setSingleStep(0.01);
    box->setToolTip(meaning);
    // What it does beside it, its error under both.
    auto *row = new QWidget(parent);
    auto *rowLayout = new QHBoxLayout(row);
    rowLayout->setContentsMargins(0, 0, 0, 0);
    rowLayout->setSpacing(UiKit::Space::M);
    rowLayout->addWidget(box, 0, Qt::AlignTop);
    rowLayout->addWidget(meaningLabel(meaning, row), 1);
    form->addRow(label, m_errors.cell(row, {key}, parent));
    m_thresholds.insert(key, box);
    return box;
}

QString AssistantPage::secretKey()
{
    return kApiKey;
}

AssistantPage::TestQuestion AssistantPage::testQuestion()
{
    return {tr("Are you open on Saturdays?"),
            QLocale().language() == QLocale::Turkish ? QStringLiteral("tr") : QStringLiteral("en"),
            tr("What are your opening hours?"),
            tr("We are open from 9:00 to 18:00 on weekdays and from 10:00 to 16:00 on Saturdays.")};
}

QLabel *AssistantPage::errorLabel(const QString &key) const
{
    return findChild<QLabel *>(key + QLatin1String("Error"));
}

void AssistantPage::setValues(const Values &values)
{
    Values texts = values;
    texts.remove(kApiKey); // never shown
    m_form.setTexts(texts);
    bool ok = false;
    const int timeout = values.value(kTimeout).toInt(&ok);
    m_timeout->setValue(ok ? timeout : 0);
    for (auto it = m_thresholds.begin(); it != m_thresholds.end(); ++it) {
        // The settings file's numbers have a full stop, whatever the window's language.
        const double v = values.value(it.key()).toDouble(&ok);
        it.value()->setValue(ok ? v : 0);
    }
    for (auto it = m_autoReply.begin(); it != m_autoReply.end(); ++it)
        it.value()->setCurrentIndex(
            qMax(0, it.value()->findData(values.value(kAutoReply + it.key()).trimmed().toLower())));
    m_storedKey = values.value(kApiKey);
    updateKeyState();
    m_errors.clear();
}

AssistantPage::Values AssistantPage::values() const
{
    Values out = m_form.texts();
    out.insert(kTimeout, QString::number(m_timeout->value()));
    for (auto it = m_thresholds.begin(); it != m_thresholds.end(); ++it)
        out.insert(it.key(), QString::number(it.value()->value()));
    for (auto it = m_autoReply.begin(); it != m_autoReply.end(); ++it)
        out.insert(kAutoReply + it.key(), it.value()->currentData().toString());
    const QString typed = out.value(kApiKey);
    out.insert(kApiKey, typed.isEmpty() ? m_storedKey : typed);
    return out;
}

bool AssistantPage::check()
{
    m_errors.clear();
    if (!m_check)
        return true;
    return !SettingsForm::showProblems(this, m_errors, m_check(values()));
}

void AssistantPage::updateKeyState()
{
    const bool typed = !field(kApiKey)->text().trimmed().isEmpty();
    m_keyState->setText(typed                   ? tr("The key typed above is stored when you save.")
                        : m_storedKey.isEmpty() ? tr("No key is stored.")
                                                : tr("A key is stored; type another to replace it."));
    m_removeKey->setEnabled(!m_storedKey.isEmpty() || typed);
}

bool AssistantPage::save()
{
    const QString problem = check() ? QString() : tr("correct the fields marked above.");
    const Values v = values();
    if (!m_form.save(problem, m_save ? [this, &v](QString *error) { return m_save(v, error); }
                                     : std::function<bool(QString *)>()))
        return false;
    m_storedKey = v.value(kApiKey);
    field(kApiKey)->clear();
    updateKeyState();
    return true;
}

void AssistantPage::showTestResult(const QString &text, bool ok)
{
    m_testResult->setText(text);
    UiKit::setTone(m_testResult, ok ? UiKit::Tone::Normal : UiKit::Tone::Danger);
}

void AssistantPage::tryModel()
{
    if (!m_testButton->isEnabled())
        return; // one question at a time
    // Only the model's own fields stand in the way: a threshold being typed does not.
    m_errors.clear();
    const Values v = values();
    if (m_check) {
        const FieldProblems problems = m_check(v);
        FieldProblems model;
        for (const QString &key : {kBaseUrl, kModel, kTimeout}) {
            if (problems.contains(key))
                model.insert(key, problems.value(key));
        }
        if (SettingsForm::showProblems(this, m_errors, model)) {
            showTestResult(tr("Not asked: correct the fields marked above."), false);
            return;
        }
    }
    if (v.value(kBaseUrl).isEmpty()) {
        QJsonObject details;
        details.insert(kBaseUrl, tr("Type the model's base URL first."));
        m_errors.show(QString(), details);
        field(kBaseUrl)->setFocus();
        showTestResult(tr("Not asked: no language model is set up."), false);
        return;
    }
    if (!m_test) {
        showTestResult(tr("Trying the model is not available here."), false);
        return;
    }
    m_testButton->setEnabled(false);
    showTestResult(tr("Asking the model…"), true);
    QPointer<AssistantPage> self(this);
    m_test(v, testQuestion(), [self](const TestOutcome &o) {
        if (!self)
            return;
        self->m_testButton->setEnabled(true);
        const QString seconds = QLocale().toString(o.latencyMs / 1000.0, 'f', 1);
        switch (o.kind) {
        case TestOutcome::Answered:
            self->showTestResult(tr("The model answered in %1 s: “%2”").arg(seconds, o.text), true);
            break;
        case TestOutcome::Declined:
            self->showTestResult(tr("The model answered in %1 s that the entry does not answer the question: it "
                                    "would hand the question to a person.")
                                     .arg(seconds),
                                 true);
            break;
        case TestOutcome::Failed:
            self->showTestResult(
                tr("No answer from the model: %1").arg(o.error.isEmpty() ? tr("no connection") : o.error), false);
            break;
        }
    });
}
