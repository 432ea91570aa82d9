#include "ui/settings/templatespage.h"

#include "ui/shell/emptyhint.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/uikit.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
QString categoryName(const QString &category)
{
    if (category == QLatin1String("marketing"))
        return TemplatesPage::tr("Marketing");
    if (category == QLatin1String("utility"))
        return TemplatesPage::tr("Utility");
    if (category == QLatin1String("authentication"))
        return TemplatesPage::tr("Authentication");
    return category;
}

QString statusName(const QString &status)
{
    if (status == QLatin1String("approved"))
        return TemplatesPage::tr("Approved");
    if (status == QLatin1String("pending"))
        return TemplatesPage::tr("Pending");
    if (status == QLatin1String("rejected"))
        return TemplatesPage::tr("Rejected");
    return status;
}

QComboBox *choice(const QStringList &values, QString (*name)(const QString &), const QString &objectName,
                  QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(objectName);
    for (const QString &v : values)
        combo->addItem(name(v), v);
    return combo;
}
} // namespace

TemplatesPage::TemplatesPage(const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_templates(store)
{
    setObjectName(QStringLiteral("templatesPage"));
    m_table = UiKit::recordTable(ColumnCount, {tr("Name"), tr("Language"), tr("Category"), tr("Status"), tr("Text")},
                                 QStringLiteral("templatesTable"), this);
    installEmptyHint(m_table, tr("No templates yet. Add the ones Meta approved, with Add…, to send them from the "
                                 "Inbox."));
    m_table->setAlternatingRowColors(true);
    m_add = new QPushButton(tr("Add…"), this);
    m_add->setObjectName(QStringLiteral("addTemplateButton"));
    m_edit = new QPushButton(tr("Edit…"), this);
    m_edit->setObjectName(QStringLiteral("editTemplateButton"));
    m_delete = new QPushButton(tr("Delete"), this);
    m_delete->setObjectName(QStringLiteral("deleteTemplateButton"));
    m_error = UiKit::errorLabel(this);
    UiKit::layOutRecordPage(this,
                            tr("Message templates for WhatsApp: an approved one is needed to write first, or after "
                               "24 hours without an answer. {{1}}, {{2}}… in the text are filled in when it is "
                               "sent. Add them here as they were approved in Meta's WhatsApp Manager."),
                            m_table, m_error, {m_add, m_edit, m_delete});
    connect(m_add, &QPushButton::clicked, this, &TemplatesPage::addTemplate);
    connect(m_edit, &QPushButton::clicked, this, &TemplatesPage::editTemplate);
    connect(m_delete, &QPushButton::clicked, this, &TemplatesPage::deleteTemplate);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &TemplatesPage::updateActions);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, &TemplatesPage::editTemplate);
    reload();
}

QString TemplatesPage::currentTemplateId() const
{
    return UiKit::selectedId(m_table);
}

void TemplatesPage::reload()
{
    const QString selected = currentTemplateId();
    QVector<MessageTemplate> all;
    try {
        all = m_templates.list();
    } catch (const std::exception &e) {
        UiKit::showError(m_error, tr("Could not read the templates: %1").arg(ErrorText::of(e)));
        return;
    }
    m_table->setRowCount(int(all.size()));
    for (int row = 0; row < all.size(); ++row) {
        const MessageTemplate &t = all.at(row);
        m_table->setItem(row, NameColumn, UiKit::tableItem(t.name, t.id));
        m_table->setItem(row, LanguageColumn, UiKit::tableItem(t.language));
        m_table->setItem(row, CategoryColumn, UiKit::tableItem(categoryName(t.category)));
        m_table->setItem(row, StatusColumn, UiKit::tableItem(statusName(t.status)));
        m_table->setItem(row, BodyColumn,
                         UiKit::tableItem(QString(t.body).replace(QLatin1Char('\n'), QLatin1Char(' '))));
    }
    for (int c = 0; c < ColumnCount - 1; ++c)
        m_table->resizeColumnToContents(c);
    if (!selected.isEmpty())
        UiKit::reselect(m_table, selected);
    updateActions();
}

void TemplatesPage::updateActions()
{
    const bool has = !currentTemplateId().isEmpty();
    m_edit->setEnabled(has);
    m_delete->setEnabled(has);
}

void TemplatesPage::addTemplate()
{
    UiKit::showError(m_error, {});
    auto *dialog = new TemplateDialog(m_templates, {}, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        reload();
        UiKit::reselect(m_table, dialog->saved().id);
    });
    dialog->open();
}

