// Settings > API keys driven as an admin would: create (the key shown once, copied), list without
// the secret, revoke after confirmation; over the real repository and a temporary SQLite database.

#include "tests/ui/uitest.h"

#include "model/accounts/apikeyrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "tests/ui/composedwindow.h"
#include "ui/settings/apikeyspage.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <memory>

using namespace UiTest;

class TestApiKeysPage final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void createShowsKeyOnceAndListsItWithoutSecret();
    void createWithoutNameStaysOpen();
    void revokeAfterConfirmationMarksKeyRevoked();
    void keyCreatedElsewhereAppears();
    void settingsMenuOpensApiKeysPage();

private:
    void openSettings();
    ApiKeysPage *page() const { return m_settings->apiKeysPage(); }
    QTableWidget *table() const { return page()->table(); }
    int rowOfName(const QString &name) const;
    template<typename T>
    T *child(QObject *parent, const char *name)
    {
        T *found = parent->findChild<T *>(QLatin1String(name));
        if (!found)
            qFatal("no child %s", name);
        return found;
    }

    QTemporaryDir m_dir;
    int m_databases = 0;
    std::unique_ptr<EventBus> m_bus;
    std::unique_ptr<ApiKeyRepository> m_keys;
    std::unique_ptr<SettingsDialog> m_settings;
};

void TestApiKeysPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
}

void TestApiKeysPage::init()
{
    Database::closeThreadConnection();
    Database::setPath(m_dir.filePath(QStringLiteral("keys-%1.db").arg(++m_databases)));
    QVERIFY(Database::migrate() > 0);
    m_bus = std::make_unique<EventBus>();
    m_keys = std::make_unique<ApiKeyRepository>(Store(*m_bus));
}

void TestApiKeysPage::cleanup()
{
    m_settings.reset();
    m_keys.reset();
    m_bus.reset();
    Database::closeThreadConnection();
}

void TestApiKeysPage::openSettings()
{
    m_settings = std::make_unique<SettingsDialog>();
    m_settings->addPage(SettingsDialog::tr("API keys"), new ApiKeysPage(*m_keys, Store(*m_bus)));
    m_settings->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_settings.get()));
}

int TestApiKeysPage::rowOfName(const QString &name) const
{
    for (int row = 0; row < table()->rowCount(); ++row) {
        if (table()->item(row, ApiKeysPage::NameColumn)->text() == name)
            return row;
    }
    return -1;
}

