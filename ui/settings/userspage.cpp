#include "ui/settings/userspage.h"

#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "ui/shell/errortext.h"
#include "ui/shell/messageboxes.h"
#include "ui/shell/uikit.h"
#include "ui/shell/welcomedialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
constexpr int kMaxPasswordLength = 1024;

// The two password fields agree and have the length the API asks for; the refusal, else empty.
QString passwordProblem(const QString &password, const QString &repeat)
{
    if (password.size() < WelcomeDialog::kMinPasswordLength || password.size() > kMaxPasswordLength)
        return UsersPage::tr("The password must have at least %n characters.", nullptr,
                             WelcomeDialog::kMinPasswordLength);
    if (password != repeat)
        return UsersPage::tr("The two passwords differ.");
    return {};
}

QString roleName(const QString &role)
{
    return role == QLatin1String("admin") ? UsersPage::tr("Admin") : UsersPage::tr("Agent");
}

QComboBox *roleCombo(QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(QStringLiteral("roleCombo"));
    combo->addItem(UsersPage::tr("Agent: works with the CRM data"), QStringLiteral("agent"));
    combo->addItem(UsersPage::tr("Admin: also users, keys, webhooks, channels"), QStringLiteral("admin"));
    return combo;
}

QLineEdit *passwordEdit(const QString &name, QWidget *parent)
{
    auto *edit = new QLineEdit(parent);
    edit->setObjectName(name);
    edit->setEchoMode(QLineEdit::Password);
    return edit;
}
} // namespace

UsersPage::UsersPage(const Store &store, QWidget *parent)
    : QWidget(parent)
    , m_users(store)
{
    setObjectName(QStringLiteral("usersPage"));
    m_table = UiKit::recordTable(ColumnCount, {tr("Name"), tr("E-mail"), tr("Role"), tr("State"), tr("Added")},
                                 QStringLiteral("usersTable"), this);
    m_table->setAlternatingRowColors(true);
    m_add = new QPushButton(tr("Add…"), this);
    m_add->setObjectName(QStringLiteral("addUserButton"));
    m_edit = new QPushButton(tr("Edit…"), this);
    m_edit->setObjectName(QStringLiteral("editUserButton"));
    m_password = new QPushButton(tr("Set password…"), this);
    m_password->setObjectName(QStringLiteral("setPasswordButton"));
    m_active = new QPushButton(tr("Deactivate"), this);
    m_active->setObjectName(QStringLiteral("toggleActiveButton"));
    m_error = UiKit::errorLabel(this);
    UiKit::layOutRecordPage(this,
                            tr("Everyone who signs in to Liaison, in the window or through the API. Agents work "
                               "with contacts, deals, tasks and the inbox; admins also manage users, API keys, "
                               "webhooks, channels and the other settings."),
                            m_table, m_error, {m_add, m_edit, m_password, m_active});

    connect(m_add, &QPushButton::clicked, this, &UsersPage::addUser);
    connect(m_edit, &QPushButton::clicked, this, &UsersPage::editUser);
    connect(m_password, &QPushButton::clicked, this, &UsersPage::setPassword);
    connect(m_active, &QPushButton::clicked, this, &UsersPage::toggleActive);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &UsersPage::updateActions);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, &UsersPage::editUser);
    // Users added or changed anywhere (the API, the command line, another copy) show at once.
    connect(&store.bus(), &EventBus::changed, this, [this](EventBus::Entity entity) {
        if (entity == EventBus::Entity::User)
            reload();
    });
    reload();
}

QString UsersPage::currentUserId() const
{
    return UiKit::selectedId(m_table);
}

std::optional<User> UsersPage::current() const
{
    const QString id = currentUserId();
    for (const User &u : m_list) {
        if (u.id == id)
            return u;
    }
    return std::nullopt;
}

