// The Turkish translation: the liaison_tr.qm that qt_add_translations compiles for the liaison
// executable loads, turns the real window's texts (navigation, menus, status bar, Settings, Tasks)
// into Turkish, matches translations/liaison_tr.ts message for message, and that file has a
// finished, non-empty translation for every message with the source's placeholders.
//
// The .qm files are embedded in the liaison executable (:/i18n/), not in liaison_ui, so this test
// reads the compiled file from the build tree: qt_add_translations writes it next to the app
// target's build directory (<build>/app/liaison_tr.qm) while executables land in <build>/bin.
#include "tests/ui/uitest.h"

#include "model/accounts/apikeyrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/eventbus.h"
#include "model/tasks/taskrepository.h"
#include "tests/support/testsupport.h"
#include "tests/ui/composedwindow.h"
#include "ui/contacts/contactsview.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"
#include "ui/tasks/tasksview.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

#include <memory>

namespace {

struct TsMessage
{
    QString context;
    QString source;
    QString comment;
    QStringList translations; // one, or one per <numerusform>
    QString type;             // the <translation> type attribute: "", "unfinished", "obsolete", "vanished"
    bool numerus = false;
};

// Placeholders of a message (%1, %L1, %n), sorted; in "%%2" the first '%' is a literal percent sign
// (Turkish puts it before the number) and %2 the placeholder.
QStringList placeholders(QString text)
{
    text.replace(QLatin1String("%%"), QLatin1String("\x01%"));
    QStringList found;
    static const QRegularExpression re(QStringLiteral("%(L?\\d+|n)"));
    for (auto it = re.globalMatch(text); it.hasNext();)
        found << it.next().captured(0);
    found.sort();
    return found;
}

// The texts the tests read from the real widgets.
struct WindowTexts
{
    QStringList navigation;
    QStringList menus;
    QString apiKeysAction, webhooksAction, incomingWebhooksAction, quitAction;
    QString serverStatus, serverRunning;
    QString newButton, editButton, deleteButton, searchPlaceholder;
    QString settingsTitle;
    QStringList settingsPages;
    QStringList taskTabs;
};

} // namespace

class TestTranslations final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void qmLoadsAsTurkish();
    void mainWindowComesOutInTurkish();
    void tasksViewComesOutInTurkish();
    void percentBeforeNumberKeepsArgWorking();
    void tsFileIsCompleteAndCurrent();
    void englishPluralsAreWritten();
    void qmMatchesTsFile();
    void germanComesOutInGerman();

private:
    WindowTexts windowTexts();
    WindowTexts taskTexts();
    static QList<TsMessage> readTs(const QString &path, QString *language, QString *error);

    QString m_qmPath;
    QString m_tsPath;
    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
};

void TestTranslations::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);

    // Where qt_add_translations leaves the compiled file, relative to this test's executable
    // (<build>/bin/ui_translations -> <build>/app/liaison_tr.qm), or next to the liaison binary
    // that CTest names in LIAISON_BINARY (<build>/bin/liaison).
    QStringList candidates;
    const QString appDir = QCoreApplication::applicationDirPath();
    candidates << QDir::cleanPath(appDir + QStringLiteral("/../app/liaison_tr.qm"));
    const QString binary = qEnvironmentVariable("LIAISON_BINARY");
    if (!binary.isEmpty())
        candidates << QDir::cleanPath(QFileInfo(binary).absolutePath() + QStringLiteral("/../app/liaison_tr.qm"));
    for (const QString &candidate : std::as_const(candidates)) {
        if (QFileInfo::exists(candidate)) {
            m_qmPath = candidate;
            break;
        }
    }
    QVERIFY2(!m_qmPath.isEmpty(),
             qPrintable(QStringLiteral("liaison_tr.qm not found (looked at: %1). It is compiled by lrelease when "
                                       "the liaison target is built: build the liaison target first.")
                            .arg(candidates.join(QLatin1String(", ")))));

    const QString sourceDir = qEnvironmentVariable("LIAISON_SOURCE_DIR");
    QVERIFY2(!sourceDir.isEmpty(), "LIAISON_SOURCE_DIR is not set: run this test through CTest");
    m_tsPath = sourceDir + QStringLiteral("/translations/liaison_tr.ts");
    QVERIFY2(QFileInfo::exists(m_tsPath), qPrintable(m_tsPath + QStringLiteral(" does not exist")));
}

