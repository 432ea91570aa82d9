// Settings > Users and the roles in the window: an admin adds, edits, deactivates and sets passwords
// of users (deactivation and a new password end the user's sessions at once; the last admin stays);
// an agent's window offers no configuration (only their own API keys), and pipelines cannot be
// edited; the status bar names who is signed in.
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "tests/support/testsupport.h"
#include "tests/ui/composedwindow.h"
#include "ui/deals/pipelineboard.h"
#include "ui/settings/apikeyspage.h"
#include "ui/settings/userspage.h"
#include "ui/shell/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

namespace {
// A readable stand-in for the slow hash of the users made by the tests themselves.
QString fakeHash(const QString &password)
{
    return QStringLiteral("test$") + password;
}

template<typename T>
T *openDialog(QWidget *parent)
{
    T *found = nullptr;
    for (T *d : parent->findChildren<T *>()) {
        if (d->isVisible())
            found = d;
    }
    return found;
}

QLabel *visibleError(QWidget *w)
{
    auto *label = w->findChild<QLabel *>(QStringLiteral("errorLabel"));
    return label && label->isVisible() ? label : nullptr;
}

int rowOf(QTableWidget *table, const QString &email)
{
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, UsersPage::EmailColumn)->text() == email)
            return r;
    }
    return -1;
}
} // namespace

class TestUsersPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void addsUsersAndRefusesWhatTheModelRefuses()
    {
        TempDatabase db;
        UserRepository users(testStore());
        users.create(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("Selin Aksoy"), QStringLiteral("admin"),
                     fakeHash(QStringLiteral("parola-123")));
        UsersPage page(testStore());
        page.show();
        QCOMPARE(page.table()->rowCount(), 1);

        page.addUser();
        UserDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<UserDialog>(&page)));
        dialog->findChild<QLineEdit *>(QStringLiteral("userNameEdit"))->setText(QStringLiteral("Zeynep Şahin"));
        dialog->findChild<QLineEdit *>(QStringLiteral("userEmailEdit"))->setText(QStringLiteral("SELIN@ornek.com.tr"));
        dialog->findChild<QLineEdit *>(QStringLiteral("userPasswordEdit"))->setText(QStringLiteral("kısa"));
        dialog->findChild<QLineEdit *>(QStringLiteral("userRepeatEdit"))->setText(QStringLiteral("kısa"));
        dialog->accept();
        QVERIFY(dialog->isVisible());
        QVERIFY(visibleError(dialog));
        QVERIFY(visibleError(dialog)->text().contains(QLatin1String("8")));
        dialog->findChild<QLineEdit *>(QStringLiteral("userPasswordEdit"))->setText(QStringLiteral("uzun-parola-3"));
        dialog->findChild<QLineEdit *>(QStringLiteral("userRepeatEdit"))->setText(QStringLiteral("uzun-parola-4"));
        dialog->accept();
        QVERIFY(dialog->isVisible()); // the two differ
        dialog->findChild<QLineEdit *>(QStringLiteral("userRepeatEdit"))->setText(QStringLiteral("uzun-parola-3"));
        dialog->accept();
        QVERIFY(dialog->isVisible()); // the e-mail is taken (case-insensitive)
        QVERIFY(visibleError(dialog)->text().contains(QLatin1String("SELIN@ornek.com.tr")));
        dialog->findChild<QLineEdit *>(QStringLiteral("userEmailEdit"))->setText(QStringLiteral("zeynep@ornek.com.tr"));
        dialog->accept();
        QTRY_VERIFY(!openDialog<UserDialog>(&page));
        QCOMPARE(page.table()->rowCount(), 2);
        const auto stored = users.findForLogin(QStringLiteral("zeynep@ornek.com.tr"));
        QVERIFY(stored);
        QCOMPARE(stored->first.role, QStringLiteral("agent"));                            // the first role offered
        QVERIFY(PasswordHasher::verify(QStringLiteral("uzun-parola-3"), stored->second)); // the model's hash
        // Selected after adding.
        QCOMPARE(page.currentUserId(), stored->first.id);
        Database::closeThreadConnection();
    }

    void deactivationAndPasswordsEndSessions()
    {
        TempDatabase db;
        UserRepository users(testStore());
        const User selin = users.create(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("Selin Aksoy"),
                                        QStringLiteral("admin"), fakeHash(QStringLiteral("parola-123")));
        const User murat = users.create(QStringLiteral("murat@ornek.com.tr"), QStringLiteral("Murat Çelik"),
                                        QStringLiteral("agent"), fakeHash(QStringLiteral("parola-123")));
        RefreshTokenRepository tokens(testStore());
        const QDateTime later = testStore().now().addDays(1);
        tokens.store(murat.id, QStringLiteral("lr_murat_1"), later);
        tokens.store(murat.id, QStringLiteral("lr_murat_2"), later);
        UsersPage page(testStore());
        page.show();

        // A new password: stored, and Murat's sessions end.
        page.table()->selectRow(rowOf(page.table(), murat.email));
        page.setPassword();
        PasswordDialog *password = nullptr;
        QTRY_VERIFY((password = openDialog<PasswordDialog>(&page)));
        password->findChild<QLineEdit *>(QStringLiteral("newPasswordEdit"))->setText(QStringLiteral("yeni-parola-9"));
        password->findChild<QLineEdit *>(QStringLiteral("repeatPasswordEdit"))
            ->setText(QStringLiteral("yeni-parola-9"));
        password->accept();
        QTRY_VERIFY(!openDialog<PasswordDialog>(&page));
        QVERIFY(users.checkCredentials(murat.email, QStringLiteral("yeni-parola-9")));
        QVERIFY(!tokens.consume(QStringLiteral("lr_murat_1"), testStore().now()));

        // Deactivation asks, then ends the sessions and greys the row; Activate brings them back.
        tokens.store(murat.id, QStringLiteral("lr_murat_3"), later);
        page.table()->selectRow(rowOf(page.table(), murat.email));
        page.toggleActive();
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = openDialog<QMessageBox>(&page)));
        box->button(QMessageBox::Yes)->click();
        QTRY_VERIFY(!users.find(murat.id)->isActive());
        QVERIFY(!tokens.consume(QStringLiteral("lr_murat_3"), testStore().now()));
        const int row = rowOf(page.table(), murat.email);
        QCOMPARE(page.table()->item(row, UsersPage::StateColumn)->text(), QStringLiteral("Deactivated"));
        QCOMPARE(page.findChild<QPushButton *>(QStringLiteral("toggleActiveButton"))->text(),
                 QStringLiteral("Activate"));
        page.toggleActive();
        QTRY_VERIFY(users.find(murat.id)->isActive());

        // The last admin stays: the refusal is shown on the page.
        page.table()->selectRow(rowOf(page.table(), selin.email));
        page.toggleActive();
        QTRY_VERIFY((box = openDialog<QMessageBox>(&page)));
        box->button(QMessageBox::Yes)->click();
        QTRY_VERIFY(visibleError(&page));
        QVERIFY(users.find(selin.id)->isActive());

        // Edit: a role change to the last admin is refused too; a rename goes through.
        page.editUser();
        UserDialog *edit = nullptr;
        QTRY_VERIFY((edit = openDialog<UserDialog>(&page)));
        QVERIFY(edit->findChild<QLineEdit *>(QStringLiteral("userEmailEdit"))->isReadOnly());
        auto *role = edit->findChild<QComboBox *>(QStringLiteral("roleCombo"));
        role->setCurrentIndex(role->findData(QStringLiteral("agent")));
        edit->accept();
        QVERIFY(edit->isVisible());
        role->setCurrentIndex(role->findData(QStringLiteral("admin")));
        edit->findChild<QLineEdit *>(QStringLiteral("userNameEdit"))->setText(QStringLiteral("Selin Aksoy Kaya"));
        edit->accept();
        QTRY_VERIFY(!openDialog<UserDialog>(&page));
        QCOMPARE(users.find(selin.id)->name, QStringLiteral("Selin Aksoy Kaya"));
        QCOMPARE(page.table()->item(rowOf(page.table(), selin.email), UsersPage::NameColumn)->text(),
                 QStringLiteral("Selin Aksoy Kaya"));
        Database::closeThreadConnection();
    }

    void ownPasswordAsksForTheCurrentOne()
    {
        QStringList stored;
        PasswordDialog dialog(
            QStringLiteral("Selin Aksoy"),
            [&stored](const QString &current, const QString &password) {
                if (current != QLatin1String("eski-parola-1"))
                    return false;
                stored << password;
                return true;
            },
            PasswordDialog::Whose::Own);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *current = dialog.findChild<QLineEdit *>(QStringLiteral("currentPasswordEdit"));
        QVERIFY(current);
        QTRY_COMPARE(QApplication::focusWidget(), current); // typed first, as the form reads
        QTest::keyClicks(current, QStringLiteral("yanlis-parola"));
        dialog.findChild<QLineEdit *>(QStringLiteral("newPasswordEdit"))->setText(QStringLiteral("yeni-parola-9"));
        dialog.findChild<QLineEdit *>(QStringLiteral("repeatPasswordEdit"))->setText(QStringLiteral("yeni-parola-9"));
        dialog.accept();
        QVERIFY(dialog.isVisible());
        QVERIFY(visibleError(&dialog));
        QVERIFY(stored.isEmpty());
        current->setText(QStringLiteral("eski-parola-1"));
        dialog.accept();
        QVERIFY(!dialog.isVisible());
        QCOMPARE(stored, QStringList{QStringLiteral("yeni-parola-9")});
    }

    void agentsWindowOffersNoConfiguration()
    {
        TempDatabase db;
        UserRepository users(testStore());
        const User selin = users.create(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("Selin Aksoy"),
                                        QStringLiteral("admin"), fakeHash(QStringLiteral("parola-123")));
        const User murat = users.create(QStringLiteral("murat@ornek.com.tr"), QStringLiteral("Murat Çelik"),
                                        QStringLiteral("agent"), fakeHash(QStringLiteral("parola-123")));
        Store::Actor actor{murat.id, murat.name, murat.role};
        const Store desk = testStore().actingAs(actor);
        ContactRepository contacts(desk);
        ApiKeyRepository keys(desk);
        keys.create(QStringLiteral("Selin's"), {}, selin.id);
        keys.create(QStringLiteral("Murat's"), {QStringLiteral("contacts:read")});
        ComposedWindow window(contacts, keys, desk);
        window.addSettingsPage(QStringLiteral("Users"), QStringLiteral("&Users…"), QStringLiteral("usersPage"),
                               [desk](QWidget *parent) { return new UsersPage(desk, parent); });
        window.setSignedInUser(murat);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        auto visibleActions = [&window] {
            QStringList pages;
            for (QAction *a : window.findChild<QMenu *>(QStringLiteral("settingsMenu"))->actions()) {
                if (a->isVisible())
                    pages << a->data().toString();
            }
            return pages;
        };
        QCOMPARE(visibleActions(), QStringList{QStringLiteral("apiKeysPage")});
        QVERIFY(!window.settingsDialog()->showPage(QStringLiteral("usersPage")));
        QVERIFY(!window.settingsDialog()->showPage(QStringLiteral("webhooksPage")));
        // Only their own key is listed.
        QCOMPARE(window.settingsDialog()->apiKeysPage()->table()->rowCount(), 1);
        QVERIFY(window.findChild<QPushButton *>(QStringLiteral("editPipelinesButton"))->isHidden());
        QCOMPARE(window.findChild<QLabel *>(QStringLiteral("signedInUserLabel"))->text(),
                 QStringLiteral("Murat Çelik (agent)"));
        QVERIFY(window.findChild<QAction *>(QStringLiteral("signOutAction"))->isVisible());

        // An admin signs in: every page, every key, pipelines editable.
        actor = {selin.id, selin.name, selin.role};
        window.setSignedInUser(selin);
        QCOMPARE(visibleActions().size(), 5);
        QVERIFY(visibleActions().contains(QStringLiteral("usersPage")));
        QVERIFY(window.settingsDialog()->showPage(QStringLiteral("usersPage")));
        QCOMPARE(window.settingsDialog()->apiKeysPage()->table()->rowCount(), 2);
        QVERIFY(!window.findChild<QPushButton *>(QStringLiteral("editPipelinesButton"))->isHidden());
        Database::closeThreadConnection();
    }
};

QTEST_MAIN(TestUsersPage)
#include "test_userspage.moc"
