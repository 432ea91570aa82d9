// Settings > Media driven as an admin would: the stored files and their size, a malformed public
// base URL refused before saving, Save handing the "media/…" values over, and "Delete expired now"
// removing expired files and their rows; over the real repository and a temporary database.
#include "model/core/database.h"
#include "model/core/eventbus.h"
#include "model/inbox/mediarepository.h"
#include "ui/settings/mediapage.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
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
};

QTEST_MAIN(TestMediaPage)
#include "test_mediapage.moc"
