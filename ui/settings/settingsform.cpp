#include "ui/settings/settingsform.h"

#include "ui/shell/errortext.h"
#include "ui/shell/fielderrors.h"
#include "ui/shell/uikit.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

SettingsForm::SettingsForm(QWidget *page, const QString &intro, const QString &namePrefix)
{
    auto *outer = new QVBoxLayout(page);
    auto *introLabel = new QLabel(intro, page);
    introLabel->setWordWrap(true);
    outer->addWidget(introLabel);

    auto *scroll = new QScrollArea(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_content = new QWidget(scroll);
    m_groups = new QVBoxLayout(m_content);
    scroll->setWidget(m_content);
    outer->addWidget(scroll, 1);

    auto *buttons = new QHBoxLayout;
    m_saveResult = new QLabel(page);
    m_saveResult->setObjectName(namePrefix + QStringLiteral("SaveResult"));
    m_saveResult->setTextFormat(Qt::PlainText); // data from outside is never markup
    m_saveResult->setWordWrap(true);
    m_saveButton = new QPushButton(tr("Save"), page);
    m_saveButton->setObjectName(namePrefix + QStringLiteral("Save"));
    buttons->addWidget(m_saveResult, 1);
    buttons->addWidget(m_saveButton);
    outer->addLayout(buttons);
}

QLineEdit *SettingsForm::addField(QFormLayout *form, const QString &key, const QString &label,
                                  const QString &placeholder, bool secret, FieldErrors *errors)
{
    auto *edit = new QLineEdit(form->parentWidget());
    edit->setObjectName(key);
    edit->setPlaceholderText(placeholder);
    if (secret)
        edit->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    if (errors)
        form->addRow(label, errors->cell(edit, {key}, form->parentWidget()));
    else
        form->addRow(label, edit);
    m_fields.insert(key, edit);
    return edit;
}

void SettingsForm::setTexts(const Values &values)
{
    for (auto it = m_fields.begin(); it != m_fields.end(); ++it)
        it.value()->setText(values.value(it.key()));
}

SettingsForm::Values SettingsForm::texts() const
{
    Values out;
    for (auto it = m_fields.begin(); it != m_fields.end(); ++it)
        out.insert(it.key(), it.value()->text().trimmed());
    return out;
}

bool SettingsForm::save(const QString &problem, const std::function<bool(QString *error)> &write)
{
    QString error = problem;
    if (error.isEmpty() && !write) {
        m_saveResult->setText(tr("Saving is not available here."));
        UiKit::setTone(m_saveResult, UiKit::Tone::Normal);
        return false;
    }
    if (!error.isEmpty() || !write(&error)) {
        m_saveResult->setText(tr("Not saved: %1").arg(error));
        UiKit::setTone(m_saveResult, UiKit::Tone::Danger);
        return false;
    }
    m_saveResult->setText(tr("Saved. The changes take effect at the next start."));
    UiKit::setTone(m_saveResult, UiKit::Tone::Normal);
    return true;
}

bool SettingsForm::showProblems(QWidget *page, FieldErrors &errors, const FieldProblems &problems)
{
    if (problems.isEmpty())
        return false;
    QJsonObject details;
    for (auto it = problems.begin(); it != problems.end(); ++it)
        details.insert(it.key(), ErrorText::text(it.value()));
    const QString first = errors.show(QString(), details);
    if (QWidget *w = page->findChild<QWidget *>(first))
        w->setFocus();
    return true;
}
