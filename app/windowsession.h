#pragma once

#include "model/accounts/userrepository.h"
#include "model/core/store.h"

#include <QObject>
#include <QTimer>

#include <optional>

class SecretStore;

// Who works in the desktop window. A sign-in starts a session that is remembered until sign-out: a
// refresh token of the same kind as the API's (`refresh_tokens`, one family per sign-in), kept in
// the secret store under a name of this data directory and database, and exchanged for a new one
// at each start (so that a copied token is found out as the API finds it: the family ends). A
// deactivated user, a password change elsewhere, or a sign-out ends the family, and the next
// start asks again. The acting user (actor()) is what the window's store writes as.
class WindowSession : public QObject
{
    Q_OBJECT
public:
    // secretName: the secret store's entry of this data directory and database;
    // refreshDays: how long a session lasts unused (auth/refreshTokenDays).
    WindowSession(const Store &store, SecretStore &secrets, QString secretName, int refreshDays,
                  QObject *parent = nullptr);

    const Store::Actor &actor() const { return m_actor; }
    // The store without an acting user (sessions are the server's kind of record).
    const Store &store() const { return m_store; }
    const User &user() const { return m_user; }
    bool isSignedIn() const { return !m_user.id.isEmpty(); }

    // The user of the remembered session when it is still good (token valid, user active); the
    // session then continues with a fresh token. nullopt otherwise (nothing remembered, signed out,
    // expired, revoked, reused).
    std::optional<User> restore();
    // The one active user of the data directory, when there is exactly one and the last session
    // did not end with a sign-out (the embedded SQLite default signs them in without asking).
    std::optional<User> soleUser() const;
    // The active user with this e-mail and password (UserRepository::checkCredentials, the API's
    // login check); nullopt otherwise.
    std::optional<User> authenticate(const QString &email, const QString &password) const;
    // The e-mail of the last user who signed in here (to fill the sign-in form).
    QString lastEmail() const;

    // Starts working as `user` and remembers the session.
    void begin(const User &user);
    // The signed-in user's own password: false when `current` is wrong. The user's other sessions
    // end (as a password change through the API ends them); this one goes on with a new token.
    bool changePassword(const QString &current, const QString &password);
    // Sign-out: ends the remembered session (its token family) and forgets it; nobody works in the
    // window until the next sign-in.
    void end();

    // How often a signed-in session checks, besides the news on the bus, that its user is still
    // active and its token still live: a deactivation, a password change or a sign-out made by
    // another process on the SQLite file (the command line) tells this process nothing.
    static constexpr int kCheckIntervalMs = 3000;
    // Checks now (the timer's work).
    void check();

signals:
    // Someone signed in or out (an empty id), or the user's name or role changed.
    void userChanged(const User &user);
    // The signed-in user was deactivated (here, in another copy or from the command line): the
    // session is over.
    void revoked(const QString &email);
    // The session was ended elsewhere (a password change, an admin's sign-out of the user's
    // sessions): the user signs in again.
    void ended(const QString &email);

private:
    void remember(const QString &token, bool signedOut);
    QString issueToken(const QString &userId, const QString &familyId);
    void userRecordChanged(const QString &id);
    void setSignedIn(const User &user, const QString &token);

    Store m_store;
    SecretStore &m_secrets;
    QString m_secretName;
    int m_refreshDays;
    Store::Actor m_actor;
    User m_user;
    QString m_token; // the session's refresh token (empty while nobody is signed in)
    QTimer *m_check = nullptr;
};

class QWidget;

// Asks who works in the window (the sign-in dialog, modal) and begins their session; false when the
// dialog was cancelled. where: what the window works on; notice: why it asks now (may be empty).
// lastEmail: the form starts with the last user's e-mail (not after that user was deactivated).
bool askSignIn(WindowSession &session, const QString &where, const QString &notice, bool lastEmail = true,
               QWidget *parent = nullptr);

// Who works in the window when it starts: the remembered session; else, when `soleUserSignsIn` (the
// embedded SQLite file), the data directory's only active user; else askSignIn(). With no account
// at all nobody signs in (the welcome makes the first one). false: the sign-in was cancelled.
bool signInAtStart(WindowSession &session, const QString &where, bool soleUserSignsIn);

class MainWindow;

// The window follows the session: the signed-in user shown (the areas follow the window's
// signedInUserChanged); the welcome's first account (an admin) signed in at once; File > Sign out
// and File > Change password…; a deactivation, or the session ended elsewhere, closes the open
// dialogs, hides the window and asks who works next (askSignIn; cancelled: the app quits).
void followSession(MainWindow &window, WindowSession &session, const QString &where);