void TestApiKeysPage::createShowsKeyOnceAndListsItWithoutSecret()
{
    openSettings();
    QCOMPARE(table()->rowCount(), 0);
    click(child<QPushButton>(page(), "createKeyButton"));
    CreateApiKeyDialog *create = nullptr;
    QTRY_VERIFY((create = modal<CreateApiKeyDialog>()));

    // Every known scope is offered, "*" checked by default.
    QListWidget *scopes = child<QListWidget>(create, "scopeList");
    QCOMPARE(scopes->count(), ApiKeyRepository::knownScopes().size());
    QCOMPARE(create->checkedScopes(), QStringList({"*"}));
    // Each by what it lets a key do, its name beside it.
    QCOMPARE(scopes->item(0)->text(), QString("Everything (*)"));
    QCOMPARE(scopes->item(1)->text(), QString("Contacts: read (contacts:read)"));
    QCOMPARE(scopes->item(3)->text(), QString("Contacts: read and write (contacts:*)"));
    for (int i = 0; i < scopes->count(); ++i) {
        const QString scope = scopes->item(i)->data(Qt::UserRole).toString();
        scopes->item(i)->setCheckState(scope == "contacts:read" ? Qt::Checked : Qt::Unchecked);
    }
    QCOMPARE(create->checkedScopes(), QStringList({"contacts:read"}));
    QTest::keyClicks(child<QLineEdit>(create, "keyNameEdit"), "Import script");
    click(dialogButton(create, QDialogButtonBox::Ok));

    NewApiKeyDialog *shown = nullptr;
    QTRY_VERIFY((shown = modal<NewApiKeyDialog>()));
    QLineEdit *secretEdit = child<QLineEdit>(shown, "secretEdit");
    const QString secret = secretEdit->text();
    QVERIFY(secret.startsWith("lk_"));
    QVERIFY(secretEdit->isReadOnly());
    QVERIFY(child<QLabel>(shown, "warningLabel")->text().contains("will not be shown again"));
    QVERIFY(shown->grab().save(qEnvironmentVariable("LIAISON_SCREENSHOT_DIR", m_dir.path()) + "/new-api-key.png"));
    click(child<QPushButton>(shown, "copyButton"));
    QCOMPARE(QGuiApplication::clipboard()->text(), secret);

    // The stored key is the one shown and has the chosen scope.
    const std::optional<ApiKey> key = m_keys->authenticate(secret);
    QVERIFY(key);
    QCOMPARE(key->name, QString("Import script"));
    QCOMPARE(key->scopes, QStringList({"contacts:read"}));

    click(dialogButton(shown, QDialogButtonBox::Close));
    QTRY_VERIFY(!modal<NewApiKeyDialog>());

    // Listed with its prefix, never with the secret.
    QCOMPARE(table()->rowCount(), 1);
    QCOMPARE(table()->item(0, ApiKeysPage::NameColumn)->text(), QString("Import script"));
    QCOMPARE(table()->item(0, ApiKeysPage::KeyColumn)->text(), key->prefix + QStringLiteral("…"));
    QVERIFY(secret.startsWith(key->prefix));
    QVERIFY(key->prefix.size() < secret.size());
    QCOMPARE(table()->item(0, ApiKeysPage::ScopesColumn)->text(), QString("contacts:read"));
    QCOMPARE(table()->item(0, ApiKeysPage::LastUsedColumn)->text(), QString("never"));
    QCOMPARE(table()->item(0, ApiKeysPage::StateColumn)->text(), QString("Active"));
    for (int column = 0; column < table()->columnCount(); ++column)
        QVERIFY(!table()->item(0, column)->text().contains(secret));
    QVERIFY(!modal<QDialog>());
}

void TestApiKeysPage::createWithoutNameStaysOpen()
{
    openSettings();
    click(child<QPushButton>(page(), "createKeyButton"));
    CreateApiKeyDialog *create = nullptr;
    QTRY_VERIFY((create = modal<CreateApiKeyDialog>()));
    click(dialogButton(create, QDialogButtonBox::Ok));
    QVERIFY(create->isVisible());
    QLabel *error = child<QLabel>(create, "errorLabel");
    QVERIFY(error->isVisible());
    QVERIFY(!error->text().isEmpty());
    QVERIFY(m_keys->list().isEmpty());

    click(dialogButton(create, QDialogButtonBox::Cancel));
    QTRY_VERIFY(!modal<CreateApiKeyDialog>());
    QCOMPARE(table()->rowCount(), 0);
}

void TestApiKeysPage::revokeAfterConfirmationMarksKeyRevoked()
{
    const NewApiKey first = m_keys->create(QStringLiteral("Zapier"), {QStringLiteral("*")});
    const NewApiKey second = m_keys->create(QStringLiteral("Backup"), {QStringLiteral("contacts:read")});
    openSettings();
    QCOMPARE(table()->rowCount(), 2);
    QPushButton *revoke = child<QPushButton>(page(), "revokeKeyButton");
    QVERIFY(!revoke->isEnabled());

    const int row = rowOfName("Zapier");
    QVERIFY(row >= 0);
    QTest::mouseClick(table()->viewport(), Qt::LeftButton, {},
                      table()->visualItemRect(table()->item(row, ApiKeysPage::NameColumn)).center());
    QCOMPARE(page()->currentKeyId(), first.key.id);

    // No: nothing happens.
    click(revoke);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = modal<QMessageBox>()));
    QVERIFY(box->text().contains("Zapier"));
    click(box->button(QMessageBox::No));
    QTRY_VERIFY(!modal<QMessageBox>());
    QVERIFY(!m_keys->find(first.key.id)->isRevoked());

    click(revoke);
    QTRY_VERIFY((box = modal<QMessageBox>()));
    click(box->button(QMessageBox::Yes));
    QTRY_COMPARE(table()->item(rowOfName("Zapier"), ApiKeysPage::StateColumn)->text(), QString("Revoked"));
    QVERIFY(m_keys->find(first.key.id)->isRevoked());
    QVERIFY(!m_keys->authenticate(first.secret));
    QCOMPARE(table()->item(rowOfName("Backup"), ApiKeysPage::StateColumn)->text(), QString("Active"));
    QVERIFY(m_keys->authenticate(second.secret));
    QVERIFY(!revoke->isEnabled()); // a revoked key cannot be revoked again
}

