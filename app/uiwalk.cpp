#include "app/uiwalk.h"

#include "ui/contacts/contactsview.h"
#include "ui/contacts/contacttablemodel.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"
#include "ui/shell/signindialog.h"
#include "ui/shell/welcomedialog.h"

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QTimer>

namespace {
void settle(int ms)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

QString fileName(QString name)
{
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("-"));
    return name.toLower();
}

void walk(MainWindow &window, const QString &outDir)
{
    QDir().mkpath(outDir);
    QFile log(QDir(outDir).filePath(QStringLiteral("walk.txt")));
    if (!log.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return;
    auto line = [&log](const QString &text) {
        log.write(text.toUtf8() + '\n');
        log.flush();
    };
    line(QStringLiteral("window %1 %2x%3 minimum %4x%5")
             .arg(window.isVisible() ? QStringLiteral("visible") : QStringLiteral("hidden"))
             .arg(window.width())
             .arg(window.height())
             .arg(window.minimumSizeHint().width())
             .arg(window.minimumSizeHint().height()));

    line(window.signedInUser().id.isEmpty()
             ? QStringLiteral("user none")
             : QStringLiteral("user %1 %2").arg(window.signedInUser().email, window.signedInUser().role));
    line(QStringLiteral("icon %1").arg(QApplication::windowIcon().availableSizes().contains(QSize(32, 32))
                                           ? QStringLiteral("ok")
                                           : QStringLiteral("missing")));

    // The welcome of a data directory without an account: LIAISON_UI_WALK_ACCOUNT ("name|e-mail|password")
    // fills it in as a new user would, makes a key and starts working; without it, "Later".
    if (WelcomeDialog *welcome = window.welcomeDialog()) {
        auto *pages = welcome->findChild<QWidget *>(QStringLiteral("welcomeAccountPage"));
        const bool onAccount = pages && pages->isVisible();
        line(QStringLiteral("welcome %1 %2")
                 .arg(welcome->isVisible() ? QStringLiteral("visible") : QStringLiteral("hidden"),
                      onAccount ? QStringLiteral("account") : QStringLiteral("api")));
        welcome->grab().save(QDir(outDir).filePath(QStringLiteral("welcome.png")));
        const QStringList account = qEnvironmentVariable("LIAISON_UI_WALK_ACCOUNT").split(QLatin1Char('|'));
        if (onAccount && account.size() == 3) {
            welcome->findChild<QLineEdit *>(QStringLiteral("welcomeName"))->setText(account.at(0));
            welcome->findChild<QLineEdit *>(QStringLiteral("welcomeEmail"))->setText(account.at(1));
            welcome->findChild<QLineEdit *>(QStringLiteral("welcomePassword"))->setText(account.at(2));
            welcome->findChild<QLineEdit *>(QStringLiteral("welcomeRepeat"))->setText(account.at(2));
            welcome->findChild<QPushButton *>(QStringLiteral("welcomeCreateButton"))->click();
            settle(200);
            auto *api = welcome->findChild<QWidget *>(QStringLiteral("welcomeApiPage"));
            line(QStringLiteral("welcome account %1")
                     .arg(api && api->isVisible() ? QStringLiteral("ok") : QStringLiteral("missing")));
            welcome->findChild<QPushButton *>(QStringLiteral("welcomeCreateKey"))->click();
            settle(100);
            auto *address = welcome->findChild<QLabel *>(QStringLiteral("welcomeApiAddress"));
            line(QStringLiteral("welcome api %1").arg(address ? address->text() : QString()));
            // The secret itself stays out of the log: its prefix and length tell it was shown.
            const QString key = welcome->findChild<QLineEdit *>(QStringLiteral("welcomeKey"))->text();
            line(QStringLiteral("welcome key %1 %2").arg(key.left(3)).arg(key.size()));
            welcome->grab().save(QDir(outDir).filePath(QStringLiteral("welcome-api.png")));
            welcome->findChild<QPushButton *>(QStringLiteral("welcomeStartButton"))->click();
        } else {
            welcome->reject();
        }
        settle(200);
    } else {
        line(QStringLiteral("welcome none"));
    }

    // LIAISON_UI_WALK_WATCH names a contact that another copy is about to create (team mode): the walk
    // says "watching", waits (at most 30 s) until the Contacts list shows it, logs "seen <name> <ms
    // since the epoch>" (or "never"), and ends there.
    if (const QString watch = qEnvironmentVariable("LIAISON_UI_WALK_WATCH"); !watch.isEmpty()) {
        line(QStringLiteral("watching %1").arg(watch));
        const ContactTableModel *model = window.findChild<ContactsView *>()->model();
        QElapsedTimer waited;
        waited.start();
        qint64 seenAt = 0;
        while (seenAt == 0 && waited.elapsed() < 30000) {
            settle(5);
            for (int row = 0; row < qMin(20, model->rowCount()) && seenAt == 0; ++row) {
                if (model->data(model->index(row, ContactTableModel::NameColumn)).toString().contains(watch))
                    seenAt = QDateTime::currentMSecsSinceEpoch();
            }
        }
        line(seenAt ? QStringLiteral("seen %1 %2").arg(watch).arg(seenAt) : QStringLiteral("seen %1 never").arg(watch));
        window.grab().save(QDir(outDir).filePath(QStringLiteral("watch.png")));
        line(QStringLiteral("done"));
        log.close();
        if (QAction *quit = window.findChild<QAction *>(QStringLiteral("quitAction")))
            quit->trigger();
        return;
    }

    auto *navigation = window.findChild<QListWidget *>(QStringLiteral("navigation"));
    auto *stack = window.findChild<QStackedWidget *>(QStringLiteral("areaStack"));
    for (int i = 0; navigation && i < navigation->count(); ++i) {
        const QString title = navigation->item(i)->text();
        navigation->setCurrentRow(i);
        settle(400);
        const bool shown = stack && stack->currentIndex() == i && stack->currentWidget()->isVisible();
        window.grab().save(QDir(outDir).filePath(QStringLiteral("area-%1.png").arg(fileName(title))));
        line(QStringLiteral("area %1 %2 minimum %3x%4")
                 .arg(title, shown ? QStringLiteral("ok") : QStringLiteral("missing"))
                 .arg(stack->currentWidget()->minimumSizeHint().width())
                 .arg(stack->currentWidget()->minimumSizeHint().height()));
    }
    if (navigation)
        navigation->setCurrentRow(0);

    auto *menu = window.findChild<QMenu *>(QStringLiteral("settingsMenu"));
    for (int round = 1; menu && round <= 2; ++round) {
        for (QAction *action : menu->actions()) {
            // The pages this user may open (an agent's menu hides configuration).
            if (action->isSeparator() || !action->isVisible() || action->data().toString().isEmpty())
                continue;
            action->trigger();
            settle(300);
            SettingsDialog *dialog = window.settingsDialog();
            const QString page = action->data().toString();
            const bool shown = dialog->isVisible() && dialog->currentPageName() == page;
            if (round == 1)
                dialog->grab().save(QDir(outDir).filePath(QStringLiteral("settings-%1.png").arg(fileName(page))));
            line(QStringLiteral("settings %1 %2 round %3")
                     .arg(page, shown ? QStringLiteral("ok") : QStringLiteral("missing"))
                     .arg(round));
            dialog->reject();
            settle(100);
        }
    }
    line(QStringLiteral("done"));
    log.close();
    if (QAction *quit = window.findChild<QAction *>(QStringLiteral("quitAction")))
        quit->trigger();
}
} // namespace

