#include "app/desktopsettings.h"

#include "app/appsettings.h"
#include "model/contacts/contact.h"
#include "ui/assistant/assistantview.h"
#include "ui/deals/pipelineboard.h"
#include "ui/home/homeview.h"
#include "ui/inbox/inboxview.h"
#include "ui/settings/appearancepage.h"
#include "ui/settings/contactssettingspage.h"
#include "ui/settings/templatespage.h"
#include "ui/settings/userspage.h"
#include "ui/shell/mainwindow.h"

#include <QDir>
#include <QSettings>

namespace {
const QString kQuickReplies = QStringLiteral("inbox/quickReplies");

QStringList quickReplies(const AppSettings &settings)
{
    const QVariant v = settings.value(kQuickReplies);
    if (v.userType() == QMetaType::QStringList)
        return v.toStringList();
    // An --set override (or a single value in the file) is one string.
    return v.toString().split(QLatin1Char('|'), Qt::SkipEmptyParts);
}
} // namespace

void applyDesktopSettings(MainWindow &window, const AppSettings &settings)
{
    const QTimeZone tz = settings.tasksTimeZone();
    if (auto *board = window.findChild<PipelineBoard *>())
        board->setTasksTimeZone(tz);
    // Home's today, its 30 and 90 days and its chart's days are the tasks' days.
    if (auto *home = window.findChild<HomeView *>())
        home->setTimeZone(tz);
    if (auto *assistant = window.findChild<AssistantView *>()) {
        // The figures' days are the tasks' (and GET /ai/stats's); the decision's thresholds those the
        // server and the inbox answer with (their defaults when the settings refuse them: the start
        // says why).
        assistant->setTimeZone(tz);
        AssistantThresholds thresholds;
        QString error;
        if (settings.assistantThresholds(&thresholds, &error))
            assistant->setThresholds(thresholds);
    }
    auto *inbox = window.findChild<InboxView *>();
    if (!inbox)
        return;
    inbox->setTasksTimeZone(tz);
    // What an agent wrote and did not send, per conversation, survives a restart (DATA/drafts.ini).
    inbox->setDraftsFile(QDir(settings.dataDir()).filePath(QStringLiteral("drafts.ini")));
    inbox->setQuickReplies(quickReplies(settings));
    inbox->setAssignOnReply(settings.value(QStringLiteral("inbox/assignOnReply"), true).toBool());
    const QString ini = settings.iniPath();
    inbox->setQuickRepliesSaver([ini](const QStringList &replies) {
        QSettings file(ini, QSettings::IniFormat);
        file.setValue(kQuickReplies, replies);
    });
}

namespace {
// contacts/defaultCallingCode written to liaison.ini and in force at once.
WelcomeDialog::CallingCodeSaver callingCodeSaver(const QString &ini)
{
    return [ini](const QString &code, QString *why) {
        if (!AppSettings::writeIni(ini, {{QStringLiteral("contacts/defaultCallingCode"), code}}, why))
            return false;
        ContactRules::setDefaultCallingCode(code);
        return true;
    };
}
} // namespace

void addContactsPage(MainWindow &window, const AppSettings &settings)
{
    // No country set yet: the welcome offers the system's.
    const QString suggested = ContactsSettingsPage::callingCodeOf(QLocale::system().territory());
    if (ContactRules::defaultCallingCode().isEmpty() && !suggested.isEmpty())
        window.setCallingCodeOffer(ContactsSettingsPage::countryName(QLocale::system()), suggested,
                                   callingCodeSaver(settings.iniPath()));
    const QString ini = settings.iniPath();
    window.addSettingsPage(ContactsSettingsPage::tr("Contacts"), ContactsSettingsPage::tr("C&ontacts…"),
                           QStringLiteral("contactsSettingsPage"), [ini](QWidget *parent) {
                               auto *page = new ContactsSettingsPage(ContactRules::defaultCallingCode(),
                                                                     QLocale::system(), parent);
                               page->setSaveFunction(callingCodeSaver(ini));
                               return page;
                           });
}

void addUsersPage(MainWindow &window, const Store &store)
{
    window.addSettingsPage(UsersPage::tr("Users"), UsersPage::tr("&Users…"), QStringLiteral("usersPage"),
                           [store](QWidget *parent) { return new UsersPage(store, parent); });
}

void addTemplatesPage(MainWindow &window, const Store &store)
{
    window.addSettingsPage(TemplatesPage::tr("Templates"), TemplatesPage::tr("&Templates…"),
                           QStringLiteral("templatesPage"),
                           [store](QWidget *parent) { return new TemplatesPage(store, parent); });
}

void addAppearancePage(MainWindow &window, const AppSettings &settings)
{
    const QString ini = settings.iniPath();
    window.addSettingsPage(
        AppearancePage::tr("Appearance"), AppearancePage::tr("A&ppearance…"), QStringLiteral("appearancePage"),
        [ini, settings](QWidget *parent) {
            auto *page = new AppearancePage(parent);
            page->setSaveFunction([ini](Theme::Choice choice, QString *why) {
                return AppSettings::writeIni(ini, {{QStringLiteral("appearance/theme"), Theme::keyOf(choice)}}, why);
            });
            // The language stored (or --set for this run); saved for the next start.
            page->setLanguage(settings.value(QStringLiteral("ui/language")).toString());
            page->setLanguageSaveFunction([ini](const QString &language, QString *why) {
                return AppSettings::writeIni(ini, {{QStringLiteral("ui/language"), language}}, why);
            });
            return page;
        },
        MainWindow::SettingsAccess::Everyone);
}
