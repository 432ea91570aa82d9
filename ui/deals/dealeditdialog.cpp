#include "ui/deals/dealeditdialog.h"

#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/errors.h"
#include "model/deals/dealrepository.h"
#include "model/deals/pipelinerepository.h"
#include "ui/deals/dealdialogs.h"
#include "ui/shell/amountedit.h"
#include "ui/shell/errortext.h"
#include "ui/shell/recordpicker.h"
#include "ui/shell/uikit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {
// The codes most deals here use, offered first; every other ISO 4217 code follows.
const QStringList kCommonCurrencies{QStringLiteral("TRY"), QStringLiteral("USD"), QStringLiteral("EUR"),
                                    QStringLiteral("GBP")};
} // namespace

DealEditDialog::DealEditDialog(DealRepository &deals, const QString &pipelineId, QWidget *parent)
    : QDialog(parent)
    , m_deals(deals)
{
    build(pipelineId);
    UiKit::nameFormFields(this); // each field named by its row's label, for a screen reader
    setWindowTitle(tr("New deal"));
    onStageChosen();
    // A new deal is the signed-in user's unless they give it to someone else.
    if (const QString me = m_deals.store().actorOr({}); !me.isEmpty())
        m_owner->setCurrentIndex(qMax(0, m_owner->findData(me)));
}

DealEditDialog::DealEditDialog(DealRepository &deals, const Deal &deal, QWidget *parent)
    : QDialog(parent)
    , m_deals(deals)
    , m_original(deal)
{
    build(deal.pipelineId);
    UiKit::nameFormFields(this); // each field named by its row's label, for a screen reader
    setWindowTitle(tr("Edit deal: %1").arg(deal.name));
    load(deal);
}

DealEditDialog::~DealEditDialog()
{
    disconnect(m_value, nullptr, this, nullptr);
}

