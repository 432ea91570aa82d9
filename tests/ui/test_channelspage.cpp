// Settings > Channels driven offscreen: status lines from the status function, the webhook URLs
// to give the providers, "Test connection" probing the Telegram connector against the local fake
// Bot API with the values typed into the form, and Save handing the values over.

#include "tests/ui/uitest.h"

#include "messaging/channels/telegramconnector.h"
#include "model/accounts/apikeyrepository.h"
#include "model/core/eventbus.h"
#include "tests/support/faketelegram.h"
#include "tests/support/testsupport.h"
#include "ui/settings/channelspage.h"
#include "ui/shell/settingsdialog.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace UiTest;

namespace {
// The app's probe, reduced to Telegram: a temporary connector built from the form's values.
void telegramProbe(const QString &channel, const ChannelsPage::Values &values, ChannelsPage::ProbeDone done)
{
    if (channel != QLatin1String("telegram")) {
        done(false, QStringLiteral("not in this test"));
        return;
    }
    TelegramConfig config;
    config.botToken = values.value(QStringLiteral("channels/telegram/botToken"));
    config.apiBaseUrl = values.value(QStringLiteral("channels/telegram/apiBaseUrl"));
    auto *connector = new TelegramConnector(config, 5);
    connector->probe([connector, done](bool ok, const QString &detail) {
        connector->deleteLater();
        done(ok, detail);
    });
}
} // namespace

class TestChannelsPage final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void showsStatusAndWebhookUrls()
    {
        ChannelsPage page;
        page.setStatusFunction([](const QString &channel) {
            ChannelsPage::Status s;
            s.configured = channel != QLatin1String("instagram");
            s.down = channel == QLatin1String("whatsapp");
            s.reason = s.down ? QStringLiteral("timed out") : QString();
            return s;
        });
        page.show();
        QCOMPARE(page.statusLabel("telegram")->text(), QString("Configured"));
        QCOMPARE(page.statusLabel("whatsapp")->text(), QString("Provider down: timed out"));
        QCOMPARE(page.statusLabel("instagram")->text(), QString("Not configured"));
        QVERIFY(page.webhookUrlField("telegram")->text().isEmpty());
        page.setServerBaseUrl("https://crm.example.com/");
        QCOMPARE(page.webhookUrlField("telegram")->text(), QString("https://crm.example.com/webhooks/telegram"));
        QCOMPARE(page.webhookUrlField("whatsapp")->text(), QString("https://crm.example.com/webhooks/whatsapp"));
        QCOMPARE(page.webhookUrlField("instagram")->text(), QString("https://crm.example.com/webhooks/instagram"));
        QVERIFY(page.webhookUrlField("telegram")->isReadOnly());
        // Secrets are masked; every key of the form has its field.
        QCOMPARE(page.field("channels/telegram/botToken")->echoMode(), QLineEdit::PasswordEchoOnEdit);
        QCOMPARE(page.field("channels/telegram/apiBaseUrl")->echoMode(), QLineEdit::Normal);
        for (const QString &key : ChannelsPage::keys()) {
            if (!key.endsWith("/mode") && !key.endsWith("/sendPerSecond"))
                QVERIFY2(page.field(key), qPrintable(key));
        }
    }

    void testConnectionProbesTelegramWithTheFormValues()
    {
        FakeTelegram fake;
        ChannelsPage page;
        page.setProbeFunction(telegramProbe);
        page.show();
        QTest::keyClicks(page.field("channels/telegram/apiBaseUrl"), fake.baseUrl());
        QTest::keyClicks(page.field("channels/telegram/botToken"), fake.token());
        click(page.testButton("telegram"));
        QVERIFY(!page.testButton("telegram")->isEnabled());
        QCOMPARE(page.testResultLabel("telegram")->text(), QString("Testing…"));
        QTRY_VERIFY(page.testButton("telegram")->isEnabled());
        QCOMPARE(page.testResultLabel("telegram")->text(),
                 QString("Connection works: connected as @liaison_test_bot (Liaison Test)"));
        QCOMPARE(fake.callsOf("getMe").size(), 1);
        QCOMPARE(fake.callsOf("getMe").first().status, 200);

        // A wrong token: the fake refuses it and the page says so.
        page.field("channels/telegram/botToken")->clear();
        QTest::keyClicks(page.field("channels/telegram/botToken"), "42:wrong");
        click(page.testButton("telegram"));
        QTRY_VERIFY(page.testButton("telegram")->isEnabled());
        QVERIFY2(page.testResultLabel("telegram")->text().startsWith("Connection failed: the bot token was refused"),
                 qPrintable(page.testResultLabel("telegram")->text()));
        QCOMPARE(fake.problems(), QStringList());
    }

    void saveHandsOverEveryValue()
    {
        ChannelsPage page;
        ChannelsPage::Values saved;
        bool accept = true;
        page.setSaveFunction([&](const ChannelsPage::Values &values, QString *error) {
            saved = values;
            if (!accept)
                *error = QStringLiteral("channels/telegram/apiBaseUrl: the scheme must be https");
            return accept;
        });
        page.setValues({{"channels/telegram/botToken", "1:abc"}, {"channels/telegram/mode", "webhook"}});
        QCOMPARE(page.modeBox()->currentData().toString(), QString("webhook"));
        QCOMPARE(page.field("channels/telegram/botToken")->text(), QString("1:abc"));
        page.show();
        QTest::keyClicks(page.field("channels/telegram/secretToken"), "s3cret");
        QTest::keyClicks(page.field("channels/whatsapp/phoneNumberId"), "106540352242922");
        page.whatsAppRateBox()->setValue(20);
        click(page.saveButton());
        QCOMPARE(saved.value("channels/telegram/botToken"), QString("1:abc"));
        QCOMPARE(saved.value("channels/telegram/secretToken"), QString("s3cret"));
        QCOMPARE(saved.value("channels/telegram/mode"), QString("webhook"));
        QCOMPARE(saved.value("channels/whatsapp/phoneNumberId"), QString("106540352242922"));
        QCOMPARE(saved.value("channels/whatsapp/sendPerSecond"), QString("20"));
        QCOMPARE(saved.size(), ChannelsPage::keys().size());
        QVERIFY(page.saveResultLabel()->text().contains("next start"));

        accept = false;
        click(page.saveButton());
        QCOMPARE(page.saveResultLabel()->text(),
                 QString("Not saved: channels/telegram/apiBaseUrl: the scheme must be https"));
    }

    void opensFromSettingsDialog()
    {
        SettingsDialog dialog;
        dialog.addPage(ChannelsPage::tr("Channels"), new ChannelsPage);
        QVERIFY(dialog.showPage("channelsPage"));
    }
};

QTEST_MAIN(TestChannelsPage)
#include "test_channelspage.moc"
