// Settings > SMS driven offscreen, as the app wires it (app/smssettings.h): the form filled from the
// settings and the secret store (defaults where unset, the token never shown), the rules the
// settings file is read with refusing bad values under their fields in the window's language, Save
// writing the channels/sms/… and campaigns/sms/… keys and the token, the test send through the real
// SmsClient (in its own thread) against the fake Twilio API, and an agent's window without the page.

#include "tests/ui/composedwindow.h"
#include "tests/ui/uilayout.h"
#include "tests/ui/uitest.h"

#include "app/appsettings.h"
#include "app/secrets/secretstore.h"
#include "app/smssettings.h"
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "tests/support/faketwilio.h"
#include "tests/support/testsupport.h"
#include "ui/settings/smspage.h"
#include "ui/shell/settingsdialog.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace UiTest;

class TestSmsPage final : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<AppSettings> m_settings;
    std::unique_ptr<SecretStore> m_secrets;

    std::unique_ptr<SmsPage> page()
    {
        auto p = std::make_unique<SmsPage>();
        p->setValues(SmsSettings::values(*m_settings, *m_secrets));
        p->setCheckFunction(&SmsSettings::check);
        const QString ini = m_settings->iniPath();
        p->setSaveFunction([ini, this](const SmsPage::Values &values, QString *error) {
            return SmsSettings::save(values, ini, *m_secrets, error);
        });
        SmsPage *raw = p.get();
        p->setTestFunction(
            [raw](const SmsPage::Values &values, const QString &to, const QString &body, SmsPage::TestDone done) {
                SmsSettings::testSend(values, to, body, raw, std::move(done));
            });
        p->show();
        return p;
    }
    QString ini(const QString &key) const
    {
        return QSettings(m_settings->iniPath(), QSettings::IniFormat).value(key).toString();
    }
    void writeIni(const QHash<QString, QString> &values)
    {
        QString error;
        QVERIFY2(AppSettings::writeIni(m_settings->iniPath(), values, &error), qPrintable(error));
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
        m_secrets = std::make_unique<SecretStore>(QStringLiteral("liaison-test-sms"),
                                                  m_dir->filePath(QStringLiteral("secrets.json")));
    }

    void cleanup()
    {
        m_secrets.reset();
        m_settings.reset();
        m_dir.reset();
    }

    void loadsTheStoredValuesAndTheDefaults()
    {
        {
            auto p = page();
            QCOMPARE(p->field("channels/sms/apiBaseUrl")->text(), QString("https://api.twilio.com"));
            QCOMPARE(p->numberBox("campaigns/sms/messagesPerSecond")->value(), 10);
            QCOMPARE(p->numberBox("campaigns/sms/concurrency")->value(), 4);
            QCOMPARE(p->numberBox("campaigns/sms/maxPerHour")->value(), 0);
            QCOMPARE(p->numberBox("channels/sms/timeoutSeconds")->value(), 30);
            QCOMPARE(p->tokenStateLabel()->text(), QString("No token is stored."));
            QVERIFY(!p->removeTokenButton()->isEnabled());
            // A screen reader reads each field by its row's label, in error cells too.
            QCOMPARE(p->field("channels/sms/accountSid")->accessibleName(), QString("Account SID"));
            QCOMPARE(p->numberBox("campaigns/sms/concurrency")->accessibleName(), QString("Messages at once"));
            QCOMPARE(p->testNumberField()->accessibleName(), QString("To"));
        }
        writeIni({{"channels/sms/accountSid", "AC0123456789abcdef0123456789abcdef"},
                  {"channels/sms/from", "ORNEK"},
                  {"campaigns/sms/maxPerHour", "3600"}});
        QVERIFY(m_secrets->write("channels/sms/authToken", "gizli-token"));
        auto p = page();
        QCOMPARE(p->field("channels/sms/accountSid")->text(), QString("AC0123456789abcdef0123456789abcdef"));
        QCOMPARE(p->field("channels/sms/from")->text(), QString("ORNEK"));
        QCOMPARE(p->numberBox("campaigns/sms/maxPerHour")->value(), 3600);
        // The token is never shown: the field is empty and masked, the page says one is stored.
        QCOMPARE(p->field("channels/sms/authToken")->text(), QString());
        QCOMPARE(p->field("channels/sms/authToken")->echoMode(), QLineEdit::PasswordEchoOnEdit);
        QCOMPARE(p->tokenStateLabel()->text(), QString("A token is stored; type another to replace it."));
        QCOMPARE(p->values().value("channels/sms/authToken"), QString("gizli-token"));
    }

    void savesTheSettingsAndTheToken()
    {
        auto p = page();
        p->field("channels/sms/apiBaseUrl")->setText("https://sms.ornek.com.tr/");
        QTest::keyClicks(p->field("channels/sms/accountSid"), "AC0123456789abcdef0123456789abcdef");
        QTest::keyClicks(p->field("channels/sms/authToken"), "yeni-token");
        QTest::keyClicks(p->field("channels/sms/from"), "+908501234567");
        p->numberBox("campaigns/sms/messagesPerSecond")->setValue(5);
        p->numberBox("campaigns/sms/concurrency")->setValue(2);
        p->numberBox("campaigns/sms/maxPerHour")->setValue(1000);
        click(p->saveButton());
        QVERIFY2(p->saveResultLabel()->text().contains("next start"), qPrintable(p->saveResultLabel()->text()));
        QCOMPARE(ini("channels/sms/apiBaseUrl"), QString("https://sms.ornek.com.tr/"));
        QCOMPARE(ini("channels/sms/accountSid"), QString("AC0123456789abcdef0123456789abcdef"));
        QCOMPARE(ini("channels/sms/from"), QString("+908501234567"));
        QCOMPARE(ini("campaigns/sms/messagesPerSecond"), QString("5"));
        QCOMPARE(ini("campaigns/sms/concurrency"), QString("2"));
        QCOMPARE(ini("campaigns/sms/maxPerHour"), QString("1000"));
        QVERIFY(ini("channels/sms/authToken").isEmpty()); // a secret never lands in the ini file
        QCOMPARE(m_secrets->read("channels/sms/authToken").value_or(QByteArray()), QByteArray("yeni-token"));
        QCOMPARE(p->field("channels/sms/authToken")->text(), QString());
        QCOMPARE(p->tokenStateLabel()->text(), QString("A token is stored; type another to replace it."));

        // What the page saved is what the campaigns read at the next start.
        CampaignsConfig c;
        QString why;
        QVERIFY2(AppSettings(m_dir->path()).campaignsConfig(&c, &why), qPrintable(why));
        QCOMPARE(c.smsApi.apiBaseUrl, QString("https://sms.ornek.com.tr"));
        QCOMPARE(c.sms.perSecond, 5);
        QCOMPARE(c.sms.concurrency, 2);
        QCOMPARE(c.sms.maxPerHour, 1000);

        // Removing the stored token removes it from the store at the next save.
        click(p->removeTokenButton());
        QCOMPARE(p->tokenStateLabel()->text(), QString("No token is stored."));
        QVERIFY(p->save());
        QVERIFY(!m_secrets->read("channels/sms/authToken").has_value());
    }

    void refusesBadValuesUnderTheirFieldsInTurkish_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("turkish");
        QTest::newRow("plain http") << "channels/sms/apiBaseUrl"
                                    << "http://sms.ornek.com.tr"
                                    << "Https olmalı (http yalnızca bu makinedeki bir adreste); girilen "
                                       "\"http://sms.ornek.com.tr\": şifresiz http yalnızca bu makinedeki (loopback) "
                                       "bir adreste kullanılabilir";
        QTest::newRow("account") << "channels/sms/accountSid"
                                 << "12345"
                                 << "Bir hesap SID'si olmalı (AC ve 32 onaltılık rakam); girilen \"12345\"";
        QTest::newRow("sender") << "channels/sms/from"
                                << "0532-abc-!!"
                                << "Bir telefon numarası (E.164, +905321234567) ya da en çok 11 karakterlik harf ve "
                                   "rakamlardan oluşan bir gönderen adı olmalı; girilen \"0532-abc-!!\"";
        QTest::newRow("no concurrency") << "campaigns/sms/concurrency"
                                        << "0"
                                        << "1 ile 256 arasında bir tam sayı olmalı";
        QTest::newRow("no timeout") << "channels/sms/timeoutSeconds"
                                    << "0"
                                    << "1 ile 600 arasında bir tam sayı olmalı";
    }

    void refusesBadValuesUnderTheirFieldsInTurkish()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, turkish);
        const ScopedTurkish translation;
        QVERIFY2(translation.ok(), ScopedTurkish::missing);
        auto p = page();
        if (QSpinBox *box = p->numberBox(key))
            box->setValue(value.toInt());
        else
            p->field(key)->setText(value);
        QVERIFY(!p->save());
        QCOMPARE(p->errorLabel(key)->text(), turkish);
        QVERIFY(p->errorLabel(key)->isVisible());
        QVERIFY(p->saveResultLabel()->text().startsWith("Kaydedilmedi: "));
        QVERIFY(!QFile::exists(m_settings->iniPath()) || ini(key).isEmpty());
        // The same rule refuses the value in the settings file, in English.
        QString overrideError;
        QVERIFY(m_settings->addOverride(key + "=" + value, &overrideError));
        CampaignsConfig c;
        QString why;
        QVERIFY(!m_settings->campaignsConfig(&c, &why));
        QVERIFY2(why.startsWith("setting " + key), qPrintable(why));
        // Corrected, the label goes.
        if (QSpinBox *box = p->numberBox(key))
            box->setValue(key == "campaigns/sms/concurrency" ? 4 : 30);
        else
            p->field(key)->clear();
        QVERIFY(p->save());
        QVERIFY(!p->errorLabel(key)->isVisible());
    }

    void testSendShowsTheProvidersAnswer()
    {
        FakeTwilio twilio;
        twilio.badNumbers.insert("+905329999999");
        writeIni({{"channels/sms/apiBaseUrl", twilio.baseUrl()},
                  {"channels/sms/accountSid", twilio.accountSid},
                  {"channels/sms/from", "+908501234567"}});
        QVERIFY(m_secrets->write("channels/sms/authToken", twilio.authToken.toUtf8()));
        auto p = page();

        // A number that is not one: refused here, nothing sent.
        p->testNumberField()->setText("merhaba");
        click(p->testButton());
        QVERIFY(p->errorLabel("smsTestTo")->isVisible());
        QCOMPARE(twilio.requests.size(), 0);

        p->testNumberField()->setText("+90 532 123 45 67");
        click(p->testButton());
        QVERIFY(!p->testButton()->isEnabled()); // one at a time, the window free meanwhile
        QTRY_VERIFY_WITH_TIMEOUT(p->testButton()->isEnabled(), 15000);
        QCOMPARE(twilio.requests.size(), 1);
        QVERIFY2(twilio.problems().isEmpty(), qPrintable(twilio.problems().join("; ")));
        QCOMPARE(twilio.requests.at(0).to, QString("+905321234567"));
        QCOMPARE(twilio.requests.at(0).from, QString("+908501234567"));
        QVERIFY(twilio.requests.at(0).statusCallback.isEmpty());
        QCOMPARE(p->testResultLabel()->text(),
                 QString("Sent to +905321234567. The provider accepted it as %1 (status: queued).")
                     .arg(twilio.requests.at(0).sid));

        // The provider's refusal, with its code and words (Return in the number sends too).
        p->testNumberField()->setText("+905329999999");
        QTest::keyClick(p->testNumberField(), Qt::Key_Return);
        QVERIFY(!p->testButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(p->testButton()->isEnabled(), 15000);
        QCOMPARE(twilio.requests.size(), 2);
        QCOMPARE(p->testResultLabel()->text(),
                 QString("Not sent: the provider answered 400 with error 21211: The 'To' number +905329999999 is "
                         "not a valid phone number."));

        // A wrong token typed (not saved) is what the test uses: refused by the provider.
        p->field("channels/sms/authToken")->setText("yanlis");
        p->testNumberField()->setText("+905321234567");
        click(p->testButton());
        QTRY_VERIFY_WITH_TIMEOUT(p->testButton()->isEnabled(), 15000);
        QVERIFY2(p->testResultLabel()->text().startsWith("Not sent: the provider answered 401 with error 20003"),
                 qPrintable(p->testResultLabel()->text()));
    }

    void testSendWithoutAnAnswerSaysSoInTurkish()
    {
        const ScopedTurkish translation;
        QVERIFY2(translation.ok(), ScopedTurkish::missing);
        quint16 closedPort = 0;
        {
            FakeTwilio gone; // a port just closed: nothing listens there
            closedPort = QUrl(gone.baseUrl()).port();
        }
        writeIni({{"channels/sms/apiBaseUrl", QString("http://127.0.0.1:%1").arg(closedPort)},
                  {"channels/sms/accountSid", "AC0123456789abcdef0123456789abcdef"},
                  {"channels/sms/from", "ORNEK"}});
        QVERIFY(m_secrets->write("channels/sms/authToken", "token"));
        auto p = page();
        p->testNumberField()->setText("+905321234567");
        click(p->testButton());
        QTRY_VERIFY_WITH_TIMEOUT(p->testButton()->isEnabled(), 15000);
        QVERIFY2(p->testResultLabel()->text().startsWith("Gönderilmedi: sağlayıcıdan yanıt gelmedi ("),
                 qPrintable(p->testResultLabel()->text()));

        // Without a sender nothing is tried.
        p->field("channels/sms/from")->clear();
        click(p->testButton());
        QCOMPARE(p->testResultLabel()->text(),
                 QString("Gönderilmedi: önce hesap SID'sini, auth token'ı ve göndereni girin."));
    }

    void anAgentHasNoSmsPage()
    {
        TempDatabase db;
        UserRepository users(testStore());
        const User selin = users.create("selin@ornek.com.tr", "Selin Aksoy", "admin", "test$parola-123");
        const User murat = users.create("murat@ornek.com.tr", "Murat Çelik", "agent", "test$parola-123");
        const Store desk = testStore().actingAs({murat.id, murat.name, murat.role});
        ContactRepository contacts(desk);
        ApiKeyRepository keys(desk);
        ComposedWindow window(contacts, keys, desk);
        addSmsPage(window, *m_settings, *m_secrets);
        auto offered = [&window] {
            for (QAction *a : window.findChild<QMenu *>("settingsMenu")->actions()) {
                if (a->isVisible() && a->data().toString() == "smsPage")
                    return true;
            }
            return false;
        };
        window.setSignedInUser(murat);
        QVERIFY(!offered());
        QVERIFY(!window.settingsDialog()->showPage("smsPage"));
        window.setSignedInUser(selin);
        QVERIFY(offered());
        QVERIFY(window.settingsDialog()->showPage("smsPage"));
        QVERIFY(window.settingsDialog()->findChild<SmsPage *>());
    }

    void opensFromSettingsDialogWhole()
    {
        const ScopedTurkish translation;
        QVERIFY2(translation.ok(), ScopedTurkish::missing);
        SettingsDialog dialog;
        auto *p = new SmsPage;
        dialog.addPage(SmsPage::tr("SMS"), p);
        QVERIFY(dialog.showPage("smsPage"));
        dialog.resize(820, 700);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCoreApplication::processEvents();
        const QStringList cut = clippedControls(&dialog);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join("; ")));
    }
};

QTEST_MAIN(TestSmsPage)
#include "test_smspage.moc"