void DealEditDialog::build(const QString &pipelineId)
{
    setObjectName(QStringLiteral("dealEditDialog"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_errors.createFormLabel(this));
    m_form = new QFormLayout;
    layout->addLayout(m_form);

    auto cell = [this](QWidget *w, const QStringList &keys) { return m_errors.cell(w, keys, this); };
    auto row = [this](std::initializer_list<QWidget *> widgets) { return FieldErrors::row(widgets, this); };

    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_name->setPlaceholderText(tr("What is being sold, to whom?"));
    m_name->setAccessibleName(tr("Name", "the name field, as a screen reader names it"));
    m_form->addRow(tr("Name:"), cell(m_name, {QStringLiteral("name")}));

    // Typed in the window's form or another unambiguous one; empty is a deal without a value yet.
    m_value = new AmountEdit(this);
    m_value->setObjectName(QStringLiteral("valueSpin")); // the name of the spin box it replaced
    m_value->setAccessibleName(tr("Value", "the value field, as a screen reader names it"));
    m_value->setEmptyValue(0);
    m_value->setPlaceholderText(AmountEdit::amountText(0, m_value->locale()));
    m_currency = new QComboBox(this);
    m_currency->setObjectName(QStringLiteral("currencyCombo"));
    m_currency->setEditable(true);
    m_currency->setInsertPolicy(QComboBox::NoInsert);
    m_currency->addItems(kCommonCurrencies);
    for (const QString &code : DealRules::currencies()) {
        if (!kCommonCurrencies.contains(code))
            m_currency->addItem(code);
    }
    // What the field understood, with the chosen currency, under the field and the currency.
    connect(m_currency, &QComboBox::currentTextChanged, m_value,
            [this](const QString &code) { m_value->setCurrency(code.trimmed().toUpper()); });
    m_value->setCurrency(m_currency->currentText().trimmed().toUpper());
    QVBoxLayout *valueCell = cell(row({m_value, m_currency}), {QStringLiteral("value"), QStringLiteral("currency")});
    valueCell->insertWidget(1, m_value->readingLabel());
    // The refusal of OK goes when the amount is typed again; the label under the field tells the rest.
    connect(m_value, &AmountEdit::readingChanged, this, [this] {
        if (m_valueRefused)
            m_errors.clear();
        m_valueRefused = false;
    });
    m_form->addRow(tr("Value:"), valueCell);

    m_pipeline = new QComboBox(this);
    m_pipeline->setObjectName(QStringLiteral("pipelineCombo"));
    try {
        m_pipelines = PipelineRepository(m_deals.store()).list();
    } catch (const std::exception &) {
        // No pipelines readable: the repository's refusal on OK says why.
    }
    for (const Pipeline &p : std::as_const(m_pipelines))
        m_pipeline->addItem(DealText::pipelineName(p), p.id);
    m_pipeline->setCurrentIndex(qMax(0, m_pipeline->findData(pipelineId)));
    m_stage = new QComboBox(this);
    m_stage->setObjectName(QStringLiteral("stageCombo"));
    m_form->addRow(tr("Pipeline:"), cell(row({m_pipeline, new QLabel(tr("Stage:"), this), m_stage}),
                                         {QStringLiteral("pipelineId"), QStringLiteral("stage")}));

    m_probability = new QSpinBox(this);
    m_probability->setObjectName(QStringLiteral("probabilitySpin"));
    m_probability->setRange(0, 100);
    // Where the sign goes is the language's ("20 %", Turkish "%20"): the translation places it.
    const QString percent = tr("%1 %", "a percentage");
    m_probability->setPrefix(percent.section(QStringLiteral("%1"), 0, 0));
    m_probability->setSuffix(percent.section(QStringLiteral("%1"), 1));
    m_form->addRow(tr("Probability:"), cell(m_probability, {QStringLiteral("probability")}));

    m_contact = createContactPicker(ContactRepository(m_deals.store()), this);
    m_form->addRow(tr("Contact:"), cell(m_contact, {QStringLiteral("contactId")}));

    m_owner = new QComboBox(this);
    m_owner->setObjectName(QStringLiteral("ownerCombo"));
    fillActiveUsers(m_owner, tr("(unassigned)"), UserRepository(m_deals.store()));
    m_form->addRow(tr("Owner:"), cell(m_owner, {QStringLiteral("assignedTo")}));

    m_hasClose = new QCheckBox(tr("Expected to close on"), this);
    m_hasClose->setObjectName(QStringLiteral("hasCloseDateCheck"));
    m_closeDate = new QDateEdit(m_deals.store().today().addMonths(1), this);
    m_closeDate->setObjectName(QStringLiteral("closeDateEdit"));
    m_closeDate->setCalendarPopup(true);
    m_closeDate->setEnabled(false);
    connect(m_hasClose, &QCheckBox::toggled, m_closeDate, &QWidget::setEnabled);
    m_form->addRow(tr("Close date:"), cell(row({m_hasClose, m_closeDate}), {QStringLiteral("expectedCloseDate")}));

    m_description = new QPlainTextEdit(this);
    m_description->setObjectName(QStringLiteral("descriptionEdit"));
    m_description->setPlaceholderText(tr("Notes about this deal"));
    m_description->setFixedHeight(5 * fontMetrics().height());
    m_form->addRow(tr("Notes:"), cell(m_description, {QStringLiteral("description")}));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Save"));
    connect(buttons, &QDialogButtonBox::accepted, this, &DealEditDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &DealEditDialog::reject);
    layout->addWidget(buttons);

    fillStages(QString());
    connect(m_pipeline, &QComboBox::currentIndexChanged, this, [this] {
        fillStages(QString());
        onStageChosen();
    });
    connect(m_stage, &QComboBox::activated, this, &DealEditDialog::onStageChosen);
}

void DealEditDialog::fillStages(const QString &select)
{
    m_stage->clear();
    const QString pipelineId = m_pipeline->currentData().toString();
    for (const Pipeline &p : std::as_const(m_pipelines)) {
        if (p.id != pipelineId)
            continue;
        for (const PipelineStage &s : p.stages)
            m_stage->addItem(DealText::stageName(s), s.key);
    }
    m_stage->setCurrentIndex(qMax(0, m_stage->findData(select)));
}

void DealEditDialog::onStageChosen()
{
    const QString pipelineId = m_pipeline->currentData().toString();
    for (const Pipeline &p : std::as_const(m_pipelines)) {
        if (p.id == pipelineId) {
            if (const PipelineStage *s = p.stage(m_stage->currentData().toString()))
                m_probability->setValue(s->probability);
        }
    }
}

void DealEditDialog::setContactId(const QString &contactId)
{
    const std::optional<Contact> c =
        contactId.isEmpty() ? std::nullopt : ContactRepository(m_deals.store()).find(contactId);
    m_contact->setCurrent(c ? c->id : QString(), c ? c->displayName() : QString());
}

void DealEditDialog::load(const Deal &d)
{
    m_name->setText(d.name);
    m_value->setValue(d.value);
    m_currency->setCurrentText(d.currency);
    m_pipeline->setCurrentIndex(qMax(0, m_pipeline->findData(d.pipelineId)));
    fillStages(d.stage);
    m_probability->setValue(d.probability);
    m_contact->setCurrent(d.contactId, d.contactName.isEmpty() ? d.contactId : d.contactName);
    if (!d.assignedTo.isEmpty() && m_owner->findData(d.assignedTo) < 0)
        m_owner->addItem(d.assignedName.isEmpty() ? d.assignedTo : d.assignedName, d.assignedTo);
    m_owner->setCurrentIndex(qMax(0, m_owner->findData(d.assignedTo)));
    m_hasClose->setChecked(!d.expectedCloseDate.isEmpty());
    if (!d.expectedCloseDate.isEmpty())
        m_closeDate->setDate(QDate::fromString(d.expectedCloseDate, Qt::ISODate));
    m_description->setPlainText(d.description);
}

DealChanges DealEditDialog::changes() const
{
    // A new deal gets every field; an edit only what changed, so that a field changed elsewhere
    // meanwhile is kept.
    const bool edit = isEditing();
    const Deal &o = m_original;
    DealChanges c;
    const auto put = [edit](auto &field, const auto &value, const auto &original) {
        if (!edit || value != original)
            field = value;
    };
    put(c.name, m_name->text().trimmed(), o.name);
    // A refused value stays as it was (accept() refuses to save it).
    put(c.value, m_value->value().value_or(o.value), o.value);
    put(c.currency, m_currency->currentText().trimmed().toUpper(), o.currency);
    put(c.pipelineId, m_pipeline->currentData().toString(), o.pipelineId);
    put(c.stage, m_stage->currentData().toString(), o.stage);
    put(c.probability, m_probability->value(), o.probability);
    put(c.contactId, m_contact->currentId(), o.contactId);
    put(c.assignedTo, m_owner->currentData().toString(), o.assignedTo);
    put(c.expectedCloseDate, m_hasClose->isChecked() ? m_closeDate->date().toString(Qt::ISODate) : QString(),
        o.expectedCloseDate);
    put(c.description, m_description->toPlainText().trimmed(), o.description);
    return c;
}

void DealEditDialog::showError(const QString &message, const QJsonObject &details)
{
    m_errors.show(message, details);
}

void DealEditDialog::accept()
{
    m_errors.clear();
    if (!m_value->value()) {
        // The field tells why under itself; the message on top says it too, and nothing is saved.
        showError(m_value->refusalText(), {});
        m_valueRefused = true;
        m_value->setFocus();
        return;
    }
    try {
        const DealChanges b = changes();
        if (isEditing())
            m_saved = b.isEmpty() ? m_original : m_deals.update(m_original.id, b);
        else
            m_saved = m_deals.create(b);
    } catch (const DomainError &e) {
        showError(ErrorText::of(e), ErrorText::details(e));
        return;
    } catch (const std::exception &e) {
        showError(ErrorText::of(e), {});
        return;
    }
    emit dealSaved(m_saved.id);
    QDialog::accept();
}
