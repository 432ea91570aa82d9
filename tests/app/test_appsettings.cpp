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