void TestTranslations::init()
{
    m_db = std::make_unique<TempDatabase>();
    m_bus = std::make_unique<EventBus>();
}

void TestTranslations::cleanup()
{
    m_bus.reset();
    m_db.reset();
}

void TestTranslations::qmLoadsAsTurkish()
{
    QTranslator translator;
    QVERIFY2(translator.load(m_qmPath), qPrintable(QStringLiteral("QTranslator could not load ") + m_qmPath));
    QVERIFY(!translator.isEmpty());
    QCOMPARE(translator.language(), QString("tr_TR"));
    QCOMPARE(translator.translate("MainWindow", "Contacts"), QString("Kişiler"));
    QCOMPARE(translator.translate("MainWindow", "Deals"), QString("Fırsatlar"));
    QCOMPARE(translator.translate("TasksView", "Overdue"), QString("Gecikmiş"));
    QCOMPARE(translator.translate("WonDialog", "Deal won: %1"), QString("Fırsat kazanıldı: %1"));
    QCOMPARE(translator.translate("PipelineBoard", "Pipeline:"), QString("Satış hattı:"));
    QCOMPARE(translator.translate("InboxView", "Inbox"), QString("Gelen kutusu"));
    // The same file loads the way the application loads it: by locale, prefix and directory.
    QTranslator byLocale;
    QVERIFY(byLocale.load(QLocale(QLocale::Turkish, QLocale::Turkey), QStringLiteral("liaison"), QStringLiteral("_"),
                          QFileInfo(m_qmPath).absolutePath()));
    QCOMPARE(byLocale.translate("MainWindow", "Contacts"), QString("Kişiler"));
}

WindowTexts TestTranslations::windowTexts()
{
    WindowTexts texts;
    ContactRepository contacts{Store(*m_bus)};
    ApiKeyRepository keys{Store(*m_bus)};
    ComposedWindow window(contacts, keys, Store(*m_bus));
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        qWarning("main window not exposed");

    auto *navigation = window.findChild<QListWidget *>(QStringLiteral("navigation"));
    for (int i = 0; navigation && i < navigation->count(); ++i)
        texts.navigation << navigation->item(i)->text();
    for (QAction *menu : window.menuBar()->actions())
        texts.menus << menu->text();
    auto actionText = [&window](const char *name) {
        auto *action = window.findChild<QAction *>(QLatin1String(name));
        return action ? action->text() : QStringLiteral("<no %1>").arg(QLatin1String(name));
    };
    texts.apiKeysAction = actionText("apiKeysAction");
    texts.webhooksAction = actionText("webhooksAction");
    texts.incomingWebhooksAction = actionText("incomingWebhooksAction");
    texts.quitAction = actionText("quitAction");

    auto *status = window.findChild<QLabel *>(QStringLiteral("serverStatusLabel"));
    texts.serverStatus = status ? status->text() : QString();
    window.setServerStatus(QStringLiteral("https://127.0.0.1:8443"), true);
    texts.serverRunning = status ? status->text() : QString();

    ContactsView *view = window.findChild<ContactsView *>();
    auto buttonText = [view](const char *name) {
        auto *button = view->findChild<QPushButton *>(QLatin1String(name));
        return button ? button->text() : QStringLiteral("<no %1>").arg(QLatin1String(name));
    };
    texts.newButton = buttonText("newButton");
    texts.editButton = buttonText("editButton");
    texts.deleteButton = buttonText("deleteButton");
    auto *search = view->findChild<QLineEdit *>(QStringLiteral("searchEdit"));
    texts.searchPlaceholder = search ? search->placeholderText() : QString();

    window.showApiKeys();
    if (SettingsDialog *settings = window.settingsDialog()) {
        texts.settingsTitle = settings->windowTitle();
        auto *pages = settings->findChild<QListWidget *>(QStringLiteral("settingsPages"));
        for (int i = 0; pages && i < pages->count(); ++i)
            texts.settingsPages << pages->item(i)->text();
        settings->close();
    }
    return texts;
}

WindowTexts TestTranslations::taskTexts()
{
    WindowTexts texts;
    TaskRepository tasks{Store(*m_bus)};
    TasksView view(tasks, Store(*m_bus));
    for (int i = 0; i < view.tabs()->count(); ++i)
        texts.taskTabs << view.tabs()->tabText(i);
    return texts;
}

