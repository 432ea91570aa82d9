#include "app/mediasettings.h"

#include "app/appsettings.h"
#include "ui/settings/mediapage.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"

#include <QDir>
#include <QSettings>

void addMediaPage(MainWindow &window, const AppSettings &settings, EventBus &bus)
{
    MediaConfig current;
    QString error;
    settings.mediaConfig(&current, &error); // a malformed value: the page shows the defaults
    const MediaPage::Values values{{QStringLiteral("media/maxUploadBytes"), QString::number(current.maxUploadBytes)},
                                   {QStringLiteral("media/lifetimeDays"), QString::number(current.lifetimeDays)},
                                   {QStringLiteral("media/publicBaseUrl"), current.publicBaseUrl}};
    window.addSettingsPage(MediaPage::tr("Media"), MediaPage::tr("&Media…"), QStringLiteral("mediaPage"),
                           [=, &settings, &bus](QWidget *parent) {
                               auto *page = new MediaPage(QDir(settings.dataDir()).filePath(QStringLiteral("media")),
                                                          bus, values, parent);
                               const QString ini = QDir(settings.dataDir()).filePath(QStringLiteral("liaison.ini"));
                               page->setSaveFunction([ini](const MediaPage::Values &v, QString *why) {
                                   QSettings file(ini, QSettings::IniFormat);
                                   for (auto it = v.begin(); it != v.end(); ++it) {
                                       if (it.value().isEmpty())
                                           file.remove(it.key());
                                       else
                                           file.setValue(it.key(), it.value());
                                   }
                                   file.sync();
                                   if (file.status() != QSettings::NoError) {
                                       *why = QStringLiteral("%1 cannot be written").arg(ini);
                                       return false;
                                   }
                                   return true;
                               });
                               return page;
                           });
}
