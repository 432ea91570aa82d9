// The first start: the welcome makes the first administrator (with the form's own checks and the
// model's refusals under their fields), then shows the API's address and makes a first key for
// that account; the window opens it on the right page and Help → Getting started reopens it.

#include "tests/ui/uitest.h"

#include "model/accounts/userrepository.h"
#include "tests/ui/windowfixture.h"
#include "ui/shell/welcomedialog.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>

using namespace UiTest;

class TestWelcomeDialog final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<WindowFixture> m_fixture;
    int m_created = 0;

    WelcomeDialog::AccountCreator creator()
    {
        return [this](const QString &name, const QString &email, const QString &password) {
            ++m_created;
            return UserRepository(testStore()).create(email, name, "admin", "hash:" + password);
        };
    }

    static void fill(WelcomeDialog &d, const QString &name, const QString &email, const QString &password,
                     const QString &repeat)
    {
        d.findChild<QLineEdit *>("welcomeName")->setText(name);
        d.findChild<QLineEdit *>("welcomeEmail")->setText(email);
        d.findChild<QLineEdit *>("welcomePassword")->setText(password);
        d.findChild<QLineEdit *>("welcomeRepeat")->setText(repeat);
    }
    static QString errorOf(WelcomeDialog &d, const QString &key)
    {
        auto *label = d.findChild<QLabel *>(key + "Error");
        return label && !label->isHidden() ? label->text() : QString();
    }
    static bool onApiPage(WelcomeDialog &d) { return d.findChild<QWidget *>("welcomeApiPage")->isVisible(); }