void TestTranslations::mainWindowComesOutInTurkish()
{
    const WindowTexts english = windowTexts();

    QTranslator translator;
    QVERIFY(translator.load(m_qmPath));
    QVERIFY(QCoreApplication::installTranslator(&translator));
    const auto uninstall = qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });
    const WindowTexts turkish = windowTexts();

    // Without the translator the window is English...
    QCOMPARE(english.navigation, QStringList({"Contacts", "Deals"}));
    QCOMPARE(english.menus, QStringList({"&File", "&Settings", "&Help"}));
    QCOMPARE(english.serverStatus, QString("API: not started"));

    // ...with it, Turkish.
    QCOMPARE(turkish.navigation, QStringList({"Kişiler", "Fırsatlar"}));
    QCOMPARE(turkish.menus, QStringList({"&Dosya", "&Ayarlar", "&Yardım"}));
    QCOMPARE(turkish.quitAction, QString("Çı&kış"));
    QCOMPARE(turkish.apiKeysAction, QString("&API anahtarları…"));
    QCOMPARE(turkish.webhooksAction, QString("&Webhook'lar…"));
    QCOMPARE(turkish.incomingWebhooksAction, QString("&Gelen webhook'lar…"));
    QCOMPARE(turkish.serverStatus, QString("API: başlatılmadı"));
    QCOMPARE(turkish.serverRunning, QString("API: https://127.0.0.1:8443 — çalışıyor"));
    QCOMPARE(turkish.newButton, QString("Yeni"));
    QCOMPARE(turkish.editButton, QString("Düzenle"));
    QCOMPARE(turkish.deleteButton, QString("Sil"));
    QCOMPARE(turkish.searchPlaceholder, QString("Ad, e-posta, telefon ara…"));
    QCOMPARE(turkish.settingsTitle, QString("Ayarlar"));
    QCOMPARE(turkish.settingsPages,
             QStringList({"API anahtarları", "Webhook'lar", "Gelen webhook'lar", "Web sohbet aracı"}));

    // Every text read differs from its English counterpart.
    const QList<QPair<QString, QString>> pairs{
        {english.apiKeysAction, turkish.apiKeysAction}, {english.webhooksAction, turkish.webhooksAction},
        {english.quitAction, turkish.quitAction},       {english.serverRunning, turkish.serverRunning},
        {english.newButton, turkish.newButton},         {english.editButton, turkish.editButton},
        {english.deleteButton, turkish.deleteButton},   {english.searchPlaceholder, turkish.searchPlaceholder},
        {english.settingsTitle, turkish.settingsTitle},
    };
    for (const auto &pair : pairs)
        QVERIFY2(pair.first != pair.second, qPrintable(QStringLiteral("not translated: ") + pair.first));
    QCOMPARE(english.settingsPages.size(), turkish.settingsPages.size());
    for (int i = 0; i < english.settingsPages.size(); ++i)
        QVERIFY(english.settingsPages.at(i) != turkish.settingsPages.at(i));
}

void TestTranslations::tasksViewComesOutInTurkish()
{
    const WindowTexts english = taskTexts();
    QTranslator translator;
    QVERIFY(translator.load(m_qmPath));
    QVERIFY(QCoreApplication::installTranslator(&translator));
    const auto uninstall = qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });
    const WindowTexts turkish = taskTexts();

    QCOMPARE(english.taskTabs, QStringList({"Today (0)", "Overdue (0)", "Upcoming (0)", "All (0)"}));
    QCOMPARE(turkish.taskTabs, QStringList({"Bugün (0)", "Gecikmiş (0)", "Yaklaşan (0)", "Tümü (0)"}));
}

