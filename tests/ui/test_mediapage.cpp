// Settings > Media driven as an admin would: the stored files and their size, a malformed public
// base URL refused before saving, Save handing the "media/…" values over, and "Delete expired now"
// removing expired files and their rows; over the real repository and a temporary database. And
// Settings > Backups, which backs the database up with those files: the newest backup shown, Back
// up now in its thread (the file made, the label following), a failure said on the page, Save
// handing backup/keep over, and team mode making none.
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/inbox/mediarepository.h"
#include "ui/settings/backuppage.h"
#include "ui/settings/mediapage.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

class TestMediaPage final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<EventBus> m_bus;

    QString mediaDir() const { return m_dir->filePath(QStringLiteral("media")); }

    Media store(const QByteArray &bytes, const QString &name)
    {
        MediaUpload upload;
        upload.bytes = bytes;
        upload.filename = name;
        return MediaRepository(Store(*m_bus), mediaDir()).store(upload);
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_dir = std::make_unique<QTemporaryDir>();
        Database::setPath(m_dir->filePath(QStringLiteral("liaison.db")));
        Database::migrate();
        m_bus = std::make_unique<EventBus>();
    }

    void cleanup()
    {
        Database::closeThreadConnection();
        m_bus.reset();
        m_dir.reset();
    }

    void showsSettingsAndStoredFiles()
    {
        MediaPage page(mediaDir(), Store(*m_bus),
                       {{"media/maxUploadBytes", QString::number(8 * 1024 * 1024)},
                        {"media/lifetimeDays", "7"},
                        {"media/publicBaseUrl", "https://crm.example.com"}});
        QCOMPARE(page.maxUploadEdit()->value(), 8);
        QCOMPARE(page.lifetimeEdit()->value(), 7);
        QCOMPARE(page.publicBaseUrlEdit()->text(), QString("https://crm.example.com"));
        QCOMPARE(page.usageLabel()->text(), QString("No files are stored."));

        // A file stored elsewhere (the API) appears through the event bus.
        store(QByteArray(2048, 'a'), "a.txt");
        QTRY_VERIFY(page.usageLabel()->text().startsWith("Files: 1, 2"));
    }

    void refusesMalformedBaseUrl()
    {
        MediaPage page(mediaDir(), Store(*m_bus), {});
        QCOMPARE(page.maxUploadEdit()->value(), 16);
        QCOMPARE(page.lifetimeEdit()->value(), 30);
        int saves = 0;
        MediaPage::Values saved;
        page.setSaveFunction([&](const MediaPage::Values &v, QString *) {
            ++saves;
            saved = v;
            return true;
        });
        page.publicBaseUrlEdit()->setText("ftp://files.example.com");
        QTest::mouseClick(page.saveButton(), Qt::LeftButton);
        QCOMPARE(saves, 0);
        QVERIFY(page.statusLabel()->text().contains("http(s)"));

        page.publicBaseUrlEdit()->setText(" https://crm.example.com/ ");
        page.maxUploadEdit()->setValue(32);
        page.lifetimeEdit()->setValue(90);
        QTest::mouseClick(page.saveButton(), Qt::LeftButton);
        QCOMPARE(saves, 1);
        QCOMPARE(saved.value("media/maxUploadBytes"), QString::number(32 * 1024 * 1024));
        QCOMPARE(saved.value("media/lifetimeDays"), QString("90"));
        QCOMPARE(saved.value("media/publicBaseUrl"), QString("https://crm.example.com/"));
        QVERIFY(page.statusLabel()->text().startsWith("Saved"));
    }

    void saveFailureIsShown()
    {
        MediaPage page(mediaDir(), Store(*m_bus), {});
        page.setSaveFunction([](const MediaPage::Values &, QString *error) {
            *error = "disk full";
            return false;
        });
        QTest::mouseClick(page.saveButton(), Qt::LeftButton);
        QVERIFY(page.statusLabel()->text().contains("disk full"));
    }

    void deleteExpiredNow()
    {
        const Media old = store("old", "old.txt");
        const Media fresh = store("fresh", "fresh.txt");
        Database::exec("UPDATE media SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?", {old.id});
        MediaPage page(mediaDir(), Store(*m_bus), {});
        QVERIFY(page.usageLabel()->text().startsWith("Files: 2,"));
        QTest::mouseClick(page.cleanButton(), Qt::LeftButton);
        QCOMPARE(page.statusLabel()->text(), QString("Expired files deleted: 1."));
        QVERIFY(!QFile::exists(mediaDir() + "/" + old.id));
        QVERIFY(QFile::exists(mediaDir() + "/" + fresh.id));
        QTRY_VERIFY(page.usageLabel()->text().startsWith("Files: 1,"));
    }

    // ----- Settings > Backups -----

    void backupPageBacksUpNowAndShowsTheNewest()
    {
        store("a picture", "a.png");
        const Backup::Place place{m_dir->path(), m_dir->filePath(QStringLiteral("liaison.db")), mediaDir()};
        BackupPage page(place, 7, false);
        QCOMPARE(page.lastBackupLabel()->text(), QString("No backup yet."));
        QCOMPARE(page.keepEdit()->value(), 7);
        QSignalSpy finished(&page, &BackupPage::backupFinished);
        page.backUpNowButton()->click();
        QVERIFY(!page.backUpNowButton()->isEnabled()); // while it runs
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);
        QVERIFY(page.backUpNowButton()->isEnabled());
        const QList<QFileInfo> made = Backup::list(place.backupsDir());
        QCOMPARE(made.size(), 1);
        QVERIFY2(page.lastBackupLabel()->text().contains(made.first().fileName()),
                 qPrintable(page.lastBackupLabel()->text()));
        QVERIFY2(page.statusLabel()->text().startsWith("Backed up into liaison-"),
                 qPrintable(page.statusLabel()->text()));
        // One made elsewhere (the daily backup, another process) shows while the page is open.
        Backup::createInBackupsDir(place, QDateTime::currentDateTime().addDays(1), 7);
        QTRY_COMPARE(page.folderLabel()->text().contains("2)"), true);
        // The upload is in it: restored elsewhere, the file is there.
        QTemporaryDir elsewhere;
        const Backup::Place restored{elsewhere.path(), elsewhere.filePath(QStringLiteral("liaison.db")),
                                     elsewhere.filePath(QStringLiteral("media"))};
        QCOMPARE(Backup::restore(made.first().filePath(), restored, false).mediaFiles, 1);
    }

    void backupPageSaysWhyABackupFailed()
    {
        // DATA/backups is a file: the folder cannot be made.
        QFile blocker(m_dir->filePath(QStringLiteral("backups")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        BackupPage page({m_dir->path(), m_dir->filePath(QStringLiteral("liaison.db")), mediaDir()}, 7, false);
        QSignalSpy finished(&page, &BackupPage::backupFinished);
        page.backUpNow();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
        QVERIFY2(page.statusLabel()->text().startsWith("The backup failed: The backup could not be written to"),
                 qPrintable(page.statusLabel()->text()));
        QVERIFY2(page.statusLabel()->text().contains("its folder cannot be created"),
                 qPrintable(page.statusLabel()->text()));
        QCOMPARE(page.lastBackupLabel()->text(), QString("No backup yet."));
    }

    void backupPageSavesKeepAndTeamModeMakesNone()
    {
        BackupPage page({m_dir->path(), m_dir->filePath(QStringLiteral("liaison.db")), mediaDir()}, 7, false);
        BackupPage::Values saved;
        page.setSaveFunction([&](const BackupPage::Values &v, QString *) {
            saved = v;
            return true;
        });
        page.keepEdit()->setValue(14);
        page.saveButton()->click();
        QCOMPARE(saved, BackupPage::Values({{"backup/keep", "14"}}));

        BackupPage team({m_dir->path(), m_dir->filePath(QStringLiteral("liaison.db")), mediaDir()}, 7, true);
        QVERIFY(!team.backUpNowButton()->isEnabled());
        QVERIFY(team.lastBackupLabel()->text().contains("pg_dump"));
        team.backUpNow();
        QVERIFY(!team.isBackingUp());
    }
};

QTEST_MAIN(TestMediaPage)
#include "test_mediapage.moc"