void startUiWalk(MainWindow &window, const QString &outDir)
{
    QTimer::singleShot(800, &window, [&window, outDir] { walk(window, outDir); });
}

void walkSignIn(SignInDialog &dialog)
{
    const QString outDir = qEnvironmentVariable("LIAISON_UI_WALK");
    if (outDir.isEmpty())
        return;
    QTimer::singleShot(600, &dialog, [&dialog, outDir] {
        QDir().mkpath(outDir);
        dialog.grab().save(QDir(outDir).filePath(QStringLiteral("signin.png")));
        const QStringList account = qEnvironmentVariable("LIAISON_UI_WALK_SIGNIN").split(QLatin1Char('|'));
        if (account.size() != 2) {
            dialog.reject();
            return;
        }
        dialog.findChild<QLineEdit *>(QStringLiteral("signInEmail"))->setText(account.at(0));
        dialog.findChild<QLineEdit *>(QStringLiteral("signInPassword"))->setText(account.at(1));
        dialog.findChild<QPushButton *>(QStringLiteral("signInButton"))->click();
        // A refusal leaves the dialog open: save what it says, then give up.
        if (dialog.isVisible()) {
            dialog.grab().save(QDir(outDir).filePath(QStringLiteral("signin-refused.png")));
            dialog.reject();
        }
    });
}