void UsersPage::reload()
{
    const QString selected = currentUserId();
    try {
        m_list = m_users.list();
    } catch (const std::exception &e) {
        UiKit::showError(m_error, tr("Could not read the users: %1").arg(ErrorText::of(e)));
        return;
    }
    m_table->setRowCount(int(m_list.size()));
    for (int row = 0; row < m_list.size(); ++row) {
        const User &u = m_list.at(row);
        m_table->setItem(row, NameColumn, UiKit::tableItem(u.name, u.id));
        m_table->setItem(row, EmailColumn, UiKit::tableItem(u.email));
        m_table->setItem(row, RoleColumn, UiKit::tableItem(roleName(u.role)));
        m_table->setItem(row, StateColumn, UiKit::tableItem(u.isActive() ? tr("Active") : tr("Deactivated")));
        m_table->setItem(row, CreatedColumn, UiKit::tableItem(UiKit::localTime(u.createdAt)));
        if (!u.isActive()) {
            for (int c = 0; c < ColumnCount; ++c)
                m_table->item(row, c)->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        }
    }
    for (int c = 0; c < ColumnCount - 1; ++c) // the last one stretches to the table's width
        m_table->resizeColumnToContents(c);
    if (!selected.isEmpty())
        UiKit::reselect(m_table, selected);
    updateActions();
}

void UsersPage::updateActions()
{
    UiKit::showError(m_error, {}); // a refusal is about the action it answered, not the next one
    const std::optional<User> u = current();
    m_edit->setEnabled(u.has_value());
    m_password->setEnabled(u.has_value() && u->isActive());
    m_active->setEnabled(u.has_value());
    m_active->setText(u && !u->isActive() ? tr("Activate") : tr("Deactivate"));
}

void UsersPage::addUser()
{
    auto *dialog = new UserDialog(m_users, {}, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        reload();
        UiKit::reselect(m_table, dialog->saved().id);
    });
    dialog->open();
}

void UsersPage::editUser()
{
    const std::optional<User> u = current();
    if (!u)
        return;
    auto *dialog = new UserDialog(m_users, *u, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, &UsersPage::reload);
    dialog->open();
}