private slots:
    void init()
    {
        m_fixture = std::make_unique<WindowFixture>();
        m_created = 0;
    }
    void cleanup() { m_fixture.reset(); }

    void theFormChecksItsFields_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("email");
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("repeat");
        QTest::addColumn<QString>("field");
        QTest::newRow("no name") << "  "
                                 << "selin@ornek.com.tr"
                                 << "parola-123"
                                 << "parola-123"
                                 << "name";
        QTest::newRow("no e-mail") << "Selin"
                                   << ""
                                   << "parola-123"
                                   << "parola-123"
                                   << "email";
        QTest::newRow("not an e-mail") << "Selin"
                                       << "selin"
                                       << "parola-123"
                                       << "parola-123"
                                       << "email";
        QTest::newRow("no dot in the domain") << "Selin"
                                              << "selin@ornek"
                                              << "parola-123"
                                              << "parola-123"
                                              << "email";
        QTest::newRow("short password") << "Selin"
                                        << "selin@ornek.com.tr"
                                        << "kısa"
                                        << "kısa"
                                        << "password";
        QTest::newRow("seven characters") << "Selin"
                                          << "selin@ornek.com.tr"
                                          << "1234567"
                                          << "1234567"
                                          << "password";
        QTest::newRow("repeat differs") << "Selin"
                                        << "selin@ornek.com.tr"
                                        << "parola-123"
                                        << "parola-124"
                                        << "repeat";
        QTest::newRow("model refuses the e-mail") << "Selin"
                                                  << "selin@@ornek"
                                                  << "parola-123"
                                                  << "parola-123"
                                                  << "email";
    }

    void theFormChecksItsFields()
    {
        QFETCH(QString, name);
        QFETCH(QString, email);
        QFETCH(QString, password);
        QFETCH(QString, repeat);
        QFETCH(QString, field);
        WelcomeDialog d(m_fixture->keys, creator());
        d.show();
        fill(d, name, email, password, repeat);
        click(d.findChild<QPushButton *>("welcomeCreateButton"));
        QVERIFY2(!errorOf(d, field).isEmpty(), qPrintable(field));
        QVERIFY(!onApiPage(d));
        QVERIFY(UserRepository(testStore()).list().isEmpty()); // nothing stored
    }

    void aTakenEmailIsNamedUnderItsField()
    {
        UserRepository(testStore()).create("selin@ornek.com.tr", "Selin", "admin", "x");
        WelcomeDialog d(m_fixture->keys, creator());
        d.show();
        fill(d, "Selin Aksoy", "SELIN@ornek.com.tr", "parola-123", "parola-123");
        click(d.findChild<QPushButton *>("welcomeCreateButton"));
        QCOMPARE(errorOf(d, "email"), QString("An account with this e-mail address exists already."));
        QVERIFY(!onApiPage(d));
        QCOMPARE(UserRepository(testStore()).list().size(), 1);
    }

    void makesTheAdminThenAKeyForIt()
    {
        WelcomeDialog d(m_fixture->keys, creator());
        d.setApiAddress("https://127.0.0.1:8443");
        d.show();
        QSignalSpy created(&d, &WelcomeDialog::accountCreated);
        fill(d, "Selin Aksoy", "selin@ornek.com.tr", "parola-123", "parola-123");
        QTest::keyClick(d.findChild<QLineEdit *>("welcomeRepeat"), Qt::Key_Return); // Enter creates
        QCOMPARE(created.size(), 1);
        QCOMPARE(m_created, 1);
        const QVector<User> users = UserRepository(testStore()).list();
        QCOMPARE(users.size(), 1);
        QCOMPARE(users.first().role, QString("admin"));
        QCOMPARE(created.first().first().value<User>().id, users.first().id);
        QVERIFY(onApiPage(d));
        QCOMPARE(d.findChild<QLineEdit *>("welcomePassword")->text(), QString()); // not kept around

        QCOMPARE(d.findChild<QLabel *>("welcomeApiAddress")->text(), QString("https://127.0.0.1:8443/api/v1"));
        click(d.findChild<QPushButton *>("welcomeCopyAddress"));
        QCOMPARE(QGuiApplication::clipboard()->text(), QString("https://127.0.0.1:8443/api/v1"));

        auto *copyKey = d.findChild<QPushButton *>("welcomeCopyKey");
        QVERIFY(!copyKey->isEnabled());
        click(d.findChild<QPushButton *>("welcomeCreateKey"));
        const QString secret = d.findChild<QLineEdit *>("welcomeKey")->text();
        QVERIFY(secret.startsWith("lk_"));
        QCOMPARE(d.createdKey(), secret);
        const auto key = m_fixture->keys.authenticate(secret);
        QVERIFY(key.has_value());
        QCOMPARE(key->createdBy, users.first().id); // the admin's key
        QVERIFY(key->allows("contacts:write"));
        QVERIFY(!d.findChild<QPushButton *>("welcomeCreateKey")->isEnabled()); // one here
        click(copyKey);
        QCOMPARE(QGuiApplication::clipboard()->text(), secret);
        QVERIFY(d.findChild<QLabel *>("welcomeExample")->text().contains(secret));

        QTest::keyClick(d.findChild<QLineEdit *>("welcomeKey"), Qt::Key_Return); // Enter: Start working
        QCOMPARE(d.result(), int(QDialog::Accepted));
    }

    void offersTheSystemsCountryForPhoneNumbers()
    {
        QStringList saved;
        WelcomeDialog d(m_fixture->keys, creator());
        auto *box = d.findChild<QCheckBox *>("welcomeCallingCode");
        QVERIFY(box);
        QVERIFY(box->isHidden()); // nothing offered: nothing shown
        d.offerCallingCode("Türkiye", "90", [&saved](const QString &code, QString *) {
            saved << code;
            return true;
        });
        d.show();
        QVERIFY(box->isVisible());
        QVERIFY(box->isChecked());
        QCOMPARE(box->text(), QString("Phone numbers written without + are from Türkiye (+90)"));
        fill(d, "Selin Aksoy", "selin@ornek.com.tr", "parola-123", "parola-123");
        click(d.findChild<QPushButton *>("welcomeCreateButton"));
        QVERIFY(onApiPage(d));
        QCOMPARE(saved, QStringList{"90"});

        // Unticked: nothing saved.
        saved.clear();
        WelcomeDialog other(m_fixture->keys, creator());
        other.offerCallingCode("Türkiye", "90", [&saved](const QString &code, QString *) {
            saved << code;
            return true;
        });
        other.show();
        other.findChild<QCheckBox *>("welcomeCallingCode")->setChecked(false);
        fill(other, "Murat Çelik", "murat@ornek.com.tr", "parola-123", "parola-123");
        click(other.findChild<QPushButton *>("welcomeCreateButton"));
        QVERIFY(onApiPage(other));
        QVERIFY(saved.isEmpty());
    }

    void saysWhenTheServerDoesNotRun()
    {
        WelcomeDialog d(m_fixture->keys, creator());
        d.showApiPage();
        d.setApiAddress({}, "address in use");
        QCOMPARE(d.findChild<QLabel *>("welcomeApiAddress")->text(),
                 QString("The API server is not running: address in use"));
        QVERIFY(!d.findChild<QPushButton *>("welcomeCopyAddress")->isEnabled());
    }

    void theWindowOpensItOnTheRightPage()
    {
        auto w = m_fixture->window();
        w->setAccountCreator(creator());
        w->setServerStatus("https://127.0.0.1:9443", true);
        w->show();
        QSignalSpy created(w.get(), &MainWindow::accountCreated);
        w->showWelcome();
        WelcomeDialog *d = w->welcomeDialog();
        QVERIFY(d);
        QTRY_VERIFY(d->isVisible());
        QVERIFY(d->isModal() || d->windowModality() != Qt::NonModal);
        QVERIFY(d->findChild<QWidget *>("welcomeAccountPage")->isVisible());
        fill(*d, "Selin Aksoy", "selin@ornek.com.tr", "parola-123", "parola-123");
        click(d->findChild<QPushButton *>("welcomeCreateButton"));
        QCOMPARE(created.size(), 1); // the app makes it the window's user
        QCOMPARE(d->findChild<QLabel *>("welcomeApiAddress")->text(), QString("https://127.0.0.1:9443/api/v1"));
        w->setServerStatus({}, false, "stopped for the test");
        QVERIFY(d->findChild<QLabel *>("welcomeApiAddress")->text().contains("stopped for the test"));
        d->accept();
        QTRY_VERIFY(!w->welcomeDialog()); // closed and gone

        // Help → Getting started: an account exists now, so the tour, which leads on to the API page.
        auto *action = w->findChild<QAction *>("welcomeAction");
        QVERIFY(action);
        action->trigger();
        QVERIFY(w->welcomeDialog());
        QTRY_VERIFY(w->welcomeDialog()->findChild<QWidget *>("welcomeGuidePage")->isVisible());
        const QStringList shown = [&] {
            QStringList texts;
            for (const QLabel *l :
                 w->welcomeDialog()->findChild<QWidget *>("welcomeGuidePage")->findChildren<QLabel *>())
                texts << l->text();
            return texts;
        }();
        for (const char *area : {"Contacts", "Deals", "Tasks", "Inbox"})
            QVERIFY2(shown.contains(area), area); // a section for each area of the navigation
        click(w->welcomeDialog()->findChild<QPushButton *>("welcomeGuideApiButton"));
        QTRY_VERIFY(w->welcomeDialog()->findChild<QWidget *>("welcomeApiPage")->isVisible());
        click(w->welcomeDialog()->findChild<QPushButton *>("welcomeCreateKey"));
        const auto key = m_fixture->keys.authenticate(w->welcomeDialog()->createdKey());
        QVERIFY(key.has_value());
        QCOMPARE(key->createdBy, UserRepository(testStore()).list().first().id);
    }
};

QTEST_MAIN(TestWelcomeDialog)
#include "test_welcomedialog.moc"
