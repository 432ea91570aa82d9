#pragma once

#include "model/accounts/userrepository.h"
#include "model/core/store.h"

#include <QDialog>
#include <QWidget>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

// Settings > Users (an admin's page): everyone who signs in, with role and state; Add… (name,
// e-mail, role, first password), Edit… (name, role), Set password…, Deactivate / Activate. A
// deactivation or a new password ends the user's sessions at once (their refresh tokens, as the
// API's PATCH /users/:id and password change do); a deactivated user's API keys are refused. The
// model refuses to leave no active admin, and the page says so in the window's words.
class UsersPage : public QWidget
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        EmailColumn,
        RoleColumn,
        StateColumn,
        CreatedColumn,
        ColumnCount
    };
    // Passwords are hashed and sessions ended by the model's account rules (UserRepository).
    explicit UsersPage(const Store &store, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    QString currentUserId() const;

public slots:
    void reload();
    void addUser();
    void editUser();
    void setPassword();
    void toggleActive();

private:
    void updateActions();
    std::optional<User> current() const;

    UserRepository m_users;
    QTableWidget *m_table = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_password = nullptr;
    QPushButton *m_active = nullptr;
    QLabel *m_error = nullptr;
    QVector<User> m_list;
};

// Add (name, e-mail, role, password twice) or edit (name, role) a user; stays open on a refusal.
class UserDialog : public QDialog
{
    Q_OBJECT
public:
    // Adding: `user` empty. Editing: its name and role are offered.
    UserDialog(UserRepository &users, const User &user = {}, QWidget *parent = nullptr);
    const User &saved() const { return m_saved; }

public slots:
    void accept() override;

private:
    UserRepository &m_users;
    User m_original;
    User m_saved;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_email = nullptr;
    QComboBox *m_role = nullptr;
    QLineEdit *m_pass = nullptr;
    QLineEdit *m_repeat = nullptr;
    QLabel *m_error = nullptr;
};

// A new password, twice: an admin's for another user (Settings > Users), or one's own (File > Change
// password…, which asks for the current one first). Stays open on a refusal.
class PasswordDialog : public QDialog
{
    Q_OBJECT
public:
    // Stores the new password; false when the current one (own password only) is wrong. Throws
    // DomainError when the model refuses.
    using Setter = std::function<bool(const QString &current, const QString &password)>;
    enum class Whose
    {
        AnotherUser,
        Own
    };
    PasswordDialog(const QString &userName, Setter set, Whose whose = Whose::AnotherUser, QWidget *parent = nullptr);

public slots:
    void accept() override;

private:
    Setter m_set;
    QLineEdit *m_current = nullptr;
    QLineEdit *m_pass = nullptr;
    QLineEdit *m_repeat = nullptr;
    QLabel *m_error = nullptr;
};
