#include "app/backupsettings.h"

#include "app/appsettings.h"
#include "model/core/database.h"
#include "ui/settings/backuppage.h"
#include "ui/shell/mainwindow.h"

void addBackupPage(MainWindow &window, const AppSettings &settings)
{
    window.addSettingsPage(
        BackupPage::tr("Backups"), BackupPage::tr("&Backups…"), QStringLiteral("backupPage"),
        [&settings](QWidget *parent) {
            auto *page = new BackupPage(settings.backupPlace(), settings.backupKeep(),
                                        Database::dialect() == Database::Dialect::PostgreSQL, parent);
            page->setSaveFunction([ini = settings.iniPath()](const BackupPage::Values &v, QString *why) {
                return AppSettings::writeIni(ini, v, why);
            });
            return page;
        });
}