void TestApiKeysPage::keyCreatedElsewhereAppears()
{
    openSettings();
    // As `liaison apikey create` or another part of the app would: another thread, the shared bus.
    EventBus *bus = m_bus.get();
    std::unique_ptr<QThread> thread(QThread::create([bus] {
        ApiKeyRepository keys{Store(*bus)};
        keys.create(QStringLiteral("CLI"), {});
        Database::closeThreadConnection();
    }));
    thread->start();
    QVERIFY(thread->wait(30000));
    QTRY_COMPARE(table()->rowCount(), 1);
    QCOMPARE(table()->item(0, ApiKeysPage::NameColumn)->text(), QString("CLI"));
    QCOMPARE(table()->item(0, ApiKeysPage::ScopesColumn)->text(), QString("*"));
}

void TestApiKeysPage::settingsMenuOpensApiKeysPage()
{
    m_keys->create(QStringLiteral("Reporting"), {QStringLiteral("contacts:read")});
    ContactRepository contacts{Store(*m_bus)};
    ComposedWindow window(contacts, *m_keys, Store(*m_bus));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    QAction *action = window.findChild<QAction *>("apiKeysAction");
    QVERIFY(action);
    action->trigger();
    SettingsDialog *settings = nullptr;
    QTRY_VERIFY((settings = modal<SettingsDialog>()));
    QCOMPARE(settings, window.settingsDialog());
    QVERIFY(settings->apiKeysPage()->isVisible());
    QCOMPARE(settings->apiKeysPage()->table()->rowCount(), 1);

    const QPixmap shot = settings->grab();
    QVERIFY(!shot.isNull());
    const QString dir = qEnvironmentVariable("LIAISON_SCREENSHOT_DIR", m_dir.path());
    QVERIFY(shot.save(dir + QStringLiteral("/settings-apikeys.png")));

    click(dialogButton(settings, QDialogButtonBox::Close));
    QTRY_VERIFY(!settings->isVisible()); // closed: hidden, kept with its pages
    QCOMPARE(window.settingsDialog(), settings);
    // Opened again, every page is still there (the Channels and Media pages once vanished here).
    action->trigger();
    QTRY_VERIFY(settings->isVisible());
    QVERIFY(settings->apiKeysPage()->isVisible());
    for (const char *page : {"webhooksPage", "incomingWebhooksPage", "widgetSettingsPage"}) {
        QVERIFY2(settings->showPage(QString::fromLatin1(page)), page);
        QCOMPARE(settings->currentPageName(), QString::fromLatin1(page));
    }
    // A page added later (as the app adds Channels and Media) joins the dialog already made.
    window.addSettingsPage("Extra", "&Extra…", "extraPage", [](QWidget *parent) { return new QWidget(parent); });
    QVERIFY(settings->showPage("extraPage"));
    QVERIFY(window.findChild<QAction *>("extraAction"));
    click(dialogButton(settings, QDialogButtonBox::Close));
    QTRY_VERIFY(!settings->isVisible());
}

QTEST_MAIN(TestApiKeysPage)
#include "test_apikeyspage.moc"