void UsersPage::setPassword()
{
    const std::optional<User> u = current();
    if (!u)
        return;
    const QString id = u->id;
    auto *dialog = new PasswordDialog(
        u->name,
        [this, id](const QString &, const QString &password) {
            m_users.setPassword(id, password); // their sessions end, as through the API
            return true;
        },
        PasswordDialog::Whose::AnotherUser, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void UsersPage::toggleActive()
{
    const std::optional<User> u = current();
    if (!u)
        return;
    const QString id = u->id;
    auto apply = [this, id](bool active) {
        QString refusal;
        try {
            m_users.setActive(id, active); // a deactivation ends their sessions with it
        } catch (const std::exception &e) {
            refusal = ErrorText::of(e);
        }
        reload();
        UiKit::showError(m_error, refusal);
    };
    if (!u->isActive()) {
        apply(true);
        return;
    }
    MessageBoxes::confirm(this, tr("Deactivate user"),
                          tr("Deactivate %1? They are signed out at once, in the window and the API, and their "
                             "API keys stop working. Their records stay.")
                              .arg(u->name),
                          tr("Deactivate"), [apply] { apply(false); });
}

UserDialog::UserDialog(UserRepository &users, const User &user, QWidget *parent)
    : QDialog(parent)
    , m_users(users)
    , m_original(user)
{
    const bool adding = user.id.isEmpty();
    setObjectName(QStringLiteral("userDialog"));
    setWindowTitle(adding ? tr("Add user") : tr("Edit user"));
    m_name = new QLineEdit(user.name, this);
    m_name->setObjectName(QStringLiteral("userNameEdit"));
    m_email = new QLineEdit(user.email, this);
    m_email->setObjectName(QStringLiteral("userEmailEdit"));
    m_email->setPlaceholderText(tr("name@company.com"));
    m_email->setReadOnly(!adding); // an e-mail is who signs in: a new address is a new user
    m_role = roleCombo(this);
    m_role->setCurrentIndex(qMax(0, m_role->findData(user.role)));
    m_error = UiKit::errorLabel(this);

    auto *form = new QFormLayout;
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("E-mail:"), m_email);
    form->addRow(tr("Role:"), m_role);
    if (adding) {
        m_pass = passwordEdit(QStringLiteral("userPasswordEdit"), this);
        m_pass->setPlaceholderText(tr("at least %n characters", nullptr, WelcomeDialog::kMinPasswordLength));
        m_repeat = passwordEdit(QStringLiteral("userRepeatEdit"), this);
        form->addRow(tr("Password:"), m_pass);
        form->addRow(tr("Repeat it:"), m_repeat);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(adding ? tr("Add") : tr("Save"));
    connect(buttons, &QDialogButtonBox::accepted, this, &UserDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    setMinimumWidth(440);
}

void UserDialog::accept()
{
    const QString name = m_name->text().trimmed();
    const QString role = m_role->currentData().toString();
    try {
        if (m_original.id.isEmpty()) {
            if (const QString problem = passwordProblem(m_pass->text(), m_repeat->text()); !problem.isEmpty()) {
                UiKit::showError(m_error, problem);
                m_pass->setFocus();
                return;
            }
            m_saved = m_users.create(m_email->text().trimmed(), name, role, PasswordHasher::hash(m_pass->text()));
        } else {
            m_saved = m_users.update(m_original.id, name == m_original.name ? std::nullopt : std::optional(name),
                                     role == m_original.role ? std::nullopt : std::optional(role));
        }
    } catch (const std::exception &e) {
        UiKit::showError(m_error, ErrorText::of(e));
        return;
    }
    QDialog::accept();
}

PasswordDialog::PasswordDialog(const QString &userName, Setter set, Whose whose, QWidget *parent)
    : QDialog(parent)
    , m_set(std::move(set))
{
    setObjectName(QStringLiteral("passwordDialog"));
    setWindowTitle(whose == Whose::Own ? tr("Change password") : tr("Set password"));
    auto *intro = new QLabel(
        whose == Whose::Own
            ? tr("A new password for your account (%1). Your other sessions end; this window stays signed in.")
                  .arg(userName)
            : tr("A new password for %1. They are signed out everywhere and sign in again with it.").arg(userName),
        this);
    intro->setTextFormat(Qt::PlainText);
    intro->setWordWrap(true);
    m_pass = passwordEdit(QStringLiteral("newPasswordEdit"), this);
    m_pass->setPlaceholderText(tr("at least %n characters", nullptr, WelcomeDialog::kMinPasswordLength));
    m_repeat = passwordEdit(QStringLiteral("repeatPasswordEdit"), this);
    m_error = UiKit::errorLabel(this);
    auto *form = new QFormLayout;
    if (whose == Whose::Own) {
        m_current = passwordEdit(QStringLiteral("currentPasswordEdit"), this);
        form->addRow(tr("Current password:"), m_current);
        setTabOrder(m_current, m_pass);
        m_current->setFocus();
    }
    form->addRow(tr("New password:"), m_pass);
    form->addRow(tr("Repeat it:"), m_repeat);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(whose == Whose::Own ? tr("Change password") : tr("Set password"));
    connect(buttons, &QDialogButtonBox::accepted, this, &PasswordDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    setMinimumWidth(400);
}

void PasswordDialog::accept()
{
    if (const QString problem = passwordProblem(m_pass->text(), m_repeat->text()); !problem.isEmpty()) {
        UiKit::showError(m_error, problem);
        m_pass->setFocus();
        return;
    }
    try {
        if (!m_set(m_current ? m_current->text() : QString(), m_pass->text())) {
            UiKit::showError(m_error, tr("The current password is wrong."));
            m_current->selectAll();
            m_current->setFocus();
            return;
        }
    } catch (const std::exception &e) {
        UiKit::showError(m_error, ErrorText::of(e));
        return;
    }
    QDialog::accept();
}
