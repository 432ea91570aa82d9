// Settings > Web widget: the embed snippet carries the running server's address, follows an edited
// address, warns about a loopback address, and Copy puts it on the clipboard; the main window's
// Settings dialog has the page.

#include "tests/ui/uitest.h"

#include "model/accounts/apikeyrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "tests/ui/composedwindow.h"
#include "ui/settings/widgetsettingspage.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace UiTest;

class TestWidgetSettingsPage final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void snippetNamesTheEmbedScript_data();
    void snippetNamesTheEmbedScript();
    void copyPutsTheSnippetOnTheClipboard();
    void editedAddressUpdatesTheSnippetAndHint();
    void mainWindowSettingsHaveTheWebWidgetPage();

private:
    QTemporaryDir m_dir;
};

void TestWidgetSettingsPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
}

void TestWidgetSettingsPage::snippetNamesTheEmbedScript_data()
{
    QTest::addColumn<QString>("baseUrl");
    QTest::addColumn<QString>("expected");
    QTest::newRow("server") << "https://crm.example.com:8443"
                            << "<script src=\"https://crm.example.com:8443/widget/embed.js\" async></script>";
    QTest::newRow("trailing slash") << "https://crm.example.com/"
                                    << "<script src=\"https://crm.example.com/widget/embed.js\" async></script>";
    QTest::newRow("not running") << ""
                                 << "<script src=\"https://YOUR-SERVER/widget/embed.js\" async></script>";
}

void TestWidgetSettingsPage::snippetNamesTheEmbedScript()
{
    QFETCH(QString, baseUrl);
    QFETCH(QString, expected);
    QCOMPARE(WidgetSettingsPage::snippet(baseUrl), expected);
    WidgetSettingsPage page(baseUrl);
    QCOMPARE(page.findChild<QPlainTextEdit *>(QStringLiteral("widgetSnippet"))->toPlainText(), expected);
}

void TestWidgetSettingsPage::copyPutsTheSnippetOnTheClipboard()
{
    WidgetSettingsPage page(QStringLiteral("https://crm.example.com"));
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QGuiApplication::clipboard()->setText(QStringLiteral("something else"));
    click(page.findChild<QPushButton *>(QStringLiteral("copyWidgetSnippet")));
    QCOMPARE(QGuiApplication::clipboard()->text(),
             QStringLiteral("<script src=\"https://crm.example.com/widget/embed.js\" async></script>"));
    QVERIFY(!page.findChild<QLabel *>(QStringLiteral("widgetCopyStatus"))->text().isEmpty());
}

void TestWidgetSettingsPage::editedAddressUpdatesTheSnippetAndHint()
{
    WidgetSettingsPage page(QStringLiteral("https://127.0.0.1:8443"));
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    auto *hint = page.findChild<QLabel *>(QStringLiteral("widgetAddressHint"));
    QVERIFY(hint->isVisible()); // loopback: not reachable by visitors
    auto *address = page.findChild<QLineEdit *>(QStringLiteral("widgetServerAddress"));
    address->clear();
    QTest::keyClicks(address, QStringLiteral("https://chat.example.org"));
    QCOMPARE(page.currentSnippet(),
             QStringLiteral("<script src=\"https://chat.example.org/widget/embed.js\" async></script>"));
    QVERIFY(!hint->isVisible());
}

void TestWidgetSettingsPage::mainWindowSettingsHaveTheWebWidgetPage()
{
    Database::closeThreadConnection();
    Database::setPath(m_dir.filePath(QStringLiteral("widget.db")));
    QVERIFY(Database::migrate() > 0);
    {
        EventBus bus;
        ContactRepository contacts{Store(bus)};
        ApiKeyRepository keys{Store(bus)};
        ComposedWindow window(contacts, keys, Store(bus));
        window.setServerStatus(QStringLiteral("https://10.0.0.5:8443"), true);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showApiKeys();
        SettingsDialog *settings = window.settingsDialog();
        QVERIFY(settings);
        QVERIFY(settings->showPage(QStringLiteral("widgetSettingsPage")));
        auto *page = settings->findChild<WidgetSettingsPage *>();
        QVERIFY(page);
        QTRY_VERIFY(page->isVisible());
        QCOMPARE(page->currentSnippet(),
                 QStringLiteral("<script src=\"https://10.0.0.5:8443/widget/embed.js\" async></script>"));
        const QListWidget *pages = settings->findChild<QListWidget *>(QStringLiteral("settingsPages"));
        QCOMPARE(pages->currentItem()->text(), QObject::tr("Web widget"));
        settings->reject();
    }
    Database::closeThreadConnection();
}

QTEST_MAIN(TestWidgetSettingsPage)
#include "test_widgetsettingspage.moc"
