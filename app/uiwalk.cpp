#include "uiwalk.h"

#include "mainwindow.h"
#include "settingsdialog.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QListWidget>
#include <QMenu>
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

    line(QStringLiteral("icon %1").arg(QApplication::windowIcon().availableSizes().contains(QSize(32, 32))
                                           ? QStringLiteral("ok")
                                           : QStringLiteral("missing")));

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
            if (action->isSeparator() || action->data().toString().isEmpty())
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
