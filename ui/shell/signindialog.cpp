#include "ui/shell/signindialog.h"

#include "ui/shell/errortext.h"
#include "ui/shell/uikit.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

SignInDialog::SignInDialog(Authenticate authenticate, const QString &where, QWidget *parent)
    : QDialog(parent)
    , m_authenticate(std::move(authenticate))
{
    setObjectName(QStringLiteral("signInDialog"));
    setWindowTitle(tr("Sign in to Liaison"));

    auto *heading = new QLabel(tr("Sign in to Liaison"), this);
    heading->setTextFormat(Qt::PlainText);
    QFont f = heading->font();
    f.setPointSizeF(f.pointSizeF() * 1.35);
    f.setBold(true);
    heading->setFont(f);
    auto *place = new QLabel(where, this);
    place->setObjectName(QStringLiteral("signInWhere"));
    place->setTextFormat(Qt::PlainText);
    place->setWordWrap(true);
    place->setVisible(!where.isEmpty());
    place->setStyleSheet(QStringLiteral("color: palette(placeholder-text);"));

    m_notice = new QLabel(this);
    m_notice->setObjectName(QStringLiteral("signInNotice"));
    m_notice->setTextFormat(Qt::PlainText);
    m_notice->setWordWrap(true);
    m_notice->hide();

    m_email = new QLineEdit(this);
    m_email->setObjectName(QStringLiteral("signInEmail"));
    m_email->setPlaceholderText(tr("name@company.com"));
    m_password = new QLineEdit(this);
    m_password->setObjectName(QStringLiteral("signInPassword"));
    m_password->setEchoMode(QLineEdit::Password);
    m_error = UiKit::errorLabel(this, QStringLiteral("signInError"));

    auto *form = new QFormLayout;
    form->addRow(tr("E-mail:"), m_email);
    form->addRow(tr("Password:"), m_password);

    auto *buttons = new QDialogButtonBox(this);
    m_signIn = buttons->addButton(tr("Sign in"), QDialogButtonBox::AcceptRole);
    m_signIn->setObjectName(QStringLiteral("signInButton"));
    m_signIn->setDefault(true);
    QPushButton *quit = buttons->addButton(tr("Quit"), QDialogButtonBox::RejectRole);
    quit->setObjectName(QStringLiteral("signInQuitButton"));
    connect(m_signIn, &QPushButton::clicked, this, &SignInDialog::signIn);
    connect(quit, &QPushButton::clicked, this, &QDialog::reject);
    auto enable = [this] {
        m_signIn->setEnabled(!m_email->text().trimmed().isEmpty() && !m_password->text().isEmpty());
    };
    connect(m_email, &QLineEdit::textChanged, this, enable);
    connect(m_password, &QLineEdit::textChanged, this, enable);
    enable();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(heading);
    layout->addWidget(place);
    layout->addWidget(m_notice);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addStretch(1);
    layout->addWidget(buttons);
    layout->setSizeConstraint(QLayout::SetMinimumSize); // a notice and an error make it taller, never squeezed
    setMinimumWidth(420);
}

void SignInDialog::setEmail(const QString &email)
{
    m_email->setText(email);
    (email.isEmpty() ? m_email : m_password)->setFocus();
}

void SignInDialog::setNotice(const QString &text)
{
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
}

void SignInDialog::signIn()
{
    if (!m_signIn->isEnabled())
        return;
    UiKit::showError(m_error, {});
    std::optional<User> user;
    QApplication::setOverrideCursor(Qt::WaitCursor); // the password check takes a moment, on purpose
    try {
        user = m_authenticate(m_email->text().trimmed(), m_password->text());
    } catch (const std::exception &e) {
        QApplication::restoreOverrideCursor();
        UiKit::showError(m_error, tr("Could not sign in: %1").arg(ErrorText::of(e)));
        return;
    }
    QApplication::restoreOverrideCursor();
    if (!user) {
        UiKit::showError(m_error, tr("E-mail or password is wrong."));
        m_password->selectAll();
        m_password->setFocus();
        return;
    }
    m_user = *user;
    m_password->clear();
    accept();
}