void TemplatesPage::editTemplate()
{
    const QString id = currentTemplateId();
    if (id.isEmpty())
        return;
    UiKit::showError(m_error, {});
    MessageTemplate existing;
    try {
        existing = m_templates.get(id);
    } catch (const std::exception &e) {
        UiKit::showError(m_error, ErrorText::of(e));
        reload();
        return;
    }
    auto *dialog = new TemplateDialog(m_templates, existing, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, &TemplatesPage::reload);
    dialog->open();
}

void TemplatesPage::deleteTemplate()
{
    const QString id = currentTemplateId();
    if (id.isEmpty())
        return;
    const QString name = m_table->item(m_table->selectedItems().first()->row(), NameColumn)->text();
    MessageBoxes::confirm(this, tr("Delete template"),
                          tr("Delete the template \"%1\"? The composer stops offering it.").arg(name), tr("Delete"),
                          [this, id] {
                              QString refusal;
                              try {
                                  m_templates.remove(id);
                              } catch (const std::exception &e) {
                                  refusal = ErrorText::of(e);
                              }
                              reload();
                              UiKit::showError(m_error, refusal);
                          });
}

TemplateDialog::TemplateDialog(TemplateRepository &templates, const MessageTemplate &existing, QWidget *parent)
    : QDialog(parent)
    , m_templates(templates)
    , m_original(existing)
{
    const bool adding = existing.id.isEmpty();
    setObjectName(QStringLiteral("templateDialog"));
    setWindowTitle(adding ? tr("Add template") : tr("Edit template"));
    m_name = new QLineEdit(existing.name, this);
    m_name->setObjectName(QStringLiteral("templateNameEdit"));
    m_name->setPlaceholderText(tr("e.g. order_update"));
    m_language = new QLineEdit(existing.language, this);
    m_language->setObjectName(QStringLiteral("templateLanguageEdit"));
    m_language->setPlaceholderText(tr("e.g. tr or en_US"));
    m_category = choice(TemplateRules::categories(), categoryName, QStringLiteral("templateCategoryCombo"), this);
    m_category->setCurrentIndex(
        qMax(0, m_category->findData(existing.category.isEmpty() ? QStringLiteral("utility") : existing.category)));
    m_status = choice(TemplateRules::statuses(), statusName, QStringLiteral("templateStatusCombo"), this);
    m_status->setCurrentIndex(
        qMax(0, m_status->findData(existing.status.isEmpty() ? QStringLiteral("approved") : existing.status)));
    m_body = new QPlainTextEdit(existing.body, this);
    m_body->setObjectName(QStringLiteral("templateBodyEdit"));
    m_body->setPlaceholderText(tr("Hello {{1}}, your order {{2}} is on its way."));
    QStringList buttonTexts;
    for (const QJsonValue &b : existing.buttons)
        buttonTexts << b.toObject().value(QStringLiteral("text")).toString();
    m_buttons = new QPlainTextEdit(buttonTexts.join(QLatin1Char('\n')), this);
    m_buttons->setObjectName(QStringLiteral("templateButtonsEdit"));
    m_buttons->setPlaceholderText(tr("Quick reply buttons, one a line (optional)"));
    m_buttons->setMaximumHeight(4 * fontMetrics().height() + 12);
    m_error = UiKit::errorLabel(this);

    auto *form = new QFormLayout;
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Language:"), m_language);
    form->addRow(tr("Category:"), m_category);
    form->addRow(tr("Status:"), m_status);
    form->addRow(tr("Text:"), m_body);
    form->addRow(tr("Buttons:"), m_buttons);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(adding ? tr("Add") : tr("Save"));
    connect(buttons, &QDialogButtonBox::accepted, this, &TemplateDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    setMinimumWidth(480);
}

void TemplateDialog::accept()
{
    TemplateChanges changes;
    changes.name = m_name->text();
    changes.language = m_language->text();
    changes.category = m_category->currentData().toString();
    changes.status = m_status->currentData().toString();
    changes.body = m_body->toPlainText();
    QStringList buttons;
    for (const QString &line : m_buttons->toPlainText().split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            buttons << line.trimmed();
    }
    changes.buttons = buttons;
    try {
        m_saved = m_original.id.isEmpty() ? m_templates.create(changes) : m_templates.update(m_original.id, changes);
    } catch (const std::exception &e) {
        UiKit::showError(m_error, ErrorText::of(e)); // the model's message names the field and the rule
        return;
    }
    QDialog::accept();
}
