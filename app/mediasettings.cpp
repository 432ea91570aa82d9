#include "app/mediasettings.h"

#include "app/appsettings.h"
#include "ui/settings/mediapage.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"

#include <QDir>

void addMediaPage(MainWindow &window, const AppSettings &settings, const Store &store)
{
    MediaConfig current;
    QString error;
    settings.mediaConfig(&current, &error); // a malformed value: the page shows the defaults
    const MediaPage::Values values{{QStringLiteral("media/maxUploadBytes"), QString::number(current.maxUploadBytes)},
                                   {QStringLiteral("media/lifetimeDays"), QString::number(current.lifetimeDays)},
                                   {QStringLiteral("media/publicBaseUrl"), current.publicBaseUrl}};
    window.addSettingsPage(
        MediaPage::tr("Media"), MediaPage::tr("&Media…"), QStringLiteral("mediaPage"), [=, &settings](QWidget *parent) {
            auto *page =
                new MediaPage(QDir(settings.dataDir()).filePath(QStringLiteral("media")), store, values, parent);
            page->setSaveFunction([ini = settings.iniPath()](const MediaPage::Values &v, QString *why) {
                return AppSettings::writeIni(ini, v, why);
            });
            return page;
        });
}
