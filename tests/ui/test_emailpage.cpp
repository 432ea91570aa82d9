// Settings > E-mail driven offscreen: the form filled from the settings and the secret store, its
// checks (no plain SMTP to another machine, a From address, DKIM whole or not at all), and Save
// writing the mail/… keys to liaison.ini and the password and DKIM key to the secret store, as the
// app wires it (app/emailsettings.h).

#include "tests/ui/uilayout.h"
#include "tests/ui/uitest.h"

#include "app/appsettings.h"
#include "app/emailsettings.h"
#include "app/secrets/secretstore.h"
#include "ui/settings/emailpage.h"
#include "ui/shell/settingsdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace UiTest;

namespace {
const char *const kPem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----";
}

class TestEmailPage final : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<AppSettings> m_settings;
    std::unique_ptr<SecretStore> m_secrets;

    std::unique_ptr<EmailPage> page()
    {
        auto p = std::make_unique<EmailPage>();
        p->setValues(EmailSettings::values(*m_settings, *m_secrets));
        const QString ini = m_settings->iniPath();
        p->setSaveFunction([ini, this](const EmailPage::Values &values, QString *error) {
            return EmailSettings::save(values, ini, *m_secrets, error);
        });
        p->show();
        return p;
    }
    QString ini(const QString &key) const
    {
        return QSettings(m_settings->iniPath(), QSettings::IniFormat).value(key).toString();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("DBUS_SESSION_BUS_ADDRESS", ""); // the secret store's owner-only file, no keychain
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_settings = std::make_unique<AppSettings>(m_dir->path());
        m_secrets = std::make_unique<SecretStore>(QStringLiteral("liaison-test-email"),
                                                  m_dir->filePath(QStringLiteral("secrets.json")));
    }

    void cleanup()
    {
        m_secrets.reset();
        m_settings.reset();
        m_dir.reset();
    }

    void theDefaultsOfAnEmptyForm()
    {
        auto p = page();
        QCOMPARE(p->portBox()->value(), 587);
        QCOMPARE(p->securityBox()->currentData().toString(), QString("starttls"));
        QVERIFY(p->verifyTlsBox()->isChecked());
        QCOMPARE(p->field("mail.password")->echoMode(), QLineEdit::PasswordEchoOnEdit);
        QVERIFY(!p->removeKeyButton()->isEnabled());
        for (const QString &key : EmailPage::keys()) {
            if (key != "mail/smtpPort" && key != "mail/security" && key != "mail/verifyTls" && key != "mail.dkimKey")
                QVERIFY2(p->field(key), qPrintable(key));
        }
        // TLS from the start moves the usual port with it.
        p->securityBox()->setCurrentIndex(p->securityBox()->findData("tls"));
        QCOMPARE(p->portBox()->value(), 465);
    }

    void saveWritesTheSettingsAndTheSecrets()
    {
        auto p = page();
        QTest::keyClicks(p->field("mail/smtpHost"), "smtp.ornek.com.tr");
        p->portBox()->setValue(2525);
        QTest::keyClicks(p->field("mail/user"), "bulten");
        QTest::keyClicks(p->field("mail.password"), "gizli-parola");
        p->field("mail/from")->setText("Örnek Ltd. <bulten@ornek.com.tr>");
        p->verifyTlsBox()->setChecked(false);
        QTest::keyClicks(p->field("mail/dkimDomain"), "ornek.com.tr");
        QTest::keyClicks(p->field("mail/dkimSelector"), "liaison");
        p->dkimKeyEdit()->setPlainText(kPem);
        click(p->saveButton());
        QVERIFY2(p->saveResultLabel()->text().contains("next start"), qPrintable(p->saveResultLabel()->text()));
        QCOMPARE(ini("mail/smtpHost"), QString("smtp.ornek.com.tr"));
        QCOMPARE(ini("mail/smtpPort"), QString("2525"));
        QCOMPARE(ini("mail/security"), QString("starttls"));
        QCOMPARE(ini("mail/user"), QString("bulten"));
        QCOMPARE(ini("mail/from"), QString("Örnek Ltd. <bulten@ornek.com.tr>"));
        QCOMPARE(ini("mail/verifyTls"), QString("false"));
        QCOMPARE(ini("mail/dkimDomain"), QString("ornek.com.tr"));
        QCOMPARE(ini("mail/dkimSelector"), QString("liaison"));
        // The secrets are not in the ini file, but in the store.
        QVERIFY(ini("mail.password").isEmpty());
        QVERIFY(!QSettings(m_settings->iniPath(), QSettings::IniFormat).allKeys().join(",").contains("password"));
        QCOMPARE(m_secrets->read("mail.password").value_or(QByteArray()), QByteArray("gizli-parola"));
        QCOMPARE(m_secrets->read("mail.dkimKey").value_or(QByteArray()), QByteArray(kPem) + "\n");
        // The key is not shown again, only said to be stored; the next save keeps it.
        QVERIFY(p->dkimKeyEdit()->toPlainText().isEmpty());
        QVERIFY(p->removeKeyButton()->isEnabled());

        // Opened again: the form shows what was saved.
        m_settings = std::make_unique<AppSettings>(m_dir->path());
        auto again = page();
        QCOMPARE(again->field("mail/smtpHost")->text(), QString("smtp.ornek.com.tr"));
        QCOMPARE(again->portBox()->value(), 2525);
        QVERIFY(!again->verifyTlsBox()->isChecked());
        QCOMPARE(again->field("mail.password")->text(), QString("gizli-parola"));
        QVERIFY(again->dkimKeyEdit()->toPlainText().isEmpty());
        QCOMPARE(again->values().value("mail.dkimKey"), QString(kPem) + "\n");
        click(again->saveButton());
        QCOMPARE(m_secrets->read("mail.dkimKey").value_or(QByteArray()), QByteArray(kPem) + "\n");

        // Cleared: the keys and the secrets go.
        again->field("mail/user")->clear();
        again->field("mail.password")->clear();
        again->field("mail/dkimDomain")->clear();
        again->field("mail/dkimSelector")->clear();
        click(again->removeKeyButton());
        click(again->saveButton());
        QVERIFY2(again->saveResultLabel()->text().contains("next start"), qPrintable(again->saveResultLabel()->text()));
        QVERIFY(!QSettings(m_settings->iniPath(), QSettings::IniFormat).contains("mail/user"));
        QVERIFY(!m_secrets->read("mail.password").has_value());
        QVERIFY(!m_secrets->read("mail.dkimKey").has_value());
    }

    void badValuesAreNotSaved_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("security");
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("dkimDomain");
        QTest::addColumn<bool>("saved");
        QTest::newRow("plain to another machine") << "smtp.ornek.com.tr"
                                                  << "none"
                                                  << "a@ornek.com.tr"
                                                  << "" << false;
        QTest::newRow("plain on this machine") << "127.0.0.1"
                                               << "none"
                                               << "a@ornek.com.tr"
                                               << "" << true;
        QTest::newRow("plain on localhost") << "localhost"
                                            << "none"
                                            << "a@ornek.com.tr"
                                            << "" << true;
        QTest::newRow("no From") << "smtp.ornek.com.tr"
                                 << "starttls"
                                 << ""
                                 << "" << false;
        QTest::newRow("a From without address") << "smtp.ornek.com.tr"
                                                << "starttls"
                                                << "Örnek Ltd."
                                                << "" << false;
        QTest::newRow("a bare address") << "smtp.ornek.com.tr"
                                        << "tls"
                                        << "a@ornek.com.tr"
                                        << "" << true;
        QTest::newRow("DKIM half given") << "smtp.ornek.com.tr"
                                         << "starttls"
                                         << "a@ornek.com.tr"
                                         << "ornek.com.tr" << false;
        QTest::newRow("nothing: e-mail off") << ""
                                             << "starttls"
                                             << ""
                                             << "" << true;
    }

    void badValuesAreNotSaved()
    {
        QFETCH(QString, host);
        QFETCH(QString, security);
        QFETCH(QString, from);
        QFETCH(QString, dkimDomain);
        QFETCH(bool, saved);
        auto p = page();
        p->field("mail/smtpHost")->setText(host);
        p->securityBox()->setCurrentIndex(p->securityBox()->findData(security));
        p->field("mail/from")->setText(from);
        p->field("mail/dkimDomain")->setText(dkimDomain);
        QCOMPARE(p->save(), saved);
        QCOMPARE(ini("mail/smtpHost"), saved ? host : QString());
        if (!saved)
            QVERIFY(p->saveResultLabel()->text().startsWith("Not saved: "));
    }

    void opensFromSettingsDialogWhole()
    {
        const ScopedTurkish translation;
        QVERIFY2(translation.ok(), ScopedTurkish::missing);
        SettingsDialog dialog;
        dialog.addPage(EmailPage::tr("E-mail"), new EmailPage);
        QVERIFY(dialog.showPage("emailPage"));
        // As tall as a 1366 × 768 screen lets it be (shorter, the page scrolls).
        dialog.resize(820, 700);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCoreApplication::processEvents();
        const QStringList cut = clippedControls(&dialog);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join("; ")));
    }
};

QTEST_MAIN(TestEmailPage)
#include "test_emailpage.moc"