void TestTranslations::percentBeforeNumberKeepsArgWorking()
{
    // Turkish writes the percent sign before the number ("%60"): the translations use "%%2", which
    // QString::arg leaves as a literal '%' followed by the argument.
    QTranslator translator;
    QVERIFY(translator.load(m_qmPath));
    QCOMPARE(
        translator.translate("DealDetailDialog", "Stage: %1 · probability %2%").arg(QStringLiteral("Teklif")).arg(60),
        QString("Aşama: Teklif · olasılık %60"));
    // The deal dialog's probability box places the sign as the language does ("%20").
    QCOMPARE(translator.translate("DealEditDialog", "%1 %", "a percentage"), QString("%%1"));
    // The built-in stages and pipeline are shown in Turkish (DealText::stageName / pipelineName).
    QCOMPARE(translator.translate("DealText", "Proposal"), QString("Teklif"));
    QCOMPARE(translator.translate("DealText", "Lost"), QString("Kaybedildi"));
    QCOMPARE(translator.translate("DealText", "Sales"), QString("Satış"));
    QCOMPARE(translator.translate("DealText", "Meeting"), QString("Toplantı"));
    QCOMPARE(translator.translate("DealColumnModel", "%1\n%2 %3 · %4%")
                 .arg(QStringLiteral("Lisans"), QStringLiteral("1.000,00"), QStringLiteral("TRY"))
                 .arg(25),
             QString("Lisans\n1.000,00 TRY · %25"));
}

QList<TsMessage> TestTranslations::readTs(const QString &path, QString *language, QString *error)
{
    QList<TsMessage> messages;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return messages;
    }
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage *current = nullptr;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        const auto name = xml.name();
        if (name == QLatin1String("TS")) {
            *language = xml.attributes().value(QLatin1String("language")).toString();
        } else if (name == QLatin1String("context")) {
            context.clear();
            current = nullptr;
        } else if (name == QLatin1String("name") && !current) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            messages.append(TsMessage{});
            current = &messages.last();
            current->context = context;
            current->numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
        } else if (current && name == QLatin1String("source")) {
            current->source = xml.readElementText();
        } else if (current && name == QLatin1String("comment")) {
            current->comment = xml.readElementText();
        } else if (current && name == QLatin1String("translation")) {
            current->type = xml.attributes().value(QLatin1String("type")).toString();
            if (!current->numerus)
                current->translations << xml.readElementText();
        } else if (current && name == QLatin1String("numerusform")) {
            current->translations << xml.readElementText();
        }
    }
    if (xml.hasError())
        *error = QStringLiteral("%1 at line %2").arg(xml.errorString()).arg(xml.lineNumber());
    return messages;
}

void TestTranslations::tsFileIsCompleteAndCurrent()
{
    QString language, error;
    const QList<TsMessage> messages = readTs(m_tsPath, &language, &error);
    QVERIFY2(error.isEmpty(), qPrintable(m_tsPath + QStringLiteral(": ") + error));
    QCOMPARE(language, QString("tr_TR"));
    QVERIFY2(messages.size() > 100, qPrintable(QStringLiteral("only %1 messages").arg(messages.size())));

    QStringList problems;
    for (const TsMessage &m : messages) {
        const QString where = m.context + QStringLiteral(" \"") + m.source + QLatin1Char('"');
        if (!m.type.isEmpty())
            problems << where + QStringLiteral(": type=\"%1\"").arg(m.type);
        if (m.translations.isEmpty())
            problems << where + QStringLiteral(": no translation");
        for (const QString &translation : m.translations) {
            if (translation.trimmed().isEmpty())
                problems << where + QStringLiteral(": empty translation");
            else if (placeholders(translation) != placeholders(m.source))
                problems << where + QStringLiteral(": placeholders differ in \"%1\"").arg(translation);
            else if (m.source.contains(QLatin1Char('&')) != translation.contains(QLatin1Char('&')))
                problems << where + QStringLiteral(": accelerator lost or added in \"%1\"").arg(translation);
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problem(s) in liaison_tr.ts:\n  ").arg(problems.size()) +
                                            problems.join(QLatin1String("\n  "))));
}

void TestTranslations::englishPluralsAreWritten()
{
    // The English file carries only the plural forms ("1 field" / "2 fields"); a new tr(…, n) left
    // unfinished would show "field(s)" to English users.
    const QString path = QFileInfo(m_tsPath).absolutePath() + QStringLiteral("/liaison_en.ts");
    QString language, error;
    const QList<TsMessage> messages = readTs(path, &language, &error);
    QVERIFY2(error.isEmpty(), qPrintable(path + QStringLiteral(": ") + error));
    QStringList problems;
    int plurals = 0;
    for (const TsMessage &m : messages) {
        if (!m.numerus)
            continue;
        ++plurals;
        if (m.translations.size() != 2 || m.translations.contains(QString()) || !m.type.isEmpty())
            problems << m.context + QStringLiteral(" \"") + m.source + QLatin1Char('"');
    }
    QVERIFY(plurals > 0);
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("plural forms missing in liaison_en.ts (singular and "
                                                           "plural):\n  ") +
                                            problems.join(QLatin1String("\n  "))));
}

