#include "app/windowsession.h"

#include "app/secrets/secretstore.h"
#include "app/uiwalk.h"
#include "model/core/database.h"
#include "ui/settings/userspage.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/signindialog.h"

#include <QApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStatusBar>
#include <QTimer>

WindowSession::WindowSession(const Store &store, SecretStore &secrets, QString secretName, int refreshDays,
                             QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_secrets(secrets)
    , m_secretName(std::move(secretName))
    , m_refreshDays(qMax(1, refreshDays))
{
    connect(&m_store.bus(), &EventBus::changed, this,
            [this](EventBus::Entity entity, const QString &id, EventBus::Change) {
                if (entity == EventBus::Entity::User && isSignedIn() && (id.isEmpty() || id == m_user.id))
                    userRecordChanged(m_user.id);
            });
    m_check = new QTimer(this);
    m_check->setInterval(kCheckIntervalMs);
    connect(m_check, &QTimer::timeout, this, &WindowSession::check);
}

void WindowSession::setSignedIn(const User &user, const QString &token)
{
    m_user = user;
    m_actor = {user.id, user.name, user.role};
    m_token = token;
    if (user.id.isEmpty())
        m_check->stop();
    else
        m_check->start();
}

void WindowSession::check()
{
    if (!isSignedIn())
        return;
    bool live = true;
    try {
        live = RefreshTokenRepository(m_store).isLive(m_token, m_store.now());
    } catch (const std::exception &e) {
        qWarning("the window's session could not be checked: %s", e.what());
        return; // the database is away for a moment: try again at the next round
    }
    userRecordChanged(m_user.id); // deactivated: revoked(); renamed or another role: userChanged()
    if (live || !isSignedIn())
        return;
    const QString email = m_user.email;
    end();
    emit ended(email);
}

std::optional<User> WindowSession::restore()
{
    const std::optional<QByteArray> stored = m_secrets.read(m_secretName);
    if (!stored)
        return std::nullopt;
    const QJsonObject saved = QJsonDocument::fromJson(*stored).object();
    const QString token = saved.value(QStringLiteral("token")).toString();
    if (token.isEmpty())
        return std::nullopt;
    // The old token retired and the new one stored in one transaction (see RefreshTokenRepository::consume).
    RefreshTokenRepository tokens(m_store);
    std::optional<User> user;
    QString next;
    {
        Transaction tx;
        if (const std::optional<RefreshTokenRepository::Consumed> consumed = tokens.consume(token, m_store.now())) {
            user = UserRepository(m_store).find(consumed->userId);
            if (user && user->isActive())
                next = issueToken(user->id, consumed->familyId);
            else
                tokens.revokeAllOf(consumed->userId, m_store.now());
        }
        tx.commit();
    }
    if (next.isEmpty())
        return std::nullopt;
    setSignedIn(*user, next);
    remember(m_token, false);
    emit userChanged(m_user);
    return user;
}

std::optional<User> WindowSession::soleUser() const
{
    if (const std::optional<QByteArray> stored = m_secrets.read(m_secretName);
        stored && QJsonDocument::fromJson(*stored).object().value(QStringLiteral("signedOut")).toBool())
        return std::nullopt;
    std::optional<User> sole;
    for (const User &u : UserRepository(m_store).list()) {
        if (!u.isActive())
            continue;
        if (sole)
            return std::nullopt;
        sole = u;
    }
    return sole;
}

std::optional<User> WindowSession::authenticate(const QString &email, const QString &password) const
{
    return UserRepository(m_store).checkCredentials(email, password);
}

QString WindowSession::lastEmail() const
{
    const std::optional<QByteArray> stored = m_secrets.read(m_secretName);
    return stored ? QJsonDocument::fromJson(*stored).object().value(QStringLiteral("email")).toString() : QString();
}

void WindowSession::begin(const User &user)
{
    setSignedIn(user, issueToken(user.id, {}));
    remember(m_token, false);
    emit userChanged(m_user);
}

bool WindowSession::changePassword(const QString &current, const QString &password)
{
    if (!isSignedIn() || !authenticate(m_user.email, current))
        return false;
    UserRepository(m_store).setPassword(m_user.id, password); // every token of the user ends
    setSignedIn(m_user, issueToken(m_user.id, {}));
    remember(m_token, false);
    return true;
}

void WindowSession::end()
{
    if (!m_token.isEmpty()) {
        try {
            RefreshTokenRepository(m_store).revokeFamily(m_token, m_store.now());
        } catch (const std::exception &e) {
            qWarning("sign-out: the session's token could not be revoked: %s", e.what());
        }
    }
    remember({}, true);
    setSignedIn(User(), {});
    emit userChanged(m_user);
}

void WindowSession::remember(const QString &token, bool signedOut)
{
    QJsonObject saved{{QStringLiteral("email"), m_user.email.isEmpty() ? lastEmail() : m_user.email}};
    if (!token.isEmpty())
        saved.insert(QStringLiteral("token"), token);
    if (signedOut)
        saved.insert(QStringLiteral("signedOut"), true);
    if (!m_secrets.write(m_secretName, QJsonDocument(saved).toJson(QJsonDocument::Compact)))
        qWarning("the window's session could not be kept in the secret store: the next start asks to sign in");
}

QString WindowSession::issueToken(const QString &userId, const QString &familyId)
{
    return RefreshTokenRepository(m_store).issue(userId, m_store.now().addDays(m_refreshDays), familyId);
}

void WindowSession::userRecordChanged(const QString &id)
{
    std::optional<User> now;
    try {
        now = UserRepository(m_store).find(id);
    } catch (const std::exception &e) {
        qWarning("the signed-in user could not be read again: %s", e.what());
        return;
    }
    if (!now || !now->isActive()) {
        const QString email = m_user.email;
        end();
        emit revoked(email);
        return;
    }
    if (now->name == m_user.name && now->role == m_user.role && now->email == m_user.email)
        return;
    setSignedIn(*now, m_token);
    emit userChanged(m_user);
}

bool askSignIn(WindowSession &session, const QString &where, const QString &notice, bool lastEmail, QWidget *parent)
{
    SignInDialog dialog(
        [&session](const QString &email, const QString &password) { return session.authenticate(email, password); },
        where, parent);
    dialog.setEmail(lastEmail ? session.lastEmail() : QString());
    dialog.setNotice(notice);
    walkSignIn(dialog);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    session.begin(dialog.user());
    return true;
}

bool signInAtStart(WindowSession &session, const QString &where, bool soleUserSignsIn)
{
    if (session.restore())
        return true;
    if (UserRepository(session.store()).list().isEmpty())
        return true;
    if (soleUserSignsIn) {
        if (const std::optional<User> sole = session.soleUser()) {
            session.begin(*sole);
            return true;
        }
    }
    return askSignIn(session, where, {});
}

void followSession(MainWindow &window, WindowSession &session, const QString &where)
{
    window.setSignedInUser(session.user());
    QObject::connect(&session, &WindowSession::userChanged, &window, &MainWindow::setSignedInUser);
    // The welcome's first account: an admin, its password hashed by the model as `liaison user add`
    // has it hashed (the repository tells the bus, so the views that list users, the Inbox's
    // assignees, follow); it is signed in at once.
    window.setAccountCreator([&session](const QString &name, const QString &email, const QString &password) {
        return UserRepository(session.store())
            .create(email, name, QStringLiteral("admin"), PasswordHasher::hash(password));
    });
    QObject::connect(&window, &MainWindow::accountCreated, &session, &WindowSession::begin);
    // Sign-out, or the signed-in user deactivated (here or in another copy): the window hides and
    // asks who works next; cancelled, the app quits.
    auto askAgain = [&window, &session, where](const QString &notice, bool sameUser) {
        for (QDialog *open : window.findChildren<QDialog *>()) {
            if (open->isVisible())
                open->reject();
        }
        window.hide();
        if (askSignIn(session, where, notice, sameUser))
            window.show();
        else
            QTimer::singleShot(0, qApp, &QApplication::quit);
    };
    QObject::connect(&window, &MainWindow::signOutRequested, &window, [&session, askAgain] {
        session.end();
        askAgain(QCoreApplication::translate("Startup", "You signed out."), true);
    });
    QObject::connect(&window, &MainWindow::changePasswordRequested, &window, [&window, &session] {
        auto *dialog = new PasswordDialog(
            session.user().name,
            [&session](const QString &current, const QString &password) {
                return session.changePassword(current, password);
            },
            PasswordDialog::Whose::Own, &window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        QObject::connect(dialog, &QDialog::accepted, &window, [&window] {
            window.statusBar()->showMessage(PasswordDialog::tr("Your password was changed."), 10000);
        });
        dialog->open();
    });
    // Told from inside the bus's news: the question waits until that news has reached everyone.
    QObject::connect(&session, &WindowSession::revoked, &window, [askAgain](const QString &email) {
        QTimer::singleShot(0, QCoreApplication::instance(), [askAgain, email] {
            askAgain(QCoreApplication::translate("Startup", "The account %1 was deactivated; sign in with another.")
                         .arg(email),
                     false);
        });
    });
    QObject::connect(&session, &WindowSession::ended, &window, [askAgain] {
        QTimer::singleShot(0, QCoreApplication::instance(), [askAgain] {
            askAgain(QCoreApplication::translate("Startup", "Your session was ended (a new password, or a sign-out "
                                                            "elsewhere); sign in again."),
                     true);
        });
    });
}
