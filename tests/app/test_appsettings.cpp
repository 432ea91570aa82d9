// AppSettings on its own: what Settings pages save goes through writeIni (trimmed values written,
// an empty value removes its key, an unwritable file is reported), and --set overrides what the
// file says for this run only.
#include "app/appsettings.h"

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

class TestAppSettings final : public QObject
{
    Q_OBJECT

private slots:
    void writeIniWritesTrimmedAndRemovesEmpty()
    {
        QTemporaryDir dir;
        const AppSettings settings(dir.path());
        QCOMPARE(settings.iniPath(), dir.filePath("liaison.ini"));
        QString error;
        QVERIFY(AppSettings::writeIni(settings.iniPath(),
                                      {{"contacts/defaultCallingCode", " 90 "}, {"media/lifetimeDays", "30"}}, &error));
        QCOMPARE(settings.value("contacts/defaultCallingCode").toString(), QString("90"));
        QCOMPARE(settings.value("media/lifetimeDays").toString(), QString("30"));
        // An empty value removes the key; the others stay.
        QVERIFY(AppSettings::writeIni(settings.iniPath(), {{"contacts/defaultCallingCode", "  "}}, &error));
        QVERIFY(!QSettings(settings.iniPath(), QSettings::IniFormat).contains("contacts/defaultCallingCode"));
        QCOMPARE(settings.value("media/lifetimeDays").toString(), QString("30"));
        QVERIFY(error.isEmpty());
    }

    void overridesWinForThisRun()
    {
        QTemporaryDir dir;
        AppSettings settings(dir.path());
        QString error;
        QVERIFY(AppSettings::writeIni(settings.iniPath(), {{"contacts/defaultCallingCode", "90"}}, &error));
        QVERIFY(settings.addOverride("contacts/defaultCallingCode=49", &error));
        QCOMPARE(settings.value("contacts/defaultCallingCode").toString(), QString("49"));
        QCOMPARE(QSettings(settings.iniPath(), QSettings::IniFormat).value("contacts/defaultCallingCode").toString(),
                 QString("90"));
        QVERIFY(!settings.addOverride("nokey=1", &error));
        QVERIFY(error.contains("section/key=value"));
    }

    void smsSettings_data()
    {
        QTest::addColumn<QStringList>("overrides");
        QTest::addColumn<QString>("error"); // empty: accepted
        QTest::newRow("defaults") << QStringList{} << QString();
        QTest::newRow("complete") << QStringList{"channels/sms/apiBaseUrl=https://api.twilio.com/",
                                                 "channels/sms/accountSid=AC0123456789abcdef0123456789abcdef",
                                                 "channels/sms/from=+908501234567",
                                                 "campaigns/sms/messagesPerSecond=1",
                                                 "campaigns/sms/concurrency=8",
                                                 "campaigns/sms/maxPerHour=500"}
                                  << QString();
        QTest::newRow("loopback http") << QStringList{"channels/sms/apiBaseUrl=http://127.0.0.1:8089"} << QString();
        QTest::newRow("alphanumeric sender") << QStringList{"channels/sms/from=ORNEK"} << QString();
        // Empty is the default, as Settings > SMS shows it.
        QTest::newRow("empty base URL") << QStringList{"channels/sms/apiBaseUrl="} << QString();
        QTest::newRow("not a URL") << QStringList{"channels/sms/apiBaseUrl=twilio"}
                                   << QString("channels/sms/apiBaseUrl must be https (http only on a loopback "
                                              "address), got \"twilio\": not a valid URL");
        QTest::newRow("timeout too long") << QStringList{"channels/sms/timeoutSeconds=601"}
                                          << QString("channels/sms/timeoutSeconds must be an integer from 1 to 600");
        QTest::newRow("plain http") << QStringList{"channels/sms/apiBaseUrl=http://sms.ornek.com.tr"}
                                    << QString("channels/sms/apiBaseUrl must be https");
        QTest::newRow("bad account") << QStringList{"channels/sms/accountSid=12345"}
                                     << QString("channels/sms/accountSid must be an account SID");
        QTest::newRow("bad from") << QStringList{"channels/sms/from=0532-abc-!!"}
                                  << QString("channels/sms/from must be a phone number");
        QTest::newRow("pace not a number")
            << QStringList{"campaigns/sms/messagesPerSecond=fast"} << QString("campaigns/sms/messagesPerSecond");
        QTest::newRow("no concurrency") << QStringList{"campaigns/sms/concurrency=0"}
                                        << QString("campaigns/sms/concurrency");
    }
    void smsSettings()
    {
        QFETCH(QStringList, overrides);
        QFETCH(QString, error);
        QTemporaryDir dir;
        AppSettings settings(dir.path());
        QString why;
        for (const QString &o : std::as_const(overrides))
            QVERIFY2(settings.addOverride(o, &why), qPrintable(why));
        CampaignsConfig c;
        const bool ok = settings.campaignsConfig(&c, &why);
        QVERIFY2(ok == error.isEmpty(), qPrintable(why));
        if (!ok) {
            QVERIFY2(why.contains(error), qPrintable(why));
            return;
        }
        if (overrides.isEmpty() || QTest::currentDataTag() == QLatin1String("empty base URL")) {
            QCOMPARE(c.sms.perSecond, 10);
            QCOMPARE(c.smsApi.apiBaseUrl, QString("https://api.twilio.com"));
            QVERIFY(!c.smsApi.usable()); // no account, no token
        }
        if (QTest::currentDataTag() == QLatin1String("complete")) {
            QCOMPARE(c.smsApi.apiBaseUrl, QString("https://api.twilio.com"));
            QCOMPARE(c.sms.perSecond, 1);
            QCOMPARE(c.sms.concurrency, 8);
            QCOMPARE(c.sms.maxPerHour, 500);
            QCOMPARE(c.email.perSecond, 50); // e-mail's pace is its own
        }
    }

    void anUnwritableFileIsReported()
    {
        // A path under a regular file: not writable by anyone, root included.
        QTemporaryDir dir;
        QFile blocker(dir.filePath("data"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const QString ini = dir.filePath("data/liaison.ini");
        QString error;
        QVERIFY(!AppSettings::writeIni(ini, {{"media/lifetimeDays", "7"}}, &error));
        QVERIFY2(error.contains("cannot be written"), qPrintable(error));
    }
};

QTEST_MAIN(TestAppSettings)
#include "test_appsettings.moc"