void TestTranslations::qmMatchesTsFile()
{
    QString language, error;
    const QList<TsMessage> messages = readTs(m_tsPath, &language, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QTranslator translator;
    QVERIFY(translator.load(m_qmPath));

    QStringList stale;
    for (const TsMessage &m : messages) {
        if (m.numerus || m.translations.isEmpty())
            continue;
        const QByteArray context = m.context.toUtf8();
        const QByteArray source = m.source.toUtf8();
        const QByteArray comment = m.comment.toUtf8();
        const QString compiled = translator.translate(context.constData(), source.constData(),
                                                      comment.isEmpty() ? nullptr : comment.constData());
        if (compiled != m.translations.constFirst())
            stale << m.context + QStringLiteral(" \"") + m.source + QLatin1Char('"');
    }
    QVERIFY2(stale.isEmpty(), qPrintable(QStringLiteral("%1 is older than liaison_tr.ts (rebuild the liaison target); "
                                                        "%2 message(s) differ:\n  ")
                                             .arg(m_qmPath)
                                             .arg(stale.size()) +
                                         stale.join(QLatin1String("\n  "))));
}

// The German translation (liaison_de.qm, built beside the Turkish one) loads by locale as the
// application loads it (ui/language=de), turns the window's menus and navigation into German, and Qt's
// own strings come from Qt's qtbase_de.qm (Debian's qt6-translations-l10n). That every message is
// there and finished: ui_translationfiles (tests/ui/check_translations.py).
void TestTranslations::germanComesOutInGerman()
{
    const QString dir = QFileInfo(m_qmPath).absolutePath();
    QTranslator translator;
    QVERIFY2(translator.load(QLocale(QLocale::German, QLocale::Germany), QStringLiteral("liaison"), QStringLiteral("_"),
                             dir),
             qPrintable(dir + QStringLiteral("/liaison_de.qm does not load")));
    QCOMPARE(translator.language(), QString("de_DE"));
    QCOMPARE(translator.translate("InboxView", "Inbox"), QString("Posteingang"));
    QCOMPARE(translator.translate("TasksView", "Overdue"), QString("Überfällig"));
    QCOMPARE(translator.translate("CampaignsView", "Campaigns"), QString("Kampagnen"));
    // German's two plural forms.
    QCOMPARE(translator.translate("PipelineBoard", "%1: %2 %3 in %n deal(s)", nullptr, 1),
             QString("%1: %2 %3 in %n Deal"));
    QCOMPARE(translator.translate("PipelineBoard", "%1: %2 %3 in %n deal(s)", nullptr, 3),
             QString("%1: %2 %3 in %n Deals"));
    QCOMPARE(translator.translate("DealColumnModel", "%1\n%2 %3 · %4%")
                 .arg(QStringLiteral("Lizenz"), QStringLiteral("1.000,00"), QStringLiteral("EUR"))
                 .arg(25),
             QString("Lizenz\n1.000,00 EUR · 25%"));

    QVERIFY(QCoreApplication::installTranslator(&translator));
    const auto uninstall = qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });
    const WindowTexts german = windowTexts();
    QCOMPARE(german.navigation, QStringList({"Kontakte", "Deals"}));
    QCOMPARE(german.menus, QStringList({"&Datei", "&Einstellungen", "&Hilfe"}));
    QCOMPARE(german.quitAction, QString("&Beenden"));
    QCOMPARE(german.settingsTitle, QString("Einstellungen"));

    QTranslator qt;
    QVERIFY2(qt.load(QLocale(QLocale::German, QLocale::Germany), QStringLiteral("qtbase"), QStringLiteral("_"),
                     QLibraryInfo::path(QLibraryInfo::TranslationsPath)),
             "qtbase_de.qm is not in Qt's translations directory (Debian: qt6-translations-l10n)");
    QCOMPARE(qt.translate("QPlatformTheme", "Cancel"), QString("Abbrechen"));
}

QTEST_MAIN(TestTranslations)
#include "test_translations.moc"
