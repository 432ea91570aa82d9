#include "ui/settings/incomingwebhookdialog.h"

#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/uikit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QVBoxLayout>

using namespace UiKit;

IncomingWebhookDialog::IncomingWebhookDialog(IncomingWebhookRepository &repository, QWidget *parent)
    : QDialog(parent)
    , m_repository(repository)
{
    setObjectName(QStringLiteral("incomingWebhookDialog"));
    setWindowTitle(tr("Add incoming webhook"));
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_action = new QComboBox(this);
    m_action->setObjectName(QStringLiteral("actionBox"));
    const QStringList actions = IncomingActions::all();
    const QStringList labels{tr("Create or update a contact"), tr("Create or update a deal"), tr("Create a task"),
                             tr("Receive a message")};
    for (int i = 0; i < actions.size(); ++i)
        m_action->addItem(QStringLiteral("%1 (%2)").arg(labels.value(i), actions.at(i)), actions.at(i));
    m_signed = new QCheckBox(tr("Require a signature (X-Service-Signature)"), this);
    m_signed->setObjectName(QStringLiteral("signedBox"));
    m_error = errorLabel(this);
    auto *form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Action"), m_action);
    form->addRow(QString(), m_signed);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &IncomingWebhookDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

void IncomingWebhookDialog::accept()
{
    IncomingWebhookChanges changes;
    changes.name = m_name->text();
    changes.action = m_action->currentData().toString();
    changes.generateSecret = m_signed->isChecked();
    try {
        const IncomingWebhookRepository::Saved saved = m_repository.create(changes);
        Q_EMIT created(saved.endpoint.id, saved.secret);
        QDialog::accept();
    } catch (const DomainError &e) {
        showError(m_error, e.problems().isEmpty() ? ErrorText::of(e)
                                                  : QCoreApplication::translate("FieldErrors", "%1: %2")
                                                        .arg(ErrorText::fieldLabel(e.problems().firstKey()),
                                                             ErrorText::text(e.problems().first())));
    } catch (const std::exception &e) {
        showError(m_error, ErrorText::of(e));
    }
}
