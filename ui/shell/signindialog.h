#pragma once

#include "model/accounts/userrepository.h"

#include <QDialog>

#include <functional>
#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;

// Who works in the window: e-mail and password, the same accounts as the API's /auth/login. The
// app checks them (UserRepository::checkCredentials) and remembers the session; this dialog asks, shows
// a refusal in the window's words and stays open until a user is signed in or it is cancelled (the
// app then quits: nobody works in a shared CRM without an account).
class SignInDialog : public QDialog
{
    Q_OBJECT
public:
    // The signed-in user, or nullopt for a wrong e-mail or password (or a deactivated account: the
    // same answer, as the API gives). Throws for anything else (the database is unreachable), which
    // is shown as it is.
    using Authenticate = std::function<std::optional<User>(const QString &email, const QString &password)>;

    // where: what the window works on, shown under the heading ("db.example.com/liaison").
    SignInDialog(Authenticate authenticate, const QString &where, QWidget *parent = nullptr);

    // Fills the e-mail field (the last user signed in, or a refusal to explain).
    void setEmail(const QString &email);
    // A line above the fields: why the sign-in is asked now ("You were signed out: …").
    void setNotice(const QString &text);
    // The user signed in when the dialog was accepted.
    const User &user() const { return m_user; }

public slots:
    void signIn();

private:
    Authenticate m_authenticate;
    QLabel *m_notice = nullptr;
    QLineEdit *m_email = nullptr;
    QLineEdit *m_password = nullptr;
    QPushButton *m_signIn = nullptr;
    QLabel *m_error = nullptr;
    User m_user;
};
