#include "ui/settings/secretdialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

SecretDialog::SecretDialog(const QString &title, const QString &secret, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("secretDialog"));
    setWindowTitle(title);
    auto *warning = new QLabel(tr("Copy this secret now: it is not shown again. Receivers use it to check the "
                                  "X-Service-Signature header."),
                               this);
    warning->setWordWrap(true);
    m_secret = new QLineEdit(secret, this);
    m_secret->setObjectName(QStringLiteral("secretValue"));
    m_secret->setReadOnly(true);
    auto *copy = new QPushButton(tr("Copy"), this);
    copy->setObjectName(QStringLiteral("copySecretButton"));
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_secret->text()); });
    auto *row = new QHBoxLayout;
    row->addWidget(m_secret, 1);
    row->addWidget(copy);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(warning);
    layout->addLayout(row);
    layout->addWidget(buttons);
    resize(520, 160);
}
